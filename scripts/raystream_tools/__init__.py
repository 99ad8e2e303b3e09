"""What the scripts share: image files (images), running raystream and reading its --stats JSON
(runs), medians and tables (tables), comparing images with a reference (compare), and the
benchmarks that scripts/bench.py runs (benchmarks/)."""

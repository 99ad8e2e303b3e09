"""What the scripts share: image files (images), running raystream and reading its --stats JSON
(runs), medians and tables (tables), and comparing images with a reference (compare)."""

"""The benchmarks that scripts/bench.py runs, one module each: SUMMARY (a line), add_arguments
(its options), optionally check_arguments (what argparse cannot check) and TAKES_RAYSTREAM_OPTIONS
(options after `--` go to its renders), and run(args, argv), which returns the exit status or
raises runs.ToolError."""
from . import (backends, bvh, denoise, kernel_profile, materials, meshes, nee, schedules,
               segment_bytes, shading, startup, stop, wavefront)

BENCHMARKS = {"schedules": schedules, "backends": backends, "wavefront": wavefront,
              "bytes": segment_bytes, "profile": kernel_profile, "shading": shading, "nee": nee,
              "meshes": meshes, "bvh": bvh, "startup": startup, "denoise": denoise, "stop": stop,
              "materials": materials}

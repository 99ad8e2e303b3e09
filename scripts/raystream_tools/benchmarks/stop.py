"""stop: what a stop signal costs a large render: the time from the signal to the exit, and the
peak memory, with the image and the checkpoint it writes.

    bench.py stop [--build build] [--resolution 8192x4096] [--after 10] [--runs 1]
                  [--out DIR] [-- RAYSTREAM_OPTIONS...]

Renders scenes/cornell.json at --resolution with the four AOVs into an EXR (spp high enough not to
end), sends SIGINT --after seconds after the start, and prints per run: the exit code, the seconds
from the signal to the exit, the process's peak resident memory (getrusage of the child), and the
sizes of the image and the checkpoint it wrote. Options after `--` go to raystream (`--device cpu`
to measure the CPU executor).
"""
import os
import resource
import signal
import subprocess
import time
from pathlib import Path

from .. import tables
from ..runs import ROOT, ToolError
from . import common

SUMMARY = "a stop signal on a large render: seconds to the exit, peak memory, what it wrote"
TAKES_RAYSTREAM_OPTIONS = True


def add_arguments(p):
    common.add_build(p)
    p.add_argument("--resolution", default="8192x4096")
    p.add_argument("--after", type=float, default=10.0, help="seconds from the start to SIGINT")
    p.add_argument("--runs", type=int, default=1)
    common.add_out(p, None, "a temporary folder for the image and checkpoint")


def run(args, argv):
    raystream = Path(args.build) / "raystream"
    if not raystream.exists():
        raise ToolError(f"{raystream}: no such binary (build it first)", code=2)
    out = common.out_folder(args.out, "raystream-stop-")
    rows = []
    for k in range(args.runs):
        image = out / f"stop_{k}.exr"
        for stale in (image, Path(str(image) + ".checkpoint")):
            if stale.exists():
                stale.unlink()
        command = [str(raystream), str(ROOT / "scenes" / "cornell.json"), "--resolution",
                   args.resolution, "--spp", "1000000", "--aov", "albedo,normal,depth,variance",
                   "--quiet", "-o", str(image)] + args.raystream_options
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(args.after)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate()
        seconds = time.monotonic() - sent
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if proc.returncode != 130:
            raise ToolError(f"exit {proc.returncode} (expected 130): {err.decode()[-500:]}")
        size = lambda p: os.path.getsize(p) / 2**20 if os.path.exists(p) else 0.0
        rows.append([k, proc.returncode, f"{seconds:.2f}",
                     f"{max(peak, before) / 2**20:.2f}", f"{size(image):.0f}",
                     f"{size(str(image) + '.checkpoint'):.0f}"])
    print(f"stop: {args.resolution}, four AOVs, SIGINT after {args.after} s "
          f"{' '.join(args.raystream_options)}")
    print(tables.text_table(["run", "exit", "s to exit", "peak GiB", "image MiB",
                             "checkpoint MiB"], rows))
    return 0

#!/usr/bin/env python3
"""raystream split across the processes of an MPI run, on the CPU executor.

  mpi_render_test.py --mpiexec MPIEXEC --binary RAYSTREAM --out SCRATCH_DIR

Two processes render the same image as one (up to the order of the film's additions and the
8-bit mantissas of the .hdr file), their statistics add up to the single process's, and a
process that fails (a bad scene on one rank, an output that cannot be written) ends every
process with a non-zero exit, the failing rank's message and no image; a run stopped by a time
budget writes a checkpoint per process and resumes to the uninterrupted image.
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "tests" / "data" / "tiny.json"
ARGS = None

# OpenMPI as root (CI runs as root), with no cross-memory attach in containers.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_rmaps_base_oversubscribe="1")


def read_hdr(path):
    """The pixels of a Radiance .hdr file (flat or run-length encoded) as floats."""
    data = Path(path).read_bytes()
    end = data.index(b"\n\n") + 2
    line_end = data.index(b"\n", end)
    _, height, _, width = data[end:line_end].split()
    width, height = int(width), int(height)
    pos = line_end + 1
    pixels = []
    for _ in range(height):
        row = [[0] * 4 for _ in range(width)]
        if data[pos] == 2 and data[pos + 1] == 2:
            pos += 4
            for c in range(4):
                x = 0
                while x < width:
                    n = data[pos]
                    pos += 1
                    if n > 128:
                        n -= 128
                        for k in range(n):
                            row[x + k][c] = data[pos]
                        pos += 1
                    else:
                        for k in range(n):
                            row[x + k][c] = data[pos + k]
                        pos += n
                    x += n
        else:
            for x in range(width):
                row[x] = list(data[pos:pos + 4])
                pos += 4
        for r, g, b, e in row:
            scale = 2.0 ** (e - 136) if e else 0.0
            pixels.extend([r * scale, g * scale, b * scale])
    return width, height, pixels


def read_pfm(path):
    """The pixels of a colour PFM file as floats."""
    data = Path(path).read_bytes()
    header, pos = [], 0
    while len(header) < 3:
        end = data.index(b"\n", pos)
        header.append(data[pos:end].decode())
        pos = end + 1
    width, height = (int(v) for v in header[1].split())
    return width, height, struct.unpack(f"<{3 * width * height}f", data[pos:pos + 12 * width * height])


def run(cmd, **kwargs):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=ENV,
                          timeout=300, **kwargs)


def render_args(out_name, scene=SCENE, extra=()):
    out = Path(ARGS.out) / out_name
    return [ARGS.binary, scene, "--device", "cpu", "--spp", "5", "--seed", "3", "-q",
            "--output", out.with_suffix(".hdr"), "--stats", out.with_suffix(".json"), *extra]


class MpiRender(unittest.TestCase):
    def test_two_processes_render_the_image_of_one(self):
        one = run(render_args("one"))
        self.assertEqual(one.returncode, 0, one.stderr)
        two = run([ARGS.mpiexec, "-np", "2", *render_args("two")])
        self.assertEqual(two.returncode, 0, two.stdout + two.stderr)
        self.assertIn("rank", two.stdout)  # the leader's report lists the ranks
        w1, h1, a = read_hdr(Path(ARGS.out) / "one.hdr")
        w2, h2, b = read_hdr(Path(ARGS.out) / "two.hdr")
        self.assertEqual((w1, h1), (w2, h2))
        self.assertGreater(sum(a), 0.0)
        for k, (x, y) in enumerate(zip(a, b)):
            # The .hdr stores 8-bit mantissas: one step is 1/256 of the value's power of two.
            self.assertLessEqual(abs(x - y), max(1e-6, 0.01 * max(abs(x), abs(y))), f"value {k}")
        s1 = json.loads((Path(ARGS.out) / "one.json").read_text())
        s2 = json.loads((Path(ARGS.out) / "two.json").read_text())
        self.assertEqual(s2["spp"], 5)
        self.assertEqual(s2["path_segments"], s1["path_segments"])
        for key in ("paths_in", "paths_out", "shadow_rays"):
            self.assertEqual([b[key] for b in s2["bounces"]], [b[key] for b in s1["bounces"]], key)
        self.assertGreater(s2["shadow_rays"], 0)
        self.assertEqual(s2["shadow_rays"], s1["shadow_rays"])
        shares = s2["shares"]
        self.assertEqual([s["rank"] for s in shares], [0, 1])
        self.assertEqual([s["spp"] for s in shares], [3, 2])
        self.assertEqual([s["first_sample"] for s in shares], [0, 3])
        self.assertEqual(sum(s["path_segments"] for s in shares), s2["path_segments"])

    def test_a_stopped_run_resumes_to_the_image_of_an_uninterrupted_one(self):
        # Each process writes its own checkpoint (<image>.checkpoint.rank<R>) when a time budget
        # stops it; --resume names the first and each process reads its own. The resumed image
        # equals the uninterrupted one within the summation tolerance (the same samples, added
        # in another order).
        out = Path(ARGS.out)
        common = [ARGS.binary, SCENE, "--device", "cpu", "--spp", "40000", "--seed", "3", "-q"]
        whole = run([ARGS.mpiexec, "-np", "2", *common, "-o", out / "whole.pfm"])
        self.assertEqual(whole.returncode, 0, whole.stdout + whole.stderr)
        part = out / "part.pfm"
        for f in out.glob("part.pfm*"):
            f.unlink()
        first = run([ARGS.mpiexec, "-np", "2", *common, "-o", part, "--time", "1",
                     "--checkpoint", "1000", "--stats", out / "part.json"])
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        stats = json.loads((out / "part.json").read_text())
        self.assertEqual(stats["stopped"], "time budget")
        self.assertLess(stats["samples"], 40000 * 24 * 16)
        for rank in (0, 1):
            self.assertTrue((out / f"part.pfm.checkpoint.rank{rank}").exists(), rank)
        second = run([ARGS.mpiexec, "-np", "2", *common, "-o", part, "--resume",
                      out / "part.pfm.checkpoint", "--stats", out / "resumed.json"])
        self.assertEqual(second.returncode, 0, second.stdout + second.stderr)
        resumed = json.loads((out / "resumed.json").read_text())
        self.assertEqual(resumed["film_samples"], 40000 * 24 * 16)
        _, _, a = read_pfm(out / "whole.pfm")
        _, _, b = read_pfm(part)
        self.assertGreater(sum(a), 0.0)
        for k, (x, y) in enumerate(zip(a, b)):
            self.assertLessEqual(abs(x - y), max(1e-6, 1e-5 * max(abs(x), abs(y))), f"value {k}")

    def test_a_bad_scene_on_one_rank_ends_every_rank(self):
        good, bad = Path(ARGS.out) / "good", Path(ARGS.out) / "bad"
        for d in (good, bad):
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
        shutil.copy(SCENE, good / "scene.json")
        (bad / "scene.json").write_text('{"Materials": {')
        image = Path(ARGS.out) / "split.hdr"
        image.unlink(missing_ok=True)
        args = [ARGS.binary, "scene.json", "--device", "cpu", "--spp", "2", "-q", "-o", image]
        r = run([ARGS.mpiexec, "-np", "1", "-wdir", good, *args, ":", "-np", "1", "-wdir", bad,
                 *args])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("rank 1: scene.json", r.stderr)
        self.assertIn("malformed JSON", r.stderr)
        self.assertFalse(image.exists())

    def test_an_output_that_cannot_be_written_ends_every_rank(self):
        blocker = Path(ARGS.out) / "not_a_folder"
        blocker.write_text("a file where a folder should be\n")
        r = run([ARGS.mpiexec, "-np", "2", ARGS.binary, SCENE, "--device", "cpu", "--spp", "2",
                 "-q", "-o", blocker / "x.png"])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not_a_folder", r.stderr)
        self.assertEqual(r.stderr.count("raystream: error:"), 1, r.stderr)  # one message


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.binary = str(Path(ARGS.binary).resolve())
    Path(ARGS.out).mkdir(parents=True, exist_ok=True)
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()

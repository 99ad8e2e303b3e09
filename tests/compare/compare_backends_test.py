#!/usr/bin/env python3
"""Tests of scripts/compare_backends.py.

  compare_backends_test.py --build BUILD_DIR --out SCRATCH_DIR [unittest arguments]

The arithmetic (warm-up, medians, ratios, names, mesh detection) on made-up stats, and the whole
command in its quick CPU mode on a tiny scene through the two binaries in BUILD_DIR: the CSV has
the required columns and one row per backend and setting, every stats JSON is kept, and
--plots-only makes the same CSV again from those JSONs.
"""

import argparse
import csv
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "compare_backends.py"
SCENE = "tests/render/data/tiny.json"
REQUIRED = ["scene", "backend", "compact", "sort", "width", "height", "depth", "frame_ms",
            "compact_ms", "sort_ms", "samples_per_s"]
BUILD = None
OUT = None

spec = importlib.util.spec_from_file_location("compare_backends", SCRIPT)
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)


def has_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def fake_stats(backend="own", compact=True, sort=False, each=None, scene="scenes/box.json"):
    each = each if each is not None else [9.0, 2.0, 4.0, 3.0, 1.0]
    frames = len(each)
    return {
        "scene": scene, "backend": backend, "binary_backend": backend, "executor": "gpu",
        "device": "Some GPU  X1", "width": 4, "height": 2, "frames": frames, "depth": 2,
        "sort_by_material": sort, "compact": compact, "total_ms": sum(each),
        "frame_ms": {"mean": sum(each) / frames, "median": sorted(each)[frames // 2],
                     "min": min(each), "max": max(each), "each": each},
        "samples_per_second": 8 * frames / (sum(each) / 1000.0),
        "stage_ms": {"intersect": 5.0, "sort": 2.5 if sort else 0.0, "shade": 4.0,
                     "compact": 1.0 if compact else 0.0},
        "bounces": [{"bounce": 0, "paths_in": 8 * frames, "paths_out": 4 * frames,
                     "paths_in_per_frame": 8.0, "paths_out_per_frame": 4.0,
                     "ms": {}, "ms_per_frame": {"intersect": 0.5, "sort": 0.0, "shade": 0.4,
                                                "compact": 0.1}}],
    }


class Arithmetic(unittest.TestCase):

    def test_warmup_frames(self):
        self.assertEqual(cb.warmup_frames(1), 0)
        self.assertEqual(cb.warmup_frames(2), 1)
        self.assertEqual(cb.warmup_frames(50), 5)
        self.assertEqual(cb.warmup_frames(1000), 20)
        self.assertEqual(cb.warmup_frames(10, requested=0), 0)
        self.assertEqual(cb.warmup_frames(10, requested=50), 9)

    def test_median_leaves_out_warmup(self):
        # each = [9, 2, 4, 3, 1]; warm-up 1 leaves [2, 4, 3, 1]: median 2.5 (9 would make it 3).
        row = cb.summarize(fake_stats(), warmup=1)
        self.assertAlmostEqual(row["frame_ms"], 2.5)
        self.assertEqual(row["warmup_frames"], 1)
        row = cb.summarize(fake_stats(), warmup=0)
        self.assertAlmostEqual(row["frame_ms"], 3.0)

    def test_per_frame_stage_times_and_share(self):
        row = cb.summarize(fake_stats(sort=True), warmup=1)
        self.assertAlmostEqual(row["compact_ms"], 1.0 / 5)
        self.assertAlmostEqual(row["sort_ms"], 2.5 / 5)
        self.assertAlmostEqual(row["intersect_ms"], 1.0)
        self.assertAlmostEqual(row["share_compact_sort"], (0.2 + 0.5) / (19.0 / 5))
        self.assertEqual((row["scene"], row["backend"], row["compact"], row["sort"]),
                         ("box", "own", "on", "on"))

    def test_thrust_over_own(self):
        rows = [cb.summarize(fake_stats("own", each=[2.0, 2.0, 2.0]), warmup=0),
                cb.summarize(fake_stats("thrust", each=[3.0, 3.0, 3.0]), warmup=0),
                cb.summarize(fake_stats("own", compact=False, each=[1.0]), warmup=0)]
        cb.add_ratios(rows)
        self.assertAlmostEqual(rows[0]["thrust_over_own"], 1.5)
        self.assertAlmostEqual(rows[1]["thrust_over_own"], 1.5)
        self.assertIsNone(rows[2]["thrust_over_own"])  # no Thrust row for compact off
        lines = cb.target_lines(rows)
        self.assertTrue(any("lowest thrust/own 1.50" in line and ": met" in line for line in lines),
                        lines)

    def test_own_slower_is_a_miss(self):
        rows = cb.add_ratios([cb.summarize(fake_stats("own", each=[3.0]), warmup=0),
                              cb.summarize(fake_stats("thrust", each=[2.0]), warmup=0)])
        self.assertTrue(any("missed" in line for line in cb.target_lines(rows)))

    def test_gpu_name(self):
        self.assertEqual(cb.gpu_name({"device": "NVIDIA H200", "executor": "gpu"}), "NVIDIA-H200")
        self.assertEqual(cb.gpu_name({"device": " Some GPU  X1/2 ", "executor": "gpu"}),
                         "Some-GPU-X12")
        self.assertTrue(cb.gpu_name({"device": "2 threads", "executor": "cpu"}).startswith("cpu-"))

    def test_mesh_scenes_are_not_defaults(self):
        with tempfile.TemporaryDirectory() as d:
            plain = Path(d) / "plain.json"
            plain.write_text('{"Objects": [{"TYPE": "sphere"}, // a "mesh" in a comment\n'
                             '{"TYPE": "Cube", "MATERIAL": "a//b"}]}')
            mesh = Path(d) / "mesh.json"
            mesh.write_text('{"Objects": [{"TYPE": "cube"}, {"TYPE": "mesh", "FILE": "x.obj"}]}')
            self.assertFalse(cb.is_mesh_scene(plain))
            self.assertTrue(cb.is_mesh_scene(mesh))
        defaults = [Path(p).relative_to(ROOT).as_posix() for p in cb.default_scenes()]
        self.assertIn("scenes/cornell.json", defaults)
        self.assertIn("scenes/materials.json", defaults)


class QuickRun(unittest.TestCase):
    """The whole command on the CPU executor through both binaries."""

    @classmethod
    def setUpClass(cls):
        cls.out = Path(OUT)
        shutil.rmtree(cls.out, ignore_errors=True)
        cls.plots = has_matplotlib()
        cmd = [sys.executable, str(SCRIPT), "--quick", "--build", BUILD, "--scenes", SCENE,
               "--out", str(cls.out)] + ([] if cls.plots else ["--no-plots"])
        cls.proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)

    def setUp(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stdout + self.proc.stderr)

    def csv_files(self):
        return sorted(self.out.glob("*.csv"))

    def test_csv_columns_and_rows(self):
        files = self.csv_files()
        self.assertEqual(len(files), 1, files)
        self.assertTrue(files[0].stem.lower().startswith("cpu"), files[0])
        with open(files[0], newline="") as f:
            reader = csv.DictReader(f)
            for column in REQUIRED:
                self.assertIn(column, reader.fieldnames)
            rows = list(reader)
        combos = sorted((r["backend"], r["compact"], r["sort"]) for r in rows)
        expected = sorted((b, c, s) for b in ("own", "thrust") for c in ("on", "off")
                          for s in ("on", "off"))
        self.assertEqual(combos, expected)
        for r in rows:
            self.assertEqual((r["scene"], r["width"], r["height"], r["depth"]),
                             ("tiny", "32", "18", "8"))
            self.assertEqual(r["frames"], "2")
            self.assertGreater(float(r["frame_ms"]), 0.0)
            self.assertGreater(float(r["samples_per_s"]), 0.0)
            self.assertGreaterEqual(float(r["compact_ms"]), 0.0)
            self.assertGreater(float(r["thrust_over_own"]), 0.0)
            if r["sort"] == "off":
                self.assertEqual(float(r["sort_ms"]), 0.0)

    def test_stats_json_kept_for_each_render(self):
        folder = self.out / self.csv_files()[0].stem
        names = sorted(p.name for p in folder.glob("*.json") if p.name != "run.json")
        self.assertEqual(len(names), 8, names)
        self.assertIn("tiny__thrust__compact-off__sort-on.json", names)
        stats = json.loads((folder / "tiny__thrust__compact-off__sort-on.json").read_text())
        self.assertEqual(stats["binary_backend"], "thrust")
        self.assertEqual((stats["compact"], stats["sort_by_material"]), (False, True))
        self.assertEqual(stats["executor"], "cpu")

    def test_markdown_and_stdout_table(self):
        md = self.csv_files()[0].with_suffix(".md").read_text()
        self.assertIn("| scene | compact | sort | backend | frame ms (median)", md)
        self.assertEqual(md.count("\n| tiny |"), 8)
        self.assertIn("## Targets", md)
        self.assertIn("thrust/own", self.proc.stdout)
        self.assertEqual(self.proc.stdout.count("\ntiny "), 8, self.proc.stdout)

    def test_plots(self):
        if not self.plots:
            self.skipTest("matplotlib is not installed")
        stem = self.csv_files()[0].stem
        for kind in ("stages", "live-paths", "frame-time", "sort"):
            png = self.out / f"{stem}-{kind}.png"
            self.assertTrue(png.is_file(), png)
            self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")

    def test_plots_only_remakes_the_same_csv(self):
        csv_file = self.csv_files()[0]
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.run(
                [sys.executable, str(SCRIPT), "--plots-only", str(self.out / csv_file.stem),
                 "--out", d, "--no-plots"], cwd=ROOT, capture_output=True, text=True, timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual((Path(d) / csv_file.name).read_text(), csv_file.read_text())
            self.assertEqual(len(list((Path(d) / csv_file.stem).glob("*__*.json"))), 8)


class Failures(unittest.TestCase):

    def run_script(self, *args):
        with tempfile.TemporaryDirectory() as d:
            return subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", d] + list(args),
                                  cwd=ROOT, capture_output=True, text=True, timeout=120)

    def test_missing_scene(self):
        proc = self.run_script("--build", BUILD, "--scenes", "no/such/scene.json")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("no/such/scene.json", proc.stderr)

    def test_missing_binaries(self):
        with tempfile.TemporaryDirectory() as empty:
            proc = self.run_script("--build", empty, "--scenes", SCENE)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("raystream", proc.stderr)

    def test_failing_render_stops_with_its_command(self):
        proc = self.run_script("--build", BUILD, "--scenes", "tests/render/data/malformed.json")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("malformed.json", proc.stderr)

    def test_bad_resolution(self):
        proc = self.run_script("--build", BUILD, "--resolution", "12by4")
        self.assertEqual(proc.returncode, 2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--out", required=True)
    known, rest = parser.parse_known_args()
    BUILD, OUT = str(Path(known.build).resolve()), known.out
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)

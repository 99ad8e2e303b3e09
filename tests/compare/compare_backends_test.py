#!/usr/bin/env python3
"""Tests of the backends benchmark, `scripts/bench.py backends` (scripts/raystream_tools/benchmarks/
backends*.py).

  compare_backends_test.py --build BUILD_DIR --out SCRATCH_DIR [unittest arguments]

The arithmetic on made-up stats (ms per spp, stage shares, the low-fill share, thrust/own,
over_megakernel, warm-up and medians, the target lines met and missed, per-scene settings, names,
mesh detection), and the whole command in its quick CPU mode on a tiny scene through the two
binaries in BUILD_DIR: the CSV has the required columns and one row per schedule, backend and
setting, every stats JSON is kept, and --plots-only makes the same CSV again from those JSONs.
"""

import argparse
import csv
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = [str(ROOT / "scripts" / "bench.py"), "backends"]
SCENE = "tests/data/tiny.json"
LABEL = "tests-data-tiny"  # the scene's name: its path in the repository
REQUIRED = ["scene", "schedule", "backend", "compact", "sort", "width", "height", "depth", "spp",
            "ms_per_spp", "samples_per_s", "path_segments_per_s", "compact_ms_per_spp",
            "sort_ms_per_spp", "regenerate_ms_per_spp", "share_compact_sort", "share_low_fill",
            "thrust_over_own", "over_megakernel", "frame_ms", "pool", "stage_timing", "device",
            "executor", "stats_file"]
# (schedule, compact, sort) of the quick run's renders; the megakernel only with the own binary.
SETTINGS = [("megakernel", "off", "off"), ("stream", "on", "off"), ("stream", "on", "on"),
            ("frame", "on", "off"), ("frame", "on", "on"), ("frame", "off", "off")]
EXPECTED = sorted((s, b, c, o) for s, c, o in SETTINGS
                  for b in (("own",) if s == "megakernel" else ("own", "thrust")))
BUILD = None
OUT = None

sys.path.insert(0, str(ROOT / "scripts"))
from raystream_tools.benchmarks import backends, backends_report, backends_rows  # noqa: E402
from raystream_tools.runs import ToolError  # noqa: E402

# The benchmark's functions, whichever of its modules holds them.
cb = types.SimpleNamespace(**{**vars(backends_rows), **vars(backends_report), **vars(backends)})


def has_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def fake_stats(schedule="frame", backend="own", compact=True, sort=False, total_ms=20.0, spp=5,
               scene="scenes/box.json", each=None, fill_ms=None):
    """Stats of a 4x2 render: samples/s follows from total_ms; the stage totals are shares of it:
    compact 5%, sort 12.5% (when on), regenerate 15% (stream), intersect 25%, shade 20% (at 20 ms:
    1, 2.5, 3, 5, 4 ms); fill_ms: the by_fill ms, >= 90% .. < 10% (stream)."""
    share = {"regenerate": 0.15 if schedule == "stream" else 0.0, "intersect": 0.25,
             "sort": 0.125 if sort else 0.0, "shade": 0.2, "compact": 0.05 if compact else 0.0}
    if each is None:
        each = [] if schedule == "stream" else [9.0, 2.0, 4.0, 3.0, 1.0]
    stats = {
        "scene": scene, "backend": backend, "binary_backend": backend, "executor": "gpu",
        "device": "Some GPU  X1", "schedule": schedule, "pool": 64, "stage_timing": "sampled",
        "width": 4, "height": 2, "spp": spp, "frames": spp, "depth": 2,
        "sort_by_material": sort, "compact": compact, "total_ms": total_ms,
        "samples_per_second": 8 * spp / (total_ms / 1000.0),
        "path_segments_per_second": 16 * spp / (total_ms / 1000.0),
        "timed_units": 0 if schedule == "megakernel" else 1,
        "frame_ms": {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0, "each": each},
        "stage_ms": {stage: s * total_ms for stage, s in share.items()},
        "bounces": [{"bounce": 0, "paths_in": 8 * spp, "paths_out": 4 * spp,
                     "paths_in_per_frame": 8.0, "paths_out_per_frame": 4.0,
                     "ms": {"intersect": 0.5, "sort": 0.0, "shade": 0.4, "compact": 0.1},
                     "ms_per_frame": {"intersect": 0.1, "sort": 0.0, "shade": 0.08,
                                      "compact": 0.02}}],
    }
    if schedule == "megakernel":
        stats["stage_ms"] = dict.fromkeys(stats["stage_ms"], 0.0)
    if schedule == "stream":
        fill_ms = fill_ms or [6.0, 2.0, 1.0, 1.0]
        stats["waves"] = {"count": 4, "by_fill": [
            {"fill": f, "waves": 1, "paths": 8, "regenerated": 0, "ms": ms}
            for f, ms in zip((">= 90%", "50-90%", "10-50%", "< 10%"), fill_ms)]}
    return stats


def rows_of(*stats):
    return cb.add_ratios([cb.summarize(s, warmup=0, stats_file=str(i))
                          for i, s in enumerate(stats)])


class Arithmetic(unittest.TestCase):

    def test_warmup_frames(self):
        self.assertEqual(cb.warmup_frames(1), 0)
        self.assertEqual(cb.warmup_frames(2), 1)
        self.assertEqual(cb.warmup_frames(50), 5)
        self.assertEqual(cb.warmup_frames(1000), 20)
        self.assertEqual(cb.warmup_frames(10, requested=0), 0)
        self.assertEqual(cb.warmup_frames(10, requested=50), 9)

    def test_frame_ms_median_leaves_out_warmup(self):
        # each = [9, 2, 4, 3, 1]; warm-up 1 leaves [2, 4, 3, 1]: median 2.5 (9 would make it 3).
        self.assertAlmostEqual(cb.summarize(fake_stats(), warmup=1)["frame_ms"], 2.5)
        self.assertAlmostEqual(cb.summarize(fake_stats(), warmup=0)["frame_ms"], 3.0)
        self.assertIsNone(cb.summarize(fake_stats("stream"))["frame_ms"])

    def test_ms_per_spp_and_shares_of_total_ms(self):
        row = cb.summarize(fake_stats("frame", sort=True, total_ms=20.0, spp=5))
        self.assertEqual((row["scene"], row["schedule"], row["backend"], row["compact"],
                          row["sort"], row["spp"]), ("box", "frame", "own", "on", "on", 5))
        self.assertAlmostEqual(row["ms_per_spp"], 4.0)
        self.assertAlmostEqual(row["samples_per_s"], 2000.0)
        self.assertAlmostEqual(row["path_segments_per_s"], 4000.0)
        self.assertAlmostEqual(row["compact_ms_per_spp"], 0.2)
        self.assertAlmostEqual(row["sort_ms_per_spp"], 0.5)
        self.assertAlmostEqual(row["regenerate_ms_per_spp"], 0.0)
        self.assertAlmostEqual(row["share_compact_sort"], 3.5 / 20.0)
        self.assertIsNone(row["share_low_fill"])
        self.assertEqual((row["pool"], row["stage_timing"]), (64, "sampled"))

    def test_stream_low_fill_share_and_regenerate(self):
        row = cb.summarize(fake_stats("stream", fill_ms=[6.0, 2.0, 1.5, 0.5], spp=4))
        self.assertAlmostEqual(row["share_low_fill"], 0.5 / 10.0)
        self.assertAlmostEqual(row["regenerate_ms_per_spp"], 0.75)
        self.assertEqual(row["compact"], "on")

    def test_fixed_switches_and_untimed_stages(self):
        # The megakernel neither compacts nor sorts whatever the JSON echoes, and has no stages;
        # stream always compacts.
        row = cb.summarize(fake_stats("megakernel", compact=True, sort=True))
        self.assertEqual((row["compact"], row["sort"]), ("off", "off"))
        for column in ("compact_ms_per_spp", "sort_ms_per_spp", "share_compact_sort"):
            self.assertIsNone(row[column])
        self.assertEqual(cb.summarize(fake_stats("stream", compact=False))["compact"], "on")

    def test_old_stats_are_frame_rows(self):
        old = fake_stats("frame")
        for key in ("schedule", "spp", "timed_units", "pool", "stage_timing"):
            del old[key]
        del old["stage_ms"]["regenerate"]
        row = cb.summarize(old)
        self.assertEqual((row["schedule"], row["spp"]), ("frame", 5))
        self.assertAlmostEqual(row["share_compact_sort"], 1.0 / 20.0)

    def test_thrust_over_own_and_over_megakernel(self):
        rows = rows_of(fake_stats("megakernel", total_ms=40.0),
                       fake_stats("stream", "own", total_ms=10.0),
                       fake_stats("stream", "thrust", total_ms=15.0),
                       fake_stats("frame", "own", compact=False, total_ms=20.0))
        mega, own, thrust, frame = rows
        self.assertAlmostEqual(own["thrust_over_own"], 1.5)
        self.assertAlmostEqual(thrust["thrust_over_own"], 1.5)
        self.assertIsNone(frame["thrust_over_own"])  # no Thrust row for this setting
        self.assertAlmostEqual(mega["over_megakernel"], 1.0)
        self.assertAlmostEqual(own["over_megakernel"], 4.0)
        self.assertAlmostEqual(thrust["over_megakernel"], 40.0 / 15.0)  # the own megakernel
        self.assertAlmostEqual(frame["over_megakernel"], 2.0)
        # A Thrust megakernel, where there is one, is Thrust's base.
        rows = rows_of(fake_stats("megakernel", "own", total_ms=40.0),
                       fake_stats("megakernel", "thrust", total_ms=30.0),
                       fake_stats("stream", "thrust", total_ms=15.0))
        self.assertAlmostEqual(rows[2]["over_megakernel"], 2.0)
        self.assertIsNone(rows_of(fake_stats("stream"))[0]["over_megakernel"])

    def target(self, lines, start):
        found = [line for line in lines if line.startswith(start)]
        self.assertEqual(len(found), 1, lines)
        return found[0]

    def test_targets_met(self):
        # smallpt: 8 * 4000 samples in 0.01 ms = 3.2e9 samples/s; cornell: stream 3x frame,
        # Thrust 1.5x own; low fill 4%; compaction + sort 17.5% of a 20 ms render (missed).
        big = {"spp": 4000, "scene": "scenes/smallpt.json"}
        cornell = {"scene": "scenes/cornell.json"}
        lines = cb.target_lines(rows_of(
            fake_stats("megakernel", total_ms=0.02, **big),
            fake_stats("stream", total_ms=0.01, fill_ms=[90, 4, 2, 4], **big),
            fake_stats("stream", total_ms=10.0, fill_ms=[90, 4, 2, 4], **cornell),
            fake_stats("stream", "thrust", total_ms=15.0, **cornell),
            fake_stats("stream", sort=True, total_ms=20.0, fill_ms=[90, 4, 2, 4], **cornell),
            fake_stats("frame", total_ms=30.0, **cornell),
            fake_stats("frame", compact=False, total_ms=40.0, **cornell)))
        self.assertRegex(self.target(lines, "smallpt, stream (own): "), r"3\.2e\+09.*: met$")
        self.assertRegex(self.target(lines, "smallpt, stream (own) >= 1.0x"), r"2\.00x.*: met$")
        self.assertRegex(self.target(lines, "cornell, stream (own) >= 2x"), r"3\.00x.*: met$")
        self.assertRegex(self.target(lines, "cornell, stream, sort off: own >= 1.3x"),
                         r"1\.50x.*: met$")
        self.assertRegex(self.target(lines, "Every scene, stream (own): waves under 10%"),
                         r"highest 4\.0%.*: met$")
        self.assertRegex(self.target(lines, "Every scene, own, stream and frame"),
                         r"highest 17\.5% \(cornell, stream, sort on\): missed$")
        self.assertRegex(self.target(lines, "Own at least as fast as Thrust"), r"1\.50.*: met$")
        self.assertRegex(self.target(lines, "Sorting by material on cornell (stream, own)"),
                         r"speedup 0\.50, does not pay$")
        self.assertRegex(self.target(lines, "Compaction on cornell (frame, own, sort off)"),
                         r"speedup 1\.33$")

    def test_targets_missed(self):
        cornell = {"scene": "scenes/cornell.json"}
        lines = cb.target_lines(rows_of(
            fake_stats("megakernel", total_ms=10.0, scene="scenes/smallpt.json"),
            fake_stats("stream", total_ms=20.0, fill_ms=[18, 0, 1, 1], scene="scenes/smallpt.json"),
            fake_stats("stream", total_ms=10.0, fill_ms=[6, 2, 1, 1], **cornell),
            fake_stats("stream", "thrust", total_ms=12.0, **cornell),
            fake_stats("stream", sort=True, total_ms=8.0, **cornell),
            fake_stats("frame", total_ms=15.0, **cornell)))
        self.assertRegex(self.target(lines, "smallpt, stream (own): "), r": missed$")
        self.assertRegex(self.target(lines, "smallpt, stream (own) >= 1.0x"), r"0\.50x.*: missed$")
        self.assertRegex(self.target(lines, "cornell, stream (own) >= 2x"), r"1\.50x.*: missed$")
        self.assertRegex(self.target(lines, "cornell, stream, sort off: own >= 1.3x"),
                         r"1\.20x.*: missed$")
        self.assertRegex(self.target(lines, "Every scene, stream (own): waves under 10%"),
                         r"highest 10\.0% \(cornell, sort (on|off)\): missed$")
        self.assertRegex(self.target(lines, "Sorting by material on cornell (stream, own)"),
                         r"speedup 1\.25, pays$")
        self.assertFalse([line for line in lines if line.startswith("Compaction on")], lines)

    def test_own_slower_is_a_miss(self):
        lines = cb.target_lines(rows_of(fake_stats("frame", "own", total_ms=3.0),
                                        fake_stats("frame", "thrust", total_ms=2.0)))
        self.assertRegex(self.target(lines, "Own at least as fast as Thrust"),
                         r"missed; own slower on box \(frame, compact on, sort off: 0\.67\)$")

    def test_targets_need_their_rows(self):
        self.assertEqual(cb.target_lines(rows_of(fake_stats("megakernel"))), [])

    def test_scene_settings(self):
        self.assertEqual(cb.parse_scene_setting("smallpt=1024x768:64:256"),
                         ("smallpt", {"resolution": "1024x768", "depth": 64, "spp": 256}))
        self.assertEqual(cb.parse_scene_setting("cornell=::128"), ("cornell", {"spp": 128}))
        self.assertEqual(cb.parse_scene_setting("a.b=16x8"), ("a.b", {"resolution": "16x8"}))
        for bad in ("smallpt", "smallpt=1024:64", "x=1x1:0:1", "x=1x1:1:1:1"):
            with self.assertRaises(ValueError, msg=bad):
                cb.parse_scene_setting(bad)
        args = cb.parse_args(["--scene-settings", "smallpt=1024x768:64:256", "cornell=::128"])
        self.assertEqual(cb.scene_settings(args, "smallpt"),
                         {"resolution": "1024x768", "depth": 64, "spp": 256})
        self.assertEqual(cb.scene_settings(args, "cornell"),
                         {"resolution": "1920x1080", "depth": 8, "spp": 128})
        self.assertEqual(cb.scene_settings(cb.parse_args(["--quick"]), "open"),
                         {"resolution": "32x18", "depth": 4, "spp": 2})

    def test_planned_runs(self):
        runs = cb.planned_runs(cb.parse_args([]), ["a.json"])
        self.assertEqual(sorted((s, b, cb.on_off(c), cb.on_off(o)) for _, s, c, o, b in runs),
                         EXPECTED)
        runs = cb.planned_runs(cb.parse_args(["--schedules", "megakernel,stream"]), ["a.json"])
        self.assertEqual(sorted({run[1] for run in runs}), ["megakernel", "stream"])

    def test_check_settings(self):
        stats = fake_stats("stream", sort=True)
        want = {"schedule": "stream", "backend": "own", "compact": True, "sort": True,
                "width": 4, "height": 2, "depth": 2, "spp": 5}
        cb.check_settings(stats, want)
        for key, value in (("schedule", "frame"), ("sort", False), ("spp", 6), ("depth", 3)):
            with self.assertRaises(ValueError, msg=key) as caught:
                cb.check_settings(stats, {**want, key: value})
            self.assertIn(key, str(caught.exception))

    def test_stats_file_name(self):
        self.assertEqual(cb.stats_file_name("cornell", "stream", "own", True, False),
                         "cornell__stream__own__compact-on__sort-off.json")

    def test_scene_labels(self):
        self.assertEqual(cb.scene_label(ROOT / "scenes" / "cornell.json"), "cornell")
        self.assertEqual(cb.scene_label(ROOT / SCENE), LABEL)
        self.assertEqual(cb.scene_label("/elsewhere/a/cornell.json"), "elsewhere-a-cornell")
        self.assertEqual(cb.label_of_file(f"{LABEL}__frame__own__compact-on__sort-off.json"),
                         LABEL)
        self.assertIsNone(cb.label_of_file("run.json"))
        # A row's scene is its file's name; stats files named otherwise give the scene's stem.
        row = cb.summarize(fake_stats(), stats_file="a-box__frame__own__compact-on__sort-off.json")
        self.assertEqual(row["scene"], "a-box")
        labels, settings = cb.scene_labels(["/x/a/box.json", "/x/b/box.json", "/x/c.json"],
                                           {"x-a-box": {"spp": 2}, "c": {"spp": 3}})
        self.assertEqual(list(labels.values()), ["x-a-box", "x-b-box", "x-c"])
        self.assertEqual(settings, {"x-a-box": {"spp": 2}, "x-c": {"spp": 3}})
        for bad in ({"box": {"spp": 2}}, {"nothing": {"spp": 2}}):
            with self.assertRaises(ToolError, msg=bad):
                cb.scene_labels(["/x/a/box.json", "/x/b/box.json"], bad)
        with self.assertRaises(ToolError):
            cb.scene_labels(["/x/a/box.json", "/x/a/box.json"], {})

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
        cmd = [sys.executable, *SCRIPT, "--quick", "--build", BUILD, "--scenes", SCENE,
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
            self.assertEqual(reader.fieldnames, REQUIRED)
            rows = list(reader)
        self.assertEqual(sorted((r["schedule"], r["backend"], r["compact"], r["sort"])
                                for r in rows), EXPECTED)
        for r in rows:
            self.assertEqual((r["scene"], r["width"], r["height"], r["depth"], r["spp"]),
                             (LABEL, "32", "18", "4", "2"))
            # The stats say what ran: the megakernel has no stages to time.
            timing = "off" if r["schedule"] == "megakernel" else "sampled"
            self.assertEqual((r["stage_timing"], r["executor"]), (timing, "cpu"))
            self.assertGreater(float(r["ms_per_spp"]), 0.0)
            self.assertGreater(float(r["samples_per_s"]), 0.0)
            self.assertGreater(float(r["path_segments_per_s"]), 0.0)
            self.assertGreater(float(r["over_megakernel"]), 0.0)
            # Frame times only where there are frames, the low-fill share only for stream.
            self.assertEqual(r["frame_ms"] == "", r["schedule"] == "stream")
            self.assertEqual(r["share_low_fill"] != "", r["schedule"] == "stream")
            if r["schedule"] == "megakernel":
                self.assertEqual((r["backend"], r["compact_ms_per_spp"], r["over_megakernel"]),
                                 ("own", "", "1.0"))
            else:
                self.assertGreater(float(r["thrust_over_own"]), 0.0)
                self.assertGreaterEqual(float(r["share_compact_sort"]), 0.0)
            if r["sort"] == "off" and r["schedule"] != "megakernel":
                self.assertEqual(float(r["sort_ms_per_spp"]), 0.0)

    def test_stats_json_kept_for_each_render(self):
        folder = self.out / self.csv_files()[0].stem
        names = sorted(p.name for p in folder.glob("*.json") if p.name != "run.json")
        self.assertEqual(len(names), len(EXPECTED), names)
        name = f"{LABEL}__frame__thrust__compact-off__sort-off.json"
        self.assertIn(name, names)
        self.assertIn(f"{LABEL}__megakernel__own__compact-off__sort-off.json", names)
        stats = json.loads((folder / name).read_text())
        self.assertEqual((stats["schedule"], stats["binary_backend"]), ("frame", "thrust"))
        self.assertEqual((stats["compact"], stats["sort_by_material"]), (False, False))
        self.assertEqual(stats["executor"], "cpu")

    def test_markdown_and_stdout_table(self):
        md = self.csv_files()[0].with_suffix(".md").read_text()
        self.assertIn("| scene | schedule | backend | compact | sort | width |", md)
        self.assertEqual(md.count(f"\n| {LABEL} |"), len(EXPECTED))
        self.assertIn("## Targets", md)
        self.assertIn("Every scene, stream (own): waves under 10% full", md)
        self.assertIn(f"Sorting by material on {LABEL} (stream, own)", md)
        self.assertIn("x megakernel", self.proc.stdout)
        self.assertEqual(self.proc.stdout.count(f"\n{LABEL} "), len(EXPECTED), self.proc.stdout)

    def test_plots(self):
        if not self.plots:
            self.skipTest("matplotlib is not installed")
        stem = self.csv_files()[0].stem
        for kind in ("samples", "stages", "live-paths", "frame-bounces"):
            png = self.out / f"{stem}-{kind}.png"
            self.assertTrue(png.is_file(), png)
            self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")

    def test_plots_only_remakes_the_same_csv(self):
        csv_file = self.csv_files()[0]
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.run(
                [sys.executable, *SCRIPT, "--plots-only", str(self.out / csv_file.stem),
                 "--out", d, "--no-plots"], cwd=ROOT, capture_output=True, text=True, timeout=60)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual((Path(d) / csv_file.name).read_text(), csv_file.read_text())
            self.assertEqual(len(list((Path(d) / csv_file.stem).glob("*__*.json"))),
                             len(EXPECTED))


class Options(unittest.TestCase):

    def run_script(self, *args):
        with tempfile.TemporaryDirectory() as d:
            proc = subprocess.run([sys.executable, *SCRIPT, "--quick", "--no-plots", "--out", d]
                                  + list(args), cwd=ROOT, capture_output=True, text=True,
                                  timeout=120)
            rows = []
            for f in Path(d).glob("*.csv"):
                with open(f, newline="") as handle:
                    rows += list(csv.DictReader(handle))
            return proc, rows

    def test_schedules_and_scene_settings(self):
        proc, rows = self.run_script("--build", BUILD, "--scenes", SCENE, "--schedules",
                                     "megakernel", "--scene-settings", "tiny=16x8:2:3")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([(r["schedule"], r["width"], r["height"], r["depth"], r["spp"])
                          for r in rows], [("megakernel", "16", "8", "2", "3")])

    def test_scene_settings_for_a_scene_not_rendered(self):
        proc, _ = self.run_script("--build", BUILD, "--scenes", SCENE, "--scene-settings",
                                  "smallpt=16x8:2:3")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("smallpt", proc.stderr)

    def test_missing_scene(self):
        proc, _ = self.run_script("--build", BUILD, "--scenes", "no/such/scene.json")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("no/such/scene.json", proc.stderr)

    def test_missing_binaries(self):
        with tempfile.TemporaryDirectory() as empty:
            proc, _ = self.run_script("--build", empty, "--scenes", SCENE)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("raystream", proc.stderr)

    def test_failing_render_stops_with_its_command(self):
        proc, _ = self.run_script("--build", BUILD, "--scenes", "tests/data/malformed.json")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("malformed.json", proc.stderr)

    def test_bad_arguments(self):
        for bad in (["--resolution", "12by4"], ["--schedules", "stream,waves"],
                    ["--scene-settings", "tiny=12by4"]):
            proc, _ = self.run_script("--build", BUILD, *bad)
            self.assertEqual(proc.returncode, 2, bad)


class Results(unittest.TestCase):
    """Nothing is lost: scenes of one file name in one run keep a file each, a run of some scenes
    keeps the other scenes' files, and an --out that is a file is one line and exit 2."""

    def run_script(self, out, *scenes):
        return subprocess.run([sys.executable, *SCRIPT, "--quick", "--no-plots", "--build", BUILD,
                               "--schedules", "megakernel", "--out", str(out), "--scenes"]
                              + [str(s) for s in scenes],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)

    def stats_and_rows(self, out):
        (folder,) = [p for p in Path(out).iterdir() if p.is_dir()]
        with open(folder.with_suffix(".csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        return sorted(p.name for p in folder.glob("*__*.json")), rows

    def test_scenes_of_one_file_name_keep_a_file_each(self):
        with tempfile.TemporaryDirectory() as d:
            for sub in ("a", "b"):
                (Path(d) / sub).mkdir()
                shutil.copy(ROOT / SCENE, Path(d) / sub / "tiny.json")
            out = Path(d) / "out"
            proc = self.run_script(out, Path(d) / "a" / "tiny.json", Path(d) / "b" / "tiny.json")
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            names, rows = self.stats_and_rows(out)
            self.assertEqual(len(names), 2, names)
            self.assertEqual(len({r["scene"] for r in rows}), 2, rows)
            for sub in ("a", "b"):
                self.assertTrue(any(f"-{sub}-tiny__" in n for n in names), names)

    def test_a_run_of_some_scenes_keeps_the_others(self):
        with tempfile.TemporaryDirectory() as d:
            other = Path(d) / "other.json"
            shutil.copy(ROOT / SCENE, other)
            out = Path(d) / "out"
            for scene in (SCENE, other, SCENE):
                proc = self.run_script(out, scene)
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            names, rows = self.stats_and_rows(out)
            self.assertEqual(len(names), 2, names)
            self.assertEqual(len(rows), 2, rows)
            self.assertEqual(len([n for n in names if "-other__" in n]), 1, names)

    def test_out_that_is_a_file(self):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "results.md"
            out.write_text("kept\n")
            proc = self.run_script(out, SCENE)
            self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
            self.assertEqual(proc.stdout, "")
            self.assertRegex(proc.stderr, r"^bench backends: error: [^\n]*results\.md[^\n]*\n$")
            self.assertEqual(out.read_text(), "kept\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--out", required=True)
    known, rest = parser.parse_known_args()
    BUILD, OUT = str(Path(known.build).resolve()), known.out
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)

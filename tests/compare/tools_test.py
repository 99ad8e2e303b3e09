#!/usr/bin/env python3
"""Tests of scripts/raystream_tools, the scripts' shared code: the image files (PFM, Radiance
HDR, PNG; EXR where the OpenEXR binding is installed), running raystream, tables, the comparison
with a reference; and of scripts/bench.py, the benchmarks' runner: every benchmark's help and
errors, and those that run on the CPU executor, quickly.

  tools_test.py --build BUILD_DIR [unittest arguments]

Images raystream writes are read back: its .pfm and .hdr of one render agree within RGBE's
rounding.
"""
import argparse
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from raystream_tools import images, runs, tables  # noqa: E402
from raystream_tools.compare import against_reference  # noqa: E402

SCENE = ROOT / "tests" / "data" / "tiny.json"
BUILD = None


def image(width, height, values):
    return images.Image(width, height, array("f", values))


class Pfm(unittest.TestCase):

    def test_written_and_read_back(self):
        im = image(3, 2, [float(i) / 7 for i in range(18)])
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "a.pfm"
            images.write_pfm(path, im)
            data = path.read_bytes()
            # Little-endian, rows from the bottom: the file starts with the bottom row.
            self.assertTrue(data.startswith(b"PF\n3 2\n-1.0\n"))
            self.assertEqual(struct.unpack("<f", data[12:16])[0], im.data[9])
            back = images.read_pfm(path)
        self.assertEqual((back.width, back.height), (3, 2))
        self.assertEqual(list(back.data), list(im.data))
        self.assertEqual(back.pixels()[1], (im.data[3], im.data[4], im.data[5]))

    def test_big_endian_and_grey(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "g.pfm"
            path.write_bytes(b"Pf\n2 2\n1.0\n" + struct.pack(">4f", 1, 2, 3, 4))
            back = images.read_pfm(path)
        # Grey: each value in R, G and B; the file's first row is the bottom one.
        self.assertEqual(back.pixels(), [(3, 3, 3), (4, 4, 4), (1, 1, 1), (2, 2, 2)])

    def test_bad_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name, data in (("short.pfm", b"PF\n2 2\n-1.0\n" + bytes(8)),
                               ("magic.pfm", b"P6\n2 2\n255\n" + bytes(12)),
                               ("header.pfm", b"PF\n2"), ("size.pfm", b"PF\n0 2\n-1\n")):
                path = Path(d) / name
                path.write_bytes(data)
                with self.assertRaises(images.ImageError, msg=name) as caught:
                    images.read_pfm(path)
                self.assertIn(name, str(caught.exception))
            with self.assertRaises(images.ImageError):
                images.read_pfm(Path(d) / "missing.pfm")


class Hdr(unittest.TestCase):

    def test_flat_file_read_back(self):
        pixels = [(1.0, 0.5, 0.25), (0.0, 0.0, 0.0), (3000.0, 2700.0, 2200.0), (1e-3, 2e-3, 0.0)]
        data = images.hdr_bytes(2, 2, pixels, comments=["a comment"])
        self.assertTrue(data.startswith(b"#?RADIANCE\n# a comment\nFORMAT=32-bit_rle_rgbe\n\n"
                                        b"-Y 2 +X 2\n"))
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "a.hdr"
            images.write_file(path, data)
            back = images.read_hdr(path)
        for got, want in zip(back.pixels(), pixels):
            for g, w in zip(got, want):
                # RGBE keeps 8 bits of the largest channel; read back at the middle of its step.
                self.assertAlmostEqual(g, w, delta=max(want) / 128 + 1e-12)

    def test_run_length_rows(self):
        # A new-style RLE row of 8 pixels: R a run of 8, G 8 literals, B a run, E a run.
        width = 8
        row = (bytes([2, 2, 0, width]) + bytes([128 + 8, 100]) + bytes([8]) +
               bytes(range(1, 9)) + bytes([128 + 8, 0]) + bytes([128 + 8, 129]))
        data = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n" + row
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "rle.hdr"
            path.write_bytes(data)
            back = images.read_hdr(path)
        scale = 2.0 ** (129 - 136)
        self.assertEqual(back.pixels()[3], ((100.5) * scale, 4.5 * scale, 0.5 * scale))

    def test_the_shipped_sky(self):
        sky = images.read_hdr(ROOT / "scenes" / "sky.hdr")
        self.assertEqual((sky.width, sky.height), (512, 256))
        self.assertGreater(max(sky.data), 1000.0)  # the sun

    def test_not_an_hdr(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "x.hdr"
            path.write_bytes(b"PF\n1 1\n-1\n" + bytes(12))
            with self.assertRaises(images.ImageError):
                images.read_hdr(path)


class Png(unittest.TestCase):

    def test_bytes(self):
        rows = [bytes([255, 0, 0, 0, 255, 0]), bytes([0, 0, 255, 9, 9, 9])]
        data = images.png_bytes(2, 2, rows)
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(struct.unpack(">II", data[16:24]), (2, 2))
        length = struct.unpack(">I", data[33:37])[0]
        self.assertEqual(data[37:41], b"IDAT")
        self.assertEqual(zlib.decompress(data[41:41 + length]),
                         b"\x00" + rows[0] + b"\x00" + rows[1])
        with self.assertRaises(ValueError):
            images.png_bytes(3, 2, rows)

    def test_the_shipped_checker_is_made_again(self):
        sys.argv = ["make_checker.py", "x"]
        spec = importlib.util.spec_from_file_location("make_checker",
                                                      ROOT / "scripts" / "make_checker.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        made = module.checker_png(64, 8, bytes([230] * 3), bytes([40] * 3))
        self.assertEqual(made, (ROOT / "scenes" / "textures" / "checker.png").read_bytes())


class Exr(unittest.TestCase):

    def setUp(self):
        for name in ("numpy", "OpenEXR"):
            if importlib.util.find_spec(name) is None:
                self.skipTest(f"{name} is not installed")

    def test_written_and_read_back(self):
        im = image(2, 3, [0.5 * i for i in range(18)])
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "a.exr"
            images.write_image(path, im)
            back = images.read_image(path)
            self.assertEqual(list(back.data), list(im.data))
            with self.assertRaises(images.ImageError):
                images.read_exr(path, "albedo")


class Any(unittest.TestCase):

    def test_by_name(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("a.png", "a.jpg"):
                with self.assertRaises(images.ImageError):
                    images.read_image(Path(d) / name)
            im = image(1, 1, [1.0, 2.0, 3.0])
            images.write_image(Path(d) / "a.PFM", im)
            self.assertEqual(list(images.read_image(Path(d) / "a.PFM").data), [1.0, 2.0, 3.0])

    def test_write_leaves_nothing_half_written(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(images.ImageError) as caught:
                images.write_pfm(Path(d) / "no" / "such" / "x.pfm", image(1, 1, [0, 0, 0]))
            self.assertIn("x.pfm", str(caught.exception))
            self.assertEqual(os.listdir(d), [])

    def test_against_reference(self):
        ref = image(2, 1, [1.0, 1.0, 1.0, 0.5, 0.5, 0.5])
        same = image(2, 1, [1.0, 1.0, 1.0, 0.5, 0.5, 0.5])
        brighter = image(2, 1, [2.0, 2.0, 2.0, 1.0, 1.0, 1.0])
        lines = against_reference(ref, [("same", same), ("brighter", brighter)], region=1,
                                  bright=10.0)
        self.assertEqual(lines[0], "0 of 2 pixels are emitters seen directly or their neighbours")
        self.assertRegex(lines[2], r"^same +1\.0000 +0\.0000e\+00 .* -$")
        self.assertRegex(lines[3], r"^brighter +2\.0000 +6\.2500e-01 .* 100\.00% +0,0$")
        with self.assertRaises(runs.ToolError):
            against_reference(ref, [("small", image(1, 1, [0, 0, 0]))])


class Tables(unittest.TestCase):

    def test_text_markdown_csv(self):
        rows = [["a", "1.5"], ["long name", "10.25"]]
        self.assertEqual(tables.text_table(["name", "value"], rows),
                         "name       value\n---------  -----\na            1.5\nlong name  10.25")
        self.assertEqual(tables.markdown_table(["name", "value"], rows).splitlines()[1],
                         "| --- | ---: |")
        self.assertEqual(tables.median([3, None, 1, 2]), 2)
        self.assertIsNone(tables.median([None]))
        self.assertEqual(tables.cell(None), "")
        self.assertEqual(tables.cell(0.12345, ".2f"), "0.12")
        with tempfile.TemporaryDirectory() as d:
            tables.write_csv(Path(d) / "t.csv", ["a", "b"], [{"a": 1, "b": None}, [2, 3]])
            self.assertEqual((Path(d) / "t.csv").read_bytes(), b"a,b\r\n1,\r\n2,3\r\n")


class Raystream(unittest.TestCase):
    """raystream's own files read back, and a failed run reported with its command."""

    def setUp(self):
        if not BUILD:
            self.skipTest("no --build")

    def test_pfm_and_hdr_of_one_render_agree(self):
        binary = runs.binary(BUILD)
        with tempfile.TemporaryDirectory() as d:
            rendered = {}
            for ext in ("pfm", "hdr"):
                r = runs.render(binary, SCENE, ["--device", "cpu", "--spp", "2"],
                                output=Path(d) / f"a.{ext}", stats=Path(d) / f"{ext}.json")
                self.assertEqual((r.stats["width"], r.stats["height"]), (24, 16))
                self.assertGreater(r.wall_s, 0.0)
                rendered[ext] = images.read_image(Path(d) / f"a.{ext}")
        pfm, hdr = rendered["pfm"], rendered["hdr"]
        self.assertEqual((pfm.width, pfm.height), (24, 16))
        self.assertGreater(sum(pfm.data), 0.0)
        for a, b in zip(pfm.pixels(), hdr.pixels()):
            for x, y in zip(a, b):
                self.assertAlmostEqual(x, y, delta=max(a) / 128 + 1e-9)

    def test_failed_run(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(runs.ToolError) as caught:
                runs.render(runs.binary(BUILD), Path(d) / "missing.json", ["--device", "cpu"],
                            stats=Path(d) / "s.json")
            self.assertIn("exit code 2", str(caught.exception))
            self.assertIn("missing.json", str(caught.exception))
            r = runs.render(runs.binary(BUILD), Path(d) / "missing.json", check=False)
            self.assertEqual((r.returncode, r.stats), (2, None))
        with self.assertRaises(runs.ToolError) as caught:
            runs.binary(ROOT / "no-such-build")
        self.assertEqual(caught.exception.code, 2)


class BenchRunner(unittest.TestCase):
    """scripts/bench.py: every benchmark's help, its errors, and the benchmarks that run on the CPU
    executor, quickly (those that render on the GPU only are left to the GPU machine)."""

    def bench(self, *args, timeout=120):
        return subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py")] + list(args),
                              capture_output=True, text=True, timeout=timeout)

    def test_help_and_bad_command_lines(self):
        from raystream_tools.benchmarks import BENCHMARKS
        proc = self.bench("--help")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in BENCHMARKS:
            self.assertIn(f"  {name} ", proc.stdout)
            sub = self.bench(name, "--help")
            self.assertEqual(sub.returncode, 0, sub.stderr)
            self.assertIn(f"{name}: ", sub.stdout)
        for bad in (["nosuch"], ["schedules", "--", "--device", "cpu"], ["meshes", "--spp", "1"]):
            proc = self.bench(*bad)
            self.assertEqual(proc.returncode, 2, bad)
        proc = self.bench("meshes", "--build", str(ROOT / "no-such-build"))
        self.assertEqual(proc.returncode, 2)
        self.assertRegex(proc.stderr, r"^bench meshes: error: [^\n]*no-such-build/raystream: "
                                      r"no such binary[^\n]*\n$")

    def test_profile_groups_launches_by_kernel(self):
        from raystream_tools.benchmarks.kernel_profile import kernel_name
        ns = "raystream::(anonymous namespace)::"
        queue = "void raystream::parallel_for_range_kernel<3, unsigned long long, " + ns
        self.assertEqual(kernel_name(queue + "ShadeBody<raystream::Untextured<raystream::"
                                     "Lambertian>>>(const T2 *, T3)"),
                         "shade Lambertian untextured")
        self.assertEqual(kernel_name(queue + "ShadeBody<raystream::MetallicRoughness>>"),
                         "shade MetallicRoughness")
        self.assertEqual(kernel_name("void raystream::parallel_for_blocks_kernel<1, " + ns +
                                     "ShadeBody<raystream::LobeSet<15u, false, false>>>"), "shade")
        self.assertEqual(kernel_name("void raystream::parallel_for_kernel<1, " + ns +
                                     "IntersectBody<true>>"), "intersect")
        self.assertEqual(kernel_name("void cub::DeviceRadixSortOnesweepKernel<>"), "sort")
        self.assertEqual(kernel_name("void something_else()"), "other")

    def needs_build(self):
        if not BUILD:
            self.skipTest("no --build")

    def test_startup_on_the_cpu(self):
        self.needs_build()
        with tempfile.TemporaryDirectory() as d:
            proc = self.bench("startup", "--build", BUILD, "--runs", "2", "--scene", str(SCENE),
                              "--out", d, "--no-lbvh-bench", "--", "--device", "cpu")
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual(sorted(os.listdir(d)), [f"run_{k}.{e}" for k in (1, 2)
                                                      for e in ("json", "png", "txt")])
        lines = proc.stdout.splitlines()
        self.assertIn("cpu executor", lines[0])
        self.assertEqual(lines[1].split()[:4], ["run", "wall", "cpu", "elapsed"])
        self.assertEqual([line.split()[0] for line in lines[3:6]], ["1", "2", "median"])

    def test_nee_on_the_cpu(self):
        self.needs_build()
        with tempfile.TemporaryDirectory() as d:
            proc = self.bench("nee", "--build", BUILD, "--out", d, "--reference-spp", "4",
                              "--region", "4", "--", "--resolution", "8x8", "--device", "cpu")
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            for name in ("ref_path.hdr", "bsdf_eq.hdr", "path_64.json",
                         "spheres_frame_sort_on.txt"):
                self.assertTrue((Path(d) / name).is_file(), name)
        out = proc.stdout
        # The fit's two points are tiny renders: on a busy machine either figure may come out
        # negative; the line's form is what is checked here.
        self.assertRegex(out, r"\npath: -?[0-9.]+ ms per spp, -?[0-9.]+ ms fixed\n")
        self.assertRegex(out, r"\n[0-9]+ of 64 pixels are emitters seen directly")
        self.assertEqual(out.count(" shadow rays\n"), 15, out)  # 2 + 3 + 4 + 6 renders

    def test_shading_on_the_cpu(self):
        self.needs_build()
        with tempfile.TemporaryDirectory() as d:
            proc = self.bench("shading", "--build", BUILD, "--scenes", str(SCENE), "--spp", "1",
                              "--repeat", "1", "--out", d)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual(len(list(Path(d).glob("*.json"))), 10)
        rows = [line.split() for line in proc.stdout.splitlines()[2:-1]]
        self.assertEqual([r[0] for r in rows], ["tiny"] * 10)
        self.assertEqual(proc.stdout.splitlines()[0].split()[:4],
                         ["scene", "integr.", "run", "Msamples/s"])


class MitsubaReference(unittest.TestCase):
    """scripts/mitsuba_reference.py builds Mitsuba's scene from raystream's export: the materials'
    translation, what it refuses, and (where Mitsuba is installed) a small render that agrees
    with raystream's."""

    def setUp(self):
        if not BUILD:
            self.skipTest("no --build")
        import mitsuba_reference
        self.mr = mitsuba_reference

    def export(self, folder, scene=SCENE):
        proc = subprocess.run([str(runs.binary(BUILD)), str(scene), "--export-scene", folder],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return self.mr.read_export(folder)

    def test_materials(self):
        with tempfile.TemporaryDirectory() as d:
            doc = self.export(d)
            light, white, mirror, glass = doc["materials"]
            bsdf = [self.mr.material_bsdf(m, i, d, "x") for i, m in enumerate(doc["materials"])]
        self.assertEqual(bsdf[0], {"type": "diffuse", "reflectance": self.mr.rgb([0, 0, 0])})
        self.assertEqual(self.mr.material_radiance(light), [5.0, 5.0, 5.0])
        self.assertIsNone(self.mr.material_radiance(white))
        self.assertEqual(bsdf[1]["type"], "twosided")
        self.assertEqual(bsdf[1]["bsdf"]["reflectance"]["value"], [0.8, 0.8, 0.8])
        self.assertEqual(bsdf[2]["bsdf"]["type"], "conductor")
        self.assertEqual((bsdf[3]["type"], bsdf[3]["int_ior"]), ("dielectric", 1.5))
        for bad, what in ((dict(white, type="plastic"), "material type plastic"),
                          (dict(mirror, roughness=0.3), "a rough specular material"),
                          (dict(glass, texture="textures/0.pfm"), "a texture on a refractive")):
            with self.assertRaises(runs.ToolError) as caught:
                self.mr.material_bsdf(bad, 0, "unused", "scene.json: material m")
            self.assertIn(what, str(caught.exception))
            self.assertIn("is not translated", str(caught.exception))

    def test_not_an_export(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "scene.json").write_text('{"format": "other", "version": 1}')
            with self.assertRaises(runs.ToolError):
                self.mr.read_export(d)

    def test_a_small_render_agrees(self):
        if importlib.util.find_spec("mitsuba") is None:
            self.skipTest("mitsuba is not installed")
        with tempfile.TemporaryDirectory() as d:
            ref, ours = Path(d) / "ref.exr", Path(d) / "ours.pfm"
            proc = subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "mitsuba_reference.py"), "render",
                 str(SCENE), "--build", BUILD, "--out", str(ref), "--spp", "1024", "--resolution",
                 "24x16", "--variant", "scalar_rgb"], capture_output=True, text=True, timeout=300)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            runs.render(runs.binary(BUILD), SCENE, ["--device", "cpu", "--spp", "1024"],
                        output=ours)
            a, b = images.read_image(ours), images.read_image(ref)
            for c in range(3):
                mean_a, mean_b = (sum(im.data[c::3]) / (24 * 16) for im in (a, b))
                self.assertAlmostEqual(mean_a / mean_b, 1.0, delta=0.03)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--build")
    known, rest = parser.parse_known_args()
    BUILD = known.build and str(Path(known.build).resolve())
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)

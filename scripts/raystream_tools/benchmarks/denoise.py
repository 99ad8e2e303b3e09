"""denoise: the built-in denoiser and Open Image Denoise against a high-spp reference.

    bench.py denoise [--build build] [--device gpu|cpu] [--size full|small] [--spp 16]
                     [--reference-spp 4096] [--scenes cornell smallpt engine] [--equal-time]
                     [--no-oidn] [--timing-runs 5] [--out renders/denoise]
                     [--work build/bench_denoise]

Per scene, raystream renders a reference (--reference-spp, seed 1: independent of the test
images' samples, kept in WORK/ and reused) and one image of --spp samples with `--denoise
--aov albedo,normal` into an EXR (the denoised image, the noisy one as the layer `noisy`, the
guides), the same samples again with `--denoise=radiance` (filtering radiance rather than radiance
over albedo: whether demodulating helps), and scripts/denoise_oidn.py runs OIDN on the EXR (its
CPU device). It prints the MSE of each against the reference (linear RGB, per channel), its ratio
to the noisy image's, and the times; with --equal-time also the MSE of a noisy image given each
denoiser's time as more samples (the render's own time per sample, from --stats). Then it writes
OUT/denoise_<device>_<size>.jpg, one row per scene: noisy, built-in, OIDN, reference (tone mapped:
clamped, sRGB), and OUT/bench_<device>_<size>.md with the table. Last, the filter's time at
1920 x 1080 (cornell at 1 spp, --timing-runs runs; on the GPU its kernels and, apart, the copies),
median and range.

--size small renders the scenes at about a quarter of their width (cornell 200 x 200, smallpt
256 x 192, engine 256 x 144), for the CPU executor; full at their own resolution.

Needs numpy, matplotlib and the OpenEXR Python binding (pip install numpy matplotlib openexr),
and pyoidn for OIDN (pip install pyoidn; --no-oidn leaves OIDN out); run it with the Python that
has them (a virtual environment): it says which is missing and exits 2.
"""
import re
import subprocess
import sys
from pathlib import Path

from .. import images, runs, tables
from ..runs import ROOT, ToolError
from . import common

SUMMARY = "the built-in denoiser and OIDN against a high-spp reference (renders/denoise)"
SCENES = {"cornell": (200, 200), "smallpt": (256, 192), "engine": (256, 144)}


def add_arguments(p):
    common.add_build(p)
    p.add_argument("--device", choices=["gpu", "cpu"], default="gpu")
    p.add_argument("--size", choices=["full", "small"], default="full")
    p.add_argument("--spp", type=int, default=16)
    p.add_argument("--reference-spp", type=int, default=4096)
    p.add_argument("--scenes", nargs="+", choices=sorted(SCENES),
                   default=["cornell", "smallpt", "engine"])
    p.add_argument("--equal-time", action="store_true")
    p.add_argument("--no-oidn", action="store_true")
    p.add_argument("--timing-runs", type=int, default=5,
                   help="renders of cornell at 1920 x 1080 that time the filter (0: none)")
    common.add_out(p, "renders/denoise", "the figure and the table")
    p.add_argument("--work", default=str(ROOT / "build" / "bench_denoise"),
                   help="the renders, and the references kept for the next run")


def need_modules(oidn):
    missing = []
    for name, pip_name in (("numpy", "numpy"), ("matplotlib", "matplotlib"),
                           ("OpenEXR", "openexr")) + ((("pyoidn", "pyoidn"),) if oidn else ()):
        try:
            __import__(name)
        except ImportError:
            missing.append(pip_name)
    if missing:
        raise ToolError(f"{', '.join(missing)} not installed for {sys.executable}: pip install "
                        f"{' '.join(missing)} (in a virtual environment)"
                        + ("; or pass --no-oidn" if "pyoidn" in missing else ""), code=2)


class Bench:
    """The renders and images of one run of the benchmark."""

    def __init__(self, args):
        self.args = args
        self.raystream = runs.binary(args.build)
        self.work = Path(args.work) / f"{args.device}_{args.size}"
        self.work.mkdir(parents=True, exist_ok=True)

    def render(self, scene, size, spp, output, extra=(), seed=0):
        """Renders into `output` (beside it its stats, OUTPUT.stats.json) and returns the stats."""
        return runs.render(self.raystream, runs.scene_path(scene),
                           ["--device", self.args.device, "--spp", spp, "--resolution",
                            f"{size[0]}x{size[1]}", "--seed", seed, *extra],
                           output=output, stats=f"{output}.stats.json").stats

    def reference(self, name, size):
        path = Path(self.args.work) / (f"{name}_{size[0]}x{size[1]}_{self.args.reference_spp}"
                                       "spp_seed1.pfm")
        if not path.exists():
            print(f"  reference: {self.args.reference_spp} spp ...", flush=True)
            self.render(name, size, self.args.reference_spp, path, seed=1)
        return read(path).astype("float64")

    def oidn(self, exr, output):
        """OIDN's filter time in ms (denoise_oidn.py, its CPU device)."""
        command = [sys.executable, str(ROOT / "scripts" / "denoise_oidn.py"), str(exr), "-o",
                   str(output)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ToolError(f"denoise_oidn.py failed (exit {done.returncode}): "
                            f"{' '.join(command)}: {done.stderr.strip()}")
        return float(re.search(r"([0-9.]+) s\s*$", done.stdout.strip()).group(1)) * 1000.0

    def equal_time_mse(self, name, size, stats, extra_ms, reference_image, tag):
        """The MSE of a noisy image given extra_ms more time as samples (at the render's rate)."""
        per_sample_ms = stats["total_ms"] / self.args.spp
        spp = max(self.args.spp, int(round((stats["total_ms"] + extra_ms) / per_sample_ms)))
        path = self.work / f"equal_time_{tag}.pfm"
        self.render(name, size, spp, path)
        return spp, mse(read(path), reference_image)

    def timing(self):
        """The filter at 1920 x 1080: its time (kernels on the GPU) and the copies, per run."""
        filter_ms, transfer_ms = [], []
        for _ in range(self.args.timing_runs):
            stats = self.render("cornell", (1920, 1080), 1, self.work / "timing.pfm",
                                extra=["--denoise"])
            filter_ms.append(stats["denoise"]["ms"])
            transfer_ms.append(stats["denoise"]["transfer_ms"])
        device = stats["denoise"]["device"]
        line = (f"filter at 1920 x 1080 on the {device} ({stats['device']}), "
                f"{self.args.timing_runs} runs: median {tables.median(filter_ms):.2f} ms (range "
                f"{min(filter_ms):.2f} to {max(filter_ms):.2f})")
        if device == "gpu":
            line += (f" of kernels; copies there and back median "
                     f"{tables.median(transfer_ms):.2f} ms; target <= 10 ms of kernels")
        return line


def read(path, layer=""):
    try:
        return images.read_image(path, layer).to_numpy()
    except images.ImageError as e:
        raise ToolError(str(e))


def mse(image, reference):
    return float(((image.astype("float64") - reference) ** 2).mean())


def tone_map(image, np):
    return np.clip(image, 0.0, 1.0) ** (1.0 / 2.2)


def figure(rows, path, caption):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    columns = len(rows[0]["images"])
    # Each row as tall as its images' aspect, plus room for the titles.
    heights = [row["images"][0][1].shape[0] / row["images"][0][1].shape[1] + 0.12 for row in rows]
    fig, axes = plt.subplots(len(rows), columns, squeeze=False,
                             gridspec_kw={"height_ratios": heights},
                             figsize=(3.2 * columns, 3.2 * sum(heights) + 0.5))
    fig.suptitle(caption, fontsize=9)
    for r, row in enumerate(rows):
        for c, (title, image) in enumerate(row["images"]):
            ax = axes[r][c]
            ax.imshow(tone_map(image, np), interpolation="nearest")
            ax.set_title(f"{row['scene']}: {title}" if c == 0 else title, fontsize=8)
            ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110, pil_kwargs={"quality": 90})
    plt.close(fig)


def scene_rows(bench, name, table):
    """Renders one scene, adds its rows to `table` and returns its figure row."""
    args = bench.args
    small = SCENES[name]
    if args.size == "small":
        size = small
    else:
        camera = runs.read_scene(runs.scene_path(name)).get("Camera", {})
        size = tuple(camera["RES"]) if "RES" in camera else small
    print(f"{name} at {size[0]} x {size[1]}, {args.spp} spp on the {args.device}", flush=True)
    ref = bench.reference(name, size)
    exr = bench.work / f"{name}.exr"
    stats = bench.render(name, size, args.spp, exr, extra=["--denoise", "--aov", "albedo,normal"])
    noisy, builtin = read(exr, "noisy"), read(exr, "")
    radiance_path = bench.work / f"{name}_radiance.pfm"
    radiance_stats = bench.render(name, size, args.spp, radiance_path,
                                  extra=["--denoise=radiance"])

    def filter_ms(s):
        return s["denoise"]["ms"] + max(0.0, s["denoise"]["transfer_ms"])

    results = [("noisy", noisy, 0.0),
               (f"built-in ({stats['denoise']['device']})", builtin, filter_ms(stats)),
               ("built-in, radiance", read(radiance_path), filter_ms(radiance_stats))]
    if not args.no_oidn:
        oidn_path = bench.work / f"{name}_oidn.pfm"
        oidn_ms = bench.oidn(exr, oidn_path)
        results.append(("OIDN (cpu)", read(oidn_path), oidn_ms))
    noisy_mse = mse(noisy, ref)
    for label, image, ms in results:
        error = mse(image, ref)
        row = [name, f"{size[0]}x{size[1]}", label, f"{error:.4g}", f"{noisy_mse / error:.2f}",
               f"{ms:.1f}" if label != "noisy" else f"{stats['total_ms']:.0f} (render)"]
        if args.equal_time:
            if label == "noisy":
                row += ["", "", ""]
            else:
                spp, equal = bench.equal_time_mse(name, size, stats, ms, ref,
                                                  f"{name}_{len(table)}")
                row += [str(spp), f"{equal:.4g}", f"{equal / error:.2f}x"]
        table.append(row)
        print("  " + "  ".join(row[2:]), flush=True)
    print(f"  the reference's own noise, about {noisy_mse * args.spp / args.reference_spp:.2g}"
          f" (the noisy MSE x {args.spp} / {args.reference_spp}), is in every MSE", flush=True)
    shown = [(f"noisy {args.spp} spp, MSE {noisy_mse:.3g}", noisy)]
    shown += [(f"{label}, MSE {mse(image, ref):.3g}", image) for label, image, _ in results[1:]
              if label != "built-in, radiance"]
    shown.append((f"reference {args.reference_spp} spp", ref))
    return {"scene": name, "images": shown}, stats


def run(args, argv):
    bench = Bench(args)
    need_modules(not args.no_oidn)
    out = common.out_folder(args.out)
    header = ["scene", "size", "image", "MSE", "noisy / it", "ms"]
    if args.equal_time:
        header += ["noisy at equal time: spp", "MSE", "it beats it"]
    rows, table = [], []
    for name in args.scenes:
        row, stats = scene_rows(bench, name, table)
        rows.append(row)
    stem = f"{args.device}_{args.size}"
    oidn = "on the cpu" if not args.no_oidn else "not run"
    figure(rows, out / f"denoise_{stem}.jpg",
           f"{args.spp} spp on the {args.device} executor ({stats['device']}); the built-in "
           f"filter on the {stats['denoise']['device']}, OIDN {oidn}")
    lines = [f"{args.spp} spp against references of {args.reference_spp} spp; ms: the noisy "
             "row's render loop, the built-in filter's time with its copies to and from the GPU "
             "(if any), OIDN's filter call on the CPU", "",
             tables.markdown_table(header, table, names=len(header))]
    if args.timing_runs > 0:
        lines += ["", bench.timing()]
    text = "\n".join(lines) + "\n"
    (out / f"bench_{stem}.md").write_text(text)
    print(text, end="")
    print(f"figure: {out / f'denoise_{stem}.jpg'}")
    return 0

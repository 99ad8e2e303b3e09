#!/usr/bin/env python3
"""Measures the built-in denoiser and Open Image Denoise against a high-spp reference.

    bench_denoise.py [--binary build/raystream] [--device gpu|cpu] [--size full|small]
                     [--spp 16] [--reference-spp 4096] [--scenes cornell smallpt engine]
                     [--equal-time] [--no-oidn] [--timing-runs 5] [--out renders/denoise]
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
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

from raystream_tools import images

SCENES = {
    "cornell": ("scenes/cornell.json", (200, 200)),
    "smallpt": ("scenes/smallpt.json", (256, 192)),
    "engine": ("scenes/engine.json", (256, 144)),
}


def fail(message):
    print(f"bench_denoise: error: {message}", file=sys.stderr)
    sys.exit(2)


def need_modules(oidn):
    missing = []
    for name, pip_name in (("numpy", "numpy"), ("matplotlib", "matplotlib"),
                           ("OpenEXR", "openexr")) + ((("pyoidn", "pyoidn"),) if oidn else ()):
        try:
            __import__(name)
        except ImportError:
            missing.append(pip_name)
    if missing:
        fail(f"{', '.join(missing)} not installed for {sys.executable}: pip install "
             f"{' '.join(missing)} (in a virtual environment){'; or pass --no-oidn' if 'pyoidn' in missing else ''}")


def run(command, what):
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{what} failed (exit {done.returncode}): {' '.join(command)}\n{done.stderr.strip()}")
    return done.stdout + done.stderr, time.perf_counter() - started


def read_pfm(path):
    return images.read_pfm(path).to_numpy()


def read_exr_rgb(path, layer):
    return images.read_exr(path, layer).to_numpy()


def mse(image, reference):
    return float(((image.astype("float64") - reference) ** 2).mean())


def render(args, scene_file, size, spp, output, extra=(), seed=0):
    stats = output + ".stats.json"
    command = [args.binary, scene_file, "--device", args.device, "--spp", str(spp),
               "--resolution", f"{size[0]}x{size[1]}", "--seed", str(seed), "-o", output,
               "--stats", stats, "-q", *extra]
    run(command, f"raystream {scene_file}")
    return json.load(open(stats))


def reference(args, name, scene_file, size, np):
    path = os.path.join(args.work, f"{name}_{size[0]}x{size[1]}_{args.reference_spp}spp_seed1.pfm")
    if not os.path.exists(path):
        print(f"  reference: {args.reference_spp} spp ...", flush=True)
        render(args, scene_file, size, args.reference_spp, path, seed=1)
    return read_pfm(path).astype("float64")


def oidn(args, exr, output):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "denoise_oidn.py")
    text, _ = run([sys.executable, script, exr, "-o", output], "denoise_oidn.py")
    seconds = float(re.search(r"([0-9.]+) s\s*$", text.strip()).group(1))
    return seconds * 1000.0


def equal_time_mse(args, scene_file, size, stats, extra_ms, reference_image, work, tag, np):
    """The MSE of a noisy image given extra_ms more time as samples (at the render's rate)."""
    per_sample_ms = stats["total_ms"] / args.spp
    spp = max(args.spp, int(round((stats["total_ms"] + extra_ms) / per_sample_ms)))
    path = os.path.join(work, f"equal_time_{tag}.pfm")
    render(args, scene_file, size, spp, path)
    return spp, mse(read_pfm(path), reference_image)


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


def timing(args, work):
    """The filter at 1920 x 1080: its time (kernels on the GPU) and the copies, per run."""
    filter_ms, transfer_ms = [], []
    scene_file = SCENES["cornell"][0]
    for _ in range(args.timing_runs):
        stats = render(args, scene_file, (1920, 1080), 1, os.path.join(work, "timing.pfm"),
                       extra=["--denoise"])
        filter_ms.append(stats["denoise"]["ms"])
        transfer_ms.append(stats["denoise"]["transfer_ms"])
    device = stats["denoise"]["device"]
    line = (f"filter at 1920 x 1080 on the {device} ({stats['device']}), {args.timing_runs} runs: "
            f"median {statistics.median(filter_ms):.2f} ms (range {min(filter_ms):.2f} to "
            f"{max(filter_ms):.2f})")
    if device == "gpu":
        line += (f" of kernels; copies there and back median {statistics.median(transfer_ms):.2f} "
                 f"ms; target <= 10 ms of kernels")
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="build/raystream")
    parser.add_argument("--device", choices=["gpu", "cpu"], default="gpu")
    parser.add_argument("--size", choices=["full", "small"], default="full")
    parser.add_argument("--spp", type=int, default=16)
    parser.add_argument("--reference-spp", type=int, default=4096)
    parser.add_argument("--scenes", nargs="+", choices=sorted(SCENES),
                        default=["cornell", "smallpt", "engine"])
    parser.add_argument("--equal-time", action="store_true")
    parser.add_argument("--no-oidn", action="store_true")
    parser.add_argument("--timing-runs", type=int, default=5,
                        help="renders of cornell at 1920 x 1080 that time the filter (0: none)")
    parser.add_argument("--out", default="renders/denoise", help="the figure and the table")
    parser.add_argument("--work", default="build/bench_denoise",
                        help="the renders, and the references kept for the next run")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        fail(f"{args.binary}: no raystream binary (build it: scripts/build.sh --target raystream)")
    need_modules(not args.no_oidn)
    import numpy as np

    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    work = os.path.join(args.work, f"{args.device}_{args.size}")
    os.makedirs(work, exist_ok=True)
    header = ["scene", "size", "image", "MSE", "noisy / it", "ms"]
    if args.equal_time:
        header += ["noisy at equal time: spp", "MSE", "it beats it"]
    rows, table = [], []
    for name in args.scenes:
        scene_file, small = SCENES[name]
        if args.size == "small":
            size = small
        else:
            camera = json.load(open(scene_file)).get("Camera", {})
            size = tuple(camera["RES"]) if "RES" in camera else small
        print(f"{name} at {size[0]} x {size[1]}, {args.spp} spp on the {args.device}", flush=True)
        ref = reference(args, name, scene_file, size, np)
        exr = os.path.join(work, f"{name}.exr")
        stats = render(args, scene_file, size, args.spp, exr,
                       extra=["--denoise", "--aov", "albedo,normal"])
        noisy = read_exr_rgb(exr, "noisy")
        builtin = read_exr_rgb(exr, "")
        radiance_path = os.path.join(work, f"{name}_radiance.pfm")
        radiance_stats = render(args, scene_file, size, args.spp, radiance_path,
                                extra=["--denoise=radiance"])
        radiance = read_pfm(radiance_path)
        denoise = stats["denoise"]
        builtin_ms = denoise["ms"] + max(0.0, denoise["transfer_ms"])
        results = [("noisy", noisy, 0.0),
                   (f"built-in ({denoise['device']})", builtin, builtin_ms),
                   ("built-in, radiance", radiance,
                    radiance_stats["denoise"]["ms"] + max(0.0, radiance_stats["denoise"]["transfer_ms"]))]
        if not args.no_oidn:
            oidn_path = os.path.join(work, f"{name}_oidn.pfm")
            oidn_ms = oidn(args, exr, oidn_path)
            results.append(("OIDN (cpu)", read_pfm(oidn_path), oidn_ms))
        noisy_mse = mse(noisy, ref)
        for label, image, ms in results:
            error = mse(image, ref)
            row = [name, f"{size[0]}x{size[1]}", label, f"{error:.4g}",
                   f"{noisy_mse / error:.2f}", f"{ms:.1f}" if label != "noisy" else
                   f"{stats['total_ms']:.0f} (render)"]
            if args.equal_time:
                if label == "noisy":
                    row += ["", "", ""]
                else:
                    spp, equal = equal_time_mse(args, scene_file, size, stats, ms, ref, work,
                                                f"{name}_{len(table)}", np)
                    row += [str(spp), f"{equal:.4g}", f"{equal / error:.2f}x"]
            table.append(row)
            print("  " + "  ".join(row[2:]), flush=True)
        print(f"  the reference's own noise, about {noisy_mse * args.spp / args.reference_spp:.2g}"
              f" (the noisy MSE x {args.spp} / {args.reference_spp}), is in every MSE", flush=True)
        images = [(f"noisy {args.spp} spp, MSE {noisy_mse:.3g}", noisy)]
        for label, image, _ in results[1:]:
            if label == "built-in, radiance":
                continue
            images.append((f"{label}, MSE {mse(image, ref):.3g}", image))
        images.append((f"reference {args.reference_spp} spp", ref))
        rows.append({"scene": name, "images": images})
    stem = f"{args.device}_{args.size}"
    figure(rows, os.path.join(args.out, f"denoise_{stem}.jpg"),
           f"{args.spp} spp on the {args.device} executor ({stats['device']}); the built-in "
           f"filter on the {stats['denoise']['device']}, OIDN {'on the cpu' if not args.no_oidn else 'not run'}")
    lines = [f"{args.spp} spp against references of {args.reference_spp} spp; ms: the noisy "
             "row's render loop, the built-in filter's time with its copies to and from the GPU "
             "(if any), OIDN's filter call on the CPU", "",
             "| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in table]
    if args.timing_runs > 0:
        lines += ["", timing(args, work)]
    text = "\n".join(lines) + "\n"
    open(os.path.join(args.out, f"bench_{stem}.md"), "w").write(text)
    print(text, end="")
    print(f"figure: {os.path.join(args.out, f'denoise_{stem}.jpg')}")


if __name__ == "__main__":
    main()

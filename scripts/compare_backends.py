#!/usr/bin/env python3
"""Frame times of the two renderer binaries side by side: own primitives and Thrust.

Renders every scene with build/raystream (own) and build/raystream-thrust (Thrust), each with
compaction on/off and sorting by material on/off, and writes, from the renderers' --stats JSON
only (nothing is timed from outside):

  <out>/<gpu>.md, <gpu>.csv        the table (also printed) and the target figures
  <out>/<gpu>/*.json               every stats JSON, so the tables and plots can be made again
                                   without a GPU: --plots-only <out>/<gpu>
  <out>/<gpu>-*.png                stages per bounce, live paths, frame time per setting, sorting

Examples:
  python3 scripts/compare_backends.py                          # GPU, 1920x1080, depth 8
  python3 scripts/compare_backends.py --quick --build build    # CPU smoke test, tiny images
  python3 scripts/compare_backends.py --plots-only renders/compare/NVIDIA-H200

Only the standard library is needed to render and write the tables; matplotlib (Debian:
python3-matplotlib) is imported only for the plots.
"""

import argparse
import csv
import datetime
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = (("own", "raystream"), ("thrust", "raystream-thrust"))
# (compact, sort): the renderer's defaults first.
SETTINGS = ((True, False), (True, True), (False, False), (False, True))
STAGES = ("intersect", "sort", "shade", "compact")
CSV_COLUMNS = (
    "scene", "backend", "compact", "sort", "width", "height", "depth", "frame_ms", "compact_ms",
    "sort_ms", "samples_per_s", "share_compact_sort", "thrust_over_own", "frames",
    "warmup_frames", "frame_ms_mean", "intersect_ms", "shade_ms", "device", "executor",
    "stats_file")
RUN_INFO = "run.json"
QUICK_RESOLUTION = "32x18"
QUICK_SPP = 2


def on_off(flag):
    return "on" if flag else "off"


def strip_json_comments(text):
    """The scene format allows // comments; remove them outside strings."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def is_mesh_scene(path):
    """True when an object is neither a sphere nor a cube (a mesh, or anything read from a file)."""
    try:
        doc = json.loads(strip_json_comments(Path(path).read_text()))
        objects = doc.get("Objects", [])
    except (OSError, ValueError, AttributeError):
        return False
    for obj in objects if isinstance(objects, list) else []:
        if not isinstance(obj, dict):
            continue
        kind = str(obj.get("TYPE", "")).lower()
        if kind not in ("sphere", "cube") or any(
            re.search("mesh|obj|file|path", key, re.I) for key in obj):
            return True
    return False


def default_scenes():
    return [str(p) for p in sorted((ROOT / "scenes").glob("*.json")) if not is_mesh_scene(p)]


def gpu_name(stats):
    """The device as a file name: spaces to '-', other unusual characters dropped."""
    name = re.sub(r"\s+", "-", str(stats.get("device", "unknown")).strip())
    name = re.sub(r"[^A-Za-z0-9._+-]", "", name) or "unknown"
    if stats.get("executor") == "cpu" and not name.lower().startswith("cpu"):
        name = "cpu-" + name
    return name


def warmup_frames(frames, requested=None):
    """Frames left out of the median: the request, else a tenth of the frames (1 .. 20)."""
    k = requested if requested is not None else min(20, max(1, frames // 10))
    return max(0, min(k, frames - 1))


def stats_file_name(scene, backend, compact, sort):
    return f"{scene}__{backend}__compact-{on_off(compact)}__sort-{on_off(sort)}.json"


def summarize(stats, warmup=None, stats_file=""):
    """One CSV row from a stats JSON. Stage times are per frame, averaged over all frames (the
    JSON holds their sums); the frame time is the median with the first frames left out."""
    frames = int(stats["frames"])
    each = list(stats.get("frame_ms", {}).get("each") or [])
    k = warmup_frames(len(each), warmup) if each else 0
    frame_ms = statistics.median(each[k:]) if each else float(stats["frame_ms"]["median"])
    per_frame = {s: float(stats["stage_ms"][s]) / frames if frames else 0.0 for s in STAGES}
    mean_all = float(stats["frame_ms"]["mean"])
    share = (per_frame["compact"] + per_frame["sort"]) / mean_all if mean_all > 0 else 0.0
    return {
        "scene": Path(stats["scene"]).stem,
        "backend": stats.get("binary_backend") or stats.get("backend"),
        "compact": on_off(stats["compact"]),
        "sort": on_off(stats["sort_by_material"]),
        "width": int(stats["width"]),
        "height": int(stats["height"]),
        "depth": int(stats["depth"]),
        "frame_ms": frame_ms,
        "compact_ms": per_frame["compact"],
        "sort_ms": per_frame["sort"],
        "samples_per_s": float(stats["samples_per_second"]),
        "share_compact_sort": share,
        "thrust_over_own": None,
        "frames": frames,
        "warmup_frames": k,
        "frame_ms_mean": mean_all,
        "intersect_ms": per_frame["intersect"],
        "shade_ms": per_frame["shade"],
        "device": stats.get("device", ""),
        "executor": stats.get("executor", ""),
        "stats_file": stats_file,
    }


def add_ratios(rows):
    """thrust_over_own on both rows of a (scene, compact, sort) setting where both exist."""
    by_key = {(r["scene"], r["compact"], r["sort"], r["backend"]): r for r in rows}
    for r in rows:
        own = by_key.get((r["scene"], r["compact"], r["sort"], "own"))
        thrust = by_key.get((r["scene"], r["compact"], r["sort"], "thrust"))
        if own and thrust and own["frame_ms"] > 0:
            r["thrust_over_own"] = thrust["frame_ms"] / own["frame_ms"]
    return rows


def sort_rows(rows, scene_order=None):
    order = {s: i for i, s in enumerate(scene_order or [])}
    setting = {(on_off(c), on_off(s)): i for i, (c, s) in enumerate(SETTINGS)}
    backend = {b: i for i, (b, _) in enumerate(BACKENDS)}
    return sorted(rows, key=lambda r: (order.get(r["scene"], len(order)), r["scene"],
                                       setting.get((r["compact"], r["sort"]), 9),
                                       backend.get(r["backend"], 9), r["backend"]))


# ---- the table --------------------------------------------------------------------------------

TABLE_HEADER = ("scene", "compact", "sort", "backend", "frame ms (median)", "compact ms/frame",
                "sort ms/frame", "compact+sort share", "Msamples/s", "thrust/own")


def table_cells(r):
    ratio = r["thrust_over_own"]
    return (r["scene"], r["compact"], r["sort"], r["backend"], f"{r['frame_ms']:.3f}",
            f"{r['compact_ms']:.3f}", f"{r['sort_ms']:.3f}",
            f"{100 * r['share_compact_sort']:.1f}%",
            f"{r['samples_per_s'] / 1e6:.1f}", "" if ratio is None else f"{ratio:.2f}")


def text_table(rows):
    cells = [TABLE_HEADER] + [table_cells(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(TABLE_HEADER))]
    lines = []
    for n, c in enumerate(cells):
        lines.append("  ".join(v.ljust(w) if i < 4 else v.rjust(w)
                               for i, (v, w) in enumerate(zip(c, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows):
    lines = ["| " + " | ".join(TABLE_HEADER) + " |",
             "| " + " | ".join("---" if i < 4 else "---:" for i in range(len(TABLE_HEADER))) + " |"]
    lines += ["| " + " | ".join(table_cells(r)) + " |" for r in rows]
    return "\n".join(lines)


def find(rows, scene, backend, compact, sort):
    for r in rows:
        if (r["scene"], r["backend"], r["compact"], r["sort"]) == (scene, backend, compact, sort):
            return r
    return None


def target_lines(rows):
    """The issue's targets as measured: each line states the figure and met / missed."""
    lines = []
    scenes = list(dict.fromkeys(r["scene"] for r in rows))
    pairs = [(r, find(rows, r["scene"], "thrust", r["compact"], r["sort"]))
             for r in rows if r["backend"] == "own"]
    pairs = [(o, t) for o, t in pairs if t]
    if pairs:
        worst = min(pairs, key=lambda p: p[0]["thrust_over_own"])
        slower = [f"{o['scene']} (compact {o['compact']}, sort {o['sort']}: "
                  f"{o['thrust_over_own']:.2f})" for o, _ in pairs if o["thrust_over_own"] < 1.0]
        lines.append(
            f"Own frame time <= Thrust's on every scene and setting: "
            f"{'met' if not slower else 'missed'}; lowest thrust/own "
            f"{worst[0]['thrust_over_own']:.2f} ({worst[0]['scene']}, "
            f"compact {worst[0]['compact']}, sort {worst[0]['sort']})"
            + (f"; own slower on {', '.join(slower)}" if slower else ""))
    cornell = find(rows, "cornell", "own", "on", "off")
    if cornell and cornell["thrust_over_own"] is not None:
        ratio = cornell["thrust_over_own"]
        lines.append(f"Thrust / own >= 1.3 on the Cornell box (compact on, sort off): "
                     f"{ratio:.2f}, {'met' if ratio >= 1.3 else 'missed'}")
    own_compacting = [r for r in rows if r["backend"] == "own" and r["compact"] == "on"]
    if own_compacting:
        worst = max(own_compacting, key=lambda r: r["share_compact_sort"])
        lines.append(
            f"Own compaction + sorting <= 10% of the frame on every scene (compact on, sort on and "
            f"off): highest {100 * worst['share_compact_sort']:.1f}% ({worst['scene']}, sort "
            f"{worst['sort']}), {'met' if worst['share_compact_sort'] <= 0.10 else 'missed'}")
    for scene in scenes:
        off, on = find(rows, scene, "own", "on", "off"), find(rows, scene, "own", "on", "on")
        if off and on and on["frame_ms"] > 0:
            gain = off["frame_ms"] / on["frame_ms"]
            lines.append(
                f"Sorting by material on {scene} (own, compact on): {off['frame_ms']:.3f} ms off, "
                f"{on['frame_ms']:.3f} ms on (sort {on['sort_ms']:.3f} ms/frame): "
                f"speedup {gain:.2f}, "
                f"{'pays' if gain > 1.0 else 'does not pay'}")
    for scene in scenes:
        on, off = find(rows, scene, "own", "on", "off"), find(rows, scene, "own", "off", "off")
        if off and on and on["frame_ms"] > 0:
            lines.append(
                f"Compaction on {scene} (own, sort off): {off['frame_ms']:.3f} ms off, "
                f"{on['frame_ms']:.3f} ms on: speedup {off['frame_ms'] / on['frame_ms']:.2f}")
    return lines


# ---- files ------------------------------------------------------------------------------------

def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: ("" if r[k] is None else
                                 repr(round(r[k], 6)) if isinstance(r[k], float) else r[k])
                             for k in CSV_COLUMNS})


def write_markdown(path, rows, info, plots):
    first = rows[0]
    lines = [f"# Backend comparison on {first['device']}", ""]
    lines.append(f"{info.get('date', '?')}; executor {first['executor']}; "
                 f"{first['width']}x{first['height']}, depth {first['depth']}, "
                 f"{first['frames']} frames (samples per pixel) per render; the frame time is the "
                 f"median after the first {first['warmup_frames']} frames; stage times are per "
                 f"frame, averaged over all frames; the share is (compact + sort) / mean frame "
                 f"time.")
    if first["executor"] == "cpu":
        lines += ["", "On the CPU executor both binaries use the CPU reference primitives: these "
                  "numbers test the script, they do not compare the backends."]
    if info.get("command"):
        lines += ["", f"Command: `{info['command']}`"]
    lines += ["", markdown_table(rows), "", "## Targets", ""]
    lines += [f"- {t}" for t in target_lines(rows)]
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    Path(path).write_text("\n".join(lines) + "\n")


def load_stats_dir(directory):
    """Every stats JSON in a folder (or below it): {file path: stats}."""
    found = {}
    paths = sorted(Path(directory).glob("*.json")) or sorted(Path(directory).rglob("*.json"))
    for p in paths:
        try:
            doc = json.loads(p.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and "frame_ms" in doc and "bounces" in doc:
            found[p] = doc
    return found


# ---- rendering --------------------------------------------------------------------------------

def check_settings(stats, args, backend, compact, sort, command):
    """The stats must describe the render that was asked for."""
    width, height = (int(v) for v in args.resolution.split("x"))
    got = (stats.get("binary_backend"), stats.get("compact"), stats.get("sort_by_material"),
           stats.get("width"), stats.get("height"), stats.get("depth"), stats.get("frames"))
    want = (backend, compact, sort, width, height, args.depth, args.spp)
    if got != want:
        sys.exit(f"compare_backends: the stats of {command} describe (backend, compact, sort, "
                 f"width, height, depth, frames) = {got}, expected {want}")


def render_all(args, scenes, staging):
    binaries = {backend: Path(args.build) / name for backend, name in BACKENDS}
    for path in binaries.values():
        if not path.is_file():
            sys.exit(f"compare_backends: {path}: no such binary (build it: cmake --build "
                     f"{args.build} --target raystream raystream-thrust)")
    runs = [(scene, compact, sort, backend) for scene in scenes for compact, sort in SETTINGS
            for backend, _ in BACKENDS]
    with tempfile.TemporaryDirectory(prefix="compare-images-") as images:
        for done, (scene, compact, sort, backend) in enumerate(runs, 1):
            out = staging / stats_file_name(Path(scene).stem, backend, compact, sort)
            cmd = [str(binaries[backend]), scene, "--spp", str(args.spp),
                   "--depth", str(args.depth), "--resolution", args.resolution,
                   "--compact", on_off(compact), "--sort-by-material", on_off(sort),
                   "--device", args.device, "--seed", "0", "--stats", str(out),
                   "--output", str(Path(images) / "image.hdr"), "--quiet"]
            command = " ".join(cmd)
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                sys.exit(f"compare_backends: timed out after {args.timeout} s: {command}")
            if proc.returncode != 0 or not out.is_file():
                sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-4000:])
                sys.exit(f"compare_backends: exit code {proc.returncode}: {command}")
            stats = json.loads(out.read_text())
            check_settings(stats, args, backend, compact, sort, command)
            row = summarize(stats, args.warmup)
            print(f"[{done}/{len(runs)}] {row['scene']} {backend} compact {on_off(compact)} "
                  f"sort {on_off(sort)}: {row['frame_ms']:.3f} ms", flush=True)


def publish(stats_by_path, out_dir, info):
    """Copies (or moves) the stats JSONs into <out>/<gpu>/ and returns (gpu, folder)."""
    devices = {gpu_name(s) for s in stats_by_path.values()}
    if len(devices) != 1:
        sys.exit(f"compare_backends: stats from {len(devices)} devices "
                 f"({', '.join(sorted(devices))}); give one device's folder")
    gpu = devices.pop()
    folder = out_dir / gpu
    folder.mkdir(parents=True, exist_ok=True)
    sources = {p.resolve().parent for p in stats_by_path}
    if sources != {folder.resolve()}:
        for old in folder.glob("*.json"):
            old.unlink()
        for p in stats_by_path:
            shutil.copy2(p, folder / p.name)
    (folder / RUN_INFO).write_text(json.dumps(info, indent=2) + "\n")
    return gpu, folder


def report(stats_dir, out_dir, args, info, scene_order):
    stats_by_path = load_stats_dir(stats_dir)
    if not stats_by_path:
        sys.exit(f"compare_backends: {stats_dir}: no stats JSON files")
    gpu, folder = publish(stats_by_path, out_dir, info)
    stats_by_path = load_stats_dir(folder)
    rows = add_ratios([summarize(s, args.warmup, p.name) for p, s in stats_by_path.items()])
    rows = sort_rows(rows, scene_order)
    print(text_table(rows))
    print()
    for line in target_lines(rows):
        print(line)
    csv_path, md_path = out_dir / f"{gpu}.csv", out_dir / f"{gpu}.md"
    write_csv(csv_path, rows)
    plots = []
    if not args.no_plots:
        try:
            plots = make_plots(rows, {p.name: s for p, s in stats_by_path.items()}, out_dir, gpu)
        except ImportError:
            print("plots skipped: matplotlib is missing (Debian: apt-get install "
                  f"python3-matplotlib); make them later with --plots-only {folder}")
    write_markdown(md_path, rows, info, plots)
    print(f"\nwrote {csv_path}, {md_path}, {len(plots)} plots, stats JSONs in {folder}")
    return rows


# ---- plots (matplotlib, imported here only) ----------------------------------------------------

def make_plots(rows, stats_by_name, out_dir, gpu):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def stats_for(scene, backend, compact, sort):
        r = find(rows, scene, backend, compact, sort)
        return stats_by_name.get(r["stats_file"]) if r else None

    scenes = list(dict.fromkeys(r["scene"] for r in rows))
    colors = {"intersect": "#4c72b0", "sort": "#dd8452", "shade": "#55a868", "compact": "#c44e52"}
    written = []
    device = rows[0]["device"]

    # 1. Time per stage per bounce, stacked, one column per backend (compact on, sort on).
    fig, axes = plt.subplots(len(scenes), len(BACKENDS), figsize=(11, 2.8 * len(scenes)),
                             squeeze=False)
    for i, scene in enumerate(scenes):
        for j, (backend, _) in enumerate(BACKENDS):
            ax = axes[i][j]
            s = stats_for(scene, backend, "on", "on") or stats_for(scene, backend, "on", "off")
            if not s:
                ax.set_visible(False)
                continue
            bounces = [b["bounce"] for b in s["bounces"]]
            bottom = [0.0] * len(bounces)
            for stage in STAGES:
                values = [b["ms_per_frame"][stage] for b in s["bounces"]]
                ax.bar(bounces, values, bottom=bottom, color=colors[stage], label=stage)
                bottom = [a + v for a, v in zip(bottom, values)]
            ax.set_title(f"{scene}: {backend} (compact on, sort {on_off(s['sort_by_material'])})",
                         fontsize=9)
            ax.set_xlabel("bounce")
            ax.set_ylabel("ms per frame")
            ax.set_xticks(bounces)
        row_axes = [a for a in axes[i] if a.get_visible()]
        if row_axes:
            top = max(a.get_ylim()[1] for a in row_axes)
            for a in row_axes:
                a.set_ylim(0, top)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Time per stage per bounce, {device}")
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-stages.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    # 2. Live paths per bounce (own, compact on, sort off): the open and the closed scene stand out.
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for scene in scenes:
        s = stats_for(scene, "own", "on", "off")
        if not s:
            continue
        xs = [b["bounce"] for b in s["bounces"]] + [len(s["bounces"])]
        ys = ([b["paths_in_per_frame"] for b in s["bounces"]]
              + [s["bounces"][-1]["paths_out_per_frame"]])
        pixels = s["width"] * s["height"]
        ax.plot(xs, [100.0 * y / pixels for y in ys], marker="o",
                linewidth=2.5 if scene in ("open", "closed_room") else 1.2, label=scene)
    ax.set_xlabel("bounce (paths entering it; the last point: alive after the last bounce)")
    ax.set_ylabel("live paths, % of pixels")
    ax.set_ylim(0, 105)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"Live paths per bounce (own, compact on), {device}", fontsize=10)
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-live-paths.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    # 3. Frame time per setting, own and Thrust side by side, one panel per scene.
    cols = min(3, len(scenes))
    nrows = (len(scenes) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.4 * nrows), squeeze=False)
    labels = [f"compact {on_off(c)}\nsort {on_off(s)}" for c, s in SETTINGS]
    for k, scene in enumerate(scenes):
        ax = axes[k // cols][k % cols]
        width = 0.8 / len(BACKENDS)
        for j, (backend, _) in enumerate(BACKENDS):
            values = []
            for c, s in SETTINGS:
                r = find(rows, scene, backend, on_off(c), on_off(s))
                values.append(r["frame_ms"] if r else 0.0)
            xs = [i + (j - (len(BACKENDS) - 1) / 2) * width for i in range(len(SETTINGS))]
            bars = ax.bar(xs, values, width, label=backend)
            ax.bar_label(bars, fmt="%.2f", fontsize=6)
        ax.set_xticks(range(len(SETTINGS)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("frame ms (median)")
        ax.set_title(scene, fontsize=10)
    for k in range(len(scenes), nrows * cols):
        axes[k // cols][k % cols].set_visible(False)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Frame time per setting, {device}")
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-frame-time.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    # 4. Does sorting pay? Per bounce (own, compact on): shade without sorting against shade + sort.
    fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.4 * nrows), squeeze=False)
    for k, scene in enumerate(scenes):
        ax = axes[k // cols][k % cols]
        off, on = stats_for(scene, "own", "on", "off"), stats_for(scene, "own", "on", "on")
        if not off or not on:
            ax.set_visible(False)
            continue
        xs = [b["bounce"] for b in off["bounces"]]
        ax.bar([x - 0.2 for x in xs], [b["ms_per_frame"]["shade"] for b in off["bounces"]], 0.4,
               color=colors["shade"], alpha=0.55, label="shade, sort off")
        shade_on = [b["ms_per_frame"]["shade"] for b in on["bounces"]]
        ax.bar([x + 0.2 for x in xs], shade_on, 0.4, color=colors["shade"], label="shade, sort on")
        ax.bar([x + 0.2 for x in xs], [b["ms_per_frame"]["sort"] for b in on["bounces"]], 0.4,
               bottom=shade_on, color=colors["sort"], label="sort")
        r_off, r_on = find(rows, scene, "own", "on", "off"), find(rows, scene, "own", "on", "on")
        ax.set_title(f"{scene}: frame {r_off['frame_ms']:.3f} ms off, {r_on['frame_ms']:.3f} ms on",
                     fontsize=8)
        ax.set_xlabel("bounce")
        ax.set_ylabel("ms per frame")
        ax.set_xticks(xs)
    for k in range(len(scenes), nrows * cols):
        axes[k // cols][k % cols].set_visible(False)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Sorting by material: shading saved against sorting spent (own), {device}")
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-sort.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)
    return written


# ---- command line -----------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=str(ROOT / "build"),
                   help="folder with raystream and raystream-thrust (default: build/)")
    p.add_argument("--scenes", nargs="+", metavar="SCENE.json",
                   help="scenes to render (default: scenes/*.json without meshes)")
    p.add_argument("--spp", type=int, help="frames per render (default 200; --quick: 2)")
    p.add_argument("--resolution", help="WxH (default 1920x1080; --quick: 32x18)")
    p.add_argument("--depth", type=int, default=8, help="maximum bounces (default 8)")
    p.add_argument("--device", choices=("gpu", "cpu"),
                   help="the renderers' executor (default gpu; --quick: cpu)")
    p.add_argument("--quick", action="store_true",
                   help="smoke test without a GPU: CPU executor, 32x18, 2 spp (unless given)")
    p.add_argument("--warmup", type=int,
                   help="first frames left out of the median (default: a tenth, 1 .. 20)")
    p.add_argument("--out", default=str(ROOT / "renders" / "compare"),
                   help="output folder (default: renders/compare)")
    p.add_argument("--plots-only", metavar="DIR",
                   help="render nothing: tables, CSV and plots from the stats JSONs in DIR")
    p.add_argument("--no-plots", action="store_true", help="tables and CSV only")
    p.add_argument("--timeout", type=int, default=600, help="seconds per render (default 600)")
    args = p.parse_args(argv)
    args.device = args.device or ("cpu" if args.quick else "gpu")
    args.spp = args.spp or (QUICK_SPP if args.quick else 200)
    args.resolution = args.resolution or (QUICK_RESOLUTION if args.quick else "1920x1080")
    if args.spp < 1 or args.depth < 1:
        p.error("--spp and --depth must be at least 1")
    if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", args.resolution):
        p.error(f"--resolution: expected WxH, got {args.resolution!r}")
    if args.warmup is not None and args.warmup < 0:
        p.error("--warmup must be >= 0")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.plots_only:
        folder = Path(args.plots_only)
        info_path = folder / RUN_INFO
        info = json.loads(info_path.read_text()) if info_path.is_file() else {}
        if "date" not in info:
            newest = max((p.stat().st_mtime for p in folder.rglob("*.json")), default=None)
            if newest is not None:
                when = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc)
                info["date"] = when.strftime("%Y-%m-%d %H:%M UTC (stats files' time)")
        report(folder, out_dir, args, info, info.get("scenes"))
        return 0
    scenes = args.scenes or default_scenes()
    if not scenes:
        sys.exit("compare_backends: no scenes")
    for scene in scenes:
        if not Path(scene).is_file():
            sys.exit(f"compare_backends: {scene}: no such scene file")
    scenes = [str(Path(scene).resolve()) for scene in scenes]
    command = " ".join(["python3", "scripts/compare_backends.py"] +
                       (sys.argv[1:] if argv is None else list(argv)))
    info = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "scenes": [Path(s).stem for s in scenes]}
    with tempfile.TemporaryDirectory(prefix=".running-", dir=out_dir) as staging:
        render_all(args, scenes, Path(staging))
        report(Path(staging), out_dir, args, info, info["scenes"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""backends: renderer schedules and primitives backends side by side, from the renderers' stats.

Renders every scene with build/raystream (own primitives) and build/raystream-thrust (Thrust) in
each schedule and setting of RUNS:

  megakernel                          one thread per sample, no compaction: the baseline. It uses
                                      no primitives, so it is rendered once, with the own binary;
                                      its row is the base of over_megakernel for both backends
  stream, sort off / on               the pool of path slots refilled as paths end (it always
                                      removes ended paths: its rows say compact on)
  frame, compact on / sort off,       one sample per pixel per frame, bounce by bounce
  compact on / sort on, compact off / sort off

and writes, from the renderers' --stats JSON only (nothing is timed from outside):

  <out>/<gpu>.md, <gpu>.csv           the table (also printed) and the target lines
  <out>/<gpu>/*.json                  every stats JSON (<scene>__<schedule>__<backend>__compact-on
                                      __sort-off.json) and run.json (date, command, scenes), so the
                                      tables and plots can be made again without a GPU:
                                      --plots-only <out>/<gpu>

<scene> is the scene's name: its path under scenes/ (cornell for scenes/cornell.json), else under
the repository, else from the root, without .json and with / as - (tests-data-tiny): two
scenes never share a name, and a scene has the same name in every run. A run replaces the files
of the scenes it renders and keeps the other scenes' files in <out>/<gpu>/, so the tables cover
every scene rendered there (run.json lists the earlier runs whose scenes are kept).
  <out>/<gpu>-*.png                   samples/s, ms per stage per schedule, live paths per depth,
                                      the frame schedule's stages per bounce

The common time measure is milliseconds per sample per pixel, total_ms / spp, with total_ms the
wall time of the whole render loop as the renderer reports it: it includes the first frames or
waves (warm-up) and, with --stage-timing sampled, the events of every 16th wave or frame. Stage
times per spp are the JSON's stage totals (estimated from the timed waves or frames) / spp; the
shares are of total_ms. frame_ms, for the frame and megakernel schedules only, is the median frame
time with the first frames left out (--warmup); it is not used in the ratios, so that stream and
frame compare fairly.

The published GPU tables (all scenes without meshes at 1920x1080, depth 8, 64 spp; smallpt at its
own 1024x768, depth 64, 256 spp; the binaries built in build-gpu):
  python3 scripts/bench.py backends --build build-gpu --out renders/compare \\
      --scene-settings smallpt=1024x768:64:256
Other examples:
  python3 scripts/bench.py backends --quick --build build    # CPU smoke test, tiny images
  python3 scripts/bench.py backends --schedules stream,megakernel --scenes scenes/cornell.json
  python3 scripts/bench.py backends --plots-only renders/compare/NVIDIA-H200

Only the standard library is needed to render and write the tables; matplotlib (Debian:
python3-matplotlib) is imported only for the plots. Stats JSONs written before the schedules
existed (no "schedule" field) are read as frame-schedule rows.
"""
import argparse
import datetime
import json
import re
import shutil
import tempfile
from pathlib import Path

from .. import runs
from ..runs import ROOT, ToolError
from . import common
from .backends_plots import make_plots
from .backends_report import target_lines, text_table, write_csv, write_markdown
from .backends_rows import (BACKENDS, FIXED, RUNS, SCHEDULES, SWITCHES, add_ratios, describe,
                            gpu_name, label_of_file, load_stats_dir, on_off, scene_label,
                            sort_rows, stats_file_name, summarize)

SUMMARY = "schedules and primitives backends side by side (renders/compare)"
RUN_INFO = "run.json"
QUICK = {"resolution": "32x18", "depth": 4, "spp": 2}
DEFAULTS = {"resolution": "1920x1080", "depth": 8, "spp": 64}


def is_mesh_scene(path):
    """True when an object is neither a sphere nor a cube (a mesh, or anything read from a file)."""
    try:
        doc = json.loads(runs.strip_json_comments(Path(path).read_text()))
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


def scene_labels(scenes, settings):
    """{scene path: name} of the scenes to render, and the --scene-settings keyed by those names
    (a key is a scene's name or, where only one scene has it, its file name without .json)."""
    labels = {}
    for scene in scenes:
        label = scene_label(scene)
        same = [s for s, other in labels.items() if other == label]
        if same:
            raise ToolError(f"{same[0]} and {scene} "
                            + ("are the same scene" if Path(same[0]).resolve() ==
                               Path(scene).resolve() else f"both go by the name {label}")
                            + " (give each scene once)", code=2)
        labels[scene] = label
    keyed, unused = {}, []
    for key, value in settings.items():
        named = [label for label in labels.values() if label == key]
        named = named or [labels[s] for s in scenes if Path(s).stem == key]
        if len(named) > 1:
            raise ToolError(f"--scene-settings {key}: {len(named)} scenes have that file name; "
                            f"use their names ({', '.join(named)})", code=2)
        if named:
            keyed[named[0]] = value
        else:
            unused.append(key)
    if unused:
        raise ToolError(f"--scene-settings for scenes not rendered: {', '.join(sorted(unused))}",
                        code=2)
    return labels, keyed


def parse_scene_setting(text):
    """'STEM=WxH:DEPTH:SPP' -> (stem, {resolution, depth, spp}); an empty field keeps the default
    (smallpt=::256 changes only the spp)."""
    m = re.fullmatch(r"([^=]+)=([1-9][0-9]*x[1-9][0-9]*)?(?::([1-9][0-9]*)?(?::([1-9][0-9]*)?)?)?",
                     text)
    if not m:
        raise ValueError(f"expected SCENE=WxH:DEPTH:SPP, got {text!r}")
    stem, resolution, depth, spp = m.groups()
    given = {"resolution": resolution, "depth": depth and int(depth), "spp": spp and int(spp)}
    return stem, {k: v for k, v in given.items() if v}


def scene_settings(args, stem):
    """{resolution, depth, spp} of one scene: --scene-settings over --resolution/--depth/--spp."""
    return {"resolution": args.resolution, "depth": args.depth, "spp": args.spp,
            **args.scene_settings.get(stem, {})}


def check_settings(stats, want):
    """The stats must describe the render that was asked for (describe()'s fields); raises
    ValueError naming the differences."""
    got = describe(stats)
    if got != want:
        raise ValueError(", ".join(f"{k} {got.get(k)!r} (expected {v!r})"
                                   for k, v in want.items() if got.get(k) != v))


def planned_runs(args, scenes):
    """(scene path, schedule, compact, sort, backend) of every render, in table order."""
    return [(scene, schedule, compact, sort, backend) for scene in scenes
            for schedule, compact, sort, backends in RUNS if schedule in args.schedules
            for backend in backends]


def render_all(args, scenes, labels, staging):
    planned = planned_runs(args, scenes)
    binaries = {backend: runs.binary(args.build, name) for backend, name in BACKENDS
                if any(run[4] == backend for run in planned)}
    with tempfile.TemporaryDirectory(prefix="compare-images-") as images:
        for done, (scene, schedule, compact, sort, backend) in enumerate(planned, 1):
            label = labels[scene]
            size = scene_settings(args, label)
            out = staging / stats_file_name(label, schedule, backend, compact, sort)
            options = ["--schedule", schedule, "--spp", size["spp"], "--depth", size["depth"],
                       "--resolution", size["resolution"], "--stage-timing", args.stage_timing,
                       "--device", args.device, "--seed", "0"]
            # The wavefronts with the single shade kernel, whose sort by material is the
            # dimension compared here (`bench.py shading` compares the shading modes).
            if schedule != "megakernel":
                options += ["--shade", "single"]
            value = {"compact": compact, "sort": sort}
            for name, flag in SWITCHES:
                if name not in FIXED[schedule]:
                    options += [flag, on_off(value[name])]
            rendered = runs.render(binaries[backend], scene, options, stats=out,
                                   output=Path(images) / "image.hdr", timeout=args.timeout)
            width, height = (int(v) for v in size["resolution"].split("x"))
            try:
                check_settings(rendered.stats, {
                    "schedule": schedule, "backend": backend, "compact": compact, "sort": sort,
                    "width": width, "height": height, "depth": size["depth"],
                    "spp": size["spp"]})
            except ValueError as e:
                raise ToolError(f"the stats of {' '.join(rendered.command)} describe another "
                                f"render: {e}")
            row = summarize(rendered.stats, args.warmup, out.name)
            print(f"[{done}/{len(planned)}] {label} {schedule} {backend} compact "
                  f"{on_off(compact)} sort {on_off(sort)}: {row['ms_per_spp']:.3f} ms/spp, "
                  f"{row['samples_per_s'] / 1e6:.1f} Msamples/s", flush=True)


def merged_info(old, info, kept):
    """run.json of a folder that keeps the scenes `kept` from earlier runs (old: its run.json):
    this run's date, command and scenes, the kept scenes after them, and the earlier runs that
    rendered any of those."""
    earlier = [run for run in [{k: v for k, v in old.items() if k != "earlier"}]
               + list(old.get("earlier", [])) if set(run.get("scenes", [])) & set(kept)]
    merged = {k: v for k, v in info.items() if k != "earlier"}
    merged["scenes"] = list(info.get("scenes", [])) + [s for s in kept
                                                       if s not in info.get("scenes", [])]
    if earlier:
        merged["earlier"] = earlier
    return merged


def publish(stats_by_path, out_dir, info):
    """Copies the stats JSONs into <out>/<gpu>/, replacing the files of their scenes there and
    keeping the other scenes' files, and returns (gpu, folder)."""
    devices = {gpu_name(s) for s in stats_by_path.values()}
    if len(devices) != 1:
        raise ToolError(f"stats from {len(devices)} devices ({', '.join(sorted(devices))}); give "
                        "one device's folder", code=2)
    gpu = devices.pop()
    folder = out_dir / gpu
    folder.mkdir(parents=True, exist_ok=True)
    sources = {p.resolve().parent for p in stats_by_path}
    if sources != {folder.resolve()}:
        labels = {label_of_file(p.name) or p.stem for p in stats_by_path}
        for old in folder.glob("*.json"):
            if label_of_file(old.name) in labels:
                old.unlink()
        for p in stats_by_path:
            shutil.copy2(p, folder / p.name)
        kept = list(dict.fromkeys(label for label in map(label_of_file, sorted(
            p.name for p in folder.glob("*.json"))) if label and label not in labels))
        old_info = folder / RUN_INFO
        if kept and old_info.is_file():
            try:
                info = merged_info(json.loads(old_info.read_text()), info, kept)
            except ValueError:
                info = dict(info, scenes=list(info.get("scenes", [])) + kept)
        elif kept:
            info = dict(info, scenes=list(info.get("scenes", [])) + kept)
    (folder / RUN_INFO).write_text(json.dumps(info, indent=2) + "\n")
    return gpu, folder


def report(stats_dir, out_dir, args, info, scene_order):
    stats_by_path = load_stats_dir(stats_dir)
    if not stats_by_path:
        raise ToolError(f"{stats_dir}: no stats JSON files", code=2)
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


def add_arguments(p):
    common.add_build(p, "raystream and raystream-thrust")
    p.add_argument("--scenes", nargs="+", metavar="SCENE.json",
                   help="scenes to render (default: scenes/*.json without meshes)")
    p.add_argument("--schedules", default=",".join(SCHEDULES),
                   help=f"comma list of schedules to render (default: {','.join(SCHEDULES)})")
    p.add_argument("--spp", type=int, help=f"samples per pixel per render (default "
                   f"{DEFAULTS['spp']}; --quick: {QUICK['spp']})")
    p.add_argument("--resolution", help=f"WxH (default {DEFAULTS['resolution']}; --quick: "
                   f"{QUICK['resolution']})")
    p.add_argument("--depth", type=int, help=f"maximum bounces (default {DEFAULTS['depth']}; "
                   f"--quick: {QUICK['depth']})")
    p.add_argument("--scene-settings", nargs="+", default=[], metavar="SCENE=WxH:DEPTH:SPP",
                   help="per scene (its name, or its file name without .json) resolution, depth "
                        "and spp instead of --resolution, --depth, --spp; an empty field keeps "
                        "those (e.g. smallpt=1024x768:64:256 cornell=::128)")
    p.add_argument("--stage-timing", choices=("sampled", "all", "off"), default="sampled",
                   help="the renderers' stage timing (default sampled)")
    p.add_argument("--device", choices=("gpu", "cpu"),
                   help="the renderers' executor (default gpu; --quick: cpu)")
    p.add_argument("--quick", action="store_true",
                   help=f"smoke test without a GPU: CPU executor, {QUICK['resolution']}, depth "
                        f"{QUICK['depth']}, {QUICK['spp']} spp (unless given)")
    p.add_argument("--warmup", type=int,
                   help="first frames left out of the median frame_ms (default: a tenth, 1 .. 20)")
    common.add_out(p, "renders/compare", "the tables, plots and stats JSON")
    p.add_argument("--plots-only", metavar="DIR",
                   help="render nothing: tables, CSV and plots from the stats JSONs in DIR")
    p.add_argument("--no-plots", action="store_true", help="tables and CSV only")
    p.add_argument("--timeout", type=int, default=600, help="seconds per render (default 600)")


def check_arguments(args, p):
    """The defaults that depend on --quick, and the checks argparse cannot make."""
    args.device = args.device or ("cpu" if args.quick else "gpu")
    for name, value in (QUICK if args.quick else DEFAULTS).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.spp < 1 or args.depth < 1:
        p.error("--spp and --depth must be at least 1")
    if not re.fullmatch(r"[1-9][0-9]*x[1-9][0-9]*", args.resolution):
        p.error(f"--resolution: expected WxH, got {args.resolution!r}")
    if args.warmup is not None and args.warmup < 0:
        p.error("--warmup must be >= 0")
    args.schedules = [s.strip() for s in args.schedules.split(",") if s.strip()]
    unknown = [s for s in args.schedules if s not in SCHEDULES]
    if unknown or not args.schedules:
        p.error(f"--schedules: expected a comma list of {', '.join(SCHEDULES)}, got "
                f"{','.join(unknown) or 'none'}")
    try:
        args.scene_settings = dict(parse_scene_setting(s) for s in args.scene_settings)
    except ValueError as e:
        p.error(f"--scene-settings: {e}")


def parse_args(argv):
    """The arguments as `bench.py backends` reads them."""
    p = argparse.ArgumentParser(prog="bench.py backends")
    add_arguments(p)
    args = p.parse_args(argv)
    check_arguments(args, p)
    return args


def plots_only(args, out_dir):
    folder = Path(args.plots_only)
    if not folder.is_dir():
        raise ToolError(f"--plots-only {args.plots_only}: no such folder", code=2)
    info_path = folder / RUN_INFO
    info = json.loads(info_path.read_text()) if info_path.is_file() else {}
    if "date" not in info:
        newest = max((p.stat().st_mtime for p in folder.rglob("*.json")), default=None)
        if newest is not None:
            when = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc)
            info["date"] = when.strftime("%Y-%m-%d %H:%M UTC (stats files' time)")
    report(folder, out_dir, args, info, info.get("scenes"))
    return 0


def run(args, argv):
    out_dir = common.out_folder(args.out)
    if args.plots_only:
        return plots_only(args, out_dir)
    scenes = args.scenes or default_scenes()
    if not scenes:
        raise ToolError("no scenes", code=2)
    for scene in scenes:
        if not Path(scene).is_file():
            raise ToolError(f"{scene}: no such scene file", code=2)
    scenes = [str(Path(scene).resolve()) for scene in scenes]
    labels, args.scene_settings = scene_labels(scenes, args.scene_settings)
    command = " ".join(["python3", "scripts/bench.py"] + list(argv))
    info = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "scenes": [labels[s] for s in scenes]}
    with tempfile.TemporaryDirectory(prefix=".running-", dir=out_dir) as staging:
        render_all(args, scenes, labels, Path(staging))
        report(Path(staging), out_dir, args, info, info["scenes"])
    return 0

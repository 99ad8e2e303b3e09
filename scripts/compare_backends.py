#!/usr/bin/env python3
"""Renderer schedules and primitives backends side by side, from the renderers' own stats.

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
the repository, else from the root, without .json and with / as - (tests-render-data-tiny): two
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
  python3 scripts/compare_backends.py --build build-gpu --out renders/compare \\
      --scene-settings smallpt=1024x768:64:256
Other examples:
  python3 scripts/compare_backends.py --quick --build build    # CPU smoke test, tiny images
  python3 scripts/compare_backends.py --schedules stream,megakernel --scenes scenes/cornell.json
  python3 scripts/compare_backends.py --plots-only renders/compare/NVIDIA-H200

Only the standard library is needed to render and write the tables; matplotlib (Debian:
python3-matplotlib) is imported only for the plots. Stats JSONs written before the schedules
existed (no "schedule" field) are read as frame-schedule rows.
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
BOTH = tuple(backend for backend, _ in BACKENDS)
SCHEDULES = ("stream", "frame", "megakernel")
# The renders per scene, in table order: (schedule, compact, sort, backends). The megakernel
# uses no primitives: one render with the own binary is the baseline of both backends.
RUNS = (
    ("megakernel", False, False, ("own",)),
    ("stream", True, False, BOTH),
    ("stream", True, True, BOTH),
    ("frame", True, False, BOTH),
    ("frame", True, True, BOTH),
    ("frame", False, False, BOTH),
)
# What a schedule fixes whatever the flags say: stream always removes ended paths (their slots are
# refilled), the megakernel neither compacts nor sorts. Only the free switches are passed.
FIXED = {"stream": {"compact": True}, "frame": {}, "megakernel": {"compact": False, "sort": False}}
SWITCHES = (("compact", "--compact"), ("sort", "--sort-by-material"))
STAGES = ("regenerate", "intersect", "sort", "shade", "compact")
LOW_FILL = "< 10%"
CSV_COLUMNS = (
    "scene", "schedule", "backend", "compact", "sort", "width", "height", "depth", "spp",
    "ms_per_spp", "samples_per_s", "path_segments_per_s", "compact_ms_per_spp", "sort_ms_per_spp",
    "regenerate_ms_per_spp", "share_compact_sort", "share_low_fill", "thrust_over_own",
    "over_megakernel", "frame_ms", "pool", "stage_timing", "device", "executor", "stats_file")
RUN_INFO = "run.json"
QUICK = {"resolution": "32x18", "depth": 4, "spp": 2}
DEFAULTS = {"resolution": "1920x1080", "depth": 8, "spp": 64}


def on_off(flag):
    return "on" if flag else "off"


def fail(message, code=1):
    """One line on stderr, `compare_backends: error: MESSAGE`, and the exit code (2: a bad command
    line or input; 1: a render or a file that failed)."""
    print(f"compare_backends: error: {message}", file=sys.stderr)
    raise SystemExit(code)


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


def scene_label(scene):
    """The name of a scene's rows and stats files: its path relative to scenes/, else to the
    repository, else to the root, without the extension and with / as -."""
    path = Path(scene).resolve()
    for base in (ROOT / "scenes", ROOT, Path(path.anchor)):
        try:
            relative = path.relative_to(base)
            break
        except ValueError:
            continue
    return "-".join(relative.with_suffix("").parts)


STATS_FILE = re.compile(r"(.+?)__(?:stream|frame|megakernel)__[^_]+__compact-(?:on|off)__"
                        r"sort-(?:on|off)\.json")


def label_of_file(name):
    """The scene name of a stats file named by stats_file_name, else None."""
    m = STATS_FILE.fullmatch(Path(name).name)
    return m.group(1) if m else None


def scene_labels(scenes, settings):
    """{scene path: name} of the scenes to render, and the --scene-settings keyed by those names
    (a key is a scene's name or, where only one scene has it, its file name without .json)."""
    labels = {}
    for scene in scenes:
        label = scene_label(scene)
        same = [s for s, other in labels.items() if other == label]
        if same:
            fail(f"{same[0]} and {scene} "
                 + ("are the same scene" if Path(same[0]).resolve() == Path(scene).resolve()
                    else f"both go by the name {label}") + " (give each scene once)", 2)
        labels[scene] = label
    keyed, unused = {}, []
    for key, value in settings.items():
        named = [label for label in labels.values() if label == key]
        named = named or [labels[s] for s in scenes if Path(s).stem == key]
        if len(named) > 1:
            fail(f"--scene-settings {key}: {len(named)} scenes have that file name; use their "
                 f"names ({', '.join(named)})", 2)
        if named:
            keyed[named[0]] = value
        else:
            unused.append(key)
    if unused:
        fail(f"--scene-settings for scenes not rendered: {', '.join(sorted(unused))}", 2)
    return labels, keyed


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


def stats_file_name(label, schedule, backend, compact, sort):
    return (f"{label}__{schedule}__{backend}__compact-{on_off(compact)}__"
            f"sort-{on_off(sort)}.json")


def describe(stats):
    """The render a stats JSON describes, as compared with the request; the schedule's fixed
    switches win over the flags the JSON echoes."""
    schedule = stats.get("schedule", "frame")
    switches = {"compact": stats["compact"], "sort": stats["sort_by_material"],
                **FIXED.get(schedule, {})}
    return {"schedule": schedule, "backend": stats.get("binary_backend") or stats.get("backend"),
            "compact": bool(switches["compact"]), "sort": bool(switches["sort"]),
            "width": int(stats["width"]), "height": int(stats["height"]),
            "depth": int(stats["depth"]), "spp": int(stats.get("spp", stats["frames"]))}


def low_fill_share(stats):
    """Stream: the share of the wave time spent in waves under 10% full; None otherwise."""
    fills = {b["fill"]: float(b["ms"]) for b in stats.get("waves", {}).get("by_fill", [])}
    total = sum(fills.values())
    return fills.get(LOW_FILL, 0.0) / total if total > 0 else None


def stage_totals(stats):
    """{stage: ms over the render}, or None where no wave or frame was timed (the megakernel,
    --stage-timing off); stats from before timed_units timed every frame."""
    if int(stats.get("timed_units", 1)) == 0:
        return None
    return {s: float(stats["stage_ms"].get(s, 0.0)) for s in STAGES}


def summarize(stats, warmup=None, stats_file=""):
    """One CSV row from a stats JSON (ratios empty: add_ratios fills them); the scene's name is
    the stats file's (stats_file_name), else the scene file's name without .json."""
    d = describe(stats)
    spp, total_ms = d["spp"], float(stats["total_ms"])
    each = list(stats.get("frame_ms", {}).get("each") or [])
    stage = stage_totals(stats)

    def per_spp(name):
        return stage[name] / spp if stage else None

    segments = stats.get("path_segments_per_second")
    return {
        "scene": label_of_file(stats_file) or Path(stats["scene"]).stem,
        "schedule": d["schedule"],
        "backend": d["backend"],
        "compact": on_off(d["compact"]),
        "sort": on_off(d["sort"]),
        "width": d["width"],
        "height": d["height"],
        "depth": d["depth"],
        "spp": spp,
        "ms_per_spp": total_ms / spp,
        "samples_per_s": float(stats["samples_per_second"]),
        "path_segments_per_s": None if segments is None else float(segments),
        "compact_ms_per_spp": per_spp("compact"),
        "sort_ms_per_spp": per_spp("sort"),
        "regenerate_ms_per_spp": per_spp("regenerate"),
        "share_compact_sort": ((stage["compact"] + stage["sort"]) / total_ms
                               if stage and total_ms > 0 else None),
        "share_low_fill": low_fill_share(stats),
        "thrust_over_own": None,
        "over_megakernel": None,
        "frame_ms": statistics.median(each[warmup_frames(len(each), warmup):]) if each else None,
        "pool": stats.get("pool", ""),
        "stage_timing": stats.get("stage_timing", ""),
        "device": stats.get("device", ""),
        "executor": stats.get("executor", ""),
        "stats_file": stats_file,
    }


def find(rows, **want):
    """The first row whose columns have the given values, or None."""
    for r in rows:
        if all(r[k] == v for k, v in want.items()):
            return r
    return None


def add_ratios(rows):
    """thrust_over_own: Thrust's ms per spp / own's, on both rows of a (scene, schedule, compact,
    sort) setting; over_megakernel: samples/s / the megakernel's of the same scene and backend,
    else the own megakernel's."""
    setting = {(r["scene"], r["schedule"], r["compact"], r["sort"], r["backend"]): r for r in rows}
    for r in rows:
        key = (r["scene"], r["schedule"], r["compact"], r["sort"])
        own, thrust = setting.get(key + ("own",)), setting.get(key + ("thrust",))
        if own and thrust and own["ms_per_spp"] > 0:
            r["thrust_over_own"] = thrust["ms_per_spp"] / own["ms_per_spp"]
        base = (find(rows, scene=r["scene"], schedule="megakernel", backend=r["backend"])
                or find(rows, scene=r["scene"], schedule="megakernel", backend="own"))
        if base and base["samples_per_s"] > 0:
            r["over_megakernel"] = r["samples_per_s"] / base["samples_per_s"]
    return rows


def sort_rows(rows, scene_order=None):
    order = {s: i for i, s in enumerate(scene_order or [])}
    run = {(schedule, on_off(c), on_off(s)): i for i, (schedule, c, s, _) in enumerate(RUNS)}
    backend = {b: i for i, b in enumerate(BOTH)}
    return sorted(rows, key=lambda r: (order.get(r["scene"], len(order)), r["scene"],
                                       run.get((r["schedule"], r["compact"], r["sort"]), len(run)),
                                       r["schedule"], r["compact"], r["sort"],
                                       backend.get(r["backend"], len(backend)), r["backend"]))


# ---- the table --------------------------------------------------------------------------------

def _ms(v):
    return f"{v:.3f}"


def _millions(v):
    return f"{v / 1e6:.1f}"


def _percent(v):
    return f"{100 * v:.1f}%"


def _ratio(v):
    return f"{v:.2f}"


# (column, header, format); the first five are names (left-aligned), the rest numbers. Device,
# executor and stage timing are the same on every row: the Markdown says them once.
TABLE = (("scene", "scene", str), ("schedule", "schedule", str), ("backend", "backend", str),
         ("compact", "compact", str), ("sort", "sort", str), ("width", "width", str),
         ("height", "height", str), ("depth", "depth", str), ("spp", "spp", str),
         ("ms_per_spp", "ms/spp", _ms), ("samples_per_s", "Msamples/s", _millions),
         ("path_segments_per_s", "Msegments/s", _millions),
         ("compact_ms_per_spp", "compact ms/spp", _ms), ("sort_ms_per_spp", "sort ms/spp", _ms),
         ("regenerate_ms_per_spp", "regenerate ms/spp", _ms),
         ("share_compact_sort", "compact+sort share", _percent),
         ("share_low_fill", "low-fill share", _percent), ("thrust_over_own", "thrust/own", _ratio),
         ("over_megakernel", "x megakernel", _ratio), ("frame_ms", "frame ms (median)", _ms),
         ("pool", "pool", str))
NAMES = 5
TABLE_HEADER = tuple(header for _, header, _ in TABLE)


def table_cells(r):
    return tuple("" if r[column] in (None, "") else fmt(r[column]) for column, _, fmt in TABLE)


def text_table(rows):
    cells = [TABLE_HEADER] + [table_cells(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(TABLE))]
    lines = []
    for n, c in enumerate(cells):
        lines.append("  ".join(v.ljust(w) if i < NAMES else v.rjust(w)
                               for i, (v, w) in enumerate(zip(c, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows):
    lines = ["| " + " | ".join(TABLE_HEADER) + " |",
             "| " + " | ".join("---" if i < NAMES else "---:" for i in range(len(TABLE))) + " |"]
    lines += ["| " + " | ".join(table_cells(r)) + " |" for r in rows]
    return "\n".join(lines)


def met(ok):
    return "met" if ok else "missed"


def target_lines(rows):
    """The targets as measured, each with its figures and met / missed; a target whose rows are
    missing (scene not rendered, schedule left out) is left out."""
    lines = []
    scenes = list(dict.fromkeys(r["scene"] for r in rows))
    own = [r for r in rows if r["backend"] == "own"]

    stream = find(own, scene="smallpt", schedule="stream", sort="off")
    if stream:
        sps = stream["samples_per_s"]
        lines.append(f"smallpt, stream (own): {sps:.3g} samples/s >= 1.0e9: {met(sps >= 1e9)}")
        if stream["over_megakernel"] is not None:
            x = stream["over_megakernel"]
            lines.append(f"smallpt, stream (own) >= 1.0x megakernel: {x:.2f}x "
                         f"({sps:.3g} / {sps / x:.3g} samples/s): {met(x >= 1.0)}")

    stream = find(own, scene="cornell", schedule="stream", sort="off")
    frame = find(own, scene="cornell", schedule="frame", compact="on", sort="off")
    if stream and frame and frame["samples_per_s"] > 0:
        x = stream["samples_per_s"] / frame["samples_per_s"]
        lines.append(f"cornell, stream (own) >= 2x frame (own, compact on, sort off): {x:.2f}x "
                     f"({stream['samples_per_s']:.3g} / {frame['samples_per_s']:.3g} samples/s): "
                     f"{met(x >= 2.0)}")
    if stream and stream["thrust_over_own"] is not None:
        x = stream["thrust_over_own"]
        lines.append(f"cornell, stream, sort off: own >= 1.3x Thrust: {x:.2f}x (thrust / own "
                     f"ms per spp): {met(x >= 1.3)}")

    filled = [r for r in own if r["schedule"] == "stream" and r["share_low_fill"] is not None]
    if filled:
        worst = max(filled, key=lambda r: r["share_low_fill"])
        lines.append(f"Every scene, stream (own): waves under 10% full <= 5% of the wave time: "
                     f"highest {100 * worst['share_low_fill']:.1f}% ({worst['scene']}, sort "
                     f"{worst['sort']}): {met(worst['share_low_fill'] <= 0.05)}")

    compacting = [r for r in own if r["schedule"] in ("stream", "frame") and r["compact"] == "on"
                  and r["share_compact_sort"] is not None]
    if compacting:
        worst = max(compacting, key=lambda r: r["share_compact_sort"])
        lines.append(f"Every scene, own, stream and frame (compact on): compaction (+ sort when "
                     f"on) <= 10% of the render time: highest "
                     f"{100 * worst['share_compact_sort']:.1f}% ({worst['scene']}, "
                     f"{worst['schedule']}, sort {worst['sort']}): "
                     f"{met(worst['share_compact_sort'] <= 0.10)}")

    paired = [r for r in own if r["thrust_over_own"] is not None]
    if paired:
        worst = min(paired, key=lambda r: r["thrust_over_own"])
        slower = [f"{r['scene']} ({r['schedule']}, compact {r['compact']}, sort {r['sort']}: "
                  f"{r['thrust_over_own']:.2f})" for r in paired if r["thrust_over_own"] < 1.0]
        lines.append(f"Own at least as fast as Thrust on every scene, schedule and setting: lowest "
                     f"thrust/own {worst['thrust_over_own']:.2f} ({worst['scene']}, "
                     f"{worst['schedule']}, compact {worst['compact']}, sort {worst['sort']}): "
                     f"{met(not slower)}" + (f"; own slower on {', '.join(slower)}" * bool(slower)))

    for scene in scenes:
        off = find(own, scene=scene, schedule="stream", sort="off")
        on = find(own, scene=scene, schedule="stream", sort="on")
        if off and on and on["ms_per_spp"] > 0:
            gain = off["ms_per_spp"] / on["ms_per_spp"]
            sort_ms = "" if on["sort_ms_per_spp"] is None else f", sort {on['sort_ms_per_spp']:.3f}"
            lines.append(f"Sorting by material on {scene} (stream, own): {off['ms_per_spp']:.3f} "
                         f"ms/spp off, {on['ms_per_spp']:.3f} on{sort_ms}: speedup {gain:.2f}, "
                         f"{'pays' if gain > 1.0 else 'does not pay'}")
    for scene in scenes:
        on = find(own, scene=scene, schedule="frame", compact="on", sort="off")
        off = find(own, scene=scene, schedule="frame", compact="off", sort="off")
        if off and on and on["ms_per_spp"] > 0:
            lines.append(f"Compaction on {scene} (frame, own, sort off): {off['ms_per_spp']:.3f} "
                         f"ms/spp off, {on['ms_per_spp']:.3f} on: speedup "
                         f"{off['ms_per_spp'] / on['ms_per_spp']:.2f}")
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
    sizes = {}
    for r in rows:
        size = f"{r['width']}x{r['height']}, depth {r['depth']}, {r['spp']} spp"
        sizes.setdefault(size, {})[r["scene"]] = None
    timings = ", ".join(sorted({str(r["stage_timing"]) for r in rows if r["stage_timing"]}))
    lines = [f"# Schedules and backends on {first['device']}", ""]
    lines.append(f"{info.get('date', '?')}; executor {first['executor']}; stage timing "
                 f"{timings or '?'}; " + "; ".join(f"{size}: {', '.join(scenes)}"
                                                   for size, scenes in sizes.items()) + ".")
    lines += ["", "ms/spp is the render loop's wall time (total_ms, first frames or waves "
              "included) / samples per pixel, the measure every ratio uses; stage ms/spp are the "
              "stage totals (estimated from the timed waves or frames) / spp; the shares are of "
              "total_ms; low-fill share: the wave time in waves under 10% full (stream); "
              "thrust/own: Thrust's ms/spp / own's; x megakernel: samples/s / the megakernel's "
              "(same scene; the megakernel is rendered with the own binary); frame ms: median "
              "frame time after the warm-up frames (frame and megakernel)."]
    if first["executor"] == "cpu":
        lines += ["", "On the CPU executor both binaries use the CPU reference primitives: these "
                  "numbers test the script, they do not compare the backends."]
    if info.get("command"):
        lines += ["", f"Command: `{info['command']}`"]
    for run in info.get("earlier", []):
        lines += ["", f"Kept from an earlier run ({run.get('date', '?')}): "
                      f"{', '.join(run.get('scenes', []))}; command: `{run.get('command', '?')}`"]
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
        if isinstance(doc, dict) and "total_ms" in doc and "bounces" in doc:
            found[p] = doc
    return found


# ---- rendering --------------------------------------------------------------------------------

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
    runs = planned_runs(args, scenes)
    binaries = {backend: Path(args.build) / name for backend, name in BACKENDS
                if any(run[4] == backend for run in runs)}
    for path in binaries.values():
        if not path.is_file():
            fail(f"{path}: no such binary (build it: cmake --build {args.build} --target "
                 f"raystream raystream-thrust)", 2)
    with tempfile.TemporaryDirectory(prefix="compare-images-") as images:
        for done, (scene, schedule, compact, sort, backend) in enumerate(runs, 1):
            label = labels[scene]
            size = scene_settings(args, label)
            out = staging / stats_file_name(label, schedule, backend, compact, sort)
            cmd = [str(binaries[backend]), scene, "--schedule", schedule,
                   "--spp", str(size["spp"]), "--depth", str(size["depth"]),
                   "--resolution", size["resolution"], "--stage-timing", args.stage_timing,
                   "--device", args.device, "--seed", "0", "--stats", str(out),
                   "--output", str(Path(images) / "image.hdr"), "--quiet"]
            # The wavefronts with the single shade kernel, whose sort by material is the
            # dimension compared here (scripts/bench_shading.py compares the shading modes).
            if schedule != "megakernel":
                cmd += ["--shade", "single"]
            value = {"compact": compact, "sort": sort}
            for name, flag in SWITCHES:
                if name not in FIXED[schedule]:
                    cmd += [flag, on_off(value[name])]
            command = " ".join(cmd)
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                fail(f"timed out after {args.timeout} s: {command}")
            if proc.returncode != 0 or not out.is_file():
                sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-4000:])
                fail(f"exit code {proc.returncode}: {command}")
            stats = json.loads(out.read_text())
            width, height = (int(v) for v in size["resolution"].split("x"))
            try:
                check_settings(stats, {"schedule": schedule, "backend": backend,
                                       "compact": compact, "sort": sort, "width": width,
                                       "height": height, "depth": size["depth"],
                                       "spp": size["spp"]})
            except ValueError as e:
                fail(f"the stats of {command} describe another render: {e}")
            row = summarize(stats, args.warmup, out.name)
            print(f"[{done}/{len(runs)}] {label} {schedule} {backend} compact {on_off(compact)} "
                  f"sort {on_off(sort)}: {row['ms_per_spp']:.3f} ms/spp, "
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
        fail(f"stats from {len(devices)} devices ({', '.join(sorted(devices))}); give one "
             "device's folder", 2)
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
        fail(f"{stats_dir}: no stats JSON files", 2)
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

def run_label(r):
    """A row's schedule and the switches that schedule leaves free, one per line."""
    return "\n".join([r["schedule"]] + [f"{name} {r[name]}" for name, _ in SWITCHES
                                        if name not in FIXED.get(r["schedule"], {})])


def make_plots(rows, stats_by_name, out_dir, gpu):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scenes = list(dict.fromkeys(r["scene"] for r in rows))
    colors = {"regenerate": "#8172b3", "intersect": "#4c72b0", "sort": "#dd8452",
              "shade": "#55a868", "compact": "#c44e52", "other": "#b0b0b0"}
    written = []
    device = rows[0]["device"]
    cols = min(3, len(scenes))
    nrows = (len(scenes) + cols - 1) // cols

    def panels(width, height):
        fig, axes = plt.subplots(nrows, cols, figsize=(width * cols, height * nrows),
                                 squeeze=False)
        for k in range(len(scenes), nrows * cols):
            axes[k // cols][k % cols].set_visible(False)
        return fig, [axes[k // cols][k % cols] for k in range(len(scenes))]

    def save(fig, name, title):
        fig.suptitle(f"{title}, {device}", fontsize=10)
        fig.tight_layout()
        written.append(out_dir / f"{gpu}-{name}.png")
        fig.savefig(written[-1], dpi=110)
        plt.close(fig)

    # 1. Samples/s per schedule and setting, own and Thrust side by side, one panel per scene.
    fig, axes = panels(5.2, 3.8)
    for ax, scene in zip(axes, scenes):
        mine = [r for r in rows if r["scene"] == scene]
        settings = list(dict.fromkeys(run_label(r) for r in mine))
        width = 0.8 / len(BOTH)
        for j, backend in enumerate(BOTH):
            bars = [(settings.index(run_label(r)), r["samples_per_s"] / 1e6) for r in mine
                    if r["backend"] == backend]
            if bars:
                xs, values = zip(*bars)
                drawn = ax.bar([x + (j - (len(BOTH) - 1) / 2) * width for x in xs], values, width,
                               label=backend)
                ax.bar_label(drawn, fmt="%.3g", fontsize=6)
        ax.set_xticks(range(len(settings)))
        ax.set_xticklabels(settings, fontsize=6)
        ax.set_ylabel("Msamples/s")
        ax.set_title(scene, fontsize=10)
    axes[0].legend(fontsize=8)
    save(fig, "samples", "Samples per second per schedule, setting and backend")

    # 2. Where the time goes: stage ms per spp, stacked, every render of a scene; "other" is the
    # render time no stage accounts for (all of it for the megakernel, which has no stages).
    fig, axes = panels(1.2 + 0.5 * max(sum(r["scene"] == s for r in rows) for s in scenes), 4.0)
    for ax, scene in zip(axes, scenes):
        mine = [r for r in rows if r["scene"] == scene]
        bottom = [0.0] * len(mine)
        stages = [{s: ms / r["spp"] for s, ms in
                   (stage_totals(stats_by_name[r["stats_file"]]) or {}).items()} for r in mine]
        for s in STAGES + ("other",):
            values = [max(0.0, r["ms_per_spp"] - sum(t.values())) if s == "other"
                      else t.get(s, 0.0) for r, t in zip(mine, stages)]
            ax.bar(range(len(mine)), values, bottom=bottom, color=colors[s], label=s)
            bottom = [a + v for a, v in zip(bottom, values)]
        ax.set_xticks(range(len(mine)))
        ax.set_xticklabels([f"{run_label(r)}\n{r['backend']}" for r in mine], fontsize=5)
        ax.set_ylabel("ms per spp")
        ax.set_title(scene, fontsize=10)
    axes[0].legend(fontsize=7)
    save(fig, "stages", "Time per stage per schedule and setting")

    # 3. Live paths entering each depth, as a share of the pixels (own, sort off; the frame
    # schedule with compaction, else stream): the open and the closed scene stand out.
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for scene in scenes:
        r = (find(rows, scene=scene, schedule="frame", backend="own", compact="on", sort="off")
             or find(rows, scene=scene, schedule="stream", backend="own", sort="off"))
        s = stats_by_name.get(r["stats_file"]) if r else None
        if not s or not s["bounces"]:
            continue
        xs = [b["bounce"] for b in s["bounces"]] + [len(s["bounces"])]
        ys = ([b["paths_in_per_frame"] for b in s["bounces"]]
              + [s["bounces"][-1]["paths_out_per_frame"]])
        pixels = s["width"] * s["height"]
        ax.plot(xs, [100.0 * y / pixels for y in ys], marker="o",
                linewidth=2.5 if scene in ("open", "closed_room") else 1.2, label=scene)
    ax.set_xlabel("depth (paths entering it; the last point: alive after the last bounce)")
    ax.set_ylabel("live paths, % of pixels per spp")
    ax.set_ylim(0, 105)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"Live paths per depth (own, sort off), {device}", fontsize=10)
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-live-paths.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    # 4. The frame schedule's time per stage per bounce (compact on; sort on where rendered),
    # one panel per scene and backend. Stream waves mix depths: they have no per-bounce times.
    framed = [scene for scene in scenes if find(rows, scene=scene, schedule="frame")]
    if framed:
        fig, axes = plt.subplots(len(framed), len(BOTH), figsize=(11, 2.8 * len(framed)),
                                 squeeze=False)
        for i, scene in enumerate(framed):
            for j, backend in enumerate(BOTH):
                ax = axes[i][j]
                r = (find(rows, scene=scene, schedule="frame", backend=backend, compact="on",
                          sort="on")
                     or find(rows, scene=scene, schedule="frame", backend=backend, compact="on"))
                s = stats_by_name.get(r["stats_file"]) if r else None
                if not s or not s["bounces"]:
                    ax.set_visible(False)
                    continue
                bounces = [b["bounce"] for b in s["bounces"]]
                bottom = [0.0] * len(bounces)
                for stage in (stage for stage in STAGES if stage in s["bounces"][0]["ms"]):
                    values = [b["ms_per_frame"][stage] for b in s["bounces"]]
                    ax.bar(bounces, values, bottom=bottom, color=colors[stage], label=stage)
                    bottom = [a + v for a, v in zip(bottom, values)]
                ax.set_title(f"{scene}: {backend} (frame, compact on, sort {r['sort']})",
                             fontsize=9)
                ax.set_xlabel("bounce")
                ax.set_ylabel("ms per frame")
                ax.set_xticks(bounces)
            shown = [a for a in axes[i] if a.get_visible()]
            top = max((a.get_ylim()[1] for a in shown), default=None)
            for a in shown:
                a.set_ylim(0, top)
        axes[0][0].legend(fontsize=8)
        save(fig, "frame-bounces", "Frame schedule: time per stage per bounce")
    return written


# ---- command line -----------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=str(ROOT / "build"),
                   help="folder with raystream and raystream-thrust (default: build/)")
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
                   help="per scene (file name without .json) resolution, depth and spp instead "
                        "of --resolution, --depth, --spp; an empty field keeps those "
                        "(e.g. smallpt=1024x768:64:256 cornell=::128)")
    p.add_argument("--stage-timing", choices=("sampled", "all", "off"), default="sampled",
                   help="the renderers' stage timing (default sampled)")
    p.add_argument("--device", choices=("gpu", "cpu"),
                   help="the renderers' executor (default gpu; --quick: cpu)")
    p.add_argument("--quick", action="store_true",
                   help=f"smoke test without a GPU: CPU executor, {QUICK['resolution']}, depth "
                        f"{QUICK['depth']}, {QUICK['spp']} spp (unless given)")
    p.add_argument("--warmup", type=int,
                   help="first frames left out of the median frame_ms (default: a tenth, 1 .. 20)")
    p.add_argument("--out", default=str(ROOT / "renders" / "compare"),
                   help="output folder (default: renders/compare)")
    p.add_argument("--plots-only", metavar="DIR",
                   help="render nothing: tables, CSV and plots from the stats JSONs in DIR")
    p.add_argument("--no-plots", action="store_true", help="tables and CSV only")
    p.add_argument("--timeout", type=int, default=600, help="seconds per render (default 600)")
    args = p.parse_args(argv)
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
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args.out)
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {args.out}: not a folder (name a folder for the tables and stats)", 2)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"--out {args.out}: cannot create the folder ({e.strerror})", 2)
    if args.plots_only:
        folder = Path(args.plots_only)
        if not folder.is_dir():
            fail(f"--plots-only {args.plots_only}: no such folder", 2)
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
        fail("no scenes", 2)
    for scene in scenes:
        if not Path(scene).is_file():
            fail(f"{scene}: no such scene file", 2)
    scenes = [str(Path(scene).resolve()) for scene in scenes]
    labels, args.scene_settings = scene_labels(scenes, args.scene_settings)
    command = " ".join(["python3", "scripts/compare_backends.py"] +
                       (sys.argv[1:] if argv is None else list(argv)))
    info = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "scenes": [labels[s] for s in scenes]}
    with tempfile.TemporaryDirectory(prefix=".running-", dir=out_dir) as staging:
        render_all(args, scenes, labels, Path(staging))
        report(Path(staging), out_dir, args, info, info["scenes"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

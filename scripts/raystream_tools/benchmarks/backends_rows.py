"""The backends benchmark's rows: what each stats JSON says, as one row of the table (ms per spp,
stage shares, the low-fill share, frame times), the ratios between rows, and the names of scenes
and stats files."""
import json
import re
import statistics
from pathlib import Path

from ..runs import ROOT

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


def on_off(flag):
    return "on" if flag else "off"


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

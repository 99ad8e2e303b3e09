"""The backends benchmark's report: the table (terminal and Markdown), the target lines, the CSV
and the Markdown file."""
from pathlib import Path

from .. import tables
from .backends_rows import find

CSV_COLUMNS = (
    "scene", "schedule", "backend", "compact", "sort", "width", "height", "depth", "spp",
    "ms_per_spp", "samples_per_s", "path_segments_per_s", "compact_ms_per_spp", "sort_ms_per_spp",
    "regenerate_ms_per_spp", "share_compact_sort", "share_low_fill", "thrust_over_own",
    "over_megakernel", "frame_ms", "pool", "stage_timing", "device", "executor", "stats_file")


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
    return tables.text_table(TABLE_HEADER, [table_cells(r) for r in rows], names=NAMES)


def markdown_table(rows):
    return tables.markdown_table(TABLE_HEADER, [table_cells(r) for r in rows], names=NAMES)


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


def write_csv(path, rows):
    """Floats to 6 decimals, as their shortest repr."""
    tables.write_csv(path, CSV_COLUMNS, [
        {k: repr(round(r[k], 6)) if isinstance(r[k], float) else r[k] for k in CSV_COLUMNS}
        for r in rows])


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

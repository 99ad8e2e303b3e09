"""schedules: the stream schedule against the frame schedule and the megakernel, on a GPU.

    bench.py schedules [--build build] [--spp 1024] [--out DIR]

smallpt at 1024x768 depth 64 and the Cornell box at 1920x1080 depth 8, --spp samples per pixel:
the stream schedule on both scenes and the frame schedule on the Cornell box with both binaries
(raystream, raystream-thrust); the frame schedule on smallpt and the megakernel on both scenes;
the stream schedule with sorting by material on both scenes; a sweep of the pool on smallpt (2^17
to 2^22 slots); and the cost of the stage timing (--stage-timing off / sampled / all, twice).
Prints one line per run: time, samples/s, path segments/s, the share of compaction and sorting
and of waves under 10% full. Each run's --stats JSON and report are kept in --out (default: a
temporary folder).
"""
from .. import runs
from . import common

SUMMARY = "stream against frame and megakernel, the pool sweep, the cost of stage timing"


def add_arguments(p):
    common.add_build(p, "raystream and raystream-thrust")
    p.add_argument("--spp", type=int, default=1024, help="samples per pixel (default 1024)")
    common.add_out(p, None, "the stats JSON and reports; without it a temporary folder")


def line(name, s):
    fill = {c["fill"]: c["ms"] for c in s.get("waves", {}).get("by_fill", [])}
    low = fill.get("< 10%", 0.0) / sum(fill.values()) if sum(fill.values()) else 0.0
    stage, total = s["stage_ms"], s["total_ms"]
    share = (stage["compact"] + stage["sort"]) / total if total else 0.0
    return (f"{name:34s} {s['schedule']:10s} pool {s['pool']:>8} {s['total_ms']:9.1f} ms "
            f"{s['samples_per_second'] / 1e9:7.3f} Gsamples/s "
            f"{s['path_segments_per_second'] / 1e9:7.3f} Gsegments/s compact+sort "
            f"{100 * share:5.1f}% low-fill waves {100 * low:5.1f}%")


def planned(spp):
    """(name, binary, scene, options) of every run, in order."""
    smallpt = ("smallpt", ["--resolution", "1024x768", "--depth", "64", "--spp", spp])
    cornell = ("cornell", ["--resolution", "1920x1080", "--depth", "8", "--spp", spp])
    out = []
    for binary in ("raystream", "raystream-thrust"):
        out += [(f"smallpt_stream_{binary}", binary, smallpt, ["--schedule", "stream"]),
                (f"cornell_stream_{binary}", binary, cornell, ["--schedule", "stream"]),
                (f"cornell_frame_{binary}", binary, cornell, ["--schedule", "frame"])]
    out += [("smallpt_frame", "raystream", smallpt, ["--schedule", "frame"]),
            ("smallpt_megakernel", "raystream", smallpt, ["--schedule", "megakernel"]),
            ("cornell_megakernel", "raystream", cornell, ["--schedule", "megakernel"])]
    for name, scene in (("smallpt", smallpt), ("cornell", cornell)):
        out.append((f"{name}_stream_sort", "raystream", scene,
                    ["--schedule", "stream", "--sort-by-material", "on"]))
    for pool in (131072, 262144, 524288, 1048576, 2097152, 4194304):
        out.append((f"smallpt_stream_pool{pool}", "raystream", smallpt,
                    ["--schedule", "stream", "--pool", pool]))
    for timing in ("off", "sampled", "all", "off", "sampled"):
        out.append((f"smallpt_timing_{timing}", "raystream", smallpt,
                    ["--schedule", "stream", "--stage-timing", timing]))
    return out


def run(args, argv):
    out = common.out_folder(args.out, "bench_schedules_")
    plan = planned(args.spp)
    binaries = {b: runs.binary(args.build, b) for b in ("raystream", "raystream-thrust")}
    for name, binary, (scene, size), options in plan:
        image = out / f"{name}.hdr"
        r = runs.render(binaries[binary], runs.scene_path(scene), size + options + ["--seed", "0"],
                        output=image, stats=out / f"{name}.json", log=out / f"{name}.txt")
        image.unlink()
        print(line(name, r.stats), flush=True)
    print(f"{len(plan)} runs, stats in {out}")
    return 0

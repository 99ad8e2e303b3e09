"""shading: shading per material queue against the single shade kernel, and against an older build.

    bench.py shading [--build build] [--baseline-build DIR | --baseline-commit REV]
                     [--scenes scenes/smallpt.json ...] [--spp 256] [--repeat 3] [--out DIR]

Renders each scene with the stream and frame schedules in both shading modes (--shade queues,
--shade single), the megakernel (its specialized variant), each with --integrator path and
--integrator bsdf, with the renderer's stats only (--stage-timing off), `--repeat` times, and
prints the median samples/s per run and the ratios queues / single and stream / megakernel.
With a baseline (an older build: a folder with its raystream, or a commit that is checked out
and built into a temporary folder), the same runs are made with it where it knows the options,
interleaved with the current build's, and the table gains the ratio current / baseline: the
"no regression" claim measured in one run on one GPU. The stats JSON are kept in --out (default:
a temporary folder).
"""
import os
import subprocess
from pathlib import Path

from .. import runs, tables
from ..runs import ROOT, ToolError
from . import common

SUMMARY = "shading per material queue against one shade kernel (and an older build)"
DEFAULT_SCENES = ["scenes/smallpt.json", "scenes/cornell.json", "scenes/material_spheres.json",
                  "scenes/cornell_box_original.json"]
# (label, raystream arguments); the baseline gets the same minus the options it lacks.
RUNS = [("stream queues", ["--schedule", "stream", "--shade", "queues"]),
        ("stream single", ["--schedule", "stream", "--shade", "single"]),
        ("frame queues", ["--schedule", "frame", "--shade", "queues"]),
        ("frame single", ["--schedule", "frame", "--shade", "single"]),
        ("megakernel", ["--schedule", "megakernel"])]
INTEGRATORS = ("path", "bsdf")


def add_arguments(p):
    common.add_build(p)
    p.add_argument("--baseline-build", help="a build folder of an older tree (its raystream)")
    p.add_argument("--baseline-commit", help="a commit to check out and build as the baseline")
    p.add_argument("--scenes", nargs="+", default=[str(ROOT / s) for s in DEFAULT_SCENES])
    p.add_argument("--spp", type=int, default=256)
    p.add_argument("--repeat", type=int, default=3)
    common.add_out(p, None, "the stats JSON; without it a temporary folder")


def build_commit(rev, folder):
    try:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", folder, rev],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "-S", folder, "-B", os.path.join(folder, "build"),
                        "-DCMAKE_BUILD_TYPE=Release"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", os.path.join(folder, "build"), "-j",
                        str(os.cpu_count() or 2), "--target", "raystream"], check=True,
                       stdout=subprocess.DEVNULL)
    except subprocess.CalledProcessError as e:
        raise ToolError(f"the baseline {rev}: {' '.join(e.cmd)} failed (exit {e.returncode})")
    return os.path.join(folder, "build")


def options_for(known, run_args, integrator):
    """The run's options for a build that knows the options `known`; None: a run it cannot make
    (queues without --shade, NEE without --integrator)."""
    a = list(run_args) + ["--integrator", integrator]
    if "--shade" not in known:
        if "queues" in a:
            return None  # the baseline has one shade kernel: its "single"
        a = [x for x in a if x not in ("--shade", "single")]
    if "--integrator" not in known:
        if integrator == "path":
            return None  # a tree before next-event estimation: BSDF only
        a = a[:-2]
    if "--stage-timing" in known:
        a += ["--stage-timing", "off"]
    return a


def measure(args, work, builds, known):
    """{(scene, integrator, run, build): [samples/s]} and {(scene, integrator, run): variant}."""
    rates, variants = {}, {}
    for rep in range(args.repeat):
        for scene in args.scenes:
            name = Path(scene).stem
            for integrator in INTEGRATORS:
                for label, run_args in RUNS:
                    for build, binary in builds:
                        a = options_for(known[build], run_args, integrator)
                        if a is None:
                            continue
                        stem = f"{name}_{integrator}_{label.replace(' ', '_')}_{build}_{rep}"
                        r = runs.render(binary, scene, ["--spp", args.spp] + a,
                                        stats=work / f"{stem}.json", output=work / f"{stem}.png",
                                        check=build == "current")
                        if r.stats is None:
                            continue  # an older tree that cannot render this scene: no ratio
                        rates.setdefault((name, integrator, label, build), []).append(
                            r.stats["samples_per_second"])
                        if r.stats.get("kernel_variant"):
                            variants[(name, integrator, label)] = r.stats["kernel_variant"]
    return rates, variants


def run(args, argv):
    work = common.out_folder(args.out, "bench_shading_")
    builds = [("current", runs.binary(args.build))]
    if args.baseline_commit:
        folder = str(work / "baseline-tree")
        builds.append(("baseline", runs.binary(build_commit(args.baseline_commit, folder))))
    elif args.baseline_build:
        builds.append(("baseline", runs.binary(args.baseline_build)))
    known = {name: runs.help_options(binary, ("--shade", "--integrator", "--stage-timing"))
             for name, binary in builds}
    rates, variants = measure(args, work, builds, known)

    def median(key):
        return tables.median(rates.get(key, []))

    header = ["scene", "integr.", "run", "Msamples/s"]
    if len(builds) > 1:
        header += ["baseline", "cur/base"]
    header += ["queues/single", "/megakernel", "variant"]
    rows = []
    for scene in args.scenes:
        name = Path(scene).stem
        for integrator in INTEGRATORS:
            mega = median((name, integrator, "megakernel", "current"))
            for label, _ in RUNS:
                cur = median((name, integrator, label, "current"))
                if cur is None:
                    continue
                row = [name, integrator, label, f"{cur / 1e6:.1f}"]
                if len(builds) > 1:
                    base_label = (label if "--shade" in known["baseline"]
                                  else label.replace("queues", "single"))
                    base = median((name, integrator, base_label, "baseline"))
                    row += [f"{base / 1e6:.1f}", f"{cur / base:.3f}"] if base else ["-", "-"]
                single = (median((name, integrator, label.replace("queues", "single"), "current"))
                          if "queues" in label else None)
                row.append(f"{cur / single:.3f}" if single else "")
                row.append(f"{cur / mega:.3f}" if mega and label != "megakernel" else "")
                row.append(variants.get((name, integrator, label), ""))
                rows.append(row)
    print(tables.text_table(header, rows, names=3, left={len(header) - 1}))
    print(f"(median of {args.repeat}; stats in {work})")
    return 0

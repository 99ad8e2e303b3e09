"""wavefront: samples per second of the wavefront against its baselines, from the --stats JSON.

    bench.py wavefront --build build-gpu [--baseline LABEL=DIR ...] [--out DIR] [--repeat N]
                       [--quick] [--scenes NAME ...]

Renders the round's target cases with build/raystream (own primitives) and
build/raystream-thrust, and with the raystream binary of each baseline build (another tree built
beside this one: LABEL names it in the table), one after another on the same GPU:

  smallpt  1024x768, depth 64, 1024 spp   stream NEE and BSDF (fused and separate compaction,
                                          both binaries), megakernel NEE and BSDF
  cornell  1920x1080, depth 8, 256 spp    the same
  material_spheres 1280x540, 256 spp      stream (automatic shading)
  every shipped scene, --integrator bsdf  stream, at 1280x720, 64 spp

Both binaries fuse by default (own BlockReserve, CUB's BlockScan): a table compares them on the
same schedule and compaction. Each figure is the median over --repeat renders of samples / total_ms (the render loop's wall
time as the renderer reports it). Writes DIR/wavefront.csv with the columns scene, schedule,
integrator, backend, samples_per_s, device, then compaction, tree, resolution and spp, and prints
a table with each case's ratio to the first baseline.
"""
import tempfile
from pathlib import Path

from .. import runs, tables
from ..runs import ROOT, ToolError
from . import common

SUMMARY = "samples/s of the target cases, this tree against baseline builds"
COLUMNS = ["scene", "schedule", "integrator", "backend", "samples_per_s", "device",
           "compaction", "tree", "resolution", "spp"]


def add_arguments(p):
    common.add_build(p, "raystream and raystream-thrust")
    p.add_argument("--baseline", action="append", default=[], metavar="LABEL=DIR",
                   help="a build folder of another tree (its raystream binary)")
    common.add_out(p, None, "the folder of wavefront.csv; without it no CSV")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--quick", action="store_true", help="1/64 of the samples (smoke test)")
    p.add_argument("--scenes", nargs="*", help="only these scenes (names without .json)")
    p.add_argument("--timeout", type=int, default=300)


def cases(quick):
    def spp(n):
        return max(1, n // 64) if quick else n

    out = []
    for scene, res, depth, n in (("smallpt", "1024x768", 64, 1024),
                                 ("cornell", "1920x1080", 8, 256)):
        for integrator in ("path", "bsdf"):
            out.append((scene, res, depth, spp(n), "stream", integrator, []))
            out.append((scene, res, depth, spp(n), "stream", integrator, ["--compact", "separate"]))
            out.append((scene, res, depth, spp(n), "megakernel", integrator, []))
    out.append(("material_spheres", "1280x540", 8, spp(256), "stream", "path", []))
    for scene in sorted(p.stem for p in (ROOT / "scenes").glob("*.json")):
        out.append((scene, "1280x720", 8, spp(64), "stream", "bsdf", []))
    return out


def render(binary, scene, res, depth, spp, schedule, integrator, extra, timeout):
    """(stats, samples/s), or (None, the error's last line)."""
    with tempfile.TemporaryDirectory() as tmp:
        options = ["--device", "gpu", "--resolution", res, "--depth", depth, "--spp", spp,
                   "--schedule", schedule] + extra
        if integrator:
            options += ["--integrator", integrator]
        try:
            r = runs.render(binary, runs.scene_path(scene), options,
                            output=Path(tmp) / "image.hdr", stats=Path(tmp) / "stats.json",
                            timeout=timeout, check=False)
        except ToolError as e:  # timed out
            return None, str(e)
        if r.stats is None:
            return None, (r.stderr.strip().splitlines() or ["?"])[-1]
    stats = r.stats
    seconds = stats["total_ms"] / 1000.0
    samples = stats.get("samples") or stats["spp"] * stats["width"] * stats["height"]
    return stats, samples / seconds if seconds > 0 else 0.0


def run(args, argv):
    binaries = [("this", "own", runs.binary(args.build, "raystream")),
                ("this", "thrust", runs.binary(args.build, "raystream-thrust"))]
    for spec in args.baseline:
        if "=" not in spec:
            raise ToolError(f"--baseline {spec}: expected LABEL=DIR", code=2)
        label, folder = spec.split("=", 1)
        binaries.append((label, "own", runs.binary(folder, "raystream")))
    rows = []
    for scene, res, depth, spp, schedule, integrator, extra in cases(args.quick):
        if args.scenes and scene not in args.scenes:
            continue
        for tree, backend, binary in binaries:
            if schedule == "megakernel" and backend == "thrust":
                continue  # no primitives in the megakernel
            if extra and tree != "this":
                continue  # the compaction switch is this tree's (both backends)
            rates, stats, error = [], None, ""
            for _ in range(args.repeat):
                stats, rate = render(binary, scene, res, depth, spp, schedule, integrator, extra,
                                     args.timeout)
                if stats is None and integrator == "bsdf" and tree != "this":
                    # A tree from before light transport knows no --integrator: BSDF sampling
                    # is all it does.
                    stats, rate = render(binary, scene, res, depth, spp, schedule, None, extra,
                                         args.timeout)
                if stats is None:
                    error = rate
                    break
                rates.append(rate)
            compaction = (stats or {}).get("compaction", "")
            rows.append({"scene": scene, "resolution": res, "spp": spp, "schedule": schedule,
                         "integrator": integrator, "backend": backend,
                         "samples_per_s": f"{tables.median(rates):.4g}" if rates else "",
                         "device": (stats or {}).get("device", ""),
                         "compaction": compaction, "tree": tree, "error": error})
            print(f"{scene:<22} {schedule:<10} {integrator:<4} {backend:<6} {tree:<10} "
                  f"{compaction:<8} {rows[-1]['samples_per_s'] or error}", flush=True)
    if args.out:
        tables.write_csv(common.out_folder(args.out) / "wavefront.csv", COLUMNS, rows)
    print_backends(rows)
    if args.baseline:
        print_ratios(rows, args.baseline[0].split("=", 1)[0])
    return 0


def print_backends(rows):
    """This tree's two binaries on the same schedule and compaction: Thrust/CUB over own."""
    own = {(r["scene"], r["resolution"], r["schedule"], r["integrator"], r["compaction"]): r
           for r in rows if r["tree"] == "this" and r["backend"] == "own" and r["samples_per_s"]}
    lines = []
    for r in rows:
        key = (r["scene"], r["resolution"], r["schedule"], r["integrator"], r["compaction"])
        if r["tree"] == "this" and r["backend"] == "thrust" and r["samples_per_s"] and key in own:
            a, b = float(own[key]["samples_per_s"]), float(r["samples_per_s"])
            lines.append(f"{r['scene']:<22} {r['resolution']:>9} {r['schedule']:<10} "
                         f"{r['integrator']:<4} {r['compaction']:<8} {a:10.4g} {b:10.4g} "
                         f"{b / a:6.3f}")
    if lines:
        print("\nbackends on the same schedule (samples/s): own, thrust/CUB, thrust/own")
        print("\n".join(lines))


def print_ratios(rows, base):
    """Each case's samples/s over the first baseline's, case by case."""
    index = {(r["scene"], r["resolution"], r["schedule"], r["integrator"], r["backend"],
              r["tree"]): r for r in rows if r["samples_per_s"] and r["compaction"] != "separate"}
    print(f"\nratio to {base} (own):")
    for r in rows:
        b = index.get((r["scene"], r["resolution"], r["schedule"], r["integrator"], "own", base))
        if r["tree"] == "this" and r["backend"] == "own" and b and r["samples_per_s"]:
            ratio = float(r["samples_per_s"]) / float(b["samples_per_s"])
            print(f"{r['scene']:<22} {r['resolution']:>9} {r['schedule']:<10} "
                  f"{r['integrator']:<4} {r['compaction']:<8} {ratio:.3f}")

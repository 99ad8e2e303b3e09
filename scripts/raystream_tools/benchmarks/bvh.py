"""bvh: the BVH builders side by side on a GPU, and the start-up of a million triangles.

    bench.py bvh [--build build] [--out renders/bench_bvh] [--spp 32]

Per mesh scene (the Cornell Box OBJ, the bunny, the dragon, the 1.05M-triangle scene): the SAH
build on the host and the LBVH on the GPU with each primitives backend (raystream: own radix sort;
raystream-thrust: thrust::stable_sort_by_key): build time (as the report gives it, and with every
kernel loaded before the build: CUDA_MODULE_LOADING=EAGER), nodes, depth, SAH cost, tree memory,
the build's peak GPU memory against its limit (the tree plus twice the primitives' data), and path
segments/s rendering through each tree (1920x1080, depth 8, --spp samples per pixel). Then
`raystream scenes/bunnies_1m.json --spp 1` as a user runs it, three times, wall clock with the
report's start-up phases. Prints a short table of the targets last. Every run's image, report
and --stats JSON go to --out (and the start-up runs' wall clock, start and end, to
startup_K.wall).
"""

from .. import runs
from . import common

SUMMARY = "the SAH and GPU BVH builders, and start-up on a million triangles"
SCENES = ["cornell_box_original", "bunny", "dragon", "bunnies_1m"]
KINDS = (("sah", "sah (host)"), ("gpu_own", "lbvh own"), ("gpu_thrust", "lbvh thrust"))


def add_arguments(p):
    common.add_build(p, "raystream and raystream-thrust")
    common.add_out(p, "renders/bench_bvh", "the images, reports and stats JSON")
    p.add_argument("--spp", type=int, default=32,
                   help="samples per pixel of the trace-speed runs (default 32)")


def mib(b):
    return b / 1048576.0


def size(b):
    return f"{b / 1024.0:.1f} KiB" if b < 1048576 else f"{mib(b):.1f} MiB"


def measure(args, out):
    """{run name: stats} of the builders' runs, and [(wall s, stats)] of the start-up runs."""
    binaries = {b: runs.binary(args.build, b) for b in ("raystream", "raystream-thrust")}
    stats = {}

    def render(name, binary, scene, options, env=None):
        stats[name] = runs.render(binaries[binary], runs.scene_path(scene),
                                  ["--device", "gpu", "--depth", 8] + options,
                                  output=out / f"{name}.png", stats=out / f"{name}.json",
                                  log=out / f"{name}.txt", env=env).stats

    trace = ["--spp", args.spp, "--resolution", "1920x1080"]
    eager = {"CUDA_MODULE_LOADING": "EAGER"}  # the build alone, every kernel loaded beforehand
    for scene in SCENES:
        render(f"{scene}_sah", "raystream", scene, ["--bvh", "sah"] + trace)
        render(f"{scene}_gpu_own", "raystream", scene, ["--bvh", "gpu"] + trace)
        render(f"{scene}_gpu_thrust", "raystream-thrust", scene, ["--bvh", "gpu"] + trace)
        for binary, kind in (("raystream", "own"), ("raystream-thrust", "thrust")):
            render(f"{scene}_gpu_{kind}_eager", binary, scene,
                   ["--bvh", "gpu", "--spp", 1, "--resolution", "64x64"], env=eager)
    # The start-up target: the command as a user types it (the scene's resolution, its PNG),
    # timed from outside; the first run also reads the files from disk.
    startup = []
    for k in (1, 2, 3):
        r = runs.render(binaries["raystream"], runs.scene_path("bunnies_1m"), ["--spp", 1],
                        output=out / f"startup_{k}.png", stats=out / f"startup_{k}.json",
                        log=out / f"startup_{k}.txt")
        (out / f"startup_{k}.wall").write_text(f"{r.started:.6f} {r.started + r.wall_s:.6f}\n")
        startup.append((r.wall_s, r.stats))
    return stats, startup


def report(stats, startup, spp):
    print(f"BVH builders ({stats[SCENES[0] + '_sah']['device']}; trace: 1920x1080, {spp} spp, "
          "depth 8)")
    print(f"{'scene':<22} {'builder':<12} {'build ms':>9} {'eager ms':>9} {'nodes':>9} "
          f"{'depth':>5} {'SAH':>7} {'tree MiB':>9} {'peak MiB':>9} {'limit MiB':>9} "
          f"{'Mseg/s':>8} {'vs sah':>6}")
    ratio = {}
    for scene in SCENES:
        sah = stats[scene + "_sah"]
        for kind, label in KINDS:
            j = stats[f"{scene}_{kind}"]
            b = j["bvh"]
            eager = ("-" if kind == "sah" else
                     f"{stats[f'{scene}_{kind}_eager']['bvh']['build_ms']:.2f}")
            limit = mib(b["tree_bytes"] + 2 * b["primitive_bytes"])
            peak = f"{mib(b['build_peak_bytes']):.1f}" if b["build_peak_bytes"] else "-"
            ratio[scene, kind] = j["path_segments_per_second"] / sah["path_segments_per_second"]
            print(f"{scene:<22} {label:<12} {b['build_ms']:9.2f} {eager:>9} {b['nodes']:>9} "
                  f"{b['depth']:>5} {b['sah_cost']:7.2f} {mib(b['tree_bytes']):9.1f} {peak:>9} "
                  f"{limit:9.1f} {j['path_segments_per_second'] / 1e6:8.0f} "
                  f"{ratio[scene, kind]:6.2f}")

    print("\nraystream scenes/bunnies_1m.json --spp 1 (wall clock from outside; phases from the "
          "report)")
    for k, (wall, j) in enumerate(startup, 1):
        s = j["startup_ms"]
        print(f"run {k}: {wall:.3f} s wall; scene {s['scene']:.1f} ms (OBJ {s['obj']:.1f}, "
              f"meshes {s['meshes']:.1f}), device {s['device']:.1f}, prepare {s['prepare']:.1f}, "
              f"BVH {s['bvh']:.1f} ({j['bvh']['builder']}), upload {s['upload']:.1f}, "
              f"allocate {s['allocate']:.1f}, render {j['total_ms'] - s['allocate']:.1f}, "
              f"encode {j['encode_ms']:.1f}, to the image encoded {j['elapsed_ms']:.1f} ms")

    print("\nsummary (targets of issue 32)")
    build = {kind: stats[f"bunnies_1m_{kind}"]["bvh"]["build_ms"] for kind, _ in KINDS}
    walls = [wall for wall, _ in startup]
    print("| target | measured |")
    print("| --- | --- |")
    print(f"| bunnies_1m GPU build <= 15 ms, >= 50x SAH | own {build['gpu_own']:.2f} ms "
          f"({build['sah'] / build['gpu_own']:.0f}x), thrust {build['gpu_thrust']:.2f} ms "
          f"({build['sah'] / build['gpu_thrust']:.0f}x); SAH {build['sah']:.1f} ms |")
    for scene in SCENES:
        print(f"| trace speed {scene} >= 0.9x SAH | {ratio[scene, 'gpu_own']:.2f}x (SAH cost "
              f"{stats[scene + '_gpu_own']['bvh']['sah_cost']:.2f} vs "
              f"{stats[scene + '_sah']['bvh']['sah_cost']:.2f}) |")
    print(f"| bunnies_1m --spp 1 <= 0.8 s wall | {min(walls):.3f} s best of 3 "
          f"({', '.join(f'{w:.3f}' for w in walls)}) |")
    for scene in SCENES:
        b = stats[scene + "_gpu_own"]["bvh"]
        limit = b["tree_bytes"] + 2 * b["primitive_bytes"]
        print(f"| {scene} build peak <= tree + 2x primitives | {size(b['build_peak_bytes'])} "
              f"of {size(limit)} |")


def run(args, argv):
    out = common.out_folder(args.out)
    stats, startup = measure(args, out)
    report(stats, startup, args.spp)
    return 0

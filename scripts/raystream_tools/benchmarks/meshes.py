"""meshes: path segments/s on the mesh scenes, and the BVH's speedup over brute force, on a GPU.

    bench.py meshes [--build build] [--out renders/bench_meshes]

Renders scenes/dragon.json (64 spp) and scenes/bunnies_1m.json (32 spp) at 1920x1080, depth 8,
and prints path segments/s, the median frame time and the BVH's numbers; then the BVH's speedup
over the brute-force loop (--bvh off) on the Cornell Box OBJ (36 triangles, 1920x1080) and on the
bunny (21k triangles, 640x360; one frame brute force). Every run's image, report and --stats JSON
go to --out.
"""

from .. import runs
from . import common

SUMMARY = "path segments/s on the mesh scenes and the BVH's speedup over brute force"

FULL_HD = ["--resolution", "1920x1080"]
BUNNY = ["--resolution", "640x360"]
# (name, scene, spp, options)
RUNS = [("dragon", "dragon", 64, FULL_HD),
        ("bunnies_1m", "bunnies_1m", 32, FULL_HD),
        ("cornell_obj_bvh", "cornell_box_original", 64, FULL_HD),
        ("cornell_obj_brute", "cornell_box_original", 64, FULL_HD + ["--bvh", "off"]),
        ("bunny_bvh", "bunny", 16, BUNNY),
        ("bunny_brute", "bunny", 1, BUNNY + ["--bvh", "off"])]


def add_arguments(p):
    common.add_build(p)
    common.add_out(p, "renders/bench_meshes", "the images, reports and stats JSON")


def row(name, j):
    b = j["bvh"]
    bvh = (f'{b["nodes"]} nodes, depth {b["depth"]}, SAH {b["sah_cost"]:.2f}, '
           f'build {b["build_ms"]:.1f} ms') if b["built"] else "off (brute force)"
    return (f'{name:<22} {j["width"]}x{j["height"]} {j["frames"]:>4} spp  '
            f'{j["path_segments_per_second"] / 1e6:10.1f} M segments/s  '
            f'frame {j["frame_ms"]["median"]:8.3f} ms  {b["triangles"]:>8} triangles  BVH {bvh}')


def run(args, argv):
    out = common.out_folder(args.out)
    raystream = runs.binary(args.build)
    stats = {}
    for name, scene, spp, options in RUNS:
        stats[name] = runs.render(raystream, runs.scene_path(scene),
                                  ["--device", "gpu", "--spp", spp, "--depth", 8] + options,
                                  output=out / f"{name}.png", stats=out / f"{name}.json",
                                  log=out / f"{name}.txt").stats
    print(f"mesh benchmark ({stats['dragon'].get('device', '')})")
    for name, _, _, _ in RUNS:
        print(row(name, stats[name]))
    for small in ("cornell_obj", "bunny"):
        rate = {k: stats[f"{small}_{k}"]["path_segments_per_second"] for k in ("bvh", "brute")}
        print(f"BVH speedup over brute force, {small}: {rate['bvh'] / rate['brute']:.1f}x")
    return 0

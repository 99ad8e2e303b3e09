"""nee: next-event estimation with MIS against BSDF sampling, and sorting by material.

    bench.py nee [--build build] [--out renders/nee] [--reference-spp 65536] [--region 100]
                 [-- RAYSTREAM_OPTIONS...]

On cornell_box_original (800 x 800, depth 8): a converged reference of each estimator
(--integrator path and bsdf, independent seeds), the two at 64 spp and BSDF sampling at the spp
that takes as long as NEE's 64 (equal time), the cost per sample of each (64 and 1024 spp without
stage timing: fixed ms + ms per spp), then the error of each image against the path reference
(mean, MSE over all pixels and without the emitters seen directly, the worst region's median);
last, sorting by material (off, on, multisplit) on material_spheres in both wavefront schedules.
One line per render: time, samples/s, segments/s, shadow rays. Images, reports and --stats JSON
go to --out. Options after `--` go to every render, e.g. `-- --resolution 100x100 --device cpu`
for a quick check of the benchmark itself.
"""

from .. import images, runs
from ..compare import against_reference
from ..runs import ToolError
from . import common

SUMMARY = "NEE with MIS against BSDF sampling: references, equal time, cost per sample"
TAKES_RAYSTREAM_OPTIONS = True
SCENE = "cornell_box_original"


def add_arguments(p):
    common.add_build(p)
    common.add_out(p, "renders/nee", "the images, reports and stats JSON")
    p.add_argument("--reference-spp", type=int, default=65536,
                   help="samples per pixel of the references (default 65536)")
    p.add_argument("--region", type=int, default=100,
                   help="the side of the regions compared with the reference (default 100)")


class Renders:
    """The benchmark's renders, each printed as one line; stats by name."""

    def __init__(self, args, out):
        self.raystream, self.out, self.extra = runs.binary(args.build), out, args.raystream_options
        self.stats = {}

    def __call__(self, name, scene, options, image):
        s = runs.render(self.raystream, runs.scene_path(scene), list(options) + self.extra,
                        output=self.out / image, stats=self.out / f"{name}.json",
                        log=self.out / f"{name}.txt").stats
        self.stats[name] = s
        print(f"{name:<26} {s['total_ms']:10.1f} ms {s['samples_per_second']:12.4g} samples/s "
              f"{s['path_segments_per_second']:12.4g} segments/s {s['shadow_rays']:>12} shadow "
              "rays", flush=True)
        return s


def run(args, argv):
    out = common.out_folder(args.out)
    render = Renders(args, out)
    ref = args.reference_spp
    print(f"== references ({ref} spp, independent seeds)")
    render("ref_path", SCENE, ["--spp", ref, "--integrator", "path", "--seed", 101], "ref_path.hdr")
    render("ref_bsdf", SCENE, ["--spp", ref, "--integrator", "bsdf", "--seed", 202], "ref_bsdf.hdr")
    print("== equal time: path at 64 spp, bsdf at the spp that takes as long")
    path = render("path_64", SCENE, ["--spp", 64, "--integrator", "path", "--seed", 1],
                  "path_64.hdr")
    bsdf = render("bsdf_64", SCENE, ["--spp", 64, "--integrator", "bsdf", "--seed", 1],
                  "bsdf_64.hdr")
    n = max(1, round(64 * path["total_ms"] / bsdf["total_ms"]))
    render(f"bsdf_{n}", SCENE, ["--spp", n, "--integrator", "bsdf", "--seed", 1], "bsdf_eq.hdr")
    print("== cost per sample: 64 and 1024 spp without stage timing; fixed ms + ms per spp")
    for i in ("path", "bsdf"):
        a = render(f"{i}_64_untimed", SCENE, ["--spp", 64, "--integrator", i, "--stage-timing",
                                              "off"], f"{i}_64_untimed.png")["total_ms"]
        b = render(f"{i}_1024_untimed", SCENE, ["--spp", 1024, "--integrator", i, "--stage-timing",
                                                "off"], f"{i}_1024.png")["total_ms"]
        per = (b - a) / 960
        print(f"{i}: {per:.4f} ms per spp, {a - 64 * per:.1f} ms fixed")
    print("== against the path reference: mean, MSE (all pixels; without the emitters seen "
          "directly), worst region median")
    names = ["ref_bsdf.hdr", "path_64.hdr", "bsdf_eq.hdr", "bsdf_64.hdr"]
    try:
        reference = images.read_hdr(out / "ref_path.hdr")
        others = [(str(out / name), images.read_hdr(out / name)) for name in names]
    except images.ImageError as e:
        raise ToolError(str(e))
    for line in against_reference(reference, others, args.region, bright=1.0):
        print(line)
    print("== sorting by material: material_spheres 1280 x 540, 256 spp")
    for schedule in ("stream", "frame"):
        for sort in ("off", "on", "multisplit"):
            render(f"spheres_{schedule}_sort_{sort}", "material_spheres",
                   ["--spp", 256, "--schedule", schedule, "--sort-by-material", sort],
                   f"spheres_{schedule}_{sort}.png")
    return 0

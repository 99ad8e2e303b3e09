#!/usr/bin/env python3
"""An independent reference: a raystream scene rendered by Mitsuba 3, and the comparison.

    mitsuba_reference.py render SCENE --out REF.exr [--build build] [--spp N] [--pass-spp P]
                                [--resolution WxH] [--seed S] [--variant V]
                                [--integrator path|bsdf]
    mitsuba_reference.py compare REF.exr IMAGE.pfm|IMAGE.exr|IMAGE.hdr [--region 100]

`render` has raystream export the scene as it loads it (`raystream SCENE --export-scene DIR`;
docs/scene-format.md, "Exporting the loaded scene": a JSON scene, its OBJ and MTL meshes, or a
glTF asset) and builds the Mitsuba scene from DIR/scene.json; Mitsuba reads the meshes' PLY
files itself, so no reader of ours is written twice. It is set up to match raystream: the camera
(fovy_degrees is half the vertical angle; near_distance is Mitsuba's planar near clip), a box
pixel filter (our uniform jitter in the pixel), depth as Mitsuba's max_depth (both count the
segments of a path: 1 shows the emitters alone), and the materials: diffuse (its texture, linear,
bilinear and repeated as ours, times its colour), smooth specular (a mirror of reflectance
color), smooth refractive (tint color on both lobes), emitting (an area light of radiance color x
emittance that reflects nothing), and the emission of other materials (an MTL's Ke) as an area
light over their surface. Every surface reflects from both sides, as ours do; a two-sided emitter
of a mesh is a second copy with its normals flipped, a hair's breadth behind (Mitsuba's area
lights emit to the front). Spheres and cubes take their transforms, rotations included; the
environment is a constant or the map (its texels as ours, turned to Mitsuba's mapping). What is
not translated (Plastic, rough specular or refractive, a thin lens, a texture on another
material than diffuse, a two-sided emitting mesh that is not flat) stops the script with a
message naming it.

`compare` prints, per channel, the whole image's mean against the reference's, and per region
of REGION x REGION pixels the ratio of the means and its z score (the mean of the per-pixel
differences over its standard error, both images' noise included). Our .hdr is decoded with
Radiance's rounding (+0.5 of a mantissa step), which undoes the encoder's truncation.

Needs `pip install mitsuba numpy openexr` (openexr to read EXR images in `compare`); the llvm
variants need libLLVM 16 or newer (Debian: libllvm19, found through
DRJIT_LIBLLVM_PATH=/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1); `--variant scalar_rgb` needs none.
"""
import argparse
import json
import math
import os
import sys
import tempfile

from raystream_tools import images, runs
from raystream_tools.runs import ROOT, ToolError

FORMAT = ("raystream-scene-export", 1)
# A two-sided emitting mesh's back copy sits this far behind it (scene units).
BACK_OFFSET = 1e-4
# The environment map's texels are repeated into blocks of this side (see environment_emitter).
ENVMAP_BLOCK = 4


def rgb(value):
    return {"type": "rgb", "value": [float(v) for v in value]}


def two_sided(bsdf):
    return {"type": "twosided", "bsdf": bsdf}


def not_translated(where, what):
    raise ToolError(f"{where}: {what} is not translated", code=2)


def diffuse_reflectance(m, folder, index):
    """The diffuse albedo: the colour, or the texture times it as a bitmap of its own (written for
    material `index`; ours puts v = 0 at the bottom of the image, Mitsuba at the top: the rows are
    turned over)."""
    if m["texture"] is None:
        return rgb(m["color"])
    texture = images.read_pfm(os.path.join(folder, m["texture"])).to_numpy()
    scaled = texture[::-1] * [float(c) for c in m["color"]]
    path = os.path.join(folder, f"mitsuba_material_{index}.pfm")
    images.write_pfm(path, images.Image.from_numpy(scaled))
    return {"type": "bitmap", "filename": path, "raw": True, "filter_type": "bilinear",
            "wrap_mode": "repeat"}


def material_bsdf(m, index, folder, where):
    """The Mitsuba BSDF of exported material `index`."""
    kind = m["type"]
    if m["texture"] is not None and kind != "diffuse":
        not_translated(where, f"a texture on a {kind} material")
    if kind in ("specular", "refractive") and m["roughness"] > 0:
        not_translated(where, f"a rough {kind} material (roughness {m['roughness']})")
    if kind == "diffuse":
        return two_sided({"type": "diffuse",
                          "reflectance": diffuse_reflectance(m, folder, index)})
    if kind == "specular":
        return two_sided({"type": "conductor", "material": "none",
                          "specular_reflectance": rgb(m["color"])})
    if kind == "refractive":
        tint = rgb(m["color"])
        return {"type": "dielectric", "int_ior": float(m["ior"]), "ext_ior": 1.0,
                "specular_reflectance": tint, "specular_transmittance": tint}
    if kind == "emitting":
        return {"type": "diffuse", "reflectance": rgb([0, 0, 0])}
    not_translated(where, f"material type {kind}")


def material_radiance(m):
    """The radiance the material emits (an emitting material's color x emittance, another's
    emission), or None."""
    if m["type"] == "emitting":
        radiance = [float(c) * float(m["emittance"]) for c in m["color"]]
    else:
        radiance = [float(c) for c in m["emission"]]
    return radiance if max(radiance) > 0 else None


def matrix(values):
    import mitsuba as mi
    return mi.ScalarTransform4f([[float(values[4 * r + c]) for c in range(4)] for r in range(4)])


def object_shape(obj, where):
    """A sphere (radius 0.5) or a cube ([-0.5, 0.5]^3) with its transform; Mitsuba's unit shapes
    are twice as large."""
    import mitsuba as mi
    m = obj["to_world"]
    if obj["shape"] == "sphere":
        columns = [math.sqrt(sum(float(m[4 * r + c]) ** 2 for r in range(3))) for c in range(3)]
        if max(columns) - min(columns) > 1e-5 * max(columns):
            not_translated(where, "a sphere of unequal scales")
        return {"type": "sphere", "to_world": matrix(m) @ mi.ScalarTransform4f().scale(0.5)}
    return {"type": "cube", "to_world": matrix(m) @ mi.ScalarTransform4f().scale(0.5)}


def mesh_normal(filename, where):
    """The unit normal of a flat mesh (its triangles' winding), for the offset of its back copy."""
    import mitsuba as mi
    import numpy as np
    shape = mi.load_dict({"type": "ply", "filename": filename})
    p = np.array(mi.traverse(shape)["vertex_positions"], dtype=np.float64).reshape(-1, 3, 3)
    n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    n = n[np.linalg.norm(n, axis=1) > 0]
    n /= np.linalg.norm(n, axis=1)[:, None]
    mean = n.mean(axis=0) if len(n) else np.zeros(3)
    length = np.linalg.norm(mean)
    if length < 1e-6 or np.min(n @ mean) / length < 0.9999:
        not_translated(where, "a two-sided emitting mesh that is not flat")
    return mean / length


def mesh_shapes(mesh, materials, bsdfs, folder, where):
    import mitsuba as mi
    m = materials[mesh["material"]]
    filename = os.path.join(folder, mesh["file"])
    shape = {"type": "ply", "filename": filename, "bsdf": bsdfs[mesh["material"]]}
    radiance = material_radiance(m)
    if radiance is None:
        return {"": shape}
    shape["emitter"] = {"type": "area", "radiance": rgb(radiance)}
    if not m["two_sided"]:
        return {"": shape}
    offset = [-BACK_OFFSET * x for x in mesh_normal(filename, where)]
    back = dict(shape, flip_normals=True, to_world=mi.ScalarTransform4f().translate(offset))
    return {"": shape, "_back": back}


def environment_emitter(env, folder, where):
    """Ours: u = 0.5 towards -z, 0.75 towards +x, ROTATE counter-clockwise about +y seen from
    above; Mitsuba's envmap: u = 0 towards -z, 0.25 towards +x: turned by 180 degrees more."""
    import mitsuba as mi
    if env["kind"] == "none":
        return None
    if env["kind"] == "constant":
        return {"type": "constant", "radiance": rgb(env["color"])}
    turn = mi.ScalarTransform4f().rotate([0, 1, 0], float(env["rotate_degrees"]) + 180.0)
    # Ours looks texels up nearest, Mitsuba's envmap bilinear: each texel as a block of
    # ENVMAP_BLOCK x ENVMAP_BLOCK keeps the blend to the blocks' edges.
    texels = images.read_pfm(os.path.join(folder, env["file"])).to_numpy()
    blocks = texels.repeat(ENVMAP_BLOCK, axis=0).repeat(ENVMAP_BLOCK, axis=1)
    path = os.path.join(folder, "mitsuba_environment.pfm")
    images.write_pfm(path, images.Image.from_numpy(blocks))
    return {"type": "envmap", "filename": path, "to_world": turn}


def read_export(folder):
    path = os.path.join(folder, "scene.json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"{path}: cannot read the export ({e})")
    if (doc.get("format"), doc.get("version")) != FORMAT:
        raise ToolError(f"{path}: not a scene export of version {FORMAT[1]}")
    return doc


def mitsuba_scene(scene, folder, spp, resolution=None):
    """The Mitsuba scene dictionary of raystream's export of `scene` in `folder`; `resolution`
    (width, height) in place of the scene's, as raystream's --resolution."""
    import mitsuba as mi
    doc = read_export(folder)
    cam = doc["camera"]
    width, height = resolution or (cam["width"], cam["height"])
    if cam["lens_radius"] > 0:
        not_translated(scene, "a thin lens (LENS_RADIUS)")
    sensor = {
        "type": "perspective", "fov_axis": "y", "fov": 2.0 * float(cam["fovy_degrees"]),
        "to_world": mi.ScalarTransform4f().look_at(origin=cam["eye"], target=cam["lookat"],
                                                   up=cam["up"]),
        "film": {"type": "hdrfilm", "width": width, "height": height,
                 "rfilter": {"type": "box"}, "pixel_format": "rgb"},
        "sampler": {"type": "independent", "sample_count": spp},
    }
    if cam["near_distance"] > 0:
        sensor["near_clip"] = float(cam["near_distance"])
    d = {"type": "scene", "sensor": sensor,
         "integrator": {"type": "path", "max_depth": int(doc["depth"])}}
    materials = doc["materials"]
    bsdfs = [material_bsdf(m, i, folder, f"{scene}: material {m['name']}")
             for i, m in enumerate(materials)]
    for i, obj in enumerate(doc["objects"]):
        shape = object_shape(obj, f"{scene}: object {i}")
        shape["bsdf"] = bsdfs[obj["material"]]
        radiance = material_radiance(materials[obj["material"]])
        if radiance:
            # Spheres and cubes are closed: their inside is never seen, so one side is enough.
            shape["emitter"] = {"type": "area", "radiance": rgb(radiance)}
        d[f"object{i}"] = shape
    for i, mesh in enumerate(doc["meshes"]):
        where = f"{scene}: {mesh['file']}"
        for suffix, shape in mesh_shapes(mesh, materials, bsdfs, folder, where).items():
            d[f"mesh{i}{suffix}"] = shape
    emitter = environment_emitter(doc["environment"], folder, scene)
    if emitter:
        d["environment"] = emitter
    return d


def register_bsdf_integrator():
    """Mitsuba's own path tracers sample emitters with shadow rays that stop ShadowEpsilon
    (8.9e-4 in single precision) of their length short of the light, so light leaks through an
    occluder that close to an emitter, as in smallpt, whose light sphere reaches into the ceiling
    slab. "bsdfpath" samples the BSDF alone and meets emitters only where its rays hit them, with
    Mitsuba's own intersection, sampling and Russian roulette."""
    import drjit as dr
    import mitsuba as mi

    class BsdfPath(mi.SamplingIntegrator):
        def __init__(self, props):
            super().__init__(props)
            self.max_depth = props.get("max_depth", 64)

        @dr.syntax
        def sample(self, scene, sampler, ray, medium=None, active=True):
            import drjit as dr  # dr.syntax recompiles the method without the enclosing scope
            import mitsuba as mi
            ctx = mi.BSDFContext()
            ray = mi.Ray3f(ray)
            radiance = mi.Spectrum(0.0)
            throughput = mi.Spectrum(1.0)
            depth = mi.UInt32(0)
            active = mi.Bool(active)
            while active:
                si = scene.ray_intersect(ray, active)
                radiance += throughput * si.emitter(scene, active).eval(si, active)
                active &= si.is_valid() & (depth + 1 < self.max_depth)
                bs, weight = si.bsdf(ray).sample(ctx, si, sampler.next_1d(active),
                                                 sampler.next_2d(active), active)
                throughput *= weight
                ray = si.spawn_ray(si.to_world(bs.wo))
                depth += 1
                # Russian roulette from the fifth bounce on, as Mitsuba's path tracer does.
                survive = dr.minimum(dr.max(throughput), 0.95)
                roulette = active & (depth >= 5)
                active &= ~roulette | (sampler.next_1d(active) < survive)
                throughput = dr.select(roulette, throughput / survive, throughput)
                active &= dr.max(throughput) > 0
            return radiance, mi.Bool(True), []

    mi.register_integrator("bsdfpath", lambda props: BsdfPath(props))


def export(args, folder):
    """raystream SCENE --export-scene FOLDER."""
    raystream = runs.binary(args.build)
    r = runs.render(raystream, args.scene, ["--export-scene", folder], quiet=False, check=False)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise ToolError(f"{args.scene}: raystream could not export it (exit {r.returncode})",
                        code=r.returncode)


def render(args):
    try:
        import mitsuba as mi
        import numpy as np
    except ImportError as e:
        raise ToolError(f"{e.name} is not installed for {sys.executable}: pip install mitsuba "
                        "numpy", code=2)
    mi.set_variant(args.variant)
    if args.integrator == "bsdf":
        register_bsdf_integrator()
    # In passes of at most --pass-spp samples per pixel (one seed each), averaged: a wavefront of
    # width x height x spp lanes at once would not fit in memory.
    passes = max(1, math.ceil(args.spp / args.pass_spp))
    per_pass = math.ceil(args.spp / passes)
    total = None
    with tempfile.TemporaryDirectory() as folder:
        export(args, folder)
        description = mitsuba_scene(args.scene, folder, per_pass, args.resolution)
        if args.integrator == "bsdf":
            description["integrator"]["type"] = "bsdfpath"
        scene = mi.load_dict(description)
        for k in range(passes):
            image = np.array(mi.render(scene, spp=per_pass, seed=args.seed * passes + k),
                             dtype=np.float64)
            total = image if total is None else total + image
    mi.Bitmap((total / passes).astype(np.float32)).write(args.out)
    print(f"wrote {args.out} ({passes * per_pass} spp in {passes} passes, {args.variant})")


def compare(args):
    import numpy as np
    try:
        ref = images.read_image(args.reference).to_numpy().astype(np.float64)
        ours = images.read_image(args.image).to_numpy().astype(np.float64)
    except images.ImageError as e:
        raise ToolError(str(e), code=2)
    height, width = ours.shape[:2]
    if ours.shape != ref.shape:
        raise ToolError(f"{args.image}: {width}x{height}, the reference is "
                        f"{ref.shape[1]}x{ref.shape[0]}", code=2)
    print(f"{args.image} against {args.reference}")
    for c, name in enumerate("rgb"):
        print(f"  mean {name}: ours {ours[:, :, c].mean():.5f}, reference "
              f"{ref[:, :, c].mean():.5f}, ratio {ours[:, :, c].mean() / ref[:, :, c].mean():.4f}")
    r = args.region
    worst, beyond = None, []
    for y0 in range(0, height - r + 1, r):
        for x0 in range(0, width - r + 1, r):
            for c, name in enumerate("rgb"):
                a = ours[y0:y0 + r, x0:x0 + r, c]
                b = ref[y0:y0 + r, x0:x0 + r, c]
                diff = (a - b).ravel()
                se = diff.std(ddof=1) / math.sqrt(diff.size)
                ratio = a.mean() / b.mean() if b.mean() > 0 else float("nan")
                z = diff.mean() / se if se > 0 else 0.0
                row = (abs(ratio - 1), x0, y0, name, ratio, z, b.mean())
                if b.mean() > args.dark and (worst is None or row > worst):
                    worst = row
                if b.mean() > args.dark and abs(ratio - 1) > args.tolerance:
                    beyond.append(row)
    if worst:
        print(f"  worst {r}x{r} region: ({worst[1]}, {worst[2]}) {worst[3]}: ratio {worst[4]:.4f}"
              f", z {worst[5]:.2f}")
    print(f"  regions beyond {100 * args.tolerance:.1f}%: {len(beyond)}")
    for row in sorted(beyond, reverse=True)[:10]:
        print(f"    ({row[1]}, {row[2]}) {row[3]}: ratio {row[4]:.4f}, z {row[5]:.2f}, "
              f"reference mean {row[6]:.4g}")


def resolution(text):
    w, _, h = text.partition("x")
    if not (w.isdigit() and h.isdigit() and int(w) > 0 and int(h) > 0):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 320x240, got {text!r}")
    return int(w), int(h)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render")
    r.add_argument("scene")
    r.add_argument("--out", required=True)
    r.add_argument("--build", default=str(ROOT / "build"),
                   help="the build folder whose raystream exports the scene (default build/)")
    r.add_argument("--spp", type=int, default=256)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--resolution", type=resolution, metavar="WxH",
                   help="the image's size (default: the scene's), as raystream's --resolution")
    r.add_argument("--pass-spp", type=int, default=64, help="samples per pixel per pass")
    r.add_argument("--integrator", choices=["path", "bsdf"], default="path",
                   help="path: Mitsuba's path tracer (next-event estimation with MIS); bsdf: "
                        "BSDF sampling alone (see register_bsdf_integrator)")
    r.add_argument("--variant", default="llvm_ad_rgb")
    c = sub.add_parser("compare")
    c.add_argument("reference")
    c.add_argument("image")
    c.add_argument("--region", type=int, default=100)
    c.add_argument("--tolerance", type=float, default=0.02)
    c.add_argument("--dark", type=float, default=1e-3,
                   help="regions whose reference mean is below this are not judged")
    args = ap.parse_args()
    render(args) if args.command == "render" else compare(args)
    return 0


if __name__ == "__main__":
    sys.exit(runs.exit_on_error("mitsuba_reference", main))

#!/usr/bin/env python3
"""An independent reference: a raystream scene rendered by Mitsuba 3, and the comparison.

    mitsuba_reference.py render SCENE.json --out REF.exr [--spp N] [--pass-spp P] [--variant V]
                                [--integrator path|bsdf]
    mitsuba_reference.py compare REF.exr IMAGE.pfm|IMAGE.hdr [--region 100]

`render` translates the scene file into a Mitsuba scene set up to match raystream: the camera
(FOVY is half the vertical angle; NEAR is Mitsuba's planar near clip), a box pixel filter (our
uniform jitter in the pixel), DEPTH as Mitsuba's max_depth (both count the segments of a path:
1 shows the emitters alone), and the materials: Diffuse, smooth Specular (a mirror of
reflectance RGB), smooth Refractive (tint RGB on both lobes), Emitting (an area light of radiance
RGB x EMITTANCE that reflects nothing), and OBJ meshes with MTL materials (diffuse Kd, Ke
emitting from both sides as raystream's MTL rule says, over its Kd). Every surface reflects from
both sides, as ours do. Spheres and cubes with rotations, textures, rough lobes, Plastic and
environments are not translated: the script stops with a message naming what it met.

`compare` prints, per channel, the whole image's mean against the reference's, and per region
of REGION x REGION pixels the ratio of the means and its z score (the mean of the per-pixel
differences over its standard error, both images' noise included). Our .hdr is decoded with
Radiance's rounding (+0.5 of a mantissa step), which undoes the encoder's truncation.

Needs `pip install mitsuba numpy`; the llvm variants need libLLVM 16 or newer (Debian:
libllvm19, found through DRJIT_LIBLLVM_PATH=/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1).
"""
import argparse
import json
import math
import os
import re
import sys
import tempfile

from raystream_tools import images


def load_json(path):
    text = open(path).read()
    # The scene files allow // comments outside strings.
    text = re.sub(r'("(?:[^"\\]|\\.)*")|//[^\n]*', lambda m: m.group(1) or "", text)
    return json.loads(text)


def rgb(value):
    return {"type": "rgb", "value": [float(v) for v in value]}


def two_sided(bsdf):
    return {"type": "twosided", "bsdf": bsdf}


def scene_bsdf(name, m, where):
    kind = m["TYPE"].lower()
    if m.get("ROUGHNESS", 0.0) or m.get("TEXTURE") or m.get("EMISSION"):
        sys.exit(f"{where}: material {name}: ROUGHNESS, TEXTURE and EMISSION are not translated")
    if kind == "diffuse":
        return two_sided({"type": "diffuse", "reflectance": rgb(m["RGB"])})
    if kind == "specular":
        return two_sided({"type": "conductor", "material": "none",
                          "specular_reflectance": rgb(m["RGB"])})
    if kind in ("refractive", "dielectric"):
        tint = rgb(m.get("RGB", [1, 1, 1]))
        return {"type": "dielectric", "int_ior": float(m.get("IOR", 1.5)), "ext_ior": 1.0,
                "specular_reflectance": tint, "specular_transmittance": tint}
    if kind == "emitting":
        return {"type": "diffuse", "reflectance": rgb([0, 0, 0])}
    sys.exit(f"{where}: material {name}: type {m['TYPE']} is not translated")


def emitter_of(m):
    if m["TYPE"].lower() != "emitting":
        return None
    radiance = [float(c) * float(m["EMITTANCE"]) for c in m["RGB"]]
    return {"type": "area", "radiance": rgb(radiance)}


def transform(obj):
    import mitsuba as mi
    if any(float(a) for a in obj.get("ROTAT", [0, 0, 0])):
        sys.exit("rotated objects are not translated")
    t = [float(v) for v in obj.get("TRANS", [0, 0, 0])]
    s = [float(v) for v in obj.get("SCALE", [1, 1, 1])]
    return t, s, mi.ScalarTransform4f().translate(t)


def read_mtl(path):
    materials, current = {}, None
    for line in open(path):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0] == "newmtl":
            current = materials.setdefault(parts[1], {})
        elif current is not None and parts[0] in ("Kd", "Ke", "Ks", "Ni", "illum", "d", "Tf"):
            current[parts[0]] = [float(v) for v in parts[1:4] if not v.startswith("#")]
    return materials


def read_obj(path):
    """Triangles of the OBJ grouped by usemtl: {material: [(a, b, c), ...]} and the MTL."""
    vertices, groups, material, mtl = [], {}, None, {}
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            vertices.append([float(v) for v in parts[1:4]])
        elif parts[0] == "usemtl":
            material = parts[1]
        elif parts[0] == "mtllib":
            folder = os.path.dirname(path)
            for candidate in (os.path.join(folder, parts[1]),
                              os.path.join(folder, os.path.basename(parts[1]))):
                if os.path.exists(candidate):
                    mtl = read_mtl(candidate)
                    break
        elif parts[0] == "f":
            idx = [int(p.split("/")[0]) for p in parts[1:]]
            idx = [i - 1 if i > 0 else len(vertices) + i for i in idx]
            if len(idx) == 4:
                # As tinyobjloader splits a quad: along its shorter diagonal (the Cornell Box's
                # quads are not all planar, so the diagonal moves the surface).
                p = [vertices[i] for i in idx]
                d02 = sum((p[2][k] - p[0][k]) ** 2 for k in range(3))
                d13 = sum((p[3][k] - p[1][k]) ** 2 for k in range(3))
                tris = [(0, 1, 2), (0, 2, 3)] if d02 < d13 else [(0, 1, 3), (1, 2, 3)]
            else:
                tris = [(0, k, k + 1) for k in range(1, len(idx) - 1)]
            for a, b, c in tris:
                groups.setdefault(material, []).append(
                    (vertices[idx[a]], vertices[idx[b]], vertices[idx[c]]))
    return groups, mtl


def write_ply(path, triangles, flip=False, offset=(0.0, 0.0, 0.0)):
    import numpy as np
    v = np.array([p for tri in triangles for p in (tri[::-1] if flip else tri)],
                 dtype=np.float32) + np.array(offset, dtype=np.float32)
    f = np.arange(len(v), dtype=np.int32).reshape(-1, 3)
    with open(path, "wb") as out:
        out.write((f"ply\nformat binary_little_endian 1.0\nelement vertex {len(v)}\n"
                   "property float x\nproperty float y\nproperty float z\n"
                   f"element face {len(f)}\nproperty list uchar int vertex_indices\n"
                   "end_header\n").encode())
        out.write(v.tobytes())
        rows = np.zeros(len(f), dtype=[("n", "u1"), ("i", "<i4", 3)])
        rows["n"] = 3
        rows["i"] = f
        out.write(rows.tobytes())


def mesh_shapes(obj, scene_dir, folder, where):
    path = os.path.join(scene_dir, obj["FILE"])
    t, s, _ = transform(obj)
    groups, mtl = read_obj(path)
    shapes = {}
    for k, (name, tris) in enumerate(groups.items()):
        tris = [tuple([t[i] + s[i] * p[i] for i in range(3)] for p in tri) for tri in tris]
        m = mtl.get(name, {})
        if m.get("illum", [2])[0] != 2 or m.get("d", [1])[0] < 1:
            sys.exit(f"{where}: {path}: MTL {name}: only diffuse (illum 2) materials are translated")
        bsdf = two_sided({"type": "diffuse", "reflectance": rgb(m.get("Kd", [0.8] * 3))})
        ply = os.path.join(folder, f"mesh{k}.ply")
        write_ply(ply, tris)
        shape = {"type": "ply", "filename": ply, "face_normals": True, "bsdf": bsdf}
        ke = m.get("Ke", [0, 0, 0])
        if max(ke) > 0:
            shape["emitter"] = {"type": "area", "radiance": rgb(ke)}
            # Mitsuba's area lights emit to the front: a copy with the other winding, a hair's
            # breadth behind, emits to the back (raystream's MTL emitters are two-sided).
            a, b, c = tris[0]
            n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
                 (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
                 (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])]
            length = math.sqrt(sum(x * x for x in n))
            back = os.path.join(folder, f"mesh{k}_back.ply")
            write_ply(back, tris, flip=True, offset=[-1e-4 * x / length for x in n])
            shapes[f"mesh{k}_back"] = dict(shape, filename=back)
        shapes[f"mesh{k}"] = shape
    return shapes


def mitsuba_scene(path, folder, spp):
    import mitsuba as mi
    scene = load_json(path)
    scene_dir = os.path.dirname(path)
    cam = scene["Camera"]
    if "Environment" in scene:
        sys.exit(f"{path}: Environment is not translated")
    if cam.get("LENS_RADIUS", 0):
        sys.exit(f"{path}: LENS_RADIUS is not translated")
    width, height = cam["RES"]
    sensor = {
        "type": "perspective", "fov_axis": "y", "fov": 2.0 * float(cam["FOVY"]),
        "to_world": mi.ScalarTransform4f().look_at(origin=cam["EYE"], target=cam["LOOKAT"],
                                                   up=cam.get("UP", [0, 1, 0])),
        "film": {"type": "hdrfilm", "width": width, "height": height,
                 "rfilter": {"type": "box"}, "pixel_format": "rgb"},
        "sampler": {"type": "independent", "sample_count": spp},
    }
    if cam.get("NEAR", 0):
        sensor["near_clip"] = float(cam["NEAR"])
    d = {"type": "scene", "sensor": sensor,
         "integrator": {"type": "path", "max_depth": int(cam["DEPTH"])}}
    materials = scene["Materials"]
    for i, obj in enumerate(scene["Objects"]):
        where = f"{path}: Objects[{i}]"
        kind = obj["TYPE"].lower()
        if kind == "mesh":
            if "MATERIAL" in obj:
                sys.exit(f"{where}: a mesh with a scene MATERIAL is not translated")
            for name, shape in mesh_shapes(obj, scene_dir, folder, where).items():
                d[f"object{i}_{name}"] = shape
            continue
        m = materials[obj["MATERIAL"]]
        t, s, to_world = transform(obj)
        if kind == "sphere":
            if not (s[0] == s[1] == s[2]):
                sys.exit(f"{where}: a sphere of unequal scales is not translated")
            shape = {"type": "sphere", "center": t, "radius": 0.5 * abs(s[0])}
        elif kind == "cube":
            shape = {"type": "cube", "to_world": to_world.scale([0.5 * x for x in s])}
        else:
            sys.exit(f"{where}: TYPE {obj['TYPE']} is not translated")
        shape["bsdf"] = scene_bsdf(obj["MATERIAL"], m, where)
        emitter = emitter_of(m)
        if emitter:
            # Spheres and cubes are closed: their inside is never seen, so one side is enough.
            shape["emitter"] = emitter
        d[f"object{i}"] = shape
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


def render(args):
    import mitsuba as mi
    mi.set_variant(args.variant)
    if args.integrator == "bsdf":
        register_bsdf_integrator()
    import numpy as np
    # In passes of at most --pass-spp samples per pixel (one seed each), averaged: a wavefront of
    # width x height x spp lanes at once would not fit in memory.
    passes = max(1, math.ceil(args.spp / args.pass_spp))
    per_pass = math.ceil(args.spp / passes)
    total = None
    with tempfile.TemporaryDirectory() as folder:
        description = mitsuba_scene(args.scene, folder, per_pass)
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
    try:
        ref = images.read_image(args.reference).to_numpy().astype("float64")
        ours = images.read_image(args.image).to_numpy().astype("float64")
    except images.ImageError as e:
        sys.exit(f"mitsuba_reference: error: {e}")
    height, width = ours.shape[:2]
    if ours.shape != ref.shape:
        sys.exit(f"{args.image}: {width}x{height}, the reference is {ref.shape[1]}x{ref.shape[0]}")
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render")
    r.add_argument("scene")
    r.add_argument("--out", required=True)
    r.add_argument("--spp", type=int, default=256)
    r.add_argument("--seed", type=int, default=0)
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


if __name__ == "__main__":
    main()

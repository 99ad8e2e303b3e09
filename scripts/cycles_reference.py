#!/usr/bin/env python3
"""An independent reference for glTF scenes: a raystream scene file rendered by Blender Cycles.

    cycles_reference.py SCENE.json -o REF.exr [--spp N] [--depth D] [--resolution WxH]
                        [--plain-diffuse ALBEDO] [--seed S] [--threads T] [--save-blend F]

Runs in a Python that has Blender as a module (`pip install bpy`, Python 3.13; docs/cycles.md).
The scene is built in Blender as raystream loads it:

- glTF objects are imported by Blender's glTF importer (which turns glTF's y-up into Blender's
  z-up); the object's TRANS, ROTAT and SCALE (raystream's matrix T x Rx x Ry x Rz x S) apply on
  top, carried into Blender's axes (x, y, z) -> (x, -z, y). KHR_lights_punctual lights and the
  asset's cameras are removed, as raystream does not use them. A MATERIAL on the object replaces
  the asset's materials. Spheres (radius 0.5, a fine UV sphere shaded smooth) and cubes (side 1)
  take the same transform.
- Materials: the asset's own (the importer's Principled BSDF, set to single-scattering GGX), or
  a scene material: Diffuse (Lambertian, RGB, its EMISSION added), Emitting (RGB x EMITTANCE,
  both sides or with TWO_SIDED false the front only, nothing reflected). Other types, TEXTURE,
  and OBJ meshes stop the script with a message (exit code 2).
- --plain-diffuse A replaces every material that does not emit (the asset's and the scene's)
  with a Lambertian of albedo A, as a scene whose glTF object names a Diffuse material of RGB
  [A, A, A] renders in raystream.
- The camera: EYE, LOOKAT, UP; the vertical field of view 2 x FOVY (sensor fit vertical); RES;
  a thin lens for LENS_RADIUS (focus on the plane at FOCAL_DISTANCE); NEAR as the clip start
  (both planar, as ours).
- The environment: Environment.RGB x SCALE as a uniform background, or Environment.FILE as an
  equirectangular map turned to raystream's mapping (centre at -z, +x at u = 0.75; ROTATE about
  +y), looked up nearest as ours; none is black.
- Cycles on the CPU: N samples per pixel, no adaptive sampling, no denoising, no clamping, no
  glossy filter, no texture cache (full-resolution textures), a box pixel filter one pixel wide
  (our uniform jitter in the pixel), no shadow terminator offset, max bounces DEPTH - 2 of every
  kind (raystream's DEPTH counts a path's segments, the camera's included, so DEPTH 2 is direct
  light alone, Cycles' 0 bounces; docs/cycles.md has the experiment that tells), transparent
  bounces 1024 (our alpha test is not a bounce), no backface culling (every surface reflects
  from both sides, glTF's doubleSided or not), no bump map correction (Cycles' shadowing term
  for normal-mapped surfaces, which raystream does not have). The EXR is linear scene-referred Rec.709 (sRGB
  primaries), 32-bit float, the colour management's view transform not applied.
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from raystream_tools.runs import ToolError, exit_on_error, read_scene  # noqa: E402

# The UV sphere that stands for raystream's analytic sphere.
SPHERE_SEGMENTS, SPHERE_RINGS = 256, 128
TRANSPARENT_BOUNCES = 1024


def bpy_module():
    try:
        import bpy
    except ImportError:
        raise ToolError(f"Blender's Python module is not installed for {sys.executable}: "
                        "pip install bpy (Python 3.13; docs/cycles.md)", code=2)
    return bpy


def vec3(value, where):
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(v, (int, float)) for v in value)):
        raise ToolError(f"{where}: expected 3 numbers, got {json.dumps(value)}", code=2)
    return [float(v) for v in value]


# ---- axes ---------------------------------------------------------------------------------

def axes():
    """raystream's y-up world to Blender's z-up one: (x, y, z) -> (x, -z, y), a rotation."""
    from mathutils import Matrix
    return Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))


def to_blender(v):
    return (v[0], -v[2], v[1])


def object_matrix(obj, where):
    """raystream's object-to-world matrix (core/transform.cpp: translate, then rotate about x,
    y and z in that order of multiplication, then scale) in Blender's axes."""
    from mathutils import Matrix
    t = vec3(obj.get("TRANS", [0, 0, 0]), f"{where}.TRANS")
    r = [math.radians(a) for a in vec3(obj.get("ROTAT", [0, 0, 0]), f"{where}.ROTAT")]
    s = vec3(obj.get("SCALE", [1, 1, 1]), f"{where}.SCALE")
    m = (Matrix.Translation(t) @ Matrix.Rotation(r[0], 4, "X") @ Matrix.Rotation(r[1], 4, "Y")
         @ Matrix.Rotation(r[2], 4, "Z") @ Matrix.Diagonal((s[0], s[1], s[2], 1.0)))
    c = axes()
    return c @ m @ c.inverted()


# ---- materials ----------------------------------------------------------------------------

def node_material(name):
    bpy = bpy_module()
    mat = bpy.data.materials.new(name)
    if mat.node_tree is None:  # before Blender 5, materials had node trees on request
        mat.use_nodes = True
    nodes = mat.node_tree.nodes
    nodes.clear()
    out = nodes.new("ShaderNodeOutputMaterial")
    out.target = "CYCLES"
    return mat, out


def diffuse_material(name, albedo, emission=None):
    """Lambertian (roughness 0: not Oren-Nayar), both sides, plus the emission where given."""
    mat, out = node_material(name)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes.new("ShaderNodeBsdfDiffuse")
    bsdf.inputs["Color"].default_value = (*albedo, 1.0)
    bsdf.inputs["Roughness"].default_value = 0.0
    shader = bsdf.outputs["BSDF"]
    if emission is not None and max(emission) > 0:
        em = nodes.new("ShaderNodeEmission")
        em.inputs["Color"].default_value = (*emission, 1.0)
        em.inputs["Strength"].default_value = 1.0
        add = nodes.new("ShaderNodeAddShader")
        links.new(shader, add.inputs[0])
        links.new(em.outputs["Emission"], add.inputs[1])
        shader = add.outputs["Shader"]
        mat.cycles.emission_sampling = "FRONT_BACK"
    links.new(shader, out.inputs["Surface"])
    return mat


def emitting_material(name, radiance, two_sided):
    """Emits `radiance` (from the front only unless two-sided) and reflects nothing."""
    mat, out = node_material(name)
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    em = nodes.new("ShaderNodeEmission")
    em.inputs["Color"].default_value = (*radiance, 1.0)
    em.inputs["Strength"].default_value = 1.0
    shader = em.outputs["Emission"]
    if not two_sided:
        geometry = nodes.new("ShaderNodeNewGeometry")
        black = nodes.new("ShaderNodeEmission")
        black.inputs["Strength"].default_value = 0.0
        mix = nodes.new("ShaderNodeMixShader")
        links.new(geometry.outputs["Backfacing"], mix.inputs["Fac"])
        links.new(shader, mix.inputs[1])
        links.new(black.outputs["Emission"], mix.inputs[2])
        shader = mix.outputs["Shader"]
    mat.cycles.emission_sampling = "FRONT_BACK" if two_sided else "FRONT"
    links.new(shader, out.inputs["Surface"])
    return mat


def scene_material(name, m, plain):
    """The Blender material of scene material `name` (its JSON `m`); `plain` is the albedo of
    --plain-diffuse or None."""
    where = f"Materials.{name}"
    kind = str(m.get("TYPE", "")).lower()
    if "TEXTURE" in m:
        raise ToolError(f"{where}.TEXTURE: textures of scene materials are not translated", code=2)
    if kind == "emitting":
        rgb = vec3(m.get("RGB"), f"{where}.RGB")
        e = float(m.get("EMITTANCE", 0.0))
        return emitting_material(name, [c * e for c in rgb], bool(m.get("TWO_SIDED", True)))
    if kind == "diffuse":
        emission = vec3(m["EMISSION"], f"{where}.EMISSION") if "EMISSION" in m else None
        if m.get("TWO_SIDED", True) is False and emission and max(emission) > 0:
            raise ToolError(f"{where}.TWO_SIDED: a one-sided emitting Diffuse material is not "
                            "translated", code=2)
        albedo = [plain] * 3 if plain is not None else vec3(m.get("RGB"), f"{where}.RGB")
        return diffuse_material(name, albedo, emission)
    raise ToolError(f"{where}: material type {m.get('TYPE')!r} is not translated (Diffuse and "
                    "Emitting are)", code=2)


def single_scattering(material):
    """glTF's metallic-roughness BRDF (its Appendix B) is single-scattering GGX; Cycles'
    Principled BSDF defaults to multiple scattering."""
    if material is None or not material.node_tree:
        return
    for node in material.node_tree.nodes:
        if node.bl_idname == "ShaderNodeBsdfPrincipled":
            node.distribution = "GGX"
        elif node.bl_idname == "ShaderNodeGroup" and node.node_tree:
            for inner in node.node_tree.nodes:
                if inner.bl_idname == "ShaderNodeBsdfPrincipled":
                    inner.distribution = "GGX"


def assign(obj, material):
    """Every face of a mesh object takes `material`."""
    mesh = obj.data
    mesh.materials.clear()
    mesh.materials.append(material)
    mesh.polygons.foreach_set("material_index", [0] * len(mesh.polygons))
    mesh.update()


def emits(material):
    return material is not None and material.node_tree is not None and any(
        n.bl_idname == "ShaderNodeEmission" for n in material.node_tree.nodes)


# ---- objects ------------------------------------------------------------------------------

def no_terminator_offset(obj):
    """Cycles moves shadow rays off smooth-shaded low-poly surfaces (the shadow terminator
    offsets); raystream does not."""
    settings = getattr(obj, "cycles", None)
    for holder in (obj, settings):
        for prop in ("shadow_terminator_geometry_offset", "shadow_terminator_offset",
                     "shadow_terminator_normal_offset", "shadow_terminator_shading_offset"):
            if holder is not None and hasattr(holder, prop):
                setattr(holder, prop, 0.0)


def import_gltf(path, matrix, where, notes):
    """Imports the asset under an empty placed by `matrix`; returns its mesh objects."""
    bpy = bpy_module()
    if not path.is_file():
        raise ToolError(f"{where}.FILE: {path}: no such file", code=2)
    before = set(bpy.data.objects)
    try:
        result = bpy.ops.import_scene.gltf(filepath=str(path), import_shading="NORMALS",
                                           merge_vertices=False)
    except RuntimeError as e:
        raise ToolError(f"{where}.FILE: {path}: Blender's glTF importer failed: {e}", code=2)
    if "FINISHED" not in result:
        raise ToolError(f"{where}.FILE: {path}: Blender's glTF importer failed", code=2)
    created = [o for o in bpy.data.objects if o not in before]
    for o in [o for o in created if o.type in ("LIGHT", "CAMERA")]:
        notes.append(f"{where}: the asset's {o.type.lower()} {o.name!r} is left out, as "
                     "raystream does")
        created.remove(o)
        bpy.data.objects.remove(o, do_unlink=True)
    holder = bpy.data.objects.new(f"{where} transform", None)
    bpy.context.scene.collection.objects.link(holder)
    holder.matrix_world = matrix
    for o in created:
        if o.parent is None or o.parent not in created:
            world = o.matrix_world.copy()
            o.parent = holder
            o.matrix_parent_inverse.identity()
            o.matrix_basis = world
    bpy.context.view_layer.update()
    return [o for o in created if o.type == "MESH"]


def add_shape(kind, matrix, where):
    bpy = bpy_module()
    if kind == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(segments=SPHERE_SEGMENTS, ring_count=SPHERE_RINGS,
                                             radius=0.5)
        bpy.ops.object.shade_smooth()
    else:
        bpy.ops.mesh.primitive_cube_add(size=1.0)
    obj = bpy.context.active_object
    obj.name = where
    obj.matrix_world = matrix
    return obj


def build_objects(scene, folder, plain, notes):
    bpy = bpy_module()
    materials = scene.get("Materials", {})
    cache = {}

    def material(name, where):
        if name not in materials:
            raise ToolError(f"{where}.MATERIAL: unknown material {name!r}", code=2)
        if name not in cache:
            cache[name] = scene_material(name, materials[name], plain)
        return cache[name]

    plain_material = None
    if plain is not None:
        plain_material = diffuse_material("plain diffuse", [plain] * 3)
    meshes = []
    for i, obj in enumerate(scene.get("Objects", [])):
        where = f"Objects[{i}]"
        kind = str(obj.get("TYPE", "")).lower()
        matrix = object_matrix(obj, where)
        if kind == "gltf":
            if "FILE" not in obj:
                raise ToolError(f"{where}.FILE: missing required key", code=2)
            parts = import_gltf(folder / obj["FILE"], matrix, where, notes)
            if "MATERIAL" in obj:
                override = material(obj["MATERIAL"], where)
                for o in parts:
                    assign(o, override)
            elif plain_material is not None:
                for o in parts:
                    if not any(emits(s.material) for s in o.material_slots):
                        assign(o, plain_material)
                    else:
                        notes.append(f"{where}: {o.name} keeps its emitting materials")
            meshes += parts
        elif kind in ("sphere", "cube"):
            if "MATERIAL" not in obj:
                raise ToolError(f"{where}.MATERIAL: missing required key", code=2)
            o = add_shape(kind, matrix, where)
            assign(o, material(obj["MATERIAL"], where))
            meshes.append(o)
        else:
            raise ToolError(f"{where}.TYPE: {obj.get('TYPE')!r} objects are not translated "
                            "(gltf, sphere and cube are)", code=2)
    for o in meshes:
        no_terminator_offset(o)
        for slot in o.material_slots:
            single_scattering(slot.material)
            if slot.material is not None:
                # Every raystream surface reflects from both sides, glTF's doubleSided or not.
                slot.material.use_backface_culling = False
                # Nor does it soften the shadow terminator of normal-mapped surfaces.
                set_if(slot.material.cycles, "use_bump_map_correction", False)
    return meshes


# ---- camera, environment, settings ---------------------------------------------------------

def build_camera(cam, width, height):
    """A perspective camera: Blender's camera looks along its -z with +y up, so its rotation's
    columns are right, up and -view (raystream's frame: right = view x UP, up = right x view)."""
    bpy = bpy_module()
    from mathutils import Matrix, Vector
    eye = Vector(to_blender(vec3(cam.get("EYE"), "Camera.EYE")))
    lookat = Vector(to_blender(vec3(cam.get("LOOKAT"), "Camera.LOOKAT")))
    up = Vector(to_blender(vec3(cam.get("UP"), "Camera.UP")))
    view = (lookat - eye).normalized()
    right = view.cross(up)
    if right.length < 1e-12:
        raise ToolError("Camera.UP: parallel to the view direction", code=2)
    right.normalize()
    true_up = right.cross(view)
    m = Matrix.Identity(4)
    for row in range(3):
        m[row][0], m[row][1], m[row][2], m[row][3] = right[row], true_up[row], -view[row], eye[row]
    fovy = float(cam.get("FOVY", 45.0))
    if not 0.0 < fovy < 90.0:
        raise ToolError(f"Camera.FOVY: {fovy} is not in (0, 90)", code=2)
    data = bpy.data.cameras.new("camera")
    data.type = "PERSP"
    data.sensor_fit = "VERTICAL"
    # A fixed focal length and the sensor that gives the angle: tan(FOVY) = half height at 1.
    data.lens = 50.0
    data.sensor_height = 2.0 * data.lens * math.tan(math.radians(fovy))
    data.sensor_width = data.sensor_height * width / height
    data.shift_x = data.shift_y = 0.0
    near = float(cam.get("NEAR", 0.0))
    data.clip_start = max(near, 1e-6)
    data.clip_end = 1e8
    radius = float(cam.get("LENS_RADIUS", 0.0))
    if radius > 0.0:
        focus = float(cam.get("FOCAL_DISTANCE", 0.0)) or (lookat - eye).length
        data.dof.use_dof = True
        data.dof.focus_distance = focus
        # Cycles' aperture radius is (lens in m) / (2 f-stop); no blades: a disk.
        data.dof.aperture_fstop = data.lens * 1e-3 / (2.0 * radius)
        data.dof.aperture_blades = 0
        data.dof.aperture_ratio = 1.0
    obj = bpy.data.objects.new("camera", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.matrix_world = m
    bpy.context.scene.camera = obj
    return obj


def build_world(env, folder):
    bpy = bpy_module()
    world = bpy.data.worlds.new("environment")
    if world.node_tree is None:
        world.use_nodes = True
    nodes, links = world.node_tree.nodes, world.node_tree.links
    nodes.clear()
    out = nodes.new("ShaderNodeOutputWorld")
    background = nodes.new("ShaderNodeBackground")
    links.new(background.outputs["Background"], out.inputs["Surface"])
    if env is None:
        background.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
        background.inputs["Strength"].default_value = 0.0
    else:
        scale = float(env.get("SCALE", 1.0))
        background.inputs["Strength"].default_value = scale
        if ("RGB" in env) == ("FILE" in env):
            raise ToolError("Environment: exactly one of FILE and RGB", code=2)
        if "RGB" in env:
            background.inputs["Color"].default_value = (*vec3(env["RGB"], "Environment.RGB"), 1)
        else:
            path = folder / env["FILE"]
            try:
                image = bpy.data.images.load(str(path))
            except RuntimeError as e:
                raise ToolError(f"Environment.FILE: {path}: Blender cannot read it: {e}", code=2)
            image.colorspace_settings.name = "Linear Rec.709"
            texture = nodes.new("ShaderNodeTexEnvironment")
            texture.image = image
            texture.projection = "EQUIRECTANGULAR"
            texture.interpolation = "Closest"
            # Blender's map has its centre at +x (Blender), ours at -z (raystream) = +y
            # (Blender), and +x at u = 0.75: the direction is turned by -90 degrees about z
            # before the lookup; ROTATE turns the map counter-clockwise about +y (z in Blender),
            # so the lookup turns the other way.
            rotate = float(env.get("ROTATE", 0.0))
            coords = nodes.new("ShaderNodeTexCoord")
            mapping = nodes.new("ShaderNodeMapping")
            mapping.vector_type = "VECTOR"
            mapping.inputs["Rotation"].default_value = (0.0, 0.0, math.radians(-90.0 - rotate))
            links.new(coords.outputs["Generated"], mapping.inputs["Vector"])
            links.new(mapping.outputs["Vector"], texture.inputs["Vector"])
            links.new(texture.outputs["Color"], background.inputs["Color"])
    set_if(world.cycles, "sampling_method", "AUTOMATIC")  # the background is sampled as a light
    bpy.context.scene.world = world


def set_if(holder, prop, value):
    if hasattr(holder, prop):
        setattr(holder, prop, value)


def settings(spp, bounces, seed, threads, width, height):
    bpy = bpy_module()
    scene = bpy.context.scene
    render, cycles = scene.render, scene.cycles
    render.engine = "CYCLES"
    cycles.device = "CPU"
    cycles.samples = spp
    cycles.use_adaptive_sampling = False
    cycles.use_denoising = False
    cycles.seed = seed
    cycles.use_animated_seed = False
    cycles.max_bounces = bounces
    cycles.diffuse_bounces = bounces
    cycles.glossy_bounces = bounces
    cycles.transmission_bounces = bounces
    cycles.volume_bounces = 0
    cycles.transparent_max_bounces = TRANSPARENT_BOUNCES
    cycles.min_light_bounces = 0
    cycles.sample_clamp_direct = 0.0
    cycles.sample_clamp_indirect = 0.0
    cycles.blur_glossy = 0.0
    cycles.light_sampling_threshold = 0.0
    cycles.caustics_reflective = True
    cycles.caustics_refractive = True
    cycles.use_fast_gi = False
    cycles.use_guiding = False
    cycles.pixel_filter_type = "BOX"
    cycles.filter_width = 1.0
    cycles.film_exposure = 1.0
    set_if(cycles, "use_pixel_jitter", False)
    set_if(cycles, "texture_limit_render", "OFF")
    set_if(cycles, "texture_resolution_render", 1.0)
    set_if(render, "use_texture_cache", False)
    render.film_transparent = False
    render.use_motion_blur = False
    render.use_persistent_data = False
    render.resolution_x, render.resolution_y = width, height
    render.resolution_percentage = 100
    render.pixel_aspect_x = render.pixel_aspect_y = 1.0
    render.use_border = False
    render.use_compositing = False
    render.use_sequencer = False
    if threads:
        render.threads_mode = "FIXED"
        render.threads = threads
    view = scene.view_settings
    view.view_transform = "Standard"
    view.look = "None"
    view.exposure = 0.0
    view.gamma = 1.0
    view.use_curve_mapping = False
    image = render.image_settings
    image.file_format = "OPEN_EXR"
    image.color_mode = "RGB"
    image.color_depth = "32"
    image.exr_codec = "ZIP"
    set_if(image, "color_management", "FOLLOW_SCENE")


def parse_resolution(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ToolError(f"--resolution: expected WIDTHxHEIGHT, got {text!r}", code=2)
    if w < 1 or h < 1:
        raise ToolError(f"--resolution: {text}: sizes must be positive", code=2)
    return w, h


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scene")
    ap.add_argument("-o", "--output", required=True, help="the EXR to write")
    ap.add_argument("--spp", type=int, help="samples per pixel (default: ITERATIONS)")
    ap.add_argument("--depth", type=int, help="raystream's DEPTH (default: the scene's)")
    ap.add_argument("--resolution", help="WIDTHxHEIGHT (default: RES)")
    ap.add_argument("--max-bounces", type=int, metavar="B",
                    help="Cycles' max bounces, instead of the one DEPTH maps to (experiments)")
    ap.add_argument("--plain-diffuse", type=float, metavar="ALBEDO",
                    help="every material that does not emit becomes a Lambertian of this albedo")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (default: all)")
    ap.add_argument("--save-blend", help="also save the Blender scene to this .blend file")
    a = ap.parse_args()
    if not a.output.lower().endswith(".exr"):
        raise ToolError(f"--output: {a.output}: the reference is written as OpenEXR (.exr)",
                        code=2)
    if a.plain_diffuse is not None and not 0.0 <= a.plain_diffuse <= 1.0:
        raise ToolError("--plain-diffuse: the albedo is in [0, 1]", code=2)
    scene_file = Path(a.scene)
    if scene_file.suffix.lower() != ".json":
        raise ToolError(f"{scene_file}: a scene file (.json) is translated; for an asset alone, "
                        "write a scene file with one gltf object", code=2)
    scene = read_scene(scene_file)
    cam = scene.get("Camera")
    if not isinstance(cam, dict):
        raise ToolError(f"{scene_file}: Camera: missing required key", code=2)
    width, height = (parse_resolution(a.resolution) if a.resolution
                     else [int(v) for v in cam.get("RES", [800, 800])])
    spp = a.spp or int(cam.get("ITERATIONS", 0))
    depth = a.depth or int(cam.get("DEPTH", 0))
    if spp < 1:
        raise ToolError("no samples per pixel: give Camera.ITERATIONS or --spp", code=2)
    if a.max_bounces is None and depth < 2:
        raise ToolError(f"DEPTH {depth}: Cycles cannot stop before the light at the first hit "
                        "(DEPTH 1 shows the emitters alone); give 2 or more", code=2)

    bpy = bpy_module()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    notes = []
    folder = scene_file.resolve().parent
    meshes = build_objects(scene, folder, a.plain_diffuse, notes)
    build_camera(cam, width, height)
    build_world(scene.get("Environment"), folder)
    bounces = depth - 2 if a.max_bounces is None else a.max_bounces
    settings(spp, bounces, a.seed, a.threads, width, height)
    for note in notes:
        print(f"cycles_reference: {note}", file=sys.stderr)
    output = Path(a.output).resolve()
    bpy.context.scene.render.filepath = str(output)
    bpy.context.scene.render.use_file_extension = False
    if a.save_blend:
        bpy.ops.wm.save_as_mainfile(filepath=str(Path(a.save_blend).resolve()))
    for o in meshes:
        o.data.calc_loop_triangles()
    triangles = sum(len(o.data.loop_triangles) for o in meshes)
    start = time.perf_counter()
    bpy.ops.render.render(write_still=True)
    seconds = time.perf_counter() - start
    if not output.is_file():
        raise ToolError(f"{output}: Cycles did not write the image")
    print(f"{scene_file}: {width} x {height}, {spp} spp, DEPTH {depth} (Cycles max bounces "
          f"{bounces}), {triangles} triangles: Cycles {bpy.app.version_string} rendered it in "
          f"{seconds:.1f} s -> {output}")
    return 0


if __name__ == "__main__":
    sys.exit(exit_on_error("cycles_reference", main))

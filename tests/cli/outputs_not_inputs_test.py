#!/usr/bin/env python3
"""No output of a render (the image, --stats, the checkpoint) may replace a file the render reads
(the scene, a mesh, an MTL file, a texture, the environment map, a glTF file or buffer, the
checkpoint it resumes), by its name, a symbolic link or a hard link: each is refused before
anything is rendered, exit 2, one line naming the output and the input, every file as it was.
(`--stats` named the scene file used to replace it.) The checkpoint written beside the image may
be the one resumed: that is the render's own continuation.

  outputs_not_inputs_test.py --binary build/raystream --out DIR

Works on copies of the test data in DIR."""
import argparse
import os
import shutil
import subprocess
import sys

DATA = "tests/data"
COMMON = ["--device", "cpu", "--spp", "1", "--resolution", "8x8", "--quiet"]
GLTF = "/usr/share/assimp/models/glTF2/BoxTextured-glTF"


def fail(message, out="", err=""):
    print(f"FAILED: {message}\n--- stdout\n{out[-2000:]}\n--- stderr\n{err[-2000:]}")
    sys.exit(1)


def snapshot(folder):
    """Every file's bytes under `folder` (links not followed)."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            files[path] = None if os.path.islink(path) else open(path, "rb").read()
    return files


def refused(binary, out, args, output, kind, input_path):
    before = snapshot(out)
    proc = subprocess.run([binary] + args + COMMON, capture_output=True, text=True)
    # The scene's warnings may come first; the error is one line.
    errors = [l for l in proc.stderr.splitlines() if l.startswith("raystream: error: ")]
    expected = (f"raystream: error: {output}: ", f"would replace the {kind} {input_path}, "
                "which this render reads")
    if proc.returncode != 2 or len(errors) != 1 or not errors[0].startswith(expected[0]) or \
            expected[1] not in errors[0]:
        fail(f"{' '.join(args)}: expected exit 2 and one line refusing {output} ({kind} "
             f"{input_path}), got exit {proc.returncode}", proc.stdout, proc.stderr)
    if snapshot(out) != before:
        fail(f"{' '.join(args)}: files changed", proc.stdout, proc.stderr)
    print(f"refused: {output} would replace the {kind} {input_path}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    out = a.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    shutil.copy(f"{DATA}/tiny.json", f"{out}/scene.json")
    for name in ("textured_quad.obj", "textured_quad.mtl"):
        shutil.copy(f"{DATA}/meshes/{name}", f"{out}/{name}")
    os.makedirs(f"{out}/textures")
    shutil.copy(f"{DATA}/meshes/textures/quad.png", f"{out}/textures/quad.png")
    shutil.copy("scenes/sky.hdr", f"{out}/sky.hdr")
    mesh_scene = open(f"{DATA}/tiny.json").read().replace(
        '"Objects": [',
        '"Objects": [{"TYPE": "mesh", "FILE": "textured_quad.obj"},')
    open(f"{out}/mesh.json", "w").write(mesh_scene)
    sky_scene = open(f"{DATA}/environment_sky.json").read().replace(
        "../../scenes/sky.hdr", "sky.hdr")
    open(f"{out}/sky.json", "w").write(sky_scene)

    # --stats names the scene file (the finding), directly and through a symbolic link.
    refused(a.binary, out, [f"{out}/scene.json", "--stats", f"{out}/scene.json", "-o",
                            f"{out}/a.png"], f"{out}/scene.json", "scene file", f"{out}/scene.json")
    os.symlink("scene.json", f"{out}/link.json")
    refused(a.binary, out, [f"{out}/scene.json", "--stats", f"{out}/link.json", "-o",
                            f"{out}/a.png"], f"{out}/link.json", "scene file", f"{out}/scene.json")
    # The image over the MTL's texture; --stats over a hard link to the OBJ and to the MTL.
    refused(a.binary, out, [f"{out}/mesh.json", "-o", f"{out}/textures/quad.png"],
            f"{out}/textures/quad.png", "image file", f"{out}/textures/quad.png")
    os.link(f"{out}/textured_quad.obj", f"{out}/obj.json")
    refused(a.binary, out, [f"{out}/mesh.json", "--stats", f"{out}/obj.json", "-o",
                            f"{out}/a.png"], f"{out}/obj.json", "OBJ file",
            f"{out}/textured_quad.obj")
    os.link(f"{out}/textured_quad.mtl", f"{out}/mtl.json")
    refused(a.binary, out, [f"{out}/mesh.json", "--stats", f"{out}/mtl.json", "-o",
                            f"{out}/a.png"], f"{out}/mtl.json", "MTL file",
            f"{out}/textured_quad.mtl")
    # The image over the environment map.
    refused(a.binary, out, [f"{out}/sky.json", "-o", f"{out}/sky.hdr"], f"{out}/sky.hdr",
            "environment map", f"{out}/sky.hdr")
    # A glTF asset's file and its buffer.
    if os.path.isdir(GLTF):
        for name in os.listdir(GLTF):
            shutil.copy(f"{GLTF}/{name}", f"{out}/{name}")
        os.link(f"{out}/BoxTextured0.bin", f"{out}/bin.json")
        refused(a.binary, out, [f"{out}/BoxTextured.gltf", "--stats", f"{out}/bin.json", "-o",
                                f"{out}/a.png"], f"{out}/bin.json", "glTF buffer or image",
                f"{out}/BoxTextured0.bin")
        refused(a.binary, out, [f"{out}/BoxTextured.gltf", "-o", f"{out}/CesiumLogoFlat.png"],
                f"{out}/CesiumLogoFlat.png", "glTF buffer or image", f"{out}/CesiumLogoFlat.png")
    # The checkpoint resumed may not become the image; it may become the next checkpoint.
    first = subprocess.run([a.binary, f"{out}/scene.json", "-o", f"{out}/first.pfm",
                            "--checkpoint", "1"] + COMMON, capture_output=True, text=True)
    if first.returncode != 0:
        fail(f"the render that writes a checkpoint exited {first.returncode}", first.stdout,
             first.stderr)
    shutil.copy(f"{out}/first.pfm.checkpoint", f"{out}/resume.pfm")
    refused(a.binary, out, [f"{out}/scene.json", "--resume", f"{out}/resume.pfm", "-o",
                            f"{out}/resume.pfm"], f"{out}/resume.pfm", "checkpoint",
            f"{out}/resume.pfm")
    again = subprocess.run([a.binary, f"{out}/scene.json", "--resume",
                            f"{out}/first.pfm.checkpoint", "-o", f"{out}/first.pfm",
                            "--checkpoint", "1"] + COMMON, capture_output=True, text=True)
    if again.returncode != 0:
        fail(f"resuming into the same checkpoint exited {again.returncode}", again.stdout,
             again.stderr)
    print("outputs_not_inputs_test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

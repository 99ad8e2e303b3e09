#!/usr/bin/env python3
"""A render killed by SIGTERM at random points three times and resumed from its checkpoint each
time gives the uninterrupted render's image, within the summation tolerance of the render tests
(relative 1e-5, absolute 1e-6: the same samples, added in another order). Each stop must exit
143 and leave the image so far and a checkpoint; the pieces run with different schedules (a
checkpoint of one resumes in another). Then checkpoints of another render are refused: exit 2,
one line naming the file and the difference, no image written.

  resume_test.py --binary build/raystream --out DIR [--device cpu|gpu] [--devices all] [--seed N]

Exit 77 (skipped) with --device gpu where raystream finds no CUDA device."""
import argparse
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time

SCENE = "scenes/cornell.json"
# Long enough that each of three kills, up to a second after the start, lands mid-render. An
# instrumented build (scripts/asan.sh) renders many times slower and sets RAYSTREAM_TEST_RESUME_SPP
# lower, to the same length.
SPP = os.environ.get("RAYSTREAM_TEST_RESUME_SPP", "3000")
SIZE = {"cpu": "48x48", "gpu": "2048x1536"}


def read_pfm(path):
    with open(path, "rb") as f:
        data = f.read()
    header = []
    pos = 0
    while len(header) < 3:
        end = data.index(b"\n", pos)
        header.append(data[pos:end].decode())
        pos = end + 1
    if header[0] != "PF":
        sys.exit(f"{path}: not a colour PFM")
    width, height = (int(v) for v in header[1].split())
    values = struct.unpack(f"<{3 * width * height}f", data[pos:pos + 12 * width * height])
    return width, height, values


def run(binary, args, kill_after=None):
    """Runs raystream; with kill_after, sends SIGTERM after that many seconds."""
    proc = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def fail(message, out="", err=""):
    print(f"FAILED: {message}\n--- stdout\n{out[-3000:]}\n--- stderr\n{err[-3000:]}")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--device", default="cpu", choices=sorted(SIZE))
    parser.add_argument("--devices", help="raystream's --devices (all: a share per GPU)")
    parser.add_argument("--seed", type=int, default=None)
    a = parser.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    print(f"resume_test: random seed {seed} (--seed {seed} repeats this run)")
    rng = random.Random(seed)
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    size = SIZE[a.device]
    common = [SCENE, "--device", a.device, "--resolution", size, "--spp", SPP, "--quiet"]
    if a.devices:
        common += ["--devices", a.devices]

    reference = os.path.join(a.out, "reference.pfm")
    code, out, err = run(a.binary, common + ["-o", reference])
    if a.device == "gpu" and "no usable CUDA device" in err:
        print("resume_test skipped: no usable CUDA device")
        return 77
    if code != 0:
        fail(f"the uninterrupted render exited {code}", out, err)

    image = os.path.join(a.out, "killed.pfm")
    checkpoint = image + ".checkpoint"
    schedules = ["stream", "frame", "stream", "megakernel"]
    kills = 0
    for piece, schedule in enumerate(schedules):
        args = common + ["-o", image, "--schedule", schedule]
        if piece > 0:
            args += ["--resume", checkpoint]
        last = piece == len(schedules) - 1
        after = None if last else rng.uniform(0.2, 1.0)
        code, out, err = run(a.binary, args, after)
        # A signal that lands before main() runs (the process still loading its libraries, on a
        # busy machine) ends it by the default action, and one that lands before the first
        # sample (the scene still loading, the GPU's context still being made) ends it writing
        # nothing: no render has started, nothing to test. That piece runs again with a later
        # kill; one that a started render ignored fails.
        retries = 0
        while (code == -signal.SIGTERM or (code == 143 and "before the first sample" in err)) \
                and retries < 4:
            retries += 1
            after += 0.5
            print(f"piece {piece} ({schedule}): killed before it started; again, {after} s")
            code, out, err = run(a.binary, args, after)
        print(f"piece {piece} ({schedule}): killed after {after} s, exit {code}")
        if code == 143:
            kills += 1
            if not os.path.exists(image) or not os.path.exists(checkpoint):
                fail("a render stopped by SIGTERM left no image or no checkpoint", out, err)
            if "stopped by signal" not in out:
                fail("the report does not say the render stopped", out, err)
        elif code != 0:
            fail(f"piece {piece} exited {code}", out, err)
        elif not last:
            fail(f"piece {piece} finished before its kill: make the render longer", out, err)
    if kills != 3:
        fail(f"{kills} kills landed, expected 3")

    w, h, ref = read_pfm(reference)
    w2, h2, got = read_pfm(image)
    if (w, h) != (w2, h2):
        fail(f"sizes differ: {w}x{h} and {w2}x{h2}")
    worst = 0.0
    for k, (x, y) in enumerate(zip(got, ref)):
        allowed = max(1e-6, 1e-5 * max(abs(x), abs(y)))
        if abs(x - y) > allowed:
            fail(f"value {k} (pixel {k // 3}, channel {k % 3}): {x} resumed vs {y} uninterrupted")
        worst = max(worst, abs(x - y) / max(abs(y), 1e-6))
    print(f"resumed image equals the uninterrupted one (largest relative difference {worst:.2e})")

    # Checkpoints of another render: refused before rendering, one line, no image.
    refused = os.path.join(a.out, "refused.pfm")
    cases = [
        (["--seed", "1"], "a checkpoint of seed 0 (this render's is 1)"),
        (["--resolution", "32x32"],
         f"a checkpoint of width {size.split('x')[0]} (this render's is 32)"),
        (["--spp", "10"], f"a checkpoint of --spp {SPP} (this render's is 10)"),
        (["--depth", "3"], "a checkpoint of depth 8 (this render's is 3)"),
        (["--integrator", "bsdf"], "a checkpoint of --integrator path (this render's is bsdf)"),
    ]
    for extra, expected in cases:
        args = list(common)
        if extra[0] in args:  # an option of the render, given another value
            args[args.index(extra[0]) + 1] = extra[1]
        else:
            args += extra
        code, out, err = run(a.binary, args + ["-o", refused, "--resume", checkpoint])
        line = f"raystream: error: {checkpoint}: {expected}; it resumes only the render that wrote it\n"
        if code != 2 or err != line or os.path.exists(refused):
            fail(f"{extra}: expected exit 2 and '{line.strip()}'", out, err)
    other = ["scenes/cornell_spheres.json"] + common[1:]
    code, out, err = run(a.binary, other + ["-o", refused, "--resume", checkpoint])
    if code != 2 or f"{checkpoint}: a checkpoint of another scene (written for {SCENE})" not in err \
            or os.path.exists(refused):
        fail("another scene's checkpoint was not refused", out, err)
    # Not a checkpoint, and a truncated one.
    for name, data in [("image.checkpoint", open(reference, "rb").read()),
                       ("cut.checkpoint", open(checkpoint, "rb").read()[:-100])]:
        bad = os.path.join(a.out, name)
        with open(bad, "wb") as f:
            f.write(data)
        code, out, err = run(a.binary, common + ["-o", refused, "--resume", bad])
        want = "not a raystream checkpoint" if name == "image.checkpoint" else "corrupt checkpoint"
        if code != 2 or f"error: {bad}: {want}" not in err or err.count("\n") != 1:
            fail(f"{name}: expected exit 2 and '{want}'", out, err)
    print("checkpoints of other renders are refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())

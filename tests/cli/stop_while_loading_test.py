#!/usr/bin/env python3
"""A stop signal that comes while raystream loads its scene or builds the BVH stops it promptly
and leaves every existing file as it was: exit 130 (SIGINT) or 143 (SIGTERM), one line on stderr,
the image that was there before untouched, no checkpoint, no statistics, no temporary file.
(It used to wait for the load and the BVH to end, then replace the image with a black one of 0
samples and write a 0-sample checkpoint.)

  stop_while_loading_test.py --binary build/raystream --out DIR

A render of scenes/bunnies_1m.json (1M triangles) on the CPU first measures the start-up phases;
SIGINT then lands halfway through the scene load and SIGTERM halfway through the BVH build. A
signal that lands before raystream installs its handlers (the process still starting) or after
the first sample (a fast machine) is sent again later or earlier."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

SCENE = "scenes/bunnies_1m.json"
COMMON = ["--device", "cpu", "--resolution", "160x120", "--bvh", "sah"]
ARGS = COMMON + ["--spp", "4"]
# A stop polled between steps and in the long loops: well within this (the load takes seconds).
PROMPT_S = 3.0


def fail(message, err=""):
    print(f"FAILED: {message}\n--- stderr\n{err[-3000:]}")
    sys.exit(1)


def stop_once(binary, out, sig, delay):
    """Starts a render over out/keep.png, sends `sig` after `delay` s. Returns (outcome, err,
    latency): 'early' (a stop before main, no handler yet), 'late' (after the first sample),
    'stopped' (before the first sample)."""
    image = os.path.join(out, "keep.png")
    stats = os.path.join(out, "stats.json")
    before = open(image, "rb").read()
    proc = subprocess.Popen([binary, SCENE] + ARGS + ["-o", image, "--stats", stats],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=600)
    latency = time.monotonic() - sent
    err = err.decode(errors="replace")
    if proc.returncode == -sig:
        return "early", err, latency
    if os.path.exists(stats):
        samples = json.load(open(stats))["samples"]
        if samples > 0:
            # It rendered before the signal: put the image back and try earlier.
            open(image, "wb").write(before)
            for name in ("stats.json", "keep.png.checkpoint"):
                if os.path.exists(os.path.join(out, name)):
                    os.remove(os.path.join(out, name))
            return "late", err, latency
        fail(f"a stop before the first sample wrote the statistics (and the image) of "
             f"{samples} samples", err)
    name = signal.Signals(sig).name
    if proc.returncode != 128 + sig:
        fail(f"{name} after {delay:.2f} s: exit {proc.returncode}, expected {128 + sig}", err)
    expected = f"raystream: stopped by {name} before the first sample; nothing written\n"
    if err != expected:
        fail(f"{name}: stderr is not the one line {expected!r}", err)
    if open(image, "rb").read() != before:
        fail(f"{name}: the existing image was changed", err)
    left = sorted(set(os.listdir(out)) - {"keep.png"})
    if left:
        fail(f"{name}: files written: {left}", err)
    if latency > PROMPT_S:
        fail(f"{name}: exited {latency:.2f} s after the signal (at most {PROMPT_S} s)", err)
    return "stopped", err, latency


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    a = parser.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)

    reference = os.path.join(a.out, "reference")
    os.makedirs(reference)
    started = time.monotonic()
    code = subprocess.run([a.binary, SCENE] + COMMON + ["--spp", "1", "--quiet", "-o",
                           os.path.join(reference, "r.png"), "--stats",
                           os.path.join(reference, "r.json")],
                          capture_output=True).returncode
    if code != 0:
        fail(f"the reference render exited {code}")
    wall = time.monotonic() - started
    phases = json.load(open(os.path.join(reference, "r.json")))["startup_ms"]
    scene_s = phases["scene"] / 1000.0
    bvh_start_s = scene_s + phases["prepare"] / 1000.0
    bvh_s = phases["bvh"] / 1000.0
    print(f"reference: {wall:.2f} s in all; scene load {scene_s:.2f} s, BVH {bvh_s:.2f} s")
    shutil.rmtree(reference)

    # An image the stop must leave alone.
    open(os.path.join(a.out, "keep.png"), "wb").write(b"\x89PNG an existing image\n")
    for sig, delay in [(signal.SIGINT, scene_s / 2), (signal.SIGTERM, bvh_start_s + bvh_s / 2)]:
        delay = max(delay, 0.05)
        for attempt in range(8):
            outcome, err, latency = stop_once(a.binary, a.out, sig, delay)
            print(f"{signal.Signals(sig).name} after {delay:.2f} s: {outcome} "
                  f"({latency:.2f} s to exit)")
            if outcome == "stopped":
                break
            delay = delay + 0.1 if outcome == "early" else delay * 0.6
        else:
            fail(f"{signal.Signals(sig).name}: no signal landed during the load in 8 tries", err)
    print("stop_while_loading_test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The faults a user meets, on the CPU executor, one case per run (docs/robustness.md):

  faults_test.py --binary build/raystream --out DIR --case NAME

  checkpoint_disk_full   a full disk (a 1 MiB tmpfs) with --checkpoint, alone and stopped by
                         SIGINT: the image is written, the checkpoint's failure is a warning
  checkpoint_immutable   an out.png.checkpoint that cannot be replaced (chattr +i): the same
  output_immutable       an image that cannot be replaced (chattr +i) is refused before the render
  memory_cap             under a cap on the address space (ulimit -v), a 2048x2048 render with the
                         four AOVs and --checkpoint writes both (the checkpoint is streamed); a cap
                         too small for the film is a message naming the memory, never bad_alloc
  denoise_stop           SIGTERM while --denoise filters: the unfiltered image and the checkpoint
                         are written and the run ends at once (exit 143)
  stale_temporaries      temporary files of a write whose process died are removed by the next run
                         of the same output; those of live processes and other outputs are not
  resume_layers          a checkpoint resumed without --aov keeps its layers, so a later --resume
                         with --aov goes on; one that never had them is refused saying so

Exit 77 (ctest's skip) where a case needs what this machine does not give: root for tmpfs and
chattr, a file system with immutable files, a build without the sanitizers for the memory cap."""
import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77
TINY = "tests/data/tiny.json"


def fail(message, err=""):
    print(f"FAILED: {message}\n--- stderr\n{err[-3000:]}")
    sys.exit(1)


def skip(why):
    print(f"skipped: {why}")
    sys.exit(SKIP)


def run(binary, args, timeout=600, **kwargs):
    p = subprocess.run([binary] + args, capture_output=True, timeout=timeout, **kwargs)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def leftovers(folder):
    return [n for n in os.listdir(folder) if ".tmp-" in n]


def need_root():
    if os.geteuid() != 0:
        skip("needs root")


def chattr(flag, path):
    if shutil.which("chattr") is None:
        skip("no chattr")
    if subprocess.run(["chattr", flag, path], capture_output=True).returncode != 0:
        skip(f"chattr {flag} is not supported here ({path})")


def checkpoint_disk_full(binary, out):
    need_root()
    disk = os.path.join(out, "disk")
    os.makedirs(disk)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk],
                      capture_output=True).returncode != 0:
        skip("cannot mount a tmpfs")
    try:
        image = os.path.join(disk, "a.png")
        args = ["scenes/cornell.json", "--device", "cpu", "--resolution", "320x240", "-o", image,
                "--checkpoint", "1", "--quiet"]
        code, _, err = run(binary, args + ["--spp", "2"])
        if code != 0 or not is_png(image):
            fail(f"a full disk for the checkpoint: exit {code}, image written: "
                 f"{os.path.exists(image)}", err)
        if "checkpoint not written" not in err:
            fail("no warning that the checkpoint was not written", err)
        os.remove(image)
        # Stopped by SIGINT: the image so far is written, the checkpoint warns.
        proc = subprocess.Popen([binary] + args + ["--spp", "100000"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        time.sleep(3.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        err = err.decode(errors="replace")
        if proc.returncode != 130 or not is_png(image):
            fail(f"SIGINT on a full disk: exit {proc.returncode}, image written: "
                 f"{os.path.exists(image)}", err)
        if leftovers(disk):
            fail(f"temporary files left: {leftovers(disk)}", err)
    finally:
        subprocess.run(["umount", disk])
    print("checkpoint_disk_full: passed")


def checkpoint_immutable(binary, out):
    need_root()
    image = os.path.join(out, "out.png")
    checkpoint = image + ".checkpoint"
    open(checkpoint, "wb").write(b"an old checkpoint")
    chattr("+i", checkpoint)
    try:
        code, _, err = run(binary, [TINY, "--device", "cpu", "--spp", "2", "--checkpoint", "60",
                                    "-o", image, "--quiet"])
    finally:
        subprocess.run(["chattr", "-i", checkpoint])
    if code != 0 or not is_png(image):
        fail(f"an immutable checkpoint: exit {code}, image written: {os.path.exists(image)}", err)
    if "checkpoint not written" not in err or "immutable" not in err:
        fail("no warning naming the immutable checkpoint", err)
    if open(checkpoint, "rb").read() != b"an old checkpoint":
        fail("the immutable checkpoint changed", err)
    print("checkpoint_immutable: passed")


def output_immutable(binary, out):
    need_root()
    image = os.path.join(out, "out.png")
    open(image, "wb").write(b"an old image")
    chattr("+i", image)
    try:
        started = time.monotonic()
        code, stdout, err = run(binary, [TINY, "--device", "cpu", "--spp", "1000000", "-o", image,
                                         "--quiet"], timeout=120)
        elapsed = time.monotonic() - started
    finally:
        subprocess.run(["chattr", "-i", image])
    if code != 1 or "immutable" not in err or "out.png" not in err:
        fail(f"an immutable image: exit {code} (expected 1, naming it before the render)", err)
    if "samples/s" in stdout or elapsed > 20:
        fail(f"it rendered before refusing ({elapsed:.1f} s)", err)
    print(f"output_immutable: passed ({elapsed:.2f} s)")


def capped(limit_bytes):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    return apply


def memory_cap(binary, out):
    if "ASAN_OPTIONS" in os.environ:
        skip("the sanitizers reserve more address space than the cap")
    image = os.path.join(out, "big.exr")
    args = [TINY, "--device", "cpu", "--spp", "1", "--resolution", "2048x2048", "--aov",
            "albedo,normal,depth,variance", "--checkpoint", "100", "-o", image, "--quiet"]
    env = dict(os.environ, OMP_NUM_THREADS="2")
    code, _, err = run(binary, args, preexec_fn=capped(1_200_000_000), env=env)
    if code != 0 or not os.path.exists(image) or not os.path.exists(image + ".checkpoint"):
        fail(f"2048x2048 with AOVs and --checkpoint under 1.2 GB: exit {code}", err)
    # Too small a cap: the film cannot be had, and the message says what ran out.
    small = os.path.join(out, "small.exr")
    code, _, err = run(binary, args[:-3] + ["-o", small, "--quiet"],
                       preexec_fn=capped(350_000_000), env=env)
    if code != 1 or "memory" not in err or "bad_alloc" in err or os.path.exists(small):
        fail(f"a cap too small: exit {code}; expected 1, a message naming the memory and no image",
             err)
    print("memory_cap: passed")


def denoise_stop(binary, out):
    import json
    image = os.path.join(out, "d.png")
    stats = os.path.join(out, "d.json")
    # Under the sanitizers every pass is slower: a smaller image keeps the filter seconds long.
    side = 1536 if "ASAN_OPTIONS" in os.environ else 3072
    args = [TINY, "--device", "cpu", "--spp", "1", "--resolution", f"{side}x{side}", "--denoise",
            "-o", image, "--stats", stats, "--quiet"]
    code, _, err = run(binary, args)
    if code != 0:
        fail(f"the reference render exited {code}", err)
    reference = json.load(open(stats))
    full = reference["samples"]
    denoise_s = reference["denoise"]["ms"] / 1000.0
    before_s = (reference["elapsed_ms"] - reference["encode_ms"]) / 1000.0 - denoise_s
    print(f"reference: the denoiser took {denoise_s:.2f} s after {before_s:.2f} s")
    delay = before_s + denoise_s / 3
    for attempt in range(8):
        for name in os.listdir(out):
            os.remove(os.path.join(out, name))
        proc = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=300)
        latency = time.monotonic() - sent
        err = err.decode(errors="replace")
        if proc.returncode != 143:
            fail(f"SIGTERM after {delay:.2f} s: exit {proc.returncode}, expected 143", err)
        if not is_png(image) or not os.path.exists(image + ".checkpoint"):
            fail(f"SIGTERM after {delay:.2f} s: the image or the checkpoint is missing", err)
        samples = json.load(open(stats))["samples"]
        if samples == full and "the denoiser stopped at the signal" in err:
            if latency > max(3.0, denoise_s / 2):
                fail(f"the run ended {latency:.2f} s after the signal", err)
            print(f"denoise_stop: passed (SIGTERM after {delay:.2f} s, exit {latency:.2f} s later)")
            return
        # Landed during the render (fewer samples: the image is unfiltered, as it should be) or
        # after the filter: try later or earlier.
        delay = delay + denoise_s / 4 if samples < full else max(0.05, delay - denoise_s / 4)
        print(f"attempt {attempt}: {samples} of {full} samples; next after {delay:.2f} s")
    fail("no SIGTERM landed while the denoiser ran in 8 tries")


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def stale_temporaries(binary, out):
    image = os.path.join(out, "out.png")
    dead = dead_pid()
    stale = [f".out.png.tmp-{dead}-abcdef", f".out.png.checkpoint.tmp-{dead}-linked0"]
    kept = [f".out.png.tmp-{os.getpid()}-live01", f".other.png.tmp-{dead}-ghijkl",
            ".out.png.tmp-XXXXXX"]
    for name in stale + kept:
        open(os.path.join(out, name), "wb").write(b"partial")
    code, _, err = run(binary, [TINY, "--device", "cpu", "--spp", "1", "--checkpoint", "60", "-o",
                                image, "--quiet"])
    if code != 0:
        fail(f"exit {code}", err)
    left = sorted(leftovers(out))
    if left != sorted(kept):
        fail(f"temporary files left {left}; expected only {sorted(kept)}", err)
    print("stale_temporaries: passed")


def has_variance(exr):
    return b"variance.R" in open(exr, "rb").read(4096)


def resume_layers(binary, out):
    base = [TINY, "--device", "cpu", "--quiet"]
    a = os.path.join(out, "a.exr")
    code, _, err = run(binary, base + ["--spp", "4", "--aov", "variance", "-o", a,
                                       "--checkpoint", "60"])
    if code != 0 or not has_variance(a):
        fail(f"the first render exited {code}", err)
    b = os.path.join(out, "b.png")
    code, _, err = run(binary, base + ["--resume", a + ".checkpoint", "-o", b, "--checkpoint", "60"])
    if code != 0:
        fail(f"resumed without --aov: exit {code}", err)
    c = os.path.join(out, "c.exr")
    code, _, err = run(binary, base + ["--resume", b + ".checkpoint", "--aov", "variance", "-o", c])
    if code != 0 or not has_variance(c):
        fail(f"resumed again with --aov variance: exit {code} (its checkpoint dropped the layer?)",
             err)
    d = os.path.join(out, "d.png")
    code, _, err = run(binary, base + ["--spp", "4", "-o", d, "--checkpoint", "60"])
    e = os.path.join(out, "e.exr")
    code, _, err = run(binary, base + ["--resume", d + ".checkpoint", "--aov", "variance", "-o", e])
    if code != 2 or "has no variance layer" not in err or "written without" in err:
        fail(f"a checkpoint that never kept the layer, resumed with --aov variance: exit {code}",
             err)
    print("resume_layers: passed")


CASES = {f.__name__: f for f in (checkpoint_disk_full, checkpoint_immutable, output_immutable,
                                 memory_cap, denoise_stop, stale_temporaries, resume_layers)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    a = parser.parse_args()
    out = os.path.join(a.out, a.case)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    CASES[a.case](os.path.abspath(a.binary), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

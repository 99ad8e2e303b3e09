"""Running raystream and reading what it writes: the binaries of a build folder, one render with
its --stats JSON (the exit code checked, the wall and CPU time taken from outside), the stats
files, the scene files (with their // comments), and the one-line errors the scripts end with."""
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class ToolError(Exception):
    """A failure a script reports in one line and exits on: code 2 for a bad command line or
    input, 1 for a failed run."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def exit_on_error(tool, main, *args):
    """Runs main(*args) and turns a ToolError into `TOOL: error: MESSAGE` and its exit code."""
    try:
        return main(*args)
    except ToolError as e:
        print(f"{tool}: error: {e}", file=sys.stderr)
        return e.code


def binary(build, name="raystream"):
    """BUILD/NAME, which must be an executable file."""
    path = Path(build) / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise ToolError(f"{path}: no such binary (build it: cmake --build {build} --target {name})",
                        code=2)
    return path


def scene_path(name):
    """scenes/NAME.json of the repository, for a bare scene name; a path as it is."""
    if os.sep in name or name.endswith(".json") or name.endswith((".gltf", ".glb")):
        return Path(name)
    return ROOT / "scenes" / f"{name}.json"


def strip_json_comments(text):
    """The scene format allows // comments; remove them outside strings."""
    return re.sub(r'("(?:[^"\\]|\\.)*")|//[^\n]*', lambda m: m.group(1) or "", text)


def read_scene(path):
    """A JSON scene file as a dict."""
    try:
        return json.loads(strip_json_comments(Path(path).read_text()))
    except (OSError, ValueError) as e:
        raise ToolError(f"{path}: cannot read the scene ({e})", code=2)


def read_stats(path):
    """A --stats JSON file."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"{path}: cannot read the stats ({e})")


class Render:
    """One finished run of raystream: its stats (None without --stats), output, exit code and the
    times measured from outside (started: the clock's time at its start; wall: the process from
    start to exit, s; cpu: its user + system, s)."""

    def __init__(self, command, proc, stats, started, wall_s, cpu_s):
        self.command, self.stats, self.wall_s, self.cpu_s = command, stats, wall_s, cpu_s
        self.started = started  # time.time() at the start
        self.returncode, self.stdout, self.stderr = proc.returncode, proc.stdout, proc.stderr


def render(raystream, scene, options=(), stats=None, output=None, quiet=True, log=None,
           env=None, timeout=None, check=True, cwd=None):
    """Runs `raystream SCENE OPTIONS [--output OUTPUT] [--stats STATS] [--quiet]`. Writes its
    stdout and stderr to `log` when given; `env` adds to the environment. With check, an exit
    code other than 0 (or no stats file) raises a ToolError naming the command, with the end of
    its output (printed on stderr first); without, the Render says how it went (stats None)."""
    command = [str(raystream), str(scene)] + [str(o) for o in options]
    if output is not None:
        command += ["--output", str(output)]
    if stats is not None:
        command += ["--stats", str(stats)]
    if quiet:
        command.append("--quiet")
    before, started, start = os.times(), time.time(), time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env=None if env is None else {**os.environ, **env})
    except subprocess.TimeoutExpired:
        raise ToolError(f"timed out after {timeout} s: {' '.join(command)}")
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system -
                                                          before.children_system)
    if log is not None:
        Path(log).write_text(proc.stdout + proc.stderr)
    ok = proc.returncode == 0 and (stats is None or Path(stats).is_file())
    if not ok and check:
        tail = (proc.stdout[-2000:] + proc.stderr[-4000:]).rstrip()
        if tail:
            print(tail, file=sys.stderr)
        raise ToolError(f"exit code {proc.returncode}: {' '.join(command)}")
    data = read_stats(stats) if ok and stats is not None else None
    return Render(command, proc, data, started, wall, cpu)


def help_options(raystream, names):
    """Which of `names` (options such as --shade) the binary's --help lists: an older build may
    lack some."""
    text = subprocess.run([str(raystream), "--help"], capture_output=True, text=True).stdout
    return {name for name in names if name in text}

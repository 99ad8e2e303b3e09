"""What the benchmarks' command lines share: the build folder, the output folder."""
import tempfile
from pathlib import Path

from ..runs import ROOT, ToolError


def add_build(p, binaries="raystream"):
    p.add_argument("--build", default=str(ROOT / "build"),
                   help=f"the build folder, with {binaries} (default: build/)")


def add_out(p, default, what):
    """--out: `default` is a folder of the repository (renders/x), or None (then what the
    benchmark does without one is in `what`)."""
    p.add_argument("--out", default=str(ROOT / default) if default else None,
                   help=f"{what} (default: {default or 'none'})")


def out_folder(out, temporary_prefix=None):
    """The folder --out names, made if missing; None gives a new temporary folder (named by
    `temporary_prefix`). A file there, or a folder that cannot be made, is a bad command line."""
    if out is None:
        return Path(tempfile.mkdtemp(prefix=temporary_prefix))
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ToolError(f"--out {out}: not a folder", code=2)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ToolError(f"--out {out}: cannot create the folder ({e.strerror})", code=2)
    return folder

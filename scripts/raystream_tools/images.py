"""The image files the scripts read and write, in one place.

Read: PFM (what raystream writes with -o x.pfm: linear RGB float32, rows bottom to top),
Radiance HDR (RGBE, flat or run-length encoded; decoded with Radiance's rounding, +0.5 of a
mantissa step, which undoes the encoder's truncation) and OpenEXR (through the OpenEXR Python
binding, `pip install openexr`, with numpy). Write: PFM, flat Radiance HDR, EXR (32-bit float,
ZIP) and 8-bit RGB PNG. PFM, HDR and PNG need only the standard library.

An image in memory is an Image: width, height and linear RGB float32 samples, row 0 at the top,
as a flat array('f'); Image.to_numpy() views them as a height x width x 3 numpy array.
"""
import math
import os
import struct
import sys
import tempfile
import zlib
from array import array


class ImageError(Exception):
    """A file that cannot be read or written; the message names it."""


class MissingModule(ImageError):
    """An optional module (numpy, OpenEXR) is not installed; the message says how to get it."""


class Image:
    """Linear RGB: `data` holds width x height x 3 float32 samples, row 0 at the top."""

    def __init__(self, width, height, data):
        if len(data) != width * height * 3:
            raise ValueError(f"{len(data)} samples for a {width} x {height} RGB image")
        self.width, self.height, self.data = width, height, data

    def pixels(self):
        """Every pixel as an (r, g, b) tuple, row by row from the top."""
        d = self.data
        return list(zip(d[0::3], d[1::3], d[2::3]))

    def to_numpy(self):
        np = numpy_module()
        return np.frombuffer(self.data, dtype=np.float32).reshape(self.height, self.width, 3)

    @classmethod
    def from_numpy(cls, pixels):
        """From a height x width x 3 array (any float type)."""
        np = numpy_module()
        pixels = np.ascontiguousarray(pixels[..., :3], dtype=np.float32)
        height, width = pixels.shape[:2]
        data = array("f")
        data.frombytes(pixels.tobytes())
        return cls(width, height, data)


def numpy_module():
    try:
        import numpy
    except ImportError:
        raise MissingModule(f"numpy is not installed for {sys.executable}: pip install numpy")
    return numpy


def exr_module():
    try:
        import OpenEXR
    except ImportError:
        raise MissingModule(f"the OpenEXR Python binding is not installed for {sys.executable}: "
                            "pip install openexr")
    return OpenEXR


def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ImageError(f"{path}: cannot read ({e.strerror})")


def write_file(path, data):
    """Writes the bytes beside `path` and renames them over it: a failure leaves no half-written
    file."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=folder)
    except OSError as e:
        raise ImageError(f"{path}: cannot write ({e.strerror})")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except OSError as e:
        os.unlink(temporary)
        raise ImageError(f"{path}: cannot write ({e.strerror})")


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---- PFM ----------------------------------------------------------------------------------

def _pfm_header(data, path):
    """(magic, width, height, scale, offset of the samples): four whitespace-separated tokens and
    one whitespace byte."""
    tokens, pos = [], 0
    while len(tokens) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        if start == pos:
            raise ImageError(f"{path}: not a PFM image (its header ends early)")
        tokens.append(data[start:pos])
    magic = tokens[0]
    if magic not in (b"PF", b"Pf"):
        raise ImageError(f"{path}: not a PFM image (it starts {magic[:8]!r})")
    try:
        width, height, scale = int(tokens[1]), int(tokens[2]), float(tokens[3])
    except ValueError:
        raise ImageError(f"{path}: not a PFM image (a bad size or scale in its header)")
    if width < 1 or height < 1 or scale == 0 or not math.isfinite(scale):
        raise ImageError(f"{path}: not a PFM image ({width} x {height}, scale {scale})")
    return magic, width, height, scale, pos + 1


def read_pfm(path):
    """An RGB (PF) or grey (Pf, its value in R, G and B) PFM image."""
    data = _read_bytes(path)
    magic, width, height, scale, start = _pfm_header(data, path)
    channels = 3 if magic == b"PF" else 1
    size = width * height * channels
    if len(data) - start < 4 * size:
        raise ImageError(f"{path}: {len(data) - start} bytes of samples, a {width} x {height} "
                         f"PFM needs {4 * size}")
    samples = array("f")
    samples.frombytes(data[start:start + 4 * size])
    if (scale < 0) != (sys.byteorder == "little"):
        samples.byteswap()
    row = width * channels
    flipped = array("f")
    for y in range(height - 1, -1, -1):  # the file's rows go from the bottom up
        flipped.extend(samples[y * row:(y + 1) * row])
    if channels == 1:
        rgb = array("f", bytes(4 * width * height * 3))
        for c in range(3):
            rgb[c::3] = flipped
        flipped = rgb
    return Image(width, height, flipped)


def pfm_bytes(image):
    """Little-endian RGB PFM, as raystream writes it."""
    row = image.width * 3
    samples = array("f")
    for y in range(image.height - 1, -1, -1):
        samples.extend(image.data[y * row:(y + 1) * row])
    if sys.byteorder != "little":
        samples.byteswap()
    return b"PF\n%d %d\n-1.0\n" % (image.width, image.height) + samples.tobytes()


def write_pfm(path, image):
    write_file(path, pfm_bytes(image))


# ---- Radiance HDR -------------------------------------------------------------------------

def read_hdr(path):
    """A Radiance HDR image (RGBE, -Y H +X W), flat or with new-style run-length rows."""
    data = _read_bytes(path)
    if not data.startswith(b"#?"):
        raise ImageError(f"{path}: not a Radiance HDR image")
    try:
        end = data.index(b"\n\n")
        line_end = data.index(b"\n", end + 2)
        size = data[end + 2:line_end].split()
        if len(size) != 4 or size[0] != b"-Y" or size[2] != b"+X":
            raise ValueError
        height, width = int(size[1]), int(size[3])
    except ValueError:
        raise ImageError(f"{path}: not a Radiance HDR image of rows from the top (-Y H +X W)")
    pos = line_end + 1
    out = array("f")
    try:
        for _ in range(height):
            if (data[pos] == 2 and data[pos + 1] == 2
                    and (data[pos + 2] << 8 | data[pos + 3]) == width):
                pos += 4
                channels = []
                for _c in range(4):
                    row = bytearray()
                    while len(row) < width:
                        n = data[pos]
                        pos += 1
                        if n > 128:
                            row += bytes([data[pos]]) * (n - 128)
                            pos += 1
                        else:
                            row += data[pos:pos + n]
                            pos += n
                    channels.append(row)
                quads = zip(*channels)
            else:
                quads = [tuple(data[pos + 4 * x:pos + 4 * x + 4]) for x in range(width)]
                pos += 4 * width
            for r, g, b, e in quads:
                if e:
                    f = 2.0 ** (e - 136)
                    out.extend(((r + 0.5) * f, (g + 0.5) * f, (b + 0.5) * f))
                else:
                    out.extend((0.0, 0.0, 0.0))
    except (IndexError, ValueError):
        raise ImageError(f"{path}: the HDR image ends early")
    if len(out) != width * height * 3:
        raise ImageError(f"{path}: the HDR image ends early")
    return Image(width, height, out)


def rgbe(rgb):
    """Radiance's shared-exponent encoding of one non-negative linear RGB pixel."""
    v = max(rgb)
    if v < 1e-32:
        return bytes((0, 0, 0, 0))
    mantissa, exponent = math.frexp(v)
    scale = mantissa * 256.0 / v
    return bytes((min(255, int(rgb[0] * scale)), min(255, int(rgb[1] * scale)),
                  min(255, int(rgb[2] * scale)), exponent + 128))


def hdr_bytes(width, height, pixels, comments=()):
    """A flat (not run-length encoded) Radiance HDR file of `pixels`, (r, g, b) row by row from
    the top; `comments` become header lines '# ...'. stb_image reads it."""
    header = "#?RADIANCE\n" + "".join(f"# {c}\n" for c in comments)
    header += f"FORMAT=32-bit_rle_rgbe\n\n-Y {height} +X {width}\n"
    body = b"".join(rgbe(p) for p in pixels)
    if len(body) != 4 * width * height:
        raise ValueError(f"{len(body) // 4} pixels for a {width} x {height} image")
    # A flat file must not begin like a run-length-encoded row (2, 2, < 128): with RGBE's
    # normalised mantissas one of R, G, B is >= 128, so it cannot.
    assert not (body[0] == 2 and body[1] == 2 and body[2] < 128)
    return header.encode("ascii") + body


# ---- OpenEXR ------------------------------------------------------------------------------

def exr_channels(path):
    """{channel name: height x width float32 array} of an EXR file (the OpenEXR binding)."""
    OpenEXR = exr_module()
    np = numpy_module()
    if not os.path.isfile(path):
        raise ImageError(f"{path}: no such file")
    try:
        channels = OpenEXR.File(str(path), separate_channels=True).channels()
    except Exception as e:  # the binding raises plain exceptions for unreadable files
        raise ImageError(f"{path}: cannot read the EXR ({e})")
    return {name: np.asarray(c.pixels, dtype=np.float32) for name, c in channels.items()}


def rgb_of(channels, names):
    """The three named channels stacked into a height x width x 3 array, or None when one is
    missing."""
    np = numpy_module()
    if any(n not in channels for n in names):
        return None
    return np.ascontiguousarray(np.stack([channels[n] for n in names], axis=-1))


def read_exr(path, layer=""):
    """The R, G, B channels of a layer ('' for the beauty, 'noisy', 'albedo'...)."""
    prefix = layer + "." if layer else ""
    pixels = rgb_of(exr_channels(path), [prefix + c for c in "RGB"])
    if pixels is None:
        raise ImageError(f"{path}: no {prefix}R, {prefix}G, {prefix}B channels")
    return Image.from_numpy(pixels)


def write_exr(path, image):
    """32-bit float R, G, B, ZIP compressed, renamed into place once written."""
    OpenEXR = exr_module()
    np = numpy_module()
    pixels = image.to_numpy()
    header = {"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage}
    channels = {c: np.ascontiguousarray(pixels[..., k]) for k, c in enumerate("RGB")}
    temporary = f"{path}.partial.exr"
    try:
        OpenEXR.File(header, channels).write(str(temporary))
        os.replace(temporary, path)
    except Exception as e:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise ImageError(f"{path}: cannot write ({getattr(e, 'strerror', None) or e})")


# ---- PNG ----------------------------------------------------------------------------------

def _png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_bytes(width, height, rows):
    """An 8-bit RGB PNG of `rows` (height rows of 3 x width bytes each); the same bytes on every
    run (zlib level 9, no time stamp)."""
    raw = b"".join(b"\x00" + bytes(row) for row in rows)  # filter type 0 (none) per row
    if len(raw) != height * (1 + 3 * width):
        raise ValueError(f"rows of the wrong size for a {width} x {height} RGB image")
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) +
            _png_chunk(b"IDAT", zlib.compress(raw, 9)) + _png_chunk(b"IEND", b""))


# ---- any of them --------------------------------------------------------------------------

READERS = {".pfm": read_pfm, ".hdr": read_hdr, ".exr": read_exr}


def read_image(path, layer=""):
    """A .pfm, .hdr or .exr image by its name (`layer`: an EXR layer)."""
    extension = os.path.splitext(str(path))[1].lower()
    if extension not in READERS:
        raise ImageError(f"{path}: not a .pfm, .hdr or .exr image")
    return read_exr(path, layer) if extension == ".exr" else READERS[extension](path)


def write_image(path, image):
    """A .pfm, .hdr or .exr image by its name."""
    extension = os.path.splitext(str(path))[1].lower()
    if extension == ".pfm":
        write_pfm(path, image)
    elif extension == ".exr":
        write_exr(path, image)
    elif extension == ".hdr":
        write_file(path, hdr_bytes(image.width, image.height, image.pixels()))
    else:
        raise ImageError(f"{path}: name the image .pfm, .hdr or .exr")

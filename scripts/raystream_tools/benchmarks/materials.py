"""materials: samples/s of the textured PBR scenes in every schedule, from the --stats JSON.

    bench.py materials --build build-gpu [--out DIR] [--repeat N] [--spp N]

Renders the shipped scenes of glTF materials (helmet, alpha_modes, textured_emitter, engine) at
1280x720 with next-event estimation in the stream schedule (shade queues and one shade kernel),
the frame schedule and the megakernel, one after another on the same GPU. Each figure is the
median over --repeat renders of samples / total_ms. Writes DIR/materials.csv and prints a table
with each scene's stream (queues) rate over its megakernel's; the texture memory comes from the
report's textures line (--stats textures.bytes over textures.texels).
"""
from .. import runs, tables
from . import common
from .wavefront import render

SUMMARY = "samples/s of the textured PBR scenes: stream (queues, single), frame, megakernel"
COLUMNS = ["scene", "schedule", "shade", "samples_per_s", "texture_bytes_per_texel", "device"]
SCENES = ("helmet", "alpha_modes", "textured_emitter", "engine")
SCHEDULES = (("stream", "queues"), ("stream", "single"), ("frame", "single"),
             ("megakernel", ""))


def add_arguments(p):
    common.add_build(p)
    common.add_out(p, None, "the folder of materials.csv; without it no CSV")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--spp", type=int, default=64)
    p.add_argument("--timeout", type=int, default=300)


def run(args, argv):
    binary = runs.binary(args.build, "raystream")
    rows = []
    for scene in SCENES:
        for schedule, shade in SCHEDULES:
            extra = ["--shade", shade] if shade else []
            rates, stats, error = [], None, ""
            for _ in range(args.repeat):
                stats, rate = render(binary, scene, "1280x720", "8", str(args.spp), schedule,
                                     "path", extra, args.timeout)
                if stats is None:
                    error = rate
                    break
                rates.append(rate)
            textures = (stats or {}).get("textures", {})
            per_texel = (f"{textures['bytes'] / textures['texels']:.2f}"
                         if textures.get("texels") else "")
            rows.append({"scene": scene, "schedule": schedule, "shade": shade,
                         "samples_per_s": f"{tables.median(rates):.4g}" if rates else error,
                         "texture_bytes_per_texel": per_texel,
                         "device": (stats or {}).get("device", "")})
            print(f"{scene:<18} {schedule:<10} {shade:<7} {rows[-1]['samples_per_s']:>10} "
                  f"{per_texel}", flush=True)
    if args.out:
        tables.write_csv(common.out_folder(args.out) / "materials.csv", COLUMNS, rows)
    print("\nstream (queues) over megakernel:")
    for scene in SCENES:
        rate = {(r["scene"], r["schedule"], r["shade"]): r["samples_per_s"] for r in rows}
        try:
            ratio = float(rate[(scene, "stream", "queues")]) / float(
                rate[(scene, "megakernel", "")])
            print(f"{scene:<18} {ratio:.2f}")
        except (KeyError, ValueError, ZeroDivisionError):
            print(f"{scene:<18} -")
    return 0

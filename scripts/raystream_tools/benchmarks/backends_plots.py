"""The backends benchmark's plots (matplotlib, imported only here)."""
from .backends_rows import BOTH, FIXED, STAGES, SWITCHES, find, stage_totals


def run_label(r):
    """A row's schedule and the switches that schedule leaves free, one per line."""
    return "\n".join([r["schedule"]] + [f"{name} {r[name]}" for name, _ in SWITCHES
                                        if name not in FIXED.get(r["schedule"], {})])


def make_plots(rows, stats_by_name, out_dir, gpu):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scenes = list(dict.fromkeys(r["scene"] for r in rows))
    colors = {"regenerate": "#8172b3", "intersect": "#4c72b0", "sort": "#dd8452",
              "shade": "#55a868", "compact": "#c44e52", "other": "#b0b0b0"}
    written = []
    device = rows[0]["device"]
    cols = min(3, len(scenes))
    nrows = (len(scenes) + cols - 1) // cols

    def panels(width, height):
        fig, axes = plt.subplots(nrows, cols, figsize=(width * cols, height * nrows),
                                 squeeze=False)
        for k in range(len(scenes), nrows * cols):
            axes[k // cols][k % cols].set_visible(False)
        return fig, [axes[k // cols][k % cols] for k in range(len(scenes))]

    def save(fig, name, title):
        fig.suptitle(f"{title}, {device}", fontsize=10)
        fig.tight_layout()
        written.append(out_dir / f"{gpu}-{name}.png")
        fig.savefig(written[-1], dpi=110)
        plt.close(fig)

    # 1. Samples/s per schedule and setting, own and Thrust side by side, one panel per scene.
    fig, axes = panels(5.2, 3.8)
    for ax, scene in zip(axes, scenes):
        mine = [r for r in rows if r["scene"] == scene]
        settings = list(dict.fromkeys(run_label(r) for r in mine))
        width = 0.8 / len(BOTH)
        for j, backend in enumerate(BOTH):
            bars = [(settings.index(run_label(r)), r["samples_per_s"] / 1e6) for r in mine
                    if r["backend"] == backend]
            if bars:
                xs, values = zip(*bars)
                drawn = ax.bar([x + (j - (len(BOTH) - 1) / 2) * width for x in xs], values, width,
                               label=backend)
                ax.bar_label(drawn, fmt="%.3g", fontsize=6)
        ax.set_xticks(range(len(settings)))
        ax.set_xticklabels(settings, fontsize=6)
        ax.set_ylabel("Msamples/s")
        ax.set_title(scene, fontsize=10)
    axes[0].legend(fontsize=8)
    save(fig, "samples", "Samples per second per schedule, setting and backend")

    # 2. Where the time goes: stage ms per spp, stacked, every render of a scene; "other" is the
    # render time no stage accounts for (all of it for the megakernel, which has no stages).
    fig, axes = panels(1.2 + 0.5 * max(sum(r["scene"] == s for r in rows) for s in scenes), 4.0)
    for ax, scene in zip(axes, scenes):
        mine = [r for r in rows if r["scene"] == scene]
        bottom = [0.0] * len(mine)
        stages = [{s: ms / r["spp"] for s, ms in
                   (stage_totals(stats_by_name[r["stats_file"]]) or {}).items()} for r in mine]
        for s in STAGES + ("other",):
            values = [max(0.0, r["ms_per_spp"] - sum(t.values())) if s == "other"
                      else t.get(s, 0.0) for r, t in zip(mine, stages)]
            ax.bar(range(len(mine)), values, bottom=bottom, color=colors[s], label=s)
            bottom = [a + v for a, v in zip(bottom, values)]
        ax.set_xticks(range(len(mine)))
        ax.set_xticklabels([f"{run_label(r)}\n{r['backend']}" for r in mine], fontsize=5)
        ax.set_ylabel("ms per spp")
        ax.set_title(scene, fontsize=10)
    axes[0].legend(fontsize=7)
    save(fig, "stages", "Time per stage per schedule and setting")

    # 3. Live paths entering each depth, as a share of the pixels (own, sort off; the frame
    # schedule with compaction, else stream): the open and the closed scene stand out.
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for scene in scenes:
        r = (find(rows, scene=scene, schedule="frame", backend="own", compact="on", sort="off")
             or find(rows, scene=scene, schedule="stream", backend="own", sort="off"))
        s = stats_by_name.get(r["stats_file"]) if r else None
        if not s or not s["bounces"]:
            continue
        xs = [b["bounce"] for b in s["bounces"]] + [len(s["bounces"])]
        ys = ([b["paths_in_per_frame"] for b in s["bounces"]]
              + [s["bounces"][-1]["paths_out_per_frame"]])
        pixels = s["width"] * s["height"]
        ax.plot(xs, [100.0 * y / pixels for y in ys], marker="o",
                linewidth=2.5 if scene in ("open", "closed_room") else 1.2, label=scene)
    ax.set_xlabel("depth (paths entering it; the last point: alive after the last bounce)")
    ax.set_ylabel("live paths, % of pixels per spp")
    ax.set_ylim(0, 105)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(f"Live paths per depth (own, sort off), {device}", fontsize=10)
    fig.tight_layout()
    written.append(out_dir / f"{gpu}-live-paths.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    # 4. The frame schedule's time per stage per bounce (compact on; sort on where rendered),
    # one panel per scene and backend. Stream waves mix depths: they have no per-bounce times.
    framed = [scene for scene in scenes if find(rows, scene=scene, schedule="frame")]
    if framed:
        fig, axes = plt.subplots(len(framed), len(BOTH), figsize=(11, 2.8 * len(framed)),
                                 squeeze=False)
        for i, scene in enumerate(framed):
            for j, backend in enumerate(BOTH):
                ax = axes[i][j]
                r = (find(rows, scene=scene, schedule="frame", backend=backend, compact="on",
                          sort="on")
                     or find(rows, scene=scene, schedule="frame", backend=backend, compact="on"))
                s = stats_by_name.get(r["stats_file"]) if r else None
                if not s or not s["bounces"]:
                    ax.set_visible(False)
                    continue
                bounces = [b["bounce"] for b in s["bounces"]]
                bottom = [0.0] * len(bounces)
                for stage in (stage for stage in STAGES if stage in s["bounces"][0]["ms"]):
                    values = [b["ms_per_frame"][stage] for b in s["bounces"]]
                    ax.bar(bounces, values, bottom=bottom, color=colors[stage], label=stage)
                    bottom = [a + v for a, v in zip(bottom, values)]
                ax.set_title(f"{scene}: {backend} (frame, compact on, sort {r['sort']})",
                             fontsize=9)
                ax.set_xlabel("bounce")
                ax.set_ylabel("ms per frame")
                ax.set_xticks(bounces)
            shown = [a for a in axes[i] if a.get_visible()]
            top = max((a.get_ylim()[1] for a in shown), default=None)
            for a in shown:
                a.set_ylim(0, top)
        axes[0][0].legend(fontsize=8)
        save(fig, "frame-bounces", "Frame schedule: time per stage per bounce")
    return written

"""The plot of a tuning run: every parameter's value after each batch, one panel each."""

from __future__ import annotations

from pathlib import Path

from ..plotting import pyplot, save
from .store import TuneRun


def parameter_plot(run: TuneRun, path: Path) -> Path:
    """Each parameter against the game pairs played, with its start and bounds marked."""
    plt = pyplot()
    count = len(run.params)
    fig, axes = plt.subplots(count, 1, figsize=(7, 2.2 * count + 0.6), squeeze=False)
    pairs = [0]
    for outcome in run.batches:
        pairs.append(pairs[-1] + outcome.pairs)
    for i, (param, ax) in enumerate(zip(run.params, axes[:, 0], strict=True)):
        values = [param.start] + [b.theta[i] for b in run.batches]
        ax.plot(pairs, values, marker="." if len(values) < 60 else None, color="tab:blue")
        ax.axhline(param.start, color="grey", linestyle=":", linewidth=1, label="start")
        for bound in (param.minimum, param.maximum):
            ax.axhline(bound, color="tab:red", linestyle="--", linewidth=0.8)
        ax.set_ylabel(param.name)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("game pairs played")
    axes[0, 0].set_title(f"SPSA run {run.id}: {run.bot} (dashed: bounds, dotted: start)")
    return save(fig, path)

"""The accelerator route in one prepared run: the JAX environment against pgx, and AlphaZero.

What it measures, on whatever device JAX finds first (a GPU when the machine has one):

- **the environment**: :class:`adjacency.jax.AdjacencyEnv` (8x8, 28 rounds) and pgx's
  Othello in the same harness as ``bench_vector_env.py`` (its :func:`pgx_harness`: random
  legal actions, ``--steps`` plies per jitted ``lax.scan`` of ``jit(vmap(step))``, games
  reset by ``init``, compiled before the clock starts), at every count of ``--boards``
  (default 1,024 to 65,536), each figure ``--seconds`` of **wall** time: on an
  accelerator the process mostly waits for the device, so plies per wall second is the
  figure; pgx's Othello is another game, the ratio says how the two harnessed games
  compare, not which code is better;
- **AlphaZero**: the example's jitted iteration (``examples/alphazero/alphazero_jax.py``:
  mctx self-play of ``games`` boards, then ``steps`` minibatches of Adam) at its default
  settings, iterations per wall second over ``--iterations`` after the first (compile)
  call, whose time is given apart.

Everything goes to ``--out`` as one JSON object with its provenance
(:func:`adjacency.system.provenance.provenance`: the code's commit and source hash,
Python, numpy and numba, the machine, the settings, when) plus the JAX stack's versions
(jax, jaxlib, pgx, mctx, optax), the device JAX used and the load average, so a figure in
the docs can name its commit, date and machine. ``--tiny`` is the same run shrunk to a
few milliseconds of work (8 boards, a 4x5 AlphaZero, everything compiled as the
example's ``--quick-compile`` does): the script's own test runs it on a CPU.

On a GPU machine, from a checkout with the ``jax`` extra (and JAX's CUDA wheels)::

    python benchmarks/bench_accelerator.py --out benchmarks/results/accelerator.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "alphazero" / "alphazero_jax.py"
BOARDS = (1024, 4096, 16384, 65536)
"""The batch sizes of the environment's figures (boards stepped at once)."""
JAX_STACK = ("jax", "jaxlib", "pgx", "mctx", "optax")
"""The libraries every figure here depends on beyond the provenance record's own."""
TINY_AZ = {
    "rows": 4, "cols": 5, "rounds": 3, "games": 8, "simulations": 8, "steps": 5,
    "minibatch": 16, "hidden": 16, "quick_compile": True,
}  # fmt: skip
"""``--tiny``'s AlphaZero: 4x5 boards, 6-ply games, eight at once (one cheap compile)."""


def load(path: Path, name: str) -> ModuleType:
    """The module of a script beside this one (or the example), loaded by path."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def environment(
    boards: list[int], seconds: float, steps: int, options: dict[str, Any] | None
) -> dict[str, Any]:
    """Both games in ``bench_vector_env.py``'s harness at every board count, wall-timed
    (compiled with XLA's compiler ``options``, if any); per count, plies per wall second
    of each and their ratio."""
    vector = load(HERE / "bench_vector_env.py", "bench_vector_env")
    vector.BUDGET_CLOCK["clock"] = time.monotonic
    rows: dict[str, Any] = {}
    for count in boards:
        ours = vector.jax_env(count, seconds, steps, options)
        othello = vector.pgx_othello(count, seconds, steps, options)
        rows[str(count)] = {
            "adjacency.jax": ours,
            "pgx othello": othello,
            "ratio (adjacency.jax / pgx othello, different games, same harness)": (
                None
                if ours is None or othello is None
                else round(ours["plies_per_wall_second"] / othello["plies_per_wall_second"], 2)
            ),
        }
    missing = sorted(set(vector.PGX_MISSING))
    return {"boards": rows, "steps_per_call": steps, "not_measured": missing or None}


def alphazero(az: ModuleType, iterations: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The example's (``az``) iteration at ``settings`` (the example's defaults
    otherwise): the first call's wall time (compile and run), then iterations per wall
    second over ``iterations`` more calls, and the self-play positions per second they
    make."""
    import jax

    config = replace(az.Config(), **settings)
    key, init_key = jax.random.split(jax.random.key(config.seed))
    params = az.init_params(config, init_key)
    iteration, optimizer = az.iteration_function(config)
    opt_state = optimizer.init(params)

    def once() -> None:
        nonlocal key, params, opt_state
        key, step_key = jax.random.split(key)
        params, opt_state, metrics = iteration(params, opt_state, step_key)
        jax.device_get(metrics)

    began = time.monotonic()
    once()
    first = time.monotonic() - began
    began = time.monotonic()
    for _ in range(iterations):
        once()
    wall = time.monotonic() - began
    plies = config.games * 2 * config.rounds * iterations
    return {
        "config": asdict(config),
        "first_call_seconds": round(first, 3),
        "iterations": iterations,
        "wall_seconds": round(wall, 3),
        "iterations_per_second": round(iterations / wall, 3),
        "self_play_positions_per_second": round(plies / wall),
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run, with its provenance (the module's docstring)."""
    import jax

    from adjacency.system.provenance import provenance, versions_of

    boards = [8] if args.tiny else [int(n) for n in args.boards.split(",")]
    seconds = 0.05 if args.tiny else args.seconds
    steps = 4 if args.tiny else args.steps
    settings = {
        "benchmark": Path(__file__).name,  # the keys of provenance_note.announce's record
        "arguments": args.argv,
        "boards": boards,
        "seconds": seconds,
        "steps": steps,
        "alphazero": TINY_AZ if args.tiny else {},
        "alphazero_iterations": args.iterations,
        "tiny": args.tiny,
    }
    device = jax.devices()[0]
    result: dict[str, Any] = {
        "provenance": provenance(settings, seeds={"harness": [1, 2], "alphazero": 1}),
        "jax_stack": versions_of(JAX_STACK),
        "device": {
            "name": str(device),
            "kind": device.device_kind,
            "platform": device.platform,
            "count": jax.device_count(),
        },
        "load_average": os.getloadavg(),
    }
    az = load(EXAMPLE, "alphazero_jax_bench")
    # --tiny compiles as the example's --quick-compile does (the figures are not the point)
    quick = az.QUICK_COMPILE if args.tiny else None
    result["environment"] = environment(boards, seconds, steps, quick)
    result["alphazero"] = alphazero(az, args.iterations, settings["alphazero"])
    return result


def main(argv: list[str] | None = None) -> int:
    """Measure and write ``--out`` (and print where); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    parser.add_argument(
        "--boards", default=",".join(map(str, BOARDS)), help="board counts, comma-separated"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="wall seconds a figure")
    parser.add_argument("--steps", type=int, default=64, help="plies per jitted call")
    parser.add_argument(
        "--iterations", type=int, default=5, help="AlphaZero iterations timed after the first"
    )
    parser.add_argument("--tiny", action="store_true", help="a few milliseconds of work (tests)")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no such folder")
    result = measure(args)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {result['device']['kind']} ({result['device']['platform']})")
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())

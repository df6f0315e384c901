"""AlphaZero on mctx: the example's JAX route, every iteration one jitted function.

The loop of ``alphazero.py`` (same pieces, same evaluation) written the way JAX work
does it, on :mod:`adjacency.jax` (pgx's ``Env`` API) and DeepMind's ``mctx``:

- **self-play**: ``--games`` boards at once; every ply, ``mctx.gumbel_muzero_policy``
  runs ``--simulations`` simulations on the whole batch, the environment itself as
  the model (its ``step`` is the recurrent function: AlphaZero's perfect model). Every
  game lasts exactly ``2 * rounds`` plies, so one ``lax.scan`` of that length plays
  whole games, with no resets. Each position is kept with the search's action weights
  and, from the final rewards, the result for its player;
- **the network**: plain JAX, ``planes -> relu -> relu -> (move logits, tanh value)``,
  trained by optax's Adam on the policy's cross-entropy plus the value's squared error;
- **one iteration = one jitted call** (self-play, then ``--steps`` minibatches), compiled
  once and run on CPU or an accelerator alike;
- **checkpoints**: after every iteration the parameters, Adam's state, the random key
  and a JSON record (every setting, ``--quick-compile`` included; the log; one
  provenance record per segment of the run: the code's commit and source hash, the
  libraries' versions, the machine and device, the seeds, the environment's version,
  the command, the iterations it trained) go to one ``.npz`` written atomically;
  ``--resume`` continues exactly, and refuses an option that differs from the run's
  (``run_record.py``);
- **evaluation**: the trained network as the evaluator of the package's ``mcts`` PUCT
  search, in colour-swapped pairs against ``--opponent`` scored by the arena's
  pentanomial SPRT: ``alphazero.py``'s :func:`evaluate`, with ``--eval-seed``.

Run from a checkout with the ``jax`` extra::

    python examples/alphazero/alphazero_jax.py --checkpoint az.npz --iterations 20
    python examples/alphazero/alphazero_jax.py --checkpoint az.npz --resume --iterations 0 \\
        --evaluate 100 --opponent engine:depth=1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax

from adjacency.jax import VERSION, AdjacencyEnv, State
from adjacency.ratings.stats import Sprt
from adjacency.system.provenance import versions_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_record import (  # beside this file
    RunMismatch,
    add_setting_options,
    new_segment,
    segments_of,
    settings_of,
)

LIBRARIES = ("jax", "jaxlib", "mctx", "optax")
"""The versions a checkpoint records beside the provenance record's own."""

Params = dict[str, jax.Array]


@dataclass(frozen=True)
class Config:
    """Every setting of a run (stored in the checkpoint; a resumed run keeps its own)."""

    rows: int = 6
    cols: int = 6
    rounds: int = 14
    simulations: int = 32
    games: int = 256
    """Self-play games per iteration (one batch of the search)."""
    hidden: int = 128
    learning_rate: float = 1e-3
    steps: int = 64
    """Training minibatches per iteration."""
    minibatch: int = 256
    seed: int = 1
    """Seeds the network's start and every iteration's key."""
    batch: int = 8
    c: float = 1.5
    """The evaluation's PUCT: leaves a batch and exploration constant (``mcts``'s)."""
    explore_plies: int = 0
    """Self-play's temperature schedule: the first ``explore_plies`` plies of every game
    play a move drawn from the search's improved policy (its action weights) at
    temperature 1, the later plies the search's own choice (Gumbel top-k: the policy's
    best after its noise, nearly temperature 0 once the policy is peaked). AlphaZero's
    schedule, so that the games keep differing once the network has settled on one line
    (without it every game starts from the one start position and, with a peaked policy,
    follows the same line: the ``distinct_games`` of the log falls to 1). 0: the
    search's choice throughout."""
    quick_compile: bool = False
    """Compile with :data:`QUICK_COMPILE`: XLA's lowest optimisation, a compile several
    times cheaper and slower code (for tiny runs and tests on a CPU). It changes the
    results (XLA's floating point differs), so it is a setting of the run."""


def init_params(config: Config, key: jax.Array) -> Params:
    """He-initialised weights of the two-layer perceptron and its heads."""
    size = config.rows * config.cols
    inputs, hidden = size * 4, config.hidden
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def normal(k: jax.Array, shape: tuple[int, int], scale: float) -> jax.Array:
        return jax.random.normal(k, shape) * scale

    return {
        "w1": normal(k1, (inputs, hidden), float(np.sqrt(2 / inputs))),
        "b1": jnp.zeros(hidden),
        "w2": normal(k2, (hidden, hidden), float(np.sqrt(2 / hidden))),
        "b2": jnp.zeros(hidden),
        "wp": normal(k3, (hidden, size), float(np.sqrt(1 / hidden)) * 0.1),
        "bp": jnp.zeros(size),
        "wv": normal(k4, (hidden, 1), float(np.sqrt(1 / hidden)) * 0.1),
        "bv": jnp.zeros(1),
    }


def forward(params: Params, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``(logits (n, size), values (n,))`` of a batch of observations."""
    x = planes.reshape(planes.shape[0], -1)
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    h = jax.nn.relu(h @ params["w2"] + params["b2"])
    return h @ params["wp"] + params["bp"], jnp.tanh(h @ params["wv"] + params["bv"])[:, 0]


def masked_logits(logits: jax.Array, mask: jax.Array) -> jax.Array:
    return jnp.where(mask, logits, jnp.finfo(logits.dtype).min)


QUICK_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
"""XLA's options for ``--quick-compile``: a compile several times cheaper, slower code (for
tiny runs and tests on a CPU, where compiling costs more than running)."""


def iteration_function(config: Config) -> Any:
    """The jitted ``(params, opt_state, key) -> (params, opt_state, metrics)`` of a config
    and its optimizer (compiled with :data:`QUICK_COMPILE` when ``config.quick_compile``);
    runs differing only in their seed share one compile."""
    return _iteration_function(replace(config, seed=0))


@cache
def _iteration_function(config: Config) -> Any:
    env = AdjacencyEnv(config.rows, config.cols, config.rounds)
    optimizer = optax.adam(config.learning_rate)
    games = config.games

    def recurrent_fn(
        params: Params, key: jax.Array, action: jax.Array, state: State
    ) -> tuple[mctx.RecurrentFnOutput, State]:
        del key
        player = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = forward(params, state.observation)
        reward = state.rewards[jnp.arange(games), player]
        over = state.terminated
        return mctx.RecurrentFnOutput(
            reward=reward,
            discount=jnp.where(over, 0.0, -1.0),
            prior_logits=masked_logits(logits, state.legal_action_mask),
            value=jnp.where(over, 0.0, value),
        ), state

    def ply(
        carry: tuple[Params, State], step: tuple[jax.Array, jax.Array]
    ) -> tuple[tuple[Params, State], dict[str, jax.Array]]:
        params, state = carry
        key, index = step
        logits, value = forward(params, state.observation)
        root = mctx.RootFnOutput(
            prior_logits=masked_logits(logits, state.legal_action_mask),
            value=value,
            embedding=state,
        )
        out = mctx.gumbel_muzero_policy(
            params,
            key,
            root,
            recurrent_fn,
            num_simulations=config.simulations,
            invalid_actions=~state.legal_action_mask,
        )
        # the temperature schedule (Config.explore_plies): a move drawn from the improved
        # policy early in the game, the search's choice later; fold_in leaves the search's
        # key as it was, so a run without exploration is the run it always was
        weights = jnp.where(state.legal_action_mask, out.action_weights, 0.0)
        drawn = jax.random.categorical(
            jax.random.fold_in(key, 1), jnp.where(weights > 0, jnp.log(weights), -jnp.inf)
        )
        action = jnp.where(index < config.explore_plies, drawn, out.action)
        seen = {
            "planes": state.observation,
            "mask": state.legal_action_mask,
            "pi": out.action_weights,
            "player": state.current_player,
            "action": action,
        }
        return (params, jax.vmap(env.step)(state, action)), seen

    def loss(params: Params, batch: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
        logits, value = forward(params, batch["planes"])
        log_p = jax.nn.log_softmax(masked_logits(logits, batch["mask"]))
        policy = -jnp.sum(batch["pi"] * jnp.where(batch["mask"], log_p, 0.0), axis=1).mean()
        value_loss = jnp.mean((value - batch["z"]) ** 2)
        return policy + value_loss, jnp.stack([policy, value_loss])

    def train_step(
        carry: tuple[Params, Any, dict[str, jax.Array]], key: jax.Array
    ) -> tuple[tuple[Params, Any, dict[str, jax.Array]], jax.Array]:
        params, opt_state, data = carry
        rows = jax.random.randint(key, (config.minibatch,), 0, data["z"].shape[0])
        batch = jax.tree.map(lambda a: a[rows], data)
        grads, parts = jax.grad(loss, has_aux=True)(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state, data), parts

    def iteration(
        params: Params, opt_state: Any, key: jax.Array
    ) -> tuple[Params, Any, dict[str, jax.Array]]:
        start_key, play_key, train_key = jax.random.split(key, 3)
        start = jax.vmap(env.init)(jax.random.split(start_key, games))
        plies = jnp.arange(env.total_plies)
        (_, final), seen = jax.lax.scan(
            ply, (params, start), (jax.random.split(play_key, env.total_plies), plies)
        )
        # games that differ in any move: the games sorted by their moves (first ply first),
        # then the neighbours that differ
        order = jnp.lexsort(seen["action"][::-1])
        moves = seen["action"][:, order]
        distinct = 1 + jnp.sum(jnp.any(moves[:, 1:] != moves[:, :-1], axis=0))
        # the result of each ply's player, read from the finished games' rewards
        z = jnp.take_along_axis(final.rewards[None], seen["player"][..., None], axis=2)[..., 0]
        data = {
            "planes": seen["planes"].reshape(-1, *env.observation_shape),
            "mask": seen["mask"].reshape(-1, env.num_actions),
            "pi": seen["pi"].reshape(-1, env.num_actions),
            "z": z.reshape(-1),
        }
        (params, opt_state, _), parts = jax.lax.scan(
            train_step, (params, opt_state, data), jax.random.split(train_key, config.steps)
        )
        first_mover = final.rewards[jnp.arange(games), start.current_player]
        metrics = {
            "positions": jnp.int32(data["z"].shape[0]),
            "policy_loss": parts[-1, 0],
            "value_loss": parts[-1, 1],
            "first_mover_score": jnp.mean((first_mover + 1) / 2),
            "distinct_games": distinct,
        }
        return params, opt_state, metrics

    options = QUICK_COMPILE if config.quick_compile else None
    return jax.jit(iteration, compiler_options=options), optimizer


class JaxEvaluator:
    """The network as the ``mcts`` bot's evaluator (priors and values of a leaf batch)."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self._forward = jax.jit(forward)

    def __call__(self, leaves: Any) -> tuple[np.ndarray, np.ndarray]:
        logits, values = self._forward(self.params, jnp.asarray(leaves.planes))
        logits = np.asarray(masked_logits(logits, jnp.asarray(leaves.mask > 0)), np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        priors = np.exp(logits) * (leaves.mask > 0)
        priors /= priors.sum(axis=1, keepdims=True)
        return priors, np.asarray(values, np.float64)


# ------------------------------------------------------------------------ checkpoints


def save(path: Path, params: Params, opt_state: Any, key: jax.Array, meta: dict[str, Any]) -> None:
    """Parameters, Adam's state (its leaves in order), the key and ``meta``, atomically."""
    arrays = {f"param_{k}": np.asarray(v) for k, v in params.items()}
    arrays.update({f"opt_{i}": np.asarray(v) for i, v in enumerate(jax.tree.leaves(opt_state))})
    arrays["key"] = np.asarray(jax.random.key_data(key))
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as out:
        np.savez(out, meta=np.array(json.dumps(meta)), **arrays)
    os.replace(temporary, path)


def load(path: Path) -> tuple[Config, Params, Any, jax.Array, dict[str, Any]]:
    """The run saved by :func:`save` (its settings: :func:`recorded_config`)."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        config = recorded_config(meta)
        params = {k[len("param_") :]: jnp.asarray(data[k]) for k in data if k.startswith("param_")}
        _, optimizer = iteration_function(config)
        treedef = jax.tree.structure(optimizer.init(params))
        leaves = [jnp.asarray(data[f"opt_{i}"]) for i in range(treedef.num_leaves)]
        key = jax.random.wrap_key_data(jnp.asarray(data["key"]))
    return config, params, jax.tree.unflatten(treedef, leaves), key, meta


def recorded_config(meta: dict[str, Any]) -> Config:
    """The checkpoint's settings; :class:`RunMismatch` when it lacks one (a checkpoint
    written before that setting was recorded cannot be continued exactly)."""
    defaults = asdict(Config())
    nothing_given = argparse.Namespace(**dict.fromkeys(defaults))
    return Config(**settings_of(nothing_given, defaults, meta["config"]))


# ------------------------------------------------------------------------ the loop


def run(arguments: list[str] | None = None) -> dict[str, Any]:
    """The command line: train (and resume), then evaluate; returns the last log entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True, help="the run's .npz file")
    parser.add_argument("--resume", action="store_true", help="continue the saved run")
    parser.add_argument("--iterations", type=int, default=10, help="total iterations to reach")
    parser.add_argument(
        "--minutes", type=float, default=None, help="stop training after this much wall time"
    )
    parser.add_argument("--evaluate", type=int, default=0, help="pairs of evaluation games")
    parser.add_argument(
        "--eval-simulations", type=int, default=None, help="the evaluation's (default: the run's)"
    )
    parser.add_argument("--opponent", default=None, help="bot spec (default: mcts, same sims)")
    parser.add_argument("--elo1", type=float, default=50.0, help="the SPRT's H1 (H0: 0)")
    parser.add_argument("--eval-seed", type=int, default=0, help="the evaluation's openings")
    defaults = asdict(Config())
    add_setting_options(parser, defaults)
    args = parser.parse_args(arguments)
    if args.resume:
        if not args.checkpoint.is_file():
            parser.error(f"--resume: no checkpoint at {args.checkpoint}")
        try:
            config, params, opt_state, key, meta = load(args.checkpoint)
            settings_of(args, defaults, meta["config"])
        except RunMismatch as refused:
            parser.error(f"{args.checkpoint}: {refused}")
        iteration, _ = iteration_function(config)
    else:
        config = Config(**settings_of(args, defaults, None))
        key, init_key = jax.random.split(jax.random.key(config.seed))
        params = init_params(config, init_key)
        iteration, optimizer = iteration_function(config)
        opt_state = optimizer.init(params)
        meta = {"config": asdict(config), "iteration": 0, "seconds": 0.0, "log": []}
    segments = segments_of(meta)
    segment: dict[str, Any] | None = None
    command = [Path(__file__).name, *(sys.argv[1:] if arguments is None else arguments)]
    began_run = time.perf_counter()
    while meta["iteration"] < args.iterations:
        if args.minutes is not None and time.perf_counter() - began_run >= 60 * args.minutes:
            break
        key, step_key = jax.random.split(key)
        began = time.perf_counter()
        params, opt_state, metrics = iteration(params, opt_state, step_key)
        metrics = jax.device_get(metrics)
        meta["iteration"] += 1
        meta["seconds"] = round(meta["seconds"] + time.perf_counter() - began, 3)
        entry = {"iteration": meta["iteration"], "seconds": meta["seconds"]}
        entry.update({k: round(float(v), 5) for k, v in metrics.items()})
        meta["log"].append(entry)
        if segment is None:
            segment = new_segment(
                {**asdict(config), "environment": AdjacencyEnv.__name__, "env_version": VERSION},
                {"seed": config.seed},
                command,
                meta["iteration"],
                jax_libraries=versions_of(LIBRARIES),
                device=str(jax.devices()[0]),
                # not options, but they change XLA's arithmetic too: recorded, not checked
                xla_flags=os.environ.get("XLA_FLAGS", ""),
                x64=bool(jax.config.jax_enable_x64),
            )
            segments.append(segment)
        segment["iterations"][1] = meta["iteration"]
        save(args.checkpoint, params, opt_state, key, meta)
        print(json.dumps(entry), flush=True)
    last: dict[str, Any] = {"iteration": meta["iteration"], "seconds": meta["seconds"]}
    if args.evaluate:
        # the numpy route's evaluation (the package's bots; imported only to evaluate, so
        # that training needs JAX and the rules alone)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from alphazero import evaluate

        searched = replace(config, simulations=args.eval_simulations or config.simulations)
        opponent = args.opponent or f"mcts:simulations={searched.simulations}"
        began = time.process_time()
        result = evaluate(
            JaxEvaluator(params),  # type: ignore[arg-type]
            searched,  # type: ignore[arg-type]
            opponent,
            args.evaluate,
            Sprt(0.0, args.elo1),
            seed=args.eval_seed,
        )
        result["cpu_seconds"] = round(time.process_time() - began, 3)
        result["eval_seed"] = args.eval_seed
        result["simulations"] = searched.simulations
        last["evaluation"] = result
        print(json.dumps(last), flush=True)
    return last


if __name__ == "__main__":
    run(sys.argv[1:])

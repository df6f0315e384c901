"""AlphaZero in miniature: self-play with a network in the search, training, evaluation.

A laptop-CPU example of the loop of Silver et al. (2017, 2018) on the package's pieces:

- **self-play** on the batched environment (:class:`adjacency.rl.BatchedEnv`): every
  board's move is chosen by PUCT with this network as its evaluator
  (:class:`adjacency.bots.mcts_batched.BatchedSearch`, leaves evaluated in batches under
  virtual loss); each position is stored with the search's visit shares and, once its
  game ends, the result for its side to move;
- **the network**: a two-layer perceptron in numpy alone (input: the observation planes;
  heads: move logits over the squares and a tanh value), trained by Adam on the policy's
  cross-entropy plus the value's squared error, with the board's symmetries as extra data;
- **checkpoints**: after every iteration, the weights, Adam's moments, the replay buffer,
  the random state, the settings, the log and one provenance record per segment of the
  run (the code's commit and source hash, the libraries, the machine, the settings and
  the seed, the command, the iterations it trained) go to one ``.npz`` file (written
  atomically); ``--resume`` continues from it exactly as if never stopped, and refuses
  an option that differs from the run's (``run_record.py``);
- **evaluation**: colour-swapped pairs of games against a bot of the registry (by default
  plain ``mcts`` with the same simulations), scored by the arena's pentanomial SPRT
  (:class:`adjacency.ratings.stats.Sprt`) until it decides or the pairs run out; its
  openings are drawn from ``--eval-seed``.

``alphazero_jax.py`` beside it is the same loop on JAX and mctx (the ``jax`` extra).

Why numpy and not PyTorch: the network is small (tens of thousands of weights) and is
called on batches of 8 to 64 positions, where a framework's per-call overhead outweighs
its kernels on a CPU; numpy keeps the example inside the project's own dependencies. A
PyTorch or JAX model fits the same evaluator hook unchanged (docs/integrations.md).

Run from a checkout (``--help`` lists every setting)::

    python examples/alphazero/alphazero.py --checkpoint az.npz --iterations 20
    python examples/alphazero/alphazero.py --checkpoint az.npz --resume --iterations 30
    python examples/alphazero/alphazero.py --checkpoint az.npz --resume --iterations 0 \\
        --evaluate 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    # small matrices: BLAS threads would only spin (15x the CPU time measured); set before
    # numpy loads, so it holds when this file runs as a script
    os.environ.setdefault(_threads, "1")

import numpy as np  # noqa: E402

from adjacency import Position  # noqa: E402
from adjacency.bots import Limit, make_bot  # noqa: E402
from adjacency.bots.mcts import MctsBot  # noqa: E402
from adjacency.bots.mcts_batched import BatchedSearch, Leaves  # noqa: E402
from adjacency.bots.referee import play_game  # noqa: E402
from adjacency.ratings.stats import Sprt  # noqa: E402
from adjacency.rl import BatchedEnv  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_record import (  # noqa: E402 - beside this file
    RunMismatch,
    add_setting_options,
    new_segment,
    segments_of,
    settings_of,
)


@dataclass
class Config:
    """Every setting of a run (stored in the checkpoint; a resumed run keeps its own)."""

    rows: int = 6
    cols: int = 6
    rounds: int = 14
    simulations: int = 64
    batch: int = 8
    c: float = 1.5
    games: int = 32
    """Self-play games per iteration (the batched environment's boards)."""
    explore_plies: int = 8
    """Plies per game whose move is drawn from the visit shares (then the most visited)."""
    hidden: int = 128
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    steps: int = 200
    """Training minibatches per iteration."""
    minibatch: int = 128
    buffer: int = 50_000
    """Positions kept for training (the oldest go first)."""
    seed: int = 1


# ------------------------------------------------------------------------ the network


class Network:
    """``planes -> relu(W1) -> relu(W2) -> (move logits, tanh value)``, trained by Adam."""

    NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")

    def __init__(self, config: Config, rng: np.random.Generator) -> None:
        size = config.rows * config.cols
        inputs, hidden = size * 4, config.hidden
        self.config = config
        self.params: dict[str, np.ndarray] = {
            "w1": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, hidden)),
            "b2": np.zeros(hidden),
            "wp": rng.normal(0, np.sqrt(1 / hidden), (hidden, size)) * 0.1,
            "bp": np.zeros(size),
            "wv": rng.normal(0, np.sqrt(1 / hidden), (hidden, 1)) * 0.1,
            "bv": np.zeros(1),
        }
        self.moments = {f"{k}_{m}": np.zeros_like(v) for k, v in self.params.items() for m in "mv"}
        self.updates = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
        p = self.params
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        logits = h2 @ p["wp"] + p["bp"]
        value = np.tanh(h2 @ p["wv"] + p["bv"])[:, 0]
        return logits, value, (x, h1, h2)

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        """The evaluator: masked softmax priors and values for a batch of positions."""
        logits, value, _ = self.forward(leaves.planes.reshape(len(leaves), -1))
        return masked_softmax(logits, leaves.mask.astype(bool)), value

    def gradients(
        self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray
    ) -> tuple[float, float, dict[str, np.ndarray]]:
        """The mean losses on a minibatch (policy cross-entropy, value squared error) and
        the gradient of their sum with respect to every weight."""
        p, n = self.params, len(x)
        logits, value, (x, h1, h2) = self.forward(x)
        probs = masked_softmax(logits, mask)
        policy_loss = float(-np.sum(pi * np.log(probs + 1e-12)) / n)
        value_loss = float(np.mean((value - z) ** 2))
        d_logits = (probs - pi) / n
        d_value = (2.0 * (value - z) * (1.0 - value**2) / n)[:, None]
        grads = {
            "wp": h2.T @ d_logits,
            "bp": d_logits.sum(0),
            "wv": h2.T @ d_value,
            "bv": d_value.sum(0),
        }
        d_h2 = (d_logits @ p["wp"].T + d_value @ p["wv"].T) * (h2 > 0)
        grads["w2"], grads["b2"] = h1.T @ d_h2, d_h2.sum(0)
        d_h1 = (d_h2 @ p["w2"].T) * (h1 > 0)
        grads["w1"], grads["b1"] = x.T @ d_h1, d_h1.sum(0)
        return policy_loss, value_loss, grads

    def train_step(
        self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray
    ) -> tuple[float, float]:
        """One Adam step on a minibatch; returns (policy loss, value loss)."""
        policy_loss, value_loss, grads = self.gradients(x, mask, pi, z)
        self._adam(grads)
        return policy_loss, value_loss

    def _adam(self, grads: dict[str, np.ndarray], b1: float = 0.9, b2: float = 0.999) -> None:
        self.updates += 1
        rate = self.config.learning_rate
        for name, grad in grads.items():
            g = grad + self.config.weight_decay * self.params[name]
            m, v = self.moments[f"{name}_m"], self.moments[f"{name}_v"]
            m[:] = b1 * m + (1 - b1) * g
            v[:] = b2 * v + (1 - b2) * g * g
            m_hat = m / (1 - b1**self.updates)
            v_hat = v / (1 - b2**self.updates)
            self.params[name] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the legal entries of each row (0 elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    shares: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return shares


# ------------------------------------------------------------------------ self-play


@dataclass
class Buffer:
    """Training positions: planes (n, rows, cols, 4), masks, visit shares and results."""

    planes: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    pis: list[np.ndarray] = field(default_factory=list)
    zs: list[float] = field(default_factory=list)

    def trim(self, keep: int) -> None:
        for items in (self.planes, self.masks, self.pis, self.zs):
            del items[: max(0, len(items) - keep)]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (
            np.array(self.planes, dtype=np.float32),
            np.array(self.masks, dtype=bool),
            np.array(self.pis, dtype=np.float64),
            np.array(self.zs, dtype=np.float64),
        )


def symmetries(planes: np.ndarray, mask: np.ndarray, pi: np.ndarray) -> list[tuple[Any, ...]]:
    """The position's images under the board's symmetries (8 on a square board, 4 on
    others): the rules treat every square alike, so each image is a position of the game
    with the image of the same search result."""
    rows, cols = planes.shape[:2]
    grids = (planes, mask.reshape(rows, cols), pi.reshape(rows, cols))
    if rows == cols:
        maps = [(k, flip) for k in range(4) for flip in (False, True)]
        images = [
            [np.rot90(g, k).swapaxes(0, 1) if flip else np.rot90(g, k) for g in grids]
            for k, flip in maps
        ]
    else:
        images = [[g[::a, ::b] for g in grids] for a in (1, -1) for b in (1, -1)]
    return [(a.copy(), b.reshape(-1).copy(), c.reshape(-1).copy()) for a, b, c in images]


def self_play(net: Network, config: Config, rng: np.random.Generator, buffer: Buffer) -> int:
    """Play ``config.games`` games at once on the batched environment, add their positions
    to ``buffer``; returns the positions added (before symmetries)."""
    env = BatchedEnv(config.games, config.rows, config.cols, config.rounds)
    search = BatchedSearch(net, batch=config.batch, c=config.c, capacity=64 * 1024)
    board, total = env.board, env.total_plies
    histories: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = [
        [] for _ in range(config.games)
    ]
    actions = np.zeros(config.games, dtype=np.int64)
    for ply in range(total):
        planes, masks = env.observe()
        for i in range(config.games):
            search.run(
                board,
                int(env.mover[i]),
                int(env.opponent[i]),
                int(env.plies_left[i]),
                total,
                config.simulations,
            )
            squares, visits = search.root_visits()
            pi = np.zeros(board.size)
            pi[squares] = visits / visits.sum()
            if ply < config.explore_plies:
                actions[i] = rng.choice(board.size, p=pi)
            else:
                actions[i] = squares[int(np.argmax(visits))]
            histories[i].append((planes[i].copy(), masks[i].astype(bool), pi, int(env.turn[i])))
        result = env.step(actions)
    assert result.done.all()  # every game lasts exactly 2 * rounds plies
    added = 0
    for i in range(config.games):
        last_mover = 1 - int(env.final[i, 3])
        for planes_i, mask_i, pi_i, turn in histories[i]:
            z = float(result.reward[i]) if turn == last_mover else -float(result.reward[i])
            for image in symmetries(planes_i, mask_i, pi_i):
                buffer.planes.append(image[0])
                buffer.masks.append(image[1])
                buffer.pis.append(image[2])
                buffer.zs.append(z)
            added += 1
    buffer.trim(config.buffer)
    return added


def train(
    net: Network, config: Config, rng: np.random.Generator, buffer: Buffer
) -> dict[str, float]:
    """``config.steps`` minibatches drawn from the buffer; the mean losses."""
    planes, masks, pis, zs = buffer.arrays()
    x = planes.reshape(len(planes), -1)
    losses = []
    for _ in range(config.steps):
        pick = rng.integers(0, len(x), min(config.minibatch, len(x)))
        losses.append(net.train_step(x[pick], masks[pick], pis[pick], zs[pick]))
    policy, value = np.mean(losses, axis=0)
    return {"policy_loss": round(float(policy), 4), "value_loss": round(float(value), 4)}


# ------------------------------------------------------------------------ checkpoints


def save(
    path: Path, net: Network, buffer: Buffer, rng: np.random.Generator, state: dict[str, Any]
) -> None:
    """Everything a resumed run needs, in one ``.npz`` written atomically (uncompressed:
    compressing the buffer would cost more CPU than an iteration's training)."""
    planes, masks, pis, zs = buffer.arrays()
    meta = dict(state, config=asdict(net.config), updates=net.updates, rng=rng.bit_generator.state)
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as out:
        arrays: dict[str, Any] = {
            "meta": np.array(json.dumps(meta)),
            "buffer_planes": planes,
            "buffer_masks": masks,
            "buffer_pis": pis,
            "buffer_zs": zs,
            **net.params,
            **{f"adam_{k}": v for k, v in net.moments.items()},
        }
        np.savez(out, **arrays)
    os.replace(temporary, path)


def load(path: Path) -> tuple[Network, Buffer, np.random.Generator, dict[str, Any]]:
    """The run saved by :func:`save`."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        config = Config(**meta.pop("config"))
        rng = np.random.default_rng()
        rng.bit_generator.state = meta.pop("rng")
        net = Network(config, np.random.default_rng(0))
        net.params = {k: data[k].copy() for k in Network.NAMES}
        net.moments = {k: data[f"adam_{k}"].copy() for k in net.moments}
        net.updates = meta.pop("updates")
        buffer = Buffer(
            list(data["buffer_planes"]),
            list(data["buffer_masks"]),
            list(data["buffer_pis"]),
            [float(z) for z in data["buffer_zs"]],
        )
    return net, buffer, rng, meta


# ------------------------------------------------------------------------ evaluation


def evaluate(
    net: Network, config: Config, opponent: str, pairs: int, sprt: Sprt, seed: int = 0
) -> dict[str, Any]:
    """Colour-swapped pairs against ``opponent`` (each pair from one random opening of one
    move a side), the network's search with ``config.simulations``; stops when the SPRT
    decides. The pentanomial counts are of the network's pair scores 0, 0.5, 1, 1.5, 2."""
    rng = random.Random(seed)
    penta = [0] * 5
    wins = draws = losses = 0
    llr, verdict = 0.0, None
    mine = MctsBot(
        random.Random(seed),
        evaluator=net,
        batch=config.batch,
        c=config.c,
        simulations=config.simulations,
        tree=8,
    )
    theirs = make_bot(opponent, seed=seed + 1)
    for _ in range(pairs):
        opening = Position.start(config.rows, config.cols, config.rounds)
        for _ in range(2):
            opening = opening.play(rng.choice(opening.legal_squares()))
        score = 0.0
        for ours in ("x", "o"):
            x, o = (mine, theirs) if ours == "x" else (theirs, mine)
            record = play_game(x, o, opening, Limit(time=None))
            result = 1.0 if record.result == ours else 0.5 if record.result == "draw" else 0.0
            wins, draws, losses = (
                wins + (result == 1),
                draws + (result == 0.5),
                losses + (result == 0),
            )
            score += result
        penta[round(2 * score)] += 1
        llr = sprt.llr(penta)
        verdict = sprt.verdict(llr)
        if verdict is not None:
            break
    return {
        "opponent": opponent,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "pentanomial": penta,
        "sprt": sprt.describe(),
        "llr": round(llr, 3),
        "bounds": [round(sprt.lower, 3), round(sprt.upper, 3)],
        "verdict": verdict or "undecided",
    }


# ------------------------------------------------------------------------ the loop


def run(arguments: list[str] | None = None) -> dict[str, Any]:
    """The command line: train (and resume), then evaluate; returns the last log entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True, help="the run's .npz file")
    parser.add_argument("--resume", action="store_true", help="continue the saved run")
    parser.add_argument("--iterations", type=int, default=10, help="total iterations to reach")
    parser.add_argument(
        "--cpu-minutes",
        type=float,
        default=None,
        help="stop training once the run has used this much CPU time",
    )
    parser.add_argument("--evaluate", type=int, default=0, help="pairs of evaluation games")
    parser.add_argument("--opponent", default=None, help="bot spec (default: mcts, same sims)")
    parser.add_argument("--elo1", type=float, default=50.0, help="the SPRT's H1 (H0: 0)")
    parser.add_argument("--eval-seed", type=int, default=0, help="the evaluation's openings")
    defaults = asdict(Config())
    add_setting_options(parser, defaults)
    args = parser.parse_args(arguments)
    if args.resume:
        if not args.checkpoint.is_file():
            parser.error(f"--resume: no checkpoint at {args.checkpoint}")
        net, buffer, rng, state = load(args.checkpoint)
        config = net.config
        try:
            settings_of(args, defaults, asdict(config))
        except RunMismatch as refused:
            parser.error(f"{args.checkpoint}: {refused}")
    else:
        config = Config(**settings_of(args, defaults, None))
        rng = np.random.default_rng(config.seed)
        net, buffer = Network(config, rng), Buffer()
        state = {"iteration": 0, "cpu_seconds": 0.0, "log": []}
    segments = segments_of(state)
    segment: dict[str, Any] | None = None
    command = [Path(__file__).name, *(sys.argv[1:] if arguments is None else arguments)]
    while state["iteration"] < args.iterations:
        if args.cpu_minutes is not None and state["cpu_seconds"] >= 60 * args.cpu_minutes:
            break
        began = time.process_time()
        positions = self_play(net, config, rng, buffer)
        losses = train(net, config, rng, buffer)
        state["iteration"] += 1
        state["cpu_seconds"] = round(state["cpu_seconds"] + time.process_time() - began, 3)
        entry = {
            "iteration": state["iteration"],
            "positions": positions,
            "buffer": len(buffer.zs),
            "cpu_seconds": state["cpu_seconds"],
            **losses,
        }
        state["log"].append(entry)
        if segment is None:
            seeds = {"seed": config.seed}
            segment = new_segment(asdict(config), seeds, command, entry["iteration"])
            segments.append(segment)
        segment["iterations"][1] = entry["iteration"]
        save(args.checkpoint, net, buffer, rng, state)
        print(json.dumps(entry), flush=True)
    last: dict[str, Any] = {"iteration": state["iteration"], "cpu_seconds": state["cpu_seconds"]}
    if args.evaluate:
        opponent = args.opponent or f"mcts:simulations={config.simulations}"
        began = time.process_time()
        result = evaluate(
            net, config, opponent, args.evaluate, Sprt(0.0, args.elo1), seed=args.eval_seed
        )
        result["cpu_seconds"] = round(time.process_time() - began, 3)
        result["eval_seed"] = args.eval_seed
        last["evaluation"] = result
        print(json.dumps(last), flush=True)
    return last


if __name__ == "__main__":
    run(sys.argv[1:])

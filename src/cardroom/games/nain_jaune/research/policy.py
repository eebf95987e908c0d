"""Train the learned Nain Jaune lead policy by expert iteration (issue 31), on the CPU.

Each iteration plays rounds at 4 seats (default rules): every free lead with more than one rank
to choose from is labelled with the rank the ``expert`` search picks (``iterations=N`` worlds,
heuristic rollouts), and the lead actually played is the current policy's (a random rank one
time in ten, to see other positions); every other decision is the heuristic's. A conditional
logit over the held ranks' features (:func:`cardroom.kernels.nain_jaune.lead_features`) is then
fitted to all labels so far by gradient ascent, pulled towards the heuristic's weights (which
reproduce the heuristic's leads exactly), and the next iteration plays with it.

    python -m cardroom.games.nain_jaune.research.policy --seed 0 --budget small --out FILE.npz

The shipped weights (``cardroom/games/nain_jaune/policy_v1.npz``) were made with
``--budget full --seed 0``. Deterministic for a seed and budget.

``--budget v2`` goes one iteration further: it first makes v1 exactly as ``full`` does (and
checks that it is the kernel's ``learned`` policy), then labels new leads, played by v1, with
a search that **rolls out with v1** (``expert:policy=learned``) at more worlds a label, and
refits on every label. The kernel compiles its weights in, so this step needs the kernel's
``learned`` to be v1: the labels' rollouts are the policy being improved, which is expert
iteration's loop.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.bots.expert import ExpertBot
from cardroom.games.nain_jaune.bots.heuristic import HeuristicBot
from cardroom.games.nain_jaune.engine import Play, Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import view_of

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Budget:
    """How much to train: iterations, labelled positions per iteration, worlds per label."""

    iterations: int
    positions: int
    worlds: int
    learned: tuple[int, int] = (0, 0)
    """Then: labelled positions and worlds a label of the iteration rolled out with the
    kernel's learned policy (0: none)."""


BUDGETS = {
    "small": Budget(1, 60, 60),
    "full": Budget(3, 400, 150),
    "v2": Budget(3, 400, 150, (1200, 1000)),
}
L2 = 0.05
"""Pull of the fit towards the heuristic's weights (per position, squared distance)."""
EXPLORE = 0.1


def heuristic_weights() -> F64:
    """The weights whose argmax is the heuristic's lead (going out first, then its score)."""
    w = np.zeros(fast.N_FEATURES, np.float64)
    w[0] = 100.0
    w[11] = 1.0
    return w


def _card_of(c: int) -> int:
    """The deck index (``Card.index``) of fast index ``c``."""
    return (c & 3) * 13 + (c >> 2)


def collect(
    w: F64, budget: Budget, rng: random.Random, rollouts: str = "heuristic"
) -> tuple[list[F64], list[int], list[int]]:
    """Play rounds until ``budget.positions`` leads are labelled: each one's features, mask of
    held ranks and the expert's rank (its search rolling out with ``rollouts``)."""
    rules = Rules()
    r = fast.encode_rules(rules)
    expert = ExpertBot(ms=None, iterations=budget.worlds, policy=rollouts)
    heuristic = HeuristicBot()
    feats: list[F64] = []
    masks: list[int] = []
    labels: list[int] = []
    while len(labels) < budget.positions:
        chips = [rng.randint(20, 80) for _ in range(4)]
        rnd = Round.deal(rules, chips, [0] * 5, rng.randrange(4), random.Random(rng.random()))
        while rnd.result is None and len(labels) < budget.positions:
            seat = rnd.to_act
            view = view_of(rnd, seat)
            s = fast.encode_round(rnd)
            free = s[fast.S_NEED] == 0 and s[fast.S_PENDING] < 0 and s[fast.S_AWAIT] == 0
            hand = int(s[fast.S_HANDS + seat])
            f = np.zeros((14, fast.N_FEATURES), np.float64)
            mask = int(s[fast.S_PLAYED_MASK])
            ranks = fast.lead_features(s, r, seat, hand, mask, f) if free else 0
            if ranks & (ranks - 1) == 0:
                rnd.apply(heuristic.act(view, rng))
                continue
            choice = expert.act(view, random.Random(rng.random()))
            assert isinstance(choice, Play)
            feats.append(f)
            masks.append(ranks)
            labels.append(int(choice.card.rank))
            if rng.random() < EXPLORE:
                held = [k for k in range(1, 14) if ranks >> k & 1]
                rank = rng.choice(held)
                c = fast._preferred(hand & (15 << (4 * rank - 4)), r)
            else:
                c = fast.learned_choice(s, r, seat, hand, mask, w)
            played = [
                a for a in rnd.legal_actions()
                if isinstance(a, Play) and a.card.index == _card_of(int(c))
            ]
            rnd.apply(played[0])
    return feats, masks, labels


def fit(feats: list[F64], masks: list[int], labels: list[int], w0: F64, steps: int = 400) -> F64:
    """The conditional logit's weights: the expert's rank's log-probability among the held
    ranks, averaged, minus ``L2`` times the squared distance to ``w0`` (scaled by 1/100 for
    the going-out weight, whose size only orders it first)."""
    x = np.stack(feats)  # (n, 14, F)
    held = np.array([[(m >> k) & 1 for k in range(14)] for m in masks], bool)
    y = np.array(labels)
    n = len(labels)
    scale = np.ones(fast.N_FEATURES)
    scale[0] = 0.0  # the going-out weight stays: leaving the hand empty ends the round
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        z = np.einsum("nkf,f->nk", x, w)
        z = np.where(held, z, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        target = np.zeros_like(p)
        target[np.arange(n), y] = 1.0
        grad = np.einsum("nk,nkf->f", target - p, x) / n - 2 * L2 * (w - w0)
        grad *= scale
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w = w + 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def agreement(feats: list[F64], masks: list[int], labels: list[int], w: F64) -> float:
    """The share of labels that ``w``'s argmax rank matches."""
    hits = 0
    for f, mask, y in zip(feats, masks, labels, strict=True):
        scores = [(float(f[k] @ w), -k) for k in range(1, 14) if mask >> k & 1]
        hits += max(scores)[1] == -y
    return hits / max(1, len(labels))


def train(seed: int, budget: Budget, log: bool = False) -> F64:
    """Expert iteration from the heuristic's weights; returns the final weights."""
    rng = random.Random(seed)
    w0 = heuristic_weights()
    w = w0.copy()
    feats: list[F64] = []
    masks: list[int] = []
    labels: list[int] = []
    for it in range(budget.iterations):
        f, m, y = collect(w, budget, rng)
        feats += f
        masks += m
        labels += y
        before = agreement(feats, masks, labels, w0)
        w = fit(feats, masks, labels, w0)
        if log:
            print(
                f"iteration {it + 1}: {len(labels)} labels; the heuristic agrees with the "
                f"expert on {before:.1%}, the fit on {agreement(feats, masks, labels, w):.1%}",
                flush=True,
            )
    positions, worlds = budget.learned
    if positions:
        if not np.array_equal(w, fast.POLICY_WEIGHTS):
            raise ValueError(
                f"the kernel's learned policy ({fast.POLICY_FILE}) is not the policy these "
                "iterations made: the next iteration's rollouts would not be that policy"
            )
        f, m, y = collect(w, Budget(1, positions, worlds), rng, rollouts="learned")
        before = agreement(f, m, y, w)
        feats += f
        masks += m
        labels += y
        w = fit(feats, masks, labels, w0)
        if log:
            print(
                f"iteration {budget.iterations + 1} (learned rollouts): {len(labels)} labels; "
                f"the previous policy agrees with the new labels on {before:.1%}, the fit on "
                f"{agreement(f, m, y, w):.1%} (on all labels "
                f"{agreement(feats, masks, labels, w):.1%})",
                flush=True,
            )
    return w


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="small")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    w = train(args.seed, BUDGETS[args.budget], log=True)
    np.savez(
        args.out, weights=w, version=np.array(2 if args.budget == "v2" else 1),
        seed=np.array(args.seed),
        budget=np.array(args.budget),
    )
    print(f"wrote {args.out}: weights {w.shape}")


if __name__ == "__main__":
    main()

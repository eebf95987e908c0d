"""``LazyRandom``: the draws of ``random.Random(seed)``, seeded only at the first draw."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from cardroom.bots.base import LazyRandom


def draws(rng: random.Random) -> list[Any]:
    """A bit of everything a bot may ask of its rng, in one order."""
    items = list(range(20))
    rng.shuffle(items)
    return [
        rng.randrange(7),
        rng.choice("abcdefgh"),
        items,
        rng.random(),
        rng.sample(range(100), 5),
        rng.gauss(0.0, 1.0),
        rng.gauss(0.0, 1.0),
        rng.uniform(2.0, 3.0),
        rng.getrandbits(70),
        rng.randbytes(5),
        rng.choices("xyz", k=4),
        rng.randint(1, 6),
        rng.getstate(),
    ]


@pytest.mark.parametrize("seed", ["7/seat/2/31", "0/seat/0/1", 12345, 0])
def test_the_draws_are_those_of_random_random_with_the_same_seed(seed: int | str) -> None:
    assert draws(LazyRandom(seed)) == draws(random.Random(seed))
    lazy, plain = LazyRandom(seed), random.Random(seed)
    assert lazy.getstate() == plain.getstate()  # the state asked first: seeded then
    assert [lazy.randrange(52) for _ in range(9)] == [plain.randrange(52) for _ in range(9)]


def test_it_is_seeded_at_the_first_draw_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded: list[object] = []
    real = random.Random.seed

    def counted(self: random.Random, a: Any = None, version: int = 2) -> None:
        seeded.append(a)
        real(self, a, version)

    monkeypatch.setattr(random.Random, "seed", counted)
    rng = LazyRandom("3/seat/1/9")
    assert seeded == []
    first = rng.randrange(10)
    second = rng.random()
    assert seeded == ["3/seat/1/9"]  # once, at the first draw
    plain = random.Random("3/seat/1/9")
    assert (first, second) == (plain.randrange(10), plain.random())


def test_seeding_again_or_setting_the_state_drops_the_pending_seed() -> None:
    rng = LazyRandom("a")
    rng.seed("b")
    assert rng.random() == random.Random("b").random()
    other = LazyRandom("c")
    other.setstate(random.Random("d").getstate())
    assert other.random() == random.Random("d").random()


def pickled(rng: LazyRandom) -> LazyRandom:
    twin = pickle.loads(pickle.dumps(rng))
    assert isinstance(twin, LazyRandom)
    return twin


def test_copies_and_pickles_go_on_with_the_same_draws() -> None:
    for make in (copy.copy, copy.deepcopy, pickled):
        rng = LazyRandom("5/seat/3/77")
        twin = make(rng)
        assert [twin.random() for _ in range(3)] == [rng.random() for _ in range(3)]


def test_without_a_seed_it_is_seeded_from_the_system_at_once() -> None:
    one, two = LazyRandom(), LazyRandom()
    assert one.getrandbits(64) != two.getrandbits(64)

"""The rollouts' compiled inner loop makes the same draws and decisions as the Python it replaced."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

import pytest

from setback.bots.playout import deal_within_voids, sample
from setback.bots.tactics import TRUMPS, _junk_key, cards, junk
from setback.engine.variants import Variant

T = TypeVar("T")


@pytest.mark.parametrize("seed", range(3))
def test_sample_draws_what_random_sample_draws(seed: int) -> None:
    """Every population size and count a deal meets gives the cards ``Random.sample`` gives and
    leaves the generator where it leaves it."""
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in range(53):
        population = list(range(100, 100 + n))
        for k in range(min(n, 9) + 1):
            assert sample(ours, population, k) == theirs.sample(population, k)
    assert ours.random() == theirs.random()


def test_a_subclass_of_random_is_asked_for_its_own_sample() -> None:
    """A generator that draws otherwise is not second-guessed."""

    class Fixed(random.Random):
        def sample(self, population: Sequence[T], k: int, *, counts: Iterable[int] | None = None) -> list[T]:
            return [population[0]] * k

    assert sample(Fixed(1), [7, 2, 3], 2) == [7, 7]


def test_deal_within_voids_keeps_the_voids_and_the_sizes() -> None:
    """Each other seat gets its number of the unknown cards, none of a suit it showed it lacks."""
    rng = random.Random(3)
    hearts = 0x1FFF << 26
    unknown = (1 << 52) - 1 - 0b111111
    for _ in range(50):
        holdings = deal_within_voids(rng, 0, 0b111111, unknown, [1, 2], [0, hearts, 0], [6, 6, 5])
        assert [h.bit_count() for h in holdings] == [6, 6, 5]
        assert not holdings[1] & hearts
        assert not holdings[1] & holdings[2] and not (holdings[1] | holdings[2]) & 0b111111


def test_junk_is_the_least_card_by_the_throwing_order() -> None:
    """The one-number key orders cards as the three rules in turn (kept last, few pips, low first),
    and the first of equal cards is thrown."""
    t = TRUMPS[Variant.STANDARD][2]
    hand = cards((1 << 52) - 1)
    keyed = sorted(hand, key=lambda c: (bool(t.values[c]) or c == 3, (c % 13 == 8) * 10 + (c % 13 > 8) * (c % 13 - 8)
                                        + 20 * (t.place[c] >= t.ten_place), t.key[c]))
    assert sorted(hand, key=lambda c: _junk_key(c, t, 3)) == keyed
    assert junk(hand, t, 3) == keyed[0]

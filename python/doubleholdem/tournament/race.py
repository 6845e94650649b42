"""The colour-up's chip race (RULES.md TRN-10), as a pure decision: the stacks at a
table, the old and the new chip unit and a random generator in; each stack's change out.

>>> import random
>>> race([1030, 990, 2000], 5, 25, random.Random(2))
[-5, 10, 0]
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["race"]


def race(stacks: Sequence[int], old: int, new: int, rng: random.Random) -> list[int]:
    """TRN-10: the change of each of ``stacks`` when the smallest chip goes from ``old``
    to ``new``. Each stack keeps its whole ``new`` chips; a remainder r > 0 is
    ceil(r / old) old chips, each drawing a distinct random card; the remainders' total
    R buys R // new chips, one more if R % new >= new / 2, won by the highest cards, at
    most one per stack. A stack left with nothing gets one ``new`` chip."""
    remainders = [stack % new for stack in stacks]
    total = sum(remainders)
    chips = total // new + (1 if 2 * (total % new) >= new else 0)
    cards = sum(-(-r // old) for r in remainders)
    order = rng.sample(range(cards), cards)  # a distinct card for each old chip
    draws: list[tuple[int, int]] = []  # (card, stack index), the highest first below
    position = 0
    for index, remainder in enumerate(remainders):
        count = -(-remainder // old)
        draws.extend((order[position + k], index) for k in range(count))
        position += count
    draws.sort(reverse=True)
    winners: set[int] = set()
    for _, index in draws:
        if len(winners) == chips:
            break
        winners.add(index)
    changes = []
    for index, (stack, remainder) in enumerate(zip(stacks, remainders)):
        kept = stack - remainder + (new if index in winners else 0)
        changes.append((kept if kept > 0 else new) - stack)
    return changes

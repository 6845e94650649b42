"""Decisions of the learning environments' many-hand episodes, whose hands a
:class:`~doubleholdem.table.Table` deals and plays (``Table.start_hand``, ``act``,
``choose_point``): the unit for callgrind, as ``benches/rl_interleaved.py --one`` is for
the one-hand loops.

    PYTHONHASHSEED=0 PYTHONPATH=python valgrind --tool=callgrind PYTHON \\
        benches/table_episodes.py --count N

(N and 3N: (difference) / (2N) is the cost of a decision). Six seats of fixed-limit
Double Hold'em through the AEC environment with ``actions="fcpa"`` and episodes of 100
hands; random legal actions from a seeded generator, so every tree plays the same
decisions.
"""

from __future__ import annotations

import argparse
import random

from doubleholdem import rl


def play(count: int) -> None:
    """Plays ``count`` decisions."""
    env = rl.env(
        variant="double", structure="fixed-limit", players=6, actions="fcpa", seed=1, hands=100
    )
    rng = random.Random(1)
    decisions = episode = 0
    while True:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            observation, _, ended, cut, _ = env.last()
            if ended or cut:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            decisions += 1
            if decisions == count:
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    play(parser.parse_args().count)


if __name__ == "__main__":
    main()

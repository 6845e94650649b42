"""The command line of the casino game and of the exact statistics:
``doubleholdem casino analyze|side-bets|simulate`` (RULES.md HU-1 to HU-11).

Long runs draw a progress bar on a terminal (stderr) and stop cleanly on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from doubleholdem import casino
from doubleholdem.casino.strategy import write_strategy
from doubleholdem.cli.base import add_seed_option, seed_of, thread_count
from doubleholdem.errors import DoubleHoldemError
from doubleholdem.extras import require
from doubleholdem.progress import ProgressBar


def _game(args: argparse.Namespace) -> casino.Rules:
    return casino.GAMES[args.game]


def _with_bar(label: str, work: Any) -> Any:
    bar = ProgressBar(label)
    try:
        return work(bar)
    finally:
        bar.close()


def add_parser(subparsers: Any) -> None:
    """Registers ``doubleholdem casino``."""
    parser = subparsers.add_parser(
        "casino", help="Heads Up Hold'em: analysis, side bets, simulation"
    )
    commands = parser.add_subparsers(
        dest="casino_command", required=True, parser_class=type(parser)
    )
    analyze = commands.add_parser("analyze", help="exact analysis under optimal play")
    simulate = commands.add_parser("simulate", help="play rounds with the optimal strategy")
    side_bets = commands.add_parser("side-bets", help="exact house edge of the side bets")
    for p in (analyze, simulate, side_bets):
        p.add_argument(
            "--game", choices=sorted(casino.GAMES), default="heads-up", help="the game's rules"
        )
        p.add_argument("--json", action="store_true", help="print one JSON object")
    for p in (analyze, simulate):
        p.add_argument(
            "--threads", type=thread_count, default=None, help="threads (default: all cores)"
        )
    analyze.add_argument(
        "--plot",
        metavar="FILE.png",
        help="draw the pre-flop strategy (matplotlib; default: no drawing)",
    )
    analyze.add_argument(
        "--save-strategy",
        metavar="FILE.json",
        help="write the pre-flop table that advise() ships, and the flop decisions beside it "
        "(flop_GAME.xz for preflop_GAME.json; default: not written)",
    )
    analyze.set_defaults(run=run_analyze)
    simulate.add_argument("--rounds", type=int, required=True, help="rounds to play")
    add_seed_option(simulate, "the deals")
    simulate.set_defaults(run=run_simulate)
    side_bets.set_defaults(run=run_side_bets)


def _analysis(args: argparse.Namespace) -> tuple[casino.Analysis, float]:
    rules = _game(args)
    started = time.monotonic()
    result = _with_bar(
        f"{rules.name}: analysis",
        lambda bar: casino.analyze(rules, threads=args.threads, progress=bar),
    )
    return result, time.monotonic() - started


def run_analyze(args: argparse.Namespace) -> int:
    """``doubleholdem casino analyze``."""
    if args.plot:  # before the long analysis, not after it
        require("matplotlib", "plot", "--plot")
    analysis, seconds = _analysis(args)
    if args.save_strategy:
        save_strategy(analysis, Path(args.save_strategy), args.game)
    if args.plot:
        plot_strategy(analysis, Path(args.plot))
    result = analysis.summary()
    result["seconds"] = seconds
    result["preflop"] = {s.name: {**s.options, "best": s.best} for s in analysis.strategy}
    result["outcomes"] = [vars(o) for o in analysis.outcomes]
    if args.json:
        print(json.dumps(result))
        return 0
    lines = [
        f"{analysis.rules.name}: exact analysis of {analysis.deals:,} deals in {seconds:.1f} s",
        f"house edge       {analysis.house_edge:.6%} of the Ante",
        f"element of risk  {analysis.element_of_risk:.6%}",
        f"average wager    {analysis.average_wager:.6f} Ante",
        f"std deviation    {analysis.std_dev:.6f} Ante",
        *(f"{key:16} {value:.6%}" for key, value in analysis.frequencies.items()),
    ]
    print("\n".join(lines))
    return 0


def save_strategy(analysis: casino.Analysis, path: Path, game: str) -> None:
    """Writes the pre-flop table and, beside it, the flop decisions, in the format of
    the shipped data files (``preflop_GAME.json`` and ``flop_GAME.xz``)."""
    write_strategy(
        path,
        rules=analysis.rules,
        game=game,
        deals=analysis.deals,
        house_edge=analysis.house_edge,
        classes=analysis.preflop_table(),
        flop_decisions=analysis.flop_decisions,
    )


def plot_strategy(analysis: casino.Analysis, path: Path) -> None:
    """A 13x13 grid of the pre-flop strategy: colour by best option, text the EV gain
    of the best raise over checking (needs ``pip install doubleholdem[plot]``)."""
    require("matplotlib", "plot", "--plot").use("Agg")
    import matplotlib.pyplot as plt

    ranks = "AKQJT98765432"
    gains = [[0.0] * 13 for _ in range(13)]
    fig, ax = plt.subplots(figsize=(9, 9))
    for s in analysis.strategy:
        row, col = _grid_position(s.name, ranks)
        best_raise = max(v for k, v in s.options.items() if k != "check")
        gains[row][col] = best_raise - s.options["check"]
        ax.text(col, row, f"{s.name}\n{gains[row][col]:+.2f}", ha="center", va="center", fontsize=7)
    limit = max(abs(g) for row in gains for g in row) or 1.0
    image = ax.imshow(gains, cmap="RdYlGn", vmin=-limit, vmax=limit)
    ax.set_xticks(range(13), list(ranks))
    ax.set_yticks(range(13), list(ranks))
    ax.set_title(f"{analysis.rules.name}: EV of the best pre-flop raise minus check (Ante)")
    fig.colorbar(image, ax=ax, shrink=0.8, label="raise better (green) or check better (red)")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def _grid_position(name: str, ranks: str) -> tuple[int, int]:
    high, low = ranks.index(name[0]), ranks.index(name[1])
    if name.endswith("o"):
        return low, high
    return high, low


def run_side_bets(args: argparse.Namespace) -> int:
    """``doubleholdem casino side-bets``."""
    rules = _game(args)
    bets = casino.side_bets(rules)
    result = {name: {"house_edge": bet["house_edge"]} for name, bet in bets.items()}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{rules.trips_name:12} house edge {bets['trips_plus']['house_edge']:.6%}")
    print(f"{'Pocket Bonus':12} house edge {bets['pocket_bonus']['house_edge']:.6%}")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """``doubleholdem casino simulate``: the rounds played from the shipped strategy
    (no analysis first), the river decided each round in the core."""
    if not 2 <= args.rounds < 2**64:
        raise DoubleHoldemError(f"--rounds must be at least 2 and below 2**64, not {args.rounds}")
    rules = _game(args)
    seed = seed_of(args)
    sim = _with_bar(
        f"{rules.name}: {args.rounds:,} rounds",
        lambda bar: casino.simulate(args.rounds, seed, rules, threads=args.threads, progress=bar),
    )
    low, high = sim.ci95
    exact = sim.expected_value
    result = {
        "game": rules.name,
        "rounds": sim.rounds,
        "seed": sim.seed,
        "strategy": sim.strategy,
        "return": sim.mean,
        "std_dev": sim.std_dev,
        "ci95": [low, high],
        "exact": exact,
        "exact_in_ci95": exact is not None and low <= exact <= high,
        "frequencies": sim.frequencies,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    inside = "inside" if result["exact_in_ci95"] else "OUTSIDE"
    print(f"{rules.name}: {sim.rounds:,} rounds, seed {sim.seed}, {sim.strategy} strategy")
    print(f"return per Ante  {sim.mean:+.6f}  95% CI [{low:+.6f}, {high:+.6f}]")
    if exact is not None:
        print(f"exact            {exact:+.6f}  ({inside} the interval)")
    return 0

"""What loading the command policy costs at start-up, against a named baseline checkout.

The program table checks each program's own examples when it loads (commands/programs/); that must
stay cheap. Each round starts a fresh interpreter that imports `konstruct_tui.commands` (what
`konstruct` start-up loads for the policy), alternating between this checkout and the baseline,
and prints the medians and their ratio.

    python bench/bench_policy_import.py --baseline /work/main [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CODE = "import konstruct_tui.commands"


def _once(checkout: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": ""}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CODE], env=env, check=True)
    return time.perf_counter() - start


def _empty() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of the code to compare against")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    for checkout in (HERE, args.baseline):
        _once(checkout)  # compile the bytecode once, as an installed copy has it
    ours, theirs, empty = [], [], []
    for _ in range(args.rounds):
        ours.append(_once(HERE))
        theirs.append(_once(args.baseline))
        empty.append(_empty())
    base = statistics.median(empty)
    mine, other = statistics.median(ours) - base, statistics.median(theirs) - base
    print(f"interpreter alone: {base * 1000:.1f} ms (subtracted)")
    print(f"import konstruct_tui.commands: this checkout {mine * 1000:.1f} ms, baseline {other * 1000:.1f} ms, "
          f"ratio {mine / other:.2f}")
    print(f"of which checking the program table's entries and examples: {_checks_ms(args.rounds):.2f} ms (median)")
    return 0


def _checks_ms(rounds: int) -> float:
    """The part of loading spent on the examples: every entry checked again, in this process."""
    sys.path.insert(0, str(HERE))
    from konstruct_tui.commands.programs import PROGRAMS
    from konstruct_tui.commands.programs.table import check_program

    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for program in PROGRAMS:
            check_program(program)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


if __name__ == "__main__":
    sys.exit(main())

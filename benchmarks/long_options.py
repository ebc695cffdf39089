"""Reading an exact cover problem whose one option is very long: time against length.

    python benchmarks/long_options.py [--runs 5] [--items 10000,20000,50000,100000]

Each size is a problem of N items and one option holding all of them, in Knuth's format,
read by :func:`polyfit.xc.dlxformat.parse_dlx` in this process (the reading alone, no file, no
search). Prints the median of ``--runs`` readings per size and the time per item, which stays
about the same from size to size when reading is linear in the option's length (it grew with
the length before: 20,000 items took 3.2 s and 50,000 over a minute).
"""

from __future__ import annotations

import argparse
import statistics
import time

from polyfit.xc.dlxformat import parse_dlx


def problem(n: int) -> str:
    names = [f"i{k}" for k in range(n)]
    return " ".join(names) + "\n" + " ".join(reversed(names)) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--items", default="10000,20000,50000,100000")
    args = parser.parse_args()
    print(f"{'items':>8}  {'median s':>9}  {'us per item':>11}  (median of {args.runs} readings)")
    for n in (int(x) for x in args.items.split(",")):
        text = problem(n)
        seconds = []
        for _ in range(args.runs):
            start = time.perf_counter()
            parsed, _ = parse_dlx(text)
            seconds.append(time.perf_counter() - start)
            assert len(parsed.options[0]) == n
        median = statistics.median(seconds)
        print(f"{n:>8,}  {median:>9.3f}  {median / n * 1e6:>11.2f}")


if __name__ == "__main__":
    main()

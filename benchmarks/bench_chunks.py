#!/usr/bin/env python3
"""Time ``parallel.run_chunks``'s own cost per chunk: empty chunks on local worker processes.

Run on demand from the project root:

    .venv/bin/python benchmarks/bench_chunks.py [--chunks 20000] [--workers 2] [--repeat 3]

Each chunk's task returns its chunk, so the figure is the pool's hand-out, answer and wait per chunk (and its
start and end), which an engine chunk's tenths of a second dwarf.  The machine may be shared: read the best of
the repeats, and compare pools in one run.
"""

from __future__ import annotations

import argparse
import time

from herohammer.parallel import run_chunks


def same(chunk: int) -> int:
    return chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    chunks = list(range(args.chunks))
    print(f"run_chunks: {args.chunks:,} empty chunks on {args.workers} workers, {args.repeat} times", flush=True)
    for _ in range(args.repeat):
        start = time.perf_counter()
        assert run_chunks(same, chunks, args.workers) == chunks
        took = time.perf_counter() - start
        print(f"{took:.2f} s ({took / args.chunks * 1e6:.0f} us a chunk)", flush=True)


if __name__ == "__main__":
    main()

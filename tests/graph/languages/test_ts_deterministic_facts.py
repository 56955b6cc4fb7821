"""The same TypeScript source gives the same facts, byte for byte, in every process.

tree-sitter's order of the nodes captured under one name varies from one process to the next (with
the memory layout, which the hash seed moves): the `callsigs` of a file with many type aliases came
out in a different key order, and a first-one-wins fact (an overload's return type) could follow it.
The index compares and stores these bytes, so a different order is a changed file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Aliases of object, intersection and union types, callable interfaces and overloads: the captures
# that came out in a different order from one process to the next (9 orders in 10 runs before).
_BLOCK = """
export type Event{i} = {{ kind: 'e{i}'; headers: Record<string, string | undefined> }} & (WithA{i} | WithB{i})
type WithA{i} = {{ a{i}: string; nested: {{ deep: Event{i} }} }}
type WithB{i} = {{ b{i}?: (x: number) => void }}
export type Result{i} = {{ status: number }} & (WithA{i} | WithB{i})
export interface Handler{i} {{ (c: Event{i}, next: () => void): Result{i}; extra?: WithA{i} }}
export type Either{i} = Event{i} | Result{i} | Handler{i}
type Options{i} = {{ isBinary: (t: string) => boolean }}
export function handle{i}(h: Handler{i}, {{ isBinary }}: Options{i} = {{ isBinary: undefined }}): Result{i}
export function handle{i}(h: Handler{i}): WithA{i}
export function handle{i}(h: Handler{i}, o?: Options{i}): Result{i} {{ return h({{}} as Event{i}, () => {{}}) }}
"""

_EXTRACT = """
import sys
from konstruct_tui.graph.languages.typescript import SUPPORT
from konstruct_tui.graph.records import encode_facts
path = sys.argv[1]
facts = SUPPORT.extract("src/types.ts", open(path, "rb").read())
sys.stdout.write("\\n".join(encode_facts(facts)))
"""


def test_the_same_file_gives_the_same_fact_bytes_under_every_hash_seed(tmp_path: Path) -> None:
    source = tmp_path / "types.ts"
    source.write_text("".join(_BLOCK.format(i=i) for i in range(12)))
    root = Path(__file__).resolve().parents[3]
    encoded = []
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-c", _EXTRACT, str(source)], env=env, capture_output=True,
                              check=True, timeout=60)
        encoded.append(done.stdout)
    assert b'"callsigs"' in encoded[0] and b"Handler11" in encoded[0]
    assert all(e == encoded[0] for e in encoded[1:])
    # the first overload in the file says what `handle0()` returns, in every process
    assert b'"handle0":"Result0"' in encoded[0].replace(b" ", b"")

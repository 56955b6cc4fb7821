"""The same Go or Java source gives the same facts, byte for byte, in every process.

As with TypeScript (test_ts_deterministic_facts.py), tree-sitter's order of the nodes captured
under one name follows the memory layout: extracting the same files in one process after another,
under other hash seeds, gave other orders of struct fields, methods and annotations in the facts
(fiber: 118 of its 300 files, gson: 139 of 264). Both languages now read every capture list in
document order (`treesitter.captures_in_order`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_GO = """
type Server{i} struct {{ name string; handlers map[string]Handler{i}; next *Server{i} }}
type Handler{i} interface {{ Serve(c *Ctx{i}) error; Name() string }}
type Ctx{i} struct {{ srv *Server{i}; values []int }}
func New{i}(name string) *Server{i} {{ return &Server{i}{{name: name, handlers: map[string]Handler{i}{{}}}} }}
func (s *Server{i}) Add(h Handler{i}) *Server{i} {{ s.handlers[h.Name()] = h; return s }}
func (s *Server{i}) Run(c *Ctx{i}) error {{ for _, h := range s.handlers {{ if err := h.Serve(c); err != nil {{ return err }} }}; return s.next.Run(c) }}
func (c *Ctx{i}) Server() *Server{i} {{ return c.srv }}
func use{i}() {{ s := New{i}("a"); c := &Ctx{i}{{srv: s}}; _ = c.Server().Add(nil).Run(c); fmt.Println(s.name, strings.ToUpper(s.name)) }}
"""
_JAVA = """
/** Uses {{@link Since}} and {{@link Until{i}}}. */
class Holder{i} extends Base{i} implements Visitor{i} {{
  @Since({i}) int a{i};
  @Until({i}) // ignored
  int b{i};
  private final List<Holder{i}> kids = new ArrayList<>();
  Holder{i} next(Holder{i} h) {{ kids.add(h); return h.next(this); }}
  @Override public void visit(Holder{i} n) {{ for (Holder{i} k : kids) {{ k.accept(this); }} }}
  void accept(Visitor{i} v) {{ v.visit(this); System.out.println(String.valueOf(kids.size()).trim()); }}
}}
interface Visitor{i} {{ void visit(Holder{i} n); }}
abstract class Base{i} {{ abstract Holder{i} next(Holder{i} n); }}
"""
# Each file extracted three times in one process: the later rounds meet a memory layout the
# earlier ones left, which is what moved the order.
_EXTRACT = """
import sys
from konstruct_tui.graph.languages import languages
from konstruct_tui.graph.records import encode_facts
supports = languages()
for _ in range(3):
    for path, language in ((sys.argv[1], "go"), (sys.argv[2], "java")):
        facts = supports[language].extract(path.rsplit("/", 1)[-1], open(path, "rb").read())
        sys.stdout.write(encode_facts(facts)[0] + "\\n")
"""


def test_go_and_java_files_give_the_same_fact_bytes_in_every_process(tmp_path: Path) -> None:
    go, java = tmp_path / "big.go", tmp_path / "Holder.java"
    go.write_text('package p\n\nimport (\n\t"fmt"\n\t"strings"\n)\n' + "".join(_GO.format(i=i) for i in range(15)))
    java.write_text("package p;\n\nimport java.util.List;\nimport java.util.ArrayList;\nimport a.Since;\nimport a.Until;\n"
                    + "".join(_JAVA.format(i=i) for i in range(20)))
    root = Path(__file__).resolve().parents[3]
    outputs = []
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-c", _EXTRACT, str(go), str(java)], env=env, capture_output=True,
                              check=True, timeout=60)
        outputs.append(done.stdout)
    assert b"Server14" in outputs[0] and b"Holder19" in outputs[0]
    assert len(set(outputs)) == 1
    rounds = outputs[0].splitlines()
    assert rounds[0:2] == rounds[2:4] == rounds[4:6]  # and the same within one process

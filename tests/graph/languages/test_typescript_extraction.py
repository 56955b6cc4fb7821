"""TypeScript / TSX / JavaScript extraction: what one file defines, imports and uses (pure, no project)."""

from __future__ import annotations

import pickle
import textwrap
from dataclasses import fields

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.records import encode_facts, facts_from_json
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.languages.typescript import SUPPORT
from konstruct_tui.graph.languages.typescript.facts import (
    EMPTY,
    CallKey,
    Binding,
    DocLink,
    Export,
    Head,
    KeyedReturn,
    Step,
    RecordPart,
    members_of,
    thawed_spec,
)

MODULE = textwrap.dedent(
    """\
    import type { Config } from "./config.js";
    import Default, { helper as help, type Shape } from "./util";
    import * as geo from "../geo";
    import "./polyfill";
    export * from "./a";
    export * as b from "./b";
    export { c, d as e } from "./c";

    export function build(config: Config): Shape {
      const local = help(geo.area(1));
      function inner() {}
      return new Widget(local);
    }

    export class Widget extends Default {
      size = 1;
      render(): geo.Point {
        return import("./lazy");
      }
    }

    interface Props { name: string }
    type Id = string;
    enum Color { Red }
    namespace Tools { export const knife = 1; }
    export const make = () => 1;
    let counter = 0;
    export default Widget;
    """
)


def extract(path: str, text: str) -> FileFacts:
    return SUPPORT.extract(path, textwrap.dedent(text).encode())


def test_symbols_carry_qualified_names_kinds_and_line_spans() -> None:
    facts = extract("src/widget.ts", MODULE)
    assert facts.language == "typescript"
    assert set(facts.symbols) == {
        Symbol("build", "function", 9, 13),
        Symbol("Widget", "class", 15, 20),
        Symbol("Widget.render", "method", 17, 19),
        Symbol("Props", "interface", 22, 22),
        Symbol("Id", "type", 23, 23),
        Symbol("Color", "enum", 24, 24),
        Symbol("Tools", "namespace", 25, 25),
        Symbol("Tools.knife", "constant", 25, 25),
        Symbol("make", "function", 26, 26),
        Symbol("counter", "variable", 27, 27),
    }  # `local` and `inner` live inside a function body: not symbols of the file


def test_imports_record_specifier_names_kind_and_line() -> None:
    facts = extract("src/widget.ts", MODULE)
    assert facts.imports == (
        ImportRef("./config.js", ("Config",), 1, "type"),
        ImportRef("./util", ("default", "helper", "Shape"), 2, "import"),
        ImportRef("../geo", ("*",), 3, "import", alias="geo"),
        ImportRef("./polyfill", (), 4, "import"),
        ImportRef("./a", ("*",), 5, "reexport"),
        ImportRef("./b", ("*",), 6, "reexport", alias="b"),
        ImportRef("./c", ("c", "d"), 7, "reexport"),
        ImportRef("./lazy", (), 18, "import"),
    )
    assert members_of(facts).bindings == (
        Binding("Config", 0, "Config"),
        Binding("Default", 1, "default"),
        Binding("help", 1, "helper"),
        Binding("Shape", 1, "Shape"),
        Binding("geo", 2, "*"),
    )


def test_uses_are_identifiers_and_namespace_members_but_not_the_import_lines() -> None:
    facts = extract("src/widget.ts", MODULE)
    for name in ("help", "geo.area", "geo.Point", "Widget", "Config", "Default"):
        assert name in facts.uses
    assert "helper" not in facts.uses  # only named in the import clause


def test_tsx_and_javascript_parse_with_jsx_and_require() -> None:
    tsx = extract("ui/App.tsx", "import { Button } from './Button';\nexport const App = () => <ui.Panel><Button/></ui.Panel>;\n")
    assert Symbol("App", "function", 2, 2) in tsx.symbols
    assert {"Button", "ui.Panel"} <= set(tsx.uses)
    js = extract("lib/cli.cjs", "const { parse: p } = require('./parse');\nconst fs = require('node:fs');\n")
    assert [ref.target for ref in js.imports] == ["./parse", "node:fs"]
    assert members_of(js).bindings == (Binding("p", 0, "parse"), Binding("fs", 1, "*"))


def test_declaration_files_and_triple_slash_references() -> None:
    facts = extract("types/env.d.ts", '/// <reference path="./globals.d.ts" />\ndeclare function boot(): void;\nexport = boot;\n')
    assert facts.imports == (ImportRef("./globals.d.ts", (), 1, "import"),)
    assert Symbol("boot", "function", 2, 2) in facts.symbols
    assert members_of(facts).exports == (Export("default", -1, "boot"),)


def test_every_extension_is_registered_and_facts_pickle() -> None:
    for path in ("a.ts", "a.tsx", "a.mts", "a.cts", "a.d.ts", "a.js", "a.jsx", "a.mjs", "a.cjs"):
        assert language_for(path) is SUPPORT
    facts = extract("src/widget.ts", MODULE)
    assert pickle.loads(pickle.dumps(facts)) == facts  # worker processes hand them over pickled


# Every kind of member fact, so a record the store writes and reads back is compared field by field.
_EVERY_KIND = """
import { Registry } from './registry';
import * as lib from './lib';
export { Registry as Plugins } from './registry';
const KEY = 'patches';
/** See {@link Server.fetchSockets()}. */
export type Verb = 'get' | 'post';
export type Got = { extend(): Got } & Record<Verb, Handler> & Record<'head', Handler>;
export type Alias = Server;
export interface Handler { (c: Context, next: () => void): Result; onError?: (e: Error) => void }
export class Server extends Base implements Handler {
  private client = createClient();
  static create = (): Server => new Server();
  options: Options;
  get url(): URL { return this.url; }
  constructor(private registry: Registry) { super(); this.pool = new Pool(); }
  plugin<K extends keyof Plugins>(key: K): Plugins[K] { return this.registry.get(key); }
  fetch() { return new Server(); }
  handle(h: Handler): this { h({} as Context, () => {}); lib.run({ retry: 1, timeout: 2 }); return this; }
}
export function make() { const s: Server = Server.create(); s.fetch().handle((c) => c.json(1)); return s; }
export default new Server(new Registry());
const made = Server.create().fetch();
function local() { class Mock implements Handler { onError() {} } return [1][0].x; }
"""


def test_member_facts_come_back_from_the_store_unchanged() -> None:
    both = [extract("src/server.ts", _EVERY_KIND), extract("src/options.ts", "export default class Options {}\n")]
    stated = {f.name for facts in both for f in fields(EMPTY) if getattr(members_of(facts), f.name) != getattr(EMPTY, f.name)}
    assert stated == {f.name for f in fields(EMPTY)}  # the sources state every kind: each one is compared
    for facts in both:
        encoded, _ = encode_facts(facts)
        assert facts_from_json(encoded) == facts
        assert encode_facts(facts_from_json(encoded))[0] == encoded


def test_what_was_packed_into_strings_is_fields() -> None:
    record = members_of(extract("src/server.ts", _EVERY_KIND))
    # `lib.run({retry, timeout})`: the literal's keys (once the member `keys:["retry","timeout"]`)
    literal = next(use for use in record.member_uses if use.keys)
    assert literal.members == () and literal.keys == ("retry", "timeout")
    assert not any(member.startswith("keys:") for use in record.member_uses for member in use.members)
    # `Record<'head', Handler>` and `Record<Verb, Handler>` (an alias's keys were `{"ref": "Verb"}`)
    assert record.records["Got"] == (RecordPart("Handler", keys_of="Verb"), RecordPart("Handler", ("head",)))
    # `plugin(key: K): Plugins[K]` (once `["Plugins", 0]`)
    assert record.keyed["Server.plugin"] == KeyedReturn("Plugins", 0)
    assert record.doclinks == (DocLink("Server", ("fetchSockets",)),)


_HEADS = """
import { Server, Handler, KEY } from './server';
export function heads(o?: Server) {
  (o ?? new Server()).fetch();
  [new Server(), new Server()][0].fetch;
  ({ s: new Server() }).s.fetch();
  (o as Server).fetch();
  new Server().close();
  const mk = (): Server => build();
  mk().fetch();
  const h: Handler = (c) => c.json(1);
  o.handle((c) => c.text('a'));
  o.get('a').fetch();
  o.get(KEY).fetch();
  const cfg: { onError(e: Error): void; nested: { a: string } } = { onError(e) { e.message; } };
  o.all()[0].fetch();
}
class Sub extends Server { run() { super.fetch(); this.close(); } }
"""


def _heads(chain: object) -> list[Head]:
    found = []
    for segment in chain:  # type: ignore[attr-defined]
        if isinstance(segment, Head):
            found.append(segment)
            for part in (*segment.parts, *(c for _, c in segment.keys)):
                found += _heads(part)
            if segment.context is not None and segment.context.callee is not None:
                found += _heads(segment.context.callee)
    return found


def test_receiver_chain_heads_are_records_that_survive_the_store() -> None:
    facts = extract("src/heads.ts", _HEADS)
    record = members_of(facts)
    heads = [head for use in record.member_uses for head in _heads(use.receiver)]
    heads += [head for chains in record.assigned.values() for c in chains for head in _heads(c)]
    # each kind once packed into a string (`this:Sub`, `new Server`, `as Server`, `=> Server`,
    # `either:[...]`, `array:[...]`, `object:{...}`, `ctx:[...]`) is a `Head` with fields
    assert {head.kind for head in heads} >= {"this", "super", "new", "cast", "returns", "either", "array", "object", "ctx"}
    assert Head("this", "Sub") in heads and Head("super", "Sub") in heads and Head("new", "Server") in heads
    assert Head("cast", "Server") in heads and Head("returns", "Server") in heads
    either = next(head for head in heads if head.kind == "either")
    assert either.parts == ((Head("cast", "Server"),), (Head("new", "Server"),))  # `o: Server`
    shape = next(head for head in heads if head.kind == "object")
    assert shape.keys == (("s", (Head("new", "Server"),)),)
    contexts = [head.context for head in heads if head.kind == "ctx"]
    typed = next(c for c in contexts if c is not None and c.callee is None and c.parameter == 0 and not c.keys)
    assert typed.typed is not None  # `const h: Handler = (c) => ...`
    called = next(c for c in contexts if c is not None and c.callee is not None)
    assert called.callee == (Head("cast", "Server"), Step("member", "handle")) and called.argument == 0 and called.given == ()
    # the steps after a head are records too (`.get`, a call giving the key 'a', an element)
    # (a string literal, once quoted `'a'`, and a module-level name read where it is resolved)
    receivers = [use.receiver[1:] for use in record.member_uses]
    assert [Step("member", "get"), Step("call", keys=(CallKey("a", True),))] in receivers
    assert [Step("member", "get"), Step("call", keys=(CallKey("KEY", False),))] in receivers
    assert any(use.receiver[1:] == [Step("member", "all"), Step("call"), Step("element")] for use in record.member_uses)
    # heads are keys of the resolvers' caches: a written type's spec inside one is hashable too
    assert len({*heads}) <= len(heads)
    inline = next(c for c in contexts if c is not None and c.callee is None and c.keys == ("onError",))
    assert hash(inline) and thawed_spec(inline.typed) == ["inline", ["nested", "onError"], {"nested": ["inline", ["a"]]}]
    encoded, _ = encode_facts(facts)
    assert facts_from_json(encoded) == facts
    assert encode_facts(facts_from_json(encoded))[0] == encoded
    assert "ctx:" not in encoded and "either:" not in encoded and "this:" not in encoded


def test_object_literal_methods_are_symbols_only_under_a_named_binding() -> None:
    facts = extract("src/api.js", "const api = { get() {} };\nexport default { data() { return 1; } };\nrun({ cb() {} });\n")
    assert facts.symbols == (Symbol("api", "constant", 1, 1), Symbol("api.get", "method", 1, 1))


def test_broken_source_still_yields_what_parses() -> None:
    facts = extract("src/half.ts", "import { a } from './a';\nexport function ok() {}\nconst = = ;\n")
    assert facts.imports[0].target == "./a"
    assert Symbol("ok", "function", 2, 2) in facts.symbols

"""TypeScript / TSX / JavaScript extraction: what one file defines, imports and uses (pure, no project)."""

from __future__ import annotations

import pickle
import textwrap

from konstruct_tui.graph.facts import FileFacts, ImportRef, Symbol
from konstruct_tui.graph.languages import language_for
from konstruct_tui.graph.languages.typescript import SUPPORT

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
    assert facts.extra["bindings"] == [
        ["Config", 0, "Config"],
        ["Default", 1, "default"],
        ["help", 1, "helper"],
        ["Shape", 1, "Shape"],
        ["geo", 2, "*"],
    ]


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
    assert js.extra["bindings"] == [["p", 0, "parse"], ["fs", 1, "*"]]


def test_declaration_files_and_triple_slash_references() -> None:
    facts = extract("types/env.d.ts", '/// <reference path="./globals.d.ts" />\ndeclare function boot(): void;\nexport = boot;\n')
    assert facts.imports == (ImportRef("./globals.d.ts", (), 1, "import"),)
    assert Symbol("boot", "function", 2, 2) in facts.symbols
    assert facts.extra["exports"] == [["default", -1, "boot"]]


def test_every_extension_is_registered_and_facts_pickle() -> None:
    for path in ("a.ts", "a.tsx", "a.mts", "a.cts", "a.d.ts", "a.js", "a.jsx", "a.mjs", "a.cjs"):
        assert language_for(path) is SUPPORT
    facts = extract("src/widget.ts", MODULE)
    assert pickle.loads(pickle.dumps(facts)) == facts
    assert FileFacts.from_json(facts.to_json()) == facts


def test_object_literal_methods_are_symbols_only_under_a_named_binding() -> None:
    facts = extract("src/api.js", "const api = { get() {} };\nexport default { data() { return 1; } };\nrun({ cb() {} });\n")
    assert facts.symbols == (Symbol("api", "constant", 1, 1), Symbol("api.get", "method", 1, 1))


def test_broken_source_still_yields_what_parses() -> None:
    facts = extract("src/half.ts", "import { a } from './a';\nexport function ok() {}\nconst = = ;\n")
    assert facts.imports[0].target == "./a"
    assert Symbol("ok", "function", 2, 2) in facts.symbols

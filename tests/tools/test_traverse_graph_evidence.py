"""traverse_graph on member-level questions: resolved callers vs by-name candidates, and
`unreferenced` that never calls dynamically loaded code or an entry point dead."""

from __future__ import annotations

import json

import pytest
from graph_answers import dead_files

LIB = {
    "pkg/__init__.py": "from .console import Console\nfrom .termui import prompt\n",
    "pkg/console.py": """\
        class Console:
            def print(self, *objects) -> None:
                pass

            def rule(self) -> None:
                pass

            def unused(self) -> None:
                pass


        class Segment:
            def split_cells(self, cut: int) -> None:
                pass
        """,
    "pkg/termui.py": "def prompt(text):\n    return text\n",
}


def test_a_method_called_on_a_typed_receiver_is_a_resolved_caller_with_its_lines(ask) -> None:
    run = ask({**LIB, "app.py": "from pkg import Console\n\nc = Console()\nc.print(1)\n\nc.print(2)\n"})
    answer = run(mode="callers", symbol="Console.print")
    assert answer["status"] == "ok"
    assert answer["results"] == [{"path": "app.py", "targets": ["pkg/console.py"], "kinds": ["members"],
                                  "evidence": "resolved", "lines": [4, 6]}]


def test_an_untyped_receiver_makes_the_answer_undeterminable_with_candidates(ask) -> None:
    run = ask({**LIB, "tests/test_segment.py": "import pkg.console\n\n\ndef check(segment):\n"
                                                "    segment.split_cells(3)\n"})
    answer = run(mode="callers", symbol="Segment.split_cells")
    assert answer["status"] == "undeterminable"
    assert "could not be proven" in answer["reason"]
    assert [(r["path"], r["evidence"], r["lines"]) for r in answer["results"]] == [
        ("tests/test_segment.py", "by_name", [5])]
    impact = run(mode="impact", symbol="Segment.split_cells")
    assert impact["status"] == "undeterminable" and impact["results"][0]["evidence"] == "by_name"
    rename = run(mode="rename_symbol", symbol="Segment.split_cells")
    assert {(r["path"], r["role"]) for r in rename["results"]} == {
        ("pkg/console.py", "definition"), ("tests/test_segment.py", "candidate")}


def test_candidates_stand_beside_resolved_callers_and_nothing_at_all_is_no_references(ask) -> None:
    run = ask({**LIB,
               "app.py": "from pkg.console import Console\n\nConsole().rule()\n",
               "other.py": "import pkg\n\n\ndef f(x):\n    x.rule()\n"})
    answer = run(mode="callers", symbol="Console.rule")
    assert answer["status"] == "ok"
    assert [(r["path"], r["evidence"]) for r in answer["results"]] == [("app.py", "resolved"),
                                                                       ("other.py", "by_name")]
    nothing = run(mode="callers", symbol="Console.unused")
    assert nothing["status"] == "no_references" and nothing["results"] == []


def test_a_function_reached_through_a_package_reexport_has_its_callers(ask) -> None:
    run = ask({**LIB, "tests/test_prompt.py": "import pkg\n\n\ndef test_it():\n    pkg.prompt('x')\n",
               "tests/test_from.py": "from pkg import prompt\n\nprompt('y')\n"})
    answer = run(mode="callers", symbol="prompt", target="pkg/termui.py")
    paths = {r["path"] for r in answer["results"] if r["evidence"] == "resolved"}
    assert {"tests/test_prompt.py", "tests/test_from.py"} <= paths


@pytest.mark.parametrize("loader", [
    "import importlib\n\ndef load(v):\n    return importlib.import_module(f'.table{v}', __name__)\n",
    "def load(v):\n    return __import__('data.table' + v)\n",
    "import pkgutil\n\nfor found in pkgutil.iter_modules(__path__):\n    pass\n",
    "import sys\n\ndef load(name):\n    return getattr(sys.modules[__name__], name)\n",
    "from importlib import import_module as fetch\n\ndef load(v):\n    return fetch('data.table' + v)\n",
    "import importlib.util\n\ndef load(p):\n    return importlib.util.spec_from_file_location('t', p)\n",
    "import runpy\n\ndef load(v):\n    runpy.run_module(v)\n",
])
def test_files_loaded_by_a_computed_name_are_undeterminable_not_dead(ask, loader: str) -> None:
    run = ask({"data/__init__.py": loader, "data/table1.py": "cells = [1]\n", "data/table2.py": "cells = [2]\n"})
    answer = run(mode="unreferenced", target="data")
    assert not dead_files(answer) & {"data/table1.py", "data/table2.py"}
    assert {u["path"] for u in answer["undeterminable"]} >= {"data/table1.py", "data/table2.py"}
    assert all("data/__init__.py:" in u["reason"] for u in answer["undeterminable"])
    one = run(mode="unreferenced", target="data/table1.py")
    assert one["status"] == "undeterminable" and one["results"] == []
    assert "data/__init__.py:" in one["reason"]


def test_a_loader_of_one_literal_name_does_not_hide_other_dead_files(ask) -> None:
    run = ask({"data/__init__.py": "pager = __import__('pydoc')\n", "data/table1.py": "cells = [1]\n"})
    assert "data/table1.py" in dead_files(run(mode="unreferenced", target="data"))


@pytest.mark.parametrize("files, root", [
    ({"tool/__main__.py": "print('hi')\n"}, "tool/__main__.py"),
    ({"tool/diagnose.py": "def report():\n    pass\n\n\nif __name__ == '__main__':\n    report()\n"},
     "tool/diagnose.py"),
    ({"pyproject.toml": "[project]\nname = 'x'\n[project.scripts]\nxtool = 'tool.cli:main'\n",
      "tool/__init__.py": "", "tool/cli.py": "def main():\n    pass\n"}, "tool/cli.py"),
    ({"pyproject.toml": "[project]\nname = 'x'\n[project.entry-points.'x.plugins']\np = 'tool.plug:Plugin'\n",
      "tool/__init__.py": "", "tool/plug.py": "class Plugin:\n    pass\n"}, "tool/plug.py"),
    ({"package.json": json.dumps({"name": "x", "bin": {"x": "./bin/run.js"}, "main": "./lib/index.js"}),
      "bin/run.js": "console.log(1)\n", "lib/index.js": "export const a = 1;\n"}, "bin/run.js"),
    ({"src/main/java/a/App.java": "package a;\npublic class App {\n  public static void main(String[] args) {}\n}\n"},
     "src/main/java/a/App.java"),
    ({"go.mod": "module example.com/m\n\ngo 1.21\n", "cmd/tool/main.go": "package main\n\nfunc main() {}\n"},
     "cmd/tool/main.go"),
    ({"tests/test_thing.py": "def test_it():\n    pass\n"}, "tests/test_thing.py"),
    # gson: javac reads these descriptors; nothing imports them
    ({"src/main/java/a/package-info.java": "/** Docs. */\npackage a;\n"}, "src/main/java/a/package-info.java"),
    ({"src/main/java/module-info.java": "module a {\n  exports a;\n}\n"}, "src/main/java/module-info.java"),
    ({"setup.py": "from setuptools import setup\nsetup(name='x')\n"}, "setup.py"),
    ({"docs/conf.py": "project = 'x'\n"}, "docs/conf.py"),
    ({"vite.config.ts": "export default {plugins: []};\n"}, "vite.config.ts"),
    ({"eslint.config.mjs": "export default [];\n"}, "eslint.config.mjs"),
    ({"documentation/examples/pagination.js": "console.log(1);\n"}, "documentation/examples/pagination.js"),
    ({"next.config.ts": "export default {};\n", "src/app/dashboard/page.tsx": "export default function P() {}\n"},
     "src/app/dashboard/page.tsx"),
    # java.util.ServiceLoader instantiates what META-INF/services lists; nothing names it in code
    ({"src/main/resources/META-INF/services/a.spi.Codec": "# providers\na.impl.JsonCodec\n",
      "src/main/java/a/impl/JsonCodec.java": "package a.impl;\npublic class JsonCodec {}\n"},
     "src/main/java/a/impl/JsonCodec.java"),
    ({"benchmark/index.ts": "console.log(1);\n"}, "benchmark/index.ts"),
    # tsd's type tests and vitest's benchmarks are run by their tools, never imported
    ({"test-d/options.test-d.ts": "import {expectType} from 'tsd';\n"}, "test-d/options.test-d.ts"),
    ({"src/parse.test-d.ts": "import {expectType} from 'tsd';\n"}, "src/parse.test-d.ts"),
    ({"src/parse.bench.ts": "export const b = 1;\n"}, "src/parse.bench.ts"),
    ({"packages/bench/array.ts": "export const b = 1;\n"}, "packages/bench/array.ts"),
    ({"src/globals.d.ts": "declare const __DEV__: boolean;\n"}, "src/globals.d.ts"),
    ({".babelrc.js": "module.exports = {};\n"}, ".babelrc.js"),
    ({"go.mod": "module example.com/m\n\ngo 1.21\n", "doc.go": "// Package m does things.\npackage m\n"}, "doc.go"),
    ({"packages/integration/fixtures/ai-sdk/index.ts": "export const f = 1;\n"},
     "packages/integration/fixtures/ai-sdk/index.ts"),
    ({"tool/run.py": "def go():\n    pass\n\n\nif '__main__' == __name__:\n    go()\n"}, "tool/run.py"),
    ({"tool/run.py": "def go():\n    pass\n\n\nif (__name__ == '__main__'):\n    go()\n"}, "tool/run.py"),
    ({"shop/migrations/0002_add_price.py": "class Migration:\n    pass\n"}, "shop/migrations/0002_add_price.py"),
    ({"alembic/versions/3f2a_add_users.py": "def upgrade():\n    pass\n"}, "alembic/versions/3f2a_add_users.py"),
    ({"alembic/env.py": "def run():\n    pass\n"}, "alembic/env.py"),
    ({"shop/management/commands/import_prices.py": "class Command:\n    pass\n"},
     "shop/management/commands/import_prices.py"),
    ({"shop/templatetags/money.py": "def fmt(v):\n    return v\n"}, "shop/templatetags/money.py"),
    # test files by their runners' conventions: Django's and unittest's tests.py, Cypress specs,
    # Maven failsafe's *IT and JUnit 3's *TestCase classes
    ({"shop/tests.py": "class PriceTests:\n    pass\n"}, "shop/tests.py"),
    # Go's tools.go convention: a file of blank imports pins its module's dependencies
    ({"go.mod": "module example.com/m\n\ngo 1.21\n",
      "tools/tools.go": "//go:build tools\n\npackage tools\n\nimport (\n\t_ \"golang.org/x/tools/cmd/stringer\"\n)\n"},
     "tools/tools.go"),
    ({"cypress/e2e/login.cy.ts": "describe('login', () => {});\n"}, "cypress/e2e/login.cy.ts"),
    ({"src/main/java/a/CheckoutIT.java": "package a;\npublic class CheckoutIT {}\n"}, "src/main/java/a/CheckoutIT.java"),
    ({"src/main/java/a/PriceTestCase.java": "package a;\npublic class PriceTestCase {}\n"},
     "src/main/java/a/PriceTestCase.java"),
    ({"setup.py": "from setuptools import setup\nsetup(entry_points={'console_scripts': ['t = tool.cli:main']})\n",
      "tool/__init__.py": "", "tool/cli.py": "def main():\n    pass\n"}, "tool/cli.py"),
    ({"package.json": json.dumps({"name": "x", "scripts": {"gen": "node scripts/gen.mjs && tsx ./tools/check.ts"}}),
      "scripts/gen.mjs": "console.log(1)\n", "tools/check.ts": "export const main = 1;\n"}, "scripts/gen.mjs"),
    ({"package.json": json.dumps({"name": "x", "scripts": {"gen": "node scripts/gen.mjs && tsx ./tools/check.ts"}}),
      "scripts/gen.mjs": "console.log(1)\n", "tools/check.ts": "export const main = 1;\n"}, "tools/check.ts"),
])
def test_entry_points_are_roots_never_dead(ask, files: dict[str, str], root: str) -> None:
    run = ask({**files, "orphan.py": "x = 1\n"})
    answer = run(mode="unreferenced")
    assert answer["status"] == "ok"
    assert root not in dead_files(answer)
    assert "orphan.py" in dead_files(answer)  # still a real dead-code answer
    assert not any(r["path"] == root and r.get("symbol") in ("main", "Plugin", "App") for r in answer["results"])


def test_a_package_json_main_is_a_root_and_its_exports_are_its_api(ask) -> None:
    run = ask({"package.json": json.dumps({"name": "x", "main": "./dist/index.js"}),
               "src/index.ts": "export const api = 1;\n", "orphan.ts": "export const b = 2;\n"})
    answer = run(mode="unreferenced")
    assert dead_files(answer) == {"orphan.ts"}
    assert not any(r["path"] == "src/index.ts" for r in answer["results"])


def test_dynamic_import_in_typescript_and_class_for_name_in_java(ask) -> None:
    run = ask({"plugins/load.ts": "export const load = (n: string) => import(`./${n}`);\n",
               "plugins/a.ts": "export const a = 1;\n",
               "src/main/java/p/Loader.java": "package p;\nclass Loader { Object l(String n) throws Exception "
                                              "{ return Class.forName(n); } }\n",
               "src/main/java/p/Impl.java": "package p;\nclass Impl {}\n"})
    assert "plugins/a.ts" not in dead_files(run(mode="unreferenced", target="plugins"))
    java = run(mode="unreferenced", target="src/main/java/p")
    assert "src/main/java/p/Impl.java" not in dead_files(java)


def test_java_method_callers_are_typed_and_nested_types_keep_their_file_level_callers(ask) -> None:
    base = "src/main/java/a"
    run = ask({f"{base}/Gson.java": "package a;\npublic class Gson {\n  public String toJson(Object o) { return \"\"; }\n"
                                    "  public static class Inner {}\n}\n",
               f"{base}/User.java": "package a;\nclass User {\n  String f(Gson g) { return g.toJson(1); }\n"
                                    "  Gson.Inner i;\n}\n",
               f"{base}/Other.java": "package a;\nclass Other {\n  void f(java.util.List<Gson> all) {\n"
                                     "    all.stream().map(x -> x.toJson(2));\n  }\n}\n",
               f"{base}/Each.java": "package a;\nclass Each {\n  void f(java.util.List<Gson> all) {\n"
                                    "    all.forEach(x -> x.toJson(3));\n  }\n}\n"})
    callers = run(mode="callers", symbol="Gson.toJson")
    assert callers["status"] == "ok"
    # `forEach` on a List<Gson> types its lambda's parameter; a stream's `map` does not
    assert [(r["path"], r["evidence"]) for r in callers["results"]] == [
        (f"{base}/Each.java", "resolved"), (f"{base}/User.java", "resolved"), (f"{base}/Other.java", "by_name")]
    nested = run(mode="callers", symbol="Gson.Inner")
    assert nested["status"] == "ok" and [r["path"] for r in nested["results"]] == [f"{base}/User.java"]


@pytest.mark.parametrize("declaration", [
    "export default function isNetworkError(e: unknown) { return !!e; }\n",
    "export default async function isNetworkError(e: unknown) { return !!e; }\n",
    "function isNetworkError(e: unknown) { return !!e; }\nexport default isNetworkError;\n",
])
@pytest.mark.parametrize("local", ["isNetworkError", "check"])
def test_a_default_export_is_called_by_its_importers_under_any_local_name(ask, declaration: str, local: str) -> None:
    """ky: `import isRawNetworkError from '../utils/is-network-error.js'` — a default import names
    `default`, and the function must still have its caller and never be called dead."""
    run = ask({"src/utils/is-network-error.ts": declaration,
               "src/core.ts": f"import {local} from './utils/is-network-error.js';\n"
                              f"export const run = (e: unknown) => {local}(e);\n",
               "src/index.ts": "export {run} from './core.js';\n",
               "package.json": json.dumps({"name": "x", "main": "./src/index.ts"})})
    callers = run(mode="callers", target="src/utils/is-network-error.ts", symbol="isNetworkError")
    assert callers["status"] == "ok"
    assert [(r["path"], r["evidence"]) for r in callers["results"]] == [("src/core.ts", "resolved")]
    assert "isNetworkError" not in {r.get("symbol") for r in run(mode="unreferenced", target="src")["results"]}


def test_a_go_init_function_is_run_by_the_runtime_not_dead(ask) -> None:
    """fiber: `func init()` registers codecs; nothing calls it by name, and it is not dead code."""
    run = ask({"go.mod": "module example.com/m\n\ngo 1.21\n",
               "codec/codec.go": "package codec\n\nvar table = map[string]int{}\n\n"
                                 "func init() {\n\ttable[\"json\"] = 1\n}\n\nfunc unused() {}\n"})
    answer = run(mode="unreferenced", target="codec")
    assert answer["status"] == "ok"
    dead = {r.get("symbol") for r in answer["results"]}
    assert "init" not in dead and "unused" in dead


def test_tests_of_a_symbol_list_the_test_files_that_call_it_first(ask) -> None:
    """rich: the tests of `Segment.split_cells` are test_segment.py (it calls it) before every test
    that merely imports segment.py."""
    run = ask({**LIB,
               "tests/test_a_console.py": "from pkg.console import Console\n\ndef test_it():\n    Console()\n",
               "tests/test_segment.py": "from pkg.console import Segment\n\ndef test_split():\n"
                                        "    Segment().split_cells(3)\n",
               "tests/test_other.py": "from pkg.termui import prompt\n\ndef test_p():\n    prompt('x')\n"})
    answer = run(mode="tests", target="pkg/console.py", symbol="Segment.split_cells")
    assert answer["status"] == "ok"
    assert [(r["path"], r.get("evidence")) for r in answer["results"]] == [
        ("tests/test_segment.py", "resolved"), ("tests/test_a_console.py", None)]
    assert answer["results"][0]["lines"] == [4]
    nothing = run(mode="tests", target="pkg/termui.py", symbol="prompt")
    assert [r["path"] for r in nothing["results"]] == ["tests/test_other.py"]
    missing = run(mode="tests", symbol="no_such_symbol")
    assert missing["status"] != "ok"


@pytest.mark.parametrize("loader_path, loader, loaded", [
    ("pkg/loaders/__init__.py", "import importlib\n\ndef handler(n):\n    return importlib.import_module(f'pkg.handlers.{n}')\n",
     "pkg/handlers/mail.py"),
    ("pkg/loaders/__init__.py", "def handler(n):\n    return __import__('pkg.handlers.' + n)\n", "pkg/handlers/mail.py"),
    ("pkg/loaders/__init__.py", "from importlib import import_module\n\ndef handler(n):\n"
                                "    return import_module(f'..handlers.{n}', __name__)\n", "pkg/handlers/mail.py"),
    ("src/core/loader.ts", "export const load = (n: string) => import(`../../plugins/${n}.js`);\n", "plugins/alpha.ts"),
    ("src/core/loader.js", "exports.load = (n) => require('../../plugins/' + n);\n", "plugins/alpha.ts"),
    # other spellings of the same computed name: %-formatting, str.format, a template then `+`
    ("pkg/loaders/__init__.py", "import importlib\n\ndef handler(n):\n"
                                "    return importlib.import_module('pkg.handlers.%s' % n)\n", "pkg/handlers/mail.py"),
    ("pkg/loaders/__init__.py", "import importlib\n\ndef handler(n):\n"
                                "    return importlib.import_module('pkg.handlers.{}'.format(n))\n", "pkg/handlers/mail.py"),
    ("src/core/loader.ts", "export const load = (n: string) => import(`../../plugins/plugin-` + n);\n", "plugins/alpha.ts"),
    # loaders of every file a pattern matches: Vite's glob imports (relative, a list, root-relative)
    # and webpack's require.context (the folder itself, in any cast)
    ("src/core/loader.ts", "export const all = import.meta.glob('../../plugins/*.ts');\n", "plugins/alpha.ts"),
    ("src/core/loader.ts", "export const all = import.meta.glob(['../../plugins/**/*.ts', '!**/x.ts'], {eager: true});\n",
     "plugins/alpha.ts"),
    ("src/core/loader.ts", "export const all = import.meta.globEager('/plugins/al*.ts');\n", "plugins/alpha.ts"),
    ("src/core/loader.js", "const ctx = require.context('../../plugins', true, /\\.ts$/);\n", "plugins/alpha.ts"),
    ("src/core/loader.ts", "const ctx = (require as any).context(\n  '../../plugins', false);\n", "plugins/alpha.ts"),
])
def test_a_loader_with_a_written_folder_prefix_reaches_that_folder_wherever_it_is(
        ask, loader_path: str, loader: str, loaded: str) -> None:
    """The loaded folder is a sibling of the loader's, not beside it: still never called dead."""
    run = ask({"pkg/__init__.py": "", "pkg/handlers/__init__.py": "", "pkg/handlers/mail.py": "def handle():\n    pass\n",
               "plugins/alpha.ts": "export const run = () => 1;\n", loader_path: loader,
               "other/orphan.py": "def lonely():\n    pass\n"})
    answer = run(mode="unreferenced")
    assert loaded not in dead_files(answer)
    assert any(u["path"] == loaded and loader_path in u["reason"] for u in answer["undeterminable"])
    assert "other/orphan.py" in dead_files(answer)  # a loader names its folder, not the whole project


@pytest.mark.parametrize("config, routes, ordinary", [
    ("remix.config.js", ["app/routes/_index.tsx", "app/routes/posts.$id.tsx", "app/root.tsx", "app/entry.server.tsx"],
     "app/lib/helpers.ts"),
    ("svelte.config.js", ["src/routes/+page.ts", "src/routes/blog/[slug]/+page.server.ts", "src/hooks.server.ts"],
     "src/lib/helpers.ts"),
    ("nuxt.config.ts", ["pages/index.ts", "plugins/auth.ts", "composables/useCart.ts", "server/api/cart.ts"],
     "lib/helpers.ts"),
    ("astro.config.mjs", ["src/pages/index.ts", "src/pages/api/cart.ts", "src/middleware.ts"], "src/lib/helpers.ts"),
])
def test_other_frameworks_routes_are_loaded_by_their_path_never_dead(ask, config: str, routes: list[str],
                                                                      ordinary: str) -> None:
    run = ask({f"web/{config}": "export default {};\n",
               **{f"web/{r}": "export default function X() { return null; }\n" for r in routes},
               f"web/{ordinary}": "export const lonely = 1;\n"})
    answer = run(mode="unreferenced")
    assert not dead_files(answer) & {f"web/{r}" for r in routes}
    assert f"web/{ordinary}" in dead_files(answer)  # only the framework's own folders


def test_next_js_routes_are_loaded_by_their_path_never_dead(ask) -> None:
    """vercel/commerce: `app/**/page.tsx`, `layout.tsx`, `route.ts`, `pages/**` and `middleware.ts`
    are imported by nobody; Next.js loads them by where they are."""
    routes = ["app/page.tsx", "app/layout.tsx", "app/search/[q]/page.tsx", "app/api/cart/route.ts",
              "pages/legacy.tsx", "middleware.ts"]
    run = ask({"web/next.config.mjs": "export default {};\n",
               **{f"web/{r}": "export default function X() { return null; }\n" for r in routes},
               "web/app/helpers.ts": "export const lonely = 1;\n",
               "elsewhere/app/page.tsx": "export default function Y() { return null; }\n"})
    answer = run(mode="unreferenced")
    dead = dead_files(answer)
    assert not dead & {f"web/{r}" for r in routes}
    assert {"web/app/helpers.ts", "elsewhere/app/page.tsx"} <= dead  # no next.config beside them

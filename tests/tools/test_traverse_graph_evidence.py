"""traverse_graph on member-level questions: resolved callers vs by-name candidates, and
`unreferenced` that never calls dynamically loaded code or an entry point dead."""

from __future__ import annotations

import json
import subprocess
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

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


def make_project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    subprocess.run(["git", "-C", str(root), "init", "-q"], check=True, capture_output=True)
    return root


@pytest.fixture
def ask(tmp_path: Path) -> Iterator[Callable[..., Callable[..., dict[str, Any]]]]:
    opened: list[Workspace] = []

    def make(files: dict[str, str]) -> Callable[..., dict[str, Any]]:
        root = make_project(tmp_path / f"p{len(opened)}", files)
        workspace = Workspace(root)
        opened.append(workspace)
        context = ToolContext(workspace)
        return lambda **arguments: call("traverse_graph", arguments, context).to_json()

    yield make
    for workspace in opened:
        workspace.close()


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


def _dead(answer: dict[str, Any]) -> set[str]:
    return {r["path"] for r in answer["results"] if r.get("kind") == "file"} if answer["status"] == "ok" else set()


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
    assert not _dead(answer) & {"data/table1.py", "data/table2.py"}
    assert {u["path"] for u in answer["undeterminable"]} >= {"data/table1.py", "data/table2.py"}
    assert all("data/__init__.py:" in u["reason"] for u in answer["undeterminable"])
    one = run(mode="unreferenced", target="data/table1.py")
    assert one["status"] == "undeterminable" and one["results"] == []
    assert "data/__init__.py:" in one["reason"]


def test_a_loader_of_one_literal_name_does_not_hide_other_dead_files(ask) -> None:
    run = ask({"data/__init__.py": "pager = __import__('pydoc')\n", "data/table1.py": "cells = [1]\n"})
    assert "data/table1.py" in _dead(run(mode="unreferenced", target="data"))


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
    assert root not in _dead(answer)
    assert "orphan.py" in _dead(answer)  # still a real dead-code answer
    assert not any(r["path"] == root and r.get("symbol") in ("main", "Plugin", "App") for r in answer["results"])


def test_a_package_json_main_is_a_root_and_its_exports_are_its_api(ask) -> None:
    run = ask({"package.json": json.dumps({"name": "x", "main": "./dist/index.js"}),
               "src/index.ts": "export const api = 1;\n", "orphan.ts": "export const b = 2;\n"})
    answer = run(mode="unreferenced")
    assert _dead(answer) == {"orphan.ts"}
    assert not any(r["path"] == "src/index.ts" for r in answer["results"])


def test_dynamic_import_in_typescript_and_class_for_name_in_java(ask) -> None:
    run = ask({"plugins/load.ts": "export const load = (n: string) => import(`./${n}`);\n",
               "plugins/a.ts": "export const a = 1;\n",
               "src/main/java/p/Loader.java": "package p;\nclass Loader { Object l(String n) throws Exception "
                                              "{ return Class.forName(n); } }\n",
               "src/main/java/p/Impl.java": "package p;\nclass Impl {}\n"})
    assert "plugins/a.ts" not in _dead(run(mode="unreferenced", target="plugins"))
    java = run(mode="unreferenced", target="src/main/java/p")
    assert "src/main/java/p/Impl.java" not in _dead(java)


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
])
def test_a_loader_with_a_written_folder_prefix_reaches_that_folder_wherever_it_is(
        ask, loader_path: str, loader: str, loaded: str) -> None:
    """The loaded folder is a sibling of the loader's, not beside it: still never called dead."""
    run = ask({"pkg/__init__.py": "", "pkg/handlers/__init__.py": "", "pkg/handlers/mail.py": "def handle():\n    pass\n",
               "plugins/alpha.ts": "export const run = () => 1;\n", loader_path: loader,
               "other/orphan.py": "def lonely():\n    pass\n"})
    answer = run(mode="unreferenced")
    assert loaded not in _dead(answer)
    assert any(u["path"] == loaded and loader_path in u["reason"] for u in answer["undeterminable"])
    assert "other/orphan.py" in _dead(answer)  # a loader names its folder, not the whole project


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
    dead = _dead(answer)
    assert not dead & {f"web/{r}" for r in routes}
    assert {"web/app/helpers.ts", "elsewhere/app/page.tsx"} <= dead  # no next.config beside them


@pytest.mark.parametrize("files, loaded", [
    # pytest loads plugins named in a conftest by their dotted name
    ({"tests/conftest.py": "pytest_plugins = ['pkg.fixtures']\n", "pkg/__init__.py": "",
      "pkg/fixtures.py": "X = 1\n"}, "pkg/fixtures.py"),
    # Django's settings name apps and the settings module itself as strings
    ({"site/settings.py": "INSTALLED_APPS = ['shop.payments']\n", "shop/__init__.py": "",
      "shop/payments/__init__.py": "", "shop/payments/hooks.py": "X = 1\n",
      "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site.settings')\n"},
     "shop/payments/__init__.py"),
    ({"manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site.settings')\n",
      "site/settings.py": "DEBUG = True\n"}, "site/settings.py"),
    # a Procfile / Dockerfile runs an app by its module and attribute
    ({"Procfile": "web: gunicorn app.wsgi:application\n", "app/__init__.py": "", "app/wsgi.py": "application = 1\n"},
     "app/wsgi.py"),
    ({"Dockerfile": "CMD [\"uvicorn\", \"main:app\", \"--port\", \"80\"]\n", "main.py": "app = object()\n"}, "main.py"),
    ({"Makefile": "gen:\n\tpython tools/gen_tables.py > out.txt\n", "tools/gen_tables.py": "print(1)\n"},
     "tools/gen_tables.py"),
    # Vite's index.html names the app's entry module; a worker is named by its path
    ({"index.html": "<script type=\"module\" src=\"/src/main.ts\"></script>\n", "src/main.ts": "export const a = 1;\n"},
     "src/main.ts"),
    ({"src/app.ts": "export const w = new Worker(new URL('./workers/sync.ts', import.meta.url));\n",
      "src/workers/sync.ts": "export const b = 1;\n"}, "src/workers/sync.ts"),
    # serverless.yml names a handler by its file and export
    ({"serverless.yml": "functions:\n  mail:\n    handler: src/handlers/mail.handler\n",
      "src/handlers/mail.ts": "export const handler = () => 1;\n"}, "src/handlers/mail.ts"),
    # Sphinx loads a pygments style by a quoted `module.Class`, from a folder on its path
    ({"docs/conf.py": "pygments_style = 'flask_theme_support.FlaskyStyle'\n",
      "docs/_themes/flask_theme_support.py": "class FlaskyStyle:\n    pass\n"}, "docs/_themes/flask_theme_support.py"),
    # Spring XML creates the class it names
    ({"src/main/resources/beans.xml": "<beans><bean class=\"a.impl.Codec\"/></beans>\n",
      "src/main/java/a/impl/Codec.java": "package a.impl;\npublic class Codec {}\n"}, "src/main/java/a/impl/Codec.java"),
])
def test_code_named_as_text_elsewhere_is_undeterminable_not_dead(ask, files: dict[str, str], loaded: str) -> None:
    run = ask({**files, "orphan.py": "x = 1\n"})
    answer = run(mode="unreferenced")
    assert loaded not in _dead(answer)
    assert any(u["path"] == loaded and "named as text at" in u["reason"] for u in answer["undeterminable"])
    assert "orphan.py" in _dead(answer)  # the rule names files, it does not blind the whole answer


def test_a_link_to_another_copy_of_a_file_does_not_name_it(ask) -> None:
    run = ask({"src/formats.ts": "export const f = 1;\n",
               "src/format.ts": "// fork of https://github.com/x/y/blob/master/src/formats.ts\nexport const g = 1;\n",
               "src/index.ts": "import { g } from './format'\nexport { g }\n"})
    assert "src/formats.ts" in _dead(run(mode="unreferenced", target="src"))


def test_decorated_definitions_may_be_registered_and_are_not_called_dead(ask) -> None:
    run = ask({"web/__init__.py": "", "web/app.py": "class App:\n    def get(self, p):\n        return lambda f: f\n\n\napp = App()\n",
               "web/routes.py": "from dataclasses import dataclass\nfrom .app import app\n\n\n@app.get('/')\n"
                                "def index():\n    return 'hi'\n\n\n@dataclass\nclass Unused:\n    x: int = 0\n",
               "web/main.py": "from . import routes\n",
               "src/main/java/a/Handler.java": "package a;\n\n@Component\npublic class Handler {}\n",
               "src/main/java/a/Old.java": "package a;\n\n@Deprecated\npublic class Old {}\n",
               "package.json": '{"main": "ts/main.ts"}', "ts/main.ts": "import './mailer'\n",
               "ts/mailer.ts": "import { Injectable } from '@nestjs/common'\n\n@Injectable()\n"
                               "export class Mailer {}\n\nexport class Unused {}\n"})
    answer = run(mode="unreferenced")
    symbols = {(r["path"], r.get("symbol")) for r in answer["results"]}
    assert ("web/routes.py", "index") not in symbols
    assert ("web/routes.py", "Unused") in symbols  # @dataclass registers nothing
    assert any(u.get("symbol") == "index" and "@app.get" in u["reason"] for u in answer["undeterminable"])
    assert "src/main/java/a/Handler.java" not in _dead(answer)
    assert any(u["path"] == "src/main/java/a/Handler.java" and "@Component" in u["reason"]
               for u in answer["undeterminable"])
    assert "src/main/java/a/Old.java" in _dead(answer)
    assert ("ts/mailer.ts", "Unused") in symbols and ("ts/mailer.ts", "Mailer") not in symbols


def test_a_package_init_runs_whenever_a_module_beneath_it_does(ask) -> None:
    run = ask({"pyproject.toml": "[project]\nname = 'x'\n[project.scripts]\nx = 'tool.cli:main'\n",
               "tool/__init__.py": "VERSION = '1'\n", "tool/cli.py": "def main():\n    pass\n",
               "lonely/__init__.py": "", "lonely/mod.py": "y = 1\n"})
    dead = _dead(run(mode="unreferenced"))
    assert "tool/__init__.py" not in dead
    assert {"lonely/__init__.py", "lonely/mod.py"} <= dead


def test_a_programs_top_level_variables_run_and_are_not_dead(ask) -> None:
    run = ask({"example/server.ts": "import { Server } from '../src/core'\n\nconst helper = () => 1\n"
                                    "const app = new Server().listen(3000)\n",
               "src/core.ts": "export class Server { listen(p: number) { return this } }\n",
               "docs/conf.py": "project = 'x'\nhtml_theme = 'alabaster'\n",  # sphinx reads them by name
               "lib/util.py": "WINDOWS = True\n\n\nif __name__ == '__main__':\n    print(1)\n"})
    results = run(mode="unreferenced")["results"]
    symbols = {r.get("symbol") for r in results if r["path"] == "example/server.ts"}
    assert "app" not in symbols
    assert "helper" in symbols
    assert not [r for r in results if r["path"] == "docs/conf.py"]
    # a module with a `__main__` guard is a library first: its unused variable is still dead
    assert {"path": "lib/util.py", "symbol": "WINDOWS", "kind": "constant", "start_line": 1} in results


@pytest.mark.parametrize("lookup", [
    "        return getattr(self, 'visit_' + type(node).__name__)(node)\n",
    "        return getattr(self, f'visit_{type(node).__name__}')(node)\n",
    "        return getattr(self, 'visit_%s' % type(node).__name__)(node)\n",
    "        return getattr(self, 'visit_{}'.format(type(node).__name__))(node)\n",
])
def test_a_method_reached_by_a_computed_lookup_is_never_a_confident_nothing(ask, lookup: str) -> None:
    """ast.NodeVisitor's shape: `visit_Name` is called, by a name made at run time."""
    run = ask({"pkg/__init__.py": "", "pkg/visitor.py": "class Visitor:\n    def visit(self, node):\n" + lookup
               + "\n    def visit_Name(self, node):\n        return node\n\n    def unused(self):\n        return 1\n"})
    answer = run(mode="callers", target="pkg/visitor.py", symbol="Visitor.visit_Name")
    assert answer["status"] == "undeterminable"
    assert "pkg/visitor.py:3" in answer["reason"] and "'visit_'" in answer["reason"]
    assert answer["results"][0]["evidence"] == "by_name" and answer["results"][0]["lines"] == [3]
    # the prefix names `visit_*` only: a method it cannot reach is still a real "nothing"
    assert run(mode="callers", target="pkg/visitor.py", symbol="Visitor.unused")["status"] == "no_references"


@pytest.mark.parametrize("files", [
    {"pkg/use.py": "from pkg.ui import Button\n\nHANDLERS = {'click': 'handle_click'}\n\n\n"
                   "def dispatch(b: Button, e: str):\n    return getattr(b, HANDLERS[e])()\n"},
    {"web/use.ts": "import { Button } from '../pkg/ui'\n\nexport const fire = (b: Button, e: string) => "
                   "(b as any)[`handle_${e}`]()\n"},
])
def test_a_method_named_by_a_string_or_a_prefixed_key_is_undeterminable(ask, files: dict[str, str]) -> None:
    run = ask({"pkg/__init__.py": "", "pkg/ui.py": "class Button:\n    def handle_click(self):\n        return 1\n",
               "pkg/ui.ts": "export class Button {\n  handle_click() { return 1 }\n}\n", **files})
    target = "pkg/ui.ts" if "web/use.ts" in files else "pkg/ui.py"
    answer = run(mode="callers", target=target, symbol="Button.handle_click")
    assert answer["status"] == "undeterminable"
    assert answer["results"] and answer["results"][0]["path"] in files


def test_an_export_list_is_not_a_run_time_lookup() -> None:
    from konstruct_tui.graph.dynamic_lookups import lookup_sites

    texts = {"pkg/__init__.py": "from .errors import TransportError\n\n__all__ = [\n    'TransportError',\n]\n",
             "pkg/table.py": "ERRORS = {'transport': 'TransportError'}\n"}
    assert lookup_sites("TransportError", ["pkg/__init__.py"], set(), texts.get) == []
    assert lookup_sites("TransportError", list(texts), set(), texts.get) == [
        ("pkg/table.py", 1, "'TransportError' written as a string")]


def test_an_importable_go_packages_exported_names_are_api_not_dead(ask) -> None:
    """chi's middleware: nobody in the module calls BasicAuth; every user of the library does."""
    run = ask({"go.mod": "module example.com/m\n\ngo 1.21\n",
               "middleware/basic_auth.go": "package middleware\n\nfunc BasicAuth() {}\n\nfunc helper() {}\n\n"
                                           "var _ = BasicAuth\n",
               "internal/util/util.go": "package util\n\nfunc Unused() {}\n"})
    answer = run(mode="unreferenced")
    dead = {(r["path"], r.get("symbol")) for r in answer["results"]}
    assert ("middleware/basic_auth.go", None) not in dead
    assert ("middleware/basic_auth.go", "BasicAuth") not in dead
    assert any(u["path"] == "middleware/basic_auth.go" and "exported" in u["reason"] for u in answer["undeterminable"])
    assert ("middleware/basic_auth.go", "helper") in dead  # unexported: provably unused
    assert ("middleware/basic_auth.go", "_") not in dead  # a compile-time assertion, never a name
    assert ("internal/util/util.go", None) in dead  # internal: only this module could import it


@pytest.mark.parametrize("files, target, called, uncalled", [
    ({"pkg/vec.py": "class Vec:\n    def __add__(self, o):\n        return self\n\n    def norm(self):\n        return 1\n"},
     "pkg/vec.py", "Vec.__add__", "Vec.norm"),
    ({"src/main/java/a/Money.java": "package a;\n\npublic class Money implements Comparable<Money> {\n    @Override\n"
                                    "    public int compareTo(Money o) { return 0; }\n\n    public int cents() { return 1; }\n}\n"},
     "src/main/java/a/Money.java", "Money.compareTo", "Money.cents"),
    ({"go.mod": "module example.com/g\n\ngo 1.21\n",
      "g/e.go": "package g\n\ntype E struct{}\n\nfunc (e E) Error() string { return \"\" }\n\nfunc (e E) code() int { return 1 }\n"},
     "g/e.go", "E.Error", "E.code"),
    ({"src/bag.ts": "export class Bag {\n  toJSON() { return {} }\n  size() { return 0 }\n}\n"},
     "src/bag.ts", "Bag.toJSON", "Bag.size"),
    ({"src/el.ts": "class Base { draw() {} }\nexport class El extends Base {\n  override draw() {}\n  size() { return 0 }\n}\n"},
     "src/el.ts", "El.draw", "El.size"),
])
def test_methods_the_runtime_calls_by_protocol_are_never_a_confident_nothing(
        ask, files: dict[str, str], target: str, called: str, uncalled: str) -> None:
    """`a + b` runs `__add__`, `fmt.Println(err)` runs `Error()`, `JSON.stringify` runs `toJSON`,
    a `TreeMap` runs `compareTo`: nobody writes their names."""
    run = ask(files)
    answer = run(mode="callers", target=target, symbol=called)
    assert answer["status"] == "undeterminable", answer
    assert "draw no conclusion" in answer["reason"]
    assert run(mode="callers", target=target, symbol=uncalled)["status"] == "no_references"


def test_a_file_that_only_passes_a_name_on_is_not_a_caller_but_renames_still_edit_it(ask) -> None:
    """requests: `from .api import get` in `__init__.py` and an unused import kept "for external
    consumers" use nothing; type-aware references do not count them, and neither does `callers`."""
    run = ask({"pkg/__init__.py": "from .api import get\n", "pkg/api.py": "def get(url):\n    return url\n",
               "pkg/sessions.py": "from .api import (\n    get,  # re-export for external consumers\n)\n",
               "tests/test_api.py": "import pkg\n\n\ndef test_get():\n    assert pkg.get('u') == 'u'\n"})
    answer = run(mode="callers", target="pkg/api.py", symbol="get")
    assert answer["status"] == "ok"
    assert [r["path"] for r in answer["results"]] == ["tests/test_api.py"]
    assert answer["results"][0]["via"] == ["pkg/__init__.py"]
    assert answer["imported_only_by"] == ["pkg/__init__.py", "pkg/sessions.py"]
    rename = run(mode="rename_symbol", target="pkg/api.py", symbol="get")
    assert {"pkg/__init__.py", "pkg/sessions.py"} <= {r["path"] for r in rename["results"]}


def test_an_aliased_re_export_names_the_original_and_counts(ask) -> None:
    run = ask({"pkg/__init__.py": "from .api import get as get\n", "pkg/api.py": "def get(url):\n    return url\n"})
    answer = run(mode="callers", target="pkg/api.py", symbol="get")
    assert [r["path"] for r in answer["results"]] == ["pkg/__init__.py"]
    assert "imported_only_by" not in answer


@pytest.mark.parametrize("files, target", [
    ({"pkg/__init__.py": "", "pkg/models.py": "class Base:\n    def save(self):\n        return 1\n\n\nclass Child(Base):\n"
                                              "    def save(self):\n        return 2\n\n    def size(self):\n        return 0\n",
      "pkg/use.py": "from pkg.models import Base\n\n\ndef go(b: Base):\n    return b.save()\n"}, "pkg/models.py"),
    ({"src/main/java/a/Base.java": "package a;\npublic interface Base {\n  int save();\n}\n",
      "src/main/java/a/Child.java": "package a;\npublic class Child implements Base {\n  public int save() { return 2; }\n"
                                    "  public int size() { return 0; }\n}\n",
      "src/main/java/a/Use.java": "package a;\npublic class Use {\n  int go(Base b) { return b.save(); }\n}\n"},
     "src/main/java/a/Child.java"),
])
def test_an_override_is_run_by_calls_of_the_supertype_method(ask, files: dict[str, str], target: str) -> None:
    """`b.save()` with `b: Base` runs `Child.save` whenever `b` is a Child: never a confident nothing."""
    run = ask(files)
    answer = run(mode="callers", target=target, symbol="Child.save")
    assert answer["status"] == "undeterminable"
    caller = next(r for r in answer["results"] if r["path"] in files and r["path"] != target)
    assert caller["evidence"] == "by_name" and caller["calls_base"] == "Base.save"
    assert run(mode="callers", target=target, symbol="Child.size")["status"] == "no_references"

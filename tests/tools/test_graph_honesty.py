"""traverse_graph never answers a confident "nothing" for code that runs without being named:
code named as text elsewhere, registered by decorators, looked up at run time, called by the
runtime's protocols or through a supertype; and `callers` counts uses, not pass-throughs."""

from __future__ import annotations

import pytest
from graph_answers import dead_files


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
    assert loaded not in dead_files(answer)
    assert any(u["path"] == loaded and "named as text at" in u["reason"] for u in answer["undeterminable"])
    assert "orphan.py" in dead_files(answer)  # the rule names files, it does not blind the whole answer


def test_a_link_to_another_copy_of_a_file_does_not_name_it(ask) -> None:
    run = ask({"src/formats.ts": "export const f = 1;\n",
               "src/format.ts": "// fork of https://github.com/x/y/blob/master/src/formats.ts\nexport const g = 1;\n",
               "src/index.ts": "import { g } from './format'\nexport { g }\n"})
    assert "src/formats.ts" in dead_files(run(mode="unreferenced", target="src"))


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
    assert "src/main/java/a/Handler.java" not in dead_files(answer)
    assert any(u["path"] == "src/main/java/a/Handler.java" and "@Component" in u["reason"]
               for u in answer["undeterminable"])
    assert "src/main/java/a/Old.java" in dead_files(answer)
    assert ("ts/mailer.ts", "Unused") in symbols and ("ts/mailer.ts", "Mailer") not in symbols


def test_classes_registered_when_defined_are_not_called_dead(ask) -> None:
    # A registry filled by `__init_subclass__` (two levels down), by a metaclass (inherited from a
    # base), and by a class factory's base (SQLAlchemy's declarative_base()): the program reaches
    # these classes without writing their names. ABCMeta, plain bases and a hook that only sets
    # attributes register nothing.
    run = ask({"base.py": "import abc\n\n\nclass Plugin:\n    registry = {}\n\n"
                          "    def __init_subclass__(cls, **kw):\n        Plugin.registry[cls.__name__] = cls\n\n\n"
                          "class Meta(type):\n    def __new__(mcs, name, bases, ns):\n"
                          "        return super().__new__(mcs, name, bases, ns)\n\n\n"
                          "class Model(metaclass=Meta):\n    pass\n\n\n"
                          "class Shape(metaclass=abc.ABCMeta):\n    pass\n\n\n"
                          "class Tagged:\n    def __init_subclass__(cls):\n        cls.tag = cls.__name__.lower()\n",
               "models.py": "from sqlalchemy.orm import declarative_base\n\nBase = declarative_base()\n",
               "plugins.py": "from base import Plugin, Model, Shape, Tagged\nfrom models import Base\n\n\n"
                             "class Middle(Plugin):\n    pass\n\n\nclass Hello(Middle):\n    pass\n\n\n"
                             "class User(Model):\n    pass\n\n\nclass Row(Base):\n    pass\n\n\n"
                             "class Square(Shape):\n    pass\n\n\nclass Plain:\n    pass\n\n\nclass Tag(Tagged):\n    pass\n",
               "main.py": "import plugins\nfrom base import Plugin\n\n"
                          "if __name__ == '__main__':\n    for cls in Plugin.registry.values():\n        cls()\n"})
    answer = run(mode="unreferenced", target="plugins.py")
    dead = {r.get("symbol") for r in answer["results"]}
    # a hook that only sets the class's attributes keeps it nowhere
    assert answer["status"] == "ok" and dead == {"Square", "Plain", "Tag"}
    reasons = {u["symbol"]: u["reason"] for u in answer["undeterminable"]}
    assert "Plugin.__init_subclass__" in reasons["Hello"]  # Middle is used: Hello names it
    assert "metaclass Meta" in reasons["User"]
    assert "its base Base is made at run time" in reasons["Row"]


def test_storybook_loads_its_config_and_stories_by_name(ask) -> None:
    run = ask({"package.json": '{"name": "ui", "main": "src/index.ts"}', "src/index.ts": "export const a = 1;\n",
               ".storybook/main.ts": "export default { stories: ['../src/**/*.stories.tsx'] };\n",
               ".storybook/preview.tsx": "export const parameters = {};\n",
               "src/Button.stories.tsx": "export default { title: 'Button' };\nexport const Primary = {};\n",
               "src/orphan.ts": "export const lonely = 1;\n"})
    answer = run(mode="unreferenced")
    assert dead_files(answer) == {"src/orphan.ts"}
    roots = {e["path"]: e["reason"] for e in answer["entry_points"]}
    assert "Storybook" in roots[".storybook/main.ts"] and "Storybook" in roots["src/Button.stories.tsx"]


def test_a_django_project_is_read_as_django_reads_it(ask) -> None:
    # Django loads the settings module by name and reads its constants by name, loads the URL conf
    # named in them and reads `urlpatterns`, and imports each installed app's admin/apps/models.
    run = ask({"manage.py": "import os\n\nif __name__ == '__main__':\n"
                            "    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site.settings')\n",
               "site/__init__.py": "", "site/settings.py": "INSTALLED_APPS = ['shop.payments']\nROOT_URLCONF = 'site.urls'\n",
               "site/urls.py": "urlpatterns = []\n", "shop/__init__.py": "", "shop/payments/__init__.py": "",
               "shop/payments/admin.py": "from django.contrib import admin\n\nadmin.site.site_header = 'Shop'\n",
               "shop/payments/apps.py": "from django.apps import AppConfig\n\n\nclass PaymentsConfig(AppConfig):\n    pass\n",
               "shop/payments/views.py": "def orphan_view(request):\n    return None\n",
               "lonely/admin.py": "X = 1\n"})
    answer = run(mode="unreferenced")
    dead = {(r["path"], r.get("symbol")) for r in answer["results"]}
    assert dead == {("shop/payments/views.py", None), ("shop/payments/views.py", "orphan_view"),
                    ("lonely/admin.py", None), ("lonely/admin.py", "X")}  # no app names `lonely`
    reasons = {(u["path"], u.get("symbol")): u["reason"] for u in answer["undeterminable"]}
    assert "site/settings.py:1" in reasons[("shop/payments/admin.py", None)]
    assert "by convention" in reasons[("shop/payments/apps.py", None)]
    assert "may read INSTALLED_APPS by name" in reasons[("site/settings.py", "INSTALLED_APPS")]
    assert "may read urlpatterns by name" in reasons[("site/urls.py", "urlpatterns")]


def test_a_script_named_by_its_path_keeps_its_unused_functions_dead(ask) -> None:
    # `python tools/gen.py` runs the file: what it does not call itself nobody calls. A module named
    # by its dotted name is imported by something that may read its attributes by name.
    run = ask({"Makefile": "gen:\n\tpython tools/gen.py\n", "tools/gen.py": "def unused():\n    pass\n\n\nprint(1)\n",
               "tests/conftest.py": "pytest_plugins = ['pkg.fixtures']\n", "pkg/__init__.py": "",
               "pkg/fixtures.py": "def helper():\n    pass\n"})
    answer = run(mode="unreferenced")
    dead = {(r["path"], r.get("symbol")) for r in answer["results"]}
    undeterminable = {(u["path"], u.get("symbol")) for u in answer["undeterminable"]}
    assert ("tools/gen.py", "unused") in dead and ("tools/gen.py", None) in undeterminable
    assert ("pkg/fixtures.py", "helper") in undeterminable and ("pkg/fixtures.py", None) in undeterminable


def test_a_package_init_runs_whenever_a_module_beneath_it_does(ask) -> None:
    run = ask({"pyproject.toml": "[project]\nname = 'x'\n[project.scripts]\nx = 'tool.cli:main'\n",
               "tool/__init__.py": "VERSION = '1'\n", "tool/cli.py": "def main():\n    pass\n",
               "lonely/__init__.py": "", "lonely/mod.py": "y = 1\n"})
    dead = dead_files(run(mode="unreferenced"))
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
    # the reason names the symbol as a person writes it, never as a Python record (`Symbol(name=...)`)
    reasons = [u["reason"] for u in answer["undeterminable"] if u["path"] == "middleware/basic_auth.go"]
    assert "BasicAuth is exported from an importable Go package: another module may use it" in reasons, reasons
    assert not any("Symbol(" in r for r in reasons), reasons
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


def test_a_rename_warns_about_a_protocol_or_a_run_time_lookup(ask) -> None:
    run = ask({"pkg/vec.py": "class Vec:\n    def __add__(self, o):\n        return self\n\n"
                             "    def visit(self, n):\n        return getattr(self, 'visit_' + n)()\n\n"
                             "    def visit_Name(self):\n        return 1\n"})
    dunder = run(mode="rename_symbol", target="pkg/vec.py", symbol="Vec.__add__")
    assert "Python calls __add__ through its syntax" in dunder["reason"] and "before renaming" in dunder["reason"]
    looked_up = run(mode="rename_symbol", target="pkg/vec.py", symbol="Vec.visit_Name")
    assert "'visit_'" in looked_up["reason"] and "before renaming" in looked_up["reason"]


@pytest.mark.parametrize("files", [
    # a dispatcher in the same module: `cmd_add` is called by a name made at run time
    {"tool/cli.py": "def cmd_add():\n    return 1\n\n\ndef run(name):\n    return globals()['cmd_' + name]()\n\n\n"
                    "if __name__ == '__main__':\n    run('add')\n"},
    # an importer looks the function up by its name as a string
    {"tool/__init__.py": "", "tool/cli.py": "def cmd_add():\n    return 1\n",
     "tool/main.py": "from tool import cli\n\n\ndef run():\n    return getattr(cli, 'cmd_add')()\n\n\n"
                     "if __name__ == '__main__':\n    run()\n"},
])
def test_a_function_looked_up_by_name_is_not_called_dead(ask, files: dict[str, str]) -> None:
    answer = ask({**files, "tool/lonely.py": "def lonely():\n    return 1\n"})(mode="unreferenced")
    symbols = {(r["path"], r.get("symbol")) for r in answer["results"]}
    assert ("tool/cli.py", "cmd_add") not in symbols
    assert any(u.get("symbol") == "cmd_add" and "looked up at run time" in u["reason"] for u in answer["undeterminable"])
    assert ("tool/lonely.py", "lonely") in symbols


def test_a_wholly_computed_loader_reaches_the_folder_it_names_wherever_it_is(ask) -> None:
    """`import_module(name)` over `os.listdir(ROOT / "plugins")`, from a sibling folder."""
    run = ask({"src/app/__init__.py": "", "src/app/registry.py":
               "import importlib\nimport os\nfrom pathlib import Path\n\nROOT = Path(__file__).parent.parent\n\n\n"
               "def load_all():\n    for f in os.listdir(ROOT / 'plugins'):\n"
               "        importlib.import_module(f[:-3])\n",
               "src/plugins/alpha.py": "def run():\n    return 1\n",
               "src/other/orphan.py": "def lonely():\n    return 1\n"})
    answer = run(mode="unreferenced")
    assert "src/plugins/alpha.py" not in dead_files(answer)
    assert any(u["path"] == "src/plugins/alpha.py" and "src/app/registry.py:" in u["reason"]
               for u in answer["undeterminable"])
    assert "src/other/orphan.py" in dead_files(answer)


@pytest.mark.parametrize("files, target", [
    ({"pkg/__init__.py": "", "pkg/heavy.py": "class Heavy:\n    def run(self):\n        return 1\n",
      "app/use.py": "import importlib\n\n\ndef go():\n    mod = importlib.import_module('pkg.heavy')\n"
                    "    return mod.Heavy().run()\n"}, "pkg/heavy.py"),
    ({"src/heavy.ts": "export class Heavy {\n  run() { return 1 }\n}\n",
      "src/use.ts": "export async function go() {\n  const mod = await import('./heavy')\n"
                    "  return new mod.Heavy().run()\n}\n"}, "src/heavy.ts"),
])
def test_code_loaded_by_a_literal_name_is_not_a_confident_nothing(ask, files: dict[str, str], target: str) -> None:
    """`importlib.import_module('pkg.heavy')` / `await import('./heavy')`: no import edge, yet a use."""
    run = ask(files)
    answer = run(mode="callers", target=target, symbol="Heavy")
    assert answer["status"] == "undeterminable"
    assert answer["results"][0]["loads_by_name"] is True and "loaded by name" in answer["reason"]
    method = run(mode="callers", target=target, symbol="Heavy.run")
    assert method["status"] == "undeterminable" and method["results"][0]["evidence"] == "by_name"


def test_a_list_of_export_names_is_not_a_lookup_of_a_function(ask) -> None:
    """h3's test snapshots `Object.keys(await import("../../src"))`: the names are a list of exports."""
    run = ask({"src/index.ts": "export * from './app'\n",
               "src/app.ts": "export function createApp() { return 1 }\n",
               "test/exports.test.ts": "it('exports', async () => {\n  expect(Object.keys(await import('../src')))"
                                       ".toEqual([\n    \"createApp\",\n  ])\n})\n"})
    assert run(mode="callers", target="src/app.ts", symbol="createApp")["status"] == "no_references"


def test_more_ways_code_runs_unnamed_that_unreferenced_must_see(ask) -> None:
    """A README's `python -m`, a decorator whose arguments span lines, and (the other way round) a
    file that only names itself, which proves nothing."""
    answer = ask({"README.md": "Run it with `python -m tools.report --all`.\n",
                  "tools/__init__.py": "", "tools/report.py": "print(1)\n",
                  "web/__init__.py": "", "web/main.py": "from web import routes\n\n\nif __name__ == '__main__':\n    pass\n",
                  "web/routes.py": "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n@router.get(\n    '/items',\n"
                                   "    tags=['items'],\n)\ndef list_items():\n    return []\n",
                  "lonely/__init__.py": "", "lonely/self_named.py": '"""lonely.self_named: nothing loads me."""\nX = 1\n'
                  })(mode="unreferenced")
    assert "tools/report.py" not in dead_files(answer)
    assert not any(r.get("symbol") == "list_items" for r in answer["results"])
    assert "lonely/self_named.py" in dead_files(answer)


def test_dunder_import_then_getattr_is_a_load_by_name(ask) -> None:
    run = ask({"pkg/__init__.py": "", "pkg/heavy.py": "class Heavy:\n    pass\n",
               "app/use.py": "def go():\n    mod = __import__('pkg.heavy', fromlist=['Heavy'])\n"
                             "    return getattr(mod, 'Heavy')()\n"})
    answer = run(mode="callers", target="pkg/heavy.py", symbol="Heavy")
    assert answer["status"] == "undeterminable" and answer["results"][0]["path"] == "app/use.py"


def test_registration_and_app_spellings_seen_from_other_angles(ask) -> None:
    # a hook whose first parameter is not called `cls`; an app listed by its AppConfig's dotted path
    run = ask({"base.py": "REGISTRY = []\n\n\nclass Plugin:\n    def __init_subclass__(klass, **kw):\n"
                          "        super().__init_subclass__(**kw)\n        REGISTRY.append(klass)\n",
               "plugins.py": "from base import Plugin\n\n\nclass Hello(Plugin):\n    pass\n",
               "manage.py": "import plugins\n\nif __name__ == '__main__':\n    pass\n",
               "site/settings.py": "INSTALLED_APPS = ['shop.payments.apps.PaymentsConfig']\n",
               "run.py": "import os\n\nif __name__ == '__main__':\n    os.environ['DJANGO_SETTINGS_MODULE'] = 'site.settings'\n",
               "shop/__init__.py": "", "shop/payments/__init__.py": "",
               "shop/payments/apps.py": "class PaymentsConfig:\n    verbose_name = 'Payments'\n",
               "shop/payments/admin.py": "HEADER = 'Shop'\n"})
    answer = run(mode="unreferenced")
    dead = {(r["path"], r.get("symbol")) for r in answer["results"]}
    assert ("plugins.py", "Hello") not in dead
    assert not {p for p, _ in dead} & {"shop/payments/admin.py", "shop/payments/apps.py"}

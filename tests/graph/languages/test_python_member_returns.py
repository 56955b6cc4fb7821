"""Python receivers typed by what functions state they return:
a function's `return` values when they all agree (never what pytest passes a test), an annotation
naming several project classes, a name rebound from itself, an attribute a method assigns."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.python import SUPPORT as PYTHON

LIB = {
    "app/__init__.py": "",
    "app/core.py": """\
        class Config:
            def from_file(self, path) -> bool: ...
        class Runner:
            def invoke(self, args) -> int: ...
        class Builder:
            def add_eq(self):
                self.eq = True
                return self
            def add_repr(self):
                return self
            def build(self) -> type: ...
        class App:
            def __init__(self) -> None:
                self.config = self.make_config()
            def make_config(self) -> Config: ...
            def runner(self):
                return Runner()
            def maybe(self, flag):
                if flag:
                    return Runner()
                return Config()
            @classmethod
            def create(cls):
                return cls()
        def make_app():
            app = App()
            return app
        def gen_app():
            yield App()
            return Config()
        """,
    "app/urls.py": """\
        class URL:
            def replace(self, **parts) -> "URL": ...
            def text(self) -> str: ...
            def host(self) -> str: ...
        class Router:
            def url_path_for(self, name) -> str: ...
        class Site:
            def url_path_for(self, name) -> str: ...
        """,
}


def uses(code: str, path: str = "test_it.py", extra: dict[str, str] | None = None) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(PYTHON, {**LIB, **(extra or {}), path: code}, path)


def test_returns_that_all_state_one_class_type_the_call() -> None:
    used, unknown = uses("""\
        from app.core import App, make_app
        App().runner().invoke([])
        make_app().config.from_file("x")
        App.create().runner()
        """)
    assert {"Runner.invoke", "Config.from_file", "App.runner"} <= used["app/core.py"]
    assert not {"invoke", "from_file", "runner"} & unknown


def test_returns_that_disagree_type_nothing() -> None:
    used, unknown = uses("""\
        from app.core import App
        App().maybe(True).invoke([])
        """)
    assert "Runner.invoke" not in used["app/core.py"]
    assert "invoke" in unknown


def test_a_generator_returns_none_of_its_return_values() -> None:
    used, unknown = uses("""\
        from app.core import gen_app
        gen_app().from_file("x")
        """)
    assert "Config.from_file" not in used.get("app/core.py", set())
    assert "from_file" in unknown


def test_methods_returning_self_type_a_chain_of_calls() -> None:
    used, unknown = uses("""\
        from app.core import Builder
        b = Builder()
        b.add_eq().add_repr().build()
        """)
    assert {"Builder.add_eq", "Builder.add_repr", "Builder.build"} <= used["app/core.py"]
    assert not {"add_repr", "build"} & unknown


def test_an_attribute_a_method_assigns_is_typed_by_what_it_is_assigned() -> None:
    used, unknown = uses("""\
        from app.core import App
        def check(app: App):
            app.config.from_file("x")
        """)
    assert "Config.from_file" in used["app/core.py"]
    assert "from_file" not in unknown


def test_what_pytest_passes_a_test_is_by_name_evidence_not_a_proven_type() -> None:
    """Fixture injection is pytest's convention, not something the source states: a member used
    on a test's parameter is by-name evidence (a candidate), as a language server that follows
    the language (pyright) leaves it untyped, whatever fixture of that name a conftest defines."""
    conftest = """\
        import pytest
        from app.core import App, Runner
        @pytest.fixture
        def app():
            app = App()
            yield app
        @pytest.fixture()
        def runner(app):
            return app.runner()
        @pytest.fixture(name="cfg")
        def make_config():
            return App().make_config()
        """
    used, unknown = uses("""\
        def test_invoke(runner, app, cfg):
            runner.invoke([])
            app.config.from_file("x")
            cfg.from_file("y")
        class TestCli:
            def test_more(self, runner):
                runner.invoke([])
        """, "tests/test_cli.py", {"tests/conftest.py": conftest})
    assert not {"Runner.invoke", "Config.from_file"} & used.get("app/core.py", set())
    assert {"invoke", "config", "from_file"} <= unknown
    # what a fixture's own body states is proven as anywhere else (`App().make_config()`), and
    # its parameters are fixtures too (`app.runner()` in `runner(app)`: by name)
    proven, by_name = uses(conftest, "tests/conftest.py")
    assert "App.make_config" in proven["app/core.py"]
    assert "App.runner" not in proven["app/core.py"] and "runner" in by_name


def test_an_annotation_naming_several_project_classes_resolves_to_each() -> None:
    used, unknown = uses("""\
        from app.urls import Router, Site
        def path(provider: Router | Site | None):
            return provider.url_path_for("home")
        """)
    assert {"Router.url_path_for", "Site.url_path_for"} <= used["app/urls.py"]
    assert "url_path_for" not in unknown


def test_a_name_rebound_from_itself_keeps_its_type_when_the_method_returns_it() -> None:
    used, unknown = uses("""\
        from app.urls import URL
        def test_replace():
            u = URL()
            u = u.replace(path="/")
            u.host()
        def test_text():
            v = URL()
            v = v.text()
            v.host()
        """)
    assert {"URL.replace", "URL.host"} <= used["app/urls.py"]
    assert "host" in unknown  # `v = v.text()` holds a str: `v` is not proven a URL


def test_a_name_bound_by_a_yield_expression_states_no_type() -> None:
    used, unknown = uses("""\
        from app.urls import URL
        def handle(url: URL):
            return url.host()
        def flow():
            url = yield None
            url.text()
        """)
    assert "URL.host" in used["app/urls.py"]
    assert "URL.text" not in used["app/urls.py"]
    assert "text" in unknown


def test_a_conditional_value_is_typed_when_every_branch_is() -> None:
    used, unknown = uses("""\
        from app.urls import URL, Router, Site
        class Request:
            def __init__(self, url, params=None) -> None:
                self.url = URL(url) if params is None else URL(url, params)
        def check(request: Request, flag):
            request.url.host()
            provider = Router() if flag else Site()
            provider.url_path_for("home")
            other = Router() if flag else make()
            other.url_path_for("x")
        """)
    assert {"URL.host", "Router.url_path_for", "Site.url_path_for"} <= used["app/urls.py"]
    assert "url_path_for" in unknown  # `other` may be what `make()` gives: not proven


def test_a_chained_assignment_binds_every_name_and_a_function_alias_calls_the_function() -> None:
    aliases = {"app/api.py": """\
        from .core import make_app
        create = build = make_app
        """}
    used, unknown = uses("""\
        from app import api
        from app.core import App
        first = second = App()
        second.runner().invoke([])
        api.create().runner()
        """, extra=aliases)
    assert {"App.runner", "Runner.invoke"} <= used["app/core.py"]
    assert "make_app" not in used["app/core.py"]  # the file calls `create`, as find-references sees it
    assert "create" in used["app/api.py"]
    assert not {"runner", "invoke"} & unknown


def test_a_fixture_fetched_by_name_at_run_time_is_by_name_too() -> None:
    used, unknown = uses("""\
        def test_dynamic(request):
            request.getfixturevalue("runner").invoke([])
        """, "tests/test_dynamic.py", {"tests/conftest.py": """\
        import pytest
        from app.core import Runner
        @pytest.fixture
        def runner():
            return Runner()
        """})
    assert "Runner.invoke" not in used.get("app/core.py", set())
    assert "invoke" in unknown


def test_a_test_parameter_named_like_an_imported_class_shadows_it() -> None:
    used, unknown = uses("""\
        from app.core import Runner
        def test_shadow(Runner):
            Runner.invoke([])
        def helper():
            Runner().invoke([])
        """, "tests/test_shadow.py")
    assert "Runner.invoke" in used["app/core.py"]  # from `helper`, where the import is the name
    assert "invoke" in unknown  # from the test, whose parameter is not proven a Runner


def test_a_module_alias_called_in_a_chain_is_a_use_of_the_alias() -> None:
    used, unknown = uses("""\
        from app import fields
        fields.Run().invoke([])
        """, extra={"app/fields.py": "from app.core import Runner\nRun = Runner\n"})
    assert "Run" in used["app/fields.py"]
    assert "Runner" not in used.get("app/core.py", set())
    assert "Runner.invoke" in used["app/core.py"]
    assert "invoke" not in unknown

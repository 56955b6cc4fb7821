"""Python receivers typed by what the code around them states (a package bound by `import
pkg.sub`, `super()`, a subclass's override), each resolved to the declaring file and member."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.python import SUPPORT as PYTHON

LIB = {
    "clk/__init__.py": "from .termui import prompt\nfrom .core import Parameter, Option, Flag\n",
    "clk/termui.py": "def prompt(text):\n    return text\n",
    "clk/utils.py": "def echo(text):\n    return text\n",
    "clk/core.py": """\
        class Parameter:
            def get_default(self, ctx) -> object: ...
            def process(self, value) -> object: ...
        class Option(Parameter):
            def get_default(self, ctx) -> object:
                return super().get_default(ctx)
        class Flag(Option):
            pass
        """,
}


def uses(code: str, extra: dict[str, str] | None = None) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(PYTHON, {**LIB, **(extra or {}), "test_app.py": code}, "test_app.py")


def test_importing_a_submodule_binds_the_package_whose_attributes_are_then_resolved() -> None:
    used, unknown = uses("""\
        import clk.utils
        clk.prompt("name?")
        clk.utils.echo("hi")
        """)
    assert "prompt" in used["clk/termui.py"]
    assert "echo" in used["clk/utils.py"]
    assert "prompt" not in unknown


def test_super_calls_resolve_to_the_base_class_member() -> None:
    used, unknown = uses("""\
        from clk import Option, Parameter
        class Custom(Parameter):
            def process(self, value):
                return super().process(value)
        class Legacy(Option):
            def process(self, value):
                return super(Legacy, self).process(value)
        """)
    assert {"Parameter.process"} <= used["clk/core.py"]
    assert "process" not in unknown


def test_super_naming_another_class_is_not_resolved_as_the_enclosing_ones() -> None:
    used, unknown = uses("""\
        from clk import Option
        class Custom(Option):
            def process(self, value):
                return super(Option, self).process(value)
        """)
    assert "Parameter.process" not in used.get("clk/core.py", set())


def test_super_with_a_library_base_is_neither_proven_nor_lost() -> None:
    used, unknown = uses("""\
        import argparse
        class P(argparse.ArgumentParser):
            def parse_args(self, args):
                return super().parse_args(args)
        """)
    assert used.get("clk/core.py") is None


def test_a_call_of_an_override_marks_the_base_method_as_possible_not_proven() -> None:
    used, _ = uses("""\
        from clk import Option, Flag
        opt = Option()
        opt.get_default(None)
        Flag().process(1)
        """)
    core = used["clk/core.py"]
    assert "Option.get_default" in core
    assert "~Parameter.get_default" in core  # by-name evidence for the base
    assert "Parameter.get_default" not in core
    assert "Parameter.process" in core  # inherited, not overridden: a proven call of the base


RUNNER = {"clk/testing.py": """\
    class Result:
        output: str = ""
    class CliRunner:
        def invoke(self, cli) -> Result: ...
    """}


def test_a_name_bound_differently_in_each_function_is_typed_per_function() -> None:
    used, unknown = uses("""\
        from clk.testing import CliRunner
        def test_typed():
            runner = CliRunner()
            result = runner.invoke(None)
            assert result.output
        def test_fixture(runner):
            runner.isolation()
        """, RUNNER)
    assert {"CliRunner.invoke", "Result.output"} <= used["clk/testing.py"]
    assert "isolation" in unknown  # the bare fixture parameter is not proven a CliRunner


def test_a_bare_parameter_or_loop_target_of_the_same_name_is_not_proven() -> None:
    used, unknown = uses("""\
        from clk.testing import CliRunner
        runner = CliRunner()
        def test_a(runner):
            runner.invoke(None)
        def test_b():
            for runner in make():
                runner.invoke(None)
        def test_c():
            with open_runner() as runner:
                runner.invoke(None)
        def test_d():
            runner = factories[0]
            runner.invoke(None)
        """, RUNNER)
    assert "CliRunner.invoke" not in used.get("clk/testing.py", set())
    assert "invoke" in unknown


def test_a_module_level_instance_is_seen_by_functions_that_do_not_rebind_it() -> None:
    used, _ = uses("""\
        from clk.testing import CliRunner
        runner = CliRunner()
        def test_a():
            runner.invoke(None)
        def test_b(runner):
            runner.other()
        """, RUNNER)
    assert "CliRunner.invoke" in used["clk/testing.py"]


def test_a_decorated_function_inside_a_test_is_typed_in_that_test() -> None:
    files = {
        "clk/core.py": "class Group:\n    def command(self) -> None: ...\nclass Command:\n    def main(self) -> None: ...\n",
        "clk/decorators.py": "from .core import Group, Command\ndef group() -> Group: ...\ndef command() -> Command: ...\n",
    }
    used, _ = uses("""\
        from clk.decorators import group, command
        def test_group():
            @group()
            def cli():
                pass
            cli.command()
        def test_command():
            @command()
            def cli():
                pass
            cli.main()
        """, files)
    assert {"Group.command", "Command.main"} <= used["clk/core.py"]


def test_an_attribute_bound_to_a_typed_parameter_or_an_alias_of_a_class_is_typed() -> None:
    used, unknown = uses("""\
        from clk.testing import CliRunner, Result
        _Result = Result
        class Harness:
            def __init__(self, runner: CliRunner, spare=None):
                self.runner = runner
                self.spare = None
                self.spare = runner
                self.other = spare
            def go(self):
                self.runner.invoke(None)
                self.spare.invoke(None)
                self.other.isolation()
                _Result.output
        """, RUNNER)
    assert {"CliRunner.invoke", "Result.output"} <= used["clk/testing.py"]
    assert "isolation" in unknown


def test_an_attribute_declared_with_a_type_keeps_it_whatever_a_subclass_assigns() -> None:
    used, _ = uses("""\
        from clk.testing import CliRunner
        class Base:
            def __init__(self):
                self.runner: CliRunner = make()
        class Sub(Base):
            def __init__(self):
                self.runner = self.pick()
            def go(self):
                self.runner.invoke(None)
        """, RUNNER)
    assert "CliRunner.invoke" in used["clk/testing.py"]


def test_an_overloaded_decorator_types_what_it_decorates_by_its_implementation() -> None:
    files = {
        "clk/core.py": "class Command:\n    def main(self) -> None: ...\n",
        "clk/decorators.py": """\
            import typing as t
            from .core import Command
            C = t.TypeVar("C", bound=Command)
            @t.overload
            def command(name: str, cls: type[C]) -> t.Callable[[t.Callable], C]: ...
            def command(name=None, cls=None) -> Command | t.Callable[[t.Callable], Command | C]: ...
            """,
    }
    used, _ = uses("""\
        from clk.decorators import command
        @command()
        def cli():
            pass
        cli.main()
        """, files)
    assert "Command.main" in used["clk/core.py"]


def test_a_receiver_typed_by_a_type_variable_is_by_name_not_dropped() -> None:
    _, unknown = uses("""\
        import typing as t
        T = t.TypeVar("T")
        def run(item: T) -> T:
            item.process(1)
            return item
        """)
    assert "process" in unknown


def test_package_attributes_are_followed_through_nested_wildcard_imports() -> None:
    files = {
        "hx/__init__.py": "from ._models import *\nfrom ._transports import *\n",
        "hx/_models.py": "class Response:\n    def json(self) -> object: ...\n",
        "hx/_transports/__init__.py": "from .asgi import *\n__all__ = ['ASGITransport']\n",
        "hx/_transports/asgi.py": "class ASGITransport:\n    def handle(self) -> None: ...\n",
    }
    used, _ = uses("""\
        import hx
        transport = hx.ASGITransport()
        transport.handle()
        """, files)
    assert used["hx/_transports/asgi.py"] == {"ASGITransport", "ASGITransport.handle"}


CLIENT = {"hx/__init__.py": "from ._client import Client, AsyncClient\n", "hx/_client.py": """\
    import typing as t
    T = t.TypeVar("T", bound="Client")
    class Response:
        def json(self) -> object: ...
    class Client:
        def __enter__(self: T) -> T: ...
        def get(self, url) -> Response: ...
    class AsyncClient:
        async def __aenter__(self) -> "t.Self": ...
        async def get(self, url) -> Response: ...
    class Pool:
        def __enter__(self): ...
        def get(self) -> None: ...
    """}


def test_with_targets_are_what_enter_returns_and_awaited_calls_what_the_coroutine_returns() -> None:
    used, unknown = uses("""\
        import hx
        from hx._client import Pool
        def test_sync():
            with hx.Client() as client:
                client.get("/").json()
        async def test_async():
            async with hx.AsyncClient() as client:
                response = await client.get("/")
                response.json()
        def test_unannotated_enter():
            with Pool() as pool:
                pool.get()
        """, CLIENT)
    assert {"Client.get", "AsyncClient.get", "Response.json"} <= used["hx/_client.py"]
    assert "Pool.get" not in used["hx/_client.py"] and "get" in unknown


def test_an_annotated_self_still_means_the_enclosing_class() -> None:
    files = {"sess.py": """\
        import typing as t
        T = t.TypeVar("T")
        class Session:
            def __enter__(self: T) -> T:
                return self
            def open(self) -> None: ...
        """}
    used, unknown = uses("""\
        from sess import Session
        class Sub(Session):
            def go(self: "Sub"):
                self.open()
            def again(self):
                self.open()
        """, files)
    assert "Session.open" in used["sess.py"]
    assert "open" not in unknown

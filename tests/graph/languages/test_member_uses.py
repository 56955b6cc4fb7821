"""Member uses per language: every receiver shape whose type the source states resolves to the
declaring file and member; a receiver nobody can type leaves the name as by-name evidence."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.go import SUPPORT as GO
from konstruct_tui.graph.languages.java import SUPPORT as JAVA
from konstruct_tui.graph.languages.python import SUPPORT as PYTHON
from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

# --- Python ---------------------------------------------------------------------------------------

PY_LIB = {
    "pkg/__init__.py": "from .console import Console, get_console\nfrom .termui import prompt\n__all__ = ['prompt']\n",
    "pkg/console.py": """\
        class Console:
            size: int = 0
            def print(self, *objects) -> None: ...
            def status(self) -> "Status": ...
            @classmethod
            def make(cls) -> "Console": return cls()

        class Status:
            def update(self) -> None: ...

        class Loud(Console):
            pass

        def get_console() -> Console:
            return Console()

        console = Console()
        """,
    "pkg/termui.py": "def prompt(text):\n    return text\n",
}


def py_uses(code: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(PYTHON, {**PY_LIB, "app.py": code}, "app.py")


def test_python_constructor_assignment_annotations_and_return_types() -> None:
    used, _ = py_uses("""\
        from pkg.console import Console, get_console
        c = Console()
        c.print(1)
        def show(d: Console, e: "Console | None" = None):
            d.print(2)
        g = get_console()
        g.print(3)
        """)
    assert used == {"pkg/console.py": {"Console", "Console.print", "get_console"}}


def test_python_self_attributes_class_attributes_and_one_level_of_chaining() -> None:
    used, _ = py_uses("""\
        from pkg.console import Console
        class App:
            def __init__(self):
                self.console: Console = Console()
            def run(self):
                self.console.print(1)
                self.console.status().update()
                Console.make().print(2)
        """)
    assert used["pkg/console.py"] >= {"Console.print", "Console.status", "Status.update", "Console.make"}


def test_python_module_instances_base_classes_and_static_access() -> None:
    used, _ = py_uses("""\
        from pkg.console import console, Loud
        console.print(1)
        Loud().print(2)
        """)
    assert used == {"pkg/console.py": {"console", "Loud", "Console.print"}}


def test_python_package_attributes_follow_reexports_to_the_defining_file() -> None:
    used, _ = py_uses("import pkg\npkg.prompt('x')\npkg.console.Console().print()\n")
    assert used["pkg/termui.py"] == {"prompt"}
    assert "Console.print" in used["pkg/console.py"]
    used, _ = py_uses("from pkg import prompt, Console\nprompt('y')\nConsole().print()\n")
    assert used["pkg/termui.py"] == {"prompt"} and "Console.print" in used["pkg/console.py"]


def test_python_untyped_receivers_are_by_name_and_library_receivers_are_neither() -> None:
    used, unknown = py_uses("""\
        import os
        def handle(thing):
            thing.print(1)
            make().status()
            os.path.join('a', 'b')
        """)
    assert {"print", "status"} <= unknown
    assert "join" not in unknown and "path" not in unknown and used == {}


def test_python_receivers_of_every_other_shape_are_by_name() -> None:
    used, unknown = py_uses("""\
        class App:
            def __init__(self, console):
                self.console = console
            def run(self, items):
                self.console.print(1)
                items[0].status()
                (self.a or self.b).update()
                handlers[0]().make()
        """)
    assert {"print", "status", "update", "make"} <= unknown and used == {}


# --- Java -----------------------------------------------------------------------------------------

MAIN = "src/main/java/com/acme"


def java_files(user: str) -> dict[str, str]:
    return {
        f"{MAIN}/Gson.java": """\
            package com.acme;
            public class Gson {
              public String toJson(Object o) { return ""; }
              public static Gson create() { return new Gson(); }
              public Builder builder() { return new Builder(); }
            }""",
        f"{MAIN}/Builder.java": "package com.acme;\npublic class Builder { public Gson build() { return null; } }\n",
        f"{MAIN}/app/User.java": user,
    }


def java_uses(body: str) -> tuple[dict[str, set[str]], set[str]]:
    user = f"package com.acme.app;\nimport com.acme.Gson;\nimport java.util.List;\npublic class User {{\n{body}\n}}\n"
    return member_uses(JAVA, java_files(user), f"{MAIN}/app/User.java")


def test_java_locals_fields_parameters_new_static_and_chains() -> None:
    used, _ = java_uses("""
      private final Gson field = new Gson();
      void a(Gson param) { param.toJson(1); }
      void b() { Gson local = Gson.create(); local.toJson(2); }
      void c() { new Gson().toJson(3); field.toJson(4); }
      void d() { Gson.create().builder().build().toJson(5); }""")
    assert used[f"{MAIN}/Gson.java"] == {"Gson.toJson", "Gson.create", "Gson.builder"}
    assert used[f"{MAIN}/Builder.java"] == {"Builder.build"}


def test_java_untyped_receivers_are_by_name_and_jdk_receivers_are_neither() -> None:
    _, unknown = java_uses("""
      void a(List<Gson> all) { all.get(0).toJson(1); all.forEach(g -> g.toJson(2)); }
      void b(Gson[] many) { many[0].toJson(3); all.stream().map(h -> h.toJson(4)); }""")
    assert "toJson" in unknown  # an array element, a stream's lambda parameter
    assert "forEach" not in unknown and "get" not in unknown


# --- TypeScript -----------------------------------------------------------------------------------

TS_LIB = {
    "src/client.ts": """\
        export class Client {
          get(url: string) { return url; }
          static create(): Client { return new Client(); }
        }
        export function isHTTPError(x: unknown) { return false; }
        """,
    "src/index.ts": "export {Client} from './client';\nexport * from './client';\n",
}


def test_typescript_typed_locals_parameters_static_calls_and_namespaces_through_barrels() -> None:
    files = {**TS_LIB, "test/a.ts": """\
        import {Client, isHTTPError} from '../src/index';
        import * as lib from '../src/index';
        const c = new Client();
        c.get('x');
        function f(k: Client) { k.get('y'); }
        Client.create();
        lib.isHTTPError(1);
        isHTTPError(2);
        """}
    used, _ = member_uses(TYPESCRIPT, files, "test/a.ts")
    assert used == {"src/client.ts": {"Client", "Client.get", "Client.create", "isHTTPError"}}


def test_typescript_class_fields_type_this_receivers() -> None:
    files = {**TS_LIB, "src/app.ts": """\
        import {Client} from './client';
        export class App {
          private client: Client;
          private other = new Client();
          run() { this.client.get('a'); this.other.get('b'); }
        }
        """}
    used, _ = member_uses(TYPESCRIPT, files, "src/app.ts")
    assert used == {"src/client.ts": {"Client", "Client.get"}}


def test_typescript_untyped_receivers_are_by_name_and_globals_are_neither() -> None:
    files = {**TS_LIB, "test/b.ts": "function g(q) { q.get(1); make().post(2); console.log(3); }\n"}
    used, unknown = member_uses(TYPESCRIPT, files, "test/b.ts")
    assert used == {} and {"get", "post"} <= unknown and "log" not in unknown


# --- Go -------------------------------------------------------------------------------------------

GO_LIB = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "srv/server.go": "package srv\n\ntype Server struct{ n int }\n\nfunc New() *Server { return &Server{} }\n",
    "srv/methods.go": "package srv\n\nfunc (s *Server) Start() error { return nil }\nfunc (s *Server) Stop() {}\n",
}


def test_go_declared_types_composite_literals_constructors_and_parameters() -> None:
    files = {**GO_LIB, "cmd/main.go": """\
        package main

        import "example.com/m/srv"

        func run(x *srv.Server) { x.Stop() }

        func main() {
        	s := srv.New()
        	s.Start()
        	var t srv.Server
        	t.Stop()
        	u := &srv.Server{}
        	u.Start()
        }
        """}
    used, _ = member_uses(GO, files, "cmd/main.go")
    assert used == {"srv/methods.go": {"Server.Start", "Server.Stop"}}


def test_go_untyped_receivers_are_by_name() -> None:
    files = {**GO_LIB, "cmd/main.go": """\
        package main

        func main() {
        	pick().Start()
        	things[0].Stop()
        }
        """}
    used, unknown = member_uses(GO, files, "cmd/main.go")
    assert used == {} and {"Start", "Stop"} <= unknown


def test_python_generic_bases_and_names_bound_to_several_classes() -> None:
    lib = {
        "hl.py": """\
            from typing import Generic, TypeVar
            T = TypeVar("T")
            class Base(Generic[T]):
                def ask(self) -> None: ...
            class Prompt(Base[str]):
                pass
            class Regex:
                def highlight(self) -> None: ...
            class Repr(Regex):
                pass
            class Json(Regex):
                def highlight(self) -> None: ...
            """,
        "test_hl.py": """\
            from hl import Prompt, Repr, Json
            def test_a():
                Prompt.ask()
                h = Repr()
                h.highlight()
            def test_b():
                h = Json()
                h.highlight()
            """,
    }
    used, unknown = member_uses(PYTHON, lib, "test_hl.py")
    assert used["hl.py"] >= {"Base.ask", "Regex.highlight", "Json.highlight"}
    assert "highlight" not in unknown and "ask" not in unknown


def test_python_a_call_on_a_typed_variable_types_the_result() -> None:
    used, _ = py_uses("""\
        from pkg.console import Console
        c = Console()
        s = c.status()
        s.update()
        """)
    assert {"Console.status", "Status.update"} <= used["pkg/console.py"]


def test_python_a_decorator_factory_types_the_function_it_decorates() -> None:
    files = {
        "clk/__init__.py": "from .decorators import group\nfrom .core import Group\n",
        "clk/core.py": "class Group:\n    def command(self) -> None: ...\n    def add_command(self, c) -> None: ...\n",
        "clk/decorators.py": """\
            import typing as t
            from .core import Group
            G = t.TypeVar("G", bound=Group)
            @t.overload
            def group(name: t.Callable) -> Group: ...
            def group(name=None) -> Group | t.Callable[[t.Callable], Group | G]:
                ...
            """,
        "app.py": """\
            import clk
            @clk.group()
            def cli():
                pass
            @cli.command()
            def sub():
                pass
            cli.add_command(sub)
            """,
    }
    used, unknown = member_uses(PYTHON, files, "app.py")
    assert {"Group.command", "Group.add_command"} <= used["clk/core.py"]
    assert "command" not in unknown


def test_python_a_library_decorated_function_used_as_a_receiver_is_by_name() -> None:
    _, unknown = py_uses("""\
        import pytest
        @pytest.fixture
        def live():
            return make()
        def test_it(live):
            live.position_cursor()
        """)
    assert "position_cursor" in unknown

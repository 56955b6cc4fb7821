"""Python receivers whose type the source states through its scopes and bindings: an imported name
a function rebinds, `except T as e`, a dotted path bound to a name, a nested or a function-local
class, a module-level alias of a class; and a call on a chained call's result kept as evidence."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.python import SUPPORT as PYTHON

LIB = {
    "lib/__init__.py": "from . import fields\nfrom .errors import Invalid\nfrom .app import App\n",
    "lib/errors.py": """\
        class Invalid(Exception):
            def messages(self) -> dict: ...
        """,
    "lib/fields.py": """\
        class String:
            def serialize(self, value) -> str: ...
        Str = String
        """,
    "lib/sessions.py": """\
        class SessionInterface:
            def open_session(self, app) -> object: ...
        """,
    "lib/app.py": """\
        from .sessions import SessionInterface
        class Builder:
            def add(self) -> "Builder": ...
            def build(self) -> object: ...
        class App:
            session_interface: SessionInterface = SessionInterface()
            def builder(self) -> Builder: ...
        """,
    "lib/schema.py": """\
        class Schema:
            def load(self, data) -> dict: ...
            def dump(self, obj) -> dict: ...
        """,
}


def uses(code: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(PYTHON, {**LIB, "test_app.py": code}, "test_app.py")


def test_an_imported_module_rebound_by_a_parameter_is_shadowed_only_in_that_function() -> None:
    used, unknown = uses("""\
        import lib
        def test_load():
            lib.fields.String().serialize(1)
        def test_shadow(lib):
            lib.open_session()
        """)
    assert "String.serialize" in used["lib/fields.py"]
    assert "open_session" in unknown  # the parameter's type is unknown: by-name evidence
    assert "lib/sessions.py" not in used


def test_an_imported_name_rebound_at_module_level_stays_unproven_everywhere() -> None:
    used, unknown = uses("""\
        import lib
        for lib in [object()]:
            pass
        def test_load():
            lib.fields.String().serialize(1)
        """)
    assert "lib/fields.py" not in used
    assert "serialize" in unknown


def test_an_except_target_holds_an_instance_of_the_caught_class() -> None:
    used, unknown = uses("""\
        from lib import Invalid
        def run(check):
            try:
                check()
            except Invalid as err:
                return err.messages()
        """)
    assert "Invalid.messages" in used["lib/errors.py"]
    assert "messages" not in unknown


def test_a_builtin_exception_or_a_tuple_of_classes_types_nothing() -> None:
    used, unknown = uses("""\
        from lib import Invalid
        def run(check):
            try:
                check()
            except (Invalid, KeyError) as err:
                return err.messages()
        """)
    assert "lib/errors.py" not in used or "Invalid.messages" not in used["lib/errors.py"]
    assert "messages" in unknown


def test_a_name_bound_to_a_dotted_path_holds_what_its_members_declare() -> None:
    used, unknown = uses("""\
        from lib.app import App
        class Context:
            def __init__(self, app: App) -> None:
                self.app = app
            def push(self):
                si = self.app.session_interface
                si.open_session(self.app)
        """)
    assert "SessionInterface.open_session" in used["lib/sessions.py"]
    assert "open_session" not in unknown


def test_a_name_typed_from_itself_is_not_proven_and_does_not_loop() -> None:
    used, unknown = uses("""\
        from lib.app import App
        class Walker:
            def __init__(self, app: App) -> None:
                self.app = app
            def step(self):
                self.app = self.app.parent
                self.app.builder()
        """)
    assert "builder" in unknown  # `parent` is declared nowhere: what `self.app` holds is unproven
    assert "App.builder" not in used.get("lib/app.py", set())


def test_a_nested_class_reached_through_self_is_a_class() -> None:
    used, unknown = uses("""\
        from lib.schema import Schema
        class TestFields:
            class MySchema(Schema):
                pass
            def test_load(self):
                self.MySchema().load({})
        """)
    assert "Schema.load" in used["lib/schema.py"]
    assert "load" not in unknown


def test_a_class_defined_in_a_test_function_types_its_uses() -> None:
    used, unknown = uses("""\
        from lib.schema import Schema
        def test_load():
            class MySchema(Schema):
                pass
            MySchema().load({})
        def test_dump():
            class MySchema(Schema):
                def dump(self, obj) -> dict: ...
            schema = MySchema()
            schema.dump({})
        """)
    assert {"Schema.load", "Schema.dump"} <= used["lib/schema.py"]
    assert not {"load", "dump"} & unknown


def test_a_module_level_alias_of_a_class_is_a_use_of_the_alias_not_of_the_class() -> None:
    used, _ = uses("""\
        from lib import fields
        fields.Str().serialize(1)
        fields.String()
        """)
    assert "Str" in used["lib/fields.py"]  # find-references of `String` does not list `Str()`
    assert "String.serialize" in used["lib/fields.py"]  # what is used on it is String's


def test_an_alias_used_alone_does_not_name_the_class() -> None:
    used, _ = uses("""\
        from lib import fields
        fields.Str()
        """)
    assert "String" not in used["lib/fields.py"]


def test_a_chain_of_calls_is_walked_call_after_call() -> None:
    used, unknown = uses("""\
        from lib.app import App
        App().builder().add().add().build()
        App().session_interface.open_session(None)
        """)
    assert {"App.builder", "Builder.add", "Builder.build"} <= used["lib/app.py"]
    assert "SessionInterface.open_session" in used["lib/sessions.py"]
    assert not {"add", "build", "open_session"} & unknown


def test_a_chain_past_an_untyped_call_stays_by_name_evidence() -> None:
    used, unknown = uses("""\
        from lib.app import App
        def make():
            return object()
        make().builder().add().build()
        App().builder()[0].add().build()
        """)
    assert "Builder.build" not in used.get("lib/app.py", set())
    assert {"builder", "add", "build"} <= unknown  # never lost


def test_a_member_the_typed_class_does_not_declare_stays_by_name_evidence() -> None:
    used, unknown = uses("""\
        from lib.schema import Schema
        def run(schema: Schema):
            schema.load({})
            schema.multi_items()
        """)
    assert "Schema.load" in used["lib/schema.py"]
    assert "multi_items" in unknown  # maybe a library base's, or the type was read too narrowly


def test_except_spellings() -> None:
    used, unknown = uses("""\
        import lib.errors
        from lib import Invalid
        def run(check):
            try:
                check()
            except (Invalid) as err:
                err.messages()
            except lib.errors.Invalid as other:
                other.messages()
            except Exception as broad:
                broad.messages()
        """)
    assert "Invalid.messages" in used["lib/errors.py"]
    assert "messages" in unknown  # `broad` is any exception: by-name evidence


def test_a_name_bound_otherwise_is_not_taken_for_a_local_class_of_that_name() -> None:
    used, unknown = uses("""\
        from lib.schema import Schema
        def test_one():
            class Loader(Schema):
                pass
            Loader().load({})
        def test_two(Loader):
            Loader.dump({})
        """)
    assert "Schema.dump" not in used.get("lib/schema.py", set())
    assert "dump" in unknown

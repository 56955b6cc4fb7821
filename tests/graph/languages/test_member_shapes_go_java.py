"""Receiver shapes found on real Go and Java code (fiber, cobra, gson, javapoet): each resolves to
the member a type checker names (go/types, javac), and one it cannot prove stays by-name."""

from __future__ import annotations

from pathlib import Path

from graph_helpers import write_files
from memory_project import all_edges, member_uses

from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.languages.go import SUPPORT as GO
from konstruct_tui.graph.languages.java import SUPPORT as JAVA
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.workspace import Workspace

# --- Go -------------------------------------------------------------------------------------------

GO_LIB = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "app/app.go": """\
        package app

        import "sync"

        type Map map[string]any

        type Hooks struct{ list []func() }

        type Base struct{}

        type App struct {
        	*Base
        	hooks *Hooks
        	mu    sync.Map
        	subs  map[string]*App
        }

        type Ctx interface {
        	Redirect() *Redirect
        }

        type Redirect struct{}

        func New() *App { return &App{} }

        var Default = New()
        """,
    "app/methods.go": """\
        package app

        func (h *Hooks) Run() error { return nil }
        func (b *Base) Close() {}
        func (a *App) Children() []*App { return nil }
        func (a *App) Mount() {}
        func (r *Redirect) Back() error { return nil }
        func (r *Redirect) To(path string) {}
        """,
    "app/box.go": "package app\n\ntype Box[T any] struct{ v T }\n\nfunc NewBox[T any]() *Box[T] { return nil }\n\n"
                  "func (b *Box[T]) Get() {}\n",
}


def go_uses(code: str, path: str = "app/user.go") -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(GO, {**GO_LIB, path: code}, path)


def test_go_fields_method_results_and_interface_results_type_a_chain() -> None:
    used, _ = go_uses("""\
        package app

        func mount(sub *App, c Ctx) {
        	sub.hooks.Run()
        	c.Redirect().Back()
        	sub.Children()[0].Mount()
        }
        """)
    assert used == {"app/methods.go": {"Hooks.Run", "Redirect.Back", "App.Children", "App.Mount"}}


def test_go_embedded_struct_promotes_its_methods_to_the_outer_type() -> None:
    used, _ = go_uses("package app\n\nfunc f() { a := New(); a.Close() }\n")
    assert used == {"app/methods.go": {"Base.Close"}}


def test_go_range_over_slices_and_maps_types_the_loop_variable() -> None:
    used, _ = go_uses("""\
        package app

        func f(a *App) {
        	for _, child := range a.Children() { child.Mount() }
        	for _, sub := range a.subs { sub.Close() }
        	apps := make([]*App, 2)
        	for i := range apps { apps[i].Mount() }
        }
        """)
    assert used == {"app/methods.go": {"App.Children", "App.Mount", "Base.Close"}}


def test_go_type_assertions_new_and_package_variables_of_sibling_files() -> None:
    used, _ = go_uses("""\
        package app

        func f(x any) {
        	r := x.(*Redirect)
        	r.Back()
        	s, ok := x.(*Hooks)
        	_ = ok
        	s.Run()
        	n := new(App)
        	n.Mount()
        	Default.Close()
        }
        """)
    assert used == {"app/methods.go": {"Redirect.Back", "Hooks.Run", "App.Mount", "Base.Close"}}


def test_go_a_name_rebound_from_a_name_bound_twice_proves_nothing() -> None:
    used, unknown = go_uses("""\
        package app

        func six(x *App) {
        	for _, x := range x.subs { x.Mount() }
        	h := x.hooks
        	if h == nil {
        		h := &Redirect{}
        		h.Back()
        	}
        	h.Run()
        }
        """)
    # `x` is an *App both ways (parameter, loop variable): proven; `h` is a field of it and a
    # *Redirect: nothing proven about `h.Run()` or `h.Back()`.
    assert used == {"app/methods.go": {"App.Mount"}}
    assert {"Run", "Back"} <= unknown


def test_go_closures_are_scopes_of_their_own_and_local_func_values_type_their_calls() -> None:
    used, _ = go_uses("""\
        package app

        type Request struct{}

        func routes() {
        	r := New()
        	r.Mount()
        	handle(func(r *Request) { r.Close() })
        	mk := func() *Hooks { return &Hooks{} }
        	each(func() { h := mk(); h.Run() })
        }
        """)
    # `r` is an *App in `routes` and a *Request in the handler: each resolves in its own scope
    assert used == {"app/methods.go": {"App.Mount", "Hooks.Run"}}


def test_go_the_first_of_several_results_and_an_alias_declared_in_a_function() -> None:
    used, _ = go_uses("""\
        package app

        func open() (*App, error) { return nil, nil }

        func f() {
        	a, err := open()
        	_ = err
        	a.Mount()
        	type hooks = Hooks
        	h := &hooks{}
        	h.Run()
        }
        """)
    assert used == {"app/methods.go": {"App.Mount", "Hooks.Run"}}


def test_go_a_name_is_typed_per_function_and_only_when_its_bindings_agree() -> None:
    used, unknown = go_uses("""\
        package app

        func one() { req := New(); req.Mount() }
        func two() { req := &Redirect{}; req.To("/") }
        func three(a *App) {
        	for _, a := range a.subs { a.Mount() }
        }
        func four(x *Hooks) {
        	x := &Redirect{}
        	x.Back()
        }
        func five(a *App, b *App) {
        	a = b
        	h := a.hooks
        	h = &Hooks{}
        	h.Run()
        	a.hooks.Run()
        }
        """)
    assert used == {"app/methods.go": {"App.Mount", "Redirect.To", "Hooks.Run"}}
    assert "Back" in unknown  # `x` is a *Hooks and a *Redirect in one function: nothing proven


def test_go_closures_method_values_and_generic_constructors() -> None:
    used, unknown = go_uses("""\
        package app

        func f(a *App) {
        	run := a.Mount
        	run()
        	each(func(r *Redirect) { r.Back() })
        	b := NewBox[int]()
        	b.Get()
        	pick().Close()
        }
        """)
    assert used == {"app/methods.go": {"App.Mount", "Redirect.Back"}, "app/box.go": {"Box.Get"}}
    assert "Close" in unknown  # `pick` is declared nowhere: its result is unknown


def test_go_through_an_imported_package_and_its_constructor() -> None:
    used, unknown = go_uses("""\
        package main

        import (
        	"strings"

        	"example.com/m/app"
        )

        func main() {
        	a := app.New()
        	a.Children()
        	app.Default.Mount()
        	var b strings.Builder
        	b.WriteString("x")
        }
        """, "cmd/main.go")
    assert used == {"app/methods.go": {"App.Children", "App.Mount"}}
    assert "WriteString" not in unknown  # a library type's method is nobody's here


def test_go_the_name_of_a_qualified_type_or_a_struct_key_is_no_use_of_a_package_name() -> None:
    other = "package app\n\nimport \"sync\"\n\nvar m sync.Map\nvar h = Hooks{Default: nil}\n"
    edges = [e for e in all_edges(GO, {**GO_LIB, "app/other.go": other}) if e.source == "app/other.go"]
    # `sync.Map` is not app's `Map`, the key `Default` sets a field: only `Hooks` is app's
    assert [(e.target, e.kind, e.names) for e in edges] == [("app/app.go", "references", ("Hooks",))]


def test_go_type_aliases_and_interface_receivers() -> None:
    used, unknown = go_uses("""\
        package app

        type Alias = App

        type Runner interface{ Mount() }

        func f(a *Alias, r Runner) {
        	a.Mount()
        	r.Mount()
        }
        """)
    assert used == {"app/methods.go": {"App.Mount"}}
    # `r.Mount()` names Runner's method: App.Mount may run, so the name stays as by-name evidence
    assert "Mount" in unknown


def test_go_callers_of_a_function_are_not_the_callers_of_a_same_named_method(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "cmd.go": "package m\n\ntype Command struct{}\n\nfunc (c *Command) Mark() {}\n\nfunc Mark() {}\n",
        "use_method.go": "package m\n\nfunc a(c *Command) { c.Mark() }\n",
        "use_func.go": "package m\n\nfunc b() { Mark() }\n",
    })
    workspace = Workspace(root)
    try:
        snapshot, _ = build_index(workspace)
        query = GraphQuery(lambda: snapshot, Freshness(workspace))
        assert [r["path"] for r in query.references("Mark", file="cmd.go").results] == ["use_func.go"]
        assert [r["path"] for r in query.references("Command.Mark", file="cmd.go").results] == ["use_method.go"]
    finally:
        workspace.close()


def test_go_an_untyped_call_in_a_test_of_the_same_package_is_a_candidate(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "binder.go": "package m\n\ntype Binder struct{}\n\nfunc (b *Binder) MustInt(n string) *Binder { return b }\n",
        "binder_test.go": "package m\n\nfunc TestIt() { pick().MustInt(\"x\") }\n",
    })
    workspace = Workspace(root)
    try:
        snapshot, _ = build_index(workspace)
        answer = GraphQuery(lambda: snapshot, Freshness(workspace)).references("Binder.MustInt", file="binder.go")
        assert answer.status == "undeterminable"
        assert [(r["path"], r["evidence"]) for r in answer.results] == [("binder_test.go", "by_name")]
    finally:
        workspace.close()


# --- Java -----------------------------------------------------------------------------------------

MAIN = "src/main/java/com/acme"
JAVA_LIB = {
    f"{MAIN}/TypeName.java": """\
        package com.acme;
        import java.lang.reflect.Type;
        public class TypeName {
          public static final TypeName VOID = new TypeName();
          public static TypeName get(Type type) { return null; }
          public final TypeName annotated(Spec... specs) { return this; }
          public TypeName annotated(java.util.List<Spec> specs) { return this; }
        }""",
    f"{MAIN}/ClassName.java": """\
        package com.acme;
        public class ClassName extends TypeName {
          public static ClassName get(String packageName, String simpleName) { return null; }
          public static ClassName get(Class<?> clazz) { return null; }
          @Override public ClassName annotated(java.util.List<Spec> specs) { return this; }
        }""",
    f"{MAIN}/Spec.java": "package com.acme;\npublic class Spec {}\n",
    f"{MAIN}/Token.java": "package com.acme;\npublic enum Token { NAME, END }\n",
    f"{MAIN}/Builder.java": """\
        package com.acme;
        public class Builder {
          public int depth;
          public Token peek() { return Token.NAME; }
          public static final class Policy { public static final int STRICT = 1; }
        }""",
}


def java_uses(body: str, imports: str = "") -> tuple[dict[str, set[str]], set[str]]:
    user = f"package com.acme.app;\nimport com.acme.*;\n{imports}public class User {{\n{body}\n}}\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    return member_uses(JAVA, files, f"{MAIN}/app/User.java")


def test_java_an_inherited_overload_competes_with_the_receiver_types_own() -> None:
    used, _ = java_uses("""
      void a(Spec spec, ClassName name) { name.annotated(spec); }
      void b() { ClassName.get(String.class); ClassName.get("a", "b"); }
      void c(Class<?> type) { TypeName.get(type); }""")
    # javac binds `name.annotated(spec)` to TypeName's varargs overload (ClassName only overrides
    # the List one), and `ClassName.get(String.class)` to ClassName.get(Class), the most specific.
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.annotated", "TypeName.get"}
    assert used[f"{MAIN}/ClassName.java"] == {"ClassName.get"}


def test_java_field_reads_constants_enum_case_labels_and_static_imports_are_member_uses() -> None:
    used, _ = java_uses("""
      int a(Builder b) { return b.depth + Builder.Policy.STRICT; }
      TypeName v() { return TypeName.VOID; }
      boolean c(Builder b) {
        switch (b.peek()) {
          case END: return true;
          default: return false;
        }
      }
      Token d() { return NAME; }""", imports="import static com.acme.Token.NAME;\n")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.depth", "Builder.Policy.STRICT", "Builder.peek"}
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.VOID"}
    assert used[f"{MAIN}/Token.java"] == {"Token.END", "Token.NAME"}


def test_java_super_calls_and_bare_inherited_fields_name_the_superclass_member() -> None:
    sub = """\
        package com.acme.app;
        import com.acme.*;
        public class Sub extends ClassName {
          @Override public ClassName annotated(java.util.List<Spec> specs) { return (ClassName) super.annotated(specs); }
          boolean isVoid(TypeName t) { return t == VOID; }
        }"""
    used, _ = member_uses(JAVA, {**JAVA_LIB, f"{MAIN}/app/Sub.java": sub}, f"{MAIN}/app/Sub.java")
    assert used[f"{MAIN}/ClassName.java"] == {"ClassName.annotated"}  # `super` is ClassName, not Sub
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.VOID"}


def test_java_lambda_parameters_typed_by_their_target() -> None:
    used, unknown = java_uses("""
      static final java.util.function.Function<Builder, Token> PEEK = b -> b.peek();
      java.util.Comparator<Builder> byDepth = (x, y) -> x.peek().compareTo(y.peek());
      void a(java.util.List<Builder> all, java.util.Map<String, ClassName> names) {
        all.forEach(each -> each.peek());
        names.forEach((key, name) -> name.annotated(new Spec()));
        all.stream().map(s -> s.peek());
      }""")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.peek"}
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.annotated"}  # the varargs overload, inherited
    assert "peek" in unknown  # `s` in a stream's `map`: no target type is written: by name


def test_java_var_locals_are_typed_by_their_initializer() -> None:
    used, unknown = java_uses("""
      void a(Builder source) {
        var b = new Builder();
        b.peek();
        var token = source.peek();
        token.name();
        var names = java.util.List.of(b);
        names.get(0).peek();
      }""")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.peek"}
    assert "name" not in unknown  # `token` is a Token, an enum: `name()` is the JDK's, nobody's here


def test_java_locals_are_typed_by_their_own_method() -> None:
    used, _ = java_uses("""
      void a() { ClassName req = null; }
      void b(TypeName req) { req.annotated(new java.util.ArrayList<Spec>()); }""")
    # `req` is a ClassName in `a` and a TypeName in `b`: `b` calls TypeName's method, not the override
    assert used == {f"{MAIN}/TypeName.java": {"TypeName.annotated"}}


def test_java_a_chain_whose_type_is_lost_in_a_library_call_leaves_what_follows_by_name() -> None:
    _, unknown = java_uses("""
      void a(java.util.List<Builder> all, Builder b) { all.get(0).peek(); b.toString().trim(); }
      void c(Builder b) { b.getClass().getName(); }""")
    # `List.get` may return a project type: `peek` is by name. `trim` follows a method of Object
    # on a project type, `getName` one of Class: by name too (nothing proves whose they are);
    # the library's own methods on a typed receiver (`get`, `toString`, `getClass`) are nobody's here.
    assert {"peek", "trim", "getName"} <= unknown
    assert not {"get", "toString", "getClass"} & unknown


def test_java_an_import_only_javadoc_uses_is_member_evidence_for_the_type_not_a_file_edge() -> None:
    user = "package com.acme.app;\nimport com.acme.Spec;\n/** See {@link Spec}. */\npublic class User {}\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    used, _ = member_uses(JAVA, files, f"{MAIN}/app/User.java")
    assert used == {f"{MAIN}/Spec.java": {"Spec"}}
    assert not [e for e in all_edges(JAVA, files) if e.source == f"{MAIN}/app/User.java"]


def test_java_a_field_read_adds_no_file_edge() -> None:
    user = "package com.acme.app;\nimport com.acme.Builder;\npublic class User { int a(Builder b) { return b.depth; } }\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    targets = {e.target for e in all_edges(JAVA, files) if e.source == f"{MAIN}/app/User.java"
               and e.kind in ("imports", "references")}
    assert targets == {f"{MAIN}/Builder.java"}

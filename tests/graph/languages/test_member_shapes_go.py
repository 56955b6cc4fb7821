"""Go receiver shapes found on real code (fiber, cobra, urfave/cli, echo, chi): each resolves to the
method go/types names, and one it cannot prove stays by-name."""

from __future__ import annotations

from pathlib import Path

from graph_helpers import write_files
from memory_project import all_edges, member_uses

from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.languages.go import SUPPORT as GO
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

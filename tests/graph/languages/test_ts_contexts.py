"""TypeScript callback parameters typed by context, as the language server types them: an
unannotated `(c) => c.json()` passed to a callee whose declared parameter is a function type takes
that function type's parameter types. Every shape below resolves the member use to its declaring
file; shapes that only look typed (disagreeing overloads, unconstrained generics, `any`, spreads)
leave the member as by-name evidence."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

LIB = {
    "src/context.ts": """\
        export class Context {
          json(value: unknown) { return value; }
          get req(): Req { return new Req(); }
        }
        export class Req { header(name: string) { return name; } }
        export class Other { json(value: unknown) { return value; } }
        """,
    # No `;` between members and generic call signatures: tree-sitter alone cannot parse this file.
    "src/types.ts": """\
        import type {Context} from './context.js';
        export type Next = () => Promise<void>
        export type Handler<E = any> = (c: Context, next: Next) => Response
        export type MiddlewareHandler = (c: Context, next: Next) => Promise<void>
        export type H = Handler | MiddlewareHandler
        export interface HandlerInterface<E> {
          (handler: H): App
          <P extends string>(path: P, ...handlers: [H, ...H[]]): App
          <P extends string, M extends H>(path: P, handler: M): App
        }
        import type {App} from './app.js';
        """,
    "src/app.ts": """\
        import type {HandlerInterface, MiddlewareHandler, Handler} from './types.js';
        import type {Context, Other} from './context.js';
        export class App {
          get!: HandlerInterface<string>;
          constructor(onError?: (c: Context) => void) {}
          use(...handlers: MiddlewareHandler[]): this { return this; }
          on(event: string, listener: (c: Context, extra: Other) => void): this { return this; }
          route<T extends Handler>(handler: T): this { return this; }
          notFound(handler: Handler): this { return this; }
        }
        export function createMiddleware(middleware: MiddlewareHandler): MiddlewareHandler { return middleware; }
        export function factory(): Handler { return (c) => c.json(0); }
        """,
}


def uses(code: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**LIB, **OPTIONS, "test/a.ts": code}, "test/a.ts")


def test_callback_parameters_take_the_types_of_the_callees_function_type() -> None:
    used, unknown = uses("""\
        import {App} from '../src/app.js';
        const app = new App();
        app.on('x', (c, extra) => { c.json(1); extra.json(2); });
        app.notFound(function (c) { return c.req.header('a'); });
        """)
    assert used["src/context.ts"] == {"Context.json", "Context.req", "Req.header", "Other.json"}
    assert not unknown


def test_aliases_unions_rest_parameters_and_generic_bounds_type_the_callback() -> None:
    used, unknown = uses("""\
        import {App, createMiddleware} from '../src/app.js';
        const app = new App();
        app.use(async (c, next) => { c.req; await next(); }, (c) => c.json(1));
        app.route((c) => c.json(2));
        createMiddleware(async (c) => { c.req.header('x'); });
        """)
    assert used["src/context.ts"] == {"Context.json", "Context.req", "Req.header"}
    assert not unknown


def test_a_field_typed_by_a_callable_interface_with_overloads_types_each_position() -> None:
    used, unknown = uses("""\
        import {App} from '../src/app.js';
        const app = new App();
        app.get((c) => c.json(1));
        app.get('/', (c) => c.req.header('a'));
        app.get('/', (c) => c.json(1), (c) => c.json(2), (c) => c.json(3));
        """)
    assert used["src/context.ts"] == {"Context.json", "Context.req", "Req.header"}
    assert not unknown


def test_constructor_arguments_annotated_variables_and_returned_functions() -> None:
    used, unknown = uses("""\
        import {App} from '../src/app.js';
        import type {Handler, MiddlewareHandler} from '../src/types.js';
        new App((c) => c.json(1));
        const h: Handler = (c) => c.req;
        export const mw = (): MiddlewareHandler => async (c, next) => { c.req.header('a'); };
        export function named(): MiddlewareHandler {
          return async function inner(c, next) { c.json(2); };
        }
        class Routes { fallback: Handler = (c) => c.json(3); }
        export const auth = {verify(user, c) { return c.req; }} satisfies Auth;
        import type {Auth} from '../src/opts.js';
        """)
    assert used["src/context.ts"] == {"Context.json", "Context.req", "Req.header"}
    assert "Auth.verify" in used["src/opts.ts"]  # the `satisfies Auth` object's method
    assert not unknown
    defining, _ = member_uses(TYPESCRIPT, LIB, "src/app.ts")
    assert defining["src/context.ts"] == {"Context", "Other", "Context.json"}  # `factory`'s returned arrow


def test_callbacks_that_only_look_typed_stay_by_name() -> None:
    used, unknown = uses("""\
        import {App} from '../src/app.js';
        import type {Context, Other} from '../src/context.js';
        import {external} from 'some-package';
        class T { json() {} }
        declare function overloaded(cb: (c: Context) => void): void;
        declare function overloaded(cb: (c: Other) => void): void;
        declare function loose(cb: any): void;
        declare function generic<T>(cb: (x: T) => void): void;
        declare function bound<F>(cb: F): void;
        const app = new App();
        const args: any[] = [];
        overloaded((a) => a.json(1));
        loose((b) => b.json(2));
        generic((d) => d.json(3));
        bound((e) => e.json(4));
        external((f) => f.json(5));
        app.on(...args, (g) => g.json(6));
        app.on('x', (h = null) => h.json(7));
        function local(cb) { cb(1); }
        local((k) => k.json(8));
        """)
    assert "src/context.ts" not in used or not {"Context.json", "Other.json"} & used["src/context.ts"]
    assert "json" in unknown


def test_an_interface_that_extends_may_inherit_a_call_signature_so_it_is_not_ruled_out() -> None:
    files = {**LIB, "src/more.ts": """\
        import type {Context, Other} from './context.js';
        export interface Listener extends Base {}
        export interface Base { (c: Other): void }
        export declare function on(cb: (c: Context) => void): void;
        export declare function on(cb: Listener): void;
        """}
    used, unknown = member_uses(TYPESCRIPT, {**files, "test/a.ts": """\
        import {on} from '../src/more.js';
        on((c) => c.json(1));
        """}, "test/a.ts")
    assert "src/context.ts" not in used
    assert "json" in unknown


OPTIONS = {
    "src/opts.ts": """\
        import type {Context} from './context.js';
        export class Options {
          get prefixUrl(): string { return ''; }
          set prefixUrl(value: string) {}
          timeout: number = 1;
        }
        export class Legacy { timeout: number = 2; }
        export interface Auth {
          verify(user: string, c: Context): boolean;
          onError?: (c: Context) => void;
          nested?: {deep: (c: Context) => void};
        }
        export type Init = Partial<Options> & {hooks?: string[]};
        export function request(url: string, options?: Init): void {}
        export function auth(options: Auth): void {}
        export function either(options: Options | Legacy): void {}
        export function loose(options: any): void {}
        export type Strict = Omit<Options, 'timeout'> & {timeout?: string};
        export function strict(options: Strict): void {}
        export function picked(options: Pick<Options, 'prefixUrl'>): void {}
        """,
}


def test_object_literal_keys_name_the_properties_of_the_parameters_type() -> None:
    used, unknown = member_uses(TYPESCRIPT, {**LIB, **OPTIONS, "test/a.ts": """\
        import {request, either, loose} from '../src/opts.js';
        import type {Options} from '../src/opts.js';
        request('x', {prefixUrl: 'a', timeout: 2, hooks: []});
        const o: Partial<Options> = {prefixUrl: 'b'};
        either({timeout: 3});
        loose({prefixUrl: 'c'});
        """}, "test/a.ts")
    assert used["src/opts.ts"] == {"request", "either", "loose", "Options", "Options.prefixUrl", "Options.timeout"}
    assert {"hooks", "timeout"} <= unknown  # a key no declared type has; a key two types of a union declare


def test_omitted_keys_redeclared_beside_are_not_the_original_property() -> None:
    used, unknown = member_uses(TYPESCRIPT, {**LIB, **OPTIONS, "test/a.ts": """\
        import {strict, picked} from '../src/opts.js';
        strict({timeout: 'soon', prefixUrl: 'a'});
        picked({timeout: 1});
        """}, "test/a.ts")
    assert used["src/opts.ts"] == {"strict", "picked", "Options.prefixUrl"}
    assert unknown == {"timeout"}


def test_callbacks_inside_object_literals_take_the_property_types() -> None:
    used, unknown = member_uses(TYPESCRIPT, {**LIB, **OPTIONS, "test/a.ts": """\
        import {auth} from '../src/opts.js';
        auth({
          verify(user, c) { return !!c.req; },
          onError: (c) => c.json(1),
          nested: {deep: (c) => c.header('a')},
        });
        """}, "test/a.ts")
    assert used["src/context.ts"] == {"Context.req", "Context.json"}
    assert {"Auth.verify", "Auth.onError", "Auth.nested"} <= used["src/opts.ts"]
    assert unknown == {"header", "deep"}  # the members of an inline object type are not followed


def test_elements_of_typed_arrays_are_typed() -> None:
    used, unknown = uses("""\
        import type {Context, Req} from '../src/context.js';
        export function run(contexts: Context[], requests: ReadonlyArray<Req>, more: readonly Context[]) {
          for (const c of contexts) c.json(1);
          contexts.forEach((c) => c.req);
          requests.filter((r) => true).map((r) => r.header('a'));
          more[0].json(2);
          contexts.find((c) => true)?.json(3);
          contexts.length;
          for (const key in contexts) key.json(4);
        }
        """)
    assert used["src/context.ts"] == {"Context", "Req", "Context.json", "Context.req", "Req.header"}
    assert unknown == {"json"}  # `for in` gives keys; an array's own members are not the project's


def test_a_callback_where_a_utility_type_of_an_object_is_expected_is_not_typed() -> None:
    used, unknown = member_uses(TYPESCRIPT, {**LIB, **OPTIONS, "src/odd.ts": """\
        import type {Options} from './opts.js';
        export declare function odd(cb: Omit<Options, 'timeout'>, ...rest: [Pick<Options, 'prefixUrl'>]): void;
        """, "test/a.ts": """\
        import {odd} from '../src/odd.js';
        odd((c) => c.json(1), (d) => d.json(2));
        """}, "test/a.ts")
    assert "src/context.ts" not in used
    assert unknown == {"json"}


def test_destructured_parameters_take_the_property_types() -> None:
    used, unknown = uses("""\
        import {App} from '../src/app.js';
        import type {Context} from '../src/context.js';
        new App().get('/', ({req}) => req.header('a'));
        export function typed({req: request}: Context) { return request.header('b'); }
        new App().get('/', ({json}, {other}) => other.json(1));
        """)
    # a destructured key is a use of the property (`{json}` names `Context.json`), as tsc counts it
    assert used["src/context.ts"] == {"Context", "Context.req", "Context.json", "Req.header"}
    assert unknown == {"other", "json"}  # the second parameter of a handler is `next`, a function


def test_what_is_pushed_onto_an_array_property_is_typed_by_its_element_type() -> None:
    # `Array<T>.push(...items: T[])`: immer's `state.callbacks_.push(function cleanup(rootScope) {...})`
    used, unknown = member_uses(TYPESCRIPT, {**LIB, "src/state.ts": """\
        import type {Context} from './context.js';
        export interface State {
          callbacks_: ((scope: Context) => void)[];
          later: Array<(c: Context) => void>;
          names: string[];
        }
        """, "test/a.ts": """\
        import type {State} from '../src/state.js';
        export function f(state: State) {
          state.callbacks_.push(function cleanup(rootScope) { rootScope.json(1); });
          state.later.unshift((c) => c.req.header('a'));
          state.names.push((x) => x.json(2));
          state.callbacks_.map((cb) => cb.json(3));
        }
        """}, "test/a.ts")
    assert {"Context.json", "Context.req", "Req.header"} <= used["src/context.ts"]
    assert "json" in unknown  # a string array's elements, a callback's own members: nothing

"""`callers` of a TypeScript method or property finds the files that use it through receivers
whose type only the declarations give (as the TypeScript language server's find-references
does): an interface the class implements, `typeof` annotations, a constant merged with an
interface, intersections, inline object types, test-framework callbacks. Each shape is checked
through the whole index, as a user asking `callers` sees it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graph_helpers import write_files

from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.workspace import Workspace


def callers(root: Path, files: dict[str, str], name: str, file: str) -> tuple[str, set[str], set[str]]:
    """(status, files with resolved uses, by-name candidate files) of `callers name` in `file`."""
    write_files(root, {path: textwrap.dedent(text) for path, text in files.items()})
    workspace = Workspace(root)
    snapshot, _ = build_index(workspace)
    answer = GraphQuery(lambda: snapshot, Freshness(workspace)).references(name, file=file, limit=1000)
    resolved = {r["path"] for r in answer.results if r.get("evidence") == "resolved"}
    return answer.status, resolved, {r["path"] for r in answer.results if r.get("evidence") == "by_name"}


def test_a_parameter_typed_typeof_a_namespace_reaches_the_class(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/app.ts": "export class App {\n  get(path: string): this { return this; }\n}\n",
        "src/index.ts": "export {App} from './app.js';\n",
        "bench/run.ts": """\
            import * as lib0 from '../src/index.js';
            export function make(lib: typeof lib0) {
              const app = new lib.App();
              app.get('/');
            }
            """,
        "bench/local.ts": """\
            import {App} from '../src/app.js';
            const app = new App();
            export function f(a: typeof app) { a.get('/x'); }
            export function g() {
              const app = 1;
              return (b: typeof app) => b;
            }
            """,
    }, "App.get", "src/app.ts")
    assert status == "ok" and resolved == {"bench/run.ts", "bench/local.ts"}


def test_a_constant_merged_with_an_interface_is_read_as_the_constant(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/core.ts": """\
            export interface Maker<T> {
              new (def: unknown): T;
              init(inst: T, def: unknown): void;
            }
            export function maker<T>(name: string): Maker<T> { return null as any; }
            """,
        "src/schemas.ts": """\
            import * as core from './core.js';
            export interface Schema { parse(x: unknown): unknown }
            export const Schema: core.Maker<Schema> = core.maker('Schema');
            """,
        "src/string.ts": """\
            import {Schema} from './schemas.js';
            export function init(inst: unknown) { Schema.init(inst as any, {}); }
            """,
        "src/typed.ts": """\
            import type {Schema} from './schemas.js';
            export const check = (s: Schema) => s.parse(1);
            """,
    }, "Maker.init", "src/core.ts")
    assert status == "ok" and resolved == {"src/string.ts"}
    # written as a type, the same name is still the interface
    assert callers(tmp_path, {}, "Schema.parse", "src/schemas.ts")[1] == {"src/typed.ts"}


CLIENT = {
    "src/types.ts": """\
        export interface Base { close(): void }
        export type Client = {
          extend(options: {prefix?: string}): Client;
          get(url: string): string;
          defaults: {retries: number};
        } & Base & Record<string, unknown>;
        export type Plain = {get(url: string): string};
        """,
    "src/index.ts": """\
        import type {Client} from './types.js';
        declare function create(): Client;
        const client = create();
        export default client;
        """,
    "test/get.ts": """\
        import client from '../src/index.js';
        client.get('/');
        """,
    "test/extend.ts": """\
        import client from '../src/index.js';
        client.extend({prefix: '/'}).close();
        """,
    "test/plain.ts": """\
        import type {Plain} from '../src/types.js';
        export const f = (p: Plain) => p.get('/');
        """,
}


def test_members_of_a_type_alias_of_an_intersection_are_found_on_its_values(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, CLIENT, "Client.get", "src/types.ts")
    assert status == "ok" and resolved == {"test/get.ts"}
    assert callers(tmp_path, {}, "Client.extend", "src/types.ts")[1] == {"test/extend.ts"}
    assert callers(tmp_path, {}, "Base.close", "src/types.ts")[1] == {"test/extend.ts"}
    assert callers(tmp_path, {}, "Plain.get", "src/types.ts")[1] == {"test/plain.ts"}


GROUP = {
    "src/group.ts": """\
        export class Group {
          add(task: unknown) { return this; }
        }
        export function makeGroup(): Group { return new Group(); }
        """,
    "src/app.ts": """\
        import {Group, makeGroup} from './group.js';
        export class App {
          private _group: Group | undefined;
          private made = makeGroup();
          private get group() {
            if (!this._group) this._group = new Group();
            return this._group;
          }
          use(task: unknown) { this.group.add(task); }
        }
        """,
    "src/made.ts": """\
        import {makeGroup} from './group.js';
        export class Other {
          made = makeGroup();
          run() { this.made.add(1); }
        }
        """,
}


def test_a_getter_without_a_written_type_and_a_field_initialised_by_a_call_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, GROUP, "Group.add", "src/group.ts")
    assert status == "ok" and resolved == {"src/app.ts", "src/made.ts"}


JAR = {
    "src/cookie.ts": """\
        export class Cookie {
          update(value: string) { return this; }
        }
        export const createJar = (): Record<string, Cookie> => ({});
        export interface Jars { [name: string]: Cookie }
        """,
    "test/jar.ts": """\
        import {createJar} from '../src/cookie.js';
        const jar = createJar();
        jar.session.update('x');
        """,
    "test/nested.ts": """\
        import {createJar, type Cookie} from '../src/cookie.js';
        declare function create(): {cookie: Record<string, Cookie>};
        const {cookie: {name}} = create();
        name.update('y');
        """,
    "test/index.ts": """\
        import type {Cookie} from '../src/cookie.js';
        export const f = (jar: {[name: string]: Cookie}) => jar.a.update('z');
        export const g = (jar: Record<string, number>) => jar.update;
        """,
}


def test_a_member_of_a_string_keyed_record_and_a_nested_destructured_name_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, JAR, "Cookie.update", "src/cookie.ts")
    assert status == "ok" and resolved == {"test/jar.ts", "test/nested.ts", "test/index.ts"}


INLINE = {
    "src/context.ts": """\
        export class Context {
          json(value: unknown) { return value; }
        }
        """,
    "src/auth.ts": """\
        import type {Context} from './context.js';
        export function deny(opts: {ctx: Context; realm?: string}) {
          return opts.ctx.json({realm: opts.realm});
        }
        export function make(): {ctx: Context; build(): Context} { return null as any; }
        """,
    "test/auth.ts": """\
        import {make} from '../src/auth.js';
        make().build().json(1);
        const {ctx} = make();
        ctx.json(2);
        """,
    "test/other.ts": """\
        export const f = (opts: {ctx: {json(v: unknown): void}}) => opts.ctx.json(3);
        """,
}


def test_members_of_inline_object_types_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, INLINE, "Context.json", "src/context.ts")
    assert status == "ok" and resolved == {"src/auth.ts", "test/auth.ts"}


SETUP = {
    "src/app.ts": "export class App {\n  get(path: string) { return path; }\n}\n",
    "test/setup.ts": """\
        import {App} from '../src/app.js';
        export function setup() {
          const app = new App();
          return {app, other: new App(), count: 1};
        }
        export const arrow = () => ({made: new App()});
        """,
    "test/a.test.ts": """\
        import {setup, arrow} from './setup.js';
        const {app} = setup();
        app.get('/');
        """,
    "test/b.test.ts": """\
        import {setup, arrow} from './setup.js';
        function run() {
          const fixture = setup();
          fixture.other.get('/');
          arrow().made.get('/x');
        }
        """,
}


def test_an_object_literal_returned_by_a_helper_types_its_keys(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, SETUP, "App.get", "src/app.ts")
    assert status == "ok" and resolved == {"test/a.test.ts", "test/b.test.ts"}


def test_a_method_of_a_module_constant_object_literal_is_resolved_or_stays_by_name(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/api.ts": """\
            export const api = {
              fetch(url: string) { return url; },
              handler: (x: number) => x,
            };
            """,
        "src/use.ts": "import {api} from './api.js';\napi.fetch('/');\napi.handler(1);\n",
        "src/maybe.ts": "import './api.js';\nexport const g = (x: any) => x.fetch('/');\n",
    }, "api.fetch", "src/api.ts")
    assert status == "ok" and resolved == {"src/use.ts"}
    # a member no declaration backs is never dropped: `x.fetch` on an untyped `x` stays a candidate
    assert "src/maybe.ts" in callers(tmp_path, {}, "api.fetch", "src/api.ts")[2]


def test_an_intersection_with_a_type_of_an_uninstalled_package_is_any(tmp_path: Path) -> None:
    # tsc without node_modules cannot read `IncomingMessage`: the whole intersection is `any`
    status, resolved, candidates = callers(tmp_path, {
        "src/request.ts": "export class Request {\n  abort() {}\n}\n",
        "src/response.ts": """\
            import type {IncomingMessage} from 'node:http';
            import type {Request} from './request.js';
            export type Timed = IncomingMessage & {timings: number};
            export type PlainResponse = {request: Request} & Timed;
            export type Response = {request: Request} & Record<string, unknown>;
            """,
        "src/plain.ts": """\
            import type {PlainResponse} from './response.js';
            export const stop = (response: PlainResponse) => response.request.abort();
            """,
        "src/typed.ts": """\
            import type {Response} from './response.js';
            export const stop = (response: Response) => response.request.abort();
            """,
    }, "Request.abort", "src/request.ts")
    assert status == "ok" and resolved == {"src/typed.ts"} and "src/plain.ts" in candidates


def test_a_field_assigned_in_a_subclass_keeps_the_type_its_base_declares(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/router.ts": "export interface Router {\n  match(path: string): string;\n}\n",
        "src/base.ts": """\
            import type {Router} from './router.js';
            export class Base {
              router!: Router;
            }
            """,
        "src/app.ts": """\
            import {Base} from './base.js';
            import type {Router} from './router.js';
            export class App extends Base {
              constructor(options: {router?: Router}) {
                super();
                this.router = options.router ?? makeRouter();
              }
            }
            declare function makeRouter(): any;
            """,
        "src/dev.ts": """\
            import type {App} from './app.js';
            export const name = (app: App) => app.router.match('/');
            """,
    }, "Router.match", "src/router.ts")
    assert status == "ok" and resolved == {"src/dev.ts"}


def test_an_indexed_access_type_names_the_property(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/router.ts": "export interface Router<T> {\n  match(path: string): T;\n}\n",
        "src/matcher.ts": """\
            import type {Router} from './router.js';
            export const build = <T>() => ((path: string) => null) as unknown as Router<T>['match'];
            """,
    }, "Router.match", "src/router.ts")
    assert status == "ok" and resolved == {"src/matcher.ts"}


EXTEND = {
    "src/options.ts": """\
        export class Options {
          get prefixUrl(): string { return ''; }
          set prefixUrl(value: string) {}
          get secret(): string { return ''; }
          get timeout(): number { return 0; }
          merge(other: unknown) {}
        }
        type Skipped = 'merge' | 'secret';
        type Internals = Omit<Options, Skipped>;
        export type OptionsInit = Partial<Internals> & {hooks?: unknown};
        """,
    "src/types.ts": """\
        import type {OptionsInit} from './options.js';
        export type ExtendOptions = {handlers?: unknown[]} & OptionsInit;
        export type Got = {
          extend(...instancesOrOptions: Array<Got | ExtendOptions>): Got;
          merge<T extends Array<Got | ExtendOptions>>(...instancesOrOptions: T): Got;
        } & Record<'get' | 'post', () => void>;
        """,
    "test/helpers.ts": """\
        import type {Got} from '../src/types.js';
        export const prepare = (got: Got) => got.extend({prefixUrl: '/api'}, {secret: 'x'});
        """,
    "test/generic.ts": """\
        import type {Got} from '../src/types.js';
        // inferred from the literal itself: `T` is `[{timeout: number}]`, no property of Options
        export const merged = (got: Got) => got.merge({timeout: 1});
        """,
}


def test_object_literal_keys_through_rest_arrays_unions_and_omitted_key_aliases(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, EXTEND, "Options.prefixUrl", "src/options.ts")
    assert status == "ok" and resolved == {"test/helpers.ts"}
    # `secret` is omitted by `Skipped`: that key names no property of Options
    assert "test/helpers.ts" not in callers(tmp_path, {}, "Options.secret", "src/options.ts")[1]
    assert callers(tmp_path, {}, "Options.timeout", "src/options.ts")[1] == set()


def test_a_promise_callback_and_a_parameter_default_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/client.ts": """\
            export class Client {
              send(body: string) { return body; }
            }
            export async function connect(): Promise<Client> { return new Client(); }
            """,
        "src/then.ts": """\
            import {connect} from './client.js';
            connect().then((client) => client.send('x'));
            """,
        "src/default.ts": """\
            import {Client} from './client.js';
            export function run(client = new Client()) { client.send('y'); }
            """,
    }, "Client.send", "src/client.ts")
    assert status == "ok" and resolved == {"src/then.ts", "src/default.ts"}


def test_instanceof_narrows_the_name_where_it_holds(tmp_path: Path) -> None:
    status, resolved, candidates = callers(tmp_path, {
        "src/errors.ts": """\
            export class HTTPError extends Error {
              describe() { return 'http'; }
            }
            export class Other { describe() { return 'other'; } }
            """,
        "src/handle.ts": """\
            import {HTTPError} from './errors.js';
            import './errors.js';
            export function handle(error: unknown) {
              if (error instanceof HTTPError) {
                error.describe();
              }
            }
            export const short = (e: unknown) => e instanceof HTTPError && e.describe();
            """,
        "src/outside.ts": """\
            import {HTTPError} from './errors.js';
            export function f(error: any) {
              if (error instanceof HTTPError) { return; }
              error.describe();
            }
            """,
    }, "HTTPError.describe", "src/errors.ts")
    assert status == "ok" and resolved == {"src/handle.ts"} and "src/outside.ts" in candidates
    assert "src/handle.ts" not in callers(tmp_path, {}, "Other.describe", "src/errors.ts")[1]


EXCEPT = {
    "src/options.ts": """\
        import type {Except} from 'type-fest';
        export class Options {
          get prefixUrl(): string { return ''; }
          set prefixUrl(value: string) {}
          get timeout(): number { return 0; }
          set timeout(value: number) {}
        }
        export type PackageInit = Except<Partial<Options>, 'timeout'>;
        type Own<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
        export type LocalInit = Own<Partial<Options>, 'prefixUrl'> & {retry?: number};
        export declare function fromPackage(init: PackageInit): void;
        export declare function fromLocal(init: Partial<Options>): void;
        """,
    "test/package.ts": """\
        import {fromPackage} from '../src/options.js';
        fromPackage({prefixUrl: '/'});
        """,
    "test/local.ts": """\
        import {fromLocal} from '../src/options.js';
        fromLocal({timeout: 1});
        """,
}


def test_a_utility_type_of_an_uninstalled_package_names_no_property(tmp_path: Path) -> None:
    # tsc offline cannot read type-fest's `Except`: the parameter is `any` and the key names nothing
    status, resolved, candidates = callers(tmp_path, EXCEPT, "Options.prefixUrl", "src/options.ts")
    assert resolved == set() and status == "undeterminable" and candidates == {"test/package.ts"}
    assert callers(tmp_path, {}, "Options.timeout", "src/options.ts")[1] == {"test/local.ts"}


def test_a_conditional_whose_branches_agree_and_a_prototype_member_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/schema.ts": """\
            export class Schema {
              resolve(options: unknown): this { return this; }
              clone(): this { return this; }
              next(options?: unknown) { return (options ? this.resolve(options) : this).clone(); }
            }
            export class Other { clone() { return 1; } }
            """,
        "test/proto.ts": """\
            import {Schema} from '../src/schema.js';
            const base = Schema.prototype.clone;
            """,
        "test/mixed.ts": """\
            import {Schema, Other} from '../src/schema.js';
            export const f = (s: Schema, o: Other, c: boolean) => (c ? s : o).clone();
            """,
        "test/agree.ts": """\
            import {Schema} from '../src/schema.js';
            export const g = (s: Schema, c: boolean) => (c ? s.resolve(1) : s).clone();
            """,
    }, "Schema.clone", "src/schema.ts")
    # branches of two types are a union: `clone` of each (both declare it), as tsc reads it
    assert status == "ok" and resolved == {"test/proto.ts", "test/agree.ts", "test/mixed.ts"}
    assert callers(tmp_path, {}, "Schema.resolve", "src/schema.ts")[1] == {"test/agree.ts"}


def test_a_string_key_reads_the_member_it_names(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/adapter.ts": "export class Adapter {\n  listen(port: number) {}\n}\n",
        "src/app.ts": """\
            import type {Adapter} from './adapter.js';
            export class App {
              '~adapter': Adapter;
              constructor(adapter: Adapter) { this['~adapter'] = adapter; }
              listen() { this['~adapter'].listen(1); }
            }
            """,
        "src/other.ts": """\
            import type {App} from './app.js';
            export const f = (app: App) => app['~adapter']['listen'](2);
            """,
    }, "Adapter.listen", "src/adapter.ts")
    assert status == "ok" and resolved == {"src/app.ts", "src/other.ts"}


def test_a_member_missing_where_the_type_says_stays_a_candidate(tmp_path: Path) -> None:
    # our reading of a type may be wrong (a mixin, a merged declaration): a miss is no proof of nothing
    status, resolved, candidates = callers(tmp_path, {
        "src/optional.ts": "export class Optional {\n  unwrap() { return 1; }\n}\n",
        "src/shape.ts": "export class Shape {}\nexport const util = {};\n",
        "src/index.ts": "export * from './optional.js';\nexport * as shapes from './shape.js';\n",
        "test/a.ts": """\
            import * as z from '../src/index.js';
            import {Shape} from '../src/shape.js';
            export const f = (s: Shape) => (s as any as Shape).unwrap();
            export const g = () => z.shapes.unwrap();
            """,
    }, "Optional.unwrap", "src/optional.ts")
    assert status == "undeterminable" and resolved == set() and candidates == {"test/a.ts"}


def test_a_default_exported_instance_and_new_this_are_typed(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/logger.ts": """\
            export class Logger {
              static create() { return new this(); }
              log(message: string) {}
            }
            export default new Logger();
            """,
        "src/app.ts": "import logger from './logger.js';\nlogger.log('hi');\n",
        "src/made.ts": "import {Logger} from './logger.js';\nLogger.create().log('made');\n",
    }, "Logger.log", "src/logger.ts")
    assert status == "ok" and resolved == {"src/app.ts", "src/made.ts"}


def test_a_member_of_an_inline_object_type_is_a_candidate_for_the_literals_implementing_it(tmp_path: Path) -> None:
    status, resolved, candidates = callers(tmp_path, {
        "src/types.ts": "export interface Adapter {\n  handler: {error404(code: number): string};\n}\n",
        "src/web.ts": """\
            export const WebAdapter = {
              handler: {error404(code: number) { return 'x'; }},
            };
            """,
        "src/compose.ts": """\
            import type {Adapter} from './types.js';
            import './web.js';
            export const compose = (adapter: Adapter) => adapter.handler.error404(404);
            """,
    }, "WebAdapter.error404", "src/web.ts")
    assert status == "undeterminable" and resolved == set() and candidates == {"src/compose.ts"}


def test_a_test_importing_its_own_package_by_name_is_searched_for_candidates(tmp_path: Path) -> None:
    # tsc resolves `mylib` through the package's own `exports` (a custom condition pointing at the
    # sources); the file graph leaves a bare name to an install, but the members the test uses
    # there show that it reaches the defining file
    status, resolved, candidates = callers(tmp_path, {
        "package.json": '{"name": "mylib", "exports": {".": {"@mylib/source": "./src/index.ts", '
                        '"import": "./dist/index.js"}}}',
        "tsconfig.json": '{"compilerOptions": {"customConditions": ["@mylib/source"]}}',
        "src/index.ts": "export {object, Optional} from './schemas.js';\n",
        "src/schemas.ts": """\
            export class Optional { unwrap() { return 1; } }
            export class Shape { shape: any; }
            export function object(): Shape { return new Shape(); }
            """,
        "test/partial.test.ts": """\
            import * as z from 'mylib';
            const required = z.object();
            required.shape.name.unwrap();
            """,
    }, "Optional.unwrap", "src/schemas.ts")
    assert status == "undeterminable" and resolved == set() and candidates == {"test/partial.test.ts"}


def test_an_intersection_written_inline_has_the_members_of_its_parts(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/options.ts": "export interface CookieOptions { secrets?: string; path?: string }\n",
        "src/cookie.ts": """\
            import type {CookieOptions} from './options.js';
            export class Cookie implements CookieOptions {
              get secrets() { return ''; }
            }
            """,
        "src/config.ts": """\
            import type {CookieOptions} from './options.js';
            import type {IncomingMessage} from 'node:http';
            export class App {
              config!: {cookie?: CookieOptions & {sign?: boolean}};
              raw!: IncomingMessage & {secrets: string};
            }
            export const read = (app: App) => app.config.cookie?.secrets;
            """,
        "src/raw.ts": """\
            import type {App} from './config.js';
            export const raw = (app: App) => app.raw.secrets;
            """,
    }, "Cookie.secrets", "src/cookie.ts")
    # `raw` intersects a type no install provides: `any` offline, so not proven
    assert status == "ok" and resolved == {"src/config.ts", "src/options.ts"}

"""TypeScript receivers typed from what the source writes: default exports through barrels, return
types along call chains, locals by lexical scope, destructuring, casts, inheritance and overrides.
Each shape resolves a member use to its declaring file; an untyped receiver stays by-name evidence."""

from __future__ import annotations

from pathlib import Path

from graph_helpers import write_files
from memory_project import MemoryProject, member_uses

from konstruct_tui.graph.code_graph import CodeGraph
from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT
from konstruct_tui.workspace import Workspace

LIB = {
    "src/options.ts": """\
        export default class Options {
          merge(other: Options): this { return this; }
          get url(): URL { return new URL('x'); }
        }
        """,
    "src/client.ts": """\
        import Options from './options.js';
        export class Client {
          options: Options;
          constructor(private readonly base: Options) {}
          get(url: string): Promise<Response> { return fetch(url); }
          static create(): Client { return new Client(new Options()); }
          self(): this { return this; }
          child() { return new Client(this.base); }
        }
        export interface Service { start(): void; }
        export function makeClient(): Client { return Client.create(); }
        export const shared = new Client(new Options());
        """,
    "src/response.ts": "export class Response { json(): unknown { return 1; } }\n",
    "src/sub.ts": """\
        import {Client} from './client.js';
        export class Sub extends Client {
          get(url: string) { return super.get(url); }
          extra() { return this.self(); }
        }
        """,
    "src/index.ts": """\
        export {default as Options} from './options.js';
        export * from './client.js';
        export {Sub} from './sub.js';
        """,
}


def uses(code: str, path: str = "test/a.ts") -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**LIB, path: code}, path)


def test_default_exported_class_is_named_by_its_declaration_through_barrels() -> None:
    used, _ = uses("""\
        import {Options} from '../src/index.js';
        import Direct from '../src/options.js';
        const o = new Options();
        o.merge(o);
        function f(d: Direct) { return d.url; }
        """)
    assert used == {"src/options.ts": {"Options", "Options.merge", "Options.url"}}


def test_return_types_along_chains_static_calls_this_returns_and_unannotated_returns() -> None:
    used, _ = uses("""\
        import {Client, makeClient} from '../src/index.js';
        makeClient().get('a');
        Client.create().self().child().get('b');
        """)
    assert used["src/client.ts"] == {"makeClient", "Client", "Client.create", "Client.get", "Client.self",
                                     "Client.child"}


def test_fields_constructor_parameter_properties_and_getters_type_the_next_member() -> None:
    used, _ = uses("""\
        import {shared} from '../src/index.js';
        shared.options.merge(shared.options);
        shared.options.url.href;
        """)
    assert {"Options.merge", "Options.url"} <= used["src/options.ts"]
    assert "Client.options" in used["src/client.ts"]


def test_awaited_promise_return_types_and_casts() -> None:
    used, _ = uses("""\
        import {Client} from '../src/index.js';
        import {Response} from '../src/response.js';
        async function run(c: Client, raw: unknown) {
          const response = await c.get('x');
          response.json();
          (raw as Response).json();
        }
        """)
    assert used["src/response.ts"] == {"Response", "Response.json"}


def test_locals_are_typed_by_their_own_scope_not_by_a_namesake_elsewhere() -> None:
    used, unknown = uses("""\
        import {Client} from '../src/index.js';
        function a(x: Client) { x.get('a'); }
        function b(x) { x.merge(1); }
        function c() { const x = Client.create(); x.self(); }
        """)
    assert used["src/client.ts"] == {"Client", "Client.get", "Client.create", "Client.self"}
    assert "merge" in unknown


def test_destructured_locals_take_the_member_type() -> None:
    used, _ = uses("""\
        import {Client} from '../src/index.js';
        function run(client: Client) {
          const {options} = client;
          options.merge(options);
        }
        """)
    assert "Options.merge" in used["src/options.ts"]


def test_inherited_members_credit_the_declaring_base_and_overrides_are_marked() -> None:
    used, _ = uses("""\
        import {Sub} from '../src/index.js';
        new Sub().self();
        new Sub().get('x');
        """)
    assert used["src/client.ts"] == {"Client.self", "Client.get"}
    assert used["src/sub.ts"] == {"Sub", "Sub.get"}
    sub_used, _ = member_uses(TYPESCRIPT, LIB, "src/sub.ts")
    # `super.get` calls the base; `Sub.get` overrides `Client.get` (recorded as `Sub.get>Client.get`)
    assert {"Client.get", "Client.self", "Sub.get>Client.get"} <= sub_used["src/client.ts"]


def test_interface_members_resolve_and_unknown_interface_members_stay_by_name() -> None:
    used, unknown = uses("""\
        import type {Service} from '../src/index.js';
        function run(s: Service) { s.start(); s.stop(); }
        """)
    assert used == {"src/client.ts": {"Service", "Service.start"}}
    assert "stop" in unknown


def test_callers_of_an_override_include_calls_through_the_base_and_the_base_declaration(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, {**LIB,
                       "test/base.ts": "import {Client} from '../src/client.js';\nnew Client(null).get('a');\n",
                       "test/sub.ts": "import {Sub} from '../src/sub.js';\nnew Sub().get('b');\n",
                       "test/none.ts": "import '../src/sub.js';\nexport function g(q) { return q.extra(); }\n"})
    graph = CodeGraph(Workspace(root), supports={"typescript": TYPESCRIPT}, warm_neighborhoods=False)
    try:
        assert graph.wait_until_current(20)
        found = graph.query.references("Sub.get", file="src/sub.ts")
        assert found.status == "ok"
        assert {r["path"] for r in found.results if r["evidence"] == "resolved"} == {
            "src/client.ts", "test/base.ts", "test/sub.ts"}
        extra = graph.query.references("Sub.extra", file="src/sub.ts")
        assert extra.status == "undeterminable"
        assert [(r["path"], r["evidence"]) for r in extra.results] == [("test/none.ts", "by_name")]
    finally:
        graph.close()
        graph.workspace.close()


def test_receivers_that_only_look_typed_stay_by_name() -> None:
    used, unknown = uses("""\
        import {Client, Options} from '../src/index.js';
        function shadow(Client) { Client.create(); }
        function either(x: Client | Options) { x.merge(1); }
        function generic<T extends Client>(x: T) { x.self(); }
        class Holder {
          client: Client;
          run() { setTimeout(function () { this.client.get('a'); }); }
        }
        """)
    assert used == {"src/client.ts": {"Client"}, "src/options.ts": {"Options"}}
    assert {"create", "merge", "self", "get"} <= unknown


def test_tests_importing_their_own_package_by_name_resolve_through_its_source_condition() -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"customConditions": ["@acme/source"]}}',
        "packages/acme/package.json": """\
            {"name": "acme", "exports": {"./v2": {"@acme/source": "./src/v2/index.ts",
                                                  "import": "./v2/index.js"}}}""",
        "packages/acme/src/v2/index.ts": "export * from './schemas.js';\n",
        "packages/acme/src/v2/schemas.ts": """\
            export class Str { min(n: number): this { return this; } }
            export function string(): Str { return new Str(); }
            """,
        "packages/acme/tests/str.test.ts": "import * as z from 'acme/v2';\nz.string().min(1);\n",
        "apps/web/use.ts": "import {string} from 'acme/v2';\nstring().min(2);\n",
    }
    used, unknown = member_uses(TYPESCRIPT, files, "packages/acme/tests/str.test.ts")
    assert used == {"packages/acme/src/v2/schemas.ts": {"string", "Str.min"}}
    assert not unknown
    # Another package of the workspace needs an install to see it (as tsc does); opted in, it resolves
    assert member_uses(TYPESCRIPT, files, "apps/web/use.ts")[0] == {}
    project = MemoryProject(TYPESCRIPT, files)
    edges = TYPESCRIPT.resolver(project, workspace_packages=True).resolve(project.facts["apps/web/use.ts"])
    assert {n for e in edges if e.kind == "members" for n in e.names} == {"string", "Str.min"}


def test_function_valued_static_fields_and_constants_aliasing_them_are_called_like_methods() -> None:
    files = {
        "src/types.ts": """\
            export class ZodString {
              static create = (params?: object): ZodString => new ZodString();
              min(n: number) { return this._add(n); }
              _add(n: number): ZodString { return this; }
              get isEmail(): boolean { return false; }
            }
            const stringType = ZodString.create;
            export { stringType as string };
            export const ZodNumber: Factory<ZodNumber> = make();
            export interface ZodNumber { gt(n: number): this; }
            export function number(): ZodNumber { return make(); }
            """,
        "test/a.ts": "import * as z from '../src/types';\nz.string().min(1).isEmail;\nz.number().gt(1);\n",
    }
    used, unknown = member_uses(TYPESCRIPT, files, "test/a.ts")
    assert used == {"src/types.ts": {"stringType", "ZodString.min", "ZodString.isEmail", "number", "ZodNumber.gt"}}
    assert not unknown


def test_an_unqualified_name_means_the_function_of_that_name_not_every_method_so_named(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, {
        "src/s.ts": "export class Str { email() { return this; } }\nexport function email() { return new Str(); }\n",
        "test/method.ts": "import {Str} from '../src/s';\nnew Str().email();\n",
        "test/function.ts": "import {email} from '../src/s';\nemail();\n",
    })
    graph = CodeGraph(Workspace(root), supports={"typescript": TYPESCRIPT}, warm_neighborhoods=False)
    try:
        assert graph.wait_until_current(20)
        assert [r["path"] for r in graph.query.references("email", file="src/s.ts").results] == ["test/function.ts"]
        assert [r["path"] for r in graph.query.references("Str.email").results] == ["test/method.ts"]
    finally:
        graph.close()
        graph.workspace.close()


def test_namespaces_re_exported_by_name_through_barrels_and_re_export_specifiers() -> None:
    files = {
        "src/util.ts": "export function toHex(b: number) { return ''; }\nexport function unused() {}\n",
        "src/external.ts": "export * as util from './util';\nexport {unused as spare} from './util';\n",
        "src/index.ts": "export * from './external';\n",
        "test/a.ts": "import * as z from '../src/index';\nz.util.toHex(1);\n",
        "test/b.ts": "import {spare} from '../src/index';\n",
    }
    assert member_uses(TYPESCRIPT, files, "test/a.ts")[0] == {"src/util.ts": {"toHex"}}
    # an import names its declaration even unused, and so does a re-export specifier
    assert member_uses(TYPESCRIPT, files, "test/b.ts")[0] == {"src/util.ts": {"unused"}}
    assert member_uses(TYPESCRIPT, files, "src/external.ts")[0] == {"src/util.ts": {"unused"}}


def test_a_javascript_module_with_declarations_beside_it_is_typed_by_the_declarations() -> None:
    files = {
        "index.js": "export {ExecaError} from './lib/error.js';\n",
        "index.d.ts": "export {ExecaError} from './types/error.js';\n",
        "lib/error.js": "export class ExecaError extends Error {}\n",
        "types/error.d.ts": "export declare class ExecaError extends Error { readonly code: string; }\n",
        "test-d/a.ts": "import {ExecaError} from '../index.js';\nconst e: ExecaError = null!;\n",
    }
    assert member_uses(TYPESCRIPT, files, "test-d/a.ts")[0] == {"types/error.d.ts": {"ExecaError"}}


def test_either_side_of_a_nullish_default_types_the_local_only_when_both_sides_agree() -> None:
    used, unknown = uses("""\
        import {Client, Options} from '../src/index.js';
        export function run(first?: Client, other?: Options) {
          const client = first ?? new Client(null);
          const {options} = client;
          options.merge(options);
          const mixed = other || new Client(null);
          mixed.get('x');
        }
        """)
    assert "Options.merge" in used["src/options.ts"]
    assert "Client.get" not in used["src/client.ts"] and "get" in unknown


def test_fields_assigned_in_a_constructor_and_type_aliases_of_classes() -> None:
    files = {**LIB,
             "src/app.js": """\
                import {Client} from './client.js';
                export class App {
                  constructor() { this.client = Client.create(); }
                  run() { return this.client.get('a'); }
                }
                """,
             "src/alias.ts": "import {Client} from './client.js';\nexport type Api = Client;\n",
             "test/a.ts": """\
                import {App} from '../src/app.js';
                import type {Api} from '../src/alias.js';
                new App().client.self();
                function f(api: Api) { api.get('b'); }
                """}
    assert "Client.get" in member_uses(TYPESCRIPT, files, "src/app.js")[0]["src/client.ts"]
    used, _ = member_uses(TYPESCRIPT, files, "test/a.ts")
    assert {"Client.self", "Client.get"} <= used["src/client.ts"]
    assert "App.client" in used["src/app.js"]

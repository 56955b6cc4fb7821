"""TypeScript types that only name their members once instantiated or combined, as tsc reads them:
a generic type alias given its arguments (`Merge<Strict, {kind?: 'text'}>`), an instance type
that is an intersection with a standard type (`{...} & Record<Verb, Fn> & Fn`), and long alias
chains of utility types. An object literal's keys then name the declared properties; what cannot
be told stays by-name evidence."""

from __future__ import annotations

import textwrap
from pathlib import Path

from graph_helpers import write_files
from memory_project import member_uses

from konstruct_tui.graph.code_graph import build_index
from konstruct_tui.graph.freshness import Freshness
from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.workspace import Workspace

CLIENT = {
    "src/options.ts": """\
        export class Options {
          timeout: number = 1;
          get prefixUrl(): string { return ''; }
          set prefixUrl(value: string) {}
          kind: string = 'text';
          retry: number = 0;
        }
        """,
    "src/types.ts": """\
        import type Options from './options.js';
        import {type Options as Named} from './options.js';
        type Except<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
        type Merge<First, Second> = Except<First, Extract<keyof First, keyof Second>> & Second;
        export type Init = Except<Partial<Named>, 'retry'> & {retry?: {limit: number}};
        export type Stream = Except<Init, 'kind'>;
        export type Strict = Except<Stream, 'kind'>;
        export type TextOptions = Merge<Strict, {kind?: 'text'}>;
        export type JsonOptions = Merge<Strict, {kind?: 'json'}>;
        export type RequestFunction = {
          (url: string, options?: Strict): Promise<string>;
          (url: string, options?: TextOptions): Promise<string>;
          (url: string, options?: JsonOptions): Promise<unknown>;
          (options: Strict): Promise<string>;
        };
        export type Verb = 'get' | 'post';
        export type Paginate = {
          all: ((url: string, options?: Merge<Stream, {page?: number}>) => Promise<unknown[]>)
            & ((options?: Merge<Stream, {page?: number}>) => Promise<unknown[]>);
        };
        export type Client = {
          extend(options: Init): Client;
          paginate: Paginate;
        } & Record<Verb, RequestFunction> & RequestFunction;
        export declare const client: Client;
        """,
}


def uses(code: str, extra: dict[str, str] | None = None) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**CLIENT, **(extra or {}), "test/a.ts": code}, "test/a.ts")


def test_calling_an_intersection_with_a_record_uses_the_call_signatures_of_its_other_parts() -> None:
    used, unknown = uses("""\
        import {client} from '../src/types.js';
        await client('https://example.com', {timeout: 1});
        await client({prefixUrl: 'https://example.com'});
        """)
    assert used["src/options.ts"] == {"Options.timeout", "Options.prefixUrl"}
    assert not unknown


def test_a_record_part_of_an_intersection_types_the_members_its_keys_name() -> None:
    # `Client = {...} & Record<Verb, RequestFunction> & ...`: `client.post` is a RequestFunction
    used, unknown = uses("""\
        import {client} from '../src/types.js';
        await client.post('https://example.com', {timeout: 1});
        await client.patch('https://example.com', {prefixUrl: 'x'});
        """)
    assert used["src/options.ts"] == {"Options.timeout"}
    assert unknown == {"post", "patch", "prefixUrl"}  # keys name no declaration; `patch` is no Verb


def test_keys_of_a_nested_object_literal_name_the_properties_of_the_outer_keys_type() -> None:
    used, unknown = uses("""\
        import {configure} from '../src/nested.js';
        configure({cookie: {path: '/', sign: true}, name: 'x'});
        """, {"src/nested.ts": """\
        export interface CookieOptions { path?: string }
        export interface Config { cookie?: CookieOptions & {sign?: boolean}; name?: string }
        export function configure(config: Config): void {}
        """})
    assert used["src/nested.ts"] == {"configure", "Config.cookie", "Config.name", "CookieOptions.path"}
    assert unknown == {"sign"}


def test_a_property_typed_by_function_types_is_called_with_their_signatures() -> None:
    used, unknown = uses("""\
        import {client} from '../src/types.js';
        await client.paginate.all('https://example.com', {timeout: 1, page: 2});
        """)
    assert used["src/options.ts"] == {"Options.timeout"}
    assert used["src/types.ts"] == {"client", "Client.paginate", "Paginate.all"}
    assert unknown == {"page"}


def test_a_generic_alias_is_read_with_the_arguments_its_use_writes() -> None:
    # Every overload's options type keeps `timeout` from Options; `kind` is the inline `{kind?}` of
    # Merge's second argument in two overloads and dropped in the first: no one declaration.
    used, unknown = uses("""\
        import {client} from '../src/types.js';
        await client('https://example.com', {timeout: 1, kind: 'json'});
        """)
    assert used["src/options.ts"] == {"Options.timeout"}
    assert unknown == {"kind"}


def test_a_key_redeclared_inline_beside_an_omit_is_not_the_class_property() -> None:
    used, unknown = uses("""\
        import {client} from '../src/types.js';
        await client('https://example.com', {retry: {limit: 1}, prefixUrl: 'x'});
        """)
    assert used["src/options.ts"] == {"Options.prefixUrl"}
    assert unknown == {"retry", "limit"}  # `limit` is a member of the inline `{limit: number}`


def test_a_value_typed_by_an_alias_of_utility_types_has_the_members_they_keep() -> None:
    used, unknown = uses("""\
        import type {Init, Strict} from '../src/types.js';
        export function run(init: Init, strict: Strict) {
          init.timeout;
          init.retry;
          strict.prefixUrl;
          strict.kind;
        }
        """)
    assert used["src/options.ts"] == {"Options.timeout", "Options.prefixUrl"}
    assert "Init.retry" in used["src/types.ts"] and "Options.retry" not in used["src/options.ts"]
    assert "kind" in unknown  # omitted by `Except<Stream, 'kind'>`: no declaration


def test_a_generic_alias_without_its_argument_names_nothing() -> None:
    used, unknown = uses("""\
        import {open} from '../src/open.js';
        open({timeout: 1});
        """, {"src/open.ts": """\
        import type {Options} from './options.js';
        type Loose<T> = T;
        type Either<T, U> = T | U;
        export function open(options: Loose): void {}
        export function other(options: Either<Options>): void {}
        """})
    assert "src/options.ts" not in used
    assert unknown == {"timeout"}


def test_an_alias_parameter_given_a_type_of_the_using_file_resolves_there() -> None:
    # `Wrap<Local>`: `Local` is declared where Wrap is used, not where Wrap is declared.
    used, unknown = uses("""\
        import {configure} from '../src/local.js';
        configure({deep: true});
        """, {"src/wrap.ts": """\
        export type Wrap<T> = Partial<T> & {extra?: number};
        """, "src/local.ts": """\
        import type {Wrap} from './wrap.js';
        class Local { deep: boolean = false; }
        export function configure(options: Wrap<Local>): void {}
        """})
    assert used["src/local.ts"] == {"configure", "Local.deep"}
    assert not unknown


PRETTY = {
    "src/types.ts": """\
        // https://twitter.com/mattpocockuk/status/1622730173446557697
        export type Prettify<in out T> = {
          [K in keyof T]: T[K]
        } & {}
        export type Loose<T> = {[K in keyof T]?: never}
        """,
    "src/cookies.ts": """\
        import type {Prettify} from './types';
        export interface CookieOptions {
          path?: string
          secrets?: string | string[]
        }
        export type ElysiaCookie = Prettify<CookieOptions & {value?: unknown}>
        export class Cookie implements ElysiaCookie {
          get path() { return '/'; }
          set path(value: string | undefined) {}
          get value() { return 1; }
        }
        export function parse(options: Prettify<CookieOptions>): void {}
        export function strange(options: Loose<CookieOptions>): void {}
        """,
}


def test_an_identity_mapped_type_keeps_the_declarations_of_its_argument() -> None:
    # `Prettify<in out T>`: the variance modifiers are no parameter names (tree-sitter reads them so)
    used, unknown = uses("""\
        import {parse, strange} from '../src/cookies';
        parse({path: '/', secrets: 'a'});
        strange({path: undefined});
        """, PRETTY)
    assert used["src/cookies.ts"] == {"parse", "strange", "CookieOptions.path", "CookieOptions.secrets"}
    assert unknown == {"path"}  # `{[K in keyof T]?: never}` maps keys to something else: not followed


def test_a_class_implementing_an_alias_of_a_mapped_type_is_in_the_family_of_its_members(tmp_path: Path) -> None:
    # The class and the interface are declared side by side: `callers Cookie.path` still lists the
    # files using `CookieOptions.path`, as find-references does.
    files = {**PRETTY, "test/a.ts": """\
        import type {CookieOptions} from '../src/cookies';
        export const read = (options: CookieOptions) => options.path;
        """, "src/orphan.ts": """\
        interface Named { name: string }
        export class Orphan implements Named { get name() { return 'o'; } }
        """}
    write_files(tmp_path, {path: textwrap.dedent(text) for path, text in files.items()})
    workspace = Workspace(tmp_path)
    snapshot, _ = build_index(workspace)
    answer = GraphQuery(lambda: snapshot, Freshness(workspace)).references("Cookie.path", file="src/cookies.ts")
    assert answer.status == "ok"
    assert {r["path"] for r in answer.results if r.get("evidence") == "resolved"} == {"test/a.ts"}
    dead = GraphQuery(lambda: snapshot, Freshness(workspace)).references("Cookie.value", file="src/cookies.ts")
    assert dead.status == "no_references"  # the inline `{value?: unknown}` has no other user
    # The file's own override row is no use of it: nobody imports it, so it is still dead code.
    orphan = GraphQuery(lambda: snapshot, Freshness(workspace)).unreferenced("src")
    assert ("src/orphan.ts", None) in {(r["path"], r.get("symbol")) for r in orphan.results}


def test_callbacks_in_an_array_literal_take_the_element_type_of_the_property() -> None:
    used, unknown = uses("""\
        import {configure} from '../src/hooks.js';
        configure({hooks: {init: [(options) => options.timeout], after: [(options) => options.prefixUrl]}});
        configure({hooks: {loose: [(options) => options.kind]}});
        """, {"src/hooks.ts": """\
        import type {Options} from './options.js';
        export type InitHook = (init: Options) => void;
        export interface Hooks {
          init?: InitHook[];
          after?: Array<InitHook>;
          loose?: unknown[];
        }
        export interface Config { hooks?: Hooks }
        export function configure(config: Config): void {}
        """})
    assert used["src/options.ts"] == {"Options.timeout", "Options.prefixUrl"}
    assert "kind" in unknown  # an array of `unknown` types nothing


def test_other_spellings_of_key_sets_and_identity_mapped_types() -> None:
    used, unknown = uses("""\
        import {a, b} from '../src/spell.js';
        a({timeout: 1, kind: 'x'});
        b({prefixUrl: 'y'});
        """, {"src/spell.ts": """\
        import type {Options} from './options.js';
        type Without<T, S> = Omit<T, keyof S> & S;
        type Mutable<T> = {-readonly [K in keyof T]-?: T[K]};
        export function a(options: Without<Options, {kind: number}>): void {}
        export function b(options: Mutable<Options>): void {}
        """})
    assert used["src/options.ts"] == {"Options.timeout", "Options.prefixUrl"}
    assert unknown == {"kind"}  # the inline `{kind: number}` replaces Options' `kind`


def test_a_literal_returned_by_a_callback_takes_the_return_type_of_its_context() -> None:
    used, unknown = uses("""\
        import {paginate} from '../src/pages.js';
        paginate({next({page}) { return {timeout: page}; }, after: (page) => ({prefixUrl: 'x'})});
        paginate({loose: () => ({kind: 1})});
        """, {"src/pages.ts": """\
        import type {Options} from './options.js';
        export interface Pagination {
          next?(data: {page: number}): Partial<Options> | false;
          after?: (page: number) => Options;
          loose?: () => unknown;
        }
        export function paginate(pagination: Pagination): void {}
        """})
    assert used["src/options.ts"] == {"Options.timeout", "Options.prefixUrl"}
    assert "kind" in unknown  # `unknown` types nothing


def test_keys_reach_through_an_inline_property_type_and_name_an_object_alias_properties() -> None:
    used, unknown = uses("""\
        import {list} from '../src/list.js';
        list({pagination: {limit: 2, next: () => ({timeout: 1})}, label: 'x'});
        """, {"src/list.ts": """\
        import type {Options} from './options.js';
        export type Paging = {limit?: number; next?: () => Options};
        export function list(options: {pagination?: Paging; label?: string}): void {}
        """})
    assert used["src/options.ts"] == {"Options.timeout"}
    assert {"Paging.limit", "Paging.next"} <= used["src/list.ts"]
    assert unknown == {"pagination", "label"}  # members of the parameter's inline type

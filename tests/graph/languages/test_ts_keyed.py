"""A generic callable whose return type (or parameter type) is `M[K]`, `K extends keyof M` the
type of one of its parameters, typed by the key a call gives, as tsc infers `K` from the
argument's literal type: `getPlugin(PluginPatches).applyPatches_()` (immer's plugin registry),
`container.get('logger').log()` (a DI container), `loadPlugin(key, {...})` (an object literal
given for `M[K]`), `emitter.on('data', (p) => ...)` (an event map). A key that is no literal, not
a key of M, or a map that is a class's type parameter types nothing: the member stays by-name."""

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

REGISTRY = {
    "src/services.ts": """\
        export interface Logger { log(message: string): void; flush(): void }
        export type Cache = { read(key: string): string };
        export interface Services { logger: Logger; cache?: Cache }
        export class Container {
          get<K extends keyof Services>(key: K): Services[K] { return {} as any; }
          must<K extends Extract<keyof Services, string>>(key: K): NonNullable<Services[K]> { return {} as any; }
          provide<K extends keyof Services>(key: K, service: Services[K]): void {}
        }
        export const container = new Container();
        """,
    "src/keys.ts": """\
        export const LoggerKey = 'logger';
        export const CacheKey = "cache" as const;
        export let loose = 'logger';
        """,
    "src/index.ts": "export * from './keys.js';\nexport * from './services.js';\n",
    # immer's shape: the map is the type of an annotated constant, the getter wraps it in Exclude
    "src/plugins.ts": """\
        export const PluginPatches = "Patches";
        export type PatchesPlugin = { applyPatches_(draft: unknown): void; getPath: (s: unknown) => string };
        const plugins: { Patches?: PatchesPlugin } = {};
        type Plugins = typeof plugins;
        export function getPlugin<K extends keyof Plugins>(pluginKey: K): Exclude<Plugins[K], undefined> {
          return plugins[pluginKey] as any;
        }
        export function loadPlugin<K extends keyof Plugins>(pluginKey: K, implementation: Plugins[K]): void {}
        """,
}


def uses(code: str, extra: dict[str, str] | None = None) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**REGISTRY, **(extra or {}), "test/a.ts": code}, "test/a.ts")


def test_a_literal_key_types_the_call_as_the_maps_property() -> None:
    used, unknown = uses("""\
        import {container} from '../src/services.js';
        container.get('logger').log('x');
        container.get("cache").read('k');
        """)
    assert {"Logger.log", "Cache.read"} <= used["src/services.ts"]
    assert not {"log", "read"} & unknown


def test_a_constant_imported_through_a_barrel_is_the_key_it_holds() -> None:
    used, unknown = uses("""\
        import {container, LoggerKey, CacheKey} from '../src/index.js';
        const logger = container.get(LoggerKey);
        logger.flush();
        container.get(CacheKey).read('k');
        """)
    assert {"Logger.flush", "Cache.read"} <= used["src/services.ts"]
    assert not {"flush", "read"} & unknown


def test_a_local_constant_is_the_key_it_holds() -> None:
    used, unknown = uses("""\
        import {container} from '../src/services.js';
        const Module = 'logger';
        export function run() {
          const key = 'cache';
          container.get(key).read('k');
          container.get(Module).log('x');
        }
        """)
    assert {"Logger.log", "Cache.read"} <= used["src/services.ts"]
    assert not {"log", "read"} & unknown


def test_exclude_and_nonnullable_around_the_indexed_access_are_read_through() -> None:
    used, unknown = uses("""\
        import {getPlugin, PluginPatches} from '../src/plugins.js';
        import {container} from '../src/services.js';
        getPlugin(PluginPatches).applyPatches_({});
        const path = getPlugin('Patches').getPath;
        container.must('cache').read('k');
        """)
    assert {"PatchesPlugin.applyPatches_", "PatchesPlugin.getPath"} <= used["src/plugins.ts"]
    assert "Cache.read" in used["src/services.ts"]
    # (a function-typed property is also by-name evidence, as every such property use: any object may provide it)
    assert not {"applyPatches_", "read"} & unknown


def test_an_object_literal_given_for_the_indexed_parameter_names_its_properties() -> None:
    used, unknown = uses("""\
        import {loadPlugin, PluginPatches} from '../src/plugins.js';
        import {container} from '../src/services.js';
        function applyPatches_(draft: unknown) {}
        loadPlugin(PluginPatches, {applyPatches_, getPath: (s) => ''});
        container.provide('logger', {log(message) {}, flush() {}});
        """)
    assert {"PatchesPlugin.applyPatches_", "PatchesPlugin.getPath"} <= used["src/plugins.ts"]
    assert {"Logger.log", "Logger.flush"} <= used["src/services.ts"]
    assert not {"applyPatches_", "getPath", "log", "flush"} & unknown


def test_a_key_that_is_no_literal_stays_by_name() -> None:
    used, unknown = uses("""\
        import {container, loose} from '../src/index.js';
        export function run(key: 'logger') {
          container.get(key).log('a');
        }
        let mutable = 'logger';
        container.get(mutable as 'logger').flush();
        container.get(loose as 'logger').log('b');
        const typed: 'cache' | 'logger' = 'cache';
        container.get(typed).read('k');
        """)
    assert not {"Logger.log", "Logger.flush", "Cache.read"} & used.get("src/services.ts", set())
    assert {"log", "flush", "read"} <= unknown


def test_a_parameter_of_the_same_name_shadows_the_constant() -> None:
    used, unknown = uses("""\
        import {container} from '../src/services.js';
        const key = 'logger';
        export function run(key: 'cache' | 'logger') {
          container.get(key).log('x');
        }
        for (const key of ['cache']) container.get(key as 'cache').read('k');
        """)
    assert "Logger.log" not in used.get("src/services.ts", set()) and "log" in unknown
    assert "read" in unknown


def test_a_key_the_map_does_not_have_stays_by_name() -> None:
    used, unknown = uses("""\
        import {container} from '../src/services.js';
        import {getPlugin, loadPlugin} from '../src/plugins.js';
        container.get('metrics').log('x');
        getPlugin('MapSet').applyPatches_({});
        loadPlugin('MapSet', {proxyMap_() {}});
        """)
    assert "Logger.log" not in used.get("src/services.ts", set())
    assert "PatchesPlugin.applyPatches_" not in used.get("src/plugins.ts", set())
    assert {"log", "applyPatches_", "proxyMap_"} <= unknown


def test_a_literal_key_still_lets_an_ordinary_callable_type_its_call() -> None:
    # keys read for every call must not change what a callable of no `M[K]` return gives
    used, unknown = uses("""\
        import {Logger} from '../src/services.js';
        declare function find(name: string): Logger;
        export function pick(flag: boolean) {
          if (flag) return find('a');
          return find('b');
        }
        find('x').flush();
        pick(true).log('y');
        """)
    assert {"Logger.flush", "Logger.log"} <= used["src/services.ts"]
    assert not {"flush", "log"} & unknown


EVENTS = {
    "src/events.ts": """\
        export class Payload { size(): number { return 1; } }
        export interface Events { data: (payload: Payload) => void; end: () => void }
        export class Emitter {
          on<K extends keyof Events>(event: K, listener: Events[K]): this { return this; }
        }
        export class Bus<Events> {
          on<K extends keyof Events>(event: K, listener: Events[K]): this { return this; }
          get<K extends keyof Events>(event: K): Events[K] { return {} as any; }
        }
        export class Other { size(): number { return 2; } }
        export interface OtherEvents { data: (payload: Other) => void; other: Other }
        """,
}


def test_a_callback_given_for_an_event_maps_listener_takes_its_parameter_types() -> None:
    used, unknown = uses("""\
        import {Emitter} from '../src/events.js';
        new Emitter().on('data', (payload) => payload.size());
        """, EVENTS)
    assert "Payload.size" in used["src/events.ts"]
    assert "size" not in unknown


def test_a_map_that_is_a_class_type_parameter_stays_by_name() -> None:
    # `Bus<OtherEvents>`: `Events` is the class's type parameter (instantiated per receiver, which
    # is not read here), not the interface of that name beside it: never a guess
    used, unknown = uses("""\
        import {Bus, type OtherEvents} from '../src/events.js';
        const bus = new Bus<OtherEvents>();
        bus.on('data', (payload) => payload.size());
        bus.get('other').size();
        """, EVENTS)
    assert not {"Payload.size", "Other.size"} & used.get("src/events.ts", set())
    assert "size" in unknown


def test_callers_of_a_plugin_method_are_resolved_where_the_key_is_a_literal(tmp_path: Path) -> None:
    files = {**REGISTRY,
             "src/core.ts": """\
                 import {getPlugin, PluginPatches} from './plugins.js';
                 export const apply = (d: unknown) => getPlugin(PluginPatches).applyPatches_(d);
                 """,
             "src/patches.ts": """\
                 import {loadPlugin, PluginPatches} from './plugins.js';
                 export function enablePatches() {
                   function applyPatches_(draft: unknown) {}
                   loadPlugin(PluginPatches, {applyPatches_, getPath: () => ''});
                 }
                 """,
             "src/dynamic.ts": """\
                 import {getPlugin} from './plugins.js';
                 export const apply = (name: 'Patches') => getPlugin(name).applyPatches_(1);
                 """}
    write_files(tmp_path, {path: textwrap.dedent(text) for path, text in files.items()})
    workspace = Workspace(tmp_path)
    snapshot, _ = build_index(workspace)
    answer = GraphQuery(lambda: snapshot, Freshness(workspace)).references(
        "PatchesPlugin.applyPatches_", file="src/plugins.ts", limit=100)
    resolved = {r["path"] for r in answer.results if r.get("evidence") == "resolved"}
    by_name = {r["path"] for r in answer.results if r.get("evidence") == "by_name"}
    assert answer.status == "ok"
    assert resolved == {"src/core.ts", "src/patches.ts"}
    assert by_name == {"src/dynamic.ts"}


SPELLINGS = {
    "src/s.ts": """\
        export interface Logger { log(m: string): void }
        export interface Services { logger: Logger }
        export const getArrow = <K extends keyof Services>(key: K): Services[K] => ({} as any);
        export interface IContainer { get<K extends keyof Services>(key: K): Services[K] }
        export declare const ic: IContainer;
        export class Registry {
          static lookup<K extends keyof Services>(key: K): Services[K] { return {} as any; }
          field = <K extends keyof Services & string>(key: K): Services[K] => ({} as any);
          async load<K extends keyof Services>(key: K): Promise<Services[K] | undefined> { return {} as any; }
        }
        """,
}


def test_every_spelling_of_a_keyed_callable_and_its_call_is_read() -> None:
    calls = {
        "an arrow function": "import {getArrow} from '../src/s.js';\ngetArrow('logger').log('a');",
        "an interface's method": "import {ic} from '../src/s.js';\nic.get('logger').log('a');",
        "a static method": "import {Registry} from '../src/s.js';\nRegistry.lookup('logger').log('a');",
        "a field holding an arrow": "import {Registry} from '../src/s.js';\nnew Registry().field('logger').log('a');",
        "an optional call": "import {ic} from '../src/s.js';\nic.get?.('logger').log('a');",
        "a non-null assertion": "import {ic} from '../src/s.js';\nic.get('logger')!.log('a');",
        "an awaited promise": "import {Registry} from '../src/s.js';\n"
                              "export async function f() { (await new Registry().load('logger'))!.log('a'); }",
        "a local assigned the call": "import {ic} from '../src/s.js';\n"
                                     "export function f() { const l = ic.get('logger'); l.log('a'); }",
        "explicit type arguments": "import {ic} from '../src/s.js';\nic.get<'logger'>(`logger`).log('a');",
    }
    for spelling, code in calls.items():
        used, unknown = member_uses(TYPESCRIPT, {**SPELLINGS, "test/a.ts": code}, "test/a.ts")
        assert "Logger.log" in used.get("src/s.ts", set()), spelling
        assert "log" not in unknown, spelling


def test_a_key_that_is_no_plain_literal_stays_by_name() -> None:
    calls = {
        "a template with a substitution": "const x = 'ger';\nic.get(`log${x}`).log('a');",
        "a property of a constant object": "const Keys = {L: 'logger'} as const;\nic.get(Keys.L).log('a');",
        "a literal cast to another type": "ic.get('logger' as Key).log('a');\ntype Key = 'logger';",
        "a conditional": "declare const b: boolean;\nic.get(b ? 'logger' : 'logger').log('a');",
        "a spread before the key": "declare const a: ['logger'];\n(ic.get as any)(...a).log('a');",
    }
    for spelling, code in calls.items():
        used, unknown = member_uses(TYPESCRIPT, {**SPELLINGS, "test/a.ts": "import {ic} from '../src/s.js';\n" + code},
                                    "test/a.ts")
        assert "Logger.log" not in used.get("src/s.ts", set()), spelling
        assert "log" in unknown, spelling

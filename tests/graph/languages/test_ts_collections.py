"""TypeScript receivers held by unions and collections, as tsc types them: a member used on a union
of classes (`for (const e of [server, namespace])`, `a ?? b`) is a use of each class's member when
every one declares it, and values kept in a `Map`/`Set` (`this.sockets.get(id)!.disconnect()`,
`for (const s of this.sockets.values())`) are instances of the declared value type."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

LIB = {
    "src/server.ts": """\
        export class Server {
          to(room: string): this { return this; }
          emit(event: string): boolean { return true; }
          close(): void {}
        }
        export class Namespace {
          to(room: string): this { return this; }
          emit(event: string): boolean { return true; }
        }
        """,
}


def uses(code: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**LIB, "test/a.ts": code}, "test/a.ts")


def test_a_member_of_a_union_is_a_use_of_each_classes_member() -> None:
    used, unknown = uses("""\
        import {Server, Namespace} from '../src/server.js';
        const sio = new Server();
        const nio = new Namespace();
        for (const emitter of [sio, nio]) emitter.to('1').emit('x');
        export const pick = (c: boolean) => (c ? sio : nio).emit('y');
        [sio, nio].forEach((e) => e.to('2'));
        """)
    assert used["src/server.ts"] == {"Server", "Namespace", "Server.to", "Namespace.to", "Server.emit",
                                     "Namespace.emit"}
    assert not unknown


def test_a_member_only_some_parts_of_a_union_declare_names_none_of_them() -> None:
    used, unknown = uses("""\
        import {Server, Namespace} from '../src/server.js';
        for (const emitter of [new Server(), new Namespace()]) emitter.close();
        export const f = (s: Server, n?: Namespace) => (n ?? s).close();
        for (const x of [new Server(), other()]) x.emit('z');
        """)
    assert used["src/server.ts"] == {"Server", "Namespace"}
    assert unknown == {"close", "emit"}


def test_values_kept_in_a_map_or_a_set_are_instances_of_the_declared_type() -> None:
    used, unknown = uses("""\
        import {Server, Namespace} from '../src/server.js';
        export class Registry {
          private servers: Map<string, Server> = new Map();
          private spaces: ReadonlySet<Namespace>;
          constructor(private readonly byName: WeakMap<object, Namespace>) {}
          run(key: object) {
            this.servers.get('a')!.close();
            for (const server of this.servers.values()) server.to('1');
            this.servers.forEach((server, name) => server.emit(name));
            for (const space of this.spaces) space.emit('x');
            this.byName.get(key)?.to('2');
            this.servers.size;
            this.servers.set('b', new Server());
          }
        }
        """)
    assert used["src/server.ts"] == {"Server", "Namespace", "Server.close", "Server.to", "Server.emit",
                                     "Namespace.emit", "Namespace.to"}
    assert not unknown  # `size` and `set` are the runtime's Map members


def test_a_map_entry_or_key_is_not_its_value() -> None:
    used, unknown = uses("""\
        import {Server} from '../src/server.js';
        export function run(servers: Map<Server, string>, pairs: Map<string, Server>) {
          servers.get(new Server())!.close();
          for (const entry of pairs) entry.close();
          pairs.keys().next().value.close();
        }
        """)
    assert used["src/server.ts"] == {"Server"}
    assert "close" in unknown


def test_a_map_or_set_constructed_with_type_arguments_holds_that_type() -> None:
    used, unknown = uses("""\
        import {Server, Namespace} from '../src/server.js';
        export class Hub {
          private servers = new Map<string, Server>();
          private spaces = new Set<Namespace>();
          run() {
            this.servers.get('a')?.close();
            for (const space of this.spaces) space.emit('x');
            const local = new Map<number, Namespace>();
            local.get(1)!.to('r');
            const plain = new Map();
            plain.get('x').close();
          }
        }
        """)
    assert used["src/server.ts"] == {"Server", "Namespace", "Server.close", "Namespace.emit", "Namespace.to"}
    assert unknown == {"close", "get"}  # an untyped `new Map()` holds anything


def test_a_jsdoc_link_names_the_member_it_links_to() -> None:
    used, unknown = uses("""\
        import type {Server} from '../src/server.js';
        /**
         * Like {@link Server.close()}, see also {@linkcode Server.to} and {@link Missing.thing}.
         */
        export function shutdown(): void {}
        // {@link Server.nothing} names no member: no evidence either way
        """)
    assert used["src/server.ts"] == {"Server", "Server.close", "Server.to"}
    assert not unknown

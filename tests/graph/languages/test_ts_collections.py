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

"""`callers` of a TypeScript member answers for its family, as the language server's
find-references does: a class member and the interface member it implements (a getter behind
`readonly path: string`), an object literal written to have an interface's type, a field
implementing an interface member; the parts of an intersection are no family."""

from __future__ import annotations

from pathlib import Path

from test_ts_callers_shapes import callers

EVENT = {
    "src/types.ts": """\
        export interface Event {
          readonly path: string;
          method(): string;
        }
        """,
    "src/event.ts": """\
        import type {Event} from './types.js';
        export class RealEvent implements Event {
          get path() { return '/'; }
          method() { return 'GET'; }
        }
        """,
}


def test_a_property_used_through_the_implemented_interface_is_a_use_of_the_class_member(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {**EVENT, "src/use.ts": """\
        import type {Event} from './types.js';
        export const where = (event: Event) => event.path;
        """, "src/other.ts": """\
        export const other = (x: {path: string}) => x.path;
        """}, "RealEvent.path", "src/event.ts")
    assert status == "ok"
    # the interface's declaration is part of the family, as the language server lists it
    assert resolved == {"src/use.ts", "src/types.ts"}


def test_a_property_of_an_interface_stays_by_name_evidence_for_other_classes(tmp_path: Path) -> None:
    status, resolved, candidates = callers(tmp_path, {**EVENT, "src/fake.ts": """\
        export class Fake { get path() { return 'x'; } }
        """, "src/use.ts": """\
        import type {Event} from './types.js';
        import './fake.js';
        export const where = (event: Event) => event.path;
        """}, "Fake.path", "src/fake.ts")
    assert resolved == set() and status == "undeterminable" and candidates == {"src/use.ts"}


ADAPTER = {
    "src/types.ts": """\
        export interface Adapter {
          listen(port: number): void;
          stop?: () => void;
        }
        """,
    "src/bun.ts": """\
        import type {Adapter} from './types.js';
        export const BunAdapter: Adapter = {
          listen(port) {},
          stop() {},
        };
        export const Plain = {
          listen(port: number) {},
        };
        """,
    "src/node.ts": """\
        import type {Adapter} from './types.js';
        export const NodeAdapter = {
          listen(port: number) {},
        } satisfies Adapter;
        """,
    "src/app.ts": """\
        import type {Adapter} from './types.js';
        export class App {
          constructor(private adapter: Adapter) {}
          run() { this.adapter.listen(1); this.adapter.stop?.(); }
        }
        """,
}


def test_a_method_of_an_object_literal_typed_by_an_interface_is_used_through_the_interface(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, ADAPTER, "BunAdapter.listen", "src/bun.ts")
    # the other implementation's property is a reference of the interface's too, as tsc lists it
    assert status == "ok" and resolved == {"src/app.ts", "src/types.ts", "src/node.ts"}
    assert callers(tmp_path, {}, "NodeAdapter.listen", "src/node.ts")[1] == {"src/app.ts", "src/types.ts", "src/bun.ts"}
    assert callers(tmp_path, {}, "BunAdapter.stop", "src/bun.ts")[1] == {"src/app.ts", "src/types.ts"}
    # an untyped literal implements nothing: the interface's uses are not its callers
    assert "src/app.ts" not in callers(tmp_path, {}, "Plain.listen", "src/bun.ts")[1]


def test_a_field_implementing_an_interface_member_refers_to_it(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/router.ts": "export interface Router {\n  match(path: string): string;\n}\n",
        "src/trie.ts": """\
            import type {Router} from './router.js';
            export class TrieRouter implements Router {
              match(path: string) { return path; }
            }
            """,
        "src/regexp.ts": """\
            import type {Router} from './router.js';
            const match = (path: string) => path;
            export class RegExpRouter implements Router {
              match: typeof match = match;
            }
            """,
    }, "TrieRouter.match", "src/trie.ts")
    assert status == "ok" and resolved == {"src/router.ts", "src/regexp.ts"}


def test_a_property_beside_a_class_in_an_intersection_overrides_nothing(tmp_path: Path) -> None:
    status, resolved, _ = callers(tmp_path, {
        "src/node.ts": "export class Node {\n  get type(): string { return 'div'; }\n}\n",
        "src/types.ts": """\
            import type {Node} from './node.js';
            export type Element<T = string> = Node & {type: T; key: string};
            """,
        "src/use.ts": """\
            import type {Element} from './types.js';
            export const kind = (e: Element) => e.key;
            export const tag = (e: Element) => e.type;
            """,
    }, "Node.type", "src/node.ts")
    # a use through the intersection is a use of both parts; the other part's declaration is not
    assert status == "ok" and resolved == {"src/use.ts"}

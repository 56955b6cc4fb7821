"""TypeScript receivers typed by what the source declares, in shapes found on held-out code
(bullmq): a class's type parameter by its bound, a local function's written return type, getters
declared in interfaces, an inline object type in a union with `undefined`, and classes declared
inside a function (a test's mocks) implementing an interface's members."""

from __future__ import annotations

from memory_project import MemoryProject, member_uses

from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

BACKEND = {
    "src/backend.ts": """\
        export interface Backend { obliterate(): Promise<void>; close(): Promise<void>; }
        export class RedisBackend implements Backend {
          obliterate() { return Promise.resolve(); }
          close() { return Promise.resolve(); }
        }
        export function make(): any { return new RedisBackend(); }
        """,
}


def uses(files: dict[str, str], path: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, {**BACKEND, **files}, path)


def test_a_field_typed_by_the_class_type_parameter_is_its_bound() -> None:
    files = {
        "src/base.ts": """\
            import { Backend } from './backend';
            export class QueueBase<B extends Backend = Backend> {
              backend: B;
              constructor(protected readonly spare: B) {}
            }
            """,
        "src/queue.ts": """\
            import { QueueBase } from './base';
            import { Backend } from './backend';
            export class Queue<D = any, B extends Backend = Backend> extends QueueBase<B> {
              async obliterate() { await this.backend.obliterate(); await this.spare.close(); }
            }
            """,
        "src/loose.ts": """\
            export class Loose<B> { backend: B; run() { this.backend.close(); } }
            """,
    }
    used, unknown = uses(files, "src/queue.ts")
    assert {"Backend.obliterate", "Backend.close"} <= used["src/backend.ts"] and not unknown
    # without a bound a type parameter is anything: by name, never a class that is called `B`
    used, unknown = uses(files, "src/loose.ts")
    assert "src/backend.ts" not in used and "close" in unknown


def test_a_local_function_with_a_written_return_type_gives_what_it_says() -> None:
    used, unknown = uses({"test/ops.test.ts": """\
        import { Backend, make } from '../src/backend';
        describe('ops', () => {
          const newBackend = (): Backend => make();
          const later = async function (): Promise<Backend> { return make(); };
          const untyped = () => make();
          it('runs', async () => {
            const backend = newBackend();
            await backend.close();
            (await later()).obliterate();
            untyped().close();
          });
        });
        """}, "test/ops.test.ts")
    assert used["src/backend.ts"] == {"Backend", "Backend.close", "Backend.obliterate", "make"}
    assert unknown == {"close"}  # `untyped()`: what `make()` gives is `any`


def test_a_getter_declared_in_an_interface_is_read_like_a_field() -> None:
    used, unknown = uses({
        "src/context.ts": """\
            import { Backend } from './backend';
            export type Client = Backend;
            export interface Context { get client(): Promise<Client>; }
            export abstract class Holder { abstract get other(): Backend; }
            """,
        "src/user.ts": """\
            import { Context, Holder } from './context';
            export class User extends Holder {
              protected queue: Context;
              async run() { const client = await this.queue.client; client.close(); this.other.obliterate(); }
            }
            """,
    }, "src/user.ts")
    assert {"Backend.close", "Backend.obliterate"} <= used["src/backend.ts"]
    assert {"Context.client", "Holder.other"} <= used["src/context.ts"]
    assert not {"close", "obliterate"} & unknown


def test_an_inline_object_type_with_undefined_or_in_a_promise_types_its_properties() -> None:
    used, unknown = uses({"src/trace.ts": """\
        import { Backend } from './backend';
        export function trace(t: {backend: Backend; name: string} | undefined) {
          if (!t) { return; }
          const { backend } = t;
          backend.close();
        }
        export function maybe(t: ({backend: Backend}) | null) { t.backend.obliterate(); }
        export function led(
          t:
            | {spare: Backend}
            | undefined,
          u: {other: Backend} | null | undefined,
        ) { t.spare.close(); u.other.close(); }
        async function connected(): Promise<{raw: string; backend: Backend}> { return null as any; }
        export async function reconnect() {
          const { backend: again } = await connected();
          again.obliterate();
        }
        """}, "src/trace.ts")
    assert {"Backend.close", "Backend.obliterate"} <= used["src/backend.ts"]
    assert not {"close", "obliterate"} & unknown


def test_a_class_declared_in_a_test_function_implements_the_interface_members() -> None:
    used, _ = uses({"test/mock.test.ts": """\
        import { Backend, RedisBackend } from '../src/backend';
        describe('mocks', () => {
          class MockBackend implements Backend {
            async obliterate() {}
            async close() {}
            extra() {}
          }
          class Quiet extends RedisBackend { close() { return Promise.resolve(); } }
          interface Wider extends Backend { more(): void }
        });
        """}, "test/mock.test.ts")
    assert used["src/backend.ts"] == {"Backend", "RedisBackend", "Backend.obliterate", "Backend.close",
                                      "RedisBackend.close"}


def test_a_member_named_by_a_string_is_the_name_its_uses_spell() -> None:
    # yup: `get ['~standard']() {...}` implementing `readonly '~standard': Props` is what
    # `schema['~standard']` uses (it was named `Schema.['~standard']`, which nothing spelled)
    files = {
        "src/standard.ts": "export interface Props { validate(v: unknown): boolean }\n"
                           "export interface StandardSchema { readonly '~standard': Props }\n",
        "src/schema.ts": """\
            import { Props, StandardSchema } from './standard';
            export class Schema implements StandardSchema {
              get ['~standard'](): Props { return null as any; }
              '~other'() { return 1; }
              [Symbol.iterator]() {}
            }
            """,
        "test/s.test.ts": """\
            import { Schema } from '../src/schema';
            const schema = new Schema();
            schema['~standard'].validate(1);
            schema['~other']();
            """,
    }
    project = MemoryProject(TYPESCRIPT, {**BACKEND, **files})
    assert [s.name for s in project.facts["src/schema.ts"].symbols] == [
        "Schema", "Schema.~standard", "Schema.~other", "Schema.[Symbol.iterator]"]
    used, unknown = uses(files, "test/s.test.ts")
    assert used["src/schema.ts"] == {"Schema", "Schema.~standard", "Schema.~other"}
    assert used["src/standard.ts"] == {"StandardSchema.~standard", "Props.validate"} and not unknown
    # the class's getter implements the interface's property: find-references lists it there
    assert "Schema.~standard>StandardSchema.~standard" in uses(files, "src/schema.ts")[0]["src/standard.ts"]

"""A package importing itself by its own name (`import * as z from "zod/v4"` inside zod), resolved
for member evidence the way tsc 5.9 resolves it (each case checked with `tsc --traceResolution`
under `moduleResolution` bundler and nodenext): through the nearest package.json's `name` and
`exports`, conditions in object order (the tsconfig's `customConditions`, `types`, `import`,
`default`), a target naming no file passing to the next condition. Without `exports` there is no
self-reference, for tsc as for Node."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

SCHEMAS = """\
    export class Str { min(n: number): this { return this; } }
    export function string(): Str { return new Str(); }
    """
USE = "import * as z from '{spec}';\nz.string().min(1);\n"


def uses(files: dict[str, str], path: str) -> tuple[dict[str, set[str]], set[str]]:
    return member_uses(TYPESCRIPT, files, path)


def test_a_self_import_through_an_exports_subpath_names_the_source() -> None:
    files = {
        "package.json": '{"name": "@acme/lib", "exports": {".": "./src/index.ts", "./sub": "./src/sub/index.ts"}}',
        "src/index.ts": "export const version = 1;\n",
        "src/sub/index.ts": "export * from './schemas.js';\n",
        "src/sub/schemas.ts": SCHEMAS,
        "test/sub.test.ts": USE.format(spec="@acme/lib/sub"),
        "test/top.test.ts": "import {version} from '@acme/lib';\nversion;\n",
    }
    assert uses(files, "test/sub.test.ts") == ({"src/sub/schemas.ts": {"string", "Str.min"}}, set())
    assert uses(files, "test/top.test.ts")[0] == {"src/index.ts": {"version"}}


def test_a_custom_condition_after_a_missing_build_output_names_the_source() -> None:
    # `types` comes first and names a build that is not in the repository: tsc passes to the next
    # condition it matches, the tsconfig's custom one
    files = {
        "tsconfig.json": '{"compilerOptions": {"customConditions": ["@lib/source"]}}',
        "package.json": '{"name": "lib", "exports": {".": {"types": "./build/types.d.ts", '
                        '"@lib/source": "./src/index.ts", "import": "./build/esm.js"}}}',
        "src/index.ts": SCHEMAS,
        "test/a.test.ts": USE.format(spec="lib"),
    }
    assert uses(files, "test/a.test.ts") == ({"src/index.ts": {"string", "Str.min"}}, set())


def test_conditions_are_tried_in_object_order_as_tsc_does() -> None:
    # every target exists: `types` is first in the object, so tsc reads it, not the tsconfig's
    # custom condition nor `default`, which a runtime would load (the order is the package's)
    files = {
        "tsconfig.json": '{"compilerOptions": {"customConditions": ["@lib/source"]}}',
        "package.json": '{"name": "lib", "exports": {".": {"types": "./typed/index.ts", '
                        '"@lib/source": "./src/index.ts", "default": "./src/index.ts"}}}',
        "src/index.ts": SCHEMAS,
        "typed/index.ts": SCHEMAS,
        "test/a.test.ts": USE.format(spec="lib"),
    }
    assert uses(files, "test/a.test.ts")[0] == {"typed/index.ts": {"string", "Str.min"}}


def test_an_unknown_condition_is_not_read() -> None:
    # `source` is nobody's condition here (the tsconfig names none): tsc leaves `lib` unresolved,
    # so its members are evidence by name only, never a proven use of src/
    files = {
        "package.json": '{"name": "lib", "exports": {".": {"source": "./src/index.ts", "import": "./esm/index.mjs"}}}',
        "src/index.ts": SCHEMAS,
        "test/a.test.ts": USE.format(spec="lib"),
    }
    used, unknown = uses(files, "test/a.test.ts")
    assert used == {} and unknown == {"min"}


def test_a_package_without_exports_cannot_import_itself() -> None:
    # Node and tsc allow a self-reference only through `exports`; `main` is for importers outside
    files = {
        "package.json": '{"name": "lib", "main": "./src/index.ts", "types": "./src/index.ts"}',
        "src/index.ts": SCHEMAS,
        "test/a.test.ts": USE.format(spec="lib"),
    }
    used, unknown = uses(files, "test/a.test.ts")
    assert used == {} and unknown == {"min"}


def test_the_nearest_package_json_decides_and_null_excludes_a_subpath() -> None:
    files = {
        "package.json": '{"name": "lib", "exports": {".": "./src/index.ts", "./internal/*": null, '
                        '"./*": "./src/*.ts"}}',
        "src/index.ts": SCHEMAS,
        "src/extra.ts": SCHEMAS,
        "src/internal/hidden.ts": SCHEMAS,
        "src/use.ts": "import * as a from 'lib/extra';\nimport * as h from 'lib/internal/hidden';\n"
                      "a.string().min(1);\nh.string();\n",
        # a test folder with its own package.json (`type` only): its package has no name, so `lib`
        # is not itself there (tsc: "Module name 'lib' was not resolved")
        "test/package.json": '{"type": "module"}',
        "test/a.test.ts": USE.format(spec="lib"),
    }
    used, _ = uses(files, "src/use.ts")
    assert used == {"src/extra.ts": {"string", "Str.min"}}  # nothing of src/internal/hidden.ts
    assert uses(files, "test/a.test.ts")[0] == {}


def test_a_namespace_reexported_by_name_through_the_package_is_followed() -> None:
    # zod: `z.util.uint8ArrayToHex(bytes)` in a test importing `zod/v4`, where the entry does
    # `export * from './classic'`, which does `export {util} from '../core'`, which does
    # `export * as util from './util'`
    files = {
        "tsconfig.json": '{"compilerOptions": {"customConditions": ["@zod/source"]}}',
        "package.json": '{"name": "zod", "exports": {"./v4": {"@zod/source": "./src/v4/index.ts", '
                        '"types": "./v4/index.d.cts", "import": "./v4/index.js"}}}',
        "src/v4/index.ts": "export * from './classic/index.js';\n",
        "src/v4/classic/index.ts": "export {util} from '../core/index.js';\nimport {util as u} from '../core/index.js';\n"
                                   "export {u as helpers};\n",
        "src/v4/core/index.ts": "export * as util from './util.js';\n",
        "src/v4/core/util.ts": "export function uint8ArrayToHex(b: Uint8Array): string { return ''; }\n",
        "src/v4/tests/codec.test.ts": "import * as z from 'zod/v4';\n"
                                      "const f = (b) => z.util.uint8ArrayToHex(b);\n"
                                      "const g = (b) => z.helpers.uint8ArrayToHex(b);\n",
    }
    used, unknown = uses(files, "src/v4/tests/codec.test.ts")
    assert used == {"src/v4/core/util.ts": {"uint8ArrayToHex"}} and not unknown


def test_other_spellings_of_exports_resolve_as_tsc_reads_them() -> None:
    # each checked with tsc 5.9 (`--traceResolution`): nested conditions, an array of targets (the
    # first that names a file), the string sugar for `"."`; a subpath the package does not export
    # and a name that only starts with the package's are not the package
    files = {
        "package.json": '{"name": "lib", "exports": {".": {"import": {"types": "./src/index.ts", '
                        '"default": "./dist/index.js"}}, "./arr": ["./missing/arr.ts", "./src/arr.ts"]}}',
        "src/index.ts": SCHEMAS,
        "src/arr.ts": SCHEMAS,
        "src/hidden.ts": SCHEMAS,
        "test/a.test.ts": "import * as a from 'lib';\nimport * as b from 'lib/arr';\n"
                          "import * as c from 'lib/src/hidden';\nimport * as d from 'libx';\n"
                          "a.string().min(1);\nb.string();\nc.string();\nd.string();\n",
        "sugar/package.json": '{"name": "sugar", "exports": "./src/index.ts"}',
        "sugar/src/index.ts": SCHEMAS,
        "sugar/test/s.test.ts": USE.format(spec="sugar"),
    }
    used, _ = uses(files, "test/a.test.ts")
    assert used == {"src/index.ts": {"string", "Str.min"}, "src/arr.ts": {"string"}}
    assert uses(files, "sugar/test/s.test.ts") == ({"sugar/src/index.ts": {"string", "Str.min"}}, set())

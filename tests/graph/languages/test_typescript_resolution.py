"""TypeScript / JavaScript resolution: which project files an import or a use depends on, one rule
per test, each asserting the exact edge set on a small project shaped like real ones.

Import edges follow what tsc and dependency-cruiser resolve (the reference the graph is measured
against); anything outside the project (node_modules, built-ins) has no edge.
"""

from __future__ import annotations


from memory_project import MemoryProject, edge_pairs, edges_from

from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.languages.typescript import SUPPORT


def edges(files: dict[str, str], kind: str = "imports", **options: bool) -> set[tuple[str, str]]:
    return edge_pairs(SUPPORT, files, kind, **options)


def edges_of(files: dict[str, str], path: str, **options: bool) -> list[Edge]:
    return edges_from(SUPPORT, files, path, **options)


def test_relative_specifiers_probe_extensions_in_node_resolver_order() -> None:
    files = {
        "src/main.ts": """\
            import { a } from "./a";
            import { B } from "./b";
            import type { C } from "./c";
            import { d } from "./legacy/d";
            import data from "./data.json";
            import "./styles.css";
            import { missing } from "./nowhere";
            import config from "./config";
            """,
        "src/a.ts": "export const a = 1;\n",
        "src/b.tsx": "export const B = () => null;\n",
        "src/c.d.ts": "export type C = string;\n",
        "src/legacy/d.js": "export const d = 1;\n",  # the implementation wins over its declarations
        "src/legacy/d.d.ts": "export declare const d: number;\n",
        "src/data.json": "{}\n",
        "src/styles.css": "",
        "src/config.json": "{}\n",  # JSON is imported with its extension, never probed
    }
    assert edges(files) == {
        ("src/main.ts", "src/a.ts"),
        ("src/main.ts", "src/b.tsx"),
        ("src/main.ts", "src/c.d.ts"),
        ("src/main.ts", "src/legacy/d.js"),
        ("src/main.ts", "src/data.json"),
        ("src/main.ts", "src/styles.css"),
    }


def test_directory_specifiers_resolve_to_their_index_file() -> None:
    files = {
        "src/app.ts": 'import { ui } from "./ui";\nimport { x } from "./lib/";\n',
        "src/ui/index.tsx": 'export * from "../app";\n',
        "src/lib/index.ts": 'export const x = 1;\n',
        "src/lib/nested/deep.ts": 'import { ui } from "../..";\nimport { x } from "..";\n',
        "src/index.ts": "export const ui = 1;\n",
    }
    assert edges(files) == {
        ("src/app.ts", "src/ui/index.tsx"),
        ("src/app.ts", "src/lib/index.ts"),
        ("src/ui/index.tsx", "src/app.ts"),
        ("src/lib/nested/deep.ts", "src/index.ts"),
        ("src/lib/nested/deep.ts", "src/lib/index.ts"),
    }


def test_js_family_specifiers_name_the_typescript_source_they_compile_from() -> None:
    files = {
        "src/index.ts": """\
            import { a } from "./a.js";
            import { b } from "./b.mjs";
            import { c } from "./c.cjs";
            import { D } from "./d.jsx";
            import { e } from "./e.js";
            """,
        "src/a.ts": "export const a = 1;\n",
        "src/b.mts": "export const b = 1;\n",
        "src/c.cts": "export const c = 1;\n",
        "src/d.tsx": "export const D = 1;\n",
        "src/e.js": "export const e = 1;\n",  # a file that exists as written is that file
        "src/e.d.ts": "export declare const e: number;\n",
    }
    assert edges(files) == {
        ("src/index.ts", "src/a.ts"),
        ("src/index.ts", "src/b.mts"),
        ("src/index.ts", "src/c.cts"),
        ("src/index.ts", "src/d.tsx"),
        ("src/index.ts", "src/e.js"),
    }


def test_tsconfig_paths_and_base_url_from_a_commented_config_with_extends() -> None:
    files = {
        "tsconfig.base.json": """\
            {
              // shared by every package
              "compilerOptions": {
                "baseUrl": "./src",
                "paths": {
                  "@/*": ["./*"],
                  "@app/core/*": ["core/*", "fallback/*"],   /* longest prefix wins */
                  "config": ["settings/index.ts"],
                },
              },
            }
            """,
        "tsconfig.json": '{ "extends": "./tsconfig.base", "include": ["src"], }\n',
        "src/main.ts": """\
            import { db } from "@/services/db";
            import { engine } from "@app/core/engine";
            import { flag } from "@app/core/flags";
            import settings from "config";
            import { log } from "utils/log";
            import React from "react";
            """,
        "src/services/db.ts": "export const db = 1;\n",
        "src/core/engine.ts": "export const engine = 1;\n",
        "src/fallback/flags.ts": "export const flag = 1;\n",
        "src/settings/index.ts": "export default {};\n",
        "src/utils/log.ts": "export const log = 1;\n",
    }
    assert edges(files) == {
        ("src/main.ts", "src/services/db.ts"),
        ("src/main.ts", "src/core/engine.ts"),
        ("src/main.ts", "src/fallback/flags.ts"),
        ("src/main.ts", "src/settings/index.ts"),
        ("src/main.ts", "src/utils/log.ts"),
    }


def test_tsconfig_strings_keep_slashes_and_extends_may_be_a_list() -> None:
    files = {
        "configs/paths.json": '{"compilerOptions": {"paths": {"#lib/*": ["../lib/*"]}}}\n',
        "configs/base.json": '{"$schema": "https://json.schemastore.org/tsconfig", /* no paths */ "compilerOptions": {}}\n',
        "tsconfig.json": '{"extends": ["./configs/paths.json", "./configs/base.json", "@tsconfig/strictest"],}\n',
        "lib/log.ts": "export const log = 1;\n",
        "app.ts": 'import { log } from "#lib/log";\n',
    }
    assert edges(files) == {("app.ts", "lib/log.ts")}  # `paths` resolve next to the config that defines them


def test_each_file_uses_its_nearest_tsconfig_and_solution_configs_defer_to_siblings() -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"~/*": ["./shared/*"]}}}\n',
        "shared/id.ts": "export const id = 1;\n",
        "apps/web/tsconfig.json": '{"files": [], "references": [{"path": "./tsconfig.app.json"}]}\n',
        "apps/web/tsconfig.app.json": '{"compilerOptions": {"paths": {"~/*": ["./src/*"]}}}\n',
        "apps/web/src/id.ts": "export const id = 2;\n",
        "apps/web/src/main.ts": 'import { id } from "~/id";\n',
        "tools/gen.ts": 'import { id } from "~/id";\n',
    }
    assert edges(files) == {
        ("apps/web/src/main.ts", "apps/web/src/id.ts"),
        ("tools/gen.ts", "shared/id.ts"),
    }


def test_a_specifier_the_nearest_config_leaves_unresolved_falls_back_to_configs_above() -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@acme/*": ["packages/*/src"]}}}\n',
        "packages/core/src/index.ts": "export const core = 1;\n",
        "packages/store/src/index.ts": "export const store = 1;\n",
        "packages/app/tsconfig.json": '{"extends": "../../tsconfig.json", '
        '"compilerOptions": {"paths": {"store": ["../store/src/index.ts"]}}}\n',
        "packages/app/src/main.ts": 'import { core } from "@acme/core";\nimport { store } from "store";\n',
        "packages/docs/tsconfig.json": '{"extends": "./.generated/tsconfig.json"}\n',
        "packages/docs/page.ts": 'import { core } from "@acme/core";\n',
    }
    assert edges(files) == {
        ("packages/app/src/main.ts", "packages/core/src/index.ts"),
        ("packages/app/src/main.ts", "packages/store/src/index.ts"),  # relative to its own config
        ("packages/docs/page.ts", "packages/core/src/index.ts"),
    }


def test_reexports_are_imports_of_the_barrel_and_can_be_followed_to_the_definer() -> None:
    files = {
        "src/shapes/circle.ts": "export class Circle {}\nexport function area() { return 1; }\n",
        "src/shapes/square.ts": "export const Square = 1;\n",
        "src/shapes/poly.ts": "export type Poly = string;\n",
        "src/shapes/index.ts": """\
            export * from "./circle";
            export { Square as Box } from "./square";
            export * as poly from "./poly";
            """,
        "src/app.ts": """\
            import { Circle, Box, area } from "./shapes";
            new Circle(); area(); console.log(Box);
            """,
    }
    assert edges(files) == {
        ("src/shapes/index.ts", "src/shapes/circle.ts"),
        ("src/shapes/index.ts", "src/shapes/square.ts"),
        ("src/shapes/index.ts", "src/shapes/poly.ts"),
        ("src/app.ts", "src/shapes/index.ts"),
    }
    assert edges_of(files, "src/app.ts") == [
        Edge("src/app.ts", "src/shapes/index.ts", "imports", ("Box", "Circle", "area")),
        Edge("src/app.ts", "src/shapes/index.ts", "references", ("Box", "Circle", "area")),
    ]
    assert edges_of(files, "src/app.ts", follow_reexports=True) == [
        Edge("src/app.ts", "src/shapes/circle.ts", "references", ("Circle", "area")),
        Edge("src/app.ts", "src/shapes/index.ts", "imports", ("Box", "Circle", "area")),
        Edge("src/app.ts", "src/shapes/square.ts", "references", ("Square",)),
    ]


def test_type_only_imports_are_dependencies_too() -> None:
    files = {
        "src/model.ts": "export interface User { id: string }\n",
        "src/api.ts": 'import type { User } from "./model";\nexport type { User as Person } from "./model";\n'
        "export function load(): User { return null!; }\n",
    }
    project = MemoryProject(SUPPORT, files)
    assert [ref.kind for ref in project.facts["src/api.ts"].imports] == ["type", "reexport"]
    assert edges_of(files, "src/api.ts") == [
        Edge("src/api.ts", "src/model.ts", "imports", ("User",)),
        Edge("src/api.ts", "src/model.ts", "references", ("User",)),
    ]


def test_dynamic_import_require_and_side_effect_imports() -> None:
    files = {
        "src/main.ts": """\
            import "./polyfills";
            import legacy = require("./legacy");
            const lazy = () => import("./lazy");
            const path = require("node:path");
            const computed = import(name);
            const templated = import(`./templated`);
            const formatted = import(`./locale/${lang}`);
            """,
        "src/templated.ts": "",
        "src/polyfills.ts": "",
        "src/legacy.ts": "export = {};\n",
        "src/lazy.tsx": "export default 1;\n",
        "bin/cli.cjs": 'const { run } = require("../lib/run");\nrun();\n',
        "lib/run.js": "module.exports.run = () => {};\n",
    }
    assert edges(files) == {
        ("src/main.ts", "src/polyfills.ts"),
        ("src/main.ts", "src/legacy.ts"),
        ("src/main.ts", "src/lazy.tsx"),
        ("src/main.ts", "src/templated.ts"),
        ("bin/cli.cjs", "lib/run.js"),
    }
    assert edges(files, kind="references") == {("bin/cli.cjs", "lib/run.js")}


def test_bare_package_specifiers_are_external_unless_workspace_packages_are_on() -> None:
    files = {
        "package.json": '{"name": "monorepo", "private": true}\n',
        "packages/ui/package.json": '{"name": "@acme/ui", "main": "dist/index.js", "types": "dist/index.d.ts"}\n',
        "packages/ui/src/index.ts": "export const Button = 1;\n",
        "packages/ui/src/theme.ts": "export const theme = 1;\n",
        "apps/web/main.ts": """\
            import React from "react";
            import { merge } from "lodash/merge";
            import { readFile } from "node:fs";
            import { Button } from "@acme/ui";
            import { theme } from "@acme/ui/theme";
            """,
    }
    assert edges(files) == set()
    assert edges(files, workspace_packages=True) == {
        ("apps/web/main.ts", "packages/ui/src/index.ts"),
        ("apps/web/main.ts", "packages/ui/src/theme.ts"),
    }


def test_package_json_subpath_imports() -> None:
    files = {
        "package.json": '{"name": "app", "imports": {"#config": "./src/config.js", '
        '"#internal/*": {"types": "./src/internal/*.d.ts", "default": "./dist/internal/*.js"}}}\n',
        "src/config.ts": "export const config = 1;\n",
        "src/internal/clock.ts": "export const now = 1;\n",
        "src/main.ts": 'import { config } from "#config";\nimport { now } from "#internal/clock";\nimport "#nothing";\n',
    }
    assert edges(files) == {("src/main.ts", "src/config.ts"), ("src/main.ts", "src/internal/clock.ts")}


def test_a_package_importing_itself_by_name_resolves_through_its_exports() -> None:
    files = {
        "package.json": '{"name": "execa", "exports": {"types": "./index.d.ts", "default": "./index.js"}}\n',
        "index.js": "export const run = 1;\n",
        "index.d.ts": "export declare const run: number;\n",
        "test/run.js": 'import { run } from "execa";\nrun();\n',
        "other/package.json": '{"name": "other", "exports": {".": "./dist/index.js"}}\n',
        "other/src/index.ts": "export const o = 1;\n",
        "other/test.ts": 'import { o } from "other";\n',  # build output absent: no edge by default
    }
    assert edges(files) == {("test/run.js", "index.js")}
    assert edges(files, workspace_packages=True) == {
        ("test/run.js", "index.js"),
        ("other/test.ts", "other/src/index.ts"),
    }


def test_references_name_the_used_bindings_only() -> None:
    files = {
        "src/math.ts": "export function add() {}\nexport function sub() {}\nexport default function mul() {}\n",
        "src/geo.ts": "export const pi = 3;\nexport interface Point {}\n",
        "src/unused.ts": "export const nothing = 1;\n",
        "src/main.ts": """\
            import times, { add, sub } from "./math";
            import * as geo from "./geo";
            import { nothing } from "./unused";
            const p: geo.Point = { x: add(1, geo.pi) };
            times();
            """,
    }
    assert edges_of(files, "src/main.ts") == [
        Edge("src/main.ts", "src/geo.ts", "imports", ("geo",)),
        Edge("src/main.ts", "src/geo.ts", "references", ("Point", "pi")),
        # `default` is `mul` in math.ts: the edge names the declaration too, so `mul` has its caller
        Edge("src/main.ts", "src/math.ts", "imports", ("add", "default", "mul", "sub")),
        Edge("src/main.ts", "src/math.ts", "references", ("add", "default", "mul")),
        Edge("src/main.ts", "src/unused.ts", "imports", ("nothing",)),
    ]


def test_triple_slash_references_and_no_self_edges() -> None:
    files = {
        "types/globals.d.ts": "declare const VERSION: string;\n",
        "src/env.d.ts": '/// <reference path="../types/globals.d.ts" />\n',
        "src/self.ts": 'import { me } from "./self";\nexport const me = 1;\n',
    }
    assert edges(files) == {("src/env.d.ts", "types/globals.d.ts")}
    assert edges(files, kind="references") == set()


def test_a_reexport_cycle_terminates() -> None:
    files = {
        "src/a.ts": 'export * from "./b";\n',
        "src/b.ts": 'export * from "./a";\n',
        "src/main.ts": 'import { ghost } from "./a";\nghost();\n',
    }
    assert edges_of(files, "src/main.ts", follow_reexports=True) == [
        Edge("src/main.ts", "src/a.ts", "imports", ("ghost",)),
        Edge("src/main.ts", "src/a.ts", "references", ("ghost",)),
    ]

"""A small TypeScript project on disk, through `konstruct graph export` as a user runs it: the
workspace listing, the tsconfig read through the workspace layer, the index and the export."""

from __future__ import annotations

import textwrap
from pathlib import Path

FILES = {
    "tsconfig.json": '{\n  // app settings\n  "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]},},\n}\n',
    "package.json": '{"name": "shop", "type": "module"}\n',
    "src/index.ts": 'export * from "./cart/index.js";\nexport { format } from "@/util/format";\n',
    "src/cart/index.ts": 'export { Cart } from "./cart";\nexport type { Line } from "./line";\n',
    "src/cart/cart.ts": """\
        import type { Line } from "./line.js";
        import { format } from "@/util/format";
        export class Cart { lines: Line[] = []; total() { return format(0); } }
        """,
    "src/cart/line.ts": "export interface Line { sku: string }\n",
    "src/util/format.ts": "export function format(n: number): string { return String(n); }\n",
    "src/ui/App.tsx": 'import { Cart } from "..";\nimport "./app.css";\nexport const App = () => <div>{new Cart().total()}</div>;\n',
    "src/ui/app.css": "div {}\n",
    "scripts/build.cjs": 'const { format } = require("../src/util/format.ts");\nrequire("react");\n',
    "node_modules/react/index.js": "module.exports = {};\n",
    ".gitignore": "node_modules/\n",
}


def write(root: Path) -> None:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_export_lists_the_resolved_typescript_graph(tmp_path: Path, konstruct) -> None:
    write(tmp_path)
    code, data, err = konstruct("graph", "export", "--root", str(tmp_path), "--format", "json")
    assert code == 0, err
    assert data["nodes"] == [
        "scripts/build.cjs",
        "src/cart/cart.ts",
        "src/cart/index.ts",
        "src/cart/line.ts",
        "src/index.ts",
        "src/ui/App.tsx",
        "src/ui/app.css",  # an imported stylesheet is part of the graph, as dependency tools count it
        "src/util/format.ts",
    ]
    assert data["edges"] == [
        ["scripts/build.cjs", "src/util/format.ts"],
        ["src/cart/cart.ts", "src/cart/line.ts"],
        ["src/cart/cart.ts", "src/util/format.ts"],
        ["src/cart/index.ts", "src/cart/cart.ts"],
        ["src/cart/index.ts", "src/cart/line.ts"],
        ["src/index.ts", "src/cart/index.ts"],
        ["src/index.ts", "src/util/format.ts"],
        ["src/ui/App.tsx", "src/index.ts"],
        ["src/ui/App.tsx", "src/ui/app.css"],
    ]

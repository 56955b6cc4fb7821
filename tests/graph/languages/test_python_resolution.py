"""Python resolution: which project files an import or a use depends on, one rule per test.

Import edges follow grimp (the reference the graph is measured against); each fixture is a small
project shaped like real ones, and each test asserts the exact edge set.
"""

from __future__ import annotations

from memory_project import edge_pairs, edges_from

from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.languages.python import SUPPORT


def edges(files: dict[str, str], kind: str = "imports", **options: bool) -> set[tuple[str, str]]:
    return edge_pairs(SUPPORT, files, kind, **options)


def edges_of(files: dict[str, str], path: str, **options: bool) -> list[Edge]:
    return edges_from(SUPPORT, files, path, **options)


def test_import_a_b_c_depends_on_the_module_only_not_its_parent_packages() -> None:
    files = {
        "app/__init__.py": "",
        "app/core/__init__.py": "",
        "app/core/engine.py": "",
        "main.py": "import app.core.engine\n",
    }
    assert edges(files) == {("main.py", "app/core/engine.py")}


def test_from_pkg_import_module_targets_the_module_and_a_name_targets_the_package() -> None:
    files = {
        "app/__init__.py": "VERSION = '1'\n",
        "app/views.py": "",
        "main.py": "from app import views\nfrom app import VERSION\n",
    }
    assert edges(files) == {("main.py", "app/views.py"), ("main.py", "app/__init__.py")}


def test_relative_imports_resolve_against_the_importers_folder() -> None:
    files = {
        "shop/__init__.py": "from . import orders\n",
        "shop/orders.py": "from .models import Order\nfrom ..shared.money import Money\nfrom . import tax\n",
        "shop/models.py": "class Order: ...\n",
        "shop/tax.py": "",
        "shared/__init__.py": "",
        "shared/money.py": "class Money: ...\n",
    }
    assert edges(files) == {
        ("shop/__init__.py", "shop/orders.py"),
        ("shop/orders.py", "shop/models.py"),
        ("shop/orders.py", "shared/money.py"),
        ("shop/orders.py", "shop/tax.py"),
    }


def test_imports_inside_functions_and_type_checking_blocks_count() -> None:
    files = {
        "app/__init__.py": "",
        "app/cart.py": "class Cart: ...\n",
        "app/db.py": "",
        "app/orders.py": """\
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from app.cart import Cart

            def save():
                from app import db
            """,
    }
    assert edges(files) == {("app/orders.py", "app/cart.py"), ("app/orders.py", "app/db.py")}


def test_src_layout_is_a_root_for_the_package_and_its_tests() -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'calc'\n",
        "src/calc/__init__.py": "from calc.ops import add\n",
        "src/calc/ops.py": "def add(a, b): ...\n",
        "tests/test_ops.py": "from calc.ops import add\nimport calc\n",
    }
    assert edges(files) == {
        ("src/calc/__init__.py", "src/calc/ops.py"),
        ("tests/test_ops.py", "src/calc/ops.py"),
        ("tests/test_ops.py", "src/calc/__init__.py"),
    }


def test_several_roots_import_each_other_and_a_shared_name_prefers_the_importers_root() -> None:
    files = {
        "libs/billing/billing/__init__.py": "",
        "libs/billing/billing/invoice.py": "from shipping.parcel import Parcel\nfrom settings import RATE\n",
        "libs/billing/settings.py": "RATE = 1\n",
        "libs/shipping/shipping/__init__.py": "",
        "libs/shipping/shipping/parcel.py": "from settings import ZONE\n",
        "libs/shipping/settings.py": "ZONE = 2\n",
    }
    assert edges(files) == {
        ("libs/billing/billing/invoice.py", "libs/shipping/shipping/parcel.py"),
        ("libs/billing/billing/invoice.py", "libs/billing/settings.py"),
        ("libs/shipping/shipping/parcel.py", "libs/shipping/settings.py"),
    }


def test_pyproject_package_dir_makes_a_folder_of_plain_modules_importable() -> None:
    files = {
        "pyproject.toml": '[tool.setuptools]\npackage-dir = {"" = "code"}\n',
        "code/helpers.py": "def slug(): ...\n",
        "tests/test_helpers.py": "import helpers\n",
    }
    assert edges(files) == {("tests/test_helpers.py", "code/helpers.py")}
    del files["pyproject.toml"]
    assert edges(files) == set()  # without the hint, `code/` is nobody's import root


def test_setup_cfg_package_dir_is_read_too() -> None:
    files = {
        "setup.cfg": "[options]\npackage_dir =\n    =lib\n",
        "lib/tool.py": "",
        "bin/run.py": "import tool\n",
    }
    assert edges(files) == {("bin/run.py", "lib/tool.py")}


def test_scripts_import_their_siblings_but_nobody_else_reaches_them() -> None:
    files = {
        "scripts/release.py": "import notes\n",
        "scripts/notes.py": "",
        "app/__init__.py": "",
        "app/main.py": "import notes\n",
    }
    assert edges(files) == {("scripts/release.py", "scripts/notes.py")}


def test_init_reexports_chain_through_the_package() -> None:
    files = {
        "geo/__init__.py": "from .shapes import Circle\n",
        "geo/shapes.py": "class Circle: ...\n",
        "draw.py": "from geo import Circle\nCircle()\n",
    }
    assert edges(files) == {("geo/__init__.py", "geo/shapes.py"), ("draw.py", "geo/__init__.py")}
    # The use names the re-exporting file; its own edge carries the name on to the definition.
    assert edges(files, "references") == {("draw.py", "geo/__init__.py")}


def test_namespace_packages_without_init_resolve() -> None:
    files = {
        "plugins/audio/mp3.py": "",
        "plugins/video/mp4.py": "",
        "host.py": "import plugins.audio.mp3\nfrom plugins.video import mp4\n",
    }
    assert edges(files) == {("host.py", "plugins/audio/mp3.py"), ("host.py", "plugins/video/mp4.py")}


def test_stub_files_are_targets_when_no_source_exists_and_lose_to_source_otherwise() -> None:
    files = {
        "native/__init__.py": "",
        "native/fast.pyi": "def crunch() -> int: ...\n",
        "native/slow.py": "",
        "native/slow.pyi": "",
        "use.py": "from native.fast import crunch\nfrom native import slow\n",
    }
    assert edges(files) == {("use.py", "native/fast.pyi"), ("use.py", "native/slow.py")}


def test_a_package_shadows_a_module_of_the_same_name() -> None:
    files = {"util.py": "", "util/__init__.py": "", "main.py": "import util\n"}
    assert edges(files) == {("main.py", "util/__init__.py")}


def test_a_missing_attribute_falls_back_one_level_like_grimp_and_no_further() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "Thing = 1\n",
        "main.py": "import pkg.mod.Thing\nfrom pkg.gone import x\nimport pkg.gone.deeper\n",
    }
    assert edges(files) == {("main.py", "pkg/mod.py")}


def test_third_party_and_stdlib_imports_and_self_imports_make_no_edges() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "import os\nimport requests\nfrom pkg import mod\nfrom . import mod as again\n",
    }
    assert edges(files) == set()


def test_uses_of_imported_names_become_references_with_those_names() -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/money.py": "def add(): ...\ndef sub(): ...\n",
        "pkg/fmt.py": "def show(): ...\n",
        "pkg/unused.py": "def never(): ...\n",
        "pkg/report.py": """\
            import pkg.fmt
            from pkg import money as m
            from pkg.unused import never
            from pkg.money import sub as minus

            def run():
                m.add()
                minus()
                pkg.fmt.show()
            """,
    }
    refs = {(e.target, e.names) for e in edges_of(files, "pkg/report.py") if e.kind == "references"}
    assert refs == {("pkg/money.py", ("add", "sub")), ("pkg/fmt.py", ("show",))}
    imports = {(e.target, e.names) for e in edges_of(files, "pkg/report.py") if e.kind == "imports"}
    assert imports == {("pkg/money.py", ("money", "sub")), ("pkg/fmt.py", ("pkg.fmt",)), ("pkg/unused.py", ("never",))}


def test_wildcard_imports_refer_to_the_public_names_actually_used() -> None:
    files = {
        "consts.py": "PI = 3.14\nE = 2.71\n_SECRET = 1\n",
        "calc.py": "from consts import *\nprint(PI, _SECRET)\n",
    }
    refs = [e for e in edges_of(files, "calc.py") if e.kind == "references"]
    assert refs == [Edge("calc.py", "consts.py", "references", ("PI",))]

"""Java resolution: which project files a Java file depends on, one rule per test.

Edges follow what javac compiles into the class file (the jdeps view the graph is measured
against); each fixture is a small Maven-shaped project and each test asserts the exact edge set.
"""

from __future__ import annotations

import textwrap

from memory_project import MemoryProject, all_edges, edges_from

from konstruct_tui.graph.facts import Edge
from konstruct_tui.graph.languages.java import SUPPORT

MAIN = "src/main/java"


def java(package: str, body: str, imports: str = "") -> str:
    return f"package {package};\n{textwrap.dedent(imports)}\n{textwrap.dedent(body)}"


def edges(files: dict[str, str]) -> set[tuple[str, str]]:
    """Every edge, by file name (Java paths are long and say nothing the class name does not)."""
    return {(e.source.rsplit("/", 1)[-1], e.target.rsplit("/", 1)[-1]) for e in all_edges(SUPPORT, files)}


def edges_of(files: dict[str, str], path: str) -> list[Edge]:
    return edges_from(SUPPORT, files, path)


def test_single_type_import_links_to_the_declaring_file_with_the_type_name() -> None:
    files = {
        f"{MAIN}/com/acme/model/Order.java": java("com.acme.model", "public class Order {}"),
        f"{MAIN}/com/acme/app/Checkout.java": java(
            "com.acme.app",
            "class Checkout { Order order; java.util.List<String> names; }",
            "import com.acme.model.Order;",
        ),
    }
    assert edges_of(files, f"{MAIN}/com/acme/app/Checkout.java") == [
        Edge(f"{MAIN}/com/acme/app/Checkout.java", f"{MAIN}/com/acme/model/Order.java", "imports", ("Order",)),
        Edge(f"{MAIN}/com/acme/app/Checkout.java", f"{MAIN}/com/acme/model/Order.java", "references", ("Order",)),
    ]


def test_an_import_used_only_in_javadoc_is_not_a_dependency() -> None:
    files = {
        f"{MAIN}/a/Target.java": java("a", "public class Target {}"),
        f"{MAIN}/b/User.java": java("b", "/** See {@link Target}. */\nclass User {}", "import a.Target;"),
    }
    assert edges(files) == set()


def test_on_demand_import_links_only_the_types_used() -> None:
    files = {
        f"{MAIN}/a/Used.java": java("a", "public class Used {}"),
        f"{MAIN}/a/Unused.java": java("a", "public class Unused {}"),
        f"{MAIN}/b/User.java": java("b", "class User { Used used; }", "import a.*;"),
    }
    assert edges(files) == {("User.java", "Used.java")}


def test_static_imports_of_a_member_and_of_all_members() -> None:
    files = {
        f"{MAIN}/a/Maths.java": java("a", "public class Maths { public static int twice(int x) { return 2 * x; } }"),
        f"{MAIN}/a/Limits.java": java("a", "public class Limits { public static final int MAX = 9; }"),
        f"{MAIN}/b/User.java": java(
            "b",
            "class User { int f() { return twice(MAX); } }",
            "import static a.Maths.twice;\nimport static a.Limits.*;",
        ),
    }
    assert edges(files) == {("User.java", "Maths.java"), ("User.java", "Limits.java")}


def test_fully_qualified_names_in_code_resolve_without_an_import() -> None:
    files = {
        f"{MAIN}/com/acme/util/Ids.java": java(
            "com.acme.util", "public class Ids { public static String next() { return null; } }"
        ),
        f"{MAIN}/com/acme/app/Main.java": java(
            "com.acme.app", "class Main { Object id = com.acme.util.Ids.next(); java.util.Map<String, String> jdk; }"
        ),
    }
    assert edges(files) == {("Main.java", "Ids.java")}


def test_nested_class_import_and_qualified_use_link_to_the_outer_file() -> None:
    files = {
        f"{MAIN}/a/Outer.java": java(
            "a", "public class Outer { public static class Inner {} public static class Other {} }"
        ),
        f"{MAIN}/b/ByImport.java": java("b", "class ByImport { Inner inner; }", "import a.Outer.Inner;"),
        f"{MAIN}/a/ByQualifiedName.java": java("a", "class ByQualifiedName { Outer.Other other; }"),
    }
    assert edges(files) == {("ByImport.java", "Outer.java"), ("ByQualifiedName.java", "Outer.java")}


def test_same_package_types_need_no_import() -> None:
    files = {
        f"{MAIN}/shop/Cart.java": java("shop", "class Cart { Item first; Price total() { return null; } }"),
        f"{MAIN}/shop/Item.java": java("shop", "class Item {}"),
        f"{MAIN}/shop/Price.java": java("shop", "class Price {}"),
        f"{MAIN}/shop/Unrelated.java": java("shop", "class Unrelated {}"),
        f"{MAIN}/other/Item.java": java("other", "public class Item {}"),
    }
    assert edges(files) == {("Cart.java", "Item.java"), ("Cart.java", "Price.java")}
    targets = {e.target for e in edges_of(files, f"{MAIN}/shop/Cart.java")}
    assert targets == {f"{MAIN}/shop/Item.java", f"{MAIN}/shop/Price.java"}


def test_a_member_type_shadows_the_package_type_in_the_body_but_not_in_the_supertype_clause() -> None:
    files = {
        f"{MAIN}/b/Builder.java": java("b", "public interface Builder<T> { T build(); }"),
        f"{MAIN}/b/Shape.java": java("b", "class Shape {}"),
        f"{MAIN}/b/Report.java": java(
            "b",
            "class Report implements Builder<String> { static class Shape {} Shape s; public String build() { return null; } }",
        ),
    }
    assert edges(files) == {("Report.java", "Builder.java")}


def test_source_roots_share_packages_and_a_twin_class_resolves_to_the_nearest_module() -> None:
    files = {
        "core/src/main/java/x/Config.java": java("x", "public class Config {}"),
        "core/src/test/java/x/ConfigTest.java": java("x", "class ConfigTest { Config config; }"),
        "web/src/main/java/x/Config.java": java("x", "public class Config {}"),
        "web/src/main/java/x/Server.java": java("x", "class Server { Config config; }"),
    }
    project = MemoryProject(SUPPORT, files)
    resolver = SUPPORT.resolver(project)
    assert {e.target for e in resolver.resolve(project.facts["core/src/test/java/x/ConfigTest.java"])} == {
        "core/src/main/java/x/Config.java"
    }
    assert {e.target for e in resolver.resolve(project.facts["web/src/main/java/x/Server.java"])} == {
        "web/src/main/java/x/Config.java"
    }


def test_types_in_the_signatures_of_called_methods_are_dependencies() -> None:
    # `Request.builder().build()` names neither Builder nor Response, yet the class file does.
    files = {
        f"{MAIN}/http/Request.java": java(
            "http", "public class Request { public static RequestBuilder builder() { return null; } }"
        ),
        f"{MAIN}/http/RequestBuilder.java": java(
            "http", "public class RequestBuilder { public Response build() { return null; } }"
        ),
        f"{MAIN}/http/Response.java": java("http", "public class Response {}"),
        f"{MAIN}/app/Client.java": java(
            "app", "class Client { void go() { Request.builder().build(); } }", "import http.Request;"
        ),
    }
    assert {t for s, t in edges(files) if s == "Client.java"} == {
        "Request.java",
        "RequestBuilder.java",
        "Response.java",
    }


def test_overloads_are_told_apart_by_argument_types() -> None:
    files = {
        f"{MAIN}/g/Canvas.java": java(
            "g",
            """\
            public class Canvas {
                public void put(int x, int y, char c) {}
                public void put(Position at, String text, Style... styles) {}
            }
            """,
        ),
        f"{MAIN}/g/Position.java": java("g", "public class Position {}"),
        f"{MAIN}/g/Style.java": java("g", "public class Style {}"),
        f"{MAIN}/g/Label.java": java("g", "class Label { void draw(Canvas canvas) { canvas.put(1, 2, 'x'); } }"),
    }
    assert {t for s, t in edges(files) if s == "Label.java"} == {"Canvas.java"}


def test_a_covariant_override_depends_on_the_overridden_signature() -> None:
    # javac emits a bridge method with the supertype's descriptor, naming its return type.
    files = {
        f"{MAIN}/p/Parser.java": java("p", "public abstract class Parser { public abstract Result parse(String s); }"),
        f"{MAIN}/p/Result.java": java("p", "public class Result {}"),
        f"{MAIN}/p/UriResult.java": java("p", "public class UriResult extends Result {}"),
        f"{MAIN}/p/UriParser.java": java(
            "p", "class UriParser extends Parser { public UriResult parse(String s) { return null; } }"
        ),
    }
    assert {t for s, t in edges(files) if s == "UriParser.java"} == {"Parser.java", "UriResult.java", "Result.java"}


def test_library_types_self_references_and_the_unnamed_package_across_folders_make_no_edges() -> None:
    files = {
        f"{MAIN}/a/Node.java": java("a", "public class Node { Node next; java.util.List<Node> kids; String name; }"),
        "scripts/Tool.java": "class Tool { Helper h; }",
        "scripts/Helper.java": "class Helper {}",
        "examples/Demo.java": "class Demo { Helper h; }",
    }
    assert edges(files) == {("Tool.java", "Helper.java")}


def test_a_public_class_extending_a_hidden_one_depends_on_its_public_method_signatures() -> None:
    # javac copies the hidden class's public methods into the public subclass as bridges.
    files = {
        f"{MAIN}/s/Stream.java": java(
            "s", "public class Stream { abstract static class Base { public Hook hook() { return null; } } }"
        ),
        f"{MAIN}/s/Hook.java": java("s", "public class Hook {}"),
        f"{MAIN}/s/Counting.java": java("s", "public class Counting extends Stream.Base {}"),
        f"{MAIN}/s/Quiet.java": java("s", "class Quiet extends Stream.Base {}"),
    }
    assert {(s, t) for s, t in edges(files) if s in ("Counting.java", "Quiet.java")} == {
        ("Counting.java", "Stream.java"),
        ("Counting.java", "Hook.java"),
        ("Quiet.java", "Stream.java"),
    }


def test_an_inherited_member_type_wins_over_a_same_package_type_of_that_name() -> None:
    files = {
        f"{MAIN}/a/Base.java": java("a", "public class Base { public static class Entry {} }"),
        f"{MAIN}/b/Entry.java": java("b", "class Entry {}"),
        f"{MAIN}/b/Sub.java": java("b", "class Sub extends Base { Entry entry; }", "import a.Base;"),
    }
    assert edges(files) == {("Sub.java", "Base.java")}

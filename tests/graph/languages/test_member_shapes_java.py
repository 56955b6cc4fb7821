"""Java receiver shapes found on real code (gson, javapoet, commons-cli, jsoup): each resolves to
the member javac binds, and one it cannot prove stays by-name."""

from __future__ import annotations

from memory_project import all_edges, member_uses

from konstruct_tui.graph.languages.java import SUPPORT as JAVA

# --- Java -----------------------------------------------------------------------------------------

MAIN = "src/main/java/com/acme"
JAVA_LIB = {
    f"{MAIN}/TypeName.java": """\
        package com.acme;
        import java.lang.reflect.Type;
        public class TypeName {
          public static final TypeName VOID = new TypeName();
          public static TypeName get(Type type) { return null; }
          public final TypeName annotated(Spec... specs) { return this; }
          public TypeName annotated(java.util.List<Spec> specs) { return this; }
        }""",
    f"{MAIN}/ClassName.java": """\
        package com.acme;
        public class ClassName extends TypeName {
          public static ClassName get(String packageName, String simpleName) { return null; }
          public static ClassName get(Class<?> clazz) { return null; }
          @Override public ClassName annotated(java.util.List<Spec> specs) { return this; }
        }""",
    f"{MAIN}/Spec.java": "package com.acme;\npublic class Spec {}\n",
    f"{MAIN}/Token.java": "package com.acme;\npublic enum Token { NAME, END }\n",
    f"{MAIN}/Builder.java": """\
        package com.acme;
        public class Builder {
          public int depth;
          public Token peek() { return Token.NAME; }
          public static final class Policy { public static final int STRICT = 1; }
        }""",
}


def java_uses(body: str, imports: str = "") -> tuple[dict[str, set[str]], set[str]]:
    user = f"package com.acme.app;\nimport com.acme.*;\n{imports}public class User {{\n{body}\n}}\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    return member_uses(JAVA, files, f"{MAIN}/app/User.java")


def test_java_an_inherited_overload_competes_with_the_receiver_types_own() -> None:
    used, _ = java_uses("""
      void a(Spec spec, ClassName name) { name.annotated(spec); }
      void b() { ClassName.get(String.class); ClassName.get("a", "b"); }
      void c(Class<?> type) { TypeName.get(type); }""")
    # javac binds `name.annotated(spec)` to TypeName's varargs overload (ClassName only overrides
    # the List one), and `ClassName.get(String.class)` to ClassName.get(Class), the most specific.
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.annotated", "TypeName.get"}
    assert used[f"{MAIN}/ClassName.java"] == {"ClassName.get"}


def test_java_field_reads_constants_enum_case_labels_and_static_imports_are_member_uses() -> None:
    used, _ = java_uses("""
      int a(Builder b) { return b.depth + Builder.Policy.STRICT; }
      TypeName v() { return TypeName.VOID; }
      boolean c(Builder b) {
        switch (b.peek()) {
          case END: return true;
          default: return false;
        }
      }
      Token d() { return NAME; }""", imports="import static com.acme.Token.NAME;\n")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.depth", "Builder.Policy.STRICT", "Builder.peek"}
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.VOID"}
    assert used[f"{MAIN}/Token.java"] == {"Token.END", "Token.NAME"}


def test_java_super_calls_and_bare_inherited_fields_name_the_superclass_member() -> None:
    sub = """\
        package com.acme.app;
        import com.acme.*;
        public class Sub extends ClassName {
          @Override public ClassName annotated(java.util.List<Spec> specs) { return (ClassName) super.annotated(specs); }
          boolean isVoid(TypeName t) { return t == VOID; }
        }"""
    used, _ = member_uses(JAVA, {**JAVA_LIB, f"{MAIN}/app/Sub.java": sub}, f"{MAIN}/app/Sub.java")
    assert used[f"{MAIN}/ClassName.java"] == {"ClassName.annotated"}  # `super` is ClassName, not Sub
    # (`~TypeName.annotated`: ClassName's override is called, so TypeName's is possible, by name)
    assert {n for n in used[f"{MAIN}/TypeName.java"] if not n.startswith("~")} == {"TypeName.VOID"}


def test_java_lambda_parameters_typed_by_their_target() -> None:
    used, unknown = java_uses("""
      static final java.util.function.Function<Builder, Token> PEEK = b -> b.peek();
      java.util.Comparator<Builder> byDepth = (x, y) -> x.peek().compareTo(y.peek());
      void a(java.util.List<Builder> all, java.util.Map<String, ClassName> names) {
        all.forEach(each -> each.peek());
        names.forEach((key, name) -> name.annotated(new Spec()));
        all.stream().map(s -> s.peek());
      }""")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.peek"}
    assert used[f"{MAIN}/TypeName.java"] == {"TypeName.annotated"}  # the varargs overload, inherited
    assert "peek" in unknown  # `s` in a stream's `map`: no target type is written: by name


def test_java_var_locals_are_typed_by_their_initializer() -> None:
    used, unknown = java_uses("""
      void a(Builder source) {
        var b = new Builder();
        b.peek();
        var token = source.peek();
        token.name();
        var names = java.util.List.of(b);
        names.get(0).peek();
      }""")
    assert used[f"{MAIN}/Builder.java"] == {"Builder.peek"}
    assert "name" not in unknown  # `token` is a Token, an enum: `name()` is the JDK's, nobody's here


def test_java_locals_are_typed_by_their_own_method() -> None:
    used, _ = java_uses("""
      void a() { ClassName req = null; }
      void b(TypeName req) { req.annotated(new java.util.ArrayList<Spec>()); }""")
    # `req` is a ClassName in `a` and a TypeName in `b`: `b` calls TypeName's method, not the override
    assert used == {f"{MAIN}/TypeName.java": {"TypeName.annotated"}}


def test_java_a_chain_whose_type_is_lost_in_a_library_call_leaves_what_follows_by_name() -> None:
    _, unknown = java_uses("""
      void a(java.util.List<Builder> all, Builder b) { all.get(0).peek(); b.toString().trim(); }
      void c(Builder b) { b.getClass().getName(); }""")
    # `List.get` may return a project type: `peek` is by name. `trim` follows a method of Object
    # on a project type, `getName` one of Class: by name too (nothing proves whose they are);
    # the library's own methods on a typed receiver (`get`, `toString`, `getClass`) are nobody's here.
    assert {"peek", "trim", "getName"} <= unknown
    assert not {"get", "toString", "getClass"} & unknown


def test_java_an_import_only_javadoc_uses_is_member_evidence_for_the_type_not_a_file_edge() -> None:
    user = "package com.acme.app;\nimport com.acme.Spec;\n/** See {@link Spec}. */\npublic class User {}\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    used, _ = member_uses(JAVA, files, f"{MAIN}/app/User.java")
    assert used == {f"{MAIN}/Spec.java": {"Spec"}}
    assert not [e for e in all_edges(JAVA, files) if e.source == f"{MAIN}/app/User.java"]


def test_java_a_field_read_adds_no_file_edge() -> None:
    user = "package com.acme.app;\nimport com.acme.Builder;\npublic class User { int a(Builder b) { return b.depth; } }\n"
    files = {**JAVA_LIB, f"{MAIN}/app/User.java": user}
    targets = {e.target for e in all_edges(JAVA, files) if e.source == f"{MAIN}/app/User.java"
               and e.kind in ("imports", "references")}
    assert targets == {f"{MAIN}/Builder.java"}

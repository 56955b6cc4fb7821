"""A method called on a subclass: inherited (or promoted from an embedded Go type), it is a proven
call of the declaring type's method; a Java override marks the base's method as possible."""

from __future__ import annotations

from memory_project import member_uses

from konstruct_tui.graph.languages.go import SUPPORT as GO
from konstruct_tui.graph.languages.java import SUPPORT as JAVA
from konstruct_tui.graph.languages.typescript import SUPPORT as TYPESCRIPT

MAIN = "src/main/java/com/acme"


def test_java_inherited_is_proven_and_an_override_marks_the_base_as_possible() -> None:
    files = {
        f"{MAIN}/Gson.java": "package com.acme;\npublic class Gson {\n  public String toJson(Object o) { return \"\"; }\n"
                             "  public String name() { return \"\"; }\n}\n",
        f"{MAIN}/Sub.java": "package com.acme;\npublic class Sub extends Gson {\n"
                            "  @Override public String name() { return \"s\"; }\n}\n",
        f"{MAIN}/app/User.java": "package com.acme.app;\nimport com.acme.Sub;\npublic class User {\n"
                                 "  void a() { Sub s = new Sub(); s.toJson(1); s.name(); }\n}\n",
    }
    used, _ = member_uses(JAVA, files, f"{MAIN}/app/User.java")
    assert used[f"{MAIN}/Gson.java"] == {"Gson.toJson", "~Gson.name"}
    assert used[f"{MAIN}/Sub.java"] == {"Sub.name"}


def test_typescript_an_inherited_member_called_on_the_subclass_is_the_base_class_member() -> None:
    files = {
        "src/base.ts": "export class Base {\n  get(x: number): number { return x; }\n}\n",
        "src/sub.ts": "import {Base} from './base';\nexport class Sub extends Base {\n  put(): void {}\n}\n",
        "test/a.ts": "import {Sub} from '../src/sub';\nconst s = new Sub();\ns.get(1);\ns.put();\n",
    }
    used, _ = member_uses(TYPESCRIPT, files, "test/a.ts")
    assert used["src/base.ts"] == {"Base.get"}
    assert used["src/sub.ts"] >= {"Sub", "Sub.put"}


def test_go_a_method_promoted_from_an_embedded_type_is_the_embedded_type_method() -> None:
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "srv/base.go": "package srv\n\ntype Base struct{}\n\nfunc (b *Base) Start() error { return nil }\n",
        "srv/server.go": "package srv\n\ntype Server struct {\n\tBase\n\tn int\n}\n\nfunc (s *Server) Stop() {}\n",
        "cmd/main.go": "package main\n\nimport \"example.com/m/srv\"\n\nfunc main() {\n\ts := &srv.Server{}\n"
                       "\ts.Start()\n\ts.Stop()\n}\n",
    }
    used, _ = member_uses(GO, files, "cmd/main.go")
    assert "Base.Start" in used["srv/base.go"]
    assert "Server.Stop" in used["srv/server.go"]

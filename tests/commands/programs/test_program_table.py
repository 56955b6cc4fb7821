"""The program table itself: each entry's own examples hold end to end (the policy judges them as the
entry says), and an entry that contradicts itself or another stops the table from loading."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from konstruct_tui import commands
from konstruct_tui.commands import PolicyConfig, decide
from konstruct_tui.commands.programs import PROGRAMS, Program, ProgramTableError, Subcommand, harm_of, program
from konstruct_tui.commands.programs.table import check_program, index_programs


def _rule_for(line: str, program: Program) -> str:
    """The allowlist entry that names the example's program (and its subcommand, when it has some)."""
    words = line.split()
    sub = words[1] if program.subcommands and len(words) > 1 and words[1] in program.subcommands else None
    return " ".join([words[0]] + ([sub] if sub else []))


_REFUSED = [(p.name, line) for p in PROGRAMS for line in p.should_not_match]
_ADMITTED = [(p.name, line) for p in PROGRAMS for line in p.should_match]


def test_the_table_has_examples_for_the_programs_that_run_or_write() -> None:
    assert len(_REFUSED) >= 40 and len(_ADMITTED) >= 25
    described = {name for name, _ in _REFUSED}
    assert {"git", "rg", "tar", "find", "make", "npm", "pytest", "vim", "sed", "sort", "rsync"} <= described


@pytest.mark.parametrize(("name", "line"), _REFUSED)
def test_an_allowlist_entry_for_the_program_never_admits_its_should_not_match_examples(name: str, line: str,
                                                                                        tmp_path: Path) -> None:
    program = next(p for p in PROGRAMS if p.name == name)
    decision = decide(line, PolicyConfig.build(root=tmp_path, allow=[_rule_for(line, program)]))
    assert decision.decision == "refuse", decision


@pytest.mark.parametrize(("name", "line"), _ADMITTED)
def test_an_allowlist_entry_for_the_program_admits_its_should_match_examples(name: str, line: str, tmp_path: Path) -> None:
    program = next(p for p in PROGRAMS if p.name == name)
    decision = decide(line, PolicyConfig.build(root=tmp_path, allow=[_rule_for(line, program)]))
    assert (decision.decision, decision.rule) == ("allow", "allowlist"), decision


def test_a_program_described_twice_stops_the_table() -> None:
    with pytest.raises(ProgramTableError, match="'vi' is described twice"):
        index_programs([Program(("vim", "vi")), Program(("vi",), text=True)])


def test_an_example_the_entry_does_not_refuse_stops_the_table() -> None:
    entry = Program(("rg",), runs={"--pre": "program"}, should_not_match=("rg --hidden x",))
    with pytest.raises(ProgramTableError, match="rg: example 'rg --hidden x' is in should_not_match"):
        check_program(entry)


def test_an_example_the_entry_refuses_stops_the_table() -> None:
    entry = Program(("git",), subcommands={"grep": Subcommand(runs={"-O": "program"})}, should_match=("git grep -nO x",))
    with pytest.raises(ProgramTableError, match="finds '-nO' in it"):
        check_program(entry)


def test_a_value_run_in_a_way_no_rule_knows_stops_the_table() -> None:
    with pytest.raises(ProgramTableError, match="run kind"):
        check_program(Program(("tar",), runs={"--to-command": "python"}))


def test_an_option_whose_value_runs_is_refused_without_being_written_twice() -> None:
    """`runs` is the one place: the rules that refuse unsafe options read it too."""
    git = next(p for p in PROGRAMS if p.name == "git")
    for sub, option in (("rebase", "--exec"), ("clone", "--upload-pack"), ("push", "--receive-pack"),
                        ("difftool", "--extcmd"), ("grep", "-O")):
        assert option in git.subcommands[sub].runs and option not in git.subcommands[sub].unsafe
        assert option in git.unsafe_options(sub)


def test_what_the_wrapper_reader_does_by_name_matches_the_table() -> None:
    """Behaviour beyond reading options stays code in wrappers.py, keyed by the table's names: a
    privileged program without its peeler, or a peeler for a program the table does not know as
    a wrapper, would drift apart silently."""
    from konstruct_tui.commands import wrappers
    from konstruct_tui.commands.programs import names_where

    assert set(wrappers._PRIVILEGED) == names_where("privileged")  # each reads its options from its entry
    assert set(wrappers._AFTER) <= set(wrappers._WRAPPERS)
    assert wrappers.PRIVILEGE == names_where("privileged") and "sudo" in wrappers.PRIVILEGE


def test_a_variant_name_is_its_program_for_the_deny_list() -> None:
    assert program("mkfs.ext4") is program("mkfs") is not None
    assert program("newfs_msdos") is program("newfs") is not None
    assert program("mkfsx") is None  # a prefix is `mkfs.`, not `mkfs`
    assert harm_of("mkfs.anything").formats_disks and not harm_of("ls").formats_disks


# The rules read the program table: a group of program names written in a rule module is a fact
# that belongs in the entries (`harm`, `runs`, `variables_change_runs` ...), not a second list.
_RULES = ("deny.py", "sweeping.py", "embedded.py", "unsafe_options.py", "readonly.py", "allowlist.py", "wrappers.py",
          "policy.py")


@pytest.mark.parametrize("module", _RULES)
def test_no_rule_keeps_a_group_of_program_names_of_its_own(module: str) -> None:
    source = (Path(commands.__file__).parent / module).read_text(encoding="utf-8")
    tree = ast.parse(source)
    assigned = {t.id: ast.get_source_segment(source, node.value) or "" for node in tree.body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)):
            continue
        left = node.left.func.value if isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Attribute) \
            else node.left  # `name.lower() in ...`
        if not (isinstance(left, ast.Name) and left.id in ("name", "runner")):  # a program's name, however called
            continue
        group = node.comparators[0]
        where = f"{module}:{node.lineno}"
        assert not isinstance(group, (ast.Tuple, ast.List, ast.Set)), f"{where}: a group of program names"
        if isinstance(group, ast.Name) and group.id in assigned:
            assert any(word in assigned[group.id] for word in ("names_where", "PROGRAMS", "BY_NAME")), \
                f"{where}: {group.id} is not read from the program table"

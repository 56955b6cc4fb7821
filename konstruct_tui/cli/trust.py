"""`konstruct trust list|grant|revoke [--root DIR]`: the person's view of what the agent may do here.

list    {"grants": [{"capability", "scope", "paths", "granted_at", "allows", "command"?}, ...]}   the `always`
        grants; `allows` says what in one line; a narrow commands grant adds its rule:
        "command": {"match": "exact"|"prefix", "argv": [...], "text": "pytest …"}, or for a chain
        {"match": "chain", "steps": [{"connector": null|"&&"|"||"|";", "argv": [...]}, ...], "text": "a && b"}
grant   CAPABILITY [--path GLOB]... [--rule WORDS | --exact COMMAND]  remember an `always` grant (edit may be
        narrowed to globs; commands to one exact command or chain, or an argv rule of the shape `--allow` takes)
revoke  [CAPABILITY] [--path GLOB]... [--rule WORDS | --exact COMMAND]  forget this project's grants (all,
        one capability, one edit scope, one command rule)
reset   lift the lock a damaged trust store left (allowlist mode with nothing allowed, every project)

Only `always` grants live on disk; `once` and `session` grants end with their session.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable
from typing import Any

from ..commands import BadPrefix, PolicyConfig, ShellSyntaxError, chain_key, decide, parse_grant_rule, split_words
from ..trust import CAPABILITIES, BadGrant, CommandRule, TrustGrant, TrustStore, TrustStoreWarning
from ..untrusted_text import neutralise
from ..workspace import Workspace
from .common import UsageError, add_command, command_with_actions, open_workspace, print_json


def register(commands: Any) -> None:
    actions = command_with_actions(commands, "trust", "list, grant or revoke what the agent may do in this project")
    add_command(actions, "list", "the grants remembered for this project", run_list)
    grant = add_command(actions, "grant", "remember a grant for this project (always)", run_grant)
    grant.add_argument("capability", metavar="CAPABILITY", help=f"one of {', '.join(CAPABILITIES)}")
    grant.add_argument("--path", action="append", default=[], metavar="GLOB", help="edit only: limit to files matching GLOB")
    _add_command_rule(grant)
    revoke = add_command(actions, "revoke", "forget this project's grants (all, or one capability)", run_revoke)
    revoke.add_argument("capability", nargs="?", metavar="CAPABILITY", help=f"one of {', '.join(CAPABILITIES)}")
    revoke.add_argument("--path", action="append", default=None, metavar="GLOB", help="edit only: the grant's globs")
    _add_command_rule(revoke)
    add_command(actions, "reset", "lift the lock a damaged trust store left (your decision)", run_reset)


def _add_command_rule(parser: argparse.ArgumentParser) -> None:
    narrow = parser.add_mutually_exclusive_group()
    narrow.add_argument("--rule", metavar="WORDS", help="commands only: commands starting with these words "
                        "(an argv rule as --allow takes: `pytest`, `git diff`; unsafe options stay refused)")
    narrow.add_argument("--exact", metavar="COMMAND", help="commands only: this one command line, exactly "
                        "(a chain `a && b`, `a; b` as the prompt grants it: these steps joined so)")


def _command_rule(args: argparse.Namespace) -> CommandRule | None:
    """The rule `--rule` or `--exact` names, checked as the prompt checks one (bad: UsageError)."""
    if args.rule is None and args.exact is None:
        return None
    if args.capability != "commands":
        raise UsageError("--rule and --exact go with the commands capability only")
    try:
        if args.rule is not None:
            words = parse_grant_rule(args.rule, split_words(args.rule))
            return CommandRule("prefix", words)
        try:
            words = tuple(split_words(args.exact))
        except ShellSyntaxError:  # `a && b`: a chain, granted as the prompt grants one, if it is one
            chained = decide(args.exact, PolicyConfig(chains=True))
            if not chained.steps:
                raise UsageError(f"--exact {args.exact!r}: {chained.reason}") from None
            return CommandRule("chain", (), chain_key(chained.steps))
        return CommandRule("exact", words)
    except (BadPrefix, ShellSyntaxError, BadGrant) as error:
        raise UsageError(str(error)) from None


def _listed(grant: TrustGrant) -> dict[str, Any]:
    return {**grant.to_json(), "allows": grant.describe()}


def _store() -> TrustStore:
    return TrustStore()


def _report_warnings(store: TrustStore) -> None:
    for message in store.warnings:
        print(neutralise(f"konstruct: warning: {message}"), file=sys.stderr)


def _answer(args: argparse.Namespace, ask: Callable[[TrustStore, Workspace], dict[str, Any]], scrub: bool = True) -> int:
    """Asks the trust store for this project and prints its answer; the store's warnings are shown
    once, as CLI warnings, and a grant the store refuses is a usage error."""
    workspace = open_workspace(args.root)
    store = _store()
    with workspace, warnings.catch_warnings():
        warnings.simplefilter("ignore", TrustStoreWarning)  # shown once, below, as a CLI warning
        try:
            payload = ask(store, workspace)
        except BadGrant as error:
            raise UsageError(str(error)) from None
        _report_warnings(store)
        print_json(_scrubbed(payload, workspace) if scrub else payload)
    return 0


def run_list(args: argparse.Namespace) -> int:
    return _answer(args, lambda store, workspace: {"grants": [_listed(g) for g in store.grants(workspace.root)]})


def run_grant(args: argparse.Namespace) -> int:
    command = _command_rule(args)
    return _answer(args, lambda store, workspace: {
        "granted": _listed(store.grant(workspace.root, args.capability, tuple(args.path), command))})


def run_revoke(args: argparse.Namespace) -> int:
    if args.path is not None and args.capability != "edit":
        raise UsageError("--path goes with the edit capability only")
    command = _command_rule(args)
    paths = tuple(args.path) if args.path is not None else None
    return _answer(args, lambda store, workspace: {
        "revoked": [_listed(g) for g in store.revoke(workspace.root, args.capability, paths, command)]})


def run_reset(args: argparse.Namespace) -> int:
    return _answer(args, lambda store, workspace: {"reset": store.reset()}, scrub=False)


def _scrubbed(payload: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The payload with the workspace's absolute location taken out of every string."""
    return json.loads(workspace.scrub(json.dumps(payload)))

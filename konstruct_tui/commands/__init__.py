"""The command layer: the policy for command lines, the project's own scripts, and running a
command as a child process group that can be killed at once.

Public names: `decide` / `PolicyConfig` / `PolicyDecision` (the policy), `PRESETS` / `BadPrefix`
(allowlists), `propose_rule` / `parse_grant_rule` / `rule_admits` (command grants as argv rules), `ChainStep` / `chain_key` (a chain's steps, as a chain grant names them),
`discover_scripts` / `find_script` / `ProjectScript` (project scripts),
`run_process` / `run_process_async` / `ProcessOutcome` / `Cancellation` / `running_groups` /
`kill_all_running` / `scrubbed_environment` (execution).
"""

from .allowlist import PRESETS, BadPrefix
from .chain import ChainStep, chain_key, run_chain
from .environment import scrubbed_environment
from .execution import Cancellation, ProcessOutcome, kill_all_running, run_process, run_process_async, running_groups
from .grant_rules import parse_grant_rule, propose_rule, rule_admits
from .policy import PolicyConfig, PolicyDecision, decide
from .scripts import ProjectScript, discover_scripts, find_script
from .shellwords import ShellSyntaxError, segments, split_words, tokenize
from .wrappers import is_assignment

__all__ = [
    "PRESETS",
    "BadPrefix",
    "Cancellation",
    "ChainStep",
    "PolicyConfig",
    "PolicyDecision",
    "ProcessOutcome",
    "ProjectScript",
    "ShellSyntaxError",
    "chain_key",
    "decide",
    "discover_scripts",
    "find_script",
    "parse_grant_rule",
    "propose_rule",
    "rule_admits",
    "is_assignment",
    "kill_all_running",
    "run_chain",
    "run_process",
    "run_process_async",
    "running_groups",
    "scrubbed_environment",
    "segments",
    "split_words",
    "tokenize",
]

"""No module below the front ends (cli/, server/) names a command-line flag or a command.

Errors carry a structured `Hint` (`orchestrator.hints`) instead; the CLI and the MCP
server each word it their own way. This test reads the string literals (docstrings and
comments are documentation, left out) of every other module.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from orchestrator.cli import wording as cli_wording
from orchestrator.errors import ConfigError, NotFoundError, ResumeError
from orchestrator.hints import Hint, HintAction, plain
from orchestrator.server import wording as server_wording

PACKAGE = Path(__file__).resolve().parents[2] / "orchestrator"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
COMMAND = re.compile(r"\bskillweave (?:run|resume|approve|plan|validate|runs|skills|serve|test|new|install)\b")
FRONT_ENDS = ("cli", "server")
# Flags of other programs, and one noun phrase: nothing a skillweave user types.
ALLOWED = {
    "sandbox": "the argv of bwrap, unshare and setpriv",
    "mcp_client/transport.py:--pdeathsig": "setpriv's flag, in the argv that starts a server",
    "warmhost.py:--warm-host": "the argv a launcher starts a warm host with; no user types it",
    "plan/__init__.py:skillweave plan": "'not a skillweave plan': a noun, not the command",
    "spec/make_targets.py:--arg": "jq's flag, read in a Makefile recipe's pipeline",
    "spec/justfile35.py:--arg": "jq's flag, read in a justfile recipe's pipeline",
    "spec/justfile35.py:--argjson": "jq's flag, read in a justfile recipe's pipeline",
    "spec/justfile35.py:--slurp": "jq's flag, read in a justfile recipe's pipeline",
    "spec/unit35.py:--out": "the file flag of a command on a unit's Exec line: the file a step writes",
    "spec/json_kind.py:skillweave plan": "'is a skillweave plan, not a spec': a noun, not the command",
    "spec/sql_script32.py:--set": "psql's flag, read on a `psql` command line in an SQL script's comments",
    "spec/sql_script32.py:--variable": "psql's flag, read on a `psql` command line in an SQL script's comments",
}


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docstrings.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def _allowed(rel: str, word: str) -> bool:
    return rel.split("/")[0] in ALLOWED or f"{rel}:{word}" in ALLOWED


def test_no_middle_layer_names_a_flag_or_a_command() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.split("/")[0] in FRONT_ENDS:
            continue
        for line, text in _literals(path):
            for pattern in (FLAG, COMMAND):
                for match in pattern.finditer(text):
                    if not _allowed(rel, match.group(0)):
                        found.append(f"orchestrator/{rel}:{line}: {match.group(0)!r} in {text[:80]!r}")
    assert found == []


def test_the_check_catches_a_flag_in_a_message(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Docs may say --force."""\n\ndef f():\n    raise ValueError("use --force if it is gone")\n')
    words = [FLAG.search(text) for _, text in _literals(module)]
    assert [w.group(0) for w in words if w] == ["--force"]


@pytest.mark.parametrize(
    ("error", "cli", "server"),
    [
        (
            ResumeError("run r1 cannot be resumed: changed since it started: skill s", where="r1",
                        hint=Hint(action=HintAction.RESUME_ANYWAY, run_id="r1")),
            "r1: run r1 cannot be resumed: changed since it started: skill s (--force resumes anyway)",
            "r1: run r1 cannot be resumed: changed since it started: skill s "
            "(resume_run with force=true resumes anyway)",
        ),
        (
            ConfigError("missing required input 'city'", where="city",
                        hint=Hint(action=HintAction.GIVE_INPUT, name="city")),
            "city: missing required input 'city' (give it with --input city=VALUE)",
            "city: missing required input 'city' (give it in the `inputs` argument, key 'city')",
        ),
        (
            ConfigError("unknown input 'x'; the plan takes: city", where="inputs.x"),
            "--input x: unknown input 'x'; the plan takes: city",
            "inputs.x: unknown input 'x'; the plan takes: city",
        ),
        (
            NotFoundError("no such folder", where="/nope", setting="skills_dirs"),
            "--skills-dir /nope: no such folder",
            "/nope: no such folder (chosen when the server was started)",
        ),
    ],
)
def test_each_front_end_words_an_error_s_hint_its_own_way(error: Exception, cli: str, server: str) -> None:
    assert cli_wording.render_error(error) == cli  # type: ignore[arg-type]
    assert server_wording.render_error(error) == server  # type: ignore[arg-type]


def test_every_hint_action_has_words_in_each_front_end_and_in_plain_words() -> None:
    for action in HintAction:
        hint = Hint(action=action, run_id="r1", step="publish", name="city")
        for say in (cli_wording.say, server_wording.say, plain):
            assert say(hint)
        assert "--" not in plain(hint) and "skillweave " not in plain(hint)

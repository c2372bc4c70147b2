"""The Agent Skills frontmatter rules, and what each host accepts beyond them.

The open specification (agentskills.io) allows six keys: name, description,
license, compatibility, metadata and allowed-tools. Hosts read more:

- Claude Code documents `when_to_use`, `argument-hint`, `arguments`,
  `disable-model-invocation`, `user-invocable`, `disallowed-tools`, `model`,
  `effort`, `context`, `agent`, `hooks`, `paths` and `shell`, takes
  `allowed-tools` as a YAML list too, and defaults a missing `name` to the folder.
- Cursor documents `disable-model-invocation` beside the six.

A `Finding` records which profiles a problem breaks, so a report can say that
`disable-model-invocation` breaks `strict` while `claude-code` accepts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orchestrator.hints import Hint, HintAction
from orchestrator.skills.frontmatter import Entry, Frontmatter
from orchestrator.skills.model import PROFILES, Profile

SPEC_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
CLAUDE_CODE_KEYS = (
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
)
CURSOR_KEYS = ("disable-model-invocation",)
PROFILE_KEYS: dict[Profile, frozenset[str]] = {
    "strict": frozenset(SPEC_KEYS),
    "claude-code": frozenset(SPEC_KEYS + CLAUDE_CODE_KEYS),
    "cursor": frozenset(SPEC_KEYS + CURSOR_KEYS),
}

NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500
NAME_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

ALL_PROFILES: frozenset[Profile] = frozenset(PROFILES)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with a skill, before it is judged under a profile.

    `breaks` is the set of profiles it breaks (empty: advice only). `ours` marks
    the `skillweave.*` rules, which the orchestrator needs whatever the host.
    """

    line: int | None
    message: str
    code: str
    breaks: frozenset[Profile] = ALL_PROFILES
    ours: bool = False
    advisory: bool = False
    file: Path | None = None  # None: the SKILL.md
    hint: Hint | None = None  # what fixes it


def name_problem(name: str) -> str | None:
    """Why `name` is not a valid skill name, or None when it is."""
    if not name:
        return "is empty"
    if len(name) > NAME_MAX:
        return f"is {len(name)} characters; the limit is {NAME_MAX}"
    if NAME_PATTERN.match(name):
        return None
    if name != name.lower():
        return "has uppercase letters; use lowercase letters, digits and hyphens"
    if name.startswith("-") or name.endswith("-"):
        return "starts or ends with a hyphen"
    if "--" in name:
        return "has consecutive hyphens"
    return "may only contain lowercase letters, digits and single hyphens"


def describe_type(value: Any) -> str:
    """The YAML type of `value` with its article: `an integer`, `a list`, `null`."""
    names = {bool: "a boolean", int: "an integer", float: "a number", list: "a list", dict: "a mapping"}
    if value is None:
        return "null"
    name = type(value).__name__
    return names.get(type(value), f"{'an' if name[0] in 'aeiou' else 'a'} {name}")


def check_spec(fm: Frontmatter, folder: Path) -> list[Finding]:
    """Every Agent Skills rule the frontmatter breaks, with the profiles each breaks."""
    findings: list[Finding] = []
    findings += _check_keys(fm)
    findings += _check_name(fm, folder)
    findings += _check_text(
        fm.get("description"), "description", DESCRIPTION_MAX, required=True, fm=fm
    )
    findings += _check_text(
        fm.get("compatibility"), "compatibility", COMPATIBILITY_MAX, required=False, fm=fm
    )
    license_entry = fm.get("license")
    if license_entry is not None and not isinstance(license_entry.value, str):
        findings.append(
            Finding(
                license_entry.line,
                f"'license' must be a string, not {describe_type(license_entry.value)}",
                "license-type",
            )
        )
    findings += _check_metadata(fm.get("metadata"))
    findings += _check_allowed_tools(fm.get("allowed-tools"))
    if not fm.body.strip():
        findings.append(
            Finding(
                fm.body_line,
                "SKILL.md has no instructions after the frontmatter",
                "empty-body",
                breaks=frozenset(),
                advisory=True,
            )
        )
    return findings


def _breaks_without(key: str) -> frozenset[Profile]:
    return frozenset(p for p in PROFILES if key not in PROFILE_KEYS[p])


def _check_keys(fm: Frontmatter) -> list[Finding]:
    findings = []
    for entry in fm.entries:
        if entry.key in SPEC_KEYS:
            continue
        breaks = _breaks_without(entry.key)
        accepted = [p for p in PROFILES if p not in breaks]
        if accepted:
            message = (
                f"'{entry.key}' is a host extension key, not an Agent Skills key "
                f"(breaks {', '.join(sorted(breaks))}; {', '.join(accepted)} accept it)"
            )
        else:
            message = f"unknown frontmatter key '{entry.key}': not an Agent Skills key (move it under metadata)"
        fix = Hint(action=HintAction.FIX_SKILL) if not accepted else None
        findings.append(Finding(entry.line, message, "unknown-key", breaks=breaks, hint=fix))
    return findings


def _check_name(fm: Frontmatter, folder: Path) -> list[Finding]:
    entry = fm.get("name")
    if entry is None:
        return [
            Finding(
                1,
                f"'name' is missing (claude-code uses the folder name '{folder.name}'; the others require it)",
                "name-missing",
                breaks=frozenset(("strict", "cursor")),
            )
        ]
    if not isinstance(entry.value, str):
        return [
            Finding(
                entry.line,
                f"'name' must be a string, not {describe_type(entry.value)}",
                "name-type",
            )
        ]
    problem = name_problem(entry.value)
    if problem is not None:
        return [Finding(entry.line, f"'name' '{entry.value}' {problem}", "name-format")]
    if entry.value != folder.name:
        return [
            Finding(
                entry.line,
                f"'name' '{entry.value}' differs from its folder name '{folder.name}'",
                "name-folder",
            )
        ]
    return []


def _check_text(
    entry: Entry | None, key: str, limit: int, *, required: bool, fm: Frontmatter
) -> list[Finding]:
    if entry is None:
        return [Finding(1, f"'{key}' is missing", f"{key}-missing")] if required else []
    if not isinstance(entry.value, str):
        return [
            Finding(
                entry.line,
                f"'{key}' must be a string, not {describe_type(entry.value)}",
                f"{key}-type",
            )
        ]
    if not entry.value.strip():
        return [Finding(entry.line, f"'{key}' is empty", f"{key}-empty")]
    if len(entry.value) > limit:
        return [
            Finding(
                entry.line,
                f"'{key}' is {len(entry.value)} characters; the limit is {limit}",
                f"{key}-too-long",
            )
        ]
    return []


def _check_metadata(entry: Entry | None) -> list[Finding]:
    if entry is None:
        return []
    if not entry.is_mapping:
        if entry.value is None:
            return []
        return [
            Finding(
                entry.line,
                f"'metadata' must be a mapping of strings, not {describe_type(entry.value)}",
                "metadata-type",
            )
        ]
    return [
        Finding(
            child.line,
            f"metadata '{child.key}' must be a string, not {describe_type(child.value)} (quote it)",
            "metadata-value",
        )
        for child in entry.children
        if not isinstance(child.value, str)
    ]


def _check_allowed_tools(entry: Entry | None) -> list[Finding]:
    if entry is None or isinstance(entry.value, str):
        return []
    if isinstance(entry.value, list) and all(isinstance(v, str) for v in entry.value):
        return [
            Finding(
                entry.line,
                "'allowed-tools' is a YAML list: the specification wants one space-separated string "
                "(claude-code accepts the list)",
                "allowed-tools-list",
                breaks=frozenset(("strict", "cursor")),
            )
        ]
    return [
        Finding(
            entry.line,
            f"'allowed-tools' must be a string, not {describe_type(entry.value)}",
            "allowed-tools-type",
        )
    ]


def split_tools(value: Any) -> tuple[str, ...]:
    """`allowed-tools` as a tuple: a space-separated string (spaces inside parentheses
    kept, as in `Bash(git add:*)`) or a list of strings."""
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if not isinstance(value, str):
        return ()
    tools: list[str] = []
    current: list[str] = []
    depth = 0
    for char in value:
        if char.isspace() and depth == 0:
            if current:
                tools.append("".join(current))
                current = []
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current.append(char)
    if current:
        tools.append("".join(current))
    return tuple(tools)

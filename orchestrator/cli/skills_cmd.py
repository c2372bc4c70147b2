"""`skillweave skills list`, `skillweave skills kinds` and `skillweave skills validate PATH...`.

`skills list --json` prints {"skills", "problems", "kinds"}: `kinds` lists every
registered skill kind (built-in and installed through the `skillweave.kinds`
entry-point group) as {"name", "description", "keys", "traits"}; `kind_problems`
says why an installed kind could not be loaded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from orchestrator.cli._common import (
    EXIT_USAGE,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    settings_from,
    skills_dir_option,
)
from orchestrator.cli.wording import render_diagnostic
from orchestrator.errors import Diagnostic, NotFoundError, Severity, SkillError, UserError
from orchestrator.skills import (
    PROFILES,
    SKILL_FILE,
    Catalog,
    Change,
    Profile,
    apply_fix,
    load_catalog,
    validate_skill_folder,
)

DESCRIPTION_WIDTH = 60
_PRUNE = ("node_modules", "__pycache__")


@click.group(name="skills")
def skills() -> None:
    """The skill catalog and Agent Skills conformance."""


def _diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    return {
        "file": d.file,
        "line": d.line,
        "severity": d.severity.value,
        "code": d.code,
        "message": d.message,
    }


def _short(text: str, width: int = DESCRIPTION_WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


@skills.command("list")
@json_option
@skills_dir_option
@click.option(
    "--spec",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also search the skills/ folder beside this spec.",
)
@debug_option
@handle_errors
def list_skills(
    as_json: bool, skills_dirs: tuple[Path, ...], spec: Path | None, debug: bool
) -> None:
    """List the skills the planner can bind: name, kind, origin, description.

    Search order: bundled, skills/ beside --spec, each --skills-dir, then
    $SKILLWEAVE_SKILLS_PATH. Skills without skillweave.* metadata are listed
    with kind `instructions` (for hosts only).
    """
    if spec is not None and not spec.is_file():
        raise NotFoundError("no such spec file (--spec)", where=str(spec))
    catalog = load_catalog(settings_from(skills_dirs=skills_dirs), spec)
    if as_json:
        echo_json({**_catalog_json(catalog), **_kinds_json()})
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in ("name", "kind", "origin"):
        table.add_column(column, no_wrap=True)
    table.add_column("description", no_wrap=True, overflow="ellipsis")
    for skill in catalog:
        table.add_row(skill.name, skill.kind, skill.origin, _short(skill.description))
    Console(file=sys.stdout, width=_width(), highlight=False, soft_wrap=False).print(table)
    for problem in catalog.problems:
        click.echo(render_diagnostic(problem), err=True)


@skills.command("kinds")
@json_option
@debug_option
@handle_errors
def list_kinds(as_json: bool, debug: bool) -> None:
    """List the skill kinds this installation can run: the built-in ones and those
    installed through the `skillweave.kinds` entry-point group (docs/kinds.md)."""
    found = _kinds_json()
    if as_json:
        echo_json(found)
        return
    for kind in found["kinds"]:
        keys = ", ".join(f"skillweave.{k}" for k in kind["keys"]) or "no keys of its own"
        click.echo(f"{kind['name']:<12} {kind['description']} ({keys})")
    for name, problem in found["kind_problems"].items():
        click.echo(f"{name}: not loaded: {problem}", err=True)


def _kinds_json() -> dict[str, Any]:
    from orchestrator.kinds import kind_registry

    registry = kind_registry()
    kinds = registry.all()
    return {
        "kinds": [
            {"name": k.name, "description": k.description, "keys": list(k.keys),
             "traits": k.traits.model_dump(mode="json")}
            for k in kinds
        ],
        "kind_problems": dict(registry.problems),
    }


def _width() -> int:
    try:
        return max(80, int(os.environ.get("COLUMNS", "")))
    except ValueError:
        return 120


def _catalog_json(catalog: Catalog) -> dict[str, Any]:
    return {
        "skills": [
            {
                "name": s.name,
                "kind": s.kind,
                "origin": s.origin,
                "description": s.description,
                "path": str(s.path),
                "entry": s.entry,
                "server": s.server,
                "tool": s.tool,
                "sha256": s.sha256,
                "warnings": [_diagnostic_json(w) for w in s.warnings],
            }
            for s in catalog
        ],
        "problems": [_diagnostic_json(p) for p in catalog.problems],
    }


def collect_skill_folders(paths: tuple[Path, ...]) -> list[Path]:
    """Skill folders named by PATHs: a skill folder, its SKILL.md, or a folder searched
    recursively (not below a skill folder; `.x`, `_x`, node_modules skipped)."""
    folders: list[Path] = []
    for path in paths:
        if path.is_file():
            if path.name.lower() != SKILL_FILE.lower():
                raise UserError(
                    f"{path}: not a {SKILL_FILE} (give a skill folder, a {SKILL_FILE}, or a folder of skills)"
                )
            found = [path.parent]
        else:
            found = _walk(path)
            if not found:
                raise NotFoundError(f"{path}: no {SKILL_FILE} in this folder or below it")
        folders += [f for f in found if f not in folders]
    return folders


def _walk(root: Path) -> list[Path]:
    found: list[Path] = []
    for current, dirs, files in os.walk(root):
        if any(f.lower() == SKILL_FILE.lower() for f in files):
            found.append(Path(current))
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d not in _PRUNE)
    return found


@skills.command("validate")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    default="strict",
    show_default=True,
    help="strict: the Agent Skills specification; claude-code / cursor: also the keys those hosts accept.",
)
@click.option("--fix", is_flag=True, help="Move unknown top-level keys under metadata, as strings.")
@json_option
@debug_option
@handle_errors
def validate_skills(
    paths: tuple[Path, ...], profile: Profile, fix: bool, as_json: bool, debug: bool
) -> None:
    """Check skill folders against the Agent Skills specification and skillweave's keys.

    PATH is a skill folder, a SKILL.md, or a folder searched for skills. Prints
    FILE:LINE: message for each finding; exits 2 when there is an error.
    """
    folders = collect_skill_folders(paths)
    reports: list[tuple[Path, list[Change], list[Diagnostic]]] = []
    for folder in folders:
        changes: list[Change] = []
        skipped: list[Diagnostic] = []
        if fix:
            try:
                result = apply_fix(folder / SKILL_FILE, profile)
                changes, skipped = list(result.changes), list(result.skipped)
            except SkillError:
                pass  # unreadable: validation below reports why
        diagnostics = validate_skill_folder(folder, profile) + [
            d.model_copy(update={"severity": Severity.WARNING}) for d in skipped
        ]
        reports.append((folder, changes, diagnostics))
    errors = sum(d.severity is Severity.ERROR for _, _, ds in reports for d in ds)
    warnings = sum(d.severity is Severity.WARNING for _, _, ds in reports for d in ds)
    if as_json:
        echo_json(
            {
                "profile": profile,
                "errors": errors,
                "warnings": warnings,
                "skills": [
                    {
                        "path": str(folder),
                        "valid": not any(d.severity is Severity.ERROR for d in ds),
                        "fixes": [c.model_dump() for c in cs],
                        "diagnostics": [_diagnostic_json(d) for d in ds],
                    }
                    for folder, cs, ds in reports
                ],
            }
        )
    else:
        for _, changes, diagnostics in reports:
            for change in changes:
                click.echo(change.render())
            for diagnostic in diagnostics:
                click.echo(render_diagnostic(diagnostic))
        click.echo(
            f"{len(reports)} skill{'s' * (len(reports) != 1)} checked ({profile}): "
            f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
            err=True,
        )
    if errors:
        sys.exit(EXIT_USAGE)

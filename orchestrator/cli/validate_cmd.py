"""`skillweave validate SPEC`: parse and statically check a spec; errors as `file:line: message`.

`--strict` makes every warning an error (exit 2); `--interpret` has the model read
the policy sentences the grammar could not (kept in `<spec>.lock.json`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from orchestrator.cli._common import (
    EXIT_USAGE,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    policy_options,
    settings_from,
    skills_dir_option,
)
from orchestrator.cli.wording import render_diagnostic, say
from orchestrator.errors import Diagnostic, Severity, UserError
from orchestrator.wording import count


def _json(d: Diagnostic) -> dict[str, Any]:
    """One diagnostic; `hint` (as `run --json` gives it: {"action": "interpret"}, ...) and `hint_text` (the
    hint in the words the plain output prints: "`skillweave plan --interpret` asks the model to read it")
    only when it has one."""
    found: dict[str, Any] = {"file": d.file, "line": d.line, "severity": d.severity.value, "code": d.code,
                             "message": d.message}
    if d.hint is not None:
        found["hint"] = d.hint.model_dump(mode="json", exclude_none=True)
        found["hint_text"] = say(d.hint)
    return found


def as_errors(warnings: list[Diagnostic] | tuple[Diagnostic, ...]) -> list[Diagnostic]:
    """`--strict`: the warnings, each made an error."""
    return [d.model_copy(update={"severity": Severity.ERROR}) for d in warnings]


def _diagnostics(exc: UserError, spec: Path) -> list[Diagnostic]:
    found = getattr(exc, "diagnostics", None)
    if found:
        return list(found)
    file, _, line = (exc.where or str(spec)).rpartition(":")
    if line.isdigit() and file:
        return [Diagnostic(file=file, line=int(line), message=exc.message, code=type(exc).__name__)]
    return [Diagnostic(file=exc.where or str(spec), message=exc.message, code=type(exc).__name__)]


@click.command(name="validate")
@click.argument("spec", type=click.Path(path_type=Path))
@skills_dir_option
@policy_options
@json_option
@debug_option
@handle_errors
def validate(
    spec: Path, skills_dirs: tuple[Path, ...], strict: bool, interpret: bool, llm_replay: Path | None,
    llm_record: Path | None, model: str | None, as_json: bool, debug: bool,
) -> None:
    """Parse SPEC and run the static checks, without running anything.

    Exit 0 and print `ok: N steps, M warnings` (then the warnings) when the spec
    compiles; exit 2 with every error as `FILE:LINE: message` when it does not.
    --strict makes every warning an error. --json prints {"ok", "errors", "warnings",
    "strict"} instead.
    """
    from orchestrator.compile import compile_spec

    settings = settings_from(skills_dirs=skills_dirs, llm_replay=llm_replay, llm_record=llm_record, model=model)
    try:
        plan = compile_spec(spec, settings, interpret=interpret)
    except UserError as exc:
        found = _diagnostics(exc, spec)
        errors = [d for d in found if d.severity is Severity.ERROR]
        warnings = [d for d in found if d.severity is Severity.WARNING]
        if strict:
            errors, warnings = [*errors, *as_errors(warnings)], []
        _fail(errors, warnings, as_json, strict)
    if strict and plan.warnings:
        _fail(as_errors(plan.warnings), [], as_json, strict)
    if as_json:
        echo_json({"ok": True, "errors": [], "warnings": [_json(d) for d in plan.warnings], "strict": strict})
        return
    click.echo(f"ok: {count(len(plan.steps), 'step')}, {count(len(plan.warnings), 'warning')}")
    for d in plan.warnings:
        click.echo(render_diagnostic(d))


def _fail(errors: list[Diagnostic], warnings: list[Diagnostic], as_json: bool, strict: bool) -> NoReturn:
    if as_json:
        echo_json({"ok": False, "errors": [_json(d) for d in errors], "warnings": [_json(d) for d in warnings],
                   "strict": strict})
    else:
        for d in [*errors, *warnings]:
            click.echo(render_diagnostic(d), err=True)
        tail = " (--strict: every warning is an error)" if strict else ""
        click.echo(f"failed: {count(len(errors), 'error')}, {count(len(warnings), 'warning')}{tail}", err=True)
    sys.exit(EXIT_USAGE)

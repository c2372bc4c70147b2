"""`skillweave plan SPEC [--format json|mermaid|text] [-o FILE]`: the reviewable plan.

`--strict` refuses a plan with warnings (exit 2); `--interpret` has the model read
the policy sentences the grammar could not (kept in `<spec>.lock.json`).
"""

from __future__ import annotations

from pathlib import Path

import click

from orchestrator.cli._common import (
    debug_option,
    handle_errors,
    policy_options,
    settings_from,
    skills_dir_option,
)
from orchestrator.cli.wording import render_diagnostic
from orchestrator.errors import ConfigError, PlanError, Severity

_SUFFIX_FORMAT = {".json": "json", ".mmd": "mermaid", ".mermaid": "mermaid", ".txt": "text", ".md": "text"}


@click.command(name="plan")
@click.argument("spec", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["json", "mermaid", "text"]), default=None,
              help="json (the plan itself, what `run` takes), mermaid (a flowchart) or text (a review). "
                   "Default: from the -o suffix (.json, .mmd), else text.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write to FILE instead of standard output.")
@skills_dir_option
@policy_options
@debug_option
@handle_errors
def plan(
    spec: Path, fmt: str | None, output: Path | None, skills_dirs: tuple[Path, ...], strict: bool, interpret: bool,
    llm_replay: Path | None, llm_record: Path | None, model: str | None, debug: bool,
) -> None:
    """Compile SPEC into its plan: every step bound to a skill, its dependencies, input
    mapping, contracts and policies, each decision with where it came from.

    SPEC may also be a saved plan (.json), to render it in another format.
    Errors exit 2 as `FILE:LINE: message`; with --strict, warnings too.
    """
    from orchestrator.compile import compile_spec
    from orchestrator.plan import load_plan, render_plan

    chosen = fmt or (_SUFFIX_FORMAT.get(output.suffix.lower(), "text") if output else "text")
    settings = settings_from(skills_dirs=skills_dirs, llm_replay=llm_replay, llm_record=llm_record, model=model)
    from orchestrator.spec.json_kind import is_saved_plan

    if is_saved_plan(spec):  # any other .json is a spec in JSON (`spec.json_kind`)
        compiled = load_plan(spec)
    else:
        compiled = compile_spec(spec, settings, interpret=interpret)
    if strict and compiled.warnings:
        raise PlanError([d.model_copy(update={"severity": Severity.ERROR}) for d in compiled.warnings])
    text = render_plan(compiled, chosen)  # type: ignore[arg-type]
    if chosen != "text":
        for warning in compiled.warnings:
            click.echo(render_diagnostic(warning), err=True)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the plan: {exc.strerror}", where=str(output)) from None
    click.echo(f"wrote {output} ({chosen}, {len(compiled.steps)} steps, sha256 {compiled.sha256[:12]})", err=True)

"""`skillweave new spec NAME` and `skillweave new skill NAME --kind ...`: scaffolding."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from orchestrator.cli._common import EXIT_FAILED, debug_option, handle_errors
from orchestrator.cli.wording import render_diagnostic
from orchestrator.errors import NotFoundError, Severity, SkillweaveError, UserError
from orchestrator.resources import specs_dir
from orchestrator.skills.conformance import name_problem
from orchestrator.skills.scaffold import ScaffoldKind, scaffold_skill, title_of

SPEC_TEMPLATE = "workflow-spec.template.md"


@click.group(name="new")
def new() -> None:
    """Scaffold a spec or a skill from templates."""


@new.command("skill")
@click.argument("name")
@click.option(
    "--kind",
    type=click.Choice(["script", "mcp", "llm"]),
    required=True,
    help="What runs the skill.",
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("skills"),
    show_default=True,
    help="The folder to create the skill in.",
)
@click.option(
    "--description", default=None, help="The skill's description (what it does, when to use it)."
)
@click.option("--server", default=None, help="mcp: the server name in mcp.json (default: NAME).")
@click.option(
    "--tool", default=None, help="mcp: the tool to call (default: NAME with underscores)."
)
@debug_option
@handle_errors
def new_skill(
    name: str,
    kind: ScaffoldKind,
    directory: Path,
    description: str | None,
    server: str | None,
    tool: str | None,
    debug: bool,
) -> None:
    """Create a valid skill folder DIR/NAME from the bundled templates."""
    try:
        folder, written, findings = scaffold_skill(
            name, kind, directory, description=description, server=server, tool=tool
        )
    except OSError as exc:  # e.g. a folder on the way is a file
        reason = "Not a directory" if isinstance(exc, FileExistsError) else exc.strerror or str(exc)
        raise UserError(f"cannot create the skill: {reason}", where=str(directory / name)) from None
    for path in written:
        click.echo(f"created {path}")
    for finding in findings:
        click.echo(render_diagnostic(finding), err=True)
    if any(f.severity is Severity.ERROR for f in findings):
        click.echo(
            "the new skill does not validate: the templates are broken (a skillweave bug)", err=True
        )
        sys.exit(EXIT_FAILED)
    click.echo(
        f"next: edit {folder / 'SKILL.md'}, then `skillweave skills validate {folder}`", err=True
    )


@new.command("spec")
@click.argument("name")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Where to write the spec (default: NAME.md).",
)
@debug_option
@handle_errors
def new_spec(name: str, output: Path | None, debug: bool) -> None:
    """Write a workflow spec NAME.md from the bundled template."""
    problem = name_problem(name)
    if problem is not None:
        raise UserError(f"invalid spec name '{name}': it {problem}")
    target = output or Path(f"{name}.md")
    if target.exists():
        raise UserError(f"{target} already exists; refusing to overwrite it")
    text = render_spec_template(name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except FileExistsError:  # a parent folder is a file: mkdir says "exists"
        raise UserError("cannot write the spec: Not a directory", where=str(target)) from None
    except OSError as exc:
        raise UserError(f"cannot write the spec: {exc.strerror or exc}", where=str(target)) from None
    click.echo(f"created {target}")
    click.echo(f"next: fill in the steps, then `skillweave validate {target}`", err=True)


def render_spec_template(name: str) -> str:
    """The bundled workflow-spec template rendered for `name` (variables: name, title)."""
    import jinja2

    template = specs_dir() / SPEC_TEMPLATE
    if not template.is_file():
        raise NotFoundError(f"the spec template is missing: {template}")
    env = jinja2.Environment(
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False
    )
    try:
        return env.from_string(template.read_text(encoding="utf-8")).render(
            name=name, title=title_of(name)
        )
    except jinja2.TemplateError as exc:
        raise SkillweaveError(
            f"cannot render the spec template: {exc}", where=str(template)
        ) from exc

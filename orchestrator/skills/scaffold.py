"""`new skill`: render the Jinja2 scaffolds in `skills/_templates/skill/` into a skill folder.

Each template file `X.j2` becomes `X` in the new folder; which files a kind gets
is listed here. Rendering is strict (an unknown variable is an error) and the
result is validated before this returns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from orchestrator.errors import Diagnostic, SkillweaveError, UserError
from orchestrator.resources import skills_dir
from orchestrator.skills.conformance import name_problem
from orchestrator.skills.validate import validate_skill_folder

ScaffoldKind = Literal["script", "mcp", "llm"]

TEMPLATE_DIR = "_templates"
_FILES: dict[ScaffoldKind, tuple[str, ...]] = {
    "script": ("SKILL.md", "scripts/main.py", "schemas/input.json", "schemas/output.json"),
    "mcp": ("SKILL.md",),  # an MCP tool brings its own input and output schemas
    "llm": ("SKILL.md", "schemas/input.json", "schemas/output.json"),
}


def templates_dir() -> Path:
    return skills_dir() / TEMPLATE_DIR / "skill"


def title_of(name: str) -> str:
    return " ".join(part.capitalize() for part in name.split("-"))


def scaffold_skill(
    name: str,
    kind: ScaffoldKind,
    directory: Path,
    *,
    description: str | None = None,
    server: str | None = None,
    tool: str | None = None,
) -> tuple[Path, list[Path], list[Diagnostic]]:
    """Write a new skill folder `directory/name`. Returns (folder, files written,
    validation findings). Raises UserError for a bad name or an existing folder."""
    import jinja2

    problem = name_problem(name)
    if problem is not None:
        raise UserError(f"invalid skill name '{name}': it {problem}")
    folder = directory / name
    if folder.exists():
        raise UserError(f"{folder} already exists; refusing to overwrite it")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["yaml_string"] = lambda value: json.dumps(str(value), ensure_ascii=False)
    variables = {
        "name": name,
        "kind": kind,
        "title": title_of(name),
        "description": description or "",
        "server": server or name,
        "tool": tool or name.replace("-", "_"),
    }
    try:
        rendered = {rel: env.get_template(f"{rel}.j2").render(**variables) for rel in _FILES[kind]}
    except jinja2.TemplateError as exc:
        raise SkillweaveError(
            f"cannot render the skill scaffold: {exc}", where=str(templates_dir())
        ) from exc
    written: list[Path] = []
    for rel, text in rendered.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return folder, written, validate_skill_folder(folder, "strict")

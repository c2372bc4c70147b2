"""The server's MCP prompts, rendered from Jinja2 templates in `prompts/`."""

from __future__ import annotations

import re
from collections.abc import Sequence

import jinja2

from orchestrator.resources import prompts_dir, specs_dir
from orchestrator.server.models import SkillInfo

DESIGN_TEMPLATE = "mcp_design_workflow.md.j2"
SPEC_TEMPLATE = "workflow-spec.template.md"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir()),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def slug_of(goal: str) -> str:
    """A file name stem for the spec: the goal's first words, kebab-case."""
    words = re.findall(r"[a-z0-9]+", goal.lower())[:6]
    return "-".join(words) or "workflow"


def spec_template_text() -> str | None:
    path = specs_dir() / SPEC_TEMPLATE
    return path.read_text(encoding="utf-8") if path.is_file() else None


def render_design_workflow(goal: str, skills: Sequence[SkillInfo], template: str | None) -> str:
    """The `design_workflow` prompt: the goal, the spec format, the catalog, the next steps."""
    return _environment().get_template(DESIGN_TEMPLATE).render(
        goal=goal.strip(), slug=slug_of(goal), skills=list(skills), template=template
    )

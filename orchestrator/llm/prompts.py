"""Render the prompt templates in `prompts/`; no prompt text lives in Python.

A prompt template (`prompts/<name>.md.j2`) defines three blocks:

    system  the static prefix: the same for every call about one skill, so the
            client marks it for prompt caching
    user    what changes from call to call (code, failure, history, input)
    tool    the description of the tool the model must answer through

The tool's input schema is data beside the templates, `prompts/tools/<tool>.json`.
Templates render with `StrictUndefined`: a variable the caller forgot is an
error, never an empty string in a prompt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jinja2
from pydantic import BaseModel, ConfigDict

from orchestrator.contracts import JsonSchema
from orchestrator.errors import ConfigError
from orchestrator.resources import prompts_dir

TEMPLATE_SUFFIX = ".md.j2"
BLOCKS = ("system", "user", "tool")
_FENCE = re.compile(r"^\s*```")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Excerpt(_Frozen):
    """A piece of text cut to a size; templates say how much was left out."""

    text: str
    cut: int = 0  # characters left out

    @classmethod
    def head(cls, text: str, limit: int) -> Excerpt:
        """The first `limit` characters."""
        if len(text) <= limit:
            return cls(text=text)
        return cls(text=text[:limit], cut=len(text) - limit)

    @classmethod
    def tail(cls, text: str, limit: int) -> Excerpt:
        """The last `limit` characters (where a traceback ends)."""
        if len(text) <= limit:
            return cls(text=text)
        return cls(text=text[len(text) - limit :], cut=len(text) - limit)

    @classmethod
    def of_json(cls, value: Any, limit: int) -> Excerpt:
        return cls.head(to_json(value), limit)


class RenderedPrompt(_Frozen):
    name: str
    system: str  # the cacheable static prefix
    user: str
    tool_description: str


def _tidy(text: str) -> str:
    """Collapse the runs of blank lines that optional sections leave, outside code fences.

    Inside a fence (code, JSON, error output) every line is kept as it is.
    """
    kept: list[str] = []
    fenced = False
    for line in text.strip().splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and not line.strip() and kept and not kept[-1].strip():
            continue
        kept.append(line)
    return "\n".join(kept)


def to_json(value: Any) -> str:
    """JSON for people and models: indented, non-ASCII kept, nothing HTML-escaped."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def template_environment(directory: Path, *, sandboxed: bool = False) -> jinja2.Environment:
    """A strict environment: undefined variables raise, whitespace is predictable."""
    options: dict[str, Any] = {
        "undefined": jinja2.StrictUndefined,
        "autoescape": False,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": False,
    }
    env: jinja2.Environment
    if sandboxed:  # a skill's own text: bounded (see templating)
        from orchestrator.templating import BoundedEnvironment

        env = BoundedEnvironment(**options)
    else:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(directory)), **options)
    env.filters["json"] = to_json
    return env


class PromptTemplates:
    """The templates of one prompts folder (the bundled one by default)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else prompts_dir()
        self._env = template_environment(self.directory)

    def render(self, name: str, **variables: Any) -> RenderedPrompt:
        """Render the three blocks of `prompts/<name>.md.j2`.

        Raises jinja2.UndefinedError when a variable the template uses is missing
        (a bug in the caller), ConfigError when the template is absent or broken.
        """
        file = name + TEMPLATE_SUFFIX
        try:
            template = self._env.get_template(file)
        except jinja2.TemplateNotFound:
            raise ConfigError(f"no prompt template {file} in {self.directory}") from None
        except jinja2.TemplateSyntaxError as exc:
            raise ConfigError(f"{exc.filename or file}:{exc.lineno}: {exc.message}") from None
        parts: dict[str, str] = {}
        for block in BLOCKS:
            render_block = template.blocks.get(block)
            if render_block is None:
                raise ConfigError(f"prompt template {file} has no '{block}' block")
            context = template.new_context(dict(variables))
            parts[block] = _tidy("".join(render_block(context)))
        return RenderedPrompt(
            name=name, system=parts["system"], user=parts["user"], tool_description=parts["tool"]
        )

    def tool_schema(self, tool: str) -> JsonSchema:
        """The JSON Schema of a tool's input, `prompts/tools/<tool>.json`."""
        path = self.directory / "tools" / f"{tool}.json"
        try:
            schema: JsonSchema = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"no tool schema {path}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{exc.lineno}: {exc.msg}") from None
        return schema

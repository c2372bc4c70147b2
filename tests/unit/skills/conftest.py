"""Builders for skill folders on disk."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SkillMaker = Callable[..., Path]


@pytest.fixture
def make_skill(tmp_path: Path) -> SkillMaker:
    """make_skill(name, frontmatter, body=..., files={rel: text|dict}, parent=tmp_path) -> folder.

    `frontmatter` is YAML text without the --- lines (dedented); dict file contents
    are written as JSON.
    """

    def make(
        name: str,
        frontmatter: str,
        body: str = "# Title\n\nInstructions.\n",
        files: dict[str, Any] | None = None,
        parent: Path | None = None,
    ) -> Path:
        folder = (parent or tmp_path) / name
        folder.mkdir(parents=True)
        text = "---\n" + textwrap.dedent(frontmatter).strip("\n") + "\n---\n" + body
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
        for rel, content in (files or {}).items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                content if isinstance(content, str) else json.dumps(content), encoding="utf-8"
            )
        return folder

    return make


OBJECT_SCHEMA = {"type": "object", "properties": {"x": {"type": "string"}}}
SCRIPT = "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n"


@pytest.fixture
def script_skill(make_skill: SkillMaker) -> SkillMaker:
    """script_skill(name, metadata_lines=(), files_override={}, parent=None) -> a valid
    script skill folder, with extra `skillweave.*` lines and file overrides (None deletes)."""

    def make(
        name: str,
        extra: tuple[str, ...] = (),
        files: dict[str, Any] | None = None,
        parent: Path | None = None,
        description: str = "Echoes its input.",
    ) -> Path:
        lines = [
            f"name: {name}",
            f"description: {description}",
            "metadata:",
            "  skillweave.kind: script",
            "  skillweave.entry: scripts/main.py",
            "  skillweave.input-schema: schemas/input.json",
            "  skillweave.output-schema: schemas/output.json",
            *(f"  {line}" for line in extra),
        ]
        content: dict[str, Any] = {
            "scripts/main.py": SCRIPT,
            "schemas/input.json": OBJECT_SCHEMA,
            "schemas/output.json": OBJECT_SCHEMA,
        }
        content.update(files or {})
        return make_skill(
            name,
            "\n".join(lines),
            files={k: v for k, v in content.items() if v is not None},
            parent=parent,
        )

    return make

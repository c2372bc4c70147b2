"""Fixtures for the LLM tests: settings aimed at a mocked Messages API (pytest-httpx2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind

BASE_URL = "https://llm.test"


def pytest_configure(config: pytest.Config) -> None:
    # pytest-httpx2 1.0 defines the marker in a module pytest never loads as a plugin.
    config.addinivalue_line("markers", "httpx2(**options): configure the httpx2_mock fixture")


@pytest.fixture
def settings() -> Settings:
    return Settings(api_key="sk-test-key", base_url=BASE_URL, model="claude-test", max_tokens=2048)


@pytest.fixture
def contact_skill(tmp_path: Path) -> BoundSkill:
    folder = tmp_path / "skills" / "normalize-contacts"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: normalize-contacts\ndescription: Lower-cases contact emails.\n---\n"
        "Read a list of contact records and lower-case each email.\n",
        encoding="utf-8",
    )
    return BoundSkill(
        name="normalize-contacts",
        kind=BuiltinKind.SCRIPT,
        path=str(folder),
        origin="spec",
        sha256="0" * 64,
        description="Lower-cases contact emails.",
        entry="scripts/main.py",
        input_schema={"type": "object", "properties": {"records": {"type": "array"}}},
        output_schema={"type": "object", "required": ["records"]},
    )

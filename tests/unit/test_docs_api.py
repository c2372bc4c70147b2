"""The examples of docs/api.md run, in order, in one namespace, from a folder holding a
copy of the repository's specs/, against a fresh state directory, offline."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "api.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_the_doc_has_examples() -> None:
    assert len(python_blocks(DOC.read_text(encoding="utf-8"))) >= 4


def test_the_examples_of_docs_api_md_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(REPO / "specs", tmp_path / "specs", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SKILLWEAVE_STATE_DIR", "SKILLWEAVE_SKILLS_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "docs_api"}
    for number, block in enumerate(python_blocks(DOC.read_text(encoding="utf-8")), start=1):
        code = compile(block, f"docs/api.md example {number}", "exec")
        exec(code, namespace)
    assert (tmp_path / ".skillweave" / "journal.db").is_file()

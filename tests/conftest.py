"""Shared fixtures: where the repository and the shared design material are."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the clone: CI always has it; a user's clone does not."""
    if not (SHARED / "fixtures").is_dir():
        pytest.skip("../shared is absent (a user's clone has no shared design folder; CI has it)")
    return SHARED


@pytest.fixture(scope="session")
def seed_spec(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "specs" / "fetch-analyze-document.seed.md"


@pytest.fixture(scope="session")
def yaml_spec(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "specs" / "data-pipeline.paracle.yaml"


@pytest.fixture(scope="session")
def external_skills(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "external-skills"


@pytest.fixture(autouse=True)
def own_trust_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test (and every process it starts) gets a trust store of its own, never the user's."""
    path = tmp_path_factory.mktemp("trust") / "trust.json"
    monkeypatch.setenv("SKILLWEAVE_TRUST_FILE", str(path))
    return path

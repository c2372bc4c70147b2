"""The catalog's names, handed to the spec readers (`orchestrator.spec.vocabulary`)."""

from __future__ import annotations

from pathlib import Path

from orchestrator.compile import _vocabulary
from orchestrator.config import Settings
from orchestrator.skills import load_catalog
from orchestrator.spec import parse_spec_text
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary


def test_a_tool_one_skill_wraps_names_that_skill() -> None:
    words = Vocabulary.of([("get-fx-rate", "get_rate"), ("slugify", None)])
    assert words.skill_for("get_rate") == "get-fx-rate"
    assert words.skill_for("slugify") == "slugify"
    assert words.skill_for("get-rate") is None


def test_a_tool_two_skills_wrap_names_neither() -> None:
    words = Vocabulary.of([("docs-a", "get_docs"), ("docs-b", "get_docs")])
    assert words.skill_for("get_docs") is None
    assert words.skills == {"docs-a", "docs-b"}


def test_no_vocabulary_is_empty_and_false() -> None:
    assert not Source("x", "spec.md").vocabulary
    assert not Vocabulary()


def test_the_compile_pipeline_hands_the_spec_folder_skills_to_the_readers(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "rank-hosts"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: rank-hosts\ndescription: Rank hosts by free disk.\n---\nRanks.\n")
    spec = tmp_path / "spec.md"
    spec.write_text("# x\n")
    words = _vocabulary(load_catalog(Settings(), spec))
    assert "rank-hosts" in words.skills


def test_parse_spec_text_takes_a_vocabulary() -> None:
    spec = parse_spec_text("# T\n\n## Step 1: A\n- Skill: `slugify`\n", "s.md", "markdown", Vocabulary.of([("slugify", None)]))
    assert [s.skill.strip("`") for s in spec.steps if s.skill] == ["slugify"]


def test_a_skill_in_other_letter_case_is_that_skill_when_only_one_folds_to_it() -> None:  # round 50
    v = Vocabulary.of([("dormant-scan", None), ("Mail-Out", None), ("mail-out", None)])
    assert v.skill_for("DORMANT-SCAN") == "dormant-scan" and v.cased("Dormant-Scan") == "dormant-scan"
    assert v.cased("MAIL-OUT") is None  # two skills fold to it: neither
    assert v.skill_for("DORMANT-SCANS") is None

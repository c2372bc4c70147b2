from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from orchestrator.errors import SkillError
from orchestrator.skills import load_skill, validate_skill_folder
from orchestrator.skills.frontmatter import parse_frontmatter, read_frontmatter

PATH = Path("demo/SKILL.md")


def test_every_key_and_metadata_entry_knows_its_line_in_the_file() -> None:
    text = (
        "---\n"
        "name: demo\n"
        "description: >\n"
        "  folded\n"
        "  text\n"
        "metadata:\n"
        "  skillweave.kind: script\n"
        "  version: 1.0\n"
        "---\n"
        "# Body\n"
    )
    fm = parse_frontmatter(text, PATH)
    assert [(e.key, e.line) for e in fm.entries] == [
        ("name", 2),
        ("description", 3),
        ("metadata", 6),
    ]
    assert fm.get("description").value == "folded text\n"  # type: ignore[union-attr]
    metadata = fm.get("metadata")
    assert metadata is not None and metadata.is_mapping
    assert [(c.key, c.line, c.value) for c in metadata.children] == [
        ("skillweave.kind", 7, "script"),
        ("version", 8, 1.0),
    ]
    assert (fm.close_line, fm.body_line, fm.body) == (9, 10, "# Body\n")


def test_an_entry_spans_until_the_next_key() -> None:
    fm = parse_frontmatter("---\na: |\n  one\n  two\nb: x\n---\n", PATH)
    a, b = fm.entries
    assert (a.line, a.end_line, b.line, b.end_line) == (2, 5, 5, 6)


def test_a_byte_order_mark_does_not_hide_the_frontmatter(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes("\ufeff---\nname: x\n---\nbody\n".encode())
    assert read_frontmatter(path).keys == ("name",)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("# no frontmatter\n", 1, "must start with a '---' line"),
        ("---\nname: x\n", 1, "not closed"),
        ("---\n---\nbody\n", 1, "frontmatter is empty"),
        ("---\n- a\n- b\n---\n", 2, "must be a mapping"),
        ("---\nname: x\ndescription: [unclosed\n---\n", 4, "invalid YAML"),
        ("---\nname: x\nname: y\n---\n", 3, "duplicate key 'name' (first on line 2)"),
        ("---\nname: x\n  bad: indent\n---\n", 3, "invalid YAML"),
    ],
)
def test_unreadable_frontmatter_is_an_error_naming_its_line(
    text: str, line: int, fragment: str
) -> None:
    with pytest.raises(SkillError) as caught:
        parse_frontmatter(text, PATH)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == str(PATH)
    assert diagnostic.line == line
    assert fragment in diagnostic.message


def test_a_file_that_is_not_utf8_is_reported_without_a_line(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"---\nname: \xff\n---\n")
    with pytest.raises(SkillError, match="not UTF-8"):
        read_frontmatter(path)


YAML_BITS = st.sampled_from(
    [
        "---",
        "name: x",
        "description: d",
        "metadata:",
        "  a: 1",
        "  - b",
        "[",
        "{",
        "&a",
        "*a",
        "!!python/object:os.system",
        ":",
        "'",
        '"',
        "\t",
        "key: |",
        "...",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(YAML_BITS, st.text(max_size=12)), max_size=12))
def test_any_text_either_parses_or_raises_a_skill_error_with_a_location(lines: list[str]) -> None:
    text = "\n".join(lines)
    try:
        parse_frontmatter(text, PATH)
    except SkillError as exc:
        assert exc.diagnostics and all(d.file == str(PATH) for d in exc.diagnostics)


KEYS = st.sampled_from(
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools", "model", "x"]
)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.one_of(
                st.sampled_from(
                    [
                        "skillweave.kind",
                        "skillweave.entry",
                        "skillweave.timeout",
                        "skillweave.input-schema",
                    ]
                ),
                st.text(max_size=8),
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_validation_and_loading_never_fail_with_anything_but_diagnostics(
    frontmatter: dict[str, object],
) -> None:
    with tempfile.TemporaryDirectory() as root:
        folder = Path(root) / "fuzz"
        folder.mkdir()
        (folder / "SKILL.md").write_text(
            "---\n" + yaml.safe_dump(frontmatter) + "---\nbody\n", encoding="utf-8"
        )
        for profile in ("strict", "claude-code", "cursor"):
            assert all(d.file.startswith(root) for d in validate_skill_folder(folder, profile))
        try:
            load_skill(folder)
        except SkillError as exc:
            assert exc.diagnostics

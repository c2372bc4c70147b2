from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SkillError
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

"""A section no reader takes says every line of it a later reader read (`spec.section_read43`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.section_read43 import amended
from orchestrator.spec.source import Source

_DOC = """\
# Nightly export

## Steps

1. `dump-table` dumps the orders table.
2. `ship-dump` copies the dump to the bucket.

## Aftermath

- Everything together gets 40 minutes, then stop it.
- We call the night a success when the copy is there, i.e. ship-dump says copied = true.
- Nobody has to watch it any more.
"""


def test_a_success_check_read_in_a_section_no_reader_takes_is_named_in_its_warning() -> None:
    spec = parse_spec_text(_DOC, "adr.md", "markdown")
    [said] = [w for w in spec.warnings if w.code == "spec.unknown-section"]
    assert "but for lines 10, 11" in said.message and "a success check" in said.message
    assert "the whole run's limit" in said.message


def _src(text: str, message: str) -> Source:
    src = Source(text, "doc.md")
    src.warn(3, message, "spec.unknown-section")
    return src


def test_a_section_with_no_line_read_before_gets_its_first() -> None:
    src = _src("# T\n\n## Notes\n\n- one\n- done when ok = true\n\n## Next\n- x\n",
               "section 'Notes' is not a spec section; its content is not read")
    amended(src, {6: "a success check", 9: "a success check"})  # line 9 is under the next heading: not this one
    assert src.warnings[0].message.endswith("not read but for line 6, read as a success check")


def test_a_warning_of_another_section_or_code_is_left_as_it_was() -> None:
    message = "section 'Notes' is not a spec section; its content is not read"
    src = _src("# T\n\n## Notes\n\n- one\n\n## Next\n- done when ok = true\n", message)
    amended(src, {8: "a success check"})
    assert src.warnings[0].message == message

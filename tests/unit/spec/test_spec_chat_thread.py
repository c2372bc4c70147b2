"""A pasted chat thread: message headers are not text, a proposal's sequence lines are the steps,
and the later replies are warned as not read (never dropped quietly, never a step's name)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_THREAD = """\
# #ops thread

**Dana Ruiz** 9:02 AM
proposal:
first `load-rows` from the upload
then `score-rows` on each row

**Omar Haddad** 9:05 AM
score can hang, give it 30 seconds

**Dana Ruiz** 9:06 AM
ok
"""


def test_chat_authors_are_never_steps_and_the_proposed_sequence_is() -> None:
    spec = parse_spec_text(_THREAD, "t.md", "markdown")
    assert [s.where for s in spec.steps] == ["t.md:5", "t.md:6"]
    assert "load-rows" in spec.steps[0].name and "score-rows" in spec.steps[1].name
    assert not any("Dana" in s.name or "Omar" in s.name for s in spec.steps)


def test_a_reply_that_names_one_step_is_read_as_that_step_s_text() -> None:
    spec = parse_spec_text(_THREAD, "t.md", "markdown")
    score = spec.steps[1]
    assert [(t.line, t.text) for t in score.texts if t.line == 9] == [(9, "score can hang, give it 30 seconds")]
    assert any(r.what == "moved" and r.where == "t.md:9" for r in score.readings)
    assert not any(t.line == 9 for t in spec.steps[0].texts)


def test_a_reply_that_names_no_step_or_several_is_warned_at_its_line_not_guessed() -> None:
    text = _THREAD + "\n**Omar Haddad** 9:07 AM\nload and score both flake, retry twice\n"
    spec = parse_spec_text(text, "t.md", "markdown")
    lines = {w.line for w in spec.warnings if "reply in the pasted chat" in w.message}
    assert lines == {12, 15}
    assert not any(t.line == 15 for s in spec.steps for t in s.texts)


def test_one_bold_name_with_a_time_is_not_a_chat() -> None:
    text = "# x\n\n**Alex** 10:00\n\n## Steps\n1. `load-rows`\n"
    spec = parse_spec_text(text, "t.md", "markdown")
    assert not any("reply in the pasted chat" in w.message for w in spec.warnings)

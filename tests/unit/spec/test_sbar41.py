"""An SBAR note's numbered part read as the steps (`spec.sbar41`) and 'if NOT flag ->' (`spec.lead_condition`)."""

from orchestrator.spec.lead_condition import lead_of
from orchestrator.spec.sbar41 import sbar_markdown

_NOTE = """Handover
Situation:
Bed 4 needs a falls review (bed_no).
Background:
Skills: falls-score, ot-referral.
Assessment
1. falls-score with bed_no -> risk and high (y/n).
   Retry once if it errors.
2. if high -> ot-referral
Recommendation:
Whole thing in 10 min.
"""


def test_the_numbered_part_of_an_sbar_note_is_the_steps_line_for_line() -> None:
    lowered = sbar_markdown(_NOTE)
    assert lowered is not None
    lines = lowered.splitlines()
    assert len(lines) == len(_NOTE.splitlines())
    assert lines[1] == "## Situation:" and lines[5] == "## Steps" and lines[9] == "## Recommendation:"
    assert lines[6].startswith("1. falls-score") and lines[7] == "   Retry once if it errors."


def test_letters_and_words_in_another_spelling_are_read() -> None:
    text = "S - SITUATION\nx\nB) Background\ny\nA: ASSESSMENT (in order)\n1) a-b\n2) c-d\nR - RECOMMENDATIONS\nz\n"
    lowered = sbar_markdown(text)
    assert lowered is not None and lowered.splitlines()[4] == "## Steps" and "2. c-d" in lowered


def test_a_note_with_no_numbered_part_or_its_parts_out_of_order_is_no_sbar_note() -> None:
    assert sbar_markdown("Situation\nx\nBackground\ny\nAssessment\nall fine\nRecommendation\nz\n") is None
    assert sbar_markdown("Assessment\n1) a\n2) b\nSituation\nx\nBackground\ny\n") is None
    assert sbar_markdown("S - SITUATION\nA - ASSESSMENT\n1) a\n2) b\n") is None  # two parts only


def test_if_not_a_bare_flag_is_the_flag_said_false() -> None:
    for title in ("if NOT flagged -> manual-check", "When NOT urgent -> queue-it"):
        lead = lead_of(title)
        assert lead is not None and lead.kind == "when" and lead.negated, title
    near = lead_of("if not the whole batch passed")
    assert near is None or not (near.kind == "when" and near.negated and near.condition == "the whole batch passed")

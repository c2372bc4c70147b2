"""A labelled list whose author says where values come from by the items' labels ("from iii", "from (a)")
makes a step that names no earlier item, says no word of order and has no condition a root, warned
(`spec.parallel_said24`). A nurse's handover, a crontab's notes, a lab protocol; and lists that must
still be read in order."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("read-obs", "check-meds", "score-news", "page-doctor", "pull-logs", "rotate-keys", "sum-usage",
          "weigh-sample", "label-tubes", "mix-buffer")


def _spec(text: str, name: str = "doc.txt") -> Any:
    words = Vocabulary.of([(s, None) for s in SKILLS])
    return parse_spec_text(text, name, "markdown", words)


def _deps(spec: Any) -> dict[str, Any]:
    return {s.skill or s.name: (s.depends_on, s.unordered_where is not None) for s in spec.steps}


HANDOVER = """\
WARD 7 NIGHT HANDOVER (bed 12)

 i.   read-obs for the patient on the chart.
 ii.  check-meds against the drug round list for tonight.
 iii. score-news off the obs from i.
 iv.  page-doctor with the score from iii and the missed doses from ii.
"""


def test_a_handovers_item_that_names_no_earlier_item_is_a_root() -> None:
    spec = _spec(HANDOVER, "handover.txt")
    deps = _deps(spec)
    assert deps["check-meds"] == ((), True)  # ii names nothing before it
    assert deps["score-news"][1] is False and deps["page-doctor"][1] is False  # they name i, iii, ii
    assert any(w.line == 4 and "not waiting for step-1" in w.message for w in spec.warnings)


LAB = """\
BUFFER PREP, bench 3

(a) weigh-sample for the batch.
(b) label-tubes for the rack, 96 of them.
(c) mix-buffer using the mass from (a) and the tube count from (b).
"""


def test_a_lab_protocols_lettered_items_are_read_the_same_way() -> None:
    deps = _deps(_spec(LAB, "protocol.txt"))
    assert deps["label-tubes"] == ((), True)


CRON_NOTES = """\
NIGHTLY JOBS (crontab notes)

 1) pull-logs for the day.
 2) rotate-keys for the vault, then tell ops.
 3) sum-usage of the logs from 1 and the key ids from 2.
"""


def test_a_step_that_says_an_order_word_still_waits() -> None:  # "then" in a crontab's note; and a
    deps = _deps(_spec(CRON_NOTES, "cron.txt"))  # document that cites only the item just before
    assert deps["rotate-keys"][1] is False


IN_ORDER = """\
WARD 7 NIGHT HANDOVER (bed 12)

 i.   read-obs for the patient on the chart.
 ii.  check-meds against the drug round list for tonight.
 iii. score-news off the obs from ii.
 iv.  page-doctor with the score.
"""


def test_a_list_that_cites_only_the_item_before_is_read_in_order() -> None:
    deps = _deps(_spec(IN_ORDER, "handover.txt"))
    assert all(not root for _, root in deps.values())


def test_a_conditional_item_is_no_root() -> None:
    text = HANDOVER.replace("ii.  check-meds against", "ii.  only if the patient is on insulin, check-meds against")
    deps = _deps(_spec(text, "handover.txt"))
    assert deps["check-meds"][1] is False


# a parish sheet: item 2 times its own tries ("after 10 sec then 30 sec") and names a field "until": no order
PEW_SHEET = """\
NOTICE SHEET

 1. weigh-sample for the week.
 2. label-tubes for each tube: its owner, colour and until. If one jams try again after 10 sec then 30 sec then give up.
 3. mix-buffer with the weights from 1 and the labels from 2.
"""
# the same, but item 2 says it waits until a thing is done: an order word with its clause
PEW_SHEET_WAITS = PEW_SHEET.replace("its owner, colour and until.", "its owner, until the weights are in.")


def test_order_words_that_time_a_step_s_tries_or_name_a_field_are_no_order() -> None:
    assert _deps(_spec(PEW_SHEET, "pew.txt"))["label-tubes"] == ((), True)
    then_hand = PEW_SHEET.replace("try again after 10 sec then 30 sec then give up", "then hand it over")
    assert _deps(_spec(then_hand, "pew.txt"))["label-tubes"][1] is False  # "then" with no time: an order word


def test_until_with_its_clause_is_still_an_order_word() -> None:
    assert _deps(_spec(PEW_SHEET_WAITS, "pew.txt"))["label-tubes"][1] is False



def test_an_item_whose_title_is_its_condition_is_no_root() -> None:  # round 49: "3a. ONLY if ready: x" (a .proto)
    for title in ("ONLY IF ON INSULIN", "Only when insulin is charted"):
        spec = _spec(f"""# Ward 7 night handover

## Steps

1. read-obs for the patient on the chart.
2. {title}: check-meds against the drug round list for tonight.
3. score-news off the obs from 1.
4. page-doctor with the score from 3 and the missed doses from 2.
""", "handover.md")
        assert spec.steps[1].name == title
        assert spec.steps[1].unordered_where is None, title
        assert not any("not waiting" in w.message for w in spec.warnings)

"""`spec.arrow_items49`: `(n) skill <- a, b` / `-> x` items read as steps, `name = value` a literal, "same time as (n)"."""

from __future__ import annotations

from orchestrator.spec.arrow_items49 import arrow_items_markdown
from orchestrator.spec.vocabulary import Vocabulary

NO_CATALOG = Vocabulary()

KITCHEN = """PREP LIST
needs: the SERVICE day, covers

(1) pull-bookings <- day
      -> tables
      [scrawled:] if the till is slow try twice more
(2) for every table -> cost-dish (dish)
      -> price
(3) together with (2) -> warn-kitchen <- tables from (1)
      shout = "Chef!"
(4) print-list <- price (2), covers
whole lot 20 min max
"""

MILL = """(1) weigh-grain  <-  lot
   -> kilos
(2) mill-it  <-  kilos (1)
   grade = "fine"
   done = milled yes
"""


def test_items_become_steps_with_their_inputs_outputs_and_literals() -> None:
    got = arrow_items_markdown(KITCHEN, NO_CATALOG)
    assert got is not None
    md, origin, warnings = got
    assert "### Step 1: pull-bookings" in md and "- Input: `day`" in md and "- Output: `tables`" in md
    assert "- Input: `tables` from step 1, `shout` = \"Chef!\"" in md
    assert "- Input: `price` from step 2, `covers`" in md
    assert "- `day`: the SERVICE day" in md and "- `covers`: covers" in md
    assert "- Note: if the till is slow try twice more" in md  # a rule opening with "if" is no condition
    assert "whole lot 20 min max" in md and len(origin) == len(md.split("\n"))
    assert any("bracketed" in m for _, m in warnings)


def test_same_time_as_waits_for_what_that_step_waits_for() -> None:
    got = arrow_items_markdown(KITCHEN, NO_CATALOG)
    assert got is not None
    step3 = got[0].split("### Step 3")[1].split("### Step 4")[0]
    assert "- Depends on: step 1" in step3
    assert any("starting with step 2" in m for _, m in got[2])


def test_a_quoted_value_is_a_literal_an_unquoted_rule_is_not() -> None:
    got = arrow_items_markdown(MILL, NO_CATALOG)
    assert got is not None
    assert '`grade` = "fine"' in got[0] and "\ndone = milled yes" in got[0]


def test_an_unquoted_value_is_a_literal_when_the_skill_takes_that_name() -> None:
    vocabulary = Vocabulary.of([("weigh-grain", None), ("mill-it", None)]).with_outputs(
        lambda skill: frozenset(), lambda skill: frozenset({"kilos", "sieve_size"} if skill == "mill-it" else {"lot"}))
    got = arrow_items_markdown(MILL.replace('grade = "fine"', "sieve size = 2.5"), vocabulary)
    assert got is not None and '`sieve_size` = "2.5"' in got[0]


def test_near_miss_numbered_items_without_arrows_are_left() -> None:
    text = "(1) weigh-grain for the lot\n(2) mill-it with the kilos\n"
    assert arrow_items_markdown(text, NO_CATALOG) is None
    assert arrow_items_markdown("(1) pull-bookings <- day\nthen some prose\n", NO_CATALOG) is None


def test_a_place_note_before_a_line_is_no_part_of_its_sentence() -> None:
    from orchestrator.spec.source import Source
    from orchestrator.spec.whole_doc import document_sentences

    text = "(2) stamp-it <- kilos\n    -> milled\n    [in the margin, in red:] done = milled yes\n[x] a box\n"
    said = [s.text for s in document_sentences(Source(text, "w.txt"))]
    assert "done = milled yes" in said  # a setting line of its own once the note is out
    said = [s.text for s in document_sentences(Source("[on a sticky note:] finished when ok is true\n", "n.txt"))]
    assert said == ["finished when ok is true"]
    said = [s.text for s in document_sentences(Source("[see below] finished when ok is true\n", "n.txt"))]
    assert said == ["[see below] finished when ok is true"]  # near miss: no colon, no place note


def test_an_arrow_before_a_skill_in_a_rule_line_is_use_it() -> None:
    text = ("(1) weigh-grain <- lot\n   -> kilos\n   scales offline -> hand-weigh instead\n"
            "(2) mill-it <- kilos (1)\n   if the mill jams → mill-by-hand\n   slow -> tell the boss\n")
    vocabulary = Vocabulary.of([("weigh-grain", None), ("mill-it", None), ("hand-weigh", None), ("mill-by-hand", None)])
    got = arrow_items_markdown(text, vocabulary)
    assert got is not None
    assert "scales offline, use hand-weigh instead" in got[0]
    assert "- Note: if the mill jams, use mill-by-hand" in got[0]
    assert "slow -> tell the boss" in got[0]  # near miss: no skill after the arrow

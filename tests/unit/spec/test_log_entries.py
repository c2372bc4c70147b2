"""A log of timestamped entries whose one entry holds the procedure as lettered or numbered items
(a ship's bridge log, a lab notebook, a care home's night handover, a brewery's brew-day log): the
items are the steps in order, each with the lines under it, the other entries remarks, warned
(`spec.log_entries`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.log_entries import log_markdown
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.step_probe import lines as _lines
from tests.unit.spec.step_probe import skills as _skills
from tests.unit.spec.step_probe import texts as _texts
from tests.unit.spec.step_probe import warned as _warned

_VOCAB = Vocabulary.of([(n, None) for n in (
    "take-fix", "plot-course", "call-pilot", "thaw-aliquots", "run-gel", "image-gel", "bin-samples",
    "check-obs", "order-meds", "page-gp", "mash-in", "sparge", "boil-wort")])

_BRIDGE = """MV KESTREL — BRIDGE LOG                     Vol 14
-------------------------------------------------
0400  2/O  Took over the watch. Wind SW 5, vis good.
0515  2/O  Fishing fleet to port, passed clear.
0600  2/O  For the pilot boarding at 0800, mate wants this done each time:
           a) take-fix off both GPS sets, the older one drops out,
              so give it 40 s and then one more go.
           b) plot-course from the fix to the pilot station.
              Nobody re-runs plot-course once it's on the chart.
           c) call-pilot with the ETA from plot-course.
           Whole lot done inside 30 min.
0640  2/O  Galley kettle tripped the breaker again, retry it later.
0700  2/O  Handed over to C/O.
"""


def test_a_bridge_log_reads_the_lettered_items_as_steps_with_their_lines() -> None:
    spec = parse_spec_text(_BRIDGE, "log.txt", "markdown", _VOCAB)
    assert _lines(spec) == ["6", "8", "10"]
    assert _skills(spec) == ["take-fix", "plot-course", "call-pilot"]
    assert "40 s" in _texts(spec.steps[0]) and "re-runs" in _texts(spec.steps[1])
    assert "re-runs" not in _texts(spec.steps[2])  # a line naming an earlier skill stays with its item


def test_other_entries_are_remarks_never_a_step_s_rule() -> None:
    spec = parse_spec_text(_BRIDGE, "log.txt", "markdown", _VOCAB)
    assert all("kettle" not in _texts(s) and "breaker" not in _texts(s) for s in spec.steps)
    assert _warned(spec, "read as remarks") == [2]
    assert _warned(spec, "holds the procedure") == [6]


def test_the_rewritten_log_keeps_its_lines() -> None:
    out = log_markdown(_BRIDGE, _VOCAB)
    assert out is not None
    lines = out[0].split("\n")
    assert len(lines) == len(_BRIDGE.split("\n"))
    assert lines[0].startswith("# MV KESTREL")
    assert lines[2] == lines[3] == lines[11] == lines[12] == ""
    assert lines[4].startswith("For the pilot boarding")
    assert lines[5] == "1. `take-fix` off both GPS sets, the older one drops out,"
    assert lines[6] == "   so give it 40 s and then one more go."
    assert lines[10] == "Whole lot done inside 30 min."


def test_a_lab_notebook_whose_condition_names_an_earlier_skill_runs_the_new_one() -> None:
    text = ("Notebook — J. Amadi — p. 112\n"
            "[09:10] thawed the buffer, fridge 2 is at 6C again\n"
            "[09:40] protocol for the afternoon run:\n"
            "    (a) thaw-aliquots from box 7\n"
            "    (b) run-gel on the aliquots, 45 min\n"
            "        if it errors do not repeat, the lane is gone\n"
            "    (c) if run-gel looks smeared -> bin-samples instead\n"
            "    (d) image-gel off whichever ran\n"
            "[12:15] lunch\n"
            "[16:30] left the gel box on, sorry\n")
    out = log_markdown(text, _VOCAB)
    assert out is not None
    lines = out[0].split("\n")
    assert lines[6] == "3. if run-gel looks smeared -> `bin-samples` instead"
    plain = text.replace("    (c) if run-gel looks smeared -> bin-samples instead\n", "    (c) bin-samples once run-gel is back\n")
    spec = parse_spec_text(plain, "nb.txt", "markdown", _VOCAB)
    assert _skills(spec) == ["thaw-aliquots", "run-gel", "bin-samples", "image-gel"]
    assert "do not repeat" in _texts(spec.steps[1]) and "lunch" not in " ".join(_texts(s) for s in spec.steps)


def test_a_care_home_handover_item_naming_two_skills_is_one_step_warned() -> None:
    text = ("NIGHT HANDOVER — Rowan Ward\n"
            "22:00 SB all settled, room 4 restless\n"
            "02:30 SB room 9 fall, no injury, obs done\n"
            "05:45 SB morning round for days, please:\n"
            "      a) check-obs on rooms 1-12, then order-meds for anyone short\n"
            "      b) page-gp if check-obs flags a NEWS over 5\n"
            "06:50 SB handing over\n")
    out = log_markdown(text, _VOCAB)
    assert out is not None
    assert any("names `check-obs`, `order-meds`" in m for _, m in out[1])
    spec = parse_spec_text(text, "handover.txt", "markdown", _VOCAB)
    assert _skills(spec) == ["check-obs", "page-gp"]
    assert _warned(spec, "names `check-obs`, `order-meds`") == [5]


def test_a_care_home_handover_item_starting_two_skills_together_is_two_steps() -> None:
    text = ("NIGHT HANDOVER — Rowan Ward\n"
            "22:00 SB all settled, room 4 restless\n"
            "02:30 SB room 9 fall, no injury, obs done\n"
            "05:45 SB morning round for days, please:\n"
            "      a) check-obs on rooms 1-12 and order-meds for anyone short,\n"
            "         both at once\n"
            "      b) page-gp if check-obs flags a NEWS over 5\n"
            "06:50 SB handing over\n")
    out = log_markdown(text, _VOCAB)
    assert out is not None
    assert "`check-obs`" in out[0] and "`order-meds`" in out[0]
    assert not any("names `check-obs`, `order-meds`" in m for _, m in out[1])
    spec = parse_spec_text(text, "handover.txt", "markdown", _VOCAB)
    assert _skills(spec) == ["check-obs", "order-meds", "page-gp"]
    assert spec.steps[1].depends_on == spec.steps[0].depends_on
    assert _warned(spec, "starts two skills in one sentence") == [5]


def test_a_brew_day_log_with_numbered_items_and_no_catalog() -> None:
    text = ("BREW DAY 31 — Pale #4\n"
            "06:00 mill checked, grain in\n"
            "06:20 recipe for Tom:\n"
            "   1) mash-in at 66C\n"
            "      hold 60 min\n"
            "   2) sparge to 28 L\n"
            "   3) boil-wort 60 min, hops at 10\n"
            "07:30 CIP done on FV2\n")
    out = log_markdown(text, Vocabulary.of([]))
    assert out is not None
    lines = out[0].split("\n")
    assert lines[3] == "1. `mash-in` at 66C" and lines[4] == "   hold 60 min"
    assert lines[5] == "2. sparge to 28 L"  # a one-word name is no skill-shaped name without a catalog
    spec = parse_spec_text(text, "brew.txt", "markdown", _VOCAB)
    assert _lines(spec) == ["4", "6", "7"]


def test_a_log_without_a_procedure_entry_or_with_few_entries_is_left_alone() -> None:
    assert log_markdown("09:00 a\n10:00 b\n11:00 c\n", _VOCAB) is None
    assert log_markdown("09:00 do:\n  a) take-fix\n  b) plot-course\n", _VOCAB) is None

"""A skill's instructions may list their names bare on an `Inputs:` / `Outputs:` line, each with a
parenthesis describing it; a label line that is a sentence names nothing, and the plan says so
(`plan.bare_names`, read by `plan.wanted`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.plan.bare_names import unread_warnings
from orchestrator.plan.wanted import Instructions, read_instructions
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


def _said(text: str, first_line: int = 1) -> Instructions:
    return read_instructions(text, "/s/SKILL.md", first_line)


def _names(text: str) -> tuple[list[str], list[str]]:
    said = _said(text)
    return [n.name for n in said.inputs], [n.name for n in said.outputs]


def test_bare_names_with_glosses_are_read_and_commas_in_a_gloss_separate_nothing() -> None:
    text = ('Works out whether an invoice is late.\n\n'
            'Inputs: invoice_no (text, e.g. "INV-0042, reissued"), due_date (text, YYYY-MM-DD), grace (number, 3 days).\n'
            'Outputs: overdue (true/false), days (whole number, 0 when paid).\n')
    assert _names(text) == (["invoice_no", "due_date", "grace"], ["overdue", "days"])
    said = _said(text)
    assert said.inputs[0].about == 'text, e.g. "INV-0042, reissued"' and said.inputs[0].where == "/s/SKILL.md:3"
    assert said.outputs[1].about == "whole number, 0 when paid" and not said.unread


def test_a_list_gloss_gives_an_array_as_for_a_backticked_name() -> None:
    said = _said("Takes: hive_id (text).\nReturns: frames (list of text, in box order), weight_kg (number).")
    assert said.outputs[0].schema_ == {"type": "array"} and said.outputs[1].schema_ is None
    assert said.inputs[0].schema_ is None and said.inputs[0].about == "text"


def test_an_inputs_paragraph_over_several_lines_gives_each_name_its_own_line() -> None:
    said = _said("Intro.\n\nInputs:\nhive_id (text, the apiary's code),\nframes (number, 1 to 10)\n"
                 "and inspector (text).\n\nExits 2 if frames is missing.", first_line=20)
    assert [(n.name, n.where) for n in said.inputs] == [
        ("hive_id", "/s/SKILL.md:23"), ("frames", "/s/SKILL.md:24"), ("inspector", "/s/SKILL.md:25")]


def test_an_or_list_names_each_and_a_parenthesis_after_it_describes_both() -> None:
    said = _said("Needs: postcode or town (text), radius_km (number, optional, default 5).\n"
                 "Gives: low and high (number, degrees C); summary (text).")
    assert [(n.name, n.about, n.optional) for n in said.inputs] == [
        ("postcode", "text", False), ("town", "text", False), ("radius_km", "number, optional, default 5", True)]
    assert [n.name for n in said.outputs] == ["low", "high", "summary"]
    assert said.outputs[0].about == "number, degrees C"


def test_a_bold_or_listed_label_is_read_and_the_list_ends_at_a_stop() -> None:
    assert _names("**Inputs:** ward (text). Exits 2 if it is empty.\n- Outputs: beds_free (whole number)") == (
        ["ward"], ["beds_free"])


def test_a_label_line_that_is_a_sentence_names_nothing_and_is_kept_as_unread() -> None:
    said = _said("Inputs: the customer's name and their order.\nReturns: JSON with the totals.", first_line=7)
    assert not said.inputs and not said.outputs
    assert [(u.kind, u.where) for u in said.unread] == [("in", "/s/SKILL.md:7"), ("out", "/s/SKILL.md:8")]


def test_near_misses_name_nothing_and_are_not_unread() -> None:
    for text in ("Reads the recipe database (a fixed copy is baked in).",  # no label: a sentence of the prose
                 "Inputs: none.\nOutputs: nothing",                      # says it takes nothing
                 "```\nInputs: hive_id (text)\n```",                     # an example in a fence
                 "Returns a summary (text) and a count."):               # no colon: not a label line
        said = _said(text)
        assert (said.inputs, said.outputs, said.unread) == ((), (), ()), text


def test_backticked_names_keep_winning() -> None:
    said = _said("Inputs: `ticket` (text), priority (number).\nTakes: ticket (a number), queue (text).")
    assert [(n.name, n.where) for n in said.inputs] == [("ticket", "/s/SKILL.md:1"), ("queue", "/s/SKILL.md:2")]
    assert said.inputs[0].about == "text"  # the backticked line's, not the bare one's


def test_unread_lines_are_warned_only_when_nothing_of_that_kind_was_named() -> None:
    bound = {"step-1": skill("tally"), "step-2": skill("tally")}
    said = _said("Inputs: whatever the last step hands over.\nOutputs: the total and a note.\nOutputs: total (number).")
    warned = unread_warnings(bound, {"tally": said}, "spec.md")  # type: ignore[arg-type]
    assert [(w.file, w.line, w.code) for w in warned] == [("/s/SKILL.md", 1, "plan.skill-interface-unread")]
    assert "`tally`" in warned[0].message and "inputs" in warned[0].message


class _Said:
    def __init__(self, name: str, body: str) -> None:
        self._bound, self.body, self.body_line, self.name = skill(name), body, 5, name
        self.skill_md = f"/skills/{name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def _plan(skill_body: str) -> object:
    catalog = FakeCatalog()
    catalog._skills = {"count-stock": _Said("count-stock", skill_body)}  # type: ignore[attr-defined]
    text = "# Stock\n\nInputs: `shelf` (text).\n\n## Steps\n\n1. Count the shelf with `count-stock`.\n"
    spec = parse_spec_text(text, "m.md", "markdown", Vocabulary.of([("count-stock", None)]))
    return build_plan(spec, catalog, settings=SETTINGS)  # type: ignore[arg-type]


def test_a_plan_binds_a_bare_input_and_declares_bare_outputs() -> None:
    plan = _plan("Inputs: shelf (text, e.g. \"A3\").\nOutputs: items (whole number), empty (true/false).")
    step = plan.step("step-1")  # type: ignore[attr-defined]
    assert step.inputs["shelf"].name == "shelf" and set(step.output_schema["properties"]) == {"items", "empty"}
    assert not [w for w in plan.warnings if w.code == "plan.skill-interface-unread"]  # type: ignore[attr-defined]


def test_a_plan_warns_at_the_skill_line_that_said_its_inputs_in_a_sentence() -> None:
    plan = _plan("Counts a shelf.\n\nInputs: the shelf's code as printed on its label.")
    warned = [w for w in plan.warnings if w.code == "plan.skill-interface-unread"]  # type: ignore[attr-defined]
    assert [(w.file, w.line) for w in warned] == [("/skills/count-stock/SKILL.md", 7)]

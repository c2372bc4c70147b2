"""The skill-anchored reading never makes a loop its author did not write: a route back to an
earlier step or a wait on a later one is dropped with one warning at its line, never a cycle error
per loop (`spec.anchor_cycles`). Kinds: a podcast run sheet, a lab protocol, a recipe card, an HR
onboarding checklist."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.anchor_cycles import untangle
from orchestrator.spec.model import StepSpec
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary


def _step(n: int, **more: object) -> StepSpec:
    return StepSpec(id=f"step-{n}", number=n, name=f"s{n}", where=f"doc.txt:{n * 3}", **more)  # type: ignore[arg-type]


def test_a_podcast_run_sheet_whose_arrow_note_read_as_routes_back_plans_in_order() -> None:
    vocab = Vocabulary.of([(n, None) for n in ("book-guest", "record-audio", "edit-audio", "post-episode")])
    text = ("Run sheet, ep 12\n"
            "  ◆ 1 · book the guest → book-guest\n"
            "      by Tuesday\n"
            "  ◆ 2 · record → record-audio\n"
            "      studio B\n"
            "  ◆ 3 · edit → edit-audio\n"
            "      cut the ums\n"
            "  ◆ 4 · post it → post-episode\n"
            "      Title + guest name from step 1, audio from step 3.\n")
    spec = parse_spec_text(text, "run.txt", "markdown", vocab)
    assert [s.routes for s in spec.steps] == [{}, {}, {}, {}]
    loops = [w for w in spec.warnings if w.code == "spec.anchored-loop"]
    assert [w.line for w in loops] == [8] and "step-1, step-3" in loops[0].message
    assert "from step 1" in " ".join(t.text for t in spec.steps[3].texts)  # its data references stay


def test_a_lab_protocol_step_routing_back_to_an_earlier_step_is_dropped_once() -> None:
    src = Source("", "protocol.txt")
    steps = [_step(1), _step(2), _step(3, routes={"smeared": "step-1", "clean": "step-2"}, routes_where="protocol.txt:11")]
    out = untangle(steps, src)
    assert out[2].routes == {} and out[2].routes_where is None
    assert [w.line for w in src.warnings] == [11]


def test_a_recipe_card_step_waiting_on_a_later_step_runs_after_the_ones_before() -> None:
    src = Source("", "card.txt")
    steps = [_step(1), _step(2, depends_on=("step-3", "step-1")), _step(3)]
    out = untangle(steps, src)
    assert out[1].depends_on == ("step-1",)
    assert len(src.warnings) == 1 and "step-3, which comes after it" in src.warnings[0].message


def test_an_onboarding_checklist_s_forward_route_and_earlier_wait_are_kept() -> None:
    src = Source("", "onboarding.txt")
    steps = [_step(1, routes={"contractor": "step-3", "employee": "step-2"}, route_default="step-2"),
             _step(2, depends_on=("step-1",)), _step(3, depends_on=("step-1",))]
    assert untangle(steps, src) == steps
    assert src.warnings == []


def test_a_route_back_kept_beside_a_route_forward_keeps_the_forward_one() -> None:
    src = Source("", "shift.txt")
    steps = [_step(1), _step(2, routes={"late": "step-1", "ok": "step-3"}, routes_where="shift.txt:7"), _step(3)]
    out = untangle(steps, src)
    assert out[1].routes == {"ok": "step-3"} and out[1].routes_where == "shift.txt:7"
    assert [w.line for w in src.warnings] == [7]

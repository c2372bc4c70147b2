"""A name several steps before give back changed (`plate` (upper-cased)) where none of them waits for another: a
later step takes the first listed's, said so (`plan.echo`, `plan.dataflow.take_input_over_echoes`); along a chain it
is still the nearest one's. A garage's MOT day, a phone-book merge; and a chain, the near-miss."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


class _Said:
    def __init__(self, name: str, body: str) -> None:
        self._bound, self.body, self.body_line, self.name = skill(name), body, 5, name
        self.skill_md = f"/skills/{name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def _plan(text: str, bodies: dict[str, str]) -> object:
    catalog = FakeCatalog()
    catalog._skills = {n: _Said(n, b) for n, b in bodies.items()}  # type: ignore[attr-defined]
    spec = parse_spec_text(text, "m.md", "markdown", Vocabulary.of([(n, None) for n in bodies]))
    return build_plan(spec, catalog, settings=SETTINGS)  # type: ignore[arg-type]


_GARAGE = {
    "check-tax": "Inputs: `plate` (string).\n\nOutputs: `plate` (upper-cased), `taxed` (bool).",
    "check-mot": "Inputs: `plate` (string).\n\nOutputs: `plate` (upper-cased, spaces removed), `mot_due` (date).",
    "book-bay": "Inputs: `plate`, `taxed`, `mot_due`.\n\nOutputs: `bay`.",
}
_MOT_DAY = """\
# MOT day

## Inputs

- plate: the car's plate

## Steps

1. Look it up with `check-tax`.
2. Look it up with `check-mot`.
   - Depends on: none
3. Book it in with `book-bay` once 1 and 2 are back: plate, taxed from 1, mot_due from 2.
"""


def test_steps_side_by_side_that_each_change_it_give_the_first_listed_s() -> None:
    plan = _plan(_MOT_DAY, _GARAGE)
    bound = plan.step("step-3").inputs["plate"]  # type: ignore[attr-defined]
    assert (bound.source, bound.step) == ("step", "step-1")
    warned = [w for w in plan.warnings if w.code == "plan.input-echo" and w.line == 12]  # type: ignore[attr-defined]
    assert len(warned) == 1 and "run side by side and each change it, the first listed" in warned[0].message


_PHONES = {
    "clean-crm": "Inputs: `phone` (string).\n\nOutputs: `phone` (normalised to E.164), `crm_id`.",
    "clean-shop": "Inputs: `phone` (string).\n\nOutputs: `phone` (normalised to E.164), `shop_id`.",
    "clean-till": "Inputs: `phone` (string).\n\nOutputs: `phone` (normalised to E.164), `till_id`.",
    "merge-ids": "Inputs: `phone`, `crm_id`, `shop_id`, `till_id`.\n\nOutputs: `merged`.",
}
_MERGE = """\
# Phone-book merge

## Inputs

- phone: the customer's number

## Steps

1. `clean-crm`
2. `clean-shop`
   - Depends on: none
3. `clean-till`
   - Depends on: none
4. `merge-ids` after 1, 2 and 3: phone, crm_id, shop_id, till_id.
"""


def test_three_side_by_side_give_the_first_listed_s_too() -> None:
    plan = _plan(_MERGE, _PHONES)
    assert plan.step("step-4").inputs["phone"].step == "step-1"  # type: ignore[attr-defined]


def test_along_a_chain_the_nearest_changer_s_value_stands() -> None:
    plan = _plan(_MOT_DAY.replace("   - Depends on: none\n", "   - Depends on: step 1\n"), _GARAGE)
    assert plan.step("step-3").inputs["plate"].step == "step-2"  # type: ignore[attr-defined]
    assert not [w for w in plan.warnings if "side by side" in w.message]  # type: ignore[attr-defined]

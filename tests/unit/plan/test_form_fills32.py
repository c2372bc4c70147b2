"""A paper form's header fields, several to a line (`spec.form_fills32`): fields filled in from elsewhere and
blanks a step names are the run's inputs; written values are the steps' literals where a skill reads that name;
grid row numbers and struck-out old values are never values; a skill's bracketed "name value" is its literal.
Forms: a vet's intake form, a hire-car checkout sheet, a lab request slip; negatives look alike."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.engine import input_alias_notes
from orchestrator.plan import build_plan
from orchestrator.plan.literal_said import literal_said
from orchestrator.spec import parse_spec_text
from orchestrator.spec.form_fills32 import arg_value, field_name, form_fields, form_value
from orchestrator.spec.vocabulary import Vocabulary

VET = ("MEADOWBANK VETS                                         INTAKE FORM   No. 2231\n"
       "Owner ......... (from reception)          Phone ......................\n"
       "Pet name ...... (from reception)          Weight (kg) ..... [from the scales]\n"
       "Vet on duty ... R. Haldane   (always Ros on Tuesdays)\n"
       "Signed: __________   Nurse: __________\n"
       "=====================================================\n\n"
       "1. Check the records with `record-lookup` for the pet name.\n"
       "2. Give it with `dose-calc`: dose 0.5 mg per kg (NOT the 0.8 on the old chart).\n"
       "3. Send the owner the plan with `owner-sms`.\n")

HIRE = ("SWIFTWHEELS CAR HIRE - CHECKOUT SHEET\n"
        "Branch: Leeds North     Booking ref: ____________     Plate: ____________\n"
        "Fuel level: __________   Damage notes: __________\n"
        "---------------------------------------------------\n"
        "1. Pull the booking with `booking-get` (booking ref).\n"
        "2. Check the car with `car-check` (plate, fuel level, grace 15).\n"
        "3. Hand over with `key-release` (booking ref, window 09:30).\n")

LAB = ("CITY PATHOLOGY - LAB REQUEST SLIP\n"
       "Patient ID .... [per request]        Sample type .... [per request]\n"
       "Tests ......... [from the order]\n"
       "Lab ........... Central   (always Central unless closed)\n\n"
       " NO | WHAT                 | SKILL          | USES\n"
       "----+----------------------+----------------+---------------\n"
       "  1 | Register the sample  | `sample-reg`   | patient id\n"
       "  2 | Run the panel        | `panel-run`    | tests, sample\n")


_SKILLS = Vocabulary(skills=frozenset({"record-lookup", "dose-calc", "owner-sms", "booking-get", "car-check",
                                       "key-release", "sample-reg", "panel-run"}))


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "form.txt", "markdown", _SKILLS)


def test_field_names_keep_the_units_in_brackets() -> None:
    assert field_name("Patient weight (kg)") == "patient_weight_kg"
    assert field_name("Days' supply") == "days_supply"
    assert field_name("Bal. ID") == "bal_id"


def test_a_vet_intake_form_s_fields_from_reception_are_inputs_and_its_blanks_for_people_are_not() -> None:
    spec = _spec(VET)
    assert [i.name for i in spec.inputs] == ["owner", "pet_name", "weight_kg"]
    assert any("read as the workflow inputs: owner, pet_name, weight_kg" in w.message for w in spec.warnings)


def test_a_hire_car_sheet_s_blanks_are_inputs_only_where_a_step_names_them() -> None:
    spec = _spec(HIRE)
    assert [i.name for i in spec.inputs] == ["booking_ref", "plate", "fuel_level"]  # not damage_notes, not branch


def test_a_lab_slip_s_fields_are_inputs_and_its_written_lab_is_a_value() -> None:
    spec = _spec(LAB)
    assert [i.name for i in spec.inputs] == ["patient_id", "sample_type", "tests"]
    found = form_value("lab", LAB, 8)
    assert found is not None and found[0] == "Central"


def test_written_values_are_found_with_their_notes_and_a_blank_row_of_dots_is_blank() -> None:
    fields = {f.name: f for f in form_fields(VET, 9)}
    assert (fields["vet_on_duty"].kind, fields["vet_on_duty"].value) == ("value", "R. Haldane")
    assert fields["phone"].kind == "blank" and fields["owner"].kind == "source"


def test_a_skill_s_bracketed_name_and_value_is_its_literal() -> None:
    assert arg_value("window", "Hand over with `key-release` (booking ref, window 09:30).") == \
        ("09:30", "window 09:30")
    assert arg_value("grace", "Check the car with car-check (plate, fuel level, grace 15).") == (15, "grace 15")


def test_grid_row_numbers_and_struck_out_old_values_are_never_values() -> None:
    row = "2 | Run the panel | `panel-run` | tests, sample"
    assert literal_said("sample", f"{row} {row}") is None
    assert literal_said("dose", "  1 | Weigh the dose | `dose-calc` | weight\n") is None
    said = literal_said("dose", "Give it with dose-calc: dose 0.5 mg per kg (NOT the 0.8 on the old chart).")
    assert said is not None and said[0] == 0.5
    said = literal_said("rate", "Bill it with invoice-make at 45.50/hr (our rate)")
    assert said is not None and said[0] == 45.5


# negatives: look like a form but are not one, or say no value
def test_one_label_in_a_sentence_is_no_form_and_makes_no_input() -> None:
    text = "Owner: sam\n\n1. Load the rows with `load-rows`.\n2. Post it with `post-summary`.\n"
    assert not _spec(text).inputs or [i.name for i in _spec(text).inputs] != ["owner"]
    assert form_value("owner", text, 3) is None  # a colon label alone is prose, not a form's value


def test_a_bracket_that_is_no_source_and_a_value_said_twice_are_not_read() -> None:
    text = ("Shift: __________   Lead: (whoever is on the rota)\n"
            "Lead: A. Smith   Lead: B. Jones\n\n1. Open up with `shop-open`.\n")
    assert form_value("lead", text, 4) is None  # two values for one name: no guess
    assert arg_value("window", "Hand over with key-release (window 09:30, window 10:00).") is None
    assert arg_value("window", "Hand over with key-release (booking ref).") is None
    assert literal_said("dose", "Give it with dose-calc: dose 0.8 (the old chart), dose 0.5 (new)") is None  # two said


_CATALOG = FakeCatalog(
    skill("sample-reg", input_schema=obj(("patient_id", "lab"), patient_id="string", lab="string"),
          output_schema=obj(("sample",), sample="string")),
    skill("panel-run", input_schema=obj(("tests", "sample"), tests="array", sample="string"),
          output_schema=obj(("result",), result="string")),
)


def test_a_lab_slip_plan_binds_the_written_lab_as_a_literal_and_never_a_row_number() -> None:
    plan = build_plan(_spec(LAB), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]
    assert [i.name for i in plan.inputs] == ["patient_id", "sample_type", "tests"]
    lab = plan.steps[0].inputs["lab"]
    assert (lab.source, lab.value) == ("literal", "Central")
    assert plan.steps[0].inputs["patient_id"].source == "input"
    assert any("Lab ... Central" in w.message for w in plan.warnings)


def test_a_plan_with_no_inputs_says_it_leaves_the_given_ones_unused() -> None:
    plan = build_plan(parse_spec_text("# X\n\n1. Register with `panel-run`.\n", "x.md", "markdown", _SKILLS),
                      FakeCatalog(skill("panel-run", input_schema=obj(()), output_schema=obj(("r",), r="string"))),
                      settings=SETTINGS)
    assert not plan.inputs
    [note] = input_alias_notes(plan, {"drug": "x", "dose": 2})
    assert "inputs 'dose', 'drug' are not taken" in note


def test_a_grid_s_join_cell_split_over_a_continuation_row_reads_its_two_line_labels() -> None:
    from orchestrator.spec.either_input import read_text

    cell = ("5 | File it (after 4a OR 4b) | `file-note` | Ref; result = 4a's receipt | | | no, or 4b's "
            "hold reason ------+------------+----------- Line 4a only if paid.")
    [said] = read_text(cell, "slip.txt:9")
    assert said.name == "result"
    assert [(a.step, a.words) for a in said.alternatives] == [("4a", "receipt no"), ("4b", "hold reason")]
    assert read_text("5 | File it | `file-note` | result = the receipt", "slip.txt:9") == []  # one value: no join


def test_a_grid_line_label_is_not_read_as_a_step_number_for_a_field() -> None:
    from orchestrator.plan.field_equals import field_equals

    found, unread = field_equals(["outcome = 3a's label line, or 3b's query text"], ["outcome"], {}, 4,
                                 lambda n: f"step-{n}", lambda sid, f: False)
    assert (found, unread) == ({}, [])
    found, _ = field_equals(["grade = step 2's band"], ["grade"], {}, 4, lambda n: f"step-{n}", lambda s, f: True)
    assert found["grade"].step == "step-2"


def test_a_dotted_line_naming_its_input_is_never_a_written_value() -> None:
    text = ("Dep port ........ departure   (e.g. ABERDEEN)\nSailing date .... sail_date   (YYYY-MM-DD)\n"
            "Master .......... Capt. Ruiz\n\n1. Check the tide with `tide-window`.\n")
    assert form_value("date", text, 5) is None  # `sail_date` names the input (`spec.input_blocks24`)
    assert form_value("master", text, 5) == ("Capt. Ruiz", form_fields(text, 5)[-1])

"""A run's input given under another name than the one the planner read for it (`comp_rates` for
the skill's `rates`) is taken as that input when the names are close, the skill's description or
the input's own words say the key's other words, and exactly one input fits; two are refused as
unknown; a plan whose spec declares its inputs takes only its own names."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.engine import input_alias_notes, prepare_run
from orchestrator.engine.input_alias import input_aliases
from orchestrator.errors import ConfigError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

WASH = skill("wash-plate", description="Washes a plate with the given wash volume in microlitres.",
             input_schema=obj(("volume",), volume="number"), output_schema=obj(("washed",), washed="boolean"))
LOG = skill("log-watch", description="Logs a watch: wind and boat speed.",
            input_schema=obj(("wind_speed", "boat_speed"), wind_speed="number", boat_speed="number"),
            output_schema=obj(("entry",), entry="string"))
TAG = skill("book-first-day", description="Books the first day for a new hire on their start date.",
            input_schema=obj(("start_date",), start_date="string"), output_schema=obj(("booked",), booked="boolean"))
CATALOG = FakeCatalog(WASH, LOG, TAG)


def _plan(text: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, "w.md", "markdown"), CATALOG, settings=SETTINGS)


PROTOCOL = "# Plate wash\n\n## Step 1: Wash the plate\n\nSkill: `wash-plate`\n"


def test_a_lab_protocol_s_wash_volume_is_the_skill_s_volume_as_its_description_says() -> None:
    plan = _plan(PROTOCOL)
    assert input_aliases(plan, ["wash_volume"]) == {"wash_volume": "volume"}
    [note] = input_alias_notes(plan, {"wash_volume": 50})
    assert "'wash_volume' is taken as the plan's input 'volume'" in note and "give it as 'volume'" in note
    _, _, created = prepare_run(plan, {"wash_volume": 50}, SETTINGS)
    assert created.inputs == {"volume": 50}


def test_a_word_the_skill_never_says_is_no_alias() -> None:
    assert input_aliases(_plan(PROTOCOL), ["rinse_volume"]) == {}
    with pytest.raises(ConfigError, match="unknown input 'rinse_volume'"):
        prepare_run(_plan(PROTOCOL), {"rinse_volume": 50}, SETTINGS)


def test_a_ship_s_log_speed_that_fits_two_inputs_is_a_guess_and_refused() -> None:
    plan = _plan("# Watch log\n\n## Step 1: Log the watch\n\nSkill: `log-watch`\n")
    assert input_aliases(plan, ["speed"]) == {}


def test_an_hr_checklist_s_hire_start_date_is_the_skill_s_start_date() -> None:
    plan = _plan("# Onboarding\n\n## Step 1: Book the first day\n\nSkill: `book-first-day`\n")
    assert input_aliases(plan, ["hire_start_date"]) == {"hire_start_date": "start_date"}
    assert input_aliases(plan, ["date"]) == {"date": "start_date"}  # shorter, its words all the input's
    assert input_aliases(plan, ["date", "start_date"]) == {}  # given by its own name: the key stays unknown
    assert input_aliases(plan, ["date", "hire_start_date"]) == {}  # two keys for one input: a guess


def test_a_podcast_sheet_that_declares_its_inputs_takes_only_their_names() -> None:
    plan = _plan("# Episode\n\n## Inputs\n\n- volume (number): loudness\n\n## Step 1: Level the audio\n\nSkill: `wash-plate`\n")
    assert input_aliases(plan, ["wash_volume"]) == {}


def test_a_name_in_other_letter_case_is_that_input_even_where_the_spec_declares_it() -> None:
    # a CI file's `APP_LOG` and its step's `app_log` are one value: whichever spelling the plan kept, the
    # other is taken, said in a note; two inputs that differ only in case leave the key unknown
    plan = _plan("# Episode\n\n## Inputs\n\n- volume (number): loudness\n\n## Step 1: Level the audio\n\nSkill: `wash-plate`\n")
    assert input_aliases(plan, ["VOLUME"]) == {"VOLUME": "volume"}
    [note] = input_alias_notes(plan, {"VOLUME": 3})
    assert "other letter case" in note and "give it as 'volume'" in note
    _, _, created = prepare_run(plan, {"VOLUME": 3}, SETTINGS)
    assert created.inputs == {"volume": 3}
    assert input_aliases(plan, ["VOLUME", "volume"]) == {}  # given under its own name too: no alias
    assert input_aliases(_plan(PROTOCOL), ["Wash_Volume"]) == {"Wash_Volume": "volume"}  # the words rule still

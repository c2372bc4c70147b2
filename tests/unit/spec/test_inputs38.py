"""Inputs and literals written the ways notes, forms and command lines write them (`spec.inputs38`), on texts of other
kinds than the fixtures', and what looks like them but must not be read so."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.inputs38 import always_values, bracket_name, command_values, unquote


def _spec(text: str, path: str = "w.txt") -> tuple[list[str], dict[str, dict[str, object]], dict[str, dict[str, str]],
                                                    list[str]]:
    spec = parse_spec_text(text, path, "markdown")
    return ([i.name for i in spec.inputs or ()], {s.id: dict(s.input_values) for s in spec.steps},
            {s.id: {f.name: f.source for f in s.inputs if f.source} for s in spec.steps},
            [f"{w.line}: {w.message}" for w in spec.warnings if w.code == "spec.reading"])


# --- "X is always V" before the steps -------------------------------------------------------------------------------

def test_a_kitchen_prep_note_s_always_value_is_the_literal_of_the_steps_that_name_it() -> None:
    text = ("Saturday prep - notes for whoever opens\n\n"
            "You give it the covers booked. the site is always \"Dockside\" - use it everywhere it asks.\n\n"
            "1. `order-veg` orders veg for the covers and the site.\n"
            "2. `prep-list` prints the prep list.\n"
            "3. `label-tubs` labels the tubs with the site name.\n")
    _, values, _, said = _spec(text)
    assert values["step-1"] == {"site": "Dockside"}
    assert values["step-2"] == {}
    assert values["step-3"] == {"site": "Dockside"}
    assert any(m.startswith("3: 'site is always \"Dockside\"' is read as a fixed value") for m in said)


def test_a_runbook_s_always_code_and_number_are_literals() -> None:
    text = ("Failover drill\n\n"
            "region is always EU2. retries are always 3, whatever the pager says.\n\n"
            "1. `drain-region` drains the region.\n"
            "2. `replay-queue` replays with retries set per the note above.\n")
    _, values, _, _ = _spec(text)
    assert values["step-1"] == {"region": "EU2"}
    assert values["step-2"] == {"retries": 3}


def test_a_lab_protocol_s_hyphenated_always_value_is_one_token() -> None:
    assert always_values("the buffer is always tris-hcl, pH 8.") == {"buffer": ("tris-hcl", "buffer is always tris-hcl")}
    assert always_values("`home_port` is always 'Leith'")["home_port"][0] == "Leith"


def test_usually_or_a_plain_word_after_always_is_no_literal() -> None:
    assert always_values("the clinic is usually busy on Mondays") == {}
    assert always_values("the clinic is always busy on Mondays") == {}
    assert always_values("the queue is always DPD drivers first") == {}  # a code must end its clause
    assert always_values("it is always \"late\"") == {}


def test_an_always_value_no_step_names_is_warned_not_taken() -> None:
    text = ("Newsletter\n\nthe printer is always \"Riso\".\n\n"
            "1. `draft-issue` drafts the issue.\n2. `mail-out` mails it.\n")
    _, values, _, said = _spec(text)
    assert values == {"step-1": {}, "step-2": {}}
    assert any("no step names it" in m for m in said)


# --- key=value on a command line ------------------------------------------------------------------------------------

def test_a_makefile_like_recipe_line_gives_literals_and_an_env_input() -> None:
    assert command_values("bake: ./bin/run.sh bake-loaves oven=deck-2 count=40 day=$BAKE_DAY") == (
        {"oven": "deck-2", "count": 40}, {"day": "BAKE_DAY"})
    assert command_values("  tool run tally-votes ward=\"North End\" round=${ROUND}") == (
        {"ward": "North End"}, {"round": "ROUND"})


def test_a_step_reference_on_a_command_line_is_left_to_its_own_reader() -> None:
    assert command_values("pack: sw run pack-weigh orders=@fetch.orders mode=fast") == ({"mode": "fast"}, {})


def test_a_supervisor_file_s_command_lines_bind_literals_and_declare_the_env_input() -> None:
    text = ("# nightly backup, supervisor style\n\n"
            "1. `db-dump` dumps the database:\n"
            "   dump: runner exec db-dump host=db1.local since=$LAST_RUN\n"
            "2. `ship-offsite` ships it:\n"
            "   ship: runner exec ship-offsite bucket=cold-store\n")
    inputs, values, sources, said = _spec(text)
    assert "LAST_RUN" in inputs
    assert values["step-1"].get("host") == "db1.local"
    assert sources["step-1"].get("since") == "inputs.LAST_RUN"
    assert values["step-2"].get("bucket") == "cold-store"
    assert any("command line's arguments" in m for m in said)


def test_key_value_in_a_prose_sentence_is_no_input() -> None:
    assert command_values("Set mode=fast in the config file before you start.") is None
    assert command_values("Run the report with mode=fast") is None  # no program named before it
    assert command_values("remember timeout=30 lives in settings.ini, not here") is None
    assert command_values("ratio=2") is None
    assert command_values("Note: run with mode=fast") is None


# --- a dotted fill-in line with a bracketed name --------------------------------------------------------------------

def test_a_vet_intake_form_s_bracketed_names_are_the_inputs() -> None:
    text = ("PAWS VET - intake card\n\n"
            "  PET NAME .............. (pet_name)\n"
            "  SPECIES ............... (species)   <- cat, dog, rabbit\n"
            "  VISIT DATE ............ (visit_date)  e.g. 2026-01-09\n\n"
            "1. `triage-score` scores the pet by species.\n"
            "2. `book-room` books a room for the visit date and the pet name.\n")
    inputs, _, _, _ = _spec(text)
    assert inputs == ["pet_name", "species", "visit_date"]


def test_bracket_name_reads_the_note_and_refuses_notes_that_are_no_names() -> None:
    assert bracket_name("COAT", "(coat_notes)  <- what the owner says") == ("coat_notes", "what the owner says")
    assert bracket_name("BREED", "(breed)") == ("breed", None)
    assert bracket_name("PHONE", "(optional)") is None
    assert bracket_name("PHONE", "(landline)") is None  # one word that is not the label's: a note
    assert bracket_name("PHONE", "ask at the desk") is None


# --- a quoted literal keeps its content -----------------------------------------------------------------------------

def test_unquote_takes_off_one_pair_of_quotes_only() -> None:
    assert unquote('"Dunmore Hill"') == "Dunmore Hill"
    assert unquote("“Leith”") == "Leith"
    assert unquote("'A' and 'B'") == "'A' and 'B'"
    assert unquote("plain") == "plain"


def test_a_fixed_quoted_label_on_a_ferry_sheet_is_its_text() -> None:
    text = ("FERRY DEPARTURE SHEET\n\n"
            "  SAIL DATE ........ sail_date\n"
            "  HOME PORT ........ \"Oban\"  (fixed)\n\n"
            "1. `tide-check` for the home port and the sail date.\n"
            "2. `crew-notice` tells the crew.\n")
    _, values, _, _ = _spec(text)
    assert values["step-1"] == {"home_port": "Oban"}


def test_a_fill_in_s_square_bracketed_name_is_the_input_s_name() -> None:
    assert bracket_name("BATCH NO", "[batch_no]") == ("batch_no", None)
    assert bracket_name("PRODUCT (as on recipe card)", "[product]  e.g. korma") == ("product", "e.g. korma")
    assert bracket_name("HIVE", "[see note]") is None  # words, no name
    assert bracket_name("HIVE", "[optional]") is None

"""SQL scripts whose comments carry the process (`spec.sql_script32`): a Liquibase-like changelog, a PL/pgSQL
function's header comment, a renamed join said in a runbook, and SQL files that are no workflow (refused clearly)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a Liquibase formatted-SQL changelog of a shop's nightly margin sweep: psql `-v` inputs, `name = value` literals,
# `SET LOCAL statement_timeout TO <ms>`, a fallback sentence whose `sent = false` is no input
_LIQUIBASE = """\
--liquibase formatted sql

--changeset ines:nightly-margins-7
--comment: the nightly margin sweep, written down where the data team reads it
-- run with: psql -v shop=leeds -v day=2026-03-02 -f nightly.sql
--
-- 1. `pull-orders` for :shop and :day.
-- 2. `price-check` on the orders from 1, margin_floor = 0.15.
--    SET LOCAL statement_timeout TO 120000 for this one.
-- 3. `mail-buyer` with the flagged list from 2, `sender` = 'margins-bot'.
--    if the mail server is down: keep going with sent = false.

CREATE TABLE IF NOT EXISTS sweep_log (id serial primary key, ran_at timestamptz);
--rollback DROP TABLE sweep_log;
"""

# a PL/pgSQL function's header comment: `:name - description` inputs in a `/* * */` box, a `\\set` constant
# used as `:margin_floor`, a timeout with its unit
_PLPGSQL = """\
/*
 * nightly_reprice(shop text, day date)
 *
 * What the nightly job does, in order (the function body below only records that it ran):
 *   :shop - which shop's orders
 *   :day  - the trading day, YYYY-MM-DD
 *
 * Step 1  `pull-orders` with :shop and :day.
 * Step 2  `price-check` on its orders, with :margin_floor.
 *         SET statement_timeout = '2min' while it runs.
 * Step 3  `mail-buyer` on the flagged ones, `sender` = "pricing desk".
 */
\\set margin_floor 0.2

CREATE OR REPLACE FUNCTION nightly_reprice(shop text, day date) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO reprice_runs (shop, day) VALUES (shop, day);
END;
$$;
"""

# a markdown runbook (no SQL): two branches that call one field the same, the join taking it under its own name
_RUNBOOK = """\
# Weekly buyer note

## Steps

1. Pull the orders with `pull-orders`.
2. If the orders are fewer than 50, draft it with `draft-short` on the orders.
3. Otherwise draft it with `draft-long` on the orders.
4. Post it with `post-note`: whichever of 2 or 3 ran hands its draft over, as `note` (each of them calls that field `text`).
"""

_SKILLS = [
    skill("pull-orders", input_schema=obj(("shop", "day"), shop="string", day="string"),
          output_schema=obj(("orders", "count"), orders="array", count="integer")),
    skill("price-check", input_schema=obj(("orders", "margin_floor"), orders="array", margin_floor="number"),
          output_schema=obj(("flagged",), flagged="array")),
    skill("mail-buyer", input_schema=obj(("flagged", "sender"), flagged="array", sender="string"),
          output_schema=obj(("sent",), sent="boolean")),
    skill("draft-short", input_schema=obj(("orders",), orders="array"), output_schema=obj(("text",), text="string")),
    skill("draft-long", input_schema=obj(("orders",), orders="array"), output_schema=obj(("text",), text="string")),
    skill("post-note", input_schema=obj(("note", "shop"), note="string", shop="string"),
          output_schema=obj(("ok",), ok="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "markdown", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_liquibase_changelog_s_psql_variables_literals_and_statement_timeout() -> None:
    spec, plan = _plan(_LIQUIBASE, "changelog.sql")
    assert [i.name for i in spec.inputs or ()] == ["shop", "day"]
    pull, check, mail = plan.steps
    assert pull.inputs["shop"].source == "input" and pull.inputs["day"].source == "input"
    assert check.inputs["margin_floor"].source == "literal" and check.inputs["margin_floor"].value == 0.15
    assert check.policy.attempt_timeout_s == 120.0  # 120000 ms
    assert mail.inputs["sender"].source == "literal" and mail.inputs["sender"].value == "margins-bot"
    assert "sent" not in mail.inputs  # the value to go on with after a failure is no input
    assert any(w.line == 5 and "psql variables" in w.message for w in plan.warnings)
    assert any(w.line == 9 and "read as its timeout" in w.message for w in plan.warnings)


def test_a_plpgsql_header_s_described_variables_set_constant_and_timeout_unit() -> None:
    spec, plan = _plan(_PLPGSQL, "nightly_reprice.sql")
    assert [(i.name, i.description) for i in spec.inputs or ()] == [
        ("shop", "which shop's orders"), ("day", "the trading day, YYYY-MM-DD")]
    _pull, check, mail = plan.steps
    assert check.inputs["margin_floor"].source == "literal" and check.inputs["margin_floor"].value == 0.2
    assert check.policy.attempt_timeout_s == 120.0  # '2min'
    assert check.policy.fallback.value is None  # the SET is a timeout, not a value to go on with
    assert mail.inputs["sender"].value == "pricing desk"


def test_a_renamed_join_in_a_runbook_takes_the_field_of_whichever_branch_ran() -> None:
    _spec, plan = _plan(_RUNBOOK, "runbook.md")
    post = plan.steps[-1]
    note = post.inputs["note"]
    assert set(note.any_of) == {"step-2", "step-3"} and note.pointer == "/text"
    assert "note" not in {i.name for i in plan.inputs}


def test_a_plain_migration_is_refused_saying_it_is_sql_not_a_workflow() -> None:
    text = ("-- add the loyalty tier column\nALTER TABLE customers ADD COLUMN tier text DEFAULT 'bronze';\n"
            "UPDATE customers SET tier = 'gold' WHERE lifetime_value > 1000;\n"
            "CREATE INDEX customers_tier_idx ON customers (tier);\n")
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "V12__tier.sql", "markdown", Vocabulary(skills=_NAMES))
    said = str(exc.value)
    assert "SQL script with no workflow" in said and "ALTER, UPDATE, CREATE" in said and said.count("spec.no-steps") <= 1


def test_a_markdown_step_s_name_equals_value_is_not_read_as_an_sql_literal() -> None:
    text = "# Sweep\n\n## Steps\n\n1. Check prices with `price-check`, margin_floor = 0.15.\n"
    spec = parse_spec_text(text, "sweep.md", "markdown", Vocabulary(skills=_NAMES))
    assert "margin_floor" not in spec.steps[0].input_values  # not an SQL script: the planner's own readers decide
    assert not spec.inputs  # and no psql variables are looked for


def test_set_settings_and_v_flags_off_a_psql_line_are_not_read() -> None:
    text = ("-- deploy: ./migrate -v shop=leeds\nSET search_path = growth, public;\n"
            "-- 1. `pull-orders` for the shop, SET work_mem = '64MB'.\n")
    spec = parse_spec_text(text, "V3__pull.sql", "markdown", Vocabulary(skills=_NAMES))
    assert not spec.inputs  # `-v` on a line that runs no psql
    assert spec.steps[0].input_values == {}  # a SET is a setting, not the step's value
    assert spec.steps[0].timeout_s is None


def test_whichever_ran_without_the_field_said_is_no_renamed_join() -> None:
    text = _RUNBOOK.replace(" (each of them calls that field `text`)", "")
    spec = parse_spec_text(text, "runbook.md", "markdown", Vocabulary(skills=_NAMES))
    from orchestrator.spec.sql_script32 import renamed_join

    assert renamed_join(spec.steps[-1].description, "runbook.md:9") == []


@pytest.mark.parametrize("text", [
    # a lab protocol, a ticket export's runbook, the SQL comment's own way: a later sentence saying when it is slow
    "Load the plate with `plate-read`. the reader is slow on fridays -> retry twice, 30 s apart.",
    "Export with `ticket-export` (nightly). the API runs slow on weekends => retry 3 times.",
    "pull the cohort with :week. gives back `rows`. warehouse is slow on mondays -> retry it twice, 1 min apart.",
])
def test_when_it_is_slow_said_before_an_arrow_is_why_not_a_retry_for_timeouts_only(text: str) -> None:
    from orchestrator.spec.phrase import read_phrase

    statement = read_phrase(text).statement
    assert statement.retries in (2, 3) and statement.applies_to is None


def test_if_it_times_out_before_an_arrow_keeps_the_retry_for_timeouts() -> None:
    from orchestrator.spec.phrase import read_phrase

    statement = read_phrase("Load the plate with `plate-read`. if the reader times out on fridays -> retry twice.").statement
    assert statement.retries == 2 and statement.applies_to == "timeout"

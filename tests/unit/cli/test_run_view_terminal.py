"""The terminal side of a run: colour rules, wrapped summary notes, the live table's time and items."""

from __future__ import annotations

import io

import click
import pytest
from rich.console import Console

from orchestrator.cli.colour import colour_wanted
from orchestrator.cli.run_view import LiveTable, render_summary
from orchestrator.engine import (
    RunErrorInfo,
    RunStatus,
    RunSummary,
    RunTotals,
    StepStatus,
    StepSummary,
)
from orchestrator.engine.model import RunEvent
from orchestrator.plan.model import PlanStep
from orchestrator.testing import fake_plan

LONG = ("the publisher refused the page because its table of contents names a section that the "
        "page does not have, and a person must decide whether to drop the entry or write the section")


def _summary(status: RunStatus = RunStatus.FAILED) -> RunSummary:
    return RunSummary(
        run_id="r1", plan_name="p", plan_sha256="x", status=status, created_at=0,
        steps=(StepSummary(step_id="fetch", name="F", skill="s", status=StepStatus.SUCCEEDED, attempts=1),
               StepSummary(step_id="publish", name="P", skill="s", status=StepStatus.FAILED, attempts=1,
                           message=LONG + "\nsecond line"),
               StepSummary(step_id="announce", name="A", skill="s", status=StepStatus.NOT_RUN),
               StepSummary(step_id="lint", name="L", skill="s", status=StepStatus.CANCELLED, attempts=1)),
        error=RunErrorInfo(where="publish/1", message=LONG),
        totals=RunTotals(steps=4, succeeded=1, failed=1, attempts=3),
    )


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "wanted"),
    [({}, True, True), ({}, False, False), ({"NO_COLOR": "1"}, True, False), ({"FORCE_COLOR": "1"}, False, True),
     ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False), ({"FORCE_COLOR": "0"}, False, False),
     ({"TERM": "dumb"}, True, False), ({"NO_COLOR": ""}, True, True)],
)
def test_colour_follows_the_terminal_unless_no_color_or_force_color_say_otherwise(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, wanted: bool
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert colour_wanted(_Tty() if tty else io.StringIO()) is wanted


def test_the_summary_wraps_notes_at_the_width_and_never_cuts_a_word() -> None:
    text = render_summary(_summary(), width=80)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    words = " ".join(line.strip() for line in lines)
    assert LONG in words.replace("error: publish/1: ", "")  # every word is there, in order
    assert "second line" not in text  # the note is the message's first line
    publish = next(i for i, line in enumerate(lines) if line.startswith("  publish"))
    assert lines[publish + 1].startswith(" " * 6) and not lines[publish + 1].strip().startswith("attempts")


def test_without_a_width_the_note_is_whole_on_one_line_and_counts_say_cancelled_and_not_run() -> None:
    text = render_summary(_summary())
    assert any(line.startswith("  publish") and line.endswith(LONG) for line in text.splitlines())
    assert "1 failed, 0 skipped, 1 cancelled, 1 not run;" in text
    assert "\x1b[" not in text


def test_colour_paints_the_status_words_and_keeps_the_columns() -> None:
    plain, painted = render_summary(_summary()), render_summary(_summary(), colour=True)
    assert "\x1b[32msucceeded" in painted and "\x1b[31m\x1b[1mfailed" in painted
    assert "\x1b[90mnot_run" in painted and "\x1b[35mcancelled" in painted

    assert click.unstyle(painted) == plain


def test_the_live_table_shows_elapsed_time_and_items_done_of_the_total() -> None:
    now = [1000.0]
    plan = fake_plan([PlanStep(id="fan", name="Fan", skill="s"), PlanStep(id="one", name="One", skill="s")])
    table = LiveTable(plan, clock=lambda: now[0])

    def send(type_: str, step: str, item: int | None = None, ts: float = 1000.0, **kw: object) -> None:
        table._live.refresh = lambda: None  # type: ignore[method-assign]  # no terminal here
        table(RunEvent(run_id="r", type=type_, step=step, item=item, ts=ts, **kw))  # type: ignore[arg-type]

    send("attempt_started", "fan", 0, ts=990.0)
    send("fan_out", "fan", total=3)
    send("output_stored", "fan", 0)
    send("output_stored", "fan", 1)
    send("attempt_started", "one", ts=995.0)
    send("step_finished", "one", ts=997.5, status="succeeded")
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(table._table())
    rows = {line.split()[0]: line for line in console.file.getvalue().splitlines()[1:]}  # type: ignore[attr-defined]
    assert "10.0s" in rows["fan"] and "2/3" in rows["fan"] and "running" in rows["fan"]
    assert "2.5s" in rows["one"] and "succeeded" in rows["one"]
    now[0] = 1075.0  # a running step's time goes on; a finished one's does not
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(table._table())
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "1m25s" in out and "2.5s" in out

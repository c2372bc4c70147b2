"""bench/reader_score.py answers an approval as its author does: approves, rejects (`approve --reject`) or
stays silent (holdout37 228's rejected run had been approved and counted a false `succeeded`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

_FILE = Path(__file__).resolve().parents[3] / "bench" / "reader_score.py"


@pytest.fixture(scope="module")
def rs() -> Any:
    spec = importlib.util.spec_from_file_location("reader_score_under_test", _FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("said", "meant"), [
    ("rejected", "rejected"), ("Kev refuses", "rejected"), ("declined by the chief", "rejected"),
    ("denied (over budget)", "rejected"), ("the CAB turned it down", "rejected"),
    ("approved", "approved"), ("granted by Mrs. Halvorsen", "approved"),
    ("none (30 minutes of silence)", "silence"), ("no answer within 2h", "silence"), ("no reply", "silence"),
    ("Dennis approves", "approved"),  # near-miss: a name with "den" in it says no "no"
])
def test_an_answer_in_words(rs: Any, said: str, meant: str) -> None:
    assert rs._answer(said) == meant


def test_the_run_answers_reject_with_the_reject_flag(rs: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []
    reports = iter(['{"run_id": "r1", "status": "paused", "awaiting": ["book"]}',
                    '{"run_id": "r1", "status": "failed", "steps": []}'])

    class Done:
        def __init__(self, out: str) -> None:
            self.stdout, self.returncode = out, 0

    def cli(exe: str, *args: str, cwd: Path, timeout: float = 300) -> Done:
        calls.append(args)
        return Done(next(reports) if args[0] in ("run", "resume") else "{}")

    monkeypatch.setattr(rs, "_cli", cli)
    report = rs._run("sw", tmp_path / "spec.yml", {}, {"book"}, tmp_path, frozenset({"book"}))
    approve = [c for c in calls if c[0] == "approve"]
    assert approve and "--reject" in approve[0] and approve[0][1:3] == ("r1", "book")
    assert report["paused_for_approval"] and report["status"] == "failed"


def test_an_approved_step_is_approved_without_the_flag(rs: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []
    reports = iter(['{"run_id": "r2", "status": "paused", "awaiting": ["send"]}', '{"run_id": "r2", "status": "succeeded"}'])

    class Done:
        def __init__(self, out: str) -> None:
            self.stdout, self.returncode = out, 0

    def cli(exe: str, *args: str, cwd: Path, timeout: float = 300) -> Done:
        calls.append(args)
        return Done(next(reports) if args[0] in ("run", "resume") else "{}")

    monkeypatch.setattr(rs, "_cli", cli)
    rs._run("sw", tmp_path / "spec.yml", {}, {"send"}, tmp_path, frozenset({"book"}))
    assert [c for c in calls if c[0] == "approve"] == [("approve", "r2", "send", "--state-dir", str(tmp_path / "state"))]


def test_a_rejected_run_meaning_no_output_is_right_when_it_does_not_succeed(rs: Any) -> None:
    assert rs._ends_as_meant({"status": "failed"}, None, rejected=True)
    assert rs._ends_as_meant({"status": "cancelled"}, None, rejected=True)
    assert not rs._ends_as_meant({"status": "succeeded", "outputs": {}}, None, rejected=True)
    assert not rs._ends_as_meant({"status": "paused"}, None, rejected=True)
    # near-miss: a failed run where nothing was rejected is never the author's end
    assert not rs._ends_as_meant({"status": "failed"}, None, rejected=False)


def test_a_rejected_run_with_an_output_meant_must_give_it(rs: Any) -> None:
    report = {"status": "degraded", "outputs": {"s1": {"manual": True}}, "steps": [{"step_id": "s1"}]}
    assert rs._ends_as_meant(report, {"manual": True}, rejected=True)
    assert not rs._ends_as_meant(report, {"manual": False}, rejected=True)

"""The package facade: lazy, and the run's client honours record/replay settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from orchestrator.config import Settings
from orchestrator.llm import create_llm
from orchestrator.llm.client import LLM
from orchestrator.plan.model import Plan, SpecRef
from orchestrator.runner import LLM_FACTORY, RunnerContext, load_factory


def context(settings: Settings, tmp_path: Path) -> RunnerContext:
    plan = Plan(
        name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
    )
    return RunnerContext(settings=settings, plan=plan, run_id="r", run_dir=tmp_path)


def test_importing_the_package_does_not_import_anthropic() -> None:
    code = "import sys, orchestrator.llm; sys.exit('anthropic' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_runner_seam_names_the_factory() -> None:
    assert load_factory(LLM_FACTORY) is create_llm


def test_the_run_client_is_live_by_default(tmp_path: Path) -> None:
    llm = create_llm(context(Settings(), tmp_path))
    assert isinstance(llm, LLM)
    assert llm.mode == "live"


def test_the_run_client_records_or_replays_when_asked(tmp_path: Path) -> None:
    file = tmp_path / "calls.jsonl"
    recording = create_llm(context(Settings(llm_record=file), tmp_path))
    assert recording.mode == "record"
    replaying = create_llm(context(Settings(llm_replay=file), tmp_path))
    assert replaying.mode == "replay"

"""A top-level key of the author's own YAML schema that names the whole run's time limit by what
happens then (`stop_everything_after: 60m`) is the run's wall time; keys about a retry, a wait or one
step are not (`spec.run_limit_keys`)."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.run_limit_keys import stop_key


@pytest.mark.parametrize("key", ["stop_everything_after", "kill_it_after", "abort-the-run-after", "cancel_all_if_longer_than",
                                 "halt everything at", "pull_the_plug_after", "giveUp".lower() + "_after_all", "give_up_past"])
def test_keys_that_stop_the_whole_run(key: str) -> None:
    assert stop_key(key) is (key != "giveup_after_all")


@pytest.mark.parametrize("key", ["stop_retrying_after", "give_up_waiting_after", "stop_polling_after", "kill_each_task_after",
                                 "stop_after_errors_over", "stop", "after", "retry_after", "wait_after", "stop_calls_after"])
def test_keys_about_a_retry_a_wait_or_one_step_are_not(key: str) -> None:
    assert not stop_key(key)


def _wall(text: str, name: str = "w.yml") -> float | None:
    spec = parse_spec_text(text, name, "yaml")
    return spec.convergence.limits.wall_time_s if spec.convergence.limit_where.get("wall_time_s") else None


STEPS = "tasks:\n  fetch:\n    runs: fetch-rows\n  load:\n    runs: load-rows\n    after: [fetch]\n"


def test_a_backup_jobs_own_schema_block_limits_the_run() -> None:
    assert _wall("job: nightly\noverall:\n  stop_everything_after: 45m   # something is wrong by then\n"
                 "  good_if: \"load gave back a row_count\"\n" + STEPS) == 2700


def test_a_lab_pipelines_top_level_kill_key_limits_the_run() -> None:
    assert _wall("pipeline: plate-reader\nkill_it_after: 2h\n" + STEPS) == 7200


def test_a_count_is_not_a_duration() -> None:
    spec = parse_spec_text("pipeline: plate-reader\nstop_everything_after: 3\n" + STEPS, "w.yml", "yaml")
    assert not spec.convergence.limit_where.get("wall_time_s")
    assert any(w.line == 2 for w in spec.warnings)  # not read, and said

"""Where Temporal is: flags over the environment over the defaults, bad values named."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.temporal.config import backend_from, temporal_settings


def test_the_defaults_are_a_local_dev_server_and_a_blob_folder_in_the_state_directory(tmp_path: Path) -> None:
    found = temporal_settings(tmp_path / "state", env={})
    assert (found.address, found.namespace, found.task_queue) == ("127.0.0.1:7233", "default", "skillweave")
    assert found.blob_dir == (tmp_path / "state" / "blobs").absolute()
    assert found.heartbeat_timeout_s == 30.0


def test_flags_win_over_the_environment(tmp_path: Path) -> None:
    env = {"SKILLWEAVE_TEMPORAL_ADDRESS": "temporal:7233", "SKILLWEAVE_TEMPORAL_NAMESPACE": "prod",
           "SKILLWEAVE_TEMPORAL_TASK_QUEUE": "q", "SKILLWEAVE_BLOB_DIR": str(tmp_path / "shared"),
           "SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT": "5"}
    from_env = temporal_settings(tmp_path, env=env)
    assert (from_env.address, from_env.namespace, from_env.task_queue) == ("temporal:7233", "prod", "q")
    assert from_env.blob_dir == tmp_path / "shared" and from_env.heartbeat_timeout_s == 5.0
    flagged = temporal_settings(tmp_path, address="other:1", task_queue="mine", env=env)
    assert (flagged.address, flagged.task_queue, flagged.namespace) == ("other:1", "mine", "prod")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SKILLWEAVE_TEMPORAL_ADDRESS": "no-port"}, "a Temporal address is HOST:PORT, got 'no-port'"),
        ({"SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT": "soon"}, "not a number of seconds: 'soon'"),
        ({"SKILLWEAVE_TEMPORAL_HEARTBEAT_TIMEOUT": "0"}, "must be positive"),
    ],
)
def test_a_bad_value_is_a_config_error_naming_it(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        temporal_settings(tmp_path, env=env)


def test_the_backend_is_the_flag_else_the_environment_else_local() -> None:
    assert backend_from(None, {}) == "local"
    assert backend_from(None, {"SKILLWEAVE_BACKEND": "Temporal"}) == "temporal"
    assert backend_from("local", {"SKILLWEAVE_BACKEND": "temporal"}) == "local"
    with pytest.raises(ConfigError, match="unknown backend 'cloud'"):
        backend_from(None, {"SKILLWEAVE_BACKEND": "cloud"})


def test_a_local_run_never_loads_the_temporal_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, orchestrator.cli.run_cmd, orchestrator.cli.runs_cmd, orchestrator.temporal.config, "
        "orchestrator.engine; print('temporalio' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"

"""The CLI's answers to broken files, a busy journal, a closed pipe and Ctrl-C.

Each is one line naming the file (and line where there is one) with the exit code of
DESIGN.md (2 usage, 1 run failed), or the shell's (130 interrupted, 141 closed pipe),
never "internal error". In-process through click's runner where that is faithful; as
real processes for signals and pipes.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from engine_plans import skillweave_command

from orchestrator.cli import cli

pytestmark = pytest.mark.e2e

SKILLS = Path(__file__).resolve().parent / "skills"
NOT_UTF8 = b'{"a": "\xff\xfe"}\n'

SPEC = """name: squares
description: square each number of a list
inputs:
  nums: {type: array}
steps:
  - id: sq
    skill: fan-square
    for_each: "n in nums"
    input:
      n: "{{ n }}"
      sleep_ms: SLEEP
"""


def _spec(folder: Path, sleep_ms: int = 0) -> Path:
    spec = folder / "squares.yaml"
    spec.write_text(SPEC.replace("SLEEP", str(sleep_ms)))
    return spec


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _no_internal_error(stderr: str) -> None:
    assert "internal error" not in stderr
    assert "Traceback" not in stderr


def _runs(state: Path) -> list[tuple[str, str]]:
    if not (state / "journal.db").exists():
        return []
    conn = sqlite3.connect(state / "journal.db")
    try:
        return conn.execute("SELECT run_id, status FROM runs").fetchall()
    finally:
        conn.close()


# --- --mcp-config is read before the run ---------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file (--mcp-config)"),
        (NOT_UTF8, "not UTF-8 text"),
        (b'{"mcpServers": {\n  oops\n}\n', ":2: not valid JSON"),
        (b"[1, 2]\n", ":1: expected an object with an `mcpServers` map"),
        (b'{"mcpServers": {\n  "docs": {"command": 3}}}\n', ":2: mcpServers.docs.command: expected a non-empty string"),
    ],
)
def test_a_missing_or_broken_mcp_config_is_a_usage_error_before_the_run(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    config = tmp_path / "mcp.json"
    if content is not None:
        config.write_bytes(content)
    state = tmp_path / "state"
    code, _, stderr = invoke(
        "run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--mcp-config", config,
        "--state-dir", state,
    )
    assert code == 2
    assert stderr.startswith(f"{config}{'' if message.startswith(':') else ': '}{message}"), stderr
    assert len(stderr.strip().splitlines()) == 1
    assert _runs(state) == []  # nothing started, so no fallback can mask it


def test_test_and_resume_check_the_mcp_config_too(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_bytes(b"{\n")
    code, _, stderr = invoke("test", _spec(tmp_path), "--skills-dir", SKILLS, "--mcp-config", config)
    assert code == 2
    assert stderr.startswith(f"{config}:2: not valid JSON"), stderr
    code, _, stderr = invoke("resume", "some-run", "--mcp-config", config, "--state-dir", tmp_path / "s")
    assert code == 2
    assert stderr.startswith(f"{config}:2: not valid JSON"), stderr


# --- files that are not UTF-8 ----------------------------------------------------------


def test_an_input_file_that_is_not_utf8_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    inputs = tmp_path / "bin.json"
    inputs.write_bytes(NOT_UTF8)
    code, _, stderr = invoke(
        "run", _spec(tmp_path), "--skills-dir", SKILLS, "--input-file", inputs, "--state-dir", tmp_path / "s"
    )
    assert (code, stderr) == (2, f"{inputs}: not UTF-8 text\n")


def test_a_replay_file_that_is_not_utf8_fails_before_any_run_is_created(tmp_path: Path) -> None:
    replay = tmp_path / "bin.jsonl"
    replay.write_bytes(NOT_UTF8)
    state = tmp_path / "state"
    code, _, stderr = invoke(
        "run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--llm-replay", replay,
        "--state-dir", state,
    )
    assert (code, stderr) == (2, f"--llm-replay {replay}: not UTF-8 text\n")
    assert _runs(state) == []  # no run left behind in status running


def test_install_refuses_an_mcp_json_that_is_not_utf8_and_leaves_it_alone(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    (project / ".mcp.json").write_bytes(NOT_UTF8)
    done = subprocess.run(
        skillweave_command("install", "claude"), cwd=project, capture_output=True, text=True, timeout=60,
        env={**os.environ, "HOME": str(home)}, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"{project / '.mcp.json'}: not UTF-8 text"), done.stderr
    assert (project / ".mcp.json").read_bytes() == NOT_UTF8


# --- writing where a folder is a file ----------------------------------------------------


def test_new_spec_and_new_skill_under_a_file_say_not_a_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "f"
    blocker.write_text("a file")
    target = blocker / "zz.md"
    assert invoke("new", "spec", "zz", "-o", target) == (2, "", f"{target}: cannot write the spec: Not a directory\n")
    folder = blocker / "sub"
    code, _, stderr = invoke("new", "skill", "zz", "--kind", "script", "--dir", folder)
    assert (code, stderr) == (2, f"{folder / 'zz'}: cannot create the skill: Not a directory\n")


def test_skills_list_with_a_missing_spec_is_a_usage_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.md"
    assert invoke("skills", "list", "--spec", missing) == (2, "", f"{missing}: no such spec file (--spec)\n")


# --- a busy or damaged journal -------------------------------------------------------------


def test_a_journal_locked_by_another_process_names_the_file_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orchestrator.journal.db.BUSY_TIMEOUT_MS", 50)
    state = tmp_path / "state"
    assert invoke("run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--state-dir", state)[0] == 0
    holder = sqlite3.connect(state / "journal.db", isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        code, _, stderr = invoke(
            "run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--state-dir", state
        )
    finally:
        holder.close()
    assert code == 2
    assert stderr.startswith(f"{state / 'journal.db'}: the journal is busy: another process holds its lock"), stderr
    assert len(stderr.strip().splitlines()) == 1
    _no_internal_error(stderr)


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (sqlite3.OperationalError("database is locked"), "the journal is busy: another process holds its lock"),
        (sqlite3.DatabaseError("database disk image is malformed"), "it may be damaged"),
    ],
)
def test_a_journal_error_during_a_run_names_the_run_and_how_to_resume_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: sqlite3.Error, says: str
) -> None:
    async def execute_run(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr("orchestrator.engine.execute_run", execute_run)
    state = tmp_path / "state"
    code, _, stderr = invoke("run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--state-dir", state)
    assert code == 1
    (run_id, _), = _runs(state)
    assert stderr.splitlines()[-1].startswith(f"{state / 'journal.db'}: ")
    assert says in stderr
    assert stderr.rstrip().endswith(f"run {run_id} stopped: continue with: skillweave resume {run_id} --state-dir {state}")
    _no_internal_error(stderr)


def _full() -> sqlite3.Error:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = sqlite3.SQLITE_FULL  # as SQLite's own error carries it
    return error


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (_full(), "the disk holding the journal is full (database or disk is full); run {run} stopped: free space, "
                  "then continue with: skillweave resume {run}"),
        (OSError(28, "No space left on device", "/state/runs/x/outputs/big.json"),
         "/state/runs/x/outputs/big.json: No space left on device; run {run} stopped: free space, then continue with"),
        (PermissionError(13, "Permission denied", "/state/runs/x/logs"),
         "/state/runs/x/logs: Permission denied; run {run} stopped: fix it, then continue with"),
    ],
)
def test_a_full_disk_or_a_file_that_cannot_be_written_names_it_and_how_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, says: str
) -> None:
    async def execute_run(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr("orchestrator.engine.execute_run", execute_run)
    state = tmp_path / "state"
    code, stdout, stderr = invoke(
        "run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--state-dir", state, "--json"
    )
    assert code == 1
    (run_id, _), = _runs(state)
    assert says.format(run=run_id) in stderr.splitlines()[-1], stderr
    _no_internal_error(stderr)
    document = json.loads(stdout)  # --json still gets its error document
    assert document["ok"] is False and document["error"]["exit_code"] == 1
    assert says.format(run=run_id) in document["error"]["message"]


def test_an_os_error_that_is_not_the_disks_doing_is_still_reported_as_a_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def execute_run(*args: Any, **kwargs: Any) -> None:
        raise OSError(9, "Bad file descriptor")

    monkeypatch.setattr("orchestrator.engine.execute_run", execute_run)
    code, _, stderr = invoke("run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1]", "--state-dir", tmp_path / "s")
    assert code == 1
    assert "internal error: OSError: [Errno 9] Bad file descriptor (this is a skillweave bug" in stderr


# --- a closed pipe and Ctrl-C, as real processes --------------------------------------------


def _closed_stdout(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run with a stdout pipe whose reader is already gone, as `| head -1` leaves it."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            skillweave_command(*args), stdout=write, stderr=subprocess.PIPE, text=True, timeout=120, check=False
        )
    finally:
        os.close(write)


def test_a_run_piped_into_a_closed_reader_keeps_its_exit_code_quietly(tmp_path: Path) -> None:
    state = tmp_path / "state"
    done = _closed_stdout("run", _spec(tmp_path), "--skills-dir", SKILLS, "-i", "nums=[1, 2]", "--state-dir", state)
    _no_internal_error(done.stderr)
    assert "BrokenPipe" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert [status for _, status in _runs(state)] == ["succeeded"]


def test_other_commands_exit_141_quietly_when_the_reader_is_gone(tmp_path: Path) -> None:
    done = _closed_stdout("skills", "list", "--json")
    assert (done.returncode, done.stderr) == (141, "")


# A process started with SIGINT ignored keeps it ignored (Python installs no handler), and
# a shell without job control starts its background jobs so: a suite run as `make test &`
# or by a harness would have every child ignore Ctrl-C. Put SIGINT back for this child.
WITH_SIGINT = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"


def test_ctrl_c_during_a_run_exits_130_naming_the_run_and_its_resume_command(tmp_path: Path) -> None:
    state = tmp_path / "state"
    command = skillweave_command("run", _spec(tmp_path, sleep_ms=60_000), "--skills-dir", SKILLS, "-i", "nums=[1]",
                                 "--state-dir", state)
    with subprocess.Popen(  # closes the pipes whatever happens (a leak fails a later test)
        [sys.executable, "-c", WITH_SIGINT, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as process:
        try:
            assert process.stderr is not None
            seen = []
            for line in process.stderr:  # bounded by the step's own 60 s sleep and the timeout below
                seen.append(line)
                if "attempt_started" in line:
                    break
            process.send_signal(signal.SIGINT)
            _, rest = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 130, "".join(seen) + rest
    (run_id, _), = _runs(state)
    assert f"interrupted: run {run_id} stopped; continue with: skillweave resume {run_id} --state-dir {state}" in rest
    _no_internal_error(rest)


def test_with_json_an_error_is_also_one_json_document_on_stdout(tmp_path: Path) -> None:
    spec = tmp_path / "empty.md"
    spec.write_text("# Nothing to do\n")
    ran = subprocess.run(
        skillweave_command("run", spec, "--json", "--state-dir", tmp_path / "s"),
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert ran.returncode == 2
    document = json.loads(ran.stdout)
    assert document["ok"] is False
    assert document["error"]["exit_code"] == 2
    assert document["errors"][0]["file"] == str(spec) and document["errors"][0]["line"] == 1
    assert f"{spec}:1:" in ran.stderr  # people still get their line
    gone = subprocess.run(
        skillweave_command("resume", "no-such-run", "--json", "--state-dir", tmp_path / "s"),
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert gone.returncode == 2
    assert json.loads(gone.stdout)["error"]["where"] == "no-such-run"


@pytest.mark.parametrize("command", ["run", "test"])
def test_with_json_a_spec_that_does_not_exist_is_a_json_document_too(tmp_path: Path, command: str) -> None:
    missing = tmp_path / "nonexist.md"
    ran = subprocess.run(
        skillweave_command(command, missing, "--json"),
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 2
    document = json.loads(ran.stdout)
    assert document["ok"] is False and document["error"]["where"] == str(missing)
    assert "no such spec" in document["error"]["message"]
    _no_internal_error(ran.stderr)


def test_a_sandbox_choice_that_names_no_mechanism_is_a_usage_error_before_the_run(tmp_path: Path) -> None:
    ran = subprocess.run(
        skillweave_command("run", _spec(tmp_path), "--state-dir", tmp_path / "s"),
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "SKILLWEAVE_SANDBOX": "bogus"},
    )  # fmt: skip
    assert ran.returncode == 2
    assert "SKILLWEAVE_SANDBOX='bogus' is not a sandbox: use bwrap, unshare, none or auto" in ran.stderr
    assert not (tmp_path / "s" / "journal.db").exists()  # no run was created
    _no_internal_error(ran.stderr)

"""`Sandbox` with a fake spawner: what it sends to the process and what it makes of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError, IsolationError
from orchestrator.sandbox import (
    ENV_SANDBOX,
    FailureKind,
    Isolation,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
    SpawnRequest,
    SpawnResult,
    detect,
    run_script,
)
from orchestrator.sandbox.detect import forced_isolation
from orchestrator.sandbox.host import HostTools, find_runtime
from orchestrator.sandbox.launcher import Layout

LAYOUT = Layout(skill_dir=Path("/s"), entry="m.py", script=Path("/s/m.py"), workdir=Path("/w"))


class FakeSpawner:
    """Records requests; answers with a canned result, optionally writing files first."""

    def __init__(self, result: SpawnResult | None = None, files: dict[str, str] | None = None):
        self.result = result or SpawnResult(returncode=0, started=True, stdout=b'{"ok": true}')
        self.files = files or {}
        self.requests: list[SpawnRequest] = []

    @property
    def runs(self) -> list[SpawnRequest]:
        """The script runs, without the clean-up sweeps made as root with no isolation."""
        return [r for r in self.requests if "-c" in r.argv]

    async def __call__(self, request: SpawnRequest) -> SpawnResult:
        self.requests.append(request)
        if "-c" not in request.argv:
            return SpawnResult(returncode=0)
        for rel, text in self.files.items():
            target = request.workdir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        if request.remove_empty_workdir and not any(request.workdir.iterdir()):
            request.workdir.rmdir()
            return self.result.model_copy(update={"workdir_removed": True})
        return self.result


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SANDBOX, raising=False)
    monkeypatch.delenv("SKILLWEAVE_REQUIRE_ISOLATION", raising=False)


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "scripts" / "main.py").write_text("print('{}')\n")
    skill.chmod(0o755)
    return skill


def _request(skill: Path, tmp_path: Path, **kw: object) -> SandboxRequest:
    values: dict[str, object] = {
        "skill_dir": skill,
        "entry": "scripts/main.py",
        "input": {"q": "é"},
        "workdir_parent": tmp_path / "attempts",
    }
    values.update(kw)
    return SandboxRequest.model_validate(values)


async def test_the_input_goes_to_stdin_as_json_and_the_output_comes_back(
    skill: Path, tmp_path: Path
) -> None:
    spawner = FakeSpawner()
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(_request(skill, tmp_path))
    assert result.ok and result.output == {"ok": True}
    assert result.isolation is Isolation.NONE
    (sent,) = spawner.runs
    assert json.loads(sent.stdin) == {"q": "é"}
    assert any("isolation none" in note for note in result.notes)


async def test_the_script_env_has_the_callers_key_and_none_of_our_secrets(
    skill: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    spawner = FakeSpawner()
    request = _request(skill, tmp_path, env={"SKILLWEAVE_IDEMPOTENCY_KEY": "r/s/1"})
    await Sandbox(force=Isolation.NONE, spawner=spawner).run(request)
    env = spawner.runs[0].env
    assert env["SKILLWEAVE_IDEMPOTENCY_KEY"] == "r/s/1"
    assert "sk-ant-secret" not in json.dumps(env)


async def test_the_limits_reach_the_spawner(skill: Path, tmp_path: Path) -> None:
    spawner = FakeSpawner()
    limits = ResourceLimits(wall_s=3.5, max_stdout_bytes=4096, max_stderr_bytes=2048)
    await Sandbox(force=Isolation.NONE, spawner=spawner).run(
        _request(skill, tmp_path, limits=limits)
    )
    sent = spawner.runs[0]
    assert (sent.wall_s, sent.max_stdout_bytes, sent.max_stderr_bytes) == (3.5, 4096, 2048)


async def test_the_work_directory_is_fresh_and_removed_afterwards(
    skill: Path, tmp_path: Path
) -> None:
    spawner = FakeSpawner(files={"out.txt": "x"})
    sandbox = Sandbox(force=Isolation.NONE, spawner=spawner)
    first = await sandbox.run(_request(skill, tmp_path))
    await sandbox.run(_request(skill, tmp_path))
    one, two = (r.workdir for r in spawner.runs)
    assert one != two
    assert not one.exists() and not two.exists()
    assert [a.path for a in first.artifacts] == ["out.txt"]
    assert first.workdir is None


async def test_an_attempt_with_its_own_tmp_goes_whole_when_the_script_wrote_nothing(
    skill: Path, tmp_path: Path
) -> None:
    spawner = FakeSpawner()
    await Sandbox(force=Isolation.NONE, spawner=spawner).run(_request(skill, tmp_path))
    assert not spawner.runs[0].remove_empty_workdir  # the work directory is not the attempt
    assert list((tmp_path / "attempts").iterdir()) == []


async def test_keep_workdir_leaves_it_for_a_report(skill: Path, tmp_path: Path) -> None:
    spawner = FakeSpawner(files={"out.txt": "x"})
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(
        _request(skill, tmp_path, keep_workdir=True)
    )
    assert result.workdir is not None and (result.workdir / "out.txt").read_text() == "x"


async def test_artifacts_are_copied_to_the_artifact_dir(skill: Path, tmp_path: Path) -> None:
    spawner = FakeSpawner(
        SpawnResult(returncode=0, started=True, stdout=b'{"artifacts": ["r/a.txt"]}'),
        files={"r/a.txt": "data", "other.txt": "no"},
    )
    target = tmp_path / "artifacts"
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(
        _request(skill, tmp_path, artifact_dir=target)
    )
    assert [a.path for a in result.artifacts] == ["r/a.txt"]
    assert (target / "r" / "a.txt").read_text() == "data"
    assert not (target / "other.txt").exists()


@pytest.fixture
def bwrap_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """bwrap as the mechanism, without probing the host for it."""
    monkeypatch.setattr(
        "orchestrator.sandbox.core.find_tools", lambda: HostTools(bwrap=Path("/x/bwrap"))
    )
    monkeypatch.setattr("orchestrator.sandbox.core.working_bwrap", lambda _r, tools, **_: tools)


@pytest.mark.usefixtures("bwrap_here")
async def test_the_spawner_removes_an_empty_work_directory_unless_it_is_kept(
    skill: Path, tmp_path: Path
) -> None:
    spawner = FakeSpawner()
    sandbox = Sandbox(force=Isolation.BWRAP, spawner=spawner)
    result = await sandbox.run(_request(skill, tmp_path))
    kept = await sandbox.run(_request(skill, tmp_path, keep_workdir=True))
    first, second = spawner.runs
    assert first.remove_empty_workdir and not second.remove_empty_workdir
    assert result.ok and result.artifacts == () and result.notes == ()
    assert not first.workdir.exists()
    assert kept.workdir == second.workdir and second.workdir.is_dir()


@pytest.mark.usefixtures("bwrap_here")
async def test_files_named_by_the_output_of_an_empty_run_are_reported_missing(
    skill: Path, tmp_path: Path
) -> None:
    spawner = FakeSpawner(
        SpawnResult(returncode=0, started=True, stdout=b'{"artifacts": ["a.txt"]}')
    )
    result = await Sandbox(force=Isolation.BWRAP, spawner=spawner).run(_request(skill, tmp_path))
    assert result.ok and result.artifacts == ()
    assert result.notes == ("artifact a.txt skipped: no such file",)
    assert not spawner.runs[0].workdir.exists()


async def test_a_failure_is_returned_classified_not_raised(skill: Path, tmp_path: Path) -> None:
    spawner = FakeSpawner(SpawnResult(returncode=1, started=True, stderr_tail=b"KeyError: 'q'\n"))
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(_request(skill, tmp_path))
    assert result.failure is not None and result.failure.kind is FailureKind.CODE_ERROR
    assert result.exit_code == 1 and result.stderr_tail == "KeyError: 'q'\n"


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"entry": "../other/main.py"}, "must be a path inside the skill folder"),
        ({"entry": "/etc/passwd"}, "must be a path inside the skill folder"),
        ({"entry": "scripts/missing.py"}, "does not exist"),
        ({"input": {"x": float("nan")}}, "input is not JSON"),
        ({"input": {"x": object()}}, "input is not JSON"),
    ],
)
async def test_bad_requests_are_setup_failures_and_nothing_is_spawned(
    skill: Path, tmp_path: Path, kw: dict[str, object], says: str
) -> None:
    spawner = FakeSpawner()
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(
        _request(skill, tmp_path, **kw)
    )
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    assert says in result.failure.message
    assert spawner.requests == []


async def test_required_isolation_refuses_to_run_without_it(skill: Path, tmp_path: Path) -> None:
    spawner = FakeSpawner()
    sandbox = Sandbox(require_isolation=True, force=Isolation.NONE, spawner=spawner)
    with pytest.raises(IsolationError, match="isolation is required"):
        await sandbox.run(_request(skill, tmp_path))
    assert spawner.requests == []


async def test_the_environment_variable_also_requires_isolation(
    skill: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLWEAVE_REQUIRE_ISOLATION", "1")
    sandbox = Sandbox(force=Isolation.NONE, spawner=FakeSpawner())
    assert sandbox.require_isolation
    with pytest.raises(IsolationError):
        await run_script(_request(skill, tmp_path), force=Isolation.NONE, spawner=FakeSpawner())


async def test_the_environment_variable_forces_a_mechanism(
    skill: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_SANDBOX, "none")
    assert Sandbox(spawner=FakeSpawner()).isolation is Isolation.NONE


@pytest.mark.parametrize(("value", "expected"), [("", None), ("auto", None), ("BWRAP", "bwrap")])
def test_the_forcing_variable_accepts_mechanisms_and_auto(value: str, expected: str | None) -> None:
    assert forced_isolation({ENV_SANDBOX: value}) == (Isolation(expected) if expected else None)


def test_an_unknown_forced_mechanism_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="bwrap, unshare, none"):
        forced_isolation({ENV_SANDBOX: "docker"})


async def test_a_forced_mechanism_missing_here_fails_each_run_as_setup(
    skill: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orchestrator.sandbox.core.find_tools", lambda: HostTools())
    spawner = FakeSpawner()
    sandbox = Sandbox(force=Isolation.BWRAP, spawner=spawner)
    result = await sandbox.run(_request(skill, tmp_path))
    assert sandbox.isolation is Isolation.BWRAP
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    assert "bwrap is not available" in result.failure.message
    assert spawner.requests == []


async def test_a_required_isolation_that_cannot_run_here_raises(
    skill: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("orchestrator.sandbox.core.find_tools", lambda: HostTools())
    sandbox = Sandbox(require_isolation=True, force=Isolation.UNSHARE, spawner=FakeSpawner())
    with pytest.raises(IsolationError, match="unshare is not available"):
        await sandbox.run(_request(skill, tmp_path))


def test_detection_falls_back_from_the_wheels_bwrap_to_the_systems_then_to_unshare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = {"/wheel/bwrap": "setting up uid map: Permission denied"}
    tools = HostTools(
        bwrap=Path("/wheel/bwrap"),
        system_bwrap=Path("/usr/bin/bwrap"),
        unshare=Path("/usr/bin/unshare"),
    )

    def fake_probe(launcher: object, runtime: object) -> str | None:
        argv = launcher.argv(LAYOUT, ["py"])  # type: ignore[attr-defined]
        return broken.get(argv[0])

    monkeypatch.setattr(detect, "probe", fake_probe)
    launcher, reasons = detect.choose_launcher(find_runtime(), tools, as_root=False)
    assert launcher.isolation is Isolation.BWRAP
    assert launcher.argv(LAYOUT, ["py"])[0] == "/usr/bin/bwrap"
    assert reasons == ("bwrap (/wheel/bwrap) unavailable: setting up uid map: Permission denied",)
    assert detect.working_bwrap(find_runtime(), tools, as_root=False).bwrap == Path(
        "/usr/bin/bwrap"
    )

    broken["/usr/bin/bwrap"] = "no user namespaces"
    launcher, reasons = detect.choose_launcher(find_runtime(), tools, as_root=False)
    assert launcher.isolation is Isolation.UNSHARE
    assert len(reasons) == 2


async def test_a_work_directory_that_cannot_be_made_is_a_setup_failure(
    skill: Path, tmp_path: Path
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    spawner = FakeSpawner()
    result = await Sandbox(force=Isolation.NONE, spawner=spawner).run(
        _request(skill, tmp_path, workdir_parent=not_a_folder)
    )
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    assert "cannot make a work directory" in result.failure.message
    assert spawner.requests == []

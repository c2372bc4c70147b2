"""The script's environment is an allowlist plus the caller's non-secret extras."""

from __future__ import annotations

import pytest

from orchestrator.sandbox.environment import FIXED_ENV, build_env


def test_nothing_of_the_parent_environment_reaches_the_script(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret")
    monkeypatch.setenv("HOME", "/home/someone")
    env, notes = build_env({}, home="/work", tmpdir="/tmp")
    assert "ANTHROPIC_API_KEY" not in env and "GITHUB_TOKEN" not in env
    assert env["HOME"] == "/work"
    assert set(env) == {*FIXED_ENV, "HOME", "TMPDIR"}
    assert notes == ()


def test_the_fixed_environment_pins_locale_hash_seed_and_bytecode() -> None:
    env, _ = build_env({}, home="/work", tmpdir="/tmp")
    assert env["LC_ALL"] == "C.UTF-8"
    assert env["PYTHONHASHSEED"] == "0"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"


def test_the_callers_extras_are_passed_including_our_own_key_names() -> None:
    extra = {"SKILLWEAVE_IDEMPOTENCY_KEY": "run1/step/1", "REGION": "eu"}
    env, notes = build_env(extra, home="/work", tmpdir="/tmp")
    assert env["SKILLWEAVE_IDEMPOTENCY_KEY"] == "run1/step/1"
    assert env["REGION"] == "eu"
    assert notes == ()


@pytest.mark.parametrize(
    "name", ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY"]
)
def test_extras_that_look_like_credentials_are_dropped_and_reported(name: str) -> None:
    env, notes = build_env({name: "x"}, home="/work", tmpdir="/tmp")
    assert name not in env
    assert notes == (f"environment variable {name} dropped: it looks like a secret",)


@pytest.mark.parametrize(("name", "value"), [("BAD-NAME", "x"), ("OK", "a\0b"), ("", "x")])
def test_invalid_names_or_values_are_dropped(name: str, value: str) -> None:
    env, notes = build_env({name: value}, home="/work", tmpdir="/tmp")
    assert name not in env
    assert len(notes) == 1 and "not a valid name or value" in notes[0]

"""The kind registry: built-in and installed kinds through one door, loaded lazily."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from orchestrator.errors import SkillError
from orchestrator.kinds import GROUP, BuiltinKind, KindFields, KindMetadata, KindRegistry, SkillKind
from orchestrator.kinds import registry as registry_module
from orchestrator.skills import load_skill


class EchoKind(SkillKind):
    name = "echo"
    keys = ("volume",)

    def read(self, meta: KindMetadata) -> KindFields:
        return KindFields(params={"volume": meta.text("volume") or "low"})


class BrokenReader(SkillKind):
    name = "broken"

    def read(self, meta: KindMetadata) -> KindFields:
        raise RuntimeError("boom")


NOT_A_KIND = object()
MISNAMED = EchoKind()


def installed(*points: tuple[str, str]) -> KindRegistry:
    return KindRegistry(installed=[EntryPoint(name, f"{__name__}:{attr}", GROUP) for name, attr in points])


def test_the_built_in_kinds_are_registered_under_their_names() -> None:
    registry = KindRegistry(installed=[])
    assert registry.names() == ("http", "llm", "mcp", "script")
    assert [k.name for k in registry.all()] == ["http", "llm", "mcp", "script"]
    assert {str(k) for k in BuiltinKind} - {"instructions"} == set(registry.names())


def test_a_built_in_name_is_found_without_reading_the_installed_distributions(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    monkeypatch.setattr(registry_module, "entry_points", lambda **kw: read.append(kw["group"]) or [])
    registry = KindRegistry()
    assert registry.get("script") is not None
    assert read == []
    assert registry.get("shout") is None
    assert read == [GROUP]


def test_an_installed_kind_is_loaded_from_its_entry_point_class_or_instance() -> None:
    registry = installed(("echo", "EchoKind"))
    kind = registry.get("echo")
    assert isinstance(kind, EchoKind) and registry.get("echo") is kind
    assert registry.names() == ("echo", "http", "llm", "mcp", "script")


def test_an_installed_kind_cannot_take_a_built_in_name() -> None:
    registry = installed(("script", "EchoKind"))
    kind = registry.get("script")
    assert kind is not None and kind.traits.regenerable  # still the built-in script kind


@pytest.mark.parametrize(
    ("point", "why"),
    [
        (("ghost", "NoSuchName"), "cannot load it: AttributeError"),
        (("thing", "NOT_A_KIND"), "is not a skill kind"),
        (("loud", "MISNAMED"), "names itself 'echo', not 'loud'"),
    ],
)
def test_a_kind_that_does_not_load_is_left_out_with_the_reason(point: tuple[str, str], why: str) -> None:
    registry = installed(point)
    assert registry.get(point[0]) is None
    assert why in registry.problems[point[0]]


def _skill(tmp_path: Path, keys: str) -> Path:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: s\ndescription: d\nmetadata:\n{keys}---\nBody.\n")
    return folder


def test_a_plugin_kind_reads_its_own_keys_into_the_bound_skill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = installed(("echo", "EchoKind"))
    monkeypatch.setattr(registry_module, "kind_registry", lambda: registry)
    monkeypatch.setattr("orchestrator.skills.extension.kind_registry", lambda: registry)
    bound = load_skill(_skill(tmp_path, "  skillweave.kind: echo\n  skillweave.volume: high\n")).bound()
    assert (bound.kind, bound.params) == ("echo", {"volume": "high"})


def test_a_plugin_kind_whose_reader_raises_refuses_the_skill_not_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = installed(("broken", "BrokenReader"))
    monkeypatch.setattr("orchestrator.skills.extension.kind_registry", lambda: registry)
    with pytest.raises(SkillError, match="the broken kind could not read the skill's keys: RuntimeError: boom"):
        load_skill(_skill(tmp_path, "  skillweave.kind: broken\n"))

"""The compiled-plan cache: a hit is the compile's plan, and any change to what compile reads is a miss."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from orchestrator import compile_cache
from orchestrator.compile import compile_spec
from orchestrator.config import FileCaps, Settings, load_settings
from orchestrator.errors import SpecError
from orchestrator.skills.catalog import _sources as catalog_sources

REPO = Path(__file__).resolve().parents[2]

SPEC = """# Doubling

## Intent
Double a number.

## Inputs
- n (integer): the number

## Workflow Steps

### Step 1: Double
- Skill: `doubler`
- Input: n
- Output: result (integer)
"""

SKILL = """---
name: doubler
description: Doubles n.
metadata:
  skillweave.kind: script
  skillweave.entry: scripts/main.py
  skillweave.input-schema: schemas/input.json
---
Doubles n.
"""

INPUT_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A spec, its skill (with a schema file) and a broken skill beside it (a warning), and a
    cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(compile_cache.ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    skill = tmp_path / "skills" / "doubler"
    (skill / "scripts").mkdir(parents=True)
    (skill / "schemas").mkdir()
    (skill / "SKILL.md").write_text(SKILL)
    (skill / "scripts" / "main.py").write_text("import json, sys\nprint(json.dumps({'result': 2}))\n")
    (skill / "schemas" / "input.json").write_text(json.dumps(INPUT_SCHEMA))
    broken = tmp_path / "skills" / "broken"
    broken.mkdir()
    (broken / "SKILL.md").write_text("---\nname: [unclosed\n---\n")
    (tmp_path / "spec.md").write_text(SPEC)
    return tmp_path


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The compiles that actually ran (not answered by the cache)."""
    import orchestrator.compile

    ran: list[Path] = []
    real = orchestrator.compile.compile_spec

    def counted(path: Path, settings: Settings, **kwargs: object) -> object:
        ran.append(path)
        return real(path, settings, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(orchestrator.compile, "compile_spec", counted)
    yield ran


def entries(project: Path) -> list[Path]:
    return sorted((project / "cache" / "skillweave" / "plans").glob("*.json"))


def test_a_hit_gives_the_plan_and_warnings_a_compile_gives(project: Path, compiles: list[Path]) -> None:
    spec = project / "spec.md"
    compiled = compile_spec(spec, Settings())

    first = compile_cache.compile_cached(spec, Settings())
    second = compile_cache.compile_cached(spec, Settings())

    assert compiles == [spec]  # the second came from the cache
    assert first == compiled and second == compiled
    assert second.sha256 == compiled.sha256
    assert [w.code for w in second.warnings] == [w.code for w in compiled.warnings]
    assert any("broken" in (w.file or "") for w in second.warnings)  # the broken skill's warning is kept


def test_the_cache_folder_is_private_and_its_entries_are_the_users_own(project: Path) -> None:
    compile_cache.compile_cached(project / "spec.md", Settings())

    [entry] = entries(project)
    assert (entry.parent.stat().st_mode & 0o777) == 0o700
    assert (entry.parent.parent.stat().st_mode & 0o777) == 0o700
    assert (entry.stat().st_mode & 0o777) == 0o600
    assert not [p for p in entry.parent.iterdir() if p.name.startswith(".entry-")]  # no temporary file left


def _append(path: Path, text: str) -> None:
    with path.open("a") as out:
        out.write(text)


CHANGES: dict[str, Callable[[Path, pytest.MonkeyPatch], object]] = {
    "a byte of the spec": lambda p, mp: _append(p / "spec.md", " "),
    "a byte of a SKILL.md": lambda p, mp: _append(p / "skills" / "doubler" / "SKILL.md", "\n"),
    "a schema file": lambda p, mp: (p / "skills" / "doubler" / "schemas" / "input.json").write_text(
        json.dumps({**INPUT_SCHEMA, "description": "n"})),
    "a script of a skill": lambda p, mp: _append(p / "skills" / "doubler" / "scripts" / "main.py", "\n"),
    "a new skill folder": lambda p, mp: (p / "skills" / "other").mkdir(),
    "the lockfile appears": lambda p, mp: (p / "spec.md.lock.json").write_text("{}"),
    "an env skills path": lambda p, mp: mp.setenv("SKILLWEAVE_SKILLS_PATH", str(p / "more")),
    "an env variable": lambda p, mp: mp.setenv("SKILLWEAVE_MAX_SPEC_BYTES", "200000"),
    "the working directory": lambda p, mp: mp.chdir(p / "skills"),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_change_to_anything_compile_reads_is_a_miss(
    project: Path, compiles: list[Path], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    monkeypatch.setenv("SKILLWEAVE_SKILLS_PATH", "")
    monkeypatch.setenv("SKILLWEAVE_MAX_SPEC_BYTES", str(Settings().caps.spec_bytes))
    spec = project / "spec.md"
    compile_cache.compile_cached(spec, load_settings())
    before = compile_cache.cache_key(spec, load_settings())
    assert before is not None

    CHANGES[change](project, monkeypatch)
    compile_cache.compile_cached(spec, load_settings())

    assert compile_cache.cache_key(spec, load_settings()) != before
    assert len(compiles) == 2  # compiled again, not read back


def test_a_changed_lockfile_and_each_settings_part_change_the_key(project: Path) -> None:
    spec = project / "spec.md"
    (project / "spec.md.lock.json").write_text("{}")
    base = compile_cache.cache_key(spec, Settings())
    (project / "spec.md.lock.json").write_text("{} ")
    assert compile_cache.cache_key(spec, Settings()) != base
    base = compile_cache.cache_key(spec, Settings())
    others = [
        Settings(skills_dirs=(project / "skills",)),
        Settings(mcp_config=project / "mcp.json"),
        Settings(model="another-model"),
        Settings(api_key="k"),
        Settings(caps=FileCaps(spec_bytes=123_456)),
    ]
    keys = {compile_cache.cache_key(spec, s) for s in others}
    assert base not in keys and len(keys) == len(others)
    # what no compile reads leaves the key alone: a new state folder each run still hits
    assert compile_cache.cache_key(spec, Settings(state_dir=project / "elsewhere", debug=True)) == base


def test_the_catalog_folders_are_hashed_in_the_catalogs_own_order(project: Path) -> None:
    settings = Settings(skills_dirs=(project / "a",), env_skills_dirs=(project / "b",))
    spec = project / "spec.md"

    ours = [(origin, path) for origin, path in compile_cache._sources(settings, spec)]

    assert ours == [(origin, path) for path, origin in catalog_sources(settings, spec)]


@pytest.mark.parametrize("damage", ["garbage", "another key", "a plan not matching its hash", "oversized",
                                    "another user's", "a symlink"])
def test_a_broken_or_foreign_entry_is_ignored_and_compiled_again(
    project: Path, compiles: list[Path], monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    spec = project / "spec.md"
    good = compile_cache.compile_cached(spec, Settings())
    [entry] = entries(project)
    data = json.loads(entry.read_text())
    if damage == "garbage":
        entry.write_bytes(b"\x00not json")
    elif damage == "another key":
        entry.write_text(json.dumps({**data, "key": "0" * 64}))
    elif damage == "a plan not matching its hash":
        entry.write_text(json.dumps({**data, "plan": data["plan"].replace("doubler", "tripler")}))
    elif damage == "oversized":
        monkeypatch.setattr(compile_cache, "MAX_ENTRY_BYTES", entry.stat().st_size - 1)
    elif damage == "another user's":
        os.chown(entry, os.getuid() + 4242, -1)
    else:
        moved = entry.with_name("elsewhere")
        entry.rename(moved)
        entry.symlink_to(moved)

    again = compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2
    assert again == good


def test_a_folder_others_can_read_is_not_used(project: Path, compiles: list[Path]) -> None:
    spec = project / "spec.md"
    compile_cache.compile_cached(spec, Settings())
    (project / "cache" / "skillweave" / "plans").chmod(0o755)

    compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2


def test_the_cache_can_be_turned_off(project: Path, compiles: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compile_cache.ENV, "0")
    spec = project / "spec.md"

    compile_cache.compile_cached(spec, Settings())
    compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2
    assert not (project / "cache" / "skillweave").exists()


def test_inputs_too_many_to_hash_are_not_cached(project: Path, compiles: list[Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_cache, "MAX_FILES", 3)
    spec = project / "spec.md"

    assert compile_cache.cache_key(spec, Settings()) is None
    compile_cache.compile_cached(spec, Settings())
    compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2 and not entries(project)


def test_a_compile_that_asked_a_server_for_schemas_is_not_stored(project: Path, compiles: list[Path]) -> None:
    bare = project / "skills" / "bare-docs"
    bare.mkdir()
    (bare / "SKILL.md").write_text(
        "---\nname: bare-docs\ndescription: Docs, schemas from the tool.\nmetadata:\n  skillweave.kind: mcp\n"
        "  skillweave.server: gone\n  skillweave.tool: get_docs\n---\nCall get_docs.\n")
    (project / "mcp.json").write_text(json.dumps({"mcpServers": {"gone": {"command": str(project / "nothing")}}}))
    spec = project / "spec.md"
    spec.write_text(SPEC.replace("`doubler`", "`bare-docs`"))

    first = compile_cache.compile_cached(spec, Settings())
    second = compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2 and not entries(project)  # the server was asked each time
    assert "mcp-schema" in [w.code for w in first.warnings] == [w.code for w in second.warnings]


def test_an_error_is_raised_each_time_and_never_stored(project: Path, compiles: list[Path]) -> None:
    spec = project / "spec.md"
    spec.write_text("# Nothing\n")

    for _ in range(2):
        with pytest.raises(SpecError):
            compile_cache.compile_cached(spec, Settings())

    assert len(compiles) == 2 and not entries(project)


def test_a_hit_imports_no_spec_reader_catalog_or_plan_builder(project: Path) -> None:
    program = (
        "import sys\nfrom pathlib import Path\nfrom orchestrator.compile_cache import compile_cached\n"
        "from orchestrator.config import Settings\n"
        "compile_cached(Path('spec.md'), Settings())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('orchestrator.spec', 'orchestrator.skills', "
        "'orchestrator.compile', 'orchestrator.plan.build', 'markdown_it', 'yaml'))))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def loaded() -> list[str]:
        done = subprocess.run([sys.executable, "-c", program], cwd=project, env=env, capture_output=True,
                              text=True, timeout=120, check=True)
        return list(json.loads(done.stdout.replace("'", '"')))

    missed = loaded()
    hit = loaded()

    assert "orchestrator.spec.markdown" in missed  # the first compiled
    assert hit == ["orchestrator.compile_cache"]


class _FakePlanner:
    """Stands in for the LLM tie-breaker (`llm.chooser.PlannerChooser`): picks the first candidate."""

    def __init__(self, make_llm: object) -> None:
        del make_llm

    def __call__(self, step: object, tied: tuple[Any, ...]) -> str:
        return str(tied[0].name)

    def close(self) -> None:
        pass


def test_a_compile_that_put_a_tie_to_the_model_is_not_stored(
    project: Path, compiles: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import orchestrator.llm.chooser

    monkeypatch.setattr(orchestrator.llm.chooser, "PlannerChooser", _FakePlanner)
    for name in ("tidy-contacts", "fix-contacts"):
        folder = project / "skills" / name
        (folder / "scripts").mkdir(parents=True)
        (folder / "scripts" / "main.py").write_text("print('{}')\n")
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Works on contacts.\nmetadata:\n"
                                         "  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n---\nBody.\n")
    spec = project / "spec.md"
    spec.write_text("# Tie\n\n## Intent\nShow a tie.\n\n## Workflow Steps\n\n### Step 1: Contacts\n"
                    "- Skill: script-execution skill for contacts\n- Output: result (object)\n")
    settings = Settings(api_key="not-sent")

    first = compile_cache.compile_cached(spec, settings)
    compile_cache.compile_cached(spec, settings)

    assert first.steps[0].provenance["skill"].source == "llm"
    assert len(compiles) == 2 and not entries(project)

"""One frozen settings model, built once at the edge: flags > environment > defaults."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import ConfigError

ENV_STATE_DIR = "SKILLWEAVE_STATE_DIR"
ENV_SKILLS_PATH = "SKILLWEAVE_SKILLS_PATH"
ENV_MODEL = "SKILLWEAVE_MODEL"
ENV_REQUIRE_ISOLATION = "SKILLWEAVE_REQUIRE_ISOLATION"
ENV_BASE_URL = "ANTHROPIC_BASE_URL"
ENV_API_KEY = "ANTHROPIC_API_KEY"
ENV_MAX_SPEC_BYTES = "SKILLWEAVE_MAX_SPEC_BYTES"
ENV_MAX_DATA_BYTES = "SKILLWEAVE_MAX_DATA_BYTES"

DEFAULT_MODEL = "claude-sonnet-5-5"  # claude-sonnet-4-5 reaches end of life on 2026-11-30


class FileCaps(BaseModel):
    """The largest files skillweave reads (see `filecap`).

    `spec_bytes`: a spec, a SKILL.md, a skill's schema file. `data_bytes`: an
    `--input-file`, an `--llm-replay` recording, a saved plan."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spec_bytes: int = Field(default=1 << 20, gt=0)
    data_bytes: int = Field(default=64 << 20, gt=0)


_SIZE = re.compile(r"\s*(\d+)\s*(k|m|g)?(?:i?b)?\s*", re.I)


def _size(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name)
    if not raw:
        return None
    m = _SIZE.fullmatch(raw)
    if m is None or int(m.group(1)) == 0:
        raise ConfigError(f"{raw!r} is not a size in bytes (1048576, 512K, 4M, 1G)", where=name)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[(m.group(2) or "").lower()]


def file_caps(env: Mapping[str, str] | None = None) -> FileCaps:
    """The caps from SKILLWEAVE_MAX_SPEC_BYTES / SKILLWEAVE_MAX_DATA_BYTES, else the defaults."""
    env = os.environ if env is None else env
    values = {key: size for key, name in (("spec_bytes", ENV_MAX_SPEC_BYTES), ("data_bytes", ENV_MAX_DATA_BYTES))
              if (size := _size(env, name)) is not None}
    return FileCaps.model_validate(values)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    state_dir: Path = Path(".skillweave")
    skills_dirs: tuple[Path, ...] = ()  # --skills-dir, in order
    env_skills_dirs: tuple[Path, ...] = ()  # SKILLWEAVE_SKILLS_PATH, in order
    mcp_config: Path | None = None
    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    max_tokens: int = 8192
    temperature: float = 0.0
    require_isolation: bool = False
    require_trust: bool = False  # start commands only from trusted mcp.json files (`skillweave serve`)
    llm_record: Path | None = None
    llm_replay: Path | None = None
    promote: bool = False
    debug: bool = False
    caps: FileCaps = FileCaps()


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def load_settings(env: Mapping[str, str] | None = None, **flags: object) -> Settings:
    """Build settings: explicit flags (not None) win over the environment, then defaults."""
    env = os.environ if env is None else env
    values: dict[str, object] = {}
    if env.get(ENV_STATE_DIR):
        values["state_dir"] = Path(env[ENV_STATE_DIR])
    if env.get(ENV_MODEL):
        values["model"] = env[ENV_MODEL]
    if env.get(ENV_BASE_URL):
        values["base_url"] = env[ENV_BASE_URL]
    if env.get(ENV_API_KEY):
        values["api_key"] = env[ENV_API_KEY]
    if _truthy(env.get(ENV_REQUIRE_ISOLATION)):
        values["require_isolation"] = True
    values["caps"] = file_caps(env)
    values["env_skills_dirs"] = tuple(
        Path(p) for p in env.get(ENV_SKILLS_PATH, "").split(os.pathsep) if p
    )
    for key, value in flags.items():
        if value is not None:
            values[key] = value
    return Settings.model_validate(values)

"""One frozen settings model, built once at the edge: flags > environment > defaults."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

ENV_STATE_DIR = "SKILLWEAVE_STATE_DIR"
ENV_SKILLS_PATH = "SKILLWEAVE_SKILLS_PATH"
ENV_MODEL = "SKILLWEAVE_MODEL"
ENV_REQUIRE_ISOLATION = "SKILLWEAVE_REQUIRE_ISOLATION"
ENV_BASE_URL = "ANTHROPIC_BASE_URL"
ENV_API_KEY = "ANTHROPIC_API_KEY"

DEFAULT_MODEL = "claude-sonnet-5-5"  # claude-sonnet-4-5 reaches end of life on 2026-11-30


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
    values["env_skills_dirs"] = tuple(
        Path(p) for p in env.get(ENV_SKILLS_PATH, "").split(os.pathsep) if p
    )
    for key, value in flags.items():
        if value is not None:
            values[key] = value
    return Settings.model_validate(values)

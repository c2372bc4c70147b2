"""Where the bundled skills, prompts and specs live, in a checkout and in a wheel.

In a wheel they are copied under `orchestrator/_bundled/`; in a source checkout
(or an editable install) they sit at the repository root beside the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """Path of a bundled folder: `skills`, `prompts` or `specs`."""
    inside = _PACKAGE / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def skills_dir() -> Path:
    return bundled("skills")


def prompts_dir() -> Path:
    return bundled("prompts")


def specs_dir() -> Path:
    return bundled("specs")

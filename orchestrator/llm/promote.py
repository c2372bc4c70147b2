"""`--promote`: write a repaired script back into its skill folder, only when asked.

A run keeps every version in its run directory; promotion copies the one that
succeeded over the skill's entry script. It refuses to overwrite a script that
changed since the run read it (someone edited it meanwhile), and writes through
a temporary file and a rename, so a crash never leaves half a script.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from orchestrator.errors import ConfigError


def promote_script(
    skill_dir: Path, entry: str, code: str, *, original_sha256: str | None = None
) -> Path:
    """Write `code` to `skill_dir/entry` and return that path.

    `original_sha256` is the hash of the script the run started from (None: the
    skill had no script, so the file must not exist yet).
    """
    root = skill_dir.resolve()
    target = (root / entry).resolve()
    if not target.is_relative_to(root):
        raise ConfigError(f"entry {entry!r} is outside the skill folder", where=str(skill_dir))
    if target.exists():
        current = hashlib.sha256(target.read_bytes()).hexdigest()
        if current != original_sha256:
            raise ConfigError(
                "not promoted: the script changed since the run read it (compare it with the run's versions)",
                where=str(target),
            )
    elif original_sha256 is not None:
        raise ConfigError(
            "not promoted: the script the run started from is gone", where=str(target)
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(code)
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target

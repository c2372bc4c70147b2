"""Regenerated code versions: ask the regenerator, keep each version and its diff (the acting side).

`make_version` is what a backend does for `Backend.regenerate`: it reads the
skill's instructions and the code in use, asks the regenerator, and writes the
new version and its diff under `code/<step>/v<N>-<sha12>/` of the run
directory, before the `regeneration` event that names them is recorded. It
never raises: a rejected key or a replay miss makes regeneration *unavailable*
(nothing spent), any other error of the regenerator a *refused* answer.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable
from pathlib import Path

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.engine.backend import RegenerationCall, RegenerationReply
from orchestrator.errors import LLMAuthError, ReplayMissError, SkillweaveError
from orchestrator.filecap import read_capped
from orchestrator.kinds import BoundSkill
from orchestrator.runner import RegenerationRequest, RegenerationResult, Regenerator

WriteFile = Callable[[str, bytes], object]  # (path relative to the run dir, data)


def _read(path: Path) -> str:
    """A skill file, read as a regular file under the spec cap (see `filecap`)."""
    return read_capped(path, file_caps().spec_bytes, ENV_MAX_SPEC_BYTES).decode("utf-8", "replace")


def instructions(skill: BoundSkill) -> str:
    """The SKILL.md body, without its frontmatter."""
    try:
        text = _read(Path(skill.path) / "SKILL.md")
    except OSError:  # gone, or no longer a regular file under the cap
        return skill.description
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            return text[end + 4 :].lstrip("\n")
    return text


def current_code(run_dir: Path, skill: BoundSkill, code_path: str | None) -> str | None:
    """The code in use: the regenerated version, else the skill's entry (None: there is none)."""
    path = run_dir / code_path if code_path else (Path(skill.path) / skill.entry if skill.entry else None)
    if path is None:
        return None
    try:
        return _read(path)
    except OSError:
        return None


async def make_version(
    regenerator: Regenerator, call: RegenerationCall, run_id: str, run_dir: Path, write: WriteFile
) -> RegenerationReply:
    """Ask `regenerator` for a new version (see the module docstring)."""
    skill = call.skill
    current = current_code(run_dir, skill, call.code_path)
    request = RegenerationRequest(
        run_id=run_id, step_id=call.step_id, attempt=call.attempt, skill=skill,
        instructions=instructions(skill), current_code=current, current_path=skill.entry,
        failing_input=call.failing_input, failure=call.failure, feedback=call.feedback,
        input_schema=call.input_schema, output_schema=call.output_schema,
        history=call.history, tokens_left=call.tokens_left,
    )
    try:
        result = await regenerator.regenerate(request)
    except (LLMAuthError, ReplayMissError) as exc:
        return RegenerationReply(unavailable=f"regeneration is unavailable: {exc.explain(where=False)}")
    except SkillweaveError as exc:  # the step and attempt are named by the event already
        result = RegenerationResult(code=None, rejected=exc.message)
    except Exception as exc:  # a regenerator's bug: a refused regeneration, not a run left running
        result = RegenerationResult(code=None, rejected=f"the regenerator failed: {type(exc).__name__}: {exc}")
    if not result.code:
        return RegenerationReply(rejected=result.rejected or "the answer held no code", usage=result.usage)
    sha = result.code_sha256 or hashlib.sha256(result.code.encode()).hexdigest()
    name = Path(skill.entry).name if skill.entry else "main.py"
    folder = f"code/{call.step_id}/v{call.version}-{sha[:12]}"
    diff = result.diff or "".join(
        difflib.unified_diff(
            (current or "").splitlines(keepends=True), result.code.splitlines(keepends=True),
            fromfile=f"a/{skill.entry or name}", tofile=f"b/{skill.entry or name}",
        )
    )
    entry_file = Path(skill.path) / skill.entry if skill.entry else None
    entry_sha = (
        hashlib.sha256(entry_file.read_bytes()).hexdigest() if entry_file is not None and entry_file.is_file() else None
    )
    write(f"{folder}/{name}", result.code.encode())
    write(f"{folder}/{name}.diff", diff.encode())
    return RegenerationReply(
        code_sha256=sha, code_path=f"{folder}/{name}", diff_path=f"{folder}/{name}.diff",
        entry_sha256=entry_sha, usage=result.usage, code=result.code, diff=diff,
    )

"""A `.json` file: a plan `skillweave plan --format json` saved, or a spec in the author's own JSON.

A saved plan is a JSON object with `spec` and `steps` and the plan `format` number; any other JSON
document is YAML (JSON is a subset of it) and is read as a spec by the YAML form and its dialect
readers (`yaml_form`, `own_schema`), so `pipeline: [{id, script, args, after}]` in a file the
author's tools write is read like the same keys in a .yaml file. `is_saved_plan` chooses, for the
commands that take either (`plan`, `run`, `test`, the MCP server); a file that is not JSON at all
is left to the plan loader, which says where it breaks.
"""

from __future__ import annotations

import json
from pathlib import Path

from orchestrator.errors import Diagnostic, SpecError


def _plan_like(data: object) -> bool:
    return isinstance(data, dict) and "steps" in data and "spec" in data and (
        "format" in data or "sha256" in data or isinstance(data.get("spec"), dict))


def is_saved_plan(path: Path) -> bool:
    """True for a `.json` file that holds a saved plan, or that cannot be read as JSON (the plan
    loader then says why); False for a JSON document of another shape (a spec) and other files."""
    if path.suffix.lower() != ".json":
        return False
    from orchestrator.config import ENV_MAX_DATA_BYTES, file_caps
    from orchestrator.filecap import read_capped

    try:
        data = json.loads(read_capped(path, file_caps().data_bytes, ENV_MAX_DATA_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):  # FileCapError is an OSError
        return True
    return _plan_like(data)


def refuse_plan(text: str, path: str) -> None:
    """A SpecError when `text` is a saved plan (give it to `plan` or `run`, it is no spec) or is not
    JSON at all (at the line it breaks); nothing when it is a JSON document to read as a spec."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(Diagnostic(file=path, line=exc.lineno, code="spec.json",
                                   message=f"the .json file is not JSON: {exc.msg} (a spec in JSON is one object "
                                           "with its steps; a spec in YAML is named .yaml)")) from None
    except (ValueError, RecursionError):
        raise SpecError(Diagnostic(file=path, line=1, code="spec.json",
                                   message="the .json file cannot be read as JSON")) from None
    if _plan_like(data):
        raise SpecError(Diagnostic(file=path, line=1, code="spec.suffix",
                                   message="this .json file is a skillweave plan, not a spec: it is planned and run "
                                           "as it is, not validated as a spec"))
    if not isinstance(data, dict):
        raise SpecError(Diagnostic(file=path, line=1, code="spec.no-steps",
                                   message="the .json file is neither a skillweave plan nor a spec: a spec in JSON "
                                           "is one object that holds its steps (`steps`, `pipeline`, `jobs` ...)"))

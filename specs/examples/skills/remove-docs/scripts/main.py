#!/usr/bin/env python3
"""remove-docs: delete the docs page a module's docs step wrote; idempotent.

JSON on stdin ({"module_name": ..., "files": [...]}, or as a compensation {"step", "input",
"output"} of the step that wrote the page) and on stdout ({"removed": [...]}).
Exit 0 on success, 2 when the input is unusable, 1 for anything else.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from pathlib import Path, PurePosixPath
from typing import Any

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class InputError(Exception):
    """The input cannot be used: exit 2."""


def read_request(raw: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"input is not JSON: {exc.msg} (line {exc.lineno})") from exc
    if not isinstance(data, dict):
        raise InputError("input must be a JSON object")
    data = unwrap(data)
    if not isinstance(data.get("module_name"), str) or not _MODULE.match(data["module_name"]):
        raise InputError("module_name must be a dotted module name")
    files = data.get("files")
    if files is not None and not (isinstance(files, list) and all(isinstance(f, str) for f in files)):
        raise InputError("files must be a list of relative paths")
    return data


def unwrap(data: dict[str, Any]) -> dict[str, Any]:
    """As a compensation it gets {step, input, output} of the step it undoes: the module
    comes from that step's input and the files from its output."""
    if "step" not in data or not isinstance(data.get("input"), dict):
        return data
    request = dict(data["input"])
    output = data.get("output")
    if isinstance(output, dict) and output.get("files") and "files" not in request:
        request["files"] = output["files"]
    return request


def targets(request: dict[str, Any]) -> list[PurePosixPath]:
    names = request.get("files") or [f"docs/{request['module_name']}.md"]
    paths = [PurePosixPath(n) for n in names]
    for path in paths:
        if path.is_absolute() or ".." in path.parts:
            raise InputError(f"refusing to delete {path}: only relative paths inside the work directory")
    return paths


def run(request: dict[str, Any]) -> dict[str, Any]:
    removed: list[str] = []
    for path in targets(request):
        file = Path(path)
        if file.is_file():
            file.unlink()
            removed.append(str(path))
    return {"removed": removed}


def main() -> int:
    try:
        result = run(read_request(sys.stdin.read()))
    except InputError as exc:
        print(f"remove-docs: {exc}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        return 1
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

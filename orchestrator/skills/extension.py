"""The `skillweave.*` metadata keys: what the orchestrator needs beyond the Agent Skills spec.

    metadata:
      skillweave.kind: script            # script | mcp | llm
      skillweave.entry: scripts/main.py  # script (may not exist yet: the LLM writes it)
      skillweave.input-schema: schemas/input.json
      skillweave.output-schema: schemas/output.json
      skillweave.server: docs            # mcp
      skillweave.tool: get_docs          # mcp
      skillweave.timeout: "30"           # seconds per attempt
      skillweave.network: deny           # script: deny (default) | allow

A skill without any of them is an instructions-only skill, for hosts.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema_rs

from orchestrator.kinds import BuiltinKind
from orchestrator.skills.conformance import Finding
from orchestrator.skills.frontmatter import Entry, Frontmatter
from orchestrator.skills.model import DEFAULT_ENTRY

PREFIX = "skillweave."
KEYS = ("kind", "entry", "input-schema", "output-schema", "server", "tool", "timeout", "network")
RUNNABLE_KINDS = (BuiltinKind.SCRIPT, BuiltinKind.MCP, BuiltinKind.LLM)
# Which keys mean something for which kind; the others are reported as ignored.
_KIND_KEYS: dict[BuiltinKind, frozenset[str]] = {
    BuiltinKind.SCRIPT: frozenset(
        ("kind", "entry", "input-schema", "output-schema", "timeout", "network")
    ),
    BuiltinKind.MCP: frozenset(
        ("kind", "input-schema", "output-schema", "server", "tool", "timeout")
    ),
    BuiltinKind.LLM: frozenset(("kind", "input-schema", "output-schema", "timeout")),
}


@dataclass(slots=True)
class Extension:
    """The resolved `skillweave.*` settings of one skill, and what was wrong with them."""

    kind: BuiltinKind = BuiltinKind.INSTRUCTIONS
    entry: str | None = None
    server: str | None = None
    tool: str | None = None
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    network: bool = False
    timeout_s: float | None = None
    files: list[Path] = field(default_factory=list)  # the files the skill's hash covers
    findings: list[Finding] = field(default_factory=list)

    def problem(
        self,
        line: int | None,
        message: str,
        code: str,
        *,
        advisory: bool = False,
        file: Path | None = None,
    ) -> None:
        self.findings.append(
            Finding(
                line,
                message,
                f"skillweave-{code}",
                breaks=frozenset(),
                ours=True,
                advisory=advisory,
                file=file,
            )
        )


def read_extension(fm: Frontmatter, folder: Path) -> Extension:
    """Resolve and check the skill's `skillweave.*` keys."""
    ext = Extension()
    metadata = fm.get("metadata")
    if metadata is None or not metadata.is_mapping:
        return ext
    ours = {c.key[len(PREFIX) :]: c for c in metadata.children if c.key.startswith(PREFIX)}
    if not ours:
        return ext
    for key, entry in ours.items():
        if key not in KEYS:
            near = difflib.get_close_matches(key, KEYS, n=1)
            hint = (
                f" (did you mean '{PREFIX}{near[0]}'?)" if near else f" (known: {', '.join(KEYS)})"
            )
            ext.problem(entry.line, f"unknown key '{PREFIX}{key}'{hint}", "unknown-key")
    kind_entry = ours.get("kind")
    if kind_entry is None:
        ext.problem(
            metadata.line, f"'{PREFIX}kind' is missing (script, mcp or llm)", "kind-missing"
        )
        return ext
    try:
        kind = BuiltinKind(metadata_text(kind_entry))
    except ValueError:
        kind = None
    if kind not in RUNNABLE_KINDS:
        ext.problem(
            kind_entry.line,
            f"'{PREFIX}kind' '{metadata_text(kind_entry)}' is not script, mcp or llm",
            "kind",
        )
        return ext
    assert kind is not None
    ext.kind = kind
    for key, entry in ours.items():
        if key in KEYS and key not in _KIND_KEYS[kind]:
            ext.problem(
                entry.line,
                f"'{PREFIX}{key}' means nothing for a {kind.value} skill; it is ignored",
                "ignored",
                advisory=True,
            )
    if kind == BuiltinKind.SCRIPT:
        _read_entry(ext, ours.get("entry"), folder, metadata)
        _read_network(ext, ours.get("network"))
    if kind == BuiltinKind.MCP:
        for key in ("server", "tool"):
            named = ours.get(key)
            value = metadata_text(named) if named is not None else ""
            if not value.strip():
                ext.problem(
                    named.line if named else metadata.line,
                    f"an mcp skill needs '{PREFIX}{key}'",
                    f"{key}-missing",
                )
            setattr(ext, key, value.strip() or None)
    ext.input_schema = _read_schema(ext, ours.get("input-schema"), folder)
    ext.output_schema = _read_schema(ext, ours.get("output-schema"), folder)
    _read_timeout(ext, ours.get("timeout"))
    return ext


def metadata_text(entry: Entry) -> str:
    """A metadata value as the string it should have been (`30` -> "30", `true` -> "true")."""
    value = entry.value
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _relative_file(ext: Extension, entry: Entry, folder: Path, what: str) -> Path | None:
    raw = metadata_text(entry).strip()
    rel = PurePosixPath(raw)
    if not raw or rel.is_absolute() or ".." in rel.parts:
        ext.problem(
            entry.line,
            f"'{entry.key}' must be a path inside the skill folder, not '{raw}'",
            f"{what}-path",
        )
        return None
    path = folder / rel
    escape = escaping_target(folder, path)
    if escape is not None:
        ext.problem(
            entry.line,
            f"'{entry.key}' '{raw}' leads outside the skill folder (a symlink to {escape})",
            f"{what}-path",
        )
        return None
    return path


def escaping_target(folder: Path, path: Path) -> Path | None:
    """Where `path` really leads when a symlink on the way takes it out of `folder`, else None.

    Only the links are followed (nothing is read), so a link to a file the
    caller may not read is reported without touching it.
    """
    try:
        real_folder = folder.resolve()
        real = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return path
    if real == real_folder or real_folder in real.parents:
        return None
    return real


def _read_entry(ext: Extension, entry: Entry | None, folder: Path, metadata: Entry) -> None:
    if entry is None:
        ext.entry = DEFAULT_ENTRY
        path: Path | None = folder / DEFAULT_ENTRY
        line = metadata.line
    else:
        path = _relative_file(ext, entry, folder, "entry")
        line = entry.line
        if path is None:
            return
        ext.entry = metadata_text(entry).strip()
    assert path is not None
    escape = escaping_target(folder, path)
    if escape is not None:  # the default entry; a declared one was checked already
        ext.problem(
            line,
            f"the entry '{ext.entry}' leads outside the skill folder (a symlink to {escape})",
            "entry-path",
        )
        return
    if path.is_file():
        ext.files.append(path)
    elif path.exists():
        ext.problem(line, f"the entry '{ext.entry}' is not a file", "entry")
    else:
        ext.problem(
            line,
            f"the entry script '{ext.entry}' does not exist yet: the LLM will write its first version",
            "entry-missing",
            advisory=True,
        )


def _read_network(ext: Extension, entry: Entry | None) -> None:
    if entry is None:
        return
    value = metadata_text(entry).strip().lower()
    if value not in ("deny", "allow"):
        ext.problem(
            entry.line,
            f"'{PREFIX}network' must be deny or allow, not '{metadata_text(entry)}'",
            "network",
        )
    ext.network = value == "allow"


def _read_timeout(ext: Extension, entry: Entry | None) -> None:
    if entry is None:
        return
    raw = metadata_text(entry).strip().removesuffix("s")
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        ext.problem(
            entry.line,
            f"'{PREFIX}timeout' must be a positive number of seconds, not '{metadata_text(entry)}'",
            "timeout",
        )
        return
    ext.timeout_s = value


def _read_schema(ext: Extension, entry: Entry | None, folder: Path) -> dict[str, Any] | None:
    if entry is None:
        return None
    key = entry.key
    path = _relative_file(ext, entry, folder, "schema")
    if path is None:
        return None
    if not path.is_file():
        ext.problem(
            entry.line,
            f"'{key}': the schema file '{metadata_text(entry)}' does not exist",
            "schema-missing",
        )
        return None
    ext.files.append(path)
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        ext.problem(
            exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})", "schema-json", file=path
        )
        return None
    except (OSError, UnicodeDecodeError) as exc:
        ext.problem(
            entry.line, f"'{key}': cannot read '{metadata_text(entry)}': {exc}", "schema-read"
        )
        return None
    except RecursionError:
        ext.problem(1, "the schema is nested too deeply to be read", "schema-json", file=path)
        return None
    if not isinstance(schema, dict):
        ext.problem(1, "a JSON Schema must be a JSON object", "schema-invalid", file=path)
        return None
    if _schema_is_valid(schema):
        return schema
    # The slow, detailed check only for a schema that the fast one refused.
    import jsonschema
    from jsonschema.exceptions import SchemaError

    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        pointer = (
            "/" + "/".join(str(p) for p in exc.absolute_path) if exc.absolute_path else "the root"
        )
        ext.problem(
            1, f"not a valid JSON Schema at {pointer}: {exc.message}", "schema-invalid", file=path
        )
        return None
    return schema


def _schema_is_valid(schema: dict[str, Any]) -> bool:
    """Meta-validate with the compiled validator (about 100x faster than `jsonschema`)."""
    try:
        return bool(jsonschema_rs.meta.is_valid(schema))
    except (ValueError, jsonschema_rs.ReferencingError):
        return False  # e.g. an unknown $schema: let the detailed check explain

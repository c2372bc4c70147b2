"""The `skillweave.*` metadata keys: what the orchestrator needs beyond the Agent Skills spec.

    metadata:
      skillweave.kind: script            # a registered kind: script | mcp | llm | http | a plug-in's
      skillweave.input-schema: schemas/input.json
      skillweave.output-schema: schemas/output.json
      skillweave.timeout: "30"           # seconds per attempt
      skillweave.entry: scripts/main.py  # and each kind's own keys (`SkillKind.keys`):
      skillweave.network: deny           #   script: entry, network; mcp: server, tool;
      skillweave.server: docs            #   http: url, method
      skillweave.tool: get_docs

A skill without any of them is an instructions-only skill, for hosts. The keys every
kind has are read here; the kind reads its own (`SkillKind.read`, given a
`KindMetadata` view of the block), so adding a kind touches nothing in this module.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema_rs

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.kinds import (
    BUILTIN_NAMES,
    COMMON_KEYS,
    INSTRUCTIONS,
    PREFIX,
    KindFields,
    SkillKind,
    kind_registry,
)
from orchestrator.schemaref import SchemaRefError, bundle_schema
from orchestrator.skills.conformance import Finding
from orchestrator.skills.frontmatter import Entry, Frontmatter


def _builtin_keys() -> tuple[str, ...]:
    """The keys any built-in kind knows: one of them on a skill of another kind is ignored
    (with a note), any other is unknown."""
    registry = kind_registry()
    own = [key for name in BUILTIN_NAMES if (k := registry.get(name)) for key in k.keys]
    return tuple(dict.fromkeys([*COMMON_KEYS, *own]))


@dataclass(slots=True)
class Extension:
    """The resolved `skillweave.*` settings of one skill, and what was wrong with them."""

    kind: str = INSTRUCTIONS
    entry: str | None = None
    server: str | None = None
    tool: str | None = None
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    network: bool = False
    timeout_s: float | None = None
    params: dict[str, Any] = field(default_factory=dict)
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


class _Metadata:
    """The `KindMetadata` a kind reads its own keys from."""

    def __init__(self, ext: Extension, ours: dict[str, Entry], folder: Path, block: Entry) -> None:
        self.folder = folder
        self._ext = ext
        self._ours = ours
        self._block = block

    def has(self, key: str) -> bool:
        return key in self._ours

    def text(self, key: str) -> str | None:
        entry = self._ours.get(key)
        return None if entry is None else metadata_text(entry)

    def problem(self, key: str | None, message: str, code: str, *, advisory: bool = False) -> None:
        entry = self._ours.get(key) if key is not None else None
        self._ext.problem(entry.line if entry is not None else self._block.line, message, code, advisory=advisory)

    def path(self, key: str) -> Path | None:
        entry = self._ours.get(key)
        return None if entry is None else _relative_file(self._ext, entry, self.folder, key.split("-")[0])

    def escape(self, path: Path) -> Path | None:
        return escaping_target(self.folder, path)

    def cover(self, path: Path) -> None:
        self._ext.files.append(path)


def read_extension(fm: Frontmatter, folder: Path, max_bytes: int | None = None) -> Extension:
    """Resolve and check the skill's `skillweave.*` keys. `max_bytes` caps each schema
    file with the files its `$ref`s name (default: SKILLWEAVE_MAX_SPEC_BYTES)."""
    ext = Extension()
    metadata = fm.get("metadata")
    if metadata is None or not metadata.is_mapping:
        return ext
    ours = {c.key[len(PREFIX) :]: c for c in metadata.children if c.key.startswith(PREFIX)}
    if not ours:
        return ext
    kind_entry = ours.get("kind")
    kind_name = metadata_text(kind_entry).strip() if kind_entry is not None else ""
    kind = kind_registry().get(kind_name) if kind_name and kind_name != INSTRUCTIONS else None
    known = tuple(dict.fromkeys(_builtin_keys() + (kind.keys if kind is not None else ())))
    for key, entry in list(ours.items()):  # `input_schema` for `input-schema`: read, and said
        dashed = key.replace("_", "-")
        if key not in known and dashed in known and dashed not in ours:
            ours[dashed] = ours.pop(key)
            ext.problem(entry.line, f"'{PREFIX}{key}' is read as '{PREFIX}{dashed}'", "key-spelling", advisory=True)
    for key, entry in ours.items():
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1)
            hint = (
                f" (did you mean '{PREFIX}{near[0]}'?)" if near else f" (known: {', '.join(known)})"
            )
            ext.problem(entry.line, f"unknown key '{PREFIX}{key}'{hint}", "unknown-key")
    if kind_entry is None:
        ext.problem(
            metadata.line, f"'{PREFIX}kind' is missing ({_kinds_named()})", "kind-missing"
        )
        return ext
    if kind is None:
        ext.problem(
            kind_entry.line,
            f"'{PREFIX}kind' '{metadata_text(kind_entry)}' is not {_kinds_named()}",
            "kind",
        )
        return ext
    ext.kind = kind.name
    for key, entry in ours.items():
        if key in known and key not in COMMON_KEYS and key not in kind.keys:
            ext.problem(
                entry.line,
                f"'{PREFIX}{key}' means nothing for a {kind.name} skill; it is ignored",
                "ignored",
                advisory=True,
            )
    _read_own_keys(ext, kind, _Metadata(ext, ours, folder, metadata))
    ext.input_schema = _read_schema(ext, ours.get("input-schema"), folder, max_bytes)
    ext.output_schema = _read_schema(ext, ours.get("output-schema"), folder, max_bytes)
    _read_timeout(ext, ours.get("timeout"))
    return ext


def _kinds_named() -> str:
    """`script, mcp, llm or http` (and the installed kinds), for messages."""
    names = [n for n in kind_registry().names()]
    builtin = [n for n in BUILTIN_NAMES if n in names]
    names = builtin + [n for n in names if n not in builtin]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def _read_own_keys(ext: Extension, kind: SkillKind, meta: _Metadata) -> None:
    try:
        fields = kind.read(meta)
    except Exception as exc:  # a plug-in kind's reader: its bug refuses the skill, not the catalog
        meta.problem("kind", f"the {kind.name} kind could not read the skill's keys: "
                             f"{type(exc).__name__}: {exc}", "kind-read")
        return
    if not isinstance(fields, KindFields):
        meta.problem("kind", f"the {kind.name} kind read its keys into a {type(fields).__name__}, "
                             "not KindFields", "kind-read")
        return
    ext.entry, ext.server, ext.tool = fields.entry, fields.server, fields.tool
    ext.network, ext.params = fields.network, dict(fields.params)


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


def _read_schema(ext: Extension, entry: Entry | None, folder: Path, max_bytes: int | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    key = entry.key
    path = _relative_file(ext, entry, folder, "schema")
    if path is None:
        return None
    if not path.exists():
        ext.problem(
            entry.line,
            f"'{key}': the schema file '{metadata_text(entry)}' does not exist",
            "schema-missing",
        )
        return None
    ext.files.append(path)
    limit = file_caps().spec_bytes if max_bytes is None else max_bytes
    try:
        schema, referenced = bundle_schema(path, folder, limit, ENV_MAX_SPEC_BYTES)
    except SchemaRefError as exc:
        if exc.file is None:
            ext.problem(entry.line, f"'{key}': the schema file '{metadata_text(entry)}' {exc.message}", exc.code)
        else:
            ext.problem(exc.line or 1, exc.message, exc.code, file=exc.file)
        return None
    except RecursionError:
        ext.problem(1, "the schema is nested too deeply to be read", "schema-json", file=path)
        return None
    ext.files.extend(referenced)
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

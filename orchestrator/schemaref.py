"""`$ref` in the JSON Schemas skillweave reads: followed only inside the skill's folder.

    bundle_schema(path, folder, limit, env)   a skill's schema file with the files its relative
                                              `$ref`s name embedded: one self-contained document
    external_refs(schema)                     the `$ref`s that leave the document
    no_retrieval(uri), offline_registry()     for `jsonschema_rs` and `jsonschema`: fetch nothing

A schema may say `{"$ref": "#/$defs/x"}` (in the same document) or
`{"$ref": "common.json#/$defs/x"}` (a file beside it, inside the skill folder).
Anything else (`http://...`, `file:///...`, an absolute path, a path that `..`
or a symlink takes out of the folder) is a `SchemaRefError` naming the file
and line: nothing is fetched or read from outside the folder, ever. The files
a schema refers to are embedded under `$defs` (`"skillweave.schemas.common.json"`) and
their `$ref`s rewritten to point there, so the plan holds one document that
validates the same way anywhere, and every compiled validator is built with
`no_retrieval` as a second line of defence.

A schema and the files it refers to are read through `filecap.read_capped`:
regular files only, at most `limit` bytes together.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from orchestrator.filecap import FileCapError, read_capped

EMBED_PREFIX = "skillweave."
_REF_KEYS = ("$ref", "$dynamicRef", "$recursiveRef")
_DATA_KEYS = frozenset(("const", "enum", "default", "examples"))  # values there are data, not schemas


class SchemaRefError(Exception):
    """A `$ref` that leaves the skill folder, or a file it names that cannot be used."""

    def __init__(self, file: Path | None, line: int | None, message: str, code: str = "schema-ref") -> None:
        super().__init__(message)
        self.file = file  # None: the schema file itself cannot be read (say so where it is named)
        self.line = line
        self.message = message
        self.code = code


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping of a schema that may hold a `$ref` (data keywords are skipped)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(v for k, v in item.items() if k not in _DATA_KEYS)
        elif isinstance(item, list):
            stack.extend(item)


def external_refs(schema: Any) -> list[str]:
    """The `$ref`-like values that do not start with `#` (they name another document)."""
    found = []
    for node in _walk(schema):
        for key in _REF_KEYS:
            value = node.get(key)
            if isinstance(value, str) and not value.startswith("#"):
                found.append(value)
    return found


def no_retrieval(uri: str) -> Any:
    """A `retriever` for `jsonschema_rs`: every document outside the schema is refused."""
    raise ValueError(f"{uri}: skillweave follows no $ref outside the schema's own document")


def offline_registry() -> Any:
    """A `referencing.Registry` for the `jsonschema` package that retrieves nothing: a
    `$ref` outside the document is `referencing.exceptions.Unresolvable`, never fetched."""
    from referencing import Registry
    from referencing.exceptions import NoSuchResource

    def refuse(uri: str) -> Any:
        raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # an attrs class

    return Registry(retrieve=refuse)  # type: ignore[call-arg]  # an attrs class


def line_of(text: str, value: str) -> int | None:
    """The 1-based line where `value` (as a JSON string) first appears in `text`."""
    at = text.find(json.dumps(value)[1:-1])
    return text.count("\n", 0, at) + 1 if at >= 0 else None


def _pointer_token(text: str) -> str:
    return text.replace("~", "~0").replace("/", "~1")


class _Bundle:
    """One schema file and the files it refers to, read once each, within one byte budget."""

    def __init__(self, folder: Path, limit: int, env: str) -> None:
        self.folder = folder.resolve()
        self.limit = limit
        self.env = env
        self.used = 0
        self.keys: dict[Path, str] = {}  # real path -> its key under $defs
        self.embedded: dict[str, Any] = {}

    def read(self, path: Path, cited_in: Path | None, ref: str | None, text: str | None) -> tuple[str, Any]:
        line = line_of(text, ref) if text is not None and ref is not None else None
        try:
            raw = read_capped(path, self.limit - self.used, self.env)
        except FileCapError as exc:
            if ref is None:
                raise SchemaRefError(None, None, f"is {exc.strerror}", "schema-read") from None
            raise SchemaRefError(cited_in, line, f"$ref '{ref}': '{path.name}' is {exc.strerror} (the "
                                                 "schema and the files it refers to count together)") from None
        except OSError as exc:
            if ref is None:
                raise SchemaRefError(None, None, f"cannot be read: {exc.strerror or exc}", "schema-read") from None
            raise SchemaRefError(cited_in, line, f"$ref '{ref}': cannot read '{path.name}': "
                                                 f"{exc.strerror or exc}") from None
        self.used += len(raw)
        try:
            body = raw.decode("utf-8")
            return body, json.loads(body)
        except UnicodeDecodeError:
            raise SchemaRefError(path, None, "not UTF-8 text", "schema-json") from None
        except json.JSONDecodeError as exc:
            raise SchemaRefError(path, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})",
                                 "schema-json") from None
        except ValueError as exc:  # e.g. an integer of 100 000 digits
            raise SchemaRefError(path, None, f"not valid JSON: {exc}", "schema-json") from None

    def target(self, ref: str, doc: Path, text: str) -> tuple[Path, str]:
        """The file a relative `$ref` names (checked to stay inside the folder), and its fragment."""
        line = line_of(text, ref)
        parts = urlsplit(ref)
        if parts.scheme or parts.netloc or ref.startswith(("/", "\\")):
            raise SchemaRefError(doc, line, f"$ref '{ref}' leaves the skill folder: only '#/...' (this file) "
                                            "and relative paths to files inside the skill folder are followed")
        relative = unquote(parts.path)
        candidate = (doc.parent / relative)
        real = candidate.resolve()
        if not real.is_relative_to(self.folder):
            raise SchemaRefError(doc, line, f"$ref '{ref}' leads outside the skill folder (to {real})")
        return real, parts.fragment

    def new_key(self, real: Path) -> str:
        """`schemas/common.json` -> `skillweave.schemas.common.json` (letters, digits, `._-` only)."""
        stem = EMBED_PREFIX + re.sub(r"[^A-Za-z0-9_.-]", "_", real.relative_to(self.folder).as_posix().replace("/", "."))
        key, n = stem, 1
        while key in self.embedded or key in self.keys.values():
            n += 1
            key = f"{stem}-{n}"
        return key

    def embed(self, real: Path, ref: str, doc: Path, text: str) -> str:
        key = self.keys.get(real)
        if key is None:
            key = self.keys[real] = self.new_key(real)
            body, value = self.read(real, doc, ref, text)
            if isinstance(value, dict):
                value = {k: v for k, v in value.items() if k not in ("$id", "$schema")}
            self.embedded[key] = self.rewrite(value, real, body, f"/$defs/{_pointer_token(key)}")
        return key

    def rewrite(self, node: Any, doc: Path, text: str, prefix: str) -> Any:
        """`node` (a document at `prefix` in the bundle) with every `$ref` pointing inside the bundle."""
        if isinstance(node, list):
            return [self.rewrite(item, doc, text, prefix) for item in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DATA_KEYS:
                out[key] = value
            elif key in _REF_KEYS and isinstance(value, str):
                out[key] = self.ref(value, doc, text, prefix)
            elif key == "$id" and prefix and isinstance(value, str) and not value.startswith("#"):
                continue  # an embedded document is addressed by its place in the bundle
            else:
                out[key] = self.rewrite(value, doc, text, prefix)
        return out

    def ref(self, ref: str, doc: Path, text: str, prefix: str) -> str:
        if ref.startswith("#"):
            fragment = ref[1:]
            if not prefix or fragment.startswith("/") or fragment == "":
                return "#" + prefix + fragment
            raise SchemaRefError(doc, line_of(text, ref), f"$ref '{ref}': an anchor in a file another "
                                                          "schema refers to; use a JSON pointer ('#/$defs/...')")
        real, fragment = self.target(ref, doc, text)
        if fragment and not fragment.startswith("/"):
            raise SchemaRefError(doc, line_of(text, ref), f"$ref '{ref}': an anchor in another file; "
                                                          "use a JSON pointer ('file.json#/$defs/...')")
        key = self.embed(real, ref, doc, text)
        if not key:  # the schema file itself, named by its file name
            return "#" + fragment
        return f"#/$defs/{_pointer_token(key)}{fragment}"


def bundle_schema(path: Path, folder: Path, limit: int, env: str) -> tuple[Any, list[Path]]:
    """The schema at `path` with the files its `$ref`s name embedded (module docstring),
    and those files (for the skill's content hash).

    Raises SchemaRefError (file, line, message) for a `$ref` that leaves `folder`,
    a file that is not a regular file, too large, not UTF-8 or not JSON."""
    bundle = _Bundle(folder, limit, env)
    real = path.resolve()
    bundle.keys[real] = ""
    text, root = bundle.read(path, None, None, None)
    out = bundle.rewrite(root, path, text, "")
    files = [p for p in bundle.keys if p != real]
    if bundle.embedded and isinstance(out, dict):
        defs = out.get("$defs", {})
        if not isinstance(defs, dict):
            raise SchemaRefError(path, line_of(text, "$defs"), "'$defs' must be an object")
        out["$defs"] = {**defs, **bundle.embedded}
    return out, files

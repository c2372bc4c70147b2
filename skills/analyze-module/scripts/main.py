#!/usr/bin/env python3
"""analyze-module: describe a Python module's public API from its source, without running it.

stdin   one JSON object: {"module_name": "json", "existing_docs": "...", "source": "..."}
stdout  one JSON object: the analysis (schemas/output.json)
exit    0 done; 2 invalid input (bad JSON, module not found, no Python source,
        syntax error in the module); 1 anything else (a bug here: traceback on stderr)

The module is located on this interpreter's path (or taken from `source`) and
read with `ast`. It is never imported or executed, so analysing it cannot run
its side effects. Standard library only.
"""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import json
import re
import sys
import traceback
from typing import Any

MAX_VALUE_CHARS = 200  # constant values and defaults longer than this are cut
CONSTANT_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


class InputError(Exception):
    """The input cannot be analysed: exit 2, and retrying will not help."""


def read_request(raw: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"input is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(data, dict):
        raise InputError("input must be a JSON object with module_name")
    name = data.get("module_name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("module_name must be a non-empty string")
    if not all(part.isidentifier() for part in name.strip().split(".")):
        raise InputError(f"module_name is not a dotted Python name: {name!r}")
    for key in ("existing_docs", "source"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise InputError(f"{key} must be a string")
    if not isinstance(data.get("include_private", False), bool):
        raise InputError("include_private must be true or false")
    return data


# --- finding the source -------------------------------------------------------


def find_spec(name: str) -> importlib.machinery.ModuleSpec | None:
    """Locate a module without importing it (nor, for a dotted name, its parents)."""
    parent, _, _ = name.rpartition(".")
    if not parent:
        try:
            return importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
    parent_spec = find_spec(parent)
    if parent_spec is None or parent_spec.submodule_search_locations is None:
        return None
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find(name, list(parent_spec.submodule_search_locations))
        except (ImportError, ValueError):
            continue
        if spec is not None:
            return spec
    return None


def read_module_source(name: str) -> tuple[str, str]:
    """(source text, file path) of an installed module."""
    spec = find_spec(name)
    if spec is None:
        raise InputError(f"module not found: {name}")
    origin = spec.origin
    if origin in (None, "built-in", "frozen"):
        # Frozen stdlib modules still have their .py file; look for it on the path.
        filename = getattr(spec.loader_state, "filename", None)
        if filename:
            origin = filename
        else:
            on_path = importlib.machinery.PathFinder.find_spec(name)
            origin = on_path.origin if on_path is not None else None
    if origin is None or not origin.endswith((".py", ".pyw")):
        raise InputError(
            f"module {name} has no Python source to read ({spec.origin or 'namespace package'})"
        )
    try:
        with open(origin, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError(f"cannot read the source of {name} at {origin}: {exc.strerror}") from exc
    return decode_source(data), origin


def decode_source(data: bytes) -> str:
    """Decode Python source honouring its coding cookie (PEP 263)."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return data.decode("utf-8", errors="replace")


# --- describing the tree ------------------------------------------------------


def text_of(node: ast.AST | None, limit: int = MAX_VALUE_CHARS) -> str | None:
    if node is None:
        return None
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_params(args: ast.arguments) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for index, arg in enumerate(positional):
        kind = "positional_only" if index < len(args.posonlyargs) else "positional_or_keyword"
        default = args.defaults[index - first_default] if index >= first_default else None
        params.append(param(arg, kind, default))
    if args.vararg is not None:
        params.append(param(args.vararg, "var_positional", None))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append(param(arg, "keyword_only", default))
    if args.kwarg is not None:
        params.append(param(args.kwarg, "var_keyword", None))
    return params


def param(arg: ast.arg, kind: str, default: ast.expr | None) -> dict[str, Any]:
    return {
        "name": arg.arg,
        "annotation": text_of(arg.annotation),
        "default": text_of(default),
        "kind": kind,
    }


def describe_function(
    node: ast.FunctionDef | ast.AsyncFunctionDef, *, in_class: bool
) -> dict[str, Any]:
    decorators = [text_of(d) or "" for d in node.decorator_list]
    params = describe_params(node.args)
    if not in_class:
        kind = "function"
    elif "staticmethod" in decorators:
        kind = "staticmethod"
    elif "classmethod" in decorators:
        kind = "classmethod"
    elif "property" in decorators or any(
        d.endswith((".setter", ".getter", ".deleter")) for d in decorators
    ):
        kind = "property"
    else:
        kind = "method"
    if (
        kind in ("method", "classmethod", "property")
        and params
        and params[0]["kind"] != "keyword_only"
    ):
        params = params[1:]  # self / cls is implied
    return {
        "name": node.name,
        "kind": kind,
        "params": params,
        "returns": text_of(node.returns),
        "docstring": ast.get_docstring(node),
        "decorators": decorators,
        "lineno": node.lineno,
        "is_async": isinstance(node, ast.AsyncFunctionDef),
    }


def describe_class(node: ast.ClassDef, include_private: bool) -> dict[str, Any]:
    methods: list[dict[str, Any]] = []
    attributes: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            if is_public(item.name, include_private) and item.name not in seen:
                seen.add(item.name)
                methods.append(describe_function(item, in_class=True))
        elif (
            isinstance(item, ast.AnnAssign)
            and isinstance(item.target, ast.Name)
            and is_public(item.target.id, include_private)
        ):
            attributes.append(
                {
                    "name": item.target.id,
                    "annotation": text_of(item.annotation),
                    "default": text_of(item.value),
                    "lineno": item.lineno,
                }
            )
    bases = [text_of(b) or "" for b in node.bases]
    bases += [
        f"{k.arg}={text_of(k.value)}" if k.arg else f"**{text_of(k.value)}" for k in node.keywords
    ]
    return {
        "name": node.name,
        "bases": bases,
        "docstring": ast.get_docstring(node),
        "decorators": [text_of(d) or "" for d in node.decorator_list],
        "lineno": node.lineno,
        "methods": methods,
        "attributes": attributes,
    }


def is_public(name: str, include_private: bool) -> bool:
    if include_private:
        return True
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module statements, looking inside top-level `if` and `try` blocks (the
    `try: import fast` / `if TYPE_CHECKING:` idioms define API there too)."""
    result: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            result += top_level(stmt.body) + top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            result += top_level(stmt.body)
            for handler in stmt.handlers:
                result += top_level(handler.body)
            result += top_level(stmt.orelse) + top_level(stmt.finalbody)
        else:
            result.append(stmt)
    return result


def static_all(statements: list[ast.stmt]) -> set[str] | None:
    """The names in a literal `__all__ = [...]`, or None when there is none."""
    for stmt in statements:
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                try:
                    names = ast.literal_eval(stmt.value) if stmt.value is not None else None
                except ValueError:
                    return None
                if isinstance(names, list | tuple) and all(isinstance(n, str) for n in names):
                    return set(names)
    return None


def analyze(name: str, source: str, include_private: bool) -> dict[str, Any]:
    try:
        tree = ast.parse(source, filename=name)
    except SyntaxError as exc:
        raise InputError(f"syntax error in module {name}, line {exc.lineno}: {exc.msg}") from exc
    except ValueError as exc:  # e.g. null bytes
        raise InputError(f"cannot parse module {name}: {exc}") from exc
    statements = top_level(tree.body)
    exported = static_all(statements)

    def wanted(symbol: str) -> bool:
        if exported is not None and not include_private:
            return symbol in exported
        return is_public(symbol, include_private) and not symbol.startswith("__")

    functions: list[dict[str, Any]] = []
    classes: list[dict[str, Any]] = []
    constants: list[dict[str, Any]] = []
    seen: set[str] = set()
    for stmt in statements:
        if (
            isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
            and wanted(stmt.name)
            and stmt.name not in seen
        ):
            seen.add(stmt.name)
            functions.append(describe_function(stmt, in_class=False))
        elif isinstance(stmt, ast.ClassDef) and wanted(stmt.name) and stmt.name not in seen:
            seen.add(stmt.name)
            classes.append(describe_class(stmt, include_private))
        elif isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if (
                    isinstance(target, ast.Name)
                    and CONSTANT_NAME.match(target.id)
                    and wanted(target.id)
                ):
                    if target.id in seen:
                        continue
                    seen.add(target.id)
                    constants.append(
                        {
                            "name": target.id,
                            "value": text_of(stmt.value),
                            "annotation": text_of(stmt.annotation)
                            if isinstance(stmt, ast.AnnAssign)
                            else None,
                            "lineno": stmt.lineno,
                        }
                    )
    return {
        "module_name": name,
        "docstring": ast.get_docstring(tree),
        "functions": functions,
        "classes": classes,
        "constants": constants,
    }


def main() -> int:
    try:
        request = read_request(sys.stdin.read())
        name = request["module_name"].strip()
        if request.get("source") is not None:
            source, path = request["source"], None
        else:
            source, path = read_module_source(name)
        result = analyze(name, source, bool(request.get("include_private", False)))
    except InputError as exc:
        print(f"analyze-module: {exc}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        return 1
    result["path"] = path
    result["has_existing_docs"] = bool((request.get("existing_docs") or "").strip())
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

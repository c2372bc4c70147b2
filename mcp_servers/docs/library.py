"""Where the docs server finds documentation: docs folders, then docstrings read from source.

Pure and synchronous, no `mcp` here: the server wraps it, tests call it directly.
A module's source is located with `importlib.machinery.PathFinder` and parsed with
`ast`; the module is never imported, so looking up docs runs none of its code.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Sequence
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

Source = Literal["folder", "docstrings"]
SOURCES: tuple[Source, ...] = ("folder", "docstrings")

MODULE_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"
MAX_DOC_CHARS = 200_000  # a docs file or assembled docstrings beyond this are cut
MAX_SEARCH_RESULTS = 20
SNIPPET_CHARS = 160

_MODULE_NAME = re.compile(MODULE_NAME_PATTERN)


def default_docs_dir() -> Path:
    """The sample docs shipped beside this module."""
    return Path(__file__).resolve().parent / "docs"


class DocsResult(BaseModel):
    """What `get_docs` answers: the markdown found (or "") and whether any was."""

    model_config = ConfigDict(frozen=True)

    existing_docs: str
    docs_found: bool


class SearchHit(BaseModel):
    model_config = ConfigDict(frozen=True)

    module: str
    title: str
    snippet: str


class SearchResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    results: list[SearchHit]


def is_module_name(name: str) -> bool:
    return bool(_MODULE_NAME.match(name))


def parse_sources(text: str) -> frozenset[Source]:
    """`"folder,docstrings"` → the set; raises ValueError naming an unknown source."""
    chosen: set[Source] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part == "folder":
            chosen.add("folder")
        elif part == "docstrings":
            chosen.add("docstrings")
        else:
            raise ValueError(f"unknown docs source {part!r} (expected: {', '.join(SOURCES)})")
    return frozenset(chosen)


class DocsLibrary:
    """Looks documentation up; `docs_dirs` first, then docstrings when enabled."""

    def __init__(
        self,
        docs_dirs: Sequence[Path] = (),
        *,
        sources: Iterable[Source] = SOURCES,
        module_path: Sequence[str] | None = None,
    ) -> None:
        self.docs_dirs = tuple(docs_dirs)
        self.sources = frozenset(sources)
        self._module_path = module_path  # None: sys.path at call time

    def get_docs(self, module_name: str) -> DocsResult:
        """The docs of `module_name`, or `DocsResult("", False)` when there are none.

        Raises ValueError for a name that is not a dotted Python identifier (so a
        name can never reach outside the docs folders).
        """
        if not is_module_name(module_name):
            raise ValueError(f"not a Python module name: {module_name!r}")
        if "folder" in self.sources:
            for folder in self.docs_dirs:
                candidate = folder / f"{module_name}.md"
                if candidate.is_file():
                    text = candidate.read_text(encoding="utf-8", errors="replace")
                    return DocsResult(existing_docs=text[:MAX_DOC_CHARS], docs_found=True)
        if "docstrings" in self.sources:
            source = find_module_source(module_name, self._module_path)
            if source is not None:
                text = render_docstrings(module_name, source)
                if text:
                    return DocsResult(existing_docs=text[:MAX_DOC_CHARS], docs_found=True)
        return DocsResult(existing_docs="", docs_found=False)

    def search(self, query: str, limit: int = MAX_SEARCH_RESULTS) -> SearchResult:
        """Docs files containing every word of `query` (case-insensitive), by module name."""
        words = [w for w in query.lower().split() if w]
        hits: list[SearchHit] = []
        seen: set[str] = set()
        if not words or "folder" not in self.sources:
            return SearchResult(results=[])
        for folder in self.docs_dirs:
            for path in sorted(folder.glob("*.md")) if folder.is_dir() else ():
                if path.stem in seen:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
                lowered = text.lower()
                if all(w in lowered for w in words):
                    seen.add(path.stem)
                    hits.append(
                        SearchHit(
                            module=path.stem,
                            title=_title(text, path.stem),
                            snippet=_snippet(text, words[0]),
                        )
                    )
                    if len(hits) >= limit:
                        return SearchResult(results=hits)
        return SearchResult(results=hits)


def find_module_source(module_name: str, path: Sequence[str] | None = None) -> Path | None:
    """The `.py` file of `module_name` (a package's `__init__.py`), found without importing."""
    parts = module_name.split(".")
    search: list[str] = list(path) if path is not None else list(sys.path)
    spec = PathFinder.find_spec(parts[0], search)
    for i in range(1, len(parts)):
        if spec is None or not spec.submodule_search_locations:
            return None
        spec = PathFinder.find_spec(".".join(parts[: i + 1]), list(spec.submodule_search_locations))
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    origin = Path(spec.origin)
    return origin if origin.is_file() else None


def render_docstrings(module_name: str, source: Path) -> str:
    """Markdown from the module's docstring and its public top-level functions and classes.

    Returns "" when the module has no docstring at all (or cannot be parsed).
    """
    try:
        tree = ast.parse(source.read_text(encoding="utf-8", errors="replace"), filename=str(source))
    except (SyntaxError, ValueError):
        return ""
    sections: list[str] = []
    module_doc = ast.get_docstring(tree)
    functions: list[str] = []
    classes: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith(
            "_"
        ):
            doc = ast.get_docstring(node)
            if doc:
                functions.append(f"### `{node.name}({ast.unparse(node.args)})`\n\n{doc}")
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            doc = ast.get_docstring(node)
            if doc:
                classes.append(f"### `{node.name}`\n\n{doc}")
    if not (module_doc or functions or classes):
        return ""
    sections.append(f"# `{module_name}`")
    if module_doc:
        sections.append(module_doc)
    if functions:
        sections.append("## Functions")
        sections.extend(functions)
    if classes:
        sections.append("## Classes")
        sections.extend(classes)
    return "\n\n".join(sections) + "\n"


def _title(text: str, fallback: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return fallback


def _snippet(text: str, word: str) -> str:
    for line in text.splitlines():
        if word in line.lower():
            return line.strip()[:SNIPPET_CHARS]
    return ""

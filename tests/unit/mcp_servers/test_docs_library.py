"""The docs server's lookups: docs folder first, docstrings read from source (never imported), search."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import Client

from mcp_servers.docs.library import (
    DocsLibrary,
    default_docs_dir,
    find_module_source,
    parse_sources,
    render_docstrings,
)
from mcp_servers.docs.server import build_server


@pytest.fixture
def modules(tmp_path: Path) -> Path:
    """A module path with a documented module, an undocumented one and a package."""
    root = tmp_path / "mods"
    (root / "pkg").mkdir(parents=True)
    (root / "documented.py").write_text(
        '"""Tools for sums."""\n\n'
        "def add(a, b=1):\n    '''Add two numbers.'''\n    return a + b\n\n"
        "def _hidden():\n    '''Private.'''\n\n"
        "class Box:\n    '''Holds one value.'''\n\n"
        "raise SystemExit('importing me is a mistake')\n"
    )
    (root / "bare.py").write_text("x = 1\n")
    (root / "pkg" / "__init__.py").write_text('"""A package."""\n')
    (root / "pkg" / "sub.py").write_text('"""The sub module."""\n')
    return root


def library(docs: Path, modules: Path, sources: str = "folder,docstrings") -> DocsLibrary:
    return DocsLibrary((docs,), sources=parse_sources(sources), module_path=[str(modules)])


def test_a_docs_file_wins_over_docstrings(tmp_path: Path, modules: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "documented.md").write_text("# documented\n\nHand-written.\n")
    result = library(docs, modules).get_docs("documented")
    assert (result.existing_docs, result.docs_found) == ("# documented\n\nHand-written.\n", True)


def test_docstrings_are_read_from_source_without_importing_the_module(
    tmp_path: Path, modules: Path
) -> None:
    result = library(tmp_path, modules).get_docs("documented")
    assert result.docs_found
    assert result.existing_docs.startswith("# `documented`\n\nTools for sums.")
    assert "### `add(a, b=1)`\n\nAdd two numbers." in result.existing_docs
    assert "### `Box`\n\nHolds one value." in result.existing_docs
    assert "_hidden" not in result.existing_docs


def test_dotted_names_find_submodules(tmp_path: Path, modules: Path) -> None:
    assert find_module_source("pkg.sub", [str(modules)]) == modules / "pkg" / "sub.py"
    assert "The sub module." in library(tmp_path, modules).get_docs("pkg.sub").existing_docs


@pytest.mark.parametrize("name", ["bare", "no_such_module", "pkg.missing"])
def test_a_module_without_docs_answers_empty_and_not_found(
    tmp_path: Path, modules: Path, name: str
) -> None:
    result = library(tmp_path, modules).get_docs(name)
    assert (result.existing_docs, result.docs_found) == ("", False)


def test_the_folder_only_source_ignores_docstrings(tmp_path: Path, modules: Path) -> None:
    result = library(tmp_path, modules, sources="folder").get_docs("documented")
    assert (result.existing_docs, result.docs_found) == ("", False)


@pytest.mark.parametrize("name", ["../etc/passwd", "a b", "", "1abc", "a-b", "json/"])
def test_a_name_that_is_not_a_module_name_is_refused(
    tmp_path: Path, modules: Path, name: str
) -> None:
    with pytest.raises(ValueError, match="not a Python module name"):
        library(tmp_path, modules).get_docs(name)


def test_an_unknown_source_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown docs source 'web'"):
        parse_sources("folder,web")


def test_an_unparsable_module_has_no_docstrings(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text('"""Doc."""\ndef (:\n')
    assert render_docstrings("broken", broken) == ""


def test_search_finds_pages_with_every_word_and_gives_title_and_snippet() -> None:
    lib = DocsLibrary((default_docs_dir(),))
    hits = lib.search("JSON text").results
    assert [h.module for h in hits] == ["json"]
    assert hits[0].title == "json"
    assert "json" in hits[0].snippet.lower()
    assert lib.search("zebra quantum").results == []
    assert lib.search("   ").results == []


def test_the_bundled_samples_include_the_demo_module() -> None:
    result = DocsLibrary((default_docs_dir(),), sources=parse_sources("folder")).get_docs("json")
    assert result.docs_found and result.existing_docs.startswith("# json")


@asynccontextmanager
async def docs_client(modules: Path) -> AsyncIterator[Client]:
    """Entered inside each test: the SDK's task groups must be left by the task that entered them."""
    async with Client(build_server(library(default_docs_dir(), modules))) as client:
        yield client


async def test_the_tools_declare_input_and_output_schemas_and_read_only_annotations(
    modules: Path,
) -> None:
    async with docs_client(modules) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == {"get_docs", "search_docs"}
    get_docs = tools["get_docs"]
    assert get_docs.input_schema["required"] == ["module_name"]
    assert get_docs.output_schema is not None
    assert set(get_docs.output_schema["required"]) == {"existing_docs", "docs_found"}
    assert tools["search_docs"].output_schema is not None
    assert get_docs.annotations is not None and get_docs.annotations.read_only_hint is True


async def test_get_docs_answers_structured_content(modules: Path) -> None:
    async with docs_client(modules) as client:
        found = await client.call_tool("get_docs", {"module_name": "json"})
        missing = await client.call_tool("get_docs", {"module_name": "bare"})
    assert found.structured_content is not None and found.structured_content["docs_found"] is True
    assert missing.structured_content == {"existing_docs": "", "docs_found": False}


async def test_search_docs_answers_results(modules: Path) -> None:
    async with docs_client(modules) as client:
        result = await client.call_tool("search_docs", {"query": "wrap"})
    assert result.structured_content is not None
    assert [r["module"] for r in result.structured_content["results"]] == ["textwrap"]

"""The bundled skills' scripts, run as the sandbox runs them: a subprocess, JSON in, JSON out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from orchestrator.resources import skills_dir

pytestmark = pytest.mark.e2e

SKILLS = skills_dir()


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> Any:
        return json.loads(self.stdout)


def run(skill: str, payload: Any, cwd: Path, pythonpath: Path | None = None) -> Result:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    done = subprocess.run(
        [sys.executable, str(SKILLS / skill / "scripts" / "main.py")],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=30,
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr)


def schema(skill: str, which: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SKILLS / skill / "schemas" / f"{which}.json").read_text())
    return loaded


def conforms(skill: str, which: str, value: Any) -> None:
    jsonschema.validate(value, schema(skill, which), cls=jsonschema.Draft202012Validator)


SAMPLE = '''\
"""Shapes and their areas."""

import pathlib

pathlib.Path("EXECUTED").write_text("the module ran")  # must never happen

__all__ = ["Shape", "Circle", "area", "fetch", "UNIT"]

UNIT: str = "cm"
_PRIVATE = 1


def area(shape: "Shape", /, scale: float = 1.0, *extra, precise: bool = False, **opts) -> float:
    """Area of `shape`, scaled."""
    return shape.area() * scale


async def fetch(url):
    return url


def hidden():
    pass


class Shape:
    """A shape."""

    sides: int = 0

    def __init__(self, name: str) -> None:
        self.name = name

    def area(self) -> float:
        """Zero for an abstract shape."""
        return 0.0

    def _internal(self):
        pass


class Circle(Shape, metaclass=type):
    radius: float

    @classmethod
    def unit(cls, *, radius: float = 1.0) -> "Circle":
        return cls("circle")

    @staticmethod
    def pi() -> float:
        return 3.14

    @property
    def diameter(self) -> float:
        return 2 * self.radius
'''


@pytest.fixture
def sample_module(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    (lib / "geometry").mkdir(parents=True)
    (lib / "geometry" / "__init__.py").write_text('open("PARENT_EXECUTED", "w")\n')
    (lib / "geometry" / "shapes.py").write_text(SAMPLE)
    return lib


# --- analyze-module -----------------------------------------------------------------


def test_analyze_module_describes_json_from_its_installed_source(tmp_path: Path) -> None:
    result = run("analyze-module", {"module_name": "json", "existing_docs": "# json\n"}, tmp_path)
    assert (result.code, result.stderr) == (0, "")
    out = result.output
    conforms("analyze-module", "output", out)
    assert [f["name"] for f in out["functions"]] == ["dump", "dumps", "load", "loads"]
    assert out["docstring"].startswith("JSON (JavaScript Object Notation)")
    assert out["path"].endswith(os.path.join("json", "__init__.py"))
    assert out["has_existing_docs"] is True
    dumps = out["functions"][1]
    assert dumps["params"][0] == {
        "name": "obj",
        "annotation": None,
        "default": None,
        "kind": "positional_or_keyword",
    }
    assert {
        "name": "indent",
        "annotation": None,
        "default": "None",
        "kind": "keyword_only",
    } in dumps["params"]


def test_analyze_module_reads_classes_methods_and_signatures_without_running_the_module(
    tmp_path: Path, sample_module: Path
) -> None:
    result = run(
        "analyze-module", {"module_name": "geometry.shapes"}, tmp_path, pythonpath=sample_module
    )
    assert (result.code, result.stderr) == (0, "")
    out = result.output
    conforms("analyze-module", "output", out)
    assert not (tmp_path / "EXECUTED").exists() and not (tmp_path / "PARENT_EXECUTED").exists()
    assert out["docstring"] == "Shapes and their areas."
    assert [f["name"] for f in out["functions"]] == ["area", "fetch"]  # __all__ decides
    area, fetch = out["functions"]
    assert [(p["name"], p["kind"], p["default"]) for p in area["params"]] == [
        ("shape", "positional_only", None),
        ("scale", "positional_or_keyword", "1.0"),
        ("extra", "var_positional", None),
        ("precise", "keyword_only", "False"),
        ("opts", "var_keyword", None),
    ]
    assert (area["returns"], area["params"][0]["annotation"], area["docstring"]) == (
        "float",
        "'Shape'",
        "Area of `shape`, scaled.",
    )
    assert fetch["is_async"] is True and area["is_async"] is False
    shape, circle = out["classes"]
    assert [m["name"] for m in shape["methods"]] == ["__init__", "area"]
    assert shape["methods"][0]["params"] == [
        {"name": "name", "annotation": "str", "default": None, "kind": "positional_or_keyword"}
    ]
    assert shape["attributes"] == [
        {"name": "sides", "annotation": "int", "default": "0", "lineno": 29}
    ]
    assert circle["bases"] == ["Shape", "metaclass=type"]
    assert [(m["name"], m["kind"]) for m in circle["methods"]] == [
        ("unit", "classmethod"),
        ("pi", "staticmethod"),
        ("diameter", "property"),
    ]
    assert circle["methods"][0]["params"][0]["name"] == "radius"  # cls is left out
    assert out["constants"] == [{"name": "UNIT", "value": "'cm'", "annotation": "str", "lineno": 9}]


def test_analyze_module_takes_the_source_text_when_the_module_is_elsewhere(tmp_path: Path) -> None:
    result = run("analyze-module", {"module_name": "remote", "source": SAMPLE}, tmp_path)
    assert result.code == 0
    assert result.output["path"] is None
    assert [c["name"] for c in result.output["classes"]] == ["Shape", "Circle"]
    assert not (tmp_path / "EXECUTED").exists()


@pytest.mark.parametrize(
    ("payload", "stderr"),
    [
        (
            {"module_name": "no_such_module_xyz"},
            "analyze-module: module not found: no_such_module_xyz\n",
        ),
        (
            {"module_name": "json.no_such_sub"},
            "analyze-module: module not found: json.no_such_sub\n",
        ),
        (
            {"module_name": "sys"},
            "analyze-module: module sys has no Python source to read (built-in)\n",
        ),
        (
            {"module_name": "x", "source": "def f(:\n"},
            "analyze-module: syntax error in module x, line 1: invalid syntax\n",
        ),
        (
            {"module_name": "not a name"},
            "analyze-module: module_name is not a dotted Python name: 'not a name'\n",
        ),
        ({}, "analyze-module: module_name must be a non-empty string\n"),
        (
            "{oops",
            "analyze-module: input is not JSON: Expecting property name enclosed in double quotes (line 1, column 2)\n",
        ),
    ],
)
def test_analyze_module_exits_2_on_input_it_cannot_use(
    tmp_path: Path, payload: Any, stderr: str
) -> None:
    result = run("analyze-module", payload, tmp_path)
    assert (result.code, result.stdout, result.stderr) == (2, "", stderr)


def test_analyze_module_reads_frozen_stdlib_modules_from_their_files(tmp_path: Path) -> None:
    result = run("analyze-module", {"module_name": "os"}, tmp_path)
    assert result.code == 0
    assert result.output["path"].endswith("os.py")


# --- generate-docs and validate-markdown ------------------------------------------


def analysis_of(module: str, cwd: Path, pythonpath: Path | None = None) -> Any:
    result = run("analyze-module", {"module_name": module}, cwd, pythonpath)
    assert result.code == 0, result.stderr
    return result.output


def test_generated_docs_follow_the_contract_and_are_written_as_a_file(
    tmp_path: Path, sample_module: Path
) -> None:
    analysis = analysis_of("geometry.shapes", tmp_path, sample_module)
    result = run(
        "generate-docs", {"module_name": "geometry.shapes", "analysis": analysis}, tmp_path
    )
    assert (result.code, result.stderr) == (0, "")
    out = result.output
    conforms("generate-docs", "output", out)
    assert out["sections"] == ["Overview", "Functions", "Classes", "Constants"]
    assert out["files"] == ["docs/geometry.shapes.md"]
    docs = out["generated_docs"]
    assert (tmp_path / "docs" / "geometry.shapes.md").read_text() == docs
    assert docs.startswith("# geometry.shapes\n\n## Overview\n\nShapes and their areas.\n")
    assert (
        "### `area(shape: 'Shape', /, scale: float = 1.0, *extra, precise: bool = False, **opts) -> float`"
        in docs
    )
    assert "### `async fetch(url)`" in docs
    assert "### `class Circle(Shape, metaclass=type)`" in docs
    assert "#### `Circle.unit(*, radius: float = 1.0) -> 'Circle'` (classmethod)" in docs
    assert "- `UNIT: str = 'cm'`" in docs
    check = run("validate-markdown", {"generated_docs": docs}, tmp_path)
    assert (check.code, check.output) == (
        0,
        {
            "validation_result": True,
            "issues": [],
            "title": "geometry.shapes",
            "sections": ["Overview", "Functions", "Classes", "Constants"],
        },
    )


def test_docs_for_json_pass_validation(tmp_path: Path) -> None:
    analysis = analysis_of("json", tmp_path)
    docs = run(
        "generate-docs",
        {"module_name": "json", "analysis": analysis, "write_file": False},
        tmp_path,
    )
    assert docs.code == 0 and docs.output["files"] == []
    assert not (tmp_path / "docs").exists()
    check = run("validate-markdown", {"generated_docs": docs.output["generated_docs"]}, tmp_path)
    assert (check.code, check.output["issues"]) == (0, [])


def test_hostile_docstrings_cannot_break_the_page_structure(tmp_path: Path) -> None:
    source = textwrap.dedent(
        '''\
        """# Not a title

        Section
        =======

        ```python
        never closed
        """


        def f():
            """## Not a section"""


        class Empty:
            pass
        '''
    )
    analysis = run("analyze-module", {"module_name": "hostile", "source": source}, tmp_path).output
    docs = run("generate-docs", {"module_name": "hostile", "analysis": analysis}, tmp_path).output
    assert "\\# Not a title" in docs["generated_docs"]
    check = run("validate-markdown", {"generated_docs": docs["generated_docs"]}, tmp_path)
    assert (check.code, check.output["issues"]) == (0, [])
    assert check.output["sections"] == ["Overview", "Functions", "Classes"]


def test_a_module_without_functions_or_classes_still_has_no_empty_section(tmp_path: Path) -> None:
    analysis = run("analyze-module", {"module_name": "bare", "source": "X = 1\n"}, tmp_path).output
    docs = run("generate-docs", {"module_name": "bare", "analysis": analysis}, tmp_path).output[
        "generated_docs"
    ]
    assert "_This module defines no public functions._" in docs
    assert "The module `bare` has no module docstring." in docs
    assert run("validate-markdown", {"generated_docs": docs}, tmp_path).code == 0


@pytest.mark.parametrize(
    ("payload", "stderr"),
    [
        (
            {"module_name": "m"},
            "generate-docs: analysis must be the JSON object that analyze-module produced\n",
        ),
        (
            {"module_name": "m", "analysis": {"functions": [{}], "classes": []}},
            "generate-docs: analysis.functions must be a list of objects with a name\n",
        ),
        (
            {"module_name": "1m", "analysis": {}},
            "generate-docs: module_name must be a dotted Python module name\n",
        ),
    ],
)
def test_generate_docs_exits_2_on_input_it_cannot_use(
    tmp_path: Path, payload: Any, stderr: str
) -> None:
    result = run("generate-docs", payload, tmp_path)
    assert (result.code, result.stdout, result.stderr) == (2, "", stderr)


PAGE_WITH_PROBLEMS = """\
## Overview

text

# Second title

## Functions

```python
def f(): ...
"""


def test_validation_failure_exits_1_with_the_issues_on_stderr(tmp_path: Path) -> None:
    result = run("validate-markdown", {"generated_docs": PAGE_WITH_PROBLEMS}, tmp_path)
    issues = [
        "line 9: code fence ``` is never closed",
        "line 1: the first heading must be the level-1 title (# ...), not level 2",
        "line 5: a second level-1 heading 'Second title'; use ## for sections",
        "missing required section: ## Classes",
    ]
    assert result.code == 1
    assert result.output == {
        "validation_result": False,
        "issues": issues,
        "title": None,
        "sections": ["Overview", "Functions"],
    }
    conforms("validate-markdown", "output", result.output)
    assert result.stderr == "validate-markdown: validation failed with 4 issue(s):\n" + "".join(
        f"- {issue}\n" for issue in issues
    )


def test_validation_can_report_without_failing(tmp_path: Path) -> None:
    page = "# t\n\n## Overview\n### Detail\n## Functions\nf\n"
    result = run(
        "validate-markdown",
        {
            "generated_docs": page,
            "required_sections": ["overview", "Functions"],
            "fail_on_issues": False,
        },
        tmp_path,
    )
    assert (result.code, result.stderr) == (0, "")
    assert result.output["issues"] == [
        "line 3: section '## Overview' is empty",
        "line 4: section '### Detail' is empty",
    ]


@pytest.mark.parametrize(
    ("payload", "code", "stderr_start"),
    [
        (
            {"generated_docs": "   \n"},
            1,
            "validate-markdown: validation failed with 1 issue(s):\n- the document is empty\n",
        ),
        ({"generated_docs": 3}, 2, "validate-markdown: generated_docs must be a string"),
        (
            {"generated_docs": "# t", "required_sections": "Overview"},
            2,
            "validate-markdown: required_sections must be a list",
        ),
        ("[]", 2, "validate-markdown: input must be a JSON object"),
    ],
)
def test_validate_markdown_edge_inputs(
    tmp_path: Path, payload: Any, code: int, stderr_start: str
) -> None:
    result = run("validate-markdown", payload, tmp_path)
    assert result.code == code
    assert result.stderr.startswith(stderr_start)


# --- fetch-docs -----------------------------------------------------------------------


def test_fetch_docs_output_schema_matches_what_the_docs_server_answers() -> None:
    from mcp_servers.docs.library import DocsLibrary, DocsResult

    conforms("fetch-docs", "output", DocsLibrary().get_docs("json").model_dump())
    conforms("fetch-docs", "output", DocsResult(existing_docs="", docs_found=False).model_dump())
    conforms("fetch-docs", "input", {"module_name": "json"})
    with pytest.raises(jsonschema.ValidationError):
        conforms("fetch-docs", "output", {"existing_docs": None, "docs_found": False})


def test_every_example_input_in_these_tests_matches_its_input_schema() -> None:
    conforms(
        "analyze-module", "input", {"module_name": "json", "existing_docs": "", "source": "x = 1"}
    )
    conforms(
        "generate-docs",
        "input",
        {"module_name": "json", "analysis": {"functions": [], "classes": []}},
    )
    conforms(
        "validate-markdown", "input", {"generated_docs": "", "required_sections": ["Overview"]}
    )
    with pytest.raises(jsonschema.ValidationError):
        conforms("analyze-module", "input", {"module_name": "not a name"})

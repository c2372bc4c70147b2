"""A doc string in code is its author's prose, not code (54th round; `spec.wired52` reads code by its skill calls).

    @moduledoc \"\"\"                                      Elixir's module doc, `@doc`, `@typedoc`, `@shortdoc`
    Done when book-courier comes back with booked: true.   a sentence: the run's success check, never a call
    \"\"\"
    def run(req):
        \"\"\"Takes item and size; done when X says ok.\"\"\"   Python's, Julia's docstring (r/u prefixes too)
    @doc "Books the van."                                 a doc attribute's one-line string

A triple-quoted string that stands alone at a statement's place - the line opens with it (after a doc attribute
such as `@moduledoc`, or a string prefix) and the code line before it does not leave a value open (`x =`,
`f(`, `,`) - is a doc string: its lines are read as comments, so a skill it names in a sentence calls
nothing and its sentences (the inputs it names, the done check) reach the readers of prose. A triple-quoted
string given as a value (`msg = \"\"\"`, `f(\"\"\"`, `%{text: \"\"\"`) stays code. Scanning is linear.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a doc string's opening at the start of a line: `@moduledoc """`, `@doc ~S"""`, `r"""`, `'''`
_OPEN = _rx(r"^(?:@(?:moduledoc|doc|typedoc|shortdoc)[ \t]++(?:~[sS])?+|[rRuUbB]{0,2}+)(?P<q>\"\"\"|''')")
# a one-line doc attribute: `@doc "Books the van."`, `@moduledoc 'x'`
_ATTR_LINE = _rx(r"^@(?:moduledoc|doc|typedoc|shortdoc)[ \t]++(?P<q>[\"'])(?P<text>[^\"'\n]{0,400}+)(?P=q)[ \t]*+$")
# a code line that leaves a value open: the doc-looking string after it is that value
_OPEN_VALUE = _rx(r"(?:[=(\[{,+]|<>|\|>|\.\.|=>|->|<-)[ \t]*+$")
MAX_DOC = 300  # a doc string's lines at most (an opening never closed does not take the file)


def doc_lines(lines: list[str]) -> dict[int, str]:
    """Line number (1-based) -> its prose, for each line of a doc string in code (module docstring)."""
    out: dict[int, str] = {}
    last_code = ""
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped:
            i += 1
            continue
        attr = _ATTR_LINE.match(stripped)
        if attr is not None:
            out[i + 1] = attr.group("text").strip()
            i += 1
            continue
        m = _OPEN.match(stripped)
        if m is None or _OPEN_VALUE.search(last_code):
            if not stripped.startswith(("#", "//", "--", ";")):
                last_code = stripped
            i += 1
            continue
        q = m.group("q")
        rest = stripped[m.end():]
        if q in rest:  # closed on its own line: `"""Books the van."""`
            cut = rest.find(q)
            if rest[cut + 3:].strip():
                last_code = stripped  # `"""a""" + x`: a value, not a doc string
                i += 1
                continue
            out[i + 1] = rest[:cut].strip()
            i += 1
            continue
        end = next((j for j in range(i + 1, min(len(lines), i + MAX_DOC)) if q in lines[j]), None)
        if end is None:
            last_code = stripped
            i += 1
            continue
        out[i + 1] = rest.strip()
        for j in range(i + 1, end):
            out[j + 1] = lines[j].strip()
        closing = lines[end].strip()
        out[end + 1] = closing[:closing.find(q)].strip()
        last_code = ""
        i = end + 1
    return out


_rx.save()

"""A LaTeX article (a lab report, a thesis chapter's methods, notes kept as `.tex`) read as the
markdown it stands for, line for line.

    \\title{Wave processing}                  ->  # Wave processing
    \\section{Pipeline}                       ->  ## Pipeline
    \\subsection{Load} Run \\texttt{x} ...      ->  ### Load                (on the free line before it)
                                                 Run `x` ...
    \\begin{enumerate} \\item Spin ...          ->  1. Spin ...             numbered in order
    \\begin{itemize} \\item if ...              ->  - if ...
    \\begin{description} \\item[\\texttt{wave}] the label
                                             ->  - `wave`: the label     a term and its text
    \\texttt{x} \\textbf{x} \\emph{x}             ->  `x` **x** *x*
    90\\,s  e.g.\\ x  a~b  \\%  \\_  ``q''  ---    ->  90 s  e.g. x  a b  %  _  "q"  —
    $=0.8$  $\\geq 10$                         ->  =0.8  ≥ 10              math: its text
    % comments, the preamble, \\maketitle      ->  (nothing)
    \\begin{verbatim} ... \\end{verbatim}       ->  ``` ... ```

A document is a LaTeX article when it has `\\documentclass` or `\\begin{document}`, or two lines that
open a `\\section`, `\\subsection` or a list environment, and no markdown heading; one holding an
`algorithmic` block is left to that block's reader (`spec.branch_pseudocode`), and a markdown spec
with `$x$` in it is markdown. A heading written with its text on the same line takes the blank
line before it (a run of headings above moves up one line with it); with no such line it stays
on its line as a bold lead (`**Load** Run ...`). Every other line is its own line, so each finding
names the author's line. Any other command is unwrapped to its argument (`\\cmd{x}` -> x) or
dropped (`\\cmd`).
"""

from __future__ import annotations

import re

from orchestrator.spec.markup_html import html_markdown
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DOCUMENT = _rx(r"\\documentclass\b|\\begin\{document\}")
_OUTLINE = _rx(r"(?m)^[ \t]{0,40}+\\(?:(?:sub){0,2}+section\*?+\{|begin\{(?:itemize|enumerate|description)\})")
_ALGORITHMIC = _rx(r"\\begin\{algorithmic\}")
_MD_HEADING = _rx(r"(?m)^[ \t]{0,3}+#{1,6}[ \t]")
_COMMENT = _rx(r"(?<!\\)%.*+$")
_HEADING = _rx(r"^[ \t]{0,40}+\\(chapter|section|subsection|subsubsection|paragraph)\*?+(?:\[[^\]\n]{0,200}+\])?+"
               r"\{((?:[^{}\n]|\{[^{}\n]{0,200}+\}){0,300}+)\}[ \t]*+(.*+)$")
_TITLE = _rx(r"^[ \t]{0,40}+\\title\{((?:[^{}\n]|\{[^{}\n]{0,200}+\}){0,300}+)\}")
_ENV = _rx(r"^[ \t]{0,40}+\\(begin|end)\{([A-Za-z*]{1,40}+)\}(?:\[[^\]\n]{0,200}+\])?+(?:\{[^{}\n]{0,200}+\})?+[ \t]*+(.*+)$")
_ITEM = _rx(r"^[ \t]{0,40}+\\item(?:\[((?:[^\[\]\n]|\{[^{}\n]{0,200}+\}){0,200}+)\])?+[ \t]*+(.*+)$")
_DROP_LINE = _rx(r"^[ \t]{0,40}+\\(?:documentclass|usepackage|author|date|maketitle|tableofcontents|newcommand|"
                 r"renewcommand|bibliography|bibliographystyle|label|clearpage|newpage|centering|caption)\b")
_CODE = _rx(r"\\(?:texttt|code|verb\*?+(?=\{)|path|lstinline(?=\{))\{((?:[^{}\n]|\{[^{}\n]{0,200}+\}){0,300}+)\}")
_VERB = _rx(r"\\(?:verb|lstinline)\*?+([|!+])([^|!+\n]{0,300}+)\1")
_BOLD = _rx(r"\\textbf\{([^{}\n]{0,300}+)\}")
_ITALIC = _rx(r"\\(?:emph|textit|textsl)\{([^{}\n]{0,300}+)\}")
_LINK = _rx(r"\\href\{[^{}\n]{0,400}+\}\{([^{}\n]{0,300}+)\}")
_NOTE = _rx(r"\\footnote\{([^{}\n]{0,400}+)\}")
_GONE = _rx(r"\\(?:thanks|label|cite[a-z]{0,10}+|index|vspace|hspace)\*?+(?:\[[^\]\n]{0,100}+\])?+\{[^{}\n]{0,400}+\}")
_MATH = _rx(r"(?<!\\)\$([^$\n]{0,300}+)(?<!\\)\$")
_ARG = _rx(r"\\[A-Za-z]{1,40}+\*?+(?:\[[^\]\n]{0,100}+\])?+\{([^{}\n]{0,400}+)\}")
_WORD_CMD = _rx(r"\\[A-Za-z]{1,40}+\*?+")
_SPACES = _rx(r"[ \t]{2,}+")
_SYMBOLS = {"geq": "≥", "ge": "≥", "leq": "≤", "le": "≤", "neq": "≠", "ne": "≠", "times": "×", "cdot": "·",
            "approx": "≈", "pm": "±", "rightarrow": "→", "to": "→", "Rightarrow": "⇒", "LaTeX": "LaTeX",
            "TeX": "TeX", "ldots": "…", "dots": "…", "textasciitilde": "~", "degree": "°", "textdegree": "°"}
_SYMBOL = _rx(r"\\([A-Za-z]{1,40}+)(?![A-Za-z])(?:\{\})?+")
_ESCAPES = (("\\%", "%"), ("\\$", "$"), ("\\&", "&"), ("\\#", "#"), ("\\_", "_"), ("\\{", "{"), ("\\}", "}"))
_SPACING = ("\\,", "\\;", "\\:", "\\ ", "\\quad", "\\qquad", "~")
_LISTS = {"itemize": "ul", "enumerate": "ol", "description": "dl"}
_CODE_ENVS = frozenset(("verbatim", "lstlisting", "minted", "Verbatim", "alltt"))
_QUIET_ENVS = frozenset(("comment", "thebibliography"))
_LEVELS = {"chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 4}


def is_latex(text: str) -> bool:
    """A LaTeX article (module docstring)."""
    if _ALGORITHMIC.search(text) is not None or _MD_HEADING.search(text) is not None:
        return False
    return _DOCUMENT.search(text) is not None or len(_OUTLINE.findall(text)) >= 2


def inline(text: str) -> str:
    """One line's LaTeX words as markdown's (module docstring): commands unwrapped, math as text."""
    text = text.replace("``", '"').replace("''", '"').replace("`", "'")
    text = _GONE.sub("", text)
    text = _VERB.sub(lambda m: f"`{m.group(2)}`", text)
    for _ in range(2):
        text = _CODE.sub(lambda m: "`" + _unescaped(_ARG.sub(r"\1", m.group(1))) + "`", text)
    text = _MATH.sub(lambda m: _math(m.group(1)), text)
    text = text.replace("\\\\", " ")
    for mark, word in _SPACING_PAIRS:
        text = text.replace(mark, word)
    text = _BOLD.sub(r"**\1**", text)
    text = _ITALIC.sub(r"*\1*", text)
    text = _LINK.sub(r"\1", text)
    text = _NOTE.sub(r" (\1)", text)
    text = _SYMBOL.sub(_symbol, text)
    for _ in range(3):  # \cmd{x} inside \cmd{...}: innermost first
        text, n = _ARG.subn(r"\1", text)
        if not n:
            break
    text = _unescaped(text)
    text = _WORD_CMD.sub("", text)
    return _dashed(_SPACES.sub(" ", text.replace("{", "").replace("}", "")))


_SPACING_PAIRS = (*tuple((mark, " ") for mark in _SPACING), ("\\!", ""), ("\\@", ""), ("\\/", ""))


def _symbol(m: re.Match[str]) -> str:
    return _SYMBOLS.get(m.group(1), m.group(0))


def _unescaped(text: str) -> str:
    for escape, char in _ESCAPES:
        text = text.replace(escape, char)
    return text


def _math(body: str) -> str:
    body = _SYMBOL.sub(_symbol, body)
    body = body.replace("\\%", "%").replace("\\_", "_").replace("\\,", " ")
    return _ARG.sub(r"\1", body).replace("{", "").replace("}", "")


def _dashed(text: str) -> str:
    """`---` and `--` as dashes, outside code spans (a skill's name keeps its hyphens)."""
    parts = text.split("`")
    for at in range(0, len(parts), 2):
        parts[at] = parts[at].replace("---", "—").replace("--", "–")
    return "`".join(parts)


class _Lowering:
    """The state carried from line to line: the preamble, open lists, a code block."""

    def __init__(self, has_document: bool) -> None:
        self.preamble = has_document
        self.lists: list[list[int | str]] = []  # ["ol", count]
        self.code = ""  # the code environment open, if any
        self.quiet = ""
        self.in_item = False

    def indent(self) -> str:
        return "   " * max(len(self.lists) - 1, 0)

    def line(self, raw: str) -> tuple[str, str]:
        """The line as markdown, and a heading it wants on the line before it ("" if none)."""
        if self.code:
            if f"\\end{{{self.code}}}" in raw:
                self.code = ""
                return "```", ""
            return raw, ""
        if self.quiet:
            if f"\\end{{{self.quiet}}}" in raw:
                self.quiet = ""
            return "", ""
        text = _COMMENT.sub("", raw)
        title = _TITLE.match(text)
        if title is not None:
            return "# " + inline(title.group(1)).strip(), ""
        if self.preamble:
            if "\\begin{document}" in text:
                self.preamble = False
            return "", ""
        if _DROP_LINE.match(text) is not None:
            return "", ""
        env = _ENV.match(text)
        if env is not None:
            return self._environment(env.group(1), env.group(2), env.group(3))
        heading = _HEADING.match(text)
        if heading is not None:
            self.lists.clear()
            self.in_item = False
            marks = "#" * _LEVELS[heading.group(1)]
            words, rest = inline(heading.group(2)).strip(), inline(heading.group(3)).strip()
            if not rest:
                return f"{marks} {words}", ""
            return rest, f"{marks} {words}"
        item = _ITEM.match(text)
        if item is not None and self.lists:
            return self._item(item.group(1), item.group(2)), ""
        body = inline(text).strip()
        if body and self.in_item:
            return self.indent() + "   " + body, ""
        return body, ""

    def _environment(self, which: str, name: str, rest: str) -> tuple[str, str]:
        if which == "begin" and name in _CODE_ENVS:
            self.code = name
            return "```", ""
        if which == "begin" and name in _QUIET_ENVS:
            self.quiet = name
            return "", ""
        if name in _LISTS:
            if which == "begin":
                self.lists.append([_LISTS[name], 0])
            elif self.lists:
                self.lists.pop()
            self.in_item = bool(self.lists)
        elif name == "document" and which == "end":
            self.lists.clear()
        return inline(rest).strip(), ""

    def _item(self, label: str | None, rest: str) -> str:
        kind = self.lists[-1]
        kind[1] = int(kind[1]) + 1
        self.in_item = True
        body = inline(rest).strip()
        if kind[0] == "dl" and label is not None:
            return f"{self.indent()}- {inline(label).strip()}: {body}".rstrip()
        if label is not None:
            body = f"{inline(label).strip()} {body}"
        marker = f"{kind[1]}. " if kind[0] == "ol" else "- "
        return (self.indent() + marker + body).rstrip()


def latex_markdown(text: str) -> str | None:
    """The article as markdown with the article's own lines (module docstring); None when `text`
    is no LaTeX article."""
    if not is_latex(text):
        return None
    state = _Lowering(_DOCUMENT.search(text) is not None and "\\begin{document}" in text)
    out: list[str] = []
    for raw in text.split("\n"):
        line, heading = state.line(raw)
        if heading and not _room_above(out):
            line = f"**{heading.lstrip('#').strip()}** {line}"
        elif heading:
            out[-1] = heading
        out.append(line)
    return "\n".join(out)


def _room_above(out: list[str]) -> bool:
    """Make the line before the next one free, moving a run of headings above up a line into a
    blank line; False when there is none."""
    at = len(out) - 1
    while at >= 0 and out[at].startswith("#"):
        at -= 1
    if at < 0 or out[at].strip():
        return False
    out[at:] = [*out[at + 1:], ""]
    return True


def markup_kind(text: str) -> str | None:
    """"a LaTeX article", "an HTML page", "an iCalendar invite" or "a troff man page" when `text` is one (it is then
    lowered), else None."""
    from orchestrator.spec.calendar46 import is_calendar
    from orchestrator.spec.markup_html import is_html
    from orchestrator.spec.troff46 import is_man

    if is_calendar(text):
        return "an iCalendar file"
    if is_man(text):  # a troff man page (`spec.troff46`)
        return "a troff man page"
    from orchestrator.spec.proto49 import is_proto

    if is_proto(text):  # a protobuf schema whose service's rpcs are the steps (`spec.proto49`)
        return "a Protocol Buffers schema"
    from orchestrator.spec.graphql50 import is_graphql

    if is_graphql(text):  # a GraphQL schema whose fields carry `@skill(name: ...)` (`spec.graphql50`)
        return "a GraphQL schema"
    return "a LaTeX article" if is_latex(text) else "an HTML page" if is_html(text) else None


def markup_markdown(text: str) -> str:
    """`text` lowered to markdown when it is a LaTeX article, an HTML page, an iCalendar file
    (`spec.calendar46`), a troff man page (`spec.troff46`) or a protobuf schema (`spec.proto49`), else as written."""
    from orchestrator.spec.calendar46 import calendar_markdown
    from orchestrator.spec.graphql50 import graphql_markdown
    from orchestrator.spec.proto49 import proto_markdown
    from orchestrator.spec.troff46 import man_markdown

    return (calendar_markdown(text) or man_markdown(text) or proto_markdown(text) or graphql_markdown(text)
            or latex_markdown(text)
            or html_markdown(text) or text)


_rx.save()

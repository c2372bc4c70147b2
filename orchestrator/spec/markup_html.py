"""A page saved as HTML (an intranet CMS page, a Confluence storage-format export, a wiki's HTML)
read as the markdown it stands for, line for line.

    <h2>The flow</h2>                     ->  ## The flow
    <ol> <li>Load with <code>x</code></li> ->  1. Load with `x`            numbered in order
    <ul> <li><b>Copies</b> (...)</li>     ->  - **Copies** (...)
    <dl> <dt>wave</dt> <dd>the label</dd> ->  - wave: the label           a term and its text
    <div class="callout info"><p><b>Done?</b> When ...</p></div>
                                          ->  ## Done?                    a callout's bold title (on
                                              When ...                    the blank line before it)
    <ac:parameter ac:name="title">T</...> ->  the callout's title T       (Confluence macros)
    &ndash; &middot; &nbsp; <br> <a>, <!-- comments -->, <script>/<style>: unescaped, a space, the
    link's words, nothing

A document is an HTML page when it opens with `<!DOCTYPE`, `<html` or a comment followed by
block tags, or when three or more of its lines start with a block tag (`<h2>`, `<li>`, `<p>`,
`<div>`, ...) and none is a markdown heading or list item; a markdown spec with an inline `<br>`,
a `<details>` toggle or an HTML table among its own headings is read as markdown, as written.
The lowered text has exactly the page's lines, so every finding names the author's line; HTML's
own indentation is dropped (it would read as code) and list nesting is written as markdown's.
"""

from __future__ import annotations

import html

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_BLOCK = ("html|head|body|h[1-6]|p|ul|ol|li|dl|dt|dd|div|table|tr|td|th|section|article|main|header|footer|"
          "nav|aside|blockquote|pre|ac:[a-z-]{1,40}+|!doctype")
_BLOCK_LINE = _rx(rf"(?i)^[ \t]{{0,40}}+<(?:{_BLOCK})(?![\w-])")
_OPENING = _rx(r"(?i)^\s{0,40}+(?:<!doctype|<html(?![\w-])|<!--)")
_MD_LINE = _rx(r"^[ \t]{0,3}+(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,3}[.)][ \t])")
_TAG = _rx(r"<(/?)([A-Za-z][\w:-]{0,40}+)((?:[^<>\"']|\"[^\"]{0,400}+\"|'[^']{0,400}+'){0,800}+)(/?)>")
_ATTR = _rx(r"(?i)(?:^|\s)(class|ac:name|alt|title)\s*+=\s*+(?:\"([^\"]{0,400}+)\"|'([^']{0,400}+)')")
_CALLOUT = _rx(r"(?i)\b(?:callout|admonition|alert|notice|info|note|tip|warning|panel|hint|important)\b")
_MACRO_CALLOUT = frozenset(("info", "note", "tip", "warning", "panel", "expand", "excerpt"))
_DECLARATION = _rx(r"(?i)<!doctype[^<>]{0,200}+>|<\?xml[^<>]{0,200}+>")
_SPACES = _rx(r"[ \t\u00a0]{2,}+")
_BOLD_LEAD = _rx(r"^\*\*([^*]{1,120}+)\*\*[ \t]*+(?=\S)")
_BOLD_ALONE = _rx(r"^\*\*([^*]{1,120}+)\*\*[ \t]*+$")

_INLINE = {"code": "`", "tt": "`", "kbd": "`", "samp": "`", "b": "**", "strong": "**", "i": "*", "em": "*"}
_SILENT = frozenset(("script", "style", "head", "ac:plain-text-link-body"))


def is_html(text: str) -> bool:
    """An HTML page (module docstring)."""
    lines = text.split("\n")
    if any(_MD_LINE.match(line) for line in lines):
        return False
    block = sum(1 for line in lines if _BLOCK_LINE.match(line))
    first = next((line for line in lines if line.strip()), "")
    return block >= 3 or (block >= 1 and _OPENING.match(first) is not None)


def _attrs(raw: str) -> dict[str, str]:
    return {m.group(1).lower(): (m.group(2) if m.group(2) is not None else m.group(3) or "")
            for m in _ATTR.finditer(raw)}


class _Lowering:
    """The state carried from line to line: open lists, a comment, a code block, a callout."""

    def __init__(self) -> None:
        self.lists: list[list[int | str]] = []  # ["ol", count] / ["ul", 0]
        self.in_comment = False
        self.silent = 0  # inside <script>, <style>, <head>
        self.pre = False
        self.callouts: list[int] = []  # depth of the elements holding a callout, innermost last
        self.depth = 0
        self.in_item = False  # inside an <li> or <dd> whose text goes on over lines
        self.macro_title = False  # inside <ac:parameter ac:name="title">
        self.skip_param = False  # inside another <ac:parameter>
        self.called = False  # the line is (in part) inside a callout

    def indent(self) -> str:
        return "   " * max(len(self.lists) - 1, 0)

    def line(self, raw: str) -> str:
        text = self._uncomment(raw)
        if self.pre:
            if "</pre" in text.lower():
                self.pre = False
                return "```"
            return html.unescape(_TAG.sub("", text))
        prefix, parts = "", []
        self.called = bool(self.callouts)
        pos = 0
        for m in _TAG.finditer(text):
            parts.append(self._text(text[pos:m.start()]))
            pos = m.end()
            closing, name, raw_attrs = m.group(1) == "/", m.group(2).lower(), m.group(3)
            prefix, word = self._tag(name, closing, raw_attrs, prefix, bool("".join(parts).strip()))
            parts.append(word)
        parts.append(self._text(text[pos:]))
        body = _SPACES.sub(" ", "".join(parts)).strip()
        if self.pre and not body and not prefix:
            return "```"
        if (not body and prefix.strip() in ("-", "")) or prefix.startswith("```"):
            return prefix.rstrip()
        if not prefix and self.in_item and body:
            prefix = self.indent() + "   "
        if not prefix and self.called and body:
            prefix = "> "
        return (prefix + body).rstrip()

    def _uncomment(self, raw: str) -> str:
        out: list[str] = []
        rest = raw
        while rest:
            if self.in_comment:
                end = rest.find("-->")
                if end < 0:
                    return "".join(out)
                self.in_comment, rest = False, rest[end + 3:]
                continue
            start = rest.find("<!--")
            if start < 0:
                out.append(rest)
                break
            out.append(rest[:start])
            self.in_comment, rest = True, rest[start + 4:]
        return _DECLARATION.sub("", "".join(out).replace("<![CDATA[", "").replace("]]>", ""))

    def _text(self, chunk: str) -> str:
        if self.silent or self.skip_param:
            return ""
        return html.unescape(chunk).replace("\u00a0", " ")

    def _tag(self, name: str, closing: bool, raw_attrs: str, prefix: str, has_text: bool) -> tuple[str, str]:
        """The line's prefix and the words the tag `name` stands for."""
        if name in _SILENT:
            self.silent += -1 if closing else 1
            self.silent = max(self.silent, 0)
            return prefix, ""
        if self.silent:
            return prefix, ""
        if name in _INLINE:
            return prefix, _INLINE[name]
        if name == "br":
            return prefix, " "
        if name in ("ul", "ol"):
            if closing:
                if self.lists:
                    self.lists.pop()
                self.in_item = bool(self.lists)
            else:
                self.lists.append([name, 0])
            return prefix, ""
        if name == "li":
            if closing:
                self.in_item = False
                return prefix, ""
            if not self.lists:
                self.lists.append(["ul", 0])
            kind = self.lists[-1]
            kind[1] = int(kind[1]) + 1
            self.in_item = True
            return self.indent() + (f"{kind[1]}. " if kind[0] == "ol" else "- "), ""
        if name == "dt":
            if closing:
                return prefix, ":"
            self.in_item = True
            return "- ", ""
        if name == "dd":
            return (prefix, " " if has_text and not closing else "")
        if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
            return ("#" * int(name[1]) + " ", "") if not closing else (prefix, "")
        if name == "pre":
            if closing:
                self.pre = False
                return "```", ""
            self.pre = True
            return "```", ""
        if name == "ac:parameter":
            attrs = _attrs(raw_attrs)
            if closing:
                self.skip_param = False
                title, self.macro_title = self.macro_title, False
                return prefix, "** " if title else ""
            if attrs.get("ac:name", "").lower() == "title":
                self.macro_title = True
                return prefix, "**"
            self.skip_param = True
            return prefix, ""
        if name in ("div", "aside", "blockquote", "section", "ac:structured-macro", "ac:adf-extension"):
            return self._holder(name, closing, raw_attrs, prefix)
        if name in ("td", "th"):
            return prefix, " | " if closing else ""
        if name in ("p", "tr"):
            return prefix, " " if closing else ""
        return prefix, ""

    def _holder(self, name: str, closing: bool, raw_attrs: str, prefix: str) -> tuple[str, str]:
        """A `<div>`-like element: a callout when its class (or macro name) says so."""
        if closing:
            if self.callouts and self.callouts[-1] == self.depth:
                self.callouts.pop()
            self.depth = max(self.depth - 1, 0)
            return prefix, ""
        self.depth += 1
        attrs = _attrs(raw_attrs)
        macro = attrs.get("ac:name", "").lower()
        if (name == "blockquote" or name == "aside" or macro in _MACRO_CALLOUT
                or (name == "div" and _CALLOUT.search(attrs.get("class", "")) is not None)):
            self.callouts.append(self.depth)
            self.called = True
        return prefix, ""


def html_markdown(text: str) -> str | None:
    """The page as markdown with the page's own lines (module docstring); None when `text` is no
    HTML page."""
    if not is_html(text):
        return None
    state = _Lowering()
    out = [state.line(raw) for raw in text.split("\n")]
    return "\n".join(_titled(out))


def _titled(out: list[str]) -> list[str]:
    """A callout whose title (its first bold words, or a macro's title) names a section the reader
    knows ("When is it done?", "Inputs", "Done when") has it as a heading (on the blank line before
    it when words follow the title on its line) and its lines as that section's text; any other
    callout stays a quote."""
    at = 0
    while at < len(out):
        line = out[at]
        m = _BOLD_LEAD.match(line[2:]) if line.startswith("> ") else None
        alone = _BOLD_ALONE.match(line[2:]) if line.startswith("> ") and m is None else None
        said = m or alone
        title = said.group(1).strip().rstrip(":") if said is not None else ""
        if not title or not _known_title(title) or (m is not None and (at == 0 or out[at - 1].strip())):
            at += 1
            continue
        if m is not None:
            out[at - 1], out[at] = "## " + title, line[2 + m.end():]
        else:
            out[at] = "## " + title
        at += 1
        while at < len(out) and out[at].startswith("> "):
            out[at] = out[at][2:]
            at += 1
    return out


def _known_title(title: str) -> bool:
    from orchestrator.spec.markdown import section_kind
    from orchestrator.spec.success import TITLE

    return section_kind(title) is not None or TITLE.match(title) is not None


_rx.save()

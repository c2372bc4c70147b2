"""A troff man page (`tool.1`, an in-house command's manual) read as the markdown it stands for,
line for line.

    .\\" a comment, .TP, .PP, .br, .sp, .RS, .RE    ->  (nothing)
    .TH TOOL 1 "date" ...                         ->  # TOOL
    .SH DESCRIPTION  /  .SS Options               ->  ## DESCRIPTION  /  ### Options
    .SH SYNOPSIS  .B tool  .I district  .I as_of  ->  ## Arguments  (nothing)  `district`  `as_of`
    .TP  .B 1. fetch-list  (the tag line)         ->  ### 1. `fetch-list`   (its paragraph the lines below)
    .TP  .B --dry-run                             ->  - `--dry-run`
    .IP "2." 4  /  .IP \\(bu                       ->  2.  /  -       a list item, its text on the lines below
    .B x  .I x  \\fBx\\fR  \\fIx\\fR  \\f(CWx\\fR   ->  `x`            bold and italic are names to type or fill in
    .BR a b  .IR x y  .BI ...                     ->  `a`b            alternating fonts joined
    .BR ls (1),                                   ->  ls(1),          another page named: no code name
    \\-  \\(em  \\(en  \\(bu  \\(aq  \\(dq  \\&  \\e   ->  -  —  –  •  '  "  (nothing)  \\
    .nf ... .fi  /  .EX ... .EE                   ->  ``` ... ```

A document is a man page when a line opens with `.TH ` or two lines open with `.SH `, and no line is
a markdown heading. In the SYNOPSIS the italic words are the command's arguments, each a code name under
an `Arguments` heading (the workflow's inputs); the bold command name is dropped. A `.TP` item's tag
line starting with a number (`1.`, `2)`) heads its item (`### 1. ...`: a step of a steps section) and the
lines of its paragraph are its text; any other tag is a bullet, its paragraph indented under it until the
next `.TP`, `.IP`, `.PP` or heading. Any other request
(`.XY args`) keeps its arguments as text. Every line is its own line, so each finding names the
author's line.
"""

from __future__ import annotations

import re

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TH = _rx(r"(?m)^\.TH[ \t]")
_SH = _rx(r"(?m)^\.S[HS][ \t]")
_MD_HEADING = _rx(r"(?m)^[ \t]{0,3}+#{1,6}[ \t]")
_REQUEST = _rx(r"^[.'][ \t]{0,8}+([A-Za-z][A-Za-z0-9]{0,7}+)(?:[ \t]++(.*+))?+$")
_COMMENT = _rx(r"^[.'][ \t]{0,8}+\\\"")
_TAIL_COMMENT = _rx(r"(?<!\\)\\\".*+$")
_FONT = _rx(r"\\f(?:\(([A-Za-z]{2})|\[([A-Za-z]{0,4}+)\]|([A-Za-z1-4]))")
_NAMED = _rx(r"\\(?:\(([A-Za-z]{2})|\[([A-Za-z]{2,8}+)\])")
_STRING = _rx(r"\\\*(?:\(..|\[[^\]\n]{0,20}+\]|.)")
_ITALIC_RUN = _rx(r"\\f(?:I|\(CI|\[I\])([^\\\n]{1,80}+)")
_NUMBERED = _rx(r"^(\d{1,3}+)[.)][ \t]++(.*+)$")
_IP_MARK = _rx(r"^(\d{1,3}+)[.)]$")
_ARGS = _rx(r"\"([^\"\n]{0,300}+)\"|(\S{1,300}+)")
_PAGE = _rx(r"^\(\d[a-z]{0,3}+\)")
_SPACES = _rx(r"[ \t]{2,}+")
_NAMES = {"em": "—", "en": "–", "bu": "•", "aq": "'", "dq": '"', "lq": '"', "rq": '"', "oq": "'", "cq": "'",
          "hy": "-", "mi": "-", "co": "©", "rg": "®", "tm": "™", "de": "°", "mu": "×", "->": "→", "<=": "≤",
          ">=": "≥", "!=": "≠", "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "ul": "_", "ga": "`"}
_DROP = frozenset(("TP", "PP", "LP", "P", "br", "sp", "RS", "RE", "in", "ti", "ad", "na", "hy", "nh", "ne", "ft",
                   "ps", "vs", "ll", "pl", "bp", "ds", "de", "nr", "so", "ig", "PD", "UC", "HP", "TQ", "Dd", "Os",
                   "Dt", "ce", "fam", "lf", "mso", "hw", "ta", "ns", "rs", "ev", "tr", "cc", "ec", "eo"))
_FONTS = {"B": "`", "I": "`", "BR": "`", "IR": "`", "BI": "`", "IB": "`", "RB": "", "RI": "", "SB": "`", "SM": ""}
_CODE_OPEN = frozenset(("nf", "EX"))
_CODE_CLOSE = frozenset(("fi", "EE"))


def is_man(text: str) -> bool:
    """A troff man page (module docstring)."""
    if _MD_HEADING.search(text) is not None:
        return False
    return _TH.search(text) is not None or len(_SH.findall(text)) >= 2


def inline(text: str) -> str:
    """One line's troff words as markdown's: bold, italic and constant-width runs as code spans, the
    named characters as themselves, `\\-` a hyphen, `\\&` nothing."""
    text = _TAIL_COMMENT.sub("", text)
    text = _STRING.sub("", text)
    text = _NAMED.sub(lambda m: _NAMES.get(m.group(1) or m.group(2) or "", ""), text)
    out: list[str] = []
    code = False
    at = 0
    for m in _FONT.finditer(text):
        out.append(_escapes(text[at:m.start()]))
        at = m.end()
        font = m.group(1) or m.group(2) or m.group(3) or "R"
        want = font not in ("R", "P", "1", "")
        if want != code:
            out.append("`")
            code = want
    out.append(_escapes(text[at:]))
    if code:
        out.append("`")
    joined = "".join(out).replace("``", "")
    return _SPACES.sub(" ", joined).strip()


def _escapes(text: str) -> str:
    for mark, said in (("\\-", "-"), ("\\&", ""), ("\\e", "\\"), ("\\ ", " "), ("\\~", " "), ("\\0", " "),
                       ("\\|", ""), ("\\^", ""), ("\\c", ""), ("\\:", ""), ("\\%", ""), ("\\'", "'"),
                       ("\\`", "`")):
        text = text.replace(mark, said)
    return text


def _args(rest: str) -> list[str]:
    """A request's arguments, quoted ones as one."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _ARGS.finditer(rest)]


def _fonted(name: str, rest: str) -> str:
    """`.B x y`, `.I x`: one font for the line; `.BR a (1),`: the fonts alternate, the words joined."""
    args = _args(rest)
    if name in ("B", "I", "SB", "SM"):
        body = inline(" ".join(args))
        return f"`{body}`" if body and _FONTS[name] else body
    fonts = (name[0], name[1])
    parts = []
    for at, arg in enumerate(args):
        word = inline(arg)
        page = at + 1 < len(args) and _PAGE.match(args[at + 1]) is not None  # `.BR ls (1)`: another page's name
        parts.append(f"`{word}`" if word and fonts[at % 2] in "BI" and not page else word)
    return "".join(parts)


class _Lowering:
    """The state carried from line to line: the section, an open item, a no-fill block."""

    def __init__(self) -> None:
        self.section = ""
        self.item = False  # lines are indented under a list item
        self.tag = False  # the next text line is a `.TP` item's tag
        self.code = False

    def line(self, raw: str) -> str:
        if self.code:
            request = _REQUEST.match(raw)
            if request is not None and request.group(1) in _CODE_CLOSE:
                self.code = False
                return "```"
            return inline(raw)
        if _COMMENT.match(raw) is not None:
            return ""
        request = _REQUEST.match(raw)
        if request is None and self.section == "SYNOPSIS":  # `\\fBtool\\fR \\fIdistrict\\fR`: its italic words
            return self._synopsis("I", " ".join(_ITALIC_RUN.findall(raw)))
        if request is None:
            return self._text(inline(raw))
        name, rest = request.group(1), request.group(2) or ""
        if name == "TH":
            args = _args(rest)
            return f"# {inline(args[0])}" if args else ""
        if name in ("SH", "SS"):
            title = inline(" ".join(_args(rest)))
            self.section, self.item, self.tag = title.upper(), False, False
            if self.section == "SYNOPSIS":
                title = "Arguments"
            return f"{'##' if name == 'SH' else '###'} {title}"
        if name in _CODE_OPEN:
            self.code = True
            return "```"
        if name == "TP":
            self.item, self.tag = False, True
            return ""
        if name == "IP":
            return self._ip(_args(rest))
        if name in ("PP", "LP", "P"):
            self.item, self.tag = False, False
            return ""
        if name in _DROP or name in _CODE_CLOSE:
            return ""
        if name in _FONTS:
            if self.section == "SYNOPSIS":
                return self._synopsis(name, rest)
            return self._text(_fonted(name, rest))
        return self._text(inline(" ".join(_args(rest))))

    def _text(self, body: str) -> str:
        if not body:
            return ""
        if self.tag:
            self.tag, self.item = False, True
            numbered = _NUMBERED.match(body.strip("`"))
            if numbered is not None:  # a numbered tag heads its item: the lines below are its text
                self.item = False
                return f"### {numbered.group(1)}. {_coded(numbered.group(2), body)}"
            return f"- {body}"
        return f"   {body}" if self.item else body

    def _ip(self, args: list[str]) -> str:
        self.tag = False
        mark = inline(args[0]) if args else ""
        number = _IP_MARK.match(mark)
        self.item = bool(mark)
        if number is not None:
            return f"{number.group(1)}."
        return "-" if mark else ""

    def _synopsis(self, name: str, rest: str) -> str:
        """The command's arguments: each italic word a bullet; the bold command name and options, nothing."""
        args = _args(rest)
        fonts = (name[0], name[1] if len(name) > 1 else name[0])
        names = [inline(arg).strip("[]. ") for at, arg in enumerate(args) if fonts[at % 2] == "I"]
        names = [n for n in names if re.fullmatch(r"[A-Za-z_][\w-]{0,60}", n)]
        return ", ".join(f"`{n}`" for n in names)


def _coded(words: str, body: str) -> str:
    """A numbered tag's words, as code when the whole tag was bold or italic."""
    return f"`{words}`" if body.startswith("`") and body.endswith("`") else words


def man_markdown(text: str) -> str | None:
    """The man page as markdown with the page's own lines (module docstring); None when `text` is
    no man page."""
    if not is_man(text):
        return None
    state = _Lowering()
    return "\n".join(state.line(raw) for raw in text.split("\n"))


_rx.save()

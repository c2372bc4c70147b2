"""A spec written as a mainframe JCL job deck, read into the blocks `hcl30` reads (as `nginx49` does).

    //NIGHTLY  JOB (ACCT),'NAME',CLASS=A,TIME=30    → the job: TIME=n its whole-run limit in minutes
    //         SET MONTH='YYYY-MM'                  → the workflow input MONTH (a placeholder value: no default;
                                                       any other value its default)
    //STEP01   EXEC SKILL=LOAD-ROWS,FOREACH=S0.X    → a step, STEP01, running skill LOAD-ROWS (the skill of that
                                                       name in any letter case); FOREACH= its loop
    //*  RETRY TWICE, 30 SEC APART                  → the step's words (its comment cards, as `#` comments)
    //SYSIN    DD *                                 → the step's inputs, one FIELD=VALUE card each, up to `/*`
    MONTH=&MONTH                                    → the workflow input MONTH (`&NAME`, `&NAME.` alike)
    ROWS=STEP00.ROWS                                → step STEP00's output `rows`
    ALL=STEP02.*                                    → every result of step STEP02, gathered
    ACCT=EACH.ACCT                                  → the loop item's field `acct`
    POSTAGE=2ND                                     → a literal

Field names are upper case in a deck: each is the skill's input of that name in lower case. Comment cards
before the first step speak for the whole run; `<==` after a card is its comment. Other cards (`DD` cards that
are not in-stream input, `OUTPUT`, `IF`) are warned at their line and not read. A file is read this way when it
is named `.jcl` or its first card is a `//NAME JOB` card and some card says `EXEC SKILL=`.
"""

from __future__ import annotations

import re
from pathlib import Path

from orchestrator.spec.hcl30 import _Attr, _Block, _Expr
from orchestrator.spec.source import Source

_CARD = re.compile(r"//([A-Za-z@#$][\w@#$]{0,7}+)?[ \t]++([A-Za-z]++)\b[ \t]*+(.*+)")
_JOB = re.compile(r"//[A-Za-z@#$][\w@#$]{0,7}+[ \t]++JOB\b", re.IGNORECASE)
_EXEC_SKILL = re.compile(r"^//\S*+[ \t]++EXEC[ \t]++SKILL=", re.IGNORECASE | re.MULTILINE)
_PAIR = re.compile(r"(?<![\w-])([A-Za-z_][\w-]*+)=('(?:[^']|'')*+'|\([^()]*+\)|[^,\s]*+)")
_SYMBOL = re.compile(r"&([A-Za-z_][\w-]*+)\.?+")
_REF = re.compile(r"(?<![\w-])([A-Za-z_][\w-]*+)\.(\*|[A-Za-z_][\w-]*+)")
_NUMBER = re.compile(r"-?\d++(?:\.\d++)?+")
_PLACEHOLDER = re.compile(r"(?:([A-Za-z])\1*+[-/:. ]?+)++")  # YYYY-MM, NNN, DD/MM/YYYY


def is_jcl(path: str, text: str) -> bool:
    """Whether the file is a JCL job deck whose steps name skills."""
    if Path(path).suffix.lower() == ".jcl":
        return True
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return bool(_JOB.match(first)) and _EXEC_SKILL.search(text) is not None


def _placeholder(value: str) -> bool:
    """'YYYY-MM', 'NNN': a value that shows a shape, not one (upper-case runs of one letter each, one run longer)."""
    if not value:
        return True
    if not value.isupper() or not _PLACEHOLDER.fullmatch(value):
        return False
    runs = [m.group(0) for m in re.finditer(r"([A-Z])\1*+", value)]
    return any(len(r) >= 2 for r in runs) and all(len(r) >= 2 for r in runs if r[0] not in "XN")


def _cards(lines: list[str]) -> list[tuple[int, str]]:
    """The deck's `//` cards, continuations joined (a card ending in `,`), each with its first line (1-based)."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        text = lines[i].rstrip()
        if text.startswith("//") and not text.startswith("//*"):
            at = i
            body = _strip_note(text)
            while body.endswith(",") and i + 1 < len(lines) and lines[i + 1].startswith("//") \
                    and not lines[i + 1].startswith("//*") and lines[i + 1][2:3] in (" ", "\t"):
                i += 1
                body += _strip_note(lines[i].rstrip())[2:].strip()
            out.append((at + 1, body))
        i += 1
    return out


def _strip_note(text: str) -> str:
    return text.split("<==", 1)[0].rstrip()


def _params(text: str) -> list[tuple[str, str, int]]:
    return [(m.group(1), m.group(2), m.start(1)) for m in _PAIR.finditer(text)]


def _unquote(value: str) -> tuple[str, bool]:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'"), True
    return value, False


class _Deck:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.symbols: set[str] = set()
        self.steps: dict[str, str] = {}  # STEP01 -> its label

    def value(self, raw: str, line: int, col: int) -> _Expr:
        text, quoted = _unquote(raw.strip())
        if quoted:
            return _Expr("str", line, col, text)
        sym = _SYMBOL.fullmatch(text)
        if sym and sym.group(1) in self.symbols:
            return _Expr("ref", line, col, f"var.{sym.group(1)}")
        ref = _REF.fullmatch(text)
        if ref and ref.group(1).upper() == "EACH":
            return _Expr("ref", line, col, f"each.value.{ref.group(2).lower()}")
        if ref and ref.group(1) in self.steps:
            step = self.steps[ref.group(1)]
            return _Expr("ref", line, col, f"{step}[*]" if ref.group(2) == "*" else f"{step}.{ref.group(2).lower()}")
        if _NUMBER.fullmatch(text):
            return _Expr("num", line, col, text)
        if text.upper() in ("TRUE", "FALSE"):
            return _Expr("bool", line, col, text.lower())
        if "&" in text and any(s in self.symbols for s in _SYMBOL.findall(text)):  # `&A-&B`: a template
            return _Expr("tmpl", line, col, _SYMBOL.sub(lambda m: f"${{var.{m.group(1)}}}", text))
        return _Expr("str", line, col, text)

    def read(self) -> list[_Attr | _Block]:
        lines = self.src.lines
        cards = _cards(lines)
        out: list[_Attr | _Block] = []
        step: _Block | None = None
        for line, card in cards:
            m = _CARD.match(card)
            if card.strip() == "//" or m is None:
                continue
            name, verb, rest = m.group(1), m.group(2).upper(), m.group(3)
            col = m.start(3) + 1
            if verb == "JOB":
                for key, val, at in _params(rest):
                    minutes = re.fullmatch(r"\(?(\d++)(?:,(\d++))?\)?", val)
                    if key.upper() == "TIME" and minutes:
                        secs = int(minutes.group(1)) * 60 + int(minutes.group(2) or 0)
                        out.append(_Attr("timeout", line, col + at, _Expr("str", line, col + at, f"{secs}s")))
                others = [k.upper() for k, _v, _a in _params(rest) if k.upper() != "TIME"]
                if others:
                    self.src.warn(line, f"the JOB card's {', '.join(others)} are the mainframe's and not read",
                                  code="spec.jcl")
            elif verb == "SET":
                for key, val, at in _params(rest):
                    self.symbols.add(key)
                    attrs: list[_Attr | _Block] = []
                    text, _q = _unquote(val)
                    if not _placeholder(text):
                        attrs.append(_Attr("default", line, col + at, self.value(val, line, col + at)))
                    out.append(_Block("variable", [key], line, col + at, attrs))
            elif verb == "EXEC":
                params = _params(rest)
                label = name or f"STEP{len(self.steps) + 1:02d}"
                body: list[_Attr | _Block] = []
                for key, val, _at in params:  # column 0: the comment cards under the card are inside the step
                    k = key.lower()
                    if k == "skill":
                        body.append(_Attr("skill", line, 0, _Expr("str", line, 0, _unquote(val)[0])))
                    elif k in ("foreach", "for_each", "each"):
                        body.append(_Attr("for_each", line, 0, self.value(val, line, 0)))
                    else:
                        body.append(_Attr(k, line, 0, self.value(val, line, 0)))
                if not any(a.name == "skill" for a in body if isinstance(a, _Attr)):
                    self.src.warn(line, f"`{label}` runs a program, not a skill (no SKILL=): not a step",
                                  code="spec.jcl")
                    step = None
                    continue
                sid = f"step-{len(self.steps) + 1}"  # `STEP01` reads as step 1 in references: ids by order
                self.steps[label] = sid
                body.insert(0, _Attr("name", line, 0, _Expr("str", line, 0, label)))
                step = _Block("step", [sid], line, 0, body)
                out.append(step)
            elif verb == "DD" and re.match(r"\*|DATA\b", rest.strip(), re.IGNORECASE) and step is not None:
                pairs = self.sysin(line, step)
                if pairs:
                    first = pairs[0]
                    step.body.append(_Attr("input", first[1], 0, _Expr("obj", first[1], first[2],
                                                                              pairs=pairs)))
            else:
                self.src.warn(line, f"the {verb} card is not read (a deck's steps are its `EXEC SKILL=` cards)",
                              code="spec.jcl")
        return out

    def sysin(self, line: int, step: _Block) -> list[tuple[str, int, int, _Expr]]:
        """The in-stream cards after a `DD *` at `line` (1-based), up to `/*` or the next `//` card."""
        pairs: list[tuple[str, int, int, _Expr]] = []
        for i in range(line, len(self.src.lines)):
            raw = self.src.lines[i]
            if raw.startswith("/*") or raw.startswith("//"):
                break
            text = _strip_note(raw)
            if not text.strip():
                continue
            for key, val, at in _params(text):
                pairs.append((key.lower(), i + 1, at + 1, self.value(val, i + 1, at + len(key) + 2)))
            if not _PAIR.search(text):
                self.src.warn(i + 1, f"the in-stream card {text.strip()!r} is not FIELD=VALUE: not read",
                              code="spec.jcl")
        return pairs


def jcl_top(src: Source) -> list[_Attr | _Block]:
    """A JCL deck's cards as `hcl30`'s top-level blocks and attributes; its comment cards (`//*`) and card notes
    (`<==`) become `#` comments in `src.text` (same lines), which the comment readers take as the steps' words."""
    top = _Deck(src).read()
    lines = []
    for raw in src.lines:
        if raw.startswith("//*"):
            raw = "#  " + raw[3:]
        elif "<==" in raw:
            raw = raw.replace("<==", "#  ", 1)
        lines.append(raw)
    src.text = "\n".join(lines) + "\n"
    src.lines = src.text.splitlines()
    return top

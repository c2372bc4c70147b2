"""The lines and branches of a script runbook (`spec.script_runbook`).

`code_lines` cuts a script into comment, code and blank lines, each with its line number: a
`#` line (a `<# ... #>` block in PowerShell, the module docstring in Python) is a comment, a
line ending in `\\` (a backtick in PowerShell) goes on at the next, a Makefile recipe line loses
its tab and `@`, and `$$` is `$`; a Python `if` block ends where the code goes back to its
indentation (a line `\\x00end` says so). `Flow.pieces` cuts a code line into what it does: an
`if`/`elif`/`else`/end of a branch (shell `fi`, PowerShell `}`), a loop, or a command.

`branch_steps` puts the steps under each `if` in their arm: the steps of the first arm run when
its condition holds (in the condition reader's words: `spec.script_code.condition_words`), those of
an `elif` when it holds and the earlier ones did not, those of an `else` exactly when the first
arm's step did not run; the first step after the branch runs once after whichever arm ran.
A condition the reader cannot read is one warning at its `if`: the steps under it always run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_code import condition_words
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

END = "\x00end"
_COMMENT = _rx(r"^#++\s*+(.*+)$")
_SH_IF = _rx(r"^(?P<kw>if|elif)\s++(?P<cond>.+?)(?:\s++then)?\s*+$")
_SH_LEAD = _rx(r"^(?P<kw>then|else|do)\b\s*+(?P<rest>.*+)$")
_LOOP = _rx(r"(?i)^(?:for|foreach|while|until|select)\b")
_PS_IF = _rx(r"(?i)^\}?\s*+(?P<kw>if|elseif)\s*+\(")
_PS_ELSE = _rx(r"(?i)^\}?\s*+else\s*+\{?\s*+(?P<rest>.*+)$")
_PY_IF = _rx(r"^(?P<kw>if|elif)\s++(?P<cond>.+):\s*+(?:#.*+)?$")
_PY_ELSE = _rx(r"^else\s*+:\s*+(?:#.*+)?$")
_GUARD = _rx(r"^(?P<cond>\[\[?[^\]]{1,200}+\]\]?|\(\([^)]{1,200}+\)\))\s*+&&\s*+(?P<rest>\S.*+)$")
_CLAUSE = _rx(r"^(?P<a>[^<>=!]+?)\s*+(?P<op>==|!=|<=|>=|<|>)\s*+(?P<b>[^<>=!]++)$")
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


@dataclass
class Arm:
    condition: str | None  # as written; None: the else arm
    line: int


@dataclass
class Block:
    arms: list[Arm]
    end: int = 0  # the line of its `fi` / `}` / where its indentation ended
    steps: list[list[str]] = field(default_factory=list)


def code_lines(lines: list[str], language: str) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of a script (module docstring)."""
    out: list[tuple[str, int, str]] = []
    joined, start, in_block, doc = "", 0, False, None
    ifs: list[int] = []  # Python: the indentation of each open `if`
    coded = False  # a code line was seen (a docstring comes before any)
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip()
        if language == "make":
            text = (text[1:] if raw.startswith("\t") else text).replace("$$", "$")
            if raw.startswith("\t"):
                text = text.lstrip().lstrip("@-+")
            elif re.match(r"^[A-Za-z_][\w.-]*+\s*+:(?!=)", text):
                out.append(("blank", number, ""))
                continue
        stripped = text.strip()
        if number == 1 and stripped.startswith("#!"):
            out.append(("blank", number, ""))
            continue
        if language == "ps" and (in_block or stripped.startswith("<#")):
            in_block = not stripped.endswith("#>")
            out.append(("comment", number, stripped.removeprefix("<#").removesuffix("#>").strip()))
            continue
        if language == "py" and (doc or (not coded and stripped[:3] in ('"""', "'''"))):
            quote = doc or stripped[:3]
            body = stripped[3:] if doc is None else stripped
            doc = None if quote in body else quote
            out.append(("comment", number, body.replace(quote, "").strip()))
            continue
        if not joined and (m := _COMMENT.match(stripped)):
            out.append(("comment", number, m.group(1).strip()))
            continue
        if not stripped and not joined:
            out.append(("blank", number, ""))
            continue
        code, _, trailing = _cut_comment(text) if language != "py" or "#" in text else (text, "", "")
        if not joined:
            start = number
        cont = "`" if language == "ps" else "\\"
        if code.rstrip().endswith(cont):
            joined += code.rstrip()[:-1] + " "
            continue
        whole = (joined + code).rstrip()
        joined, coded = "", True
        if language == "py":
            indent = len(whole) - len(whole.lstrip())
            body = whole.strip()
            while ifs and indent <= ifs[-1] and not (indent == ifs[-1] and (_PY_ELSE.match(body) or body.startswith("elif "))):
                ifs.pop()
                out.append(("code", start, END))
            if _PY_IF.match(body) and body.startswith("if ") and "__name__" not in body:
                ifs.append(indent)
        out.append(("code", start, whole.strip()))
        if trailing.strip():
            out.append(("comment", number, trailing.strip()))
    out.extend(("code", len(lines), END) for _ in ifs)
    return out


def _cut_comment(text: str) -> tuple[str, str, str]:
    """(code, '#', comment) of a line with a trailing ` # comment` outside quotes."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and i > 0 and text[i - 1] in " \t" and text[i - 1:i + 2] != " #>":
            return text[:i], "#", text[i + 1:]
    return text, "", ""


class Flow:
    """Cuts code lines into pieces, keeping PowerShell's open braces between lines."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.braces: list[bool] = []  # PowerShell: True for an if-block's brace

    def pieces(self, text: str) -> list[tuple[str, str]]:
        if text == END:
            return [("end", "")]
        if self.language == "ps":
            return self._ps(text)
        if self.language == "py":
            m = _PY_IF.match(text)
            if m and "__name__" not in text:
                return [(m.group("kw"), m.group("cond"))]
            if _PY_ELSE.match(text):
                return [("else", "")]
            return [("loop", text)] if _LOOP.match(text) and text.endswith(":") else [("code", text)]
        out: list[tuple[str, str]] = []
        for part in _split_semicolons(text):
            lead = _SH_LEAD.match(part)
            if lead:
                if lead.group("kw") == "else":
                    out.append(("else", ""))
                part = lead.group("rest").strip()
            if not part:
                continue
            m = _SH_IF.match(part)
            if m:
                out.append((m.group("kw"), m.group("cond")))
            elif re.match(r"^fi\b", part):
                out.append(("end", ""))
            elif _LOOP.match(part) or part.startswith(("case ", "switch ")):
                out.append(("loop", part))
            elif (guard := _GUARD.match(part)) is not None:  # `[ "$x" = yes ] && skill y`: a one-line if
                out += [("if", guard.group("cond")), ("code", guard.group("rest")), ("end", "")]
            elif not re.match(r"^(?:done|esac)\b", part):
                out.append(("code", part))
        return out

    def _ps(self, text: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if text.startswith("}") and self.braces:
            if self.braces.pop() and not _PS_IF.match(text) and not _PS_ELSE.match(text):
                out.append(("end", ""))
            text = text[1:].strip()
            if not text:
                return out
        m = _PS_IF.match(text)
        if m:
            depth, close = 0, len(text)
            for i in range(m.end() - 1, len(text)):
                depth += (text[i] == "(") - (text[i] == ")")
                if depth == 0:
                    close = i
                    break
            out.append(("if" if m.group("kw").lower() == "if" else "elif", text[m.end():close]))
            return out + self._opened(text[close + 1:].strip())
        e = _PS_ELSE.match(text)
        if e:
            out.append(("else", ""))
            return out + self._opened("{" + e.group("rest") if "{" in text else e.group("rest"))
        if text.endswith("{"):
            self.braces.append(False)
            if _LOOP.match(text):
                out.append(("loop", text))
            return out
        return [*out, ("code", text)] if text not in ("{", "}") else out

    def _opened(self, rest: str) -> list[tuple[str, str]]:
        if rest.startswith("{"):
            rest = rest[1:].strip()
            if rest.endswith("}"):  # `if (...) { skill x }`: one line
                return [("code", rest[:-1].strip()), ("end", "")] if rest[:-1].strip() else [("end", "")]
            self.braces.append(True)
        return [("code", rest)] if rest else []


def _split_semicolons(text: str) -> list[str]:
    parts, quote, depth, last = [], "", 0, 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ";" and depth <= 0:
            parts.append(text[last:i].strip())
            last = i + 1
    return [p for p in [*parts, text[last:].strip()] if p]


def _negated(words: str) -> str | None:
    if " and " in words:
        return None
    out = []
    for clause in words.split(" or "):
        m = _CLAUSE.match(clause.strip())
        if m is None:
            return None
        out.append(f"{m.group('a').strip()} {_FLIP[m.group('op')]} {m.group('b').strip()}")
    return " and ".join(out)


def branch_steps(steps: list[StepSpec], arms: list[tuple[tuple[int, int], ...]], blocks: list[Block],
                 src: Source) -> list[StepSpec]:
    """The steps with the branches around them read (module docstring)."""
    by_number = {s.number or 0: s for s in steps}
    under: dict[tuple[int, int], list[int]] = {}  # (block, arm) -> the steps under it, kept as we go
    for s, a in zip(steps, arms, strict=True):
        for key in a:
            under.setdefault(key, []).append(s.number or 0)
    for b, block in enumerate(blocks):
        inside = [under.get((b, k), []) for k in range(len(block.arms))]
        if not any(inside):
            continue
        words = [condition_words(a.condition) if a.condition is not None else None for a in block.arms]
        unread = [(a, w) for a, w in zip(block.arms, words, strict=True) if w is not None and read_condition(w) is None]
        names = ", ".join(f"step-{n}" for arm in inside for n in arm)
        if unread:
            arm, said = unread[0]
            src.warn(arm.line, f"the condition '{(arm.condition or '')[:80]}' (read as '{said[:80]}') is not read, so the "
                               f"steps under this branch ({names}) all run: write it as a comparison of an output "
                               "field, e.g. `[ \"$(jq .total a.json)\" -gt 500 ]`", "spec.condition-not-read")
            continue
        for k, arm in enumerate(block.arms):
            earlier = [w for w in words[:k] if w is not None]
            negs = [_negated(w) for w in earlier]
            for number in inside[k]:
                step = by_number[number]
                if arm.condition is None and k == 1 and inside[0] and not step.when and not step.otherwise_of:
                    by_number[number] = _set(step, {"otherwise_where": step.where, "otherwise_of": f"step-{inside[0][0]}"},
                                             "otherwise", arm.line, f"runs exactly when the condition of step-{inside[0][0]}"
                                             f" was false (the `else` at line {arm.line})", src)
                    continue
                if any(n is None for n in negs):
                    src.warn(arm.line, f"step-{number} is under this branch, after others whose conditions cannot be "
                                       "turned round here, so it is not read: it always runs", "spec.condition-not-read")
                    continue
                cond = " and ".join([*(n for n in negs if n), *(w for w in words[k:k + 1] if w)])
                if step.otherwise_of or (step.when and (" or " in step.when or " or " in cond)):
                    src.warn(arm.line, f"step-{number} is under two branches; only the outer one's condition "
                                       f"({step.when or 'the else'}) is read", "spec.condition-not-read")
                    continue
                cond = f"{step.when} and {cond}" if step.when else cond
                by_number[number] = _set(step, {"when": cond}, "when", arm.line,
                                         f"runs only when {cond} (the branch at line {arm.line})", src)
        ran: list[int] = []
        for held in (a for a in inside if a):  # an arm's last step; one in a branch of its own: that branch's last ones
            nested = arms[held[-1] - 1]
            deeper = nested[nested.index(next(x for x in nested if x[0] == b)) + 1:][:1]
            inner = [under.get((deeper[0][0], kk), []) for kk in range(len(blocks[deeper[0][0]].arms))] if deeper else []
            ran += [a[-1] for a in inner if a] if sum(1 for a in inner if a) >= 2 else [held[-1]]
        last = max(n for arm in inside for n in arm)  # step n is steps[n - 1]
        after = next((s for s, a in zip(steps[last:], arms[last:], strict=True) if all(bb != b for bb, _ in a)), None)
        if after is not None and len(ran) >= 2 and not by_number[after.number or 0].depends_on:
            ids = tuple(f"step-{n}" for n in ran)
            by_number[after.number or 0] = _set(by_number[after.number or 0], {"depends_on": ids, "depends_where": after.where,
                                                                     "join": "any"}, "join", block.end,
                                           f"runs once after whichever of {', '.join(ids)} ran (the branch ends at "
                                           f"line {block.end})", src)
    return [by_number[s.number or 0] for s in steps]


def _set(step: StepSpec, update: dict[str, object], what: str, line: int, note: str, src: Source) -> StepSpec:
    reading = Reading(what=what, where=src.where(line), text=src.line_text(line).strip()[:160], note=note)
    where = {**step.field_where, "when": step.where} if what != "join" else step.field_where
    return step.model_copy(update={**update, "field_where": where, "readings": (*step.readings, reading)})


_rx.save()

"""The language and the lines of a script runbook (`spec.script_runbook`).

`script_language` tells a script runbook by its name or `#!` line. `code_lines` cuts a script
into comment, code and blank lines, each with its line number: a `#` line (a `<# ... #>` block in PowerShell, the module docstring in Python) is a comment, a
line ending in `\\` (a backtick in PowerShell, or a PowerShell line whose `(` or `@{` is not closed)
goes on at the next, a Makefile recipe line loses
its tab and `@`, and `$$` is `$`; a Python `if` block ends where the code goes back to its
indentation (a line `\\x00end` says so). `Flow.pieces` cuts a code line into what it does: an
`if`/`elif`/`else`/end of a branch (shell `fi`, PowerShell `}`), a loop, or a command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from orchestrator.spec.batch47 import bat_line, bat_pieces
from orchestrator.spec.powershell45 import closed_at, still_open, try_catch
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

SUFFIXES = {".sh": "sh", ".bash": "sh", ".zsh": "sh", ".ksh": "sh", ".ps1": "ps", ".psm1": "ps", ".py": "py",
            ".mk": "make", ".bat": "bat", ".cmd": "bat", ".r": "r",
            ".sieve": "sieve", ".siv": "sieve",
            ".bas": "vba", ".vba": "vba", ".vbs": "vba", ".pl": "perl"}
END = "\x00end"
NEXT = "\x00next"  # a loop's end (`spec.vba49`)
_COMMENT = _rx(r"^#++\s*+(.*+)$")
_SH_IF = _rx(r"^(?P<kw>if|elif)\s++(?P<cond>.+?)(?:\s++then)?\s*+$")
_SH_LEAD = _rx(r"^(?P<kw>then|else|do)\b\s*+(?P<rest>.*+)$")
_LOOP = _rx(r"(?i)^(?:for|foreach|while|until|select)\b")
_PS_IF = _rx(r"(?i)^\}?\s*+(?P<kw>if|elseif)\s*+\(")
_PS_ELSE = _rx(r"(?i)^\}?\s*+else\s*+\{?\s*+(?P<rest>.*+)$")
_PY_IF = _rx(r"^(?P<kw>if|elif)\s++(?P<cond>.+):\s*+(?:#.*+)?$")
_PY_ELSE = _rx(r"^else\s*+:\s*+(?:#.*+)?$")
_GUARD = _rx(r"^(?P<cond>\[\[?[^\]]{1,200}+\]\]?|\(\([^)]{1,200}+\)\))\s*+&&\s*+(?P<rest>\S.*+)$")


def script_language(path: str, text: str) -> str | None:
    """"sh", "ps", "py", "make", "bat", "r", "sieve", "vba", "perl", "cron", "unit" or "procfile" for a script runbook by its
    file name, `#!` line or first line, else None."""
    name = PurePath(path).name
    suffix = PurePath(path).suffix.lower()
    if suffix in (".md", ".markdown", ".yaml", ".yml", ".json"):
        return None
    if name.lower() in ("makefile", "gnumakefile") or suffix == ".mk":
        return "make"
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    from orchestrator.spec.crontab import is_crontab
    from orchestrator.spec.unit35 import is_unit

    if is_unit(path, text):  # a systemd .service file whose command lines run the skills (`spec.unit35`)
        return "unit"

    if is_crontab(path, text):  # an /etc/cron.d file whose jobs run the skills (`spec.crontab`)
        return "cron"
    from orchestrator.spec.procfile38 import is_procfile

    if is_procfile(path, text):  # a Procfile whose process lines run the skills (`spec.procfile38`)
        return "procfile"
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    if first.startswith("Attribute VB_Name"):  # an exported VBA module (`spec.vba49`)
        return "vba"
    if first.startswith("#!") and "Rscript" in first:  # an R script (`spec.rscript47`)
        return "r"
    if first.startswith("#!") and "perl" in first:  # a Perl script (`spec.perl50`)
        return "perl"
    if first.startswith("#!"):
        return "py" if "python" in first else "ps" if "pwsh" in first or "powershell" in first else "sh"
    return None


@dataclass
class Arm:
    condition: str | None  # as written; None: the else arm
    line: int


@dataclass
class Block:
    arms: list[Arm]
    end: int = 0  # the line of its `fi` / `}` / where its indentation ended
    steps: list[list[str]] = field(default_factory=list)


# a PowerShell `@{` or `(` left open joins at most this many lines into its statement: past that the statement is
# taken as it stands (bounded work on a file that never closes it; the lines after are read on their own)
_MAX_JOINED = 200


def code_lines(lines: list[str], language: str) -> list[tuple[str, int, str]]:
    """(kind, line, text) of each line of a script (module docstring)."""
    if language == "r":  # an R script: its statements in Python's words (`spec.rscript47`)
        from orchestrator.spec.rscript47 import r_code_lines

        return r_code_lines(lines)
    if language == "sieve":  # a Sieve mail filter: its statements in Python's words (`spec.sieve49`)
        from orchestrator.spec.sieve49 import sieve_code_lines

        return sieve_code_lines(lines)
    if language == "vba":  # a VBA module: its statements in Python's words (`spec.vba49`)
        from orchestrator.spec.vba49 import vba_code_lines

        return vba_code_lines(lines)
    if language == "perl":  # a Perl script: its statements in Python's words (`spec.perl50`)
        from orchestrator.spec.perl50 import perl_code_lines

        return perl_code_lines(lines)
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
        if language == "bat":  # a Windows batch file: its lines in a shell's words (`spec.batch47`)
            kind, said = bat_line(text)
            if kind in ("comment", "blank") and not joined:
                out.append((kind, number, said))
                continue
            text = said if kind == "code" else f"\x00{kind} {said}"
            if kind == "code" and text.endswith("^"):
                joined, start = joined + text[:-1] + " ", start if joined else number
                continue
            out.append(("code", start if joined else number, (joined + text).strip()))
            joined = ""
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
        if (language == "ps" and number < len(lines) and number - start < _MAX_JOINED
                and (open_ := still_open(joined + code)) is not None):
            joined += code.rstrip() + ("; " if open_ == "h" else " ")  # a `@{` or `(` closed on a later line
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
        self.braces: list[bool | str] = []  # PowerShell: True for an if-block's brace, "catch" for a catch block's

    def pieces(self, text: str) -> list[tuple[str, str]]:
        if text == END:
            return [("end", "")]
        if self.language == "ps":
            return self._ps(text)
        if self.language == "bat":
            return [("jump", text[1:])] if text.startswith("\x00") else bat_pieces(text)
        if self.language in ("py", "r", "sieve", "vba", "perl"):
            if text == NEXT:  # the end of a VBA `For Each` (`spec.vba49`)
                return [("next", "")]
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
            closed = self.braces.pop()
            if closed == "catch":
                out.append(("end-catch", ""))
            elif closed is True and not _PS_IF.match(text) and not _PS_ELSE.match(text):
                out.append(("end", ""))
            text = text[1:].strip()
            if not text:
                return out
        if (block := try_catch(text)) is not None:  # `try {` / `catch {` (`spec.powershell45`)
            kind, rest = block
            out.append((kind, ""))
            ends = closed_at(rest)
            if ends is not None:  # `try { Invoke-Skill x } catch { ... }`: the block ends on its line
                body, after = rest[:ends].strip(), rest[ends + 1:].strip()
                out += [("code", body)] if body else []
                out += [("end-catch", "")] if kind == "catch" else []
                return out + (self._ps(after) if after else [])
            self.braces.append(kind if kind == "catch" else False)
            return [*out, ("code", rest)] if rest else out
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


_rx.save()

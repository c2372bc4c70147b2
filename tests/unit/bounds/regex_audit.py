"""Find every regular expression orchestrator/ compiles, and build inputs meant to make each
one backtrack (issue 25: parsing stays linear). Used by `test_regex_linear`.

    patterns()                 [Found]: each distinct (pattern, flags), with where it was seen
    adversarial(pattern, n)    [(label, text)]: inputs of about n characters for it

Where patterns are found: the module-level values of every module under orchestrator/
(a compiled pattern, or one inside a tuple, list, dict or set there: `compile_many`'s
results, tables of patterns), the policy grammar's rows, needs, gates and signals (compiled
on first use, so asked for by `grammar.compiled`), and every `re.compile/search/match/
fullmatch/sub/subn/split/findall/finditer` call in the source whose pattern is a string
literal (or a module-level string constant), inside functions too.

The inputs: for each repetition in the pattern (`*`, `+`, `{m,}`), what comes before it
in the pattern (so the engine reaches it), then one thing it repeats, again and again,
then a character that fits nowhere (`\\x00`, and a second try with `!`); and each single
character a repetition takes, repeated. A pattern that backtracks over a run does it on one
of these.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]
from typing import Any

import orchestrator

ROOT = Path(orchestrator.__file__).resolve().parent
_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"}
_POOL = string.ascii_letters + string.digits + " \t\n" + string.punctuation + "é→–ß\u00a0"
_TAILS = ("\x00", "!")
MAX_INPUTS = 12  # per pattern, the most telling first


@dataclass
class Found:
    pattern: str
    flags: int
    where: list[str] = field(default_factory=list)
    anchored: bool = True  # only ever used with match/fullmatch (at the start), not searched

    def run(self, regex: re.Pattern[str], text: str) -> object:
        return regex.match(text) if self.anchored else regex.search(text)

    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.pattern, self.flags)


def _modules() -> list[str]:
    return sorted({m.name for m in pkgutil.walk_packages([str(ROOT)], "orchestrator.")
                   if not m.name.endswith("__main__")})  # running one would start the CLI


def _patterns_in(value: Any, depth: int = 0) -> list[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        return [value] if isinstance(value.pattern, str) else []
    if depth >= 3:
        return []
    if isinstance(value, dict):
        return [p for v in (*value.keys(), *value.values()) for p in _patterns_in(v, depth + 1)]
    if isinstance(value, tuple | list | set | frozenset):
        return [p for v in value for p in _patterns_in(v, depth + 1)]
    return []


def _flags(node: ast.expr | None, module: Any) -> int | None:
    """The value of a flags argument written as `re.I | re.M` (or 0), else None."""
    if node is None:
        return 0
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left, module), _flags(node.right, module)
        return None if left is None or right is None else left | right
    if isinstance(node, ast.Name) and isinstance(getattr(module, node.id, None), int):
        return int(getattr(module, node.id))
    return None


_ANCHORED = {"match", "fullmatch"}


def _calls(sources: str) -> dict[str, set[str]]:
    """name -> the methods called on it (`name.method(`) anywhere in orchestrator/: one pass over the
    sources, at every word start (a lookahead, so `a.b.c(` gives `b` its `c`), for `_uses`."""
    out: dict[str, set[str]] = {}
    for name, method in re.findall(r"(?=\b(\w+)\.(\w+)\()", sources):
        out.setdefault(name, set()).add(method)
    return out


def _uses(calls: dict[str, set[str]], name: str) -> set[str]:
    """The methods called on a module-level pattern `name` anywhere in orchestrator/."""
    return set(calls.get(name, ()))


def _literal_calls(path: Path, module: Any) -> list[tuple[str, int, int, str]]:
    """(pattern, flags, line, call) of each `re.<call>(literal, ...)` in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, int, int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _CALLS and node.args):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            source = first.value
        elif isinstance(first, ast.Name) and isinstance(getattr(module, first.id, None), str):
            source = getattr(module, first.id)
        else:
            continue
        at = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "split": 3, "findall": 2, "finditer": 2,
              "sub": 4, "subn": 4}[node.func.attr]
        given = next((k.value for k in node.keywords if k.arg == "flags"), None)
        if given is None and len(node.args) > at:
            given = node.args[at]
        flags = _flags(given, module)
        if flags is not None:
            out.append((source, flags, node.lineno, node.func.attr))
    return out


def patterns() -> list[Found]:
    """Every distinct (pattern, flags) orchestrator/ compiles (module docstring)."""
    found: dict[tuple[str, int], Found] = {}
    calls = _calls("\n".join(p.read_text(encoding="utf-8") for p in sorted(ROOT.rglob("*.py"))))

    def add(pattern: str, flags: int, where: str, anchored: bool | None) -> None:
        """`anchored` None: no say (an `re.compile` whose result is used elsewhere)."""
        flags &= ~re.UNICODE  # implied for str patterns; one key for both spellings
        key = (pattern, flags)
        if anchored is None and key not in found:
            anchored = False  # compiled in a function: how it is used is not known here
        entry = found.setdefault(key, Found(pattern, flags))
        entry.where.append(where)
        entry.anchored = entry.anchored and anchored is not False

    for name in _modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            for compiled in _patterns_in(value):
                uses = _uses(calls, attr) if isinstance(value, re.Pattern) else set()
                anchored = bool(uses) and uses <= _ANCHORED
                add(compiled.pattern, compiled.flags, f"{name}.{attr}", anchored)
        path = Path(module.__file__ or "")
        if path.suffix == ".py":
            for source, flags, line, call in _literal_calls(path, module):
                add(source, flags | re.UNICODE, f"{name}:{line}", None if call == "compile" else call in _ANCHORED)
    from orchestrator.spec import grammar

    for written in grammar._every_pattern():
        compiled = grammar.compiled(written)
        add(compiled.pattern, compiled.flags, f"orchestrator.spec.grammar: {written[:60]!r}", False)
    return list(found.values())


# -- adversarial inputs -------------------------------------------------------------------

def _char_ok(op: Any, av: Any, ch: str, flags: int) -> bool:
    """Whether the single-character node (op, av) matches `ch`."""
    probe = ch.lower() if flags & re.I else ch

    def cat(name: Any) -> bool:
        text = str(name)
        if "DIGIT" in text:
            hit = ch.isdigit()
        elif "SPACE" in text:
            hit = ch.isspace()
        elif "WORD" in text:
            hit = ch.isalnum() or ch == "_"
        elif "LINEBREAK" in text:
            hit = ch == "\n"
        else:
            return False
        return not hit if "NOT" in text else hit

    if op is C.LITERAL:
        return chr(av) == ch or (bool(flags & re.I) and chr(av).lower() == probe)
    if op is C.NOT_LITERAL:
        return chr(av) != ch
    if op is C.ANY:
        return ch != "\n" or bool(flags & re.S)
    if op is C.CATEGORY:
        return cat(av)
    if op is C.IN:
        negate = bool(av) and av[0][0] is C.NEGATE
        def one(sop: Any, sav: Any) -> bool:
            if sop is C.LITERAL:
                return chr(sav) == ch or (bool(flags & re.I) and chr(sav).lower() == probe)
            if sop is C.RANGE:
                return sav[0] <= ord(ch) <= sav[1] or (bool(flags & re.I) and sav[0] <= ord(probe) <= sav[1])
            return sop is C.CATEGORY and cat(sav)

        hit = any(one(sop, sav) for sop, sav in (av[1:] if negate else av))
        return hit != negate
    return False


_SINGLE = {C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN, C.CATEGORY}
_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT}


_CHARS: dict[tuple[Any, str, int], list[str]] = {}


def _chars(op: Any, av: Any, flags: int) -> list[str]:
    """The pool's characters the node (op, av) matches, worked out once per node and flags."""
    key = (op, repr(av), int(flags))
    if key not in _CHARS:
        _CHARS[key] = [ch for ch in _POOL if _char_ok(op, av, ch, int(flags))]
    return _CHARS[key]


def _sample(items: Any, flags: int, rich: bool, depth: int = 0) -> str:
    """One string the node list matches (lookarounds and anchors aside): the first branch,
    each repetition its least (at least once when `rich`)."""
    if depth > 40:
        return ""
    out: list[str] = []
    for op, av in items:
        if op in _SINGLE:
            chars = _chars(op, av, flags)
            out.append(chars[0] if chars else "a")
        elif op is C.BRANCH:
            out.append(_sample(av[1][0], flags, rich, depth + 1))
        elif op is C.SUBPATTERN:
            out.append(_sample(av[3], flags, rich, depth + 1))
        elif op is C.ATOMIC_GROUP:
            out.append(_sample(av, flags, rich, depth + 1))
        elif op in _REPEATS:
            low, _, item = av
            times = max(low, 1) if rich else low
            out.append(_sample(item, flags, rich, depth + 1) * min(times, 3))
        elif op is C.GROUPREF_EXISTS:
            out.append(_sample(av[1], flags, rich, depth + 1))
    return "".join(out)


def _runs(items: Any, flags: int, before: str, depth: int = 0) -> list[tuple[str, str, str]]:
    """(label, prefix, unit) for each repetition: the text before it, and one thing it repeats."""
    found: list[tuple[str, str, str]] = []
    if depth > 40:
        return found
    for index, (op, av) in enumerate(items):
        prefix = before + _sample(items[:index], flags, True)
        if op in _REPEATS and av[1] > 1:
            item = av[2]
            units = {_sample(item, flags, False), _sample(item, flags, True)}
            for unit in sorted(u for u in units if u):
                found.append((f"repeat #{index}: {unit[:12]!r}", prefix, unit))
            if len(item) == 1 and item[0][0] in _SINGLE:
                for ch in _chars(item[0][0], item[0][1], flags)[:6]:
                    found.append((f"repeat #{index} of {ch!r}", prefix, ch))
            found += _runs(item, flags, prefix, depth + 1)
        elif op is C.BRANCH:
            for branch in av[1]:
                found += _runs(branch, flags, prefix, depth + 1)
        elif op is C.SUBPATTERN:
            found += _runs(av[3], flags, prefix, depth + 1)
        elif op in (C.ATOMIC_GROUP,):
            found += _runs(av, flags, prefix, depth + 1)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            found += _runs(av[1], flags, prefix, depth + 1)
        elif op is C.GROUPREF_EXISTS:
            for part in (av[1], av[2]):
                if part is not None:
                    found += _runs(part, flags, prefix, depth + 1)
    return found


def shapes(found: Found) -> list[tuple[str, str, str, str]]:
    """(label, prefix, unit, tail) of the inputs for a pattern, at most MAX_INPUTS, no repeats."""
    parsed = P.parse(found.pattern, found.flags)
    seen: set[tuple[str, str, str]] = set()
    out: list[tuple[str, str, str, str]] = []
    for label, prefix, unit in _runs(list(parsed), found.flags, ""):
        for tail in _TAILS:
            for pre in (prefix, ""):
                key = (pre, unit, tail)
                if key not in seen:
                    seen.add(key)
                    out.append((f"{label}{' after ' + repr(pre[:20]) if pre else ''}, then {tail!r}", pre, unit,
                                tail))
    return out[:MAX_INPUTS]


def build(prefix: str, unit: str, tail: str, size: int) -> str:
    """`prefix`, then `unit` as often as fits in `size` characters, then `tail`."""
    times = max(1, (size - len(prefix) - len(tail)) // len(unit))
    return prefix + unit * times + tail

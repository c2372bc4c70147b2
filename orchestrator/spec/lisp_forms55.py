"""Lisp-family code (Clojure, Scheme, Fennel, Hy) read by its skill calls (55th round; used by `spec.wired52`).

    (defn run [{:keys [date tickets]}]                the entry function's destructured parameters: the run's
                                                      inputs `date`, `tickets` (also JS `function run({date,
                                                      tickets})`, `fn run(Args { date, tickets }: Args)`)
      (let [quotes (vec (for [t tickets]              a `let` binding names what its form gives: `quotes =`
                          (sw :price-repair           a keyword after the form's head names the skill
                              {:tag (:tag t)})))      `{:key value}` is `key: value`; `(:f x)`, `(get x :f)`
            tally (sw :sum-quotes {:quotes quotes})]  are `x.f`; `(for [t xs] ..)`, `(doseq [t xs] ..)` loop
                                                      over `xs` with `t` its item

`lisp_like` says whether a file is written so (most code lines open a form, `(defn`/`(define`/`(ns` among
them); `lisp_code` rewrites each code line into the `key: value` / `x.f` / `for t in xs` / `x = (..)` shapes
the generic reader already reads, keeping its brackets balanced (a getter's brackets go as a pair, a binding
vector's `[` `]` as a pair). `destructured_inputs` reads the names a run's entry function destructures.
Every pattern is anchored or bounded (linear).
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DEFINES = _rx(r"^\s*+\((?:defn-?|defun|define|defmacro|ns|def|fn|lambda|let)\b")
_GETTER = _rx(r"\(\s*+:(?P<f>[A-Za-z_][\w-]{0,60}+)\s++(?P<x>[A-Za-z_][\w-]{0,60}+)\s*+\)")
_GET = _rx(r"\(\s*+get\s++(?P<x>[A-Za-z_][\w-]{0,60}+)\s++:(?P<f>[A-Za-z_][\w-]{0,60}+)\s*+\)")
_HEAD_KEYWORD = _rx(r"\((?P<h>[A-Za-z_][\w.!?*/-]{0,40}+)\s++:(?P<k>[A-Za-z_][\w-]{0,80}+)(?=[\s)])")
_LOOP = _rx(r"\((?:for|doseq|pmap-for|dotimes)\s++\[\s*+(?P<t>[A-Za-z_][\w-]{0,60}+)\s++(?P<xs>[^\[\]\s]{1,120}+)\s*+\]")
_LET = _rx(r"\((?:let|when-let|if-let|loop|binding|let\*|letfn)\s*+\[$")
_BINDING = _rx(r"^(?P<ind>\s*+)(?P<name>[A-Za-z_][\w-]{0,60}+)\s++(?=[(\[{])")
_KEYWORD = _rx(r"(?<![\w:-]):(?P<k>[A-Za-z_][\w-]{0,60}+)\s++(?=[^\s}])")


def lisp_like(lines: Sequence[str]) -> bool:
    """Whether most code lines of the file open a form and some defines something (module docstring)."""
    code = [x.strip() for x in lines if x.strip() and not x.strip().startswith(";")]
    if len(code) < 3 or not any(_DEFINES.match(x) for x in code):
        return False
    return sum(1 for x in code if x.startswith(("(", "[", "{"))) * 3 >= len(code) and sum(x.count("(") for x in code) \
        >= 2 * max(1, sum(x.count("=") for x in code))


def _in_braces(code: str) -> str:
    """`:key value` inside `{..}` read as `key: value` (brackets tracked across the line only)."""
    out: list[str] = []
    stack: list[str] = []
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            j = code.find('"', i + 1)
            j = len(code) - 1 if j < 0 else j
            out.append(code[i:j + 1])
            i = j + 1
            continue
        if ch in "([{":
            stack.append(ch)
        elif ch in ")]}" and stack:
            stack.pop()
        if ch == ":" and stack and stack[-1] == "{" and (m := _KEYWORD.match(code, i)) is not None:
            out.append(f"{m.group('k')}: ")
            i = m.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _uncomment(code: str) -> str:
    """The code before a `;` comment outside a string."""
    quoted = False
    for i, ch in enumerate(code):
        if ch == '"' and (i == 0 or code[i - 1] != "\\"):
            quoted = not quoted
        elif ch == ";" and not quoted:
            return code[:i].rstrip()
    return code


def lisp_code(codes: Sequence[str]) -> list[str]:
    """Each code line rewritten into shapes the generic reader reads (module docstring)."""
    out: list[str] = []
    lets: list[int] = []  # the bracket depths at which a `let` vector's bindings stand
    depth = 0
    for code in codes:
        line = _uncomment(code)
        if lets and depth == lets[-1] and (b := _BINDING.match(line)) is not None:
            line = f"{b.group('ind')}{b.group('name')} = {line[b.end():]}"  # `tally (sw ..)`: `tally = (sw ..)`
        for pat in (_GETTER, _GET):
            line = pat.sub(lambda m: f"{m.group('x')}.{m.group('f')}", line)
        line = _LOOP.sub(lambda m: f"(for {m.group('t')} in {m.group('xs')}", line)
        line = _HEAD_KEYWORD.sub(lambda m: f"({m.group('h')} \"{m.group('k')}\"", line)
        line = _in_braces(line)
        # the depths: a `let [` opens a binding vector whose bindings stand one deeper than its `[`
        i = 0
        while i < len(line):
            ch = line[i]
            if ch == '"':
                j = line.find('"', i + 1)
                i = len(line) if j < 0 else j + 1
                continue
            if ch in "([{":
                depth += 1
                if ch == "[" and _LET.search(line[max(0, i - 16):i + 1]):
                    lets.append(depth)
            elif ch in ")]}":
                if lets and depth == lets[-1]:
                    lets.pop()
                depth = max(0, depth - 1)
            elif lets and depth == lets[-1] and i and line[i - 1] in "[ " and line[:i].rstrip().endswith("[") \
                    and (b := _BINDING.match(" " + line[i:])) is not None:
                line = f"{line[:i]}{b.group('name')} = {line[i + b.end() - 1:]}"  # `(let [x (sw ..)`: `x = (sw ..)`
                i += len(b.group("name")) + 3
                continue
            i += 1
        out.append(line)
    return out


_ENTRY = _rx(r"^\s*+\(?\s*+(?:(?:pub|export|async|public|static)\s++){0,3}+(?:defn-?|defun|define|def|function|func|fn|fun|sub)"
             r"\s++[A-Za-z_][\w.!?-]{0,80}+\s*+[\[(]\s*+(?:[A-Za-z_]\w{0,60}+\s*+)?\{(?P<inner>[^{}\n]{1,300}+)\}")
_KEYS = _rx(r"^\s*+:(?:keys|strs|syms)\s++\[(?P<names>[^\[\]\n]{1,300}+)\]")
_NAME = _rx(r"[A-Za-z_][\w-]{0,60}+")


def destructured_inputs(lines: Sequence[str], first_call: int) -> list[tuple[str, int]]:
    """(name, 0-based line) of each name the entry function above the first call destructures from its
    parameter: Clojure's `[{:keys [a b]}]`, JS's `({a, b})`, Rust's `(Args { a, b }: Args)`."""
    for j in range(min(first_call, len(lines) - 1), -1, -1):
        m = _ENTRY.match(lines[j])
        if m is None:
            continue
        inner = m.group("inner")
        if (k := _KEYS.match(inner)) is not None:
            return [(n, j) for n in _NAME.findall(k.group("names"))]
        if ":" in inner:
            return []  # `{a: x}` renames, `{:or ..}`: not a plain list of names
        names = [p.split("=", 1)[0].strip() for p in inner.split(",")]
        if all(_NAME.fullmatch(n) for n in names):
            return [(n, j) for n in names]
        return []
    return []


_rx.save()

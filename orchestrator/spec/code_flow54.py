"""How values flow into skill calls in code, beyond `key: step.field` (54th round; used by `spec.wired52`).

    def run(order) do                                  the entry function's parameter is the run's input
      stock =                                          container: `order.item` is the workflow input `item`
        Task.async(fn -> sw("check-stock", %{bouquet: order.item}) end)
                                                       a call under `x =` on the line above: its result is `x`
      stock = Task.await(stock)                        `x = await(y)`, `x = y.result()`, `x = y.get()`: `x`
                                                       names the step `y` names
      order
      |> Map.take([:date])
      |> then(&sw("book-courier", %{delivery_date: &1.date}))   a pipeline's subject: `&1` (or the parameter of a
                                                       `then`/`tap`/`let`/`and_then` lambda) is `order`

- `entry_params`: the parameters of the function (`def`, `defp`, `function`, `func`, `fn`, `fun`, `sub`, `proc`)
  that holds the first call - each is an input container, read as the run's inputs where the code reads a field
  of it (a bare parameter stays as before).
- `assigned_above`: the variable a call's result goes to when the assignment ends the line above (`x =`).
- `assigned_wrapped`: the variable a call's result goes to through what starts it - a wrapper call
  (`Task.async(fn -> ..`), a block (`t1 = Thread.new { skill(..) }`, `f = Future { run(..) }`, `async {`; a
  block over a list's items, `xs.map { |x| ..}`, is a loop, not this) or a command given the skill's name.
- `await_aliases`: a line that re-assigns a step's variable from an await or join of it gives that step the
  new name too (`orders = t1.value`, `x = await x`: the same name changes nothing, the step still answers to it);
  each `;`-separated statement of a line counts (`moist = fetch(t1); wt = fetch(t2)`, Julia's `fetch`, Clojure's
  `deref`, `take!` awaits too).
- `assigned_wrapped` also reads a word or macro that starts the call without brackets (`t1 = @async sw(..`,
  `t = Threads.@spawn run(..`, `let f = spawn call(..`): the call's result is `t1`, started with the others.
- `pipe_subject` / `piped`: the subject of the pipeline or method chain a call ends, and the code with the
  placeholder read as that subject. A lambda of `map`/`each` is a loop's item, not the subject: not read here.
Every pattern is anchored or bounded (linear).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from orchestrator.spec.powershell45 import split_outside
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)


class _CodeLine(Protocol):
    code: str
    indent: int


_DEF = _rx(r"^\s*+(?:(?:pub|public|private|protected|static|export|async|override|suspend)\s++){0,4}+"
           r"(?P<kw>def|defp|function|func|fn|fun|sub|proc|method)\s++(?:\([^()\n]{0,80}+\)\s*+)?"
           r"[A-Za-z_][\w.!?]{0,80}+\s*+(?:<[^<>\n]{0,80}+>\s*+)?\((?P<params>[^()\n]{0,300}+)\)")
_PARAM_WORD = _rx(r"[A-Za-z_]\w{0,60}+")
_NOT_PARAMS = frozenset({"self", "this", "cls", "mut", "ref", "const", "var", "val", "let", "in", "out", "inout"})


def entry_params(lines: Sequence[_CodeLine], first_call: int) -> list[str]:
    """The parameters of the function whose definition is the nearest above the first call (module docstring)."""
    for j in range(first_call, -1, -1):
        m = _DEF.match(lines[j].code)
        if m is None:
            continue
        if j < first_call and lines[first_call].indent <= lines[j].indent:
            return []  # the call is not inside it
        out = []
        for raw in m.group("params").split(","):
            said = raw.split("=", 1)[0].strip()
            if not said or (said.startswith(("*", "...")) and len(said) < 4):
                continue
            typed = ":" in said
            words = [w for w in _PARAM_WORD.findall(said.split(":", 1)[0] if typed else said)
                     if w.lower() not in _NOT_PARAMS]
            if not words:
                continue
            if typed:  # `input: Order`, Swift's `_ order: Order`: the name before the colon
                out.append(words[-1])
            elif m.group("kw") == "func" and len(words) > 1:  # Go's `req Request`: the name first
                out.append(words[0])
            else:  # `order`, `$req`, C-like `Order order`: the last word
                out.append(words[-1])
        return out
    return []


_ASSIGN_END = _rx(r"^\s*+(?:(?:let|val|var|const|my|our|local|final|auto)\s++)?[$@]?(?P<var>[A-Za-z_]\w{0,60}+)"
                  r"\s*+(?::=|<-|=)\s*+$")


def assigned_above(lines: Sequence[_CodeLine], index: int, column: int) -> str:
    """`x` when the code line right above the call's line is `x =` (`:=`, `<-`) and the call's line assigns
    nothing before the call; else ""."""
    head = lines[index].code[:column]
    if re.search(r"(?<![=!<>])=(?![=>])|:=|<-", head):
        return ""
    if index < 1 or not lines[index - 1].code.strip():
        return ""  # a blank or comment line between: not its value
    m = _ASSIGN_END.match(lines[index - 1].code)
    if m is None:  # `t = Thread.new do` / `f = Future {` ending the line above: the block's call is its value
        return block_var(lines[index - 1].code)
    return m.group("var")


# the head of a call's line that assigns the call's result through wrappers that start it:
# `x = Task.async(fn -> sw("`, `fut = asyncio.create_task(call("`, `f := executor.submit(lambda: run("`
_WRAPPED_HEAD = _rx(r"^\s*+(?:(?:let|val|var|const|my|local|auto)\s++)?[$@]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|<-|=)\s*+"
                    r"(?:await\s++)?(?:[A-Za-z_][\w.:]{0,60}+\s*+\(\s*+(?:fn\s*+(?:\(\s*+\))?\s*+->|lambda\s*+:|"
                    r"\(\s*+\)\s*+=>|\|\|\s*+|func\s*+\(\s*+\)\s*+\{\s*+(?:return\s++)?)?\s*+){2,4}+[\"'`]?$")


# ... or the result of a command that takes the skill's name as its word: `$marks = Invoke-Skill 'fetch-marks'`,
# `$x = Invoke-Skill -Name "x"`, `set x [run-skill x`
_COMMAND_HEAD = _rx(r"^\s*+[$@]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|=)\s*+(?:&\s*+)?[A-Za-z_][\w.]{0,40}+-[\w.-]{1,40}+"
                    r"\s++(?:-[A-Za-z]\w{0,30}+\s++)?[\"']?$")


# ... or in a block that starts it: `t1 = Thread.new { skill("`, `f = Future { run("`, `val d = async { sw("`,
# `th = Thread.new do skill("`; a block over a list's items (`xs.map { |x| run("`) is a loop, not this
_BLOCK_HEAD = _rx(r"^\s*+(?:(?:let|val|var|const|my|local|auto)\s++)?[$@]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|<-|=)\s*+"
                  r"(?P<w>[A-Za-z_][\w:]{0,40}+(?:\.[A-Za-z_]\w{0,40}+){0,3}+)\s*+(?:\([^()\n]{0,80}+\)\s*+)?"
                  r"(?:\{|\bdo\b)\s*+(?:\|[^|\n]{0,60}+\|\s*+)?(?:(?:[A-Za-z_][\w.:]{0,60}+\s*+\(\s*+)[\"'`]?)?$")
_ITERATES = frozenset({"map", "each", "collect", "flat_map", "flatmap", "select", "filter", "reject", "times", "each_with_index",
                       "each_with_object", "map_with_index", "pmap", "foreach", "forEach", "flatMap", "upto", "downto",
                       "step", "loop", "reduce", "inject", "fold", "sum", "group_by", "sort_by", "each_slice", "lazy"})


# ... or a word or macro that starts it with no brackets of its own: Julia's `t1 = @async sw("`,
# `t = Threads.@spawn run("`, Nim's `let f = spawn call("`, `x = async sw("`, `fut = go(sw("` is `_WRAPPED_HEAD`'s
_PREFIX_HEAD = _rx(r"^\s*+(?:(?:let|val|var|const|my|local|auto)\s++)?[$@]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|<-|=)\s*+"
                   r"(?:(?:[A-Za-z_]\w{0,30}+\.)?@[A-Za-z_]\w{0,30}+|async|spawn|fork|future|lazy|delay|defer)\s++"
                   r"[A-Za-z_][\w.:]{0,60}+\s*+\(\s*+[\"'`]?$")


def assigned_wrapped(head: str) -> str:
    """`x` when the call's line assigns to `x` the call wrapped in what starts it (`_WRAPPED_HEAD`, `_PREFIX_HEAD`,
    `_BLOCK_HEAD`) or the result of a hyphenated command given the skill's name (`_COMMAND_HEAD`), else ""."""
    m = _WRAPPED_HEAD.match(head) or _PREFIX_HEAD.match(head) or _COMMAND_HEAD.match(head)
    if m is None and (b := _BLOCK_HEAD.match(head)) is not None \
            and b.group("w").rsplit(".", 1)[-1] not in _ITERATES and b.group("w") not in ("if", "while", "for", "case"):
        m = b
    return m.group("var") if m is not None else ""


_AWAIT = _rx(r"^\s*+(?:(?:let|val|var|const|my|local)\s++)?(?:\{\s*+:ok\s*+,\s*+)?[$@]?(?P<new>[A-Za-z_]\w{0,60}+)"
             r"\s*+\}?\s*+(?::=|=|<-)\s*+(?:"
             r"(?:await\s++|yield\s++|<-\s*+)(?P<a>[A-Za-z_]\w{0,60}+)"
             r"|(?:[A-Za-z_][\w.]{0,40}+\.)?(?:await|await_many|join|get|result|wait|resolve|force|value|fetch|deref|take!|Await|Wait|"
             r"Join|Result|GetResult)\s*+\(\s*+(?P<b>[A-Za-z_]\w{0,60}+)\s*+[,)]"
             r"|(?P<c>[A-Za-z_]\w{0,60}+)\s*+\.\s*+(?:await|join|get|result|wait|value|Result|Wait|Get|GetAwaiter\(\)\."
             r"GetResult)\b(?:\s*+\(\s*+\))?)\s*+[;!?]?\s*+$")


def _statements(code: str) -> list[str]:
    """The statements of a line split at its `;` outside quotes and brackets (`moist = fetch(t1); wt = fetch(t2)`)."""
    return split_outside(code, ";")


def _awaits(code: str) -> list[re.Match[str]] | None:
    """The await matches of each statement of a line, or None when one of its statements is no await."""
    found = [_AWAIT.match(part) for part in _statements(code)]
    return None if not found or any(m is None for m in found) else [m for m in found if m is not None]


def await_aliases(lines: Sequence[_CodeLine], call_lines: set[int]) -> list[tuple[str, str, int]]:
    """(new name, awaited name, line index) of each line outside the calls that re-assigns awaited values: every
    statement of the line, `a = fetch(t1); b = fetch(t2)` two of them."""
    out = []
    for j, ln in enumerate(lines):
        if j in call_lines or ("=" not in ln.code and "<-" not in ln.code):
            continue
        for m in _awaits(ln.code) or ():
            out.append((m.group("new"), m.group("a") or m.group("b") or m.group("c"), j))
    return out


# a lambda applied to the whole value a chain carries: `then(&f(&1))`, `.then(|o| ..)`, `.let { o -> }`,
# `.and_then(lambda o: ..)`, `|> then(fn o -> .. end)`, `.then(o => ..)`
_WHOLE = _rx(r"(?:\|>|\.)\s*+(?:then|tap|let|also|and_then|andThen|thenApply|thenAccept|thenCompose|pipe|apply)\s*+"
             r"[({]\s*+(?:(?P<amp>&)|fn\s*+\(?\s*+(?P<a>\w{1,40}+)\s*+\)?\s*+->|\|\s*+(?P<b>\w{1,40}+)\s*+(?::[^|\n]{1,60}+)?\|"
             r"|\(?\s*+(?P<c>\w{1,40}+)\s*+\)?\s*+=>|lambda\s++(?P<d>\w{1,40}+)\s*+:|(?P<e>\w{1,40}+)\s*+->)")
_CHAIN_HEAD = _rx(r"^\s*+(?:(?:let|val|var|const|my)\s++)?(?:[A-Za-z_]\w{0,60}+\s*+(?::=|=)\s*+)?[$@]?"
                  r"(?P<s>[A-Za-z_]\w{0,60}+)\s*+(?:$|\|>|\.(?=[A-Za-z_]))")

_CONTINUES = _rx(r"^\s*+(?:\|>|\.(?=[A-Za-z_]))")  # a line that continues a pipeline or chain


def pipe_subject(lines: Sequence[_CodeLine], index: int, column: int) -> tuple[str, str] | None:
    """(placeholder, subject) when the call at `lines[index]`/`column` is inside a lambda applied to the whole value
    of a pipeline or chain (`_WHOLE`) whose head is a name: the placeholder is `&1` or the lambda's parameter."""
    code = lines[index].code
    found = None
    for m in _WHOLE.finditer(code[:column]):
        found = m
    if found is None:
        return None
    holder = "&1" if found.group("amp") else next(found.group(g) for g in "abcde" if found.group(g))
    head_at = index
    text = code[:found.start()]
    while (not text.strip() and head_at > 0) or _CONTINUES.match(text):
        j = head_at - 1
        while j >= 0 and not lines[j].code.strip():
            j -= 1
        if j < 0 or index - j > 20:
            return None
        head_at, text = j, lines[j].code
    head = _CHAIN_HEAD.match(text)
    if head is None:
        return None
    return holder, head.group("s")


def piped(code: str, subject: tuple[str, str] | None) -> str:
    """`code` with the pipeline's placeholder read as its subject (`&1.date` -> `order.date`)."""
    if subject is None:
        return code
    holder, name = subject
    if holder == "&1":
        return re.sub(r"(?<![\w&])&1(?!\d)", name, code)
    return re.sub(rf"(?<![\w.$@]){re.escape(holder)}(?=\s*+\.\s*+[A-Za-z_])", name, code)


def block_var(code: str) -> str:
    """`x` for a line that assigns to `x` a block it opens (`x = Thread.new do`, `val f = Future {`), else ""."""
    m = _BLOCK_HEAD.match(code)
    if m is None or m.group("w").rsplit(".", 1)[-1] in _ITERATES or not code.rstrip().endswith(("{", "do")):
        return ""
    return m.group("var")


def is_await(code: str) -> bool:
    """Whether a line re-assigns an awaited value (`orders = t1.value`): no key of the call above it."""
    return ("=" in code or "<-" in code) and _awaits(code) is not None


class _Named(Protocol):
    index: int
    aliases: set[str]


def name_awaited(lines: Sequence[_CodeLine], calls: Sequence[_Named]) -> None:
    """Each call whose name a later line awaits into a new variable (`await_aliases`) answers to that name too."""
    for new, old, j in await_aliases(lines, {c.index for c in calls}):
        named = [c for c in calls if c.index < j and old.lower() in c.aliases]
        if named and new.lower() != old.lower():
            named[-1].aliases.add(new.lower())


_rx.save()

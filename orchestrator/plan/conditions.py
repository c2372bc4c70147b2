"""Compile a step's conditions (its When, its Otherwise, its approval's condition) into the
sandboxed Jinja2 expressions the engine evaluates, and say how each was read.

A condition (`spec.condition`) is an expression or clauses in words. Its names are
placed as the input bindings are (`mapping`): a name written `step-2.total` or said of a
step ("Step 4 reported valid") is that step's output field; inside a `For each` the
item's fields come first; then the nearest earlier step that outputs the name; then a
workflow input. A value alone ("prod only") is compared with the one field whose
declared values hold it (`environment (staging|prod)`, an `enum`). Expressions keep
their own shape: only their bare names are placed (`confidence < 0.7` becomes
`steps['step-1'].output.confidence < 0.7`); `inputs.x`, `steps[...]` and the item stay.
What cannot be read or placed is an error naming the condition.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from orchestrator.plan.count_field import flag_of_count
from orchestrator.spec.condition import Clause, ReadCondition, read_condition

# A name (and the step it was said of, or None) -> its path in an expression, or None.
Resolve = Callable[[str, str | None], str | None]
# The words of a subject no name placed -> (its path, how it was read) when they mean one value
# (`plan.meaning`), else (None, what to add to the error: the values it may mean).
Meaning = Callable[..., tuple[str | None, str]]  # (words, numeric=False)

_KEYWORDS = {"and", "or", "not", "in", "is", "if", "else", "true", "false", "none", "True", "False", "None",
             "loop", "inputs", "steps", "item"}


class ConditionError(Exception):
    """A condition that cannot be read, or a name in it that cannot be placed. `subject`: the words of
    a clause whose subject no name placed (`step`: the step it was said of), `hint`: the values it
    may mean, as the message says them; None and "" for any other error."""

    def __init__(self, message: str, subject: tuple[str, ...] | None = None, step: str | None = None,
                 hint: str = "") -> None:
        super().__init__(message)
        self.subject = subject
        self.step = step
        self.hint = hint


@dataclass(frozen=True)
class Compiled:
    expression: str
    note: str  # how it was read, for the plan's provenance
    guessed: tuple[str, ...] = ()  # values placed by their meaning ("`computed refund` read as `refund_amount`")


def step_path(step: str, name: str) -> str:
    return f"steps['{step}'].output.{name}"


def _literal(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _plurals(name: str) -> tuple[str, ...]:
    """The names a list of `name` goes by: `discrepancy` -> `discrepancies`, `match` -> `matches`, `case` -> `cases`."""
    if not name or not name[-1].isalpha():
        return ()
    if name.endswith("y") and len(name) > 2 and name[-2] not in "aeiou":
        return (f"{name[:-1]}ies",)
    return (f"{name}es", f"{name}s") if name.endswith(("s", "x", "z", "ch", "sh")) else (f"{name}s",)


def _place(clause: Clause, resolve: Resolve, meaning: Meaning | None = None, guessed: list[str] | None = None) -> str:
    words = clause.subject
    for start in range(len(words)):  # "report date": report_date, then date
        name = "_".join(words[start:])
        path = resolve(name, clause.step) or (resolve(name.lower(), clause.step) if name != name.lower() else None)
        if path is None and clause.kind in ("filled", "empty"):  # "at least one discrepancy": the list `discrepancies`
            path = next((p for plural in _plurals(name.lower()) if (p := resolve(plural, clause.step)) is not None), None)
        if path is not None:
            return path
    said = " ".join(words)
    where = f" in the output of {clause.step}" if clause.step else ""
    numeric = clause.kind == "compare" and isinstance(clause.value, int | float) and not isinstance(clause.value, bool)
    found, note = meaning(words, numeric=numeric) if meaning is not None and clause.step is None else (None, "")
    if found is not None:
        if guessed is not None:
            guessed.append(note)
        return found
    if note:
        raise ConditionError(f"`{said}`{where} is not a workflow input, an earlier step's output or a field of the "
                             f"item{note}", words, clause.step, note)
    raise ConditionError(f"`{said}`{where} is not a workflow input, an earlier step's output or a field of the "
                         "item; name it as the spec does (`confidence < 0.7`, `Step 4 reported valid = true`)",
                         words, clause.step)


def _clause_expression(clause: Clause, resolve: Resolve, values: Callable[[str], list[str]],
                       meaning: Meaning | None = None, guessed: list[str] | None = None, said: str = "") -> str:
    if clause.kind == "value":
        holders = values(str(clause.value))
        if not holders and (env := _environment(str(clause.value), resolve)) is not None:
            if guessed is not None:  # "prod only" and an input `env` that declares no values: a guess, warned
                guessed.append(f"`{clause.value}` names an environment and no field declares it: read as "
                               f"`{env.rpartition('.')[2]} == {clause.value}`")
            return f"{env} == {_literal(clause.value)}"
        if len(holders) != 1:
            which = f" ({', '.join(holders)} all can)" if holders else ""
            raise ConditionError(f"cannot tell which field `{clause.value}` is a value of{which}; write it as "
                                 f"a comparison, `environment == {clause.value}`")
        return f"{holders[0]} == {_literal(clause.value)}"
    try:
        path = _place(clause, resolve, meaning, guessed)
    except ConditionError:  # "any brake is worn", no count of them: the flag `any_worn` a step gives
        owned = getattr(meaning, "owned_any", None) if clause.kind in ("filled", "empty") and not clause.step else None
        if owned is not None and (found := owned(clause.subject, clause.kind == "filled", said)) is not None:
            if guessed is not None:  # "the cue report has any failures": its `failed_count > 0` (`plan.any_owned50`)
                guessed.append(found[1])
            return str(found[0])
        flag = flag_of_count(clause.subject, clause.op or "", clause.value, lambda name: resolve(name, clause.step))
        if flag is None:  # "any room type moved more than 25%": the largest change a step gives (`plan.most_moved40`)
            from orchestrator.plan.most_moved40 import most_moved

            most = most_moved(clause.subject, clause.op or "", clause.value, said,
                              lambda name: resolve(name, clause.step))
            if most is None:
                raise
            if guessed is not None:
                guessed.append(f"'any {' '.join(clause.subject)}' is read as the largest change a step gives, "
                               f"`{most.split('.')[-1]}`")
            return f"{most} {clause.op} {_literal(clause.value)}"
        if guessed is not None:
            guessed.append(f"'{' '.join(clause.subject[:-1])}' is counted by no step: read as the flag "
                           f"`{flag.split('.')[-1]}` a step gives")
        return flag
    if clause.guess and guessed is not None:  # "4 or worse" read as >= 4
        guessed.append(clause.guess)
    if clause.kind == "empty":
        return f"not {path}"
    if clause.kind == "filled":
        return f"{path}"
    if clause.other:  # "more than the venue capacity": the value the words name, placed as a subject is
        other = _place(Clause(kind="compare", subject=clause.other), resolve)
        return f"{path} {clause.op} {other}"
    if clause.op in _ORDERING and isinstance(clause.value, str) and guessed is not None:
        guessed.append(f"`{clause.value}` names no workflow input or earlier output, so `{' '.join(clause.subject)}` "
                       f"is compared {clause.op} the text '{clause.value}'")  # "accuracy >= min_accuracy", undeclared
    return f"{path} {clause.op} {_literal(clause.value)}"


_ORDERING = frozenset({"<", "<=", ">", ">="})
# a value that names where a run goes, and the names of the field that says it
_ENVIRONMENTS = frozenset({"prod", "production", "live", "staging", "stage", "dev", "development", "test", "qa",
                           "uat", "sandbox", "preprod", "canary"})
_ENVIRONMENT_FIELDS = ("env", "environment", "target_env", "deploy_env", "stage", "tier", "target")


def _environment(value: str, resolve: Resolve) -> str | None:
    """The one field named for an environment (`env`, `environment`, ...) when `value` names one."""
    if value.lower() not in _ENVIRONMENTS:
        return None
    found = [path for name in _ENVIRONMENT_FIELDS if (path := resolve(name, None)) is not None]
    return found[0] if len(found) == 1 else None


class StepIds:
    """The step ids a condition may name (`to-eur.amount`), escaped and compiled once per plan.

    One alternation of every id, built for each condition, made 10 000 conditions cost 10 000
    ids each. Here the ids are a trie (`_trie`): a longer id is still tried before an id that
    is its prefix, as with the ids sorted longest first, and a match costs the id's length."""

    def __init__(self, ids: Iterable[str]) -> None:
        unique = sorted(set(ids))
        self.pattern = (re.compile(r"(\"[^\"]*\"|'[^']*')|(?<![\w.'\"\]])(" + _trie(unique) + r")\.([A-Za-z_]\w*)")
                        if unique else None)

    def rewrite(self, expression: str) -> str:
        if self.pattern is None or "." not in expression:  # `id.field` needs a dot
            return expression
        return self.pattern.sub(lambda m: m.group(1) or step_path(m.group(2), m.group(3)), expression)


def _trie(ids: Sequence[str]) -> str:
    """A regex matching exactly the (sorted, unique, non-empty) `ids`, the longest first where
    one is a prefix of another. Iterative: an id may be long."""
    root: dict[str, Any] = {}
    for sid in ids:
        node = root
        for ch in sid:
            node = node.setdefault(ch, {})
        node[""] = {}

    def alternatives(node: dict[str, Any]) -> list[str]:
        return [k for k in node if k]

    # post-order over the trie without recursion: each node's regex from its children's
    done: dict[int, str] = {}
    stack: list[tuple[dict[str, Any], bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            stack.append((node, True))
            stack.extend((node[k], False) for k in alternatives(node))
            continue
        branches = [re.escape(k) + done.pop(id(node[k])) for k in alternatives(node)]
        ends = "" in node
        if not branches:
            done[id(node)] = ""
        elif len(branches) == 1 and not ends:
            done[id(node)] = branches[0]
        else:
            done[id(node)] = "(?:" + "|".join(branches) + ")" + ("?" if ends else "")
    return done[id(root)]


def rewrite_expression(expression: str, resolve: Resolve, step_ids: Sequence[str] | StepIds,
                       loop: str | None, guessed: list[str] | None = None) -> str:
    """`expression` with each bare name placed (module docstring); `to-eur.amount` (a step id,
    then a field) is that step's output field. A bare word compared with `==` / `!=` that names no
    value (`level != normal`) is that text, said in `guessed` (a guess, warned by the caller)."""
    from jinja2.sandbox import SandboxedEnvironment

    refs = step_ids if isinstance(step_ids, StepIds) else StepIds(step_ids)
    expression = refs.rewrite(expression)
    tokens = list(SandboxedEnvironment().lex("{{ " + expression + " }}"))[1:-1]
    significant = [i for i, t in enumerate(tokens) if t[1] != "whitespace"]
    out: list[str] = []
    for i, (_, kind, value) in enumerate(tokens):
        if kind != "name" or value in _KEYWORDS or value == loop:
            out.append(value)
            continue
        at = significant.index(i)
        before = tokens[significant[at - 1]] if at > 0 else None
        after = tokens[significant[at + 1]] if at + 1 < len(significant) else None
        if before is not None and (before[2] in (".", "|") or before[2] == "is"
                                   or (before[2] == "not" and at > 1 and tokens[significant[at - 2]][2] == "is")):
            out.append(value)
            continue
        if after is not None and after[2] in ("(", "="):
            out.append(value)
            continue
        path = resolve(value, None)
        if path is None and guessed is not None and before is not None and before[2] in ("==", "!=") and (
                after is None or after[2] in ("and", "or", ")")):
            guessed.append(f"`{value}` names no value: read as the text '{value}' (quote it to say so)")
            out.append(repr(value))
            continue
        if path is None:
            raise ConditionError(f"`{value}` is not a workflow input, an earlier step's output or a field of the "
                                 "item (a condition reads those, or `inputs.NAME`, `steps['id'].output.NAME`)")
        out.append(path)
    return "".join(out).strip()


def compile_condition(
    read: ReadCondition,
    resolve: Resolve,
    values: Callable[[str], list[str]],
    step_ids: Sequence[str] | StepIds,
    loop: str | None = None,
    meaning: Meaning | None = None,
) -> Compiled:
    """The expression of a condition as read; ConditionError when a name cannot be placed. `meaning`
    places a subject in words that names no value by the value it means (`plan.meaning`)."""
    guessed: list[str] = []
    if read.expression is not None:
        expression = rewrite_expression(read.expression, resolve, step_ids, loop, guessed)
    else:
        parts = [_clause_expression(c, resolve, values, meaning, guessed, read.text) for c in read.clauses]
        expression = parts[0]
        for join, part in zip(read.joins, parts[1:], strict=True):
            expression = f"{expression} {join} {part}"
        if len(parts) > 1 and "or" in read.joins and "and" in read.joins:
            expression = f"({expression})"
    if read.negated:
        expression = f"not ({expression})"
    same = expression.replace(" ", "") == read.text.replace(" ", "")
    note = f'"{read.text}"' if same else f'"{read.text}" read as {expression}'
    if guessed:
        note += f" ({'; '.join(guessed)})"
    return Compiled(expression=expression, note=note, guessed=tuple(guessed))


def compile_text(
    text: str,
    resolve: Resolve,
    values: Callable[[str], list[str]],
    step_ids: Sequence[str] | StepIds,
    loop: str | None = None,
    meaning: Meaning | None = None,
) -> Compiled:
    read = read_condition(text)
    if read is None:
        raise ConditionError(f"the condition '{text.strip()}' cannot be read: write a comparison such as "
                             "`confidence < 0.7`, `Step 4 reported valid = true` or `amount is over 1000`")
    return compile_condition(read, resolve, values, step_ids, loop, meaning)


def negate(expression: str) -> str:
    return f"not ({expression})"


def declared_values(schema: Mapping[str, Any]) -> list[str]:
    """The values a field's schema allows: its `enum`, or a description `staging|prod`."""
    enum = schema.get("enum")
    if isinstance(enum, list):
        return [str(v) for v in enum]
    description = str(schema.get("description") or "")
    # a value starts where a word does, and no part gives back what the next could take:
    # a long run of letters is read once, not once from each of its letters
    m = re.search(r"(?<![\w.-])[\w.-]++(?:\s*+\|\s*+[\w.-]++)+", description)
    return [v.strip() for v in m.group(0).split("|")] if m else []

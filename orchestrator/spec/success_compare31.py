"""A success check that compares two values of the run, in any words.

People say the run is done when one value of the run agrees with another: "the record count
matches the number of items from 1", "total in 4 matches sum reported by 2", "rows written =
rows read", "the count of rows equals the number of files from step 1", an HCL `check` block's
`condition = job.load.n == job.extract.n`, a YAML `expect: steps.load.rows == steps.read.rows`.
Such a check is on no one step's output, so the readers of a check (`spec.success`,
`spec.whole_success`, `spec.hcl30`, ...) warn it at its line as not checked. This module reads
those warned lines again (once per spec: only the lines a success warning names) and reads each
clause of the form `A <op> B` where both sides are values of the run:

- a side in code: `step.a.n`, `job.a.n`, `steps.a.outputs.n`, `a.n` (a step's id, name or skill,
  then the field), `var.x` / `inputs.x` (a workflow input), `len(X)` / `count(X)` / `X.length`
  (the number of items in X), `job.a[*]` (the step's whole output);
- a side in words: field words and the step they come from ("the record count from 4", "4's
  total", "sum reported by 2", "rows in step 3", "the number of items from 1": how many items),
  or a workflow input's name; no step named: the planner finds the one step whose output has it;
- the operator: `==`, `=`, equals, matches, is the same as (equal); `!=`, does not match, differs
  from (not equal); less / fewer / below, more / greater / above / exceeds, at least / no less
  than, at most / no more than (and `<`, `>`, `>=`, `<=`, `≥`, `≤`).

A clause whose side is a literal (`sent == true`) is left to the other readers. Each comparison
read becomes a `CompareCheckSpec` (evaluated after the run, `engine.success_compare`), and the
line's warning says what was read and what of the sentence is still not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from orchestrator.errors import Diagnostic
from orchestrator.spec.model import (
    CompareCheckSpec,
    CompareOp,
    CompareValueSpec,
    InputSpec,
    StepSpec,
)
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success37 import how_many_had, restated, sentence_from
from orchestrator.spec.success_restated43 import as_many, said_plainly
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.warnings39 import read_elsewhere

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.success"

# the operators, strongest first: symbols of two characters, words, then one-character symbols
_OPS: tuple[tuple[str, CompareOp], ...] = (
    (r"==|===", "eq"), (r"!=|≠|<>", "ne"), (r">=|≥|=>", "ge"), (r"<=|≤|=<", "le"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:not\s+equal\s+to|not\s+the\s+same\s+as|different\s+from)(?![\w-])|"
     r"(?<![\w-])(?:does\s+not|doesn['’]t|do\s+not|don['’]t)\s+(?:match|equal)(?![\w-])|(?<![\w-])differs?\s+from(?![\w-])", "ne"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than)(?![\w-])", "ge"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:at\s+most|no\s+more\s+than|not\s+more\s+than)(?![\w-])|"
     r"(?<![\w-])(?:does\s+not|doesn['’]t)\s+exceed(?![\w-])", "le"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:less\s+than|fewer\s+than|lower\s+than|smaller\s+than|below|under)(?![\w-])", "lt"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:more\s+than|greater\s+than|higher\s+than|larger\s+than|above|over)(?![\w-])|"
     r"(?<![\w-])exceeds?(?![\w-])", "gt"),
    (r"(?<![\w-])(?:(?:is|are)\s+)?(?:equal\s+to|the\s+same\s+as|identical\s+to)(?![\w-])|(?<![\w-])(?:equals?|matche?s?)(?![\w-])", "eq"),
    (r"(?<![=!<>])=(?![=>])", "eq"), (r"(?<![<=-])>(?![=])", "gt"), (r"<(?![=>])", "lt"),
)
_OP_RX = tuple((_rx(r"(?i)" + pattern), op) for pattern, op in _OPS)
_SAY = {"eq": "equals", "ne": "does not equal", "lt": "is less than", "gt": "is more than",
        "ge": "is at least", "le": "is at most"}

# clauses of one sentence: `&&`, "and", ";", ","
_SPLIT = _rx(r"(?i)(?<!\s)\s*+(?:&&|\|\||;|,)\s*+|(?<!\s)\s++and\s++(?:also\s+)?")
# what leads a clause into its check: "Finished when", "done if", "condition =", "expect:", "- check:"
_LEAD = _rx(r"(?i)^.{0,120}?(?<![\w-])(?:when|if|once|provided|only\s+if)\s++")
_KEY = _rx(r"(?i)^\W{0,6}+[A-Za-z_][\w-]{0,40}+\s*+[:=](?![=])\s*+")
_LITERAL = _rx(r"(?i)^(?:true|false|null|none|yes|no|-?\d+(?:[.,]\d+)?%?|\"[^\"]*+\"|'[^']*+'|“[^”]*+”)$")
_LABEL_KEY = _rx(r"(?i)^\W{0,4}+[\w-]{0,30}?(?:if|when|once|success|expect|condition|check|done|finished|criteria|assert)"
                 r"[\w-]{0,30}+\s*+$")
_QUOTED = _rx(r"'([^']{3,400}+)'")
# a side in code
_COUNT_CALL = _rx(r"(?i)^(?:len|length|count|size)\s*+\(\s*+(?P<inner>[^()]{1,120}+)\)$")
_COUNT_TAIL = _rx(r"(?i)^(?P<inner>.{1,120}?)\s*+(?:\.length|\.size\(\)|\.count\(\)|\s*\|\s*length|\.len\(\))$")
_DOTTED = _rx(r"^\$?\{{0,2}\s*+(?P<path>[A-Za-z_][\w-]*+(?:\.[A-Za-z_][\w-]*+|\[\*\]|\[\d+\])*+)\s*+\}{0,2}$")
_INPUT_HEADS = frozenset({"var", "vars", "input", "inputs", "param", "params", "parameters", "args", "env"})
_STEP_HEADS = frozenset({"step", "steps", "job", "jobs", "task", "tasks", "stage", "stages", "node", "nodes"})
_OUTPUT_WORDS = frozenset({"output", "outputs", "result", "results", "out"})
# a side in words
_COUNTS = ("count", "total", "n", "size")  # the output that says how many a step has
_COUNT_WORDS = _rx(r"(?i)^(?:the\s+)?(?:total\s+)?(?:number|count|amount|tally)\s+of\s+|^how\s+many\s+")
_FROM_STEP = _rx(r"(?i)(?<!\s)\s++(?:as\s+)?(?:from|in|of|by|at|on)\s+(?:(?:reported|returned|written|given|produced|made|counted|"
                 r"listed|found|sent|output)\s+by\s+)?(?:the\s+)?(?:(?:step|stage|task|job)\s*+)?(?P<ref>#?\d{1,3}|[A-Za-z][\w-]*+)"
                 r"(?:['’]s\s+(?:output|result))?$")
_VERB_BY = _rx(r"(?i)(?<!\s)\s++(?:reported|returned|written|given|produced|made|counted|listed|found|sent|output)\s+by\s+"
               r"(?:the\s+)?(?:(?:step|stage|task|job)\s*+)?(?P<ref>#?\d{1,3}|[A-Za-z][\w-]*+)$")
_POSSESSIVE = _rx(r"(?i)^(?:the\s+)?(?:(?:step|stage|task|job)\s*+)?(?P<ref>#?\d{1,3}|[A-Za-z][\w-]*+)['’]s\s+")
_STEP_PAREN = _rx(r"(?i)(?<!\s)\s*+\((?:step|stage|task|job)\s*+(?P<ref>\d{1,3})\)$")
# a remark in words closing a side, after a space: "contractor_count from #1 (everyone got their advice)"
_REMARK = _rx(r"(?<!\s)\s++\((?P<remark>[^()\s]{1,40}+(?:\s++[^()\s]{1,40}+){1,12}+)\)$")
_WORD = _rx(r"[A-Za-z_][\w]*+")
_DIGIT = _rx(r"\d")
_ITEMS_IN = _rx(r"(?i)^\s*+(?:the\s+)?(?:items|entries|elements|things)\s+(?:in|of)\s+(?:the\s+)?(?=\S)")
_NON_ALNUM = _rx(r"[^a-z0-9]+")
_PATH_PARTS = _rx(r"\.|\[\*\]|\[\d+\]")
_MARKS = _rx(r"``?|\*\*|'''|''")
_STOP = frozenset({"the", "a", "an", "its", "their", "all", "every", "each", "of", "value", "field", "reported", "returned",
                   "given", "said"})
# words that make a side something else than a value of the run
_NOT_VALUE = frozenset({"what", "whatever", "expected", "expects", "expect", "should", "shouldn", "must", "will", "would",
                        "take", "takes", "hour", "hours", "minute", "minutes", "second", "seconds", "day", "days", "it",
                        "this", "that", "we", "you", "they", "i", "thing", "nothing", "something", "everything"})


def _norm(name: str) -> str:
    return _NON_ALNUM.sub("_", name.lower()).strip("_")


class _Steps:
    """The spec's steps, found by number, id, name or skill (computed once per spec)."""

    def __init__(self, steps: Sequence[StepSpec], vocabulary: Vocabulary | None = None) -> None:
        self.steps, self.vocabulary = steps, vocabulary
        self.by_key: dict[str, str] = {}
        for position, step in enumerate(steps, 1):
            number = step.number if step.number is not None else position
            self.by_key.setdefault(str(number), step.id)
            for key in (step.id, step.name, step.skill or ""):
                if key:
                    self.by_key.setdefault(_norm(key), step.id)
            self.by_key.setdefault(str(position), step.id)

    def counts(self, step: StepSpec) -> bool:
        """Whether the step gives a count of what it has (an output `count`, `total`, `n`, `size`)."""
        from orchestrator.spec.whole_success import outputs_of

        return self.vocabulary is not None and bool(set(_COUNTS) & outputs_of(step, self.vocabulary))

    def find(self, ref: str) -> str | None:
        ref = ref[1:] if ref[:1] == "#" and ref[1:].isdigit() else ref  # "#1": step 1
        return self.by_key.get(ref) if ref.isdigit() else self.by_key.get(_norm(ref))


def _candidates(words: list[str]) -> tuple[str, ...]:
    """The output names field words could mean, most likely first ("record count": records ...)."""
    if len(words) == 1 and "_" in words[0]:
        return (words[0],)
    found = ["_".join(words)]
    for word in words:
        found += [word, word[:-1] if word.endswith("s") else f"{word}s"]
    return tuple(dict.fromkeys(w for w in found if w))


def _code_side(text: str, steps: _Steps, inputs: set[str]) -> CompareValueSpec | None:
    count = False
    for rx in (_COUNT_CALL, _COUNT_TAIL):
        m = rx.match(text)
        if m:
            text, count = m.group("inner").strip(), True
            break
    m = _DOTTED.match(text)
    if m is None:
        return None
    whole = "[*]" in m.group("path")
    parts = [p for p in _PATH_PARTS.split(m.group("path")) if p]
    if len(parts) < 2:
        return None
    head = parts[0].lower()
    if head in _INPUT_HEADS:
        return CompareValueSpec(input=parts[1], count=count, said=text)
    rest = parts[1:]
    if head in _STEP_HEADS:
        step = steps.find(rest[0])
        rest = rest[1:]
    else:
        step = steps.find(parts[0])
        if step is None and parts[0] in inputs and len(parts) == 1:
            return CompareValueSpec(input=parts[0], count=count, said=text)
    if step is None:
        return None
    rest = [p for p in rest if p.lower() not in _OUTPUT_WORDS] if rest and rest[0].lower() in _OUTPUT_WORDS else rest
    field = "" if whole and not rest else ".".join(rest)
    return CompareValueSpec(step=step, field=field, candidates=(field,) if field else (), count=count, said=text)


def _words_side(text: str, steps: _Steps, inputs: set[str]) -> CompareValueSpec | None:
    said = text
    count = False
    m = _COUNT_WORDS.match(text)
    if m:
        text, count = text[m.end():], True
    step: str | None = None
    for rx in (_STEP_PAREN, _VERB_BY, _FROM_STEP):
        m = rx.search(text)
        if m and steps.find(m.group("ref")):
            step, text = steps.find(m.group("ref")), text[: m.start()]
            break
    if step is None:
        m = _POSSESSIVE.match(text)
        if m and steps.find(m.group("ref")):
            step, text = steps.find(m.group("ref")), text[m.end():]
    if count:  # "the number of items in `files`": how many items `files` holds
        m = _ITEMS_IN.match(text)
        text = text[m.end():] if m else text
    words = [w.lower() if "_" not in w else w for w in _WORD.findall(text)]
    if any(w.lower() in _NOT_VALUE for w in words) or _DIGIT.search(text):
        return None
    words = [w for w in words if w.lower() not in _STOP]
    is_input = bool(words) and words[-1] == "input"
    if is_input:
        words = words[:-1]
    if step is None:
        joined = "_".join(words)
        if joined in inputs or (is_input and joined):
            return CompareValueSpec(input=joined, count=count, said=said)
        if not words or (len(words) > 2 and not any("_" in w for w in words)):
            return None  # "the loaf smells right" is said, not a value of the run
    if len(words) > 4:
        return None
    candidates = _candidates(words) if words else ()
    return CompareValueSpec(step=step, field=candidates[0] if candidates else "", candidates=candidates, count=count,
                            said=said)


def _side(text: str, steps: _Steps, inputs: set[str]) -> CompareValueSpec | str | None:
    """A side of a comparison: a value of the run, "literal", or None (not a value read here)."""
    text = _MARKS.sub("", text).strip().strip(".:!?").strip()
    while text.startswith("(") and text.count("(") > text.count(")"):
        text = text[1:].strip()
    while text.endswith(")") and text.count(")") > text.count("("):
        text = text[:-1].strip()
    m = _REMARK.search(text)
    if m and not _STEP_PAREN.search(text):  # the remark is why, not the value
        text = text[: m.start()].strip()
    if not text:
        return None
    if _LITERAL.match(text):
        return "literal"
    code = _code_side(text, steps, inputs)
    if code is not None:
        return code
    if "_" in text and text in inputs:
        return CompareValueSpec(input=text, said=text)
    had = how_many_had(text, steps.steps, steps.counts)  # "how many the sheet had": its step's count (`success37`)
    if had is not None:
        return CompareValueSpec(step=had[0], field="count", candidates=_COUNTS, said=text)
    return _words_side(text, steps, inputs)


def read_clause(clause: str, steps: _Steps, inputs: set[str]) -> tuple[CompareValueSpec, CompareOp, CompareValueSpec, str] | None:
    """`A <op> B` with both sides values of the run, else None."""
    for rx, op in _OP_RX:
        m = rx.search(clause)
        if m is None:
            continue
        left_text, right_text = clause[: m.start()], clause[m.end():]
        if m.group(0) == "=" and _LABEL_KEY.match(left_text):
            continue  # `finished_if = ...`: the label of a check, not a side of one
        lead = _LEAD.match(left_text)
        if lead:
            left_text = left_text[lead.end():]
        key = _KEY.match(left_text)
        if key and _side(left_text[key.end():], steps, inputs) is not None:  # `expect = a == b`, `check: a = b`
            left_text = left_text[key.end():]
        left, right = _side(left_text, steps, inputs), _side(right_text, steps, inputs)
        if left == "literal" or right == "literal":
            return None  # a check on one value: the other readers'
        if isinstance(left, CompareValueSpec) and isinstance(right, CompareValueSpec):
            said = f"{left_text.strip()} {m.group(0).strip()} {right_text.strip()}".rstrip(".")
            return left, op, right, said
    return None


def _clause_text(warning: Diagnostic, line: str) -> str:
    """The words the warning is about: its quote when the line holds it, else the line."""
    m = _QUOTED.search(warning.message)
    if m:
        quote = m.group(1)
        head = quote.split("…", 1)[0].strip()
        at = line.find(head) if head else -1
        if at >= 0:  # the quote may be cut ("…", or at a length): on to the end of its sentence
            end = line.find(". ", at + len(head))
            return line[at:] if end < 0 else line[at:end]
    return line


def _show(value: CompareValueSpec) -> str:
    inner = (f"workflow input `{value.input}`" if value.input is not None
             else f"`{value.field}` (of the step whose output has it)" if value.step is None
             else f"{value.step} output `{value.field}`" if value.field else f"{value.step}'s whole output")
    return f"the number of items in {inner}" if value.count else inner


def _given(outputs_of: Callable[[StepSpec, Vocabulary], frozenset[str]], vocabulary: Vocabulary,
           step: StepSpec) -> frozenset[str]:
    return outputs_of(step, vocabulary)


def read_compares(steps: Sequence[StepSpec], inputs: Sequence[InputSpec] | None, src: Source) -> tuple[CompareCheckSpec, ...]:
    """Every two-value comparison on a line a success warning says is not checked. The warning stays: the
    planner replaces it by what was read once every comparison of the line is placed (`plan.compare_checks`)."""
    warned = [w for w in src.warnings if w.code == CODE and "not checked" in w.message and w.line]
    if not warned:
        return ()
    index = _Steps(steps, src.vocabulary)
    from orchestrator.spec.whole_success import outputs_of

    words = src.vocabulary
    names = {i.name for i in inputs or ()}
    found: list[CompareCheckSpec] = []
    for warning in warned:
        line = warning.line or 0
        text = sentence_from(_clause_text(warning, src.line_text(line)), line, src.line_text)  # wrapped (`success37`)
        text = said_plainly(text)  # "... # i.e. WO count == urgent count": the plain words (`success_restated43`)
        read: list[tuple[CompareValueSpec, CompareOp, CompareValueSpec, str]] = []
        rest: list[str] = []
        for clause in _SPLIT.split(text):
            clause = clause.strip()
            if not clause:
                continue
            got = read_clause(restated(clause), index, names)  # "... (counted = how many the sheet had)"
            if got is None and words is not None:  # "it queued as many texts as we wrote" (`success_restated43`)
                got = as_many(clause, steps, partial(_given, outputs_of, words))
            if got is None:
                if not _has_literal_check(clause) and not read_elsewhere(clause, line, src, warning.message):
                    rest.append(clause)  # a part another reader read is no part left (`spec.warnings39`)
                continue
            read.append(got)
        if not read:
            continue
        said = "; ".join(f"'{t}': {_show(a)} {_SAY[op]} {_show(b)}" for a, op, b, t in read)
        tail = f"; the rest ('{' and '.join(rest)}') is not checked" if rest else ""
        # the whole sentence read: it is the run's success check; a part left: only what was read is said so
        reading = (f"success check read as a comparison of two values: {said} is read as the run's success check, "
                   "checked after the run" if not rest else
                   f"success check read as a comparison of two values, checked after the run: {said}{tail}")
        found += [CompareCheckSpec(left=a, op=op, right=b, text=t, where=src.where(line), warned=warning.message,
                                   reading=reading) for a, op, b, t in read]
    return tuple(found)


_LITERAL_CHECK = _rx(r"(?i)(?:==|!=|>=|<=|=|:|\s(?:is|equals)\s)\s*+`?(?:true|false|yes|no|null|-?\d+(?:\.\d+)?|\"[^\"]*+\")`?\s*+$")


def _has_literal_check(clause: str) -> bool:
    return bool(_LITERAL_CHECK.search(clause))

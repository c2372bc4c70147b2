"""A condition said as a label of plural nouns before a colon, leading a sentence that asks a person's OK;
and a verdict of an earlier step said in brackets on a step's own line.

    Orders over $150: a Tier 2 lead has to OK the credit ...      -> "the order is over 150"
    Refund amounts above €2,000: finance signs off first           -> "the refund amount is above 2,000"
    Batches under 10 kg: the shift lead OKs them                   -> "the batch is under 10 kg"

The label names the things the step handles in the plural ("Orders", "Invoices", "Batches") and a
comparison with a number; it is read as the condition "the <noun> is <comparison> <number>" on the one
thing (the last word made singular, the currency marks dropped), which the planner then places on a
value by its meaning (`order` -> `order_total`, warned) or, when no value is found for it, warns at its
line and asks the approval on every run. A label that does not read as a condition gives None and the
caller's words stand.

    | 3 | fit-curve *(QC passed)* | ...      -> runs only when Step 2 reported passed is true
    | 4 | flag-rerun *(QC failed)* | ...     -> the other branch of step 3
    - `ship-box` (inspection OK) ...         -> runs only when the inspecting step reported ok is true

`read_verdicts`: a bracket on a step's own line (its table row, heading or item) holding a subject and
a verdict word ("passed", "failed", "ok", "not ok", "succeeded") is the step's condition when the subject
names exactly one earlier step: a word of its skill's name ("QC" of `qc-plate`), its title, or "step N".
A pass verdict is that step's `passed` (`ok`, `succeeded`) being true; a fail verdict right after a step
whose bracket passed the same subject is that step's other branch; alone ("(scan failed)") it may mean
the step failing to run, not a verdict it gives, and is left to the warnings of the lines. Every
reading is warned at its line (the field is a guess from the words: the planner drops a condition whose
field the step does not give, with a warning). A subject that names no step, or two, is left to the
warnings of the lines that state a condition.

    Step 5 runs after 3 or 4, whichever one happened.     -> step 5 joins steps 3 and 4 (whichever ran)
    Step 6 goes after steps 2, 3 or 4 - whichever ran.

`read_said_joins`: a sentence of the document, outside any step, that names a step by number and says it
runs after two or more step numbers "or"-ed, "whichever" (one) happened / ran, is that step's join (`join:
any`) after those steps, beside what it already waits for, when each number names a step before it and one
of them has a condition or is another's other branch. The line's "not read" warning is replaced by the
reading, warned at the line (`spec.join-ran`). The lines are scanned once.

    If validation reported one or more errors, ...     -> "validation reported any errors" (`errors` filled)
    the check found at least one leak                   (left: `spec.gate_count` reads it as a count)

`START_FROM`: "What I start from: the app name (`app`, ...), the review date (`as_of`)" names the workflow
inputs as `spec.intro_inputs` reads "Joy pastes in two things: ..." (a colon must follow within 40 letters).

`one_or_more`: "one or more <things>" (and "1 or more", "at least one" are the count reader's) is said as
"any <things>", the words `spec.condition` reads as the list being filled; "one or more of the ..." is no
count of things and is left.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LABEL = _rx(r"(?i)^(?P<noun>[a-z][a-z ]{1,40}?)\s++(?P<op>over|above|under|below|exceeding|of\s++more\s++than|"
             r"of\s++less\s++than)\s++(?P<value>[$€£]?\s*+\d[\d,.]*+\s*+(?:[kKmM](?![a-z])|[a-z]{1,5}+)?+)\s*+$")
_ENDS_ES = ("sses", "xes", "ches", "shes", "zes")
_LEAD_LABEL = _rx(r"^\W{0,4}+(?P<label>[A-Za-z][^:;,.!?\n]{2,80}+(?:[.,]\d[^:;,.!?\n]{0,20}+)?+):\s")
_OPS = {"of more than": "more than", "of less than": "less than", "exceeding": "over"}


def singular(word: str) -> str:
    """The singular of an English plural noun, by its ending ("batches" -> "batch", "entries" -> "entry",
    "orders" -> "order"); a word that is not plural so is returned as given."""
    low = word.lower()
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(_ENDS_ES):
        return word[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return word[:-1]
    return word


def label_condition(label: str) -> str | None:
    """The condition a plural-noun label states ("Orders over $150" -> "the order is over 150"), or None
    when the label is not nouns, a comparison and a number."""
    from orchestrator.spec.condition import read_condition

    m = _LABEL.match(label.strip())
    if m is None:
        return None
    words = m.group("noun").split()
    if not words or words[0].lower() in {"if", "when", "where", "for", "the", "a", "an", "and", "or", "not"}:
        return None
    noun = " ".join([*(w.lower() for w in words[:-1]), singular(words[-1]).lower()])
    value = m.group("value").lstrip("$€£").strip()
    op = " ".join(m.group("op").lower().split())
    op = _OPS.get(op, op)
    text = f"the {noun} is {op} {value}"
    return text if read_condition(text) is not None else None


_VERDICT = _rx(r"(?i)\(\s*+(?P<subj>[a-z][\w-]{0,30}+(?:[ \t]++[\w-]{1,30}+){0,2}?)[ \t]++(?P<v>passed|passes|"
               r"pass|failed|fails|fail|not[ \t]++ok|ok|okay|succeeded)\s*+\)")
_PASS = {"passed": "passed", "passes": "passed", "pass": "passed", "ok": "ok", "okay": "ok", "succeeded": "succeeded"}
_FAIL = {"failed": "passed", "fails": "passed", "fail": "passed", "not ok": "ok"}


_TICKED = _rx(r"`(?P<n>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)`")


def _skill_of(step: StepSpec) -> str | None:
    """The step's skill, or the one hyphenated name its line writes in backticks (the planner's to bind)."""
    if step.skill:
        return step.skill.strip("`").lower()
    names = {m.group("n") for m in _TICKED.finditer(step.name)}
    return names.pop() if len(names) == 1 else None


def _named(subject: str, earlier: list[StepSpec]) -> StepSpec | None:
    """The one earlier step `subject` names: "step 2", its title, or words that are parts of its skill's name."""
    from orchestrator.spec.heading_condition import step_ref

    if (sid := step_ref(subject, earlier)) is not None:
        return next(s for s in earlier if s.id == sid)
    words = subject.lower().split()
    hits = [s for s in earlier if (skill := _skill_of(s)) and all(w in skill.split("-") for w in words)]
    return hits[0] if len(hits) == 1 else None


def read_verdicts(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each whose own line says in brackets that an earlier step passed or failed, read so
    (module docstring)."""
    from orchestrator.spec.heading_condition import Said, apply_said

    out: list[StepSpec] = []
    passed_by: dict[str, tuple[str, StepSpec]] = {}  # the last step's pass verdict: (subject step id, step)
    for step in steps:
        line = step.where.rpartition(":")[2]
        own = src.line_text(int(line)) if line.isdigit() else ""
        m = _VERDICT.search(own) if not (step.when or step.otherwise_where or step.otherwise_of or step.routes) else None
        said = _named(m.group("subj"), out) if m is not None else None
        if m is None or said is None:
            out.append(step)
            passed_by.pop("last", None)
            continue
        verdict = " ".join(m.group("v").lower().split())
        number = said.id.removeprefix("step-")
        last = passed_by.pop("last", None)
        if verdict in _FAIL and last is not None and last[0] == said.id:
            step = apply_said(step, Said("otherwise", m.group(0)), last[1], src, int(line), "its bracket")
        elif verdict in _FAIL:
            pass  # "(scan failed)" alone may be the step failing, not a verdict it gives: left to the warnings
        else:
            step = apply_said(step, Said("when", m.group(0), when=f"Step {number} reported {_PASS[verdict]} is true"),
                              None, src, int(line), "its bracket")
            passed_by["last"] = (said.id, step)
        out.append(step)
    return out


_SAID_JOIN = _rx(r"(?i)\bstep[ \t]++(?P<step>\d{1,3}+)[ \t]++(?:runs|starts|goes|happens|comes)[ \t]++"
                 r"(?:only[ \t]++)?after[ \t]++(?:steps?[ \t]++)?(?P<list>\d{1,3}+(?:[ \t]*+,[ \t]*+\d{1,3}+){0,8}+"
                 r"[ \t]++or[ \t]++\d{1,3}+)[ \t]*+[,;:–—-]?+[ \t]*+whichever(?:[ \t]++one)?+[ \t]++"
                 r"(?:happened|ran|runs|run|was[ \t]++run|did)\b")


def read_said_joins(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each a sentence outside the steps says runs after whichever of a few steps ran, read so
    (module docstring)."""
    inside = {s.where.rpartition(":")[2] for s in steps}
    by_number = {s.number: i for i, s in enumerate(steps) if s.number is not None}
    out = list(steps)
    for index, text in enumerate(src.lines, start=1):
        m = _SAID_JOIN.search(text) if "hichever" in text and str(index) not in inside else None
        if m is None or (target := by_number.get(int(m.group("step")))) is None:
            continue
        step = out[target]
        numbers = [int(n) for n in m.group("list").replace(",", " ").replace(" or ", " ").split()]
        branches = [out[by_number[n]] for n in numbers if n in by_number and by_number[n] < target]
        if len(branches) != len(numbers) or len(branches) < 2 or step.join == "any" or not any(
                b.when or b.otherwise_where or b.otherwise_of for b in branches):
            continue
        ids = [b.id for b in branches]
        deps = (*step.depends_on, *(i for i in ids if i not in step.depends_on))
        src.warnings[:] = [w for w in src.warnings if not (w.line == index and "not read" in w.message)]
        src.warn(index, f"{step.id} ({step.name.strip()[:60]}): '{m.group(0)}' is read as a join: it runs once after "
                        f"whichever of {' or '.join(ids)} ran; to say so plainly write `Depends on: {', '.join(ids)}` "
                        "(whichever ran) in the step", "spec.join-ran")
        reading = Reading(what="join", where=src.where(index), text=m.group(0)[:160],
                          note=f"runs once after whichever of {' or '.join(ids)} ran")
        out[target] = step.model_copy(update={"depends_on": deps, "depends_where": step.depends_where or step.where,
                                              "join": "any", "readings": (*step.readings, reading)})
    return out


_ONE_OR_MORE = _rx(r"(?i)(?<![\w-])one\s++or\s++more\s++(?!of\b)(?=[a-z][\w-]{0,40}+(?<=s)(?![\w-]))")


def one_or_more(text: str) -> str | None:
    """`text` with its "one or more <things>" said as "any <things>" (module docstring), or None."""
    m = _ONE_OR_MORE.search(text)
    return f"{text[: m.start()]}any {text[m.end():]}" if m is not None else None


# "What I start from: the app name (`app`), ...", "we start with", "you begin from": the things a run starts from
START_FROM = _rx(r"(?i)\b(?:what\s++)?(?:i|we|you)\s++(?:start|begin)\s++(?:from|with)\b(?=[^:.\n]{0,40}+:)")


def lead_label(sentence: str) -> str | None:
    """The condition of a plural-noun label that opens the sentence before a colon ("Orders over $150: a
    lead has to OK it" -> "the order is over 150"), or None."""
    m = _LEAD_LABEL.match(sentence)
    return label_condition(m.group("label")) if m is not None else None


_rx.save()

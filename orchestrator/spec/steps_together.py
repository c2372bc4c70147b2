"""A sentence anywhere in the steps' text that says two steps start together, or that one does not
wait for another, takes that wait away; each reading warned at its line.

    Steps 1 and 2 are done at the same time.           (in step 1's text) step 2 starts with step 1
    `book-hall` and `hire-band` go together.            the second starts with the first
    Cues B and C run side by side.                     C starts with B (cue labels, `spec.cue_notes`)
    Doesn't wait for A, start it straight off.         (in B's text) B does not wait for A
    Step 3 needn't wait on step 2.                     (anywhere) step 3 does not wait for step 2
    Steps 1 and 2 must never run at the same time.      no: a negation
    Retry both steps together twice.                   no: said of tries
    Put the sheet together: the notes from 2 together.  no: said of things (gathered), not of steps

A paragraph that is no step is `branch_parallel.parallel_note`'s; a step's own title or sentence naming
the one it starts beside is `start_together`'s. Here the sentence sits in a step's text (a work card's
note under step 1, a cue's note) and names the steps by number, cue label, skill or name. The later
steps named start with the first (`StepSpec.starts_with`: they wait for what it waits for); a step
said not to wait for the step before it waits only for the steps whose outputs it reads. A step said
not to wait for an earlier one that it reaches through the step before it is warned as not read.
"""

from __future__ import annotations

from orchestrator.spec.cue_notes import cue_labels, skill_of
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TOGETHER = _rx(r"(?i)(?<!\w)(?:at\s++the\s++same\s++time|(?:at\s++)?same\s++time|together|in\s++parallel|side\s++by\s++side|"
                r"concurrently|simultaneously|do(?:n['’]t|\s++not)\s++depend\s++on\s++each\s++other|"
                r"independent\s++of\s++each\s++other)(?!\w)")
# a negation or tries: no start together
_NOT_TOGETHER = _rx(r"(?i)(?<!\w)(?:never|not|n['’]t|mustn['’]t|cannot|retr(?:y|ies|ied)|attempts?|tries|one\s++by\s++one|"
                    r"one\s++after\s++(?:the\s++)?other|in\s++turn|every\s++(?:night|day|morning|week))(?!\w)")
# "together" said of things, not of steps: "put the sheet together", "the notices from 2 together" (gathered)
_THINGS_TOGETHER = _rx(r"(?i)(?<!\w)(?:(?:put|puts|putting|bring|brings|pull|pulls|piece|pieces|stitch|stitches|glue|"
                       r"lump|lumps|gather|gathers|collect|collects)\s++(?:(?!together(?!\w))[\w'’-]++\s++){0,4}+|from\s++(?:step\s++)?"
                       r"\d{1,4}+\s++(?:all\s++)?)together(?!\s++with)(?!\w)")
_NO_WAIT = _rx(r"(?i)(?<!\w)(?:do(?:es)?+n['’]t|do(?:es)?+\s++not|need(?:s|n['’]t|\s++not)?+|won['’]t|will\s++not|"
               r"no\s++need\s++to|without|not)\s++(?:have\s++to\s++)?+wait(?:ing)?+\s++(?:for|on)\s++(?:the\s++)?+"
               r"([^,.;:()!?]{1,48}+)")
_NUMBERED = _rx(r"(?i)(?<!\w)(?:steps?|cues?|cards?|tasks?|stages?|items?|jobs?|stations?|lines?|rows?|no\.)\s*+#?\s*+"
                r"(\d{1,4}+|[A-Z][0-9]{0,2}+)(?:\s*+(?:,|and|&|\+|/)\s*+#?\s*+(\d{1,4}+|[A-Z][0-9]{0,2}+))?+"
                r"(?:\s*+(?:,|and|&|\+|/)\s*+#?\s*+(\d{1,4}+|[A-Z][0-9]{0,2}+))?+(?![\w'])")
_LETTERS = _rx(r"(?<![\w'’])([A-Z][0-9]{0,2}+)\s*+(?:,|and|&|\+|/)\s*+([A-Z][0-9]{0,2}+)(?![\w'’])")
_HEAD = _rx(r"^\W{0,3}+([A-Z][0-9]{0,2}+|\d{1,4}+)(?![\w'’])")
_SENTENCE = _rx(r"[^.!?]++(?:[.!?]++|$)")


_WORD = _rx(r"[^\W_]++")  # a run of letters and digits: where a step's skill or name may start


class _Named:
    """The steps a text may name, indexed once per spec: their ids and order, cue labels, and each skill and name of
    5 characters or more (lower case), so a text is looked up from each of its words (as far as the longest name
    goes), not step by step: linear in the spec however many steps it has."""

    def __init__(self, steps: list[StepSpec], labels: dict[str, str]) -> None:
        self.ids = {s.id: i for i, s in enumerate(steps)}
        self.order = [s.id for s in steps]
        self.labels = labels
        # each skill or name (lower case) by its core, from its first letter or digit to its last: (it, where the
        # core starts in it, the step); one with no letter or digit is looked for as it is
        self.saids: dict[str, list[tuple[str, int, str]]] = {}
        self.odd: list[tuple[str, str]] = []
        for step in steps:
            for said in (skill_of(step), step.name.strip()):
                low = said.lower()
                if len(said) < 5:
                    continue
                words = [(m.start(), m.end()) for m in _WORD.finditer(low)]
                if words:
                    self.saids.setdefault(low[words[0][0]:words[-1][1]], []).append((low, words[0][0], step.id))
                else:
                    self.odd.append((low, step.id))
        self.words = max((len(_WORD.findall(core)) for core in self.saids), default=0)  # the most words one has

    def refs(self, text: str, *, bare: bool = False) -> list[str]:
        """The steps the text names, in order: by number or cue label after a step word ("steps 1 and 2",
        "cue B"), a pair of cue labels ("B and C"), a skill, or a name; `bare`: a label or number opening it."""
        labels = self.labels
        found: list[tuple[int, str]] = []

        def key(token: str) -> str | None:
            if token in labels:
                return labels[token]
            return f"step-{token}" if token.isdigit() and f"step-{token}" in self.ids else None

        for m in _NUMBERED.finditer(text):
            found += [(m.start(g), k) for g in (1, 2, 3) if m.group(g) and (k := key(m.group(g)))]
        for m in _LETTERS.finditer(text):
            if m.group(1) in labels and m.group(2) in labels:
                found += [(m.start(1), labels[m.group(1)]), (m.start(2), labels[m.group(2)])]
        head = _HEAD.match(text) if bare else None
        if head is not None and (k := key(head.group(1))):
            found.append((head.start(1), k))
        low = text.lower()
        runs = [(m.start(), m.end()) for m in _WORD.finditer(low)] if self.saids else []
        seen: set[tuple[str, str]] = set()
        for i, (at, _) in enumerate(runs):
            for _, end in runs[i:i + self.words]:  # the text from this word to each of the next ones
                for said, lead, sid in self.saids.get(low[at:end], ()):
                    start, stop = at - lead, at - lead + len(said)
                    if ((said, sid) not in seen and start >= 0 and low.startswith(said, start)
                            and (start == 0 or not low[start - 1].isalnum()) and (stop >= len(low) or not low[stop].isalnum())):
                        seen.add((said, sid))
                        found.append((start, sid))
        for said, sid in self.odd:
            at = low.find(said)
            end = at + len(said)
            if at >= 0 and (at == 0 or not low[at - 1].isalnum()) and (end >= len(low) or not low[end].isalnum()):
                found.append((at, sid))
        return list(dict.fromkeys(sid for _, sid in sorted(found)))


def read_together(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the waits their texts take away taken away (module docstring)."""
    if len({s.id for s in steps}) != len(steps):
        return steps  # two steps with one id: refused by `check_steps`
    if len(steps) < 2:
        return steps
    named_by = _Named(steps, cue_labels(steps, src))
    by_id = {s.id: s for s in steps}
    for holder in steps:
        for text in holder.texts:
            for m in _SENTENCE.finditer(text.text):
                sentence = m.group(0).strip()
                if len(sentence) > 400:
                    continue
                if (wait := _NO_WAIT.search(sentence)) is not None:
                    _no_wait(sentence, wait.start(), wait.group(1), holder.id, text.line, named_by, by_id, src)
                elif _TOGETHER.search(_THINGS_TOGETHER.sub(" ", sentence)) and not _NOT_TOGETHER.search(sentence):
                    named = sorted(set(named_by.refs(sentence)), key=named_by.ids.__getitem__)
                    if len(named) >= 2:
                        for sid in named[1:]:
                            _start_with(by_id, sid, named[0], sentence, text.line, src)
    return [by_id[s.id] for s in steps]


def _free(step: StepSpec) -> bool:
    return not step.depends_on and step.depends_where is None and step.starts_with is None and (
        step.unordered_where is None)


def _start_with(by_id: dict[str, StepSpec], sid: str, first: str, sentence: str, line: int, src: Source) -> None:
    step = by_id[sid]
    if not _free(step):
        return
    where = src.where(line)
    src.warn(line, f"'{sentence[:70]}' read as saying {first} and {sid} start together: {sid} waits for what "
                   f"{first} waits for, not for the step before it. To say so plainly write `at the same time as "
                   f"{first.replace('-', ' ')}` in {sid}'s own text", "spec.parallel")
    by_id[sid] = step.model_copy(update={
        "starts_with": first, "unordered_where": where,
        "readings": (*step.readings, Reading(what="depends_on", where=where, text=sentence[:160], note=(
            f"starts together with {first}: waits for what {first} waits for (and the steps whose outputs it reads), "
            "not for the step before it")))})


def _no_wait(sentence: str, at: int, target: str, holder: str, line: int, named_by: _Named,
             by_id: dict[str, StepSpec], src: Source) -> None:
    order = named_by.order
    whom = named_by.refs(target, bare=True)[:1]
    if not whom:
        return  # "doesn't wait for the courier": no step named
    subject = named_by.refs(sentence[:at], bare=True)
    sid = subject[0] if len(subject) == 1 else holder
    before, after = named_by.ids[whom[0]], named_by.ids[sid]
    if before >= after:
        return
    step, where = by_id[sid], src.where(line)
    ours = step.unordered_where == where and step.starts_with is None  # read so by the step's own reader
    if before != after - 1:
        src.warn(line, f"'{sentence[:70]}' not read: {sid} waits for {whom[0]} through the step before it "
                       f"({order[after - 1]}); to start it earlier write `at the same time as ...` naming the step "
                       "it starts with", "spec.parallel")
        if ours:  # not "a root": it still waits for the step before it
            by_id[sid] = step.model_copy(update={"unordered_where": None, "readings": tuple(
                r for r in step.readings if not (r.what == "depends_on" and r.where == where))})
        return
    if not _free(step) and not ours:
        return
    src.warn(line, f"'{sentence[:70]}' read as saying {sid} does not wait for {whom[0]}: it waits only for the "
                   f"steps whose outputs it reads. To say so plainly write `Independent of {whom[0].replace('-', ' ')}`"
                   f" in {sid}'s own text", "spec.parallel")
    by_id[sid] = step.model_copy(update={
        "unordered_where": where,
        "readings": (*step.readings, Reading(what="depends_on", where=where, text=sentence[:160], note=(
            f"does not wait for {whom[0]} (the step before it), only for the steps whose outputs it reads")))})


_rx.save()

"""Sentences about a step said away from it: its policy, or the run's success check.

Documents of every kind say how a step behaves somewhere else than where they say what it
does: a man page's TUNING and EXIT STATUS paragraphs, an FAQ answer about an earlier step,
an "Ops notes" checklist, a notes section. A sentence there is about a step when it names
one (`named_step`), in this order of strength:

1. the step's skill (or a tool only it wraps), in any quoting (`spec.skill_mentions`), in any
   role but a fallback ("if `build-manifest` fails, wait 5 s" names the step it is about);
2. the step by number ("step 3", "Step three");
3. a word of the step's name or of its skill's name that no other step's has ("parse: look
   again every 2 min" for the step "Parse the dump"; "a hash that fails" for the step "hash"),
   and only when exactly one step has such a word in the sentence.

Such a sentence is the step's policy when it carries one (`carries_policy`: words of time
limits, retries, waits, failure and its handling, approval), and goes to the step's
readers with its line; each one placed so is a warning at its line (read from elsewhere)
and a `Reading` in the plan. A sentence that says when the run is done (`success_said`: a
"Definition of done", an EXIT STATUS entry, "the run counts as failed if") is the run's
success check: a plain comparison (`spec.success`) is checked on the step it names, else on
the last step (the run's final output); any other is warned at its line. A sentence that
states a step policy the grammar reads but names no step, or names several, is warned at
its line: never dropped quietly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.fields import NUMBER, STEP_WORD, number_of
from orchestrator.spec.h25_left33 import ONCE_WORDS
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import success_warned
from orchestrator.spec.skill_mentions import roles
from orchestrator.spec.source import Source
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.success import read_criteria, success_clause
from orchestrator.spec.success_says47 import said_by
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

PLACED_CODE = "spec.placed"

# words of a step's policy, by family (one alternative a family; data, not code)
POLICY_WORDS: tuple[str, ...] = (
    r"retr(?:y|ies|ied|ying)|re-?tr(?:y|ies)|attempt(?:s|ed)?|tries|tried|another\s+go|(?:look|try|go)\s+again|again",
    r"time\s*-?outs?|timed\s+out|deadline|within|capped|caps?\b|ceiling|tops|at\s+(?:most|the\s+most)|max(?:imum)?|"
    r"no\s+(?:more|longer)\s+than|kill(?:s|ed)?|given\s+\d",
    r"fail(?:s|ed|ure|ing)?|errors?(?:\s+out)?|erroring|crash(?:es)?|down|give\s+up|gives\s+up|bail|abort(?:s|ed)?",
    r"best[\s-]effort|move\s+on|carr(?:y|ies)\s+on|go\s+on|continue[sd]?|skip(?:ped|s)?|fall\s*back|instead",
    r"back\s*-?off|wait(?:s|ing)?|paus(?:e|es|ing)|apart|between|doubl(?:e|es|ing)|exponential",
    r"approv(?:e|es|ed|al)|sign[\s-]?off|a\s+human|team\s+lead",
    r"zero\s+retries|never\s+retried|no\s+retr(?:y|ies)|pure\s+function",
    # "NO re-run of the brief, ever", "never resubmit it", "not a second time": no retry said of a repeat
    r"re-?(?:runs?|running|sends?|sending|submit(?:s|ted|ting)?|posts?|posting|dial(?:s|led|ling)?|issues?)|"
    r"(?:a\s+)?second\s+(?:time|go|attempt|try)|twice",
    ONCE_WORDS,  # "Send it ONE time only, ever." (`spec.h25_left33`)
)
# words that carry a policy only next to a step's own name (a duration alone: "the clock is 7 minutes off")
WEAK_POLICY_WORDS: tuple[str, ...] = (
    r"\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)",
)
_POLICY = _rx("(?i)(?<![\\w-])(?:" + "|".join(f"(?:{w})" for w in (*POLICY_WORDS, *WEAK_POLICY_WORDS)) + ")(?![\\w-])")
_STRONG = _rx("(?i)(?<![\\w-])(?:" + "|".join(f"(?:{w})" for w in POLICY_WORDS) + ")(?![\\w-])")
# a heading or lead that says what follows is when the run is done
_SUCCESS_HEAD = _rx(r"(?i)^\W*(?:exit\s+status|exit\s+codes?|return\s+values?|success(?:\s+criteri(?:a|on))?|"
                    r"definition\s+of\s+done|done\s+when|acceptance(?:\s+criteri(?:a|on))?|diagnostics)\b")
# a sentence that says the run counts as failed or passed
_RUN_VERDICT = _rx(r"(?i)\b(?:the\s+run|the\s+job|the\s+workflow)\s+(?:counts|is\s+counted|is\s+marked)\s+as\s+"
                   r"(?:failed|a\s+failure)\b")
# "reported ok=true", "says `valid` is true", "returns count >= 3": the comparison after the verb
_OUTCOME = _rx(r"(?i)^\W*(?:if\s+not|otherwise|else|failing\s+that)\b")
_REPORTED = _rx(r"(?i)\b(?:reported|reports|returns|returned|says|said|gives|gave|outputs?|yields)\s+(?P<clause>.+)$")
_STEP_NUMBER = _rx(rf"(?i)(?<!\w){STEP_WORD}\s*({NUMBER})(?!\w)")
_WORD = _rx(r"(?<![\w-])(?:[A-Za-z][a-z]{2,}+|[A-Z]{3,}+(?:_[A-Z]++)*+)(?![\w])")  # "BACKORDERING", "CHECKING_STOCK" too
# words of a name that tell no step from another
_LEAD_WORDS = 3  # a step named by a word of its name: among the sentence's first words ("geo lookup: 8 s per call")
_COMMON = frozenset(
    ["the", "and", "for", "with", "from", "into", "onto", "step", "steps", "run", "runs", "item", "items", "each", "every", "all", "one", "two", "out", "its", "this", "that", "then", "get", "gets", "put", "make", "new", "data", "file", "files", "list", "check", "job", "task", "work", "stage", "phase", "part", "once", "when", "after", "before", "until", "while", "what", "which", "who", "whose", "how", "why", "where", "there", "here"])


@dataclass(frozen=True)
class StepKey:
    """How a sentence may name a step: its number, skill and the words of its name and skill."""

    number: int
    skill: str | None
    words: frozenset[str]


def keys_of(steps: Sequence[tuple[int, str, str | None]]) -> list[StepKey]:
    """Each step's key from (number, name, skill): the words no other step's name or skill has. Readers
    ask it again for each sentence of the same steps: the last few answers are kept."""
    return list(_keys_of(tuple(steps)))


@functools.lru_cache(maxsize=8)
def _keys_of(steps: tuple[tuple[int, str, str | None], ...]) -> tuple[StepKey, ...]:
    def words(name: str, skill: str | None) -> set[str]:
        said = f"{name} {(skill or '').replace('-', ' ').replace('_', ' ')}"
        return {w.lower() for w in _WORD.findall(said)} - _COMMON

    each = [words(name, skill) for _, name, skill in steps]
    seen: dict[str, int] = {}
    for ws in each:
        for w in ws:
            seen[w] = seen.get(w, 0) + 1
    return tuple(StepKey(n, skill, frozenset(w for w in ws if seen[w] == 1))
                 for (n, _, skill), ws in zip(steps, each, strict=True))


def named_step(sentence: str, keys: list[StepKey], vocabulary: Vocabulary) -> tuple[int, str] | None:
    """The number of the one step `sentence` names (module docstring) and how it names it; None
    when it names none or several."""
    by_skill = {k.skill: k.number for k in keys if k.skill}
    skills = {by_skill[m.skill] for m in roles(sentence, vocabulary) if m.role != "fallback" and m.skill in by_skill}
    if len(skills) == 1:
        number = skills.pop()
        return number, f"its skill `{next(k.skill for k in keys if k.number == number)}`"
    if skills:
        return None
    numbers = {n for m in _STEP_NUMBER.finditer(sentence) if (n := number_of(m.group(1))) is not None} & {
        k.number for k in keys}
    if len(numbers) == 1:
        number = numbers.pop()
        return number, f"step {number}"
    if numbers:
        return None
    if sentence.rstrip().endswith("?") or _STRONG.search(sentence) is None:
        return None  # a question, or no word of a policy: a name's word alone is too weak a sign
    said = {w.lower() for w in _WORD.findall(sentence)[:_LEAD_WORDS]}
    hits = [(k.number, sorted(k.words & said)) for k in keys if k.words & said]
    if len(hits) == 1:
        return hits[0][0], f"the word '{hits[0][1][0]}' of its name"
    return None


def carries_policy(sentence: str) -> bool:
    """Whether the sentence uses words of a step's policy (`POLICY_WORDS`)."""
    return _POLICY.search(sentence) is not None


def success_said(sentence: str, heading: str = "") -> str | None:
    """The criteria of a sentence that says when the whole run is done, or None: a success
    sentence ("Definition of done: ..."), or any sentence under a heading of success or exit
    status; a leading exit code ("0  x reported ok=true") and a verb of reporting are cut off."""
    clause = success_clause(sentence)
    if clause is None and not _SUCCESS_HEAD.match(heading) and _RUN_VERDICT.search(sentence) is None:
        return None
    if clause is None and _OUTCOME.match(sentence):
        return None  # "If not, the run counts as failed": the outcome of the check before it, said with it
    text = (clause or sentence).strip().lstrip("*_").strip()
    text = re.sub(r"^\d{1,3}\s+", "", text)  # an EXIT STATUS entry's code
    reported = _REPORTED.search(text)
    if reported is not None and read_criteria(reported.group("clause"))[0]:
        text = reported.group("clause")
    return text.rstrip(". ") or None


def comparison(clause: str) -> bool:
    """Whether the clause is plain comparisons only (`spec.success.read_criteria`)."""
    checks, rest = read_criteria(clause)
    return bool(checks) and not rest


def _number(step: StepSpec, at: int) -> int:
    return step.number if step.number is not None else at


def _skill(step: StepSpec, vocabulary: Vocabulary) -> str | None:
    return step.skill or next((s for m in step.mentions if (s := vocabulary.skill_for(m.text))), None)


def _add(steps: list[StepSpec], number: int, src: Source, *, text: SpecText, note: str, warning: str) -> None:
    i = next(i for i, s in enumerate(steps) if _number(s, i + 1) == number)
    step = steps[i]
    src.warn(text.line, f"{step.id} ({step.name}): {warning}", PLACED_CODE)
    reading = Reading(what="moved" if text.kind != "success" else "success", where=src.where(text.line),
                      text=" ".join(text.text.split())[:160], note=note)
    steps[i] = step.model_copy(update={"texts": (*step.texts, text), "readings": (*step.readings, reading)})


def _checked_near(steps: list[StepSpec], line: int) -> bool:
    """Whether a success check was placed on a step from `line` or one of the four lines before it."""
    for step in steps:
        for reading in step.readings:
            at = reading.where.rpartition(":")[2]
            if reading.what == "success" and at.isdigit() and line - 4 <= int(at) <= line:
                return True
    return False


def run_success(sentence: str, line: int, steps: list[StepSpec], src: Source, heading: str = "") -> bool:
    """A sentence that says when the whole run is done (`success_said`), placed on `steps` (the
    list is updated) or warned; False when it says no such thing."""
    clause = success_said(sentence, heading)
    if clause is None or not steps:
        return False
    keys = keys_of([(_number(s, i), s.name, _skill(s, src.vocabulary)) for i, s in enumerate(steps, start=1)])
    reported = None if comparison(clause) else said_by(sentence, clause)  # "when 4 says published = yes" (`spec.success_says47`)
    if reported is not None and comparison(reported[1]) and any(_number(s, i) == reported[0] for i, s in enumerate(steps, 1)):
        _add(steps, reported[0], src, text=SpecText(text=reported[1], line=line, kind="success"),
             note=f"the run's success check, checked on step-{reported[0]}'s output (step {reported[0]}, said to report it)",
             warning=f"'{reported[1][:60]}' is read as the run's success check, on this step's output (step "
                     f"{reported[0]} is said to report it): check the plan")
        return True
    back = None
    if not comparison(clause):  # "publish-roll came back with published = true": that step's (`success_back27`)
        from orchestrator.spec.success_back27 import step_said_back

        skills = {k.skill: k.number for k in reversed(keys) if k.skill}
        back = step_said_back(clause, {}, _number(steps[-1], len(steps)), skills, {w: k.number for k in keys for w in k.words})
        if back is not None and comparison(back[1]):
            clause = back[1]
        else:
            back = None
    if not comparison(clause):
        from orchestrator.spec.success_restated43 import restatement
        from orchestrator.spec.whole_success import outputs_of

        again = restatement(clause, frozenset().union(*(outputs_of(s, src.vocabulary) for s in steps)))
        named = named_step(sentence, keys, src.vocabulary)
        at = next((i for i, s in enumerate(steps, 1) if named is not None and _number(s, i) == named[0]), len(steps))
        if again is not None and again[1].partition(" ")[0] in outputs_of(steps[at - 1], src.vocabulary):
            clause = again[1]  # "... today's status (posted = yes)": the parenthesis, on the step that gives it
    if not comparison(clause):
        from orchestrator.spec.success_words import said_in_words
        from orchestrator.spec.warnings39 import restates_check, say_restated

        if restates_check(sentence) and _checked_near(steps, line):  # "... = true. Anything else is a failure."
            say_restated(sentence, line, src)
            return True

        if success_warned(src, line) or said_in_words(clause, sentence):  # outputs in words: `spec.whole_net`'s
            return True
        src.warn(line, f"the run's success check '{clause[:80]}' is not a comparison of an output field with a "
                       "value, so it is not checked; write one on the step whose output it is "
                       "(`- Success criteria: FIELD >= N`)", "spec.success")
        return True
    named = (back[0], back[2]) if back is not None else named_step(sentence, keys, src.vocabulary)
    number, how = named if named is not None else (_number(steps[-1], len(steps)), "the last step (the run's final output)")
    _add(steps, number, src, text=SpecText(text=clause, line=line, kind="success"),
         note=f"the run's success check, checked on step-{number}'s output ({how})",
         warning=f"'{clause[:60]}' is read as the run's success check, on this step's output ({how}): check the "
                 f"plan, or write `- Success criteria: {clause[:40]}` under the step")
    return True


def place_blocks(blocks: list[Block], steps: list[StepSpec], src: Source,
                 heading: str = "") -> list[tuple[str, int]] | None:
    """The sentences of blocks outside every step placed on `steps` (module docstring; the list is
    updated): a step's policy, the run's success check. The sentences left, with their lines,
    when any was placed; None when none was (nothing here is about a step)."""
    keys = keys_of([(_number(s, i), s.name, _skill(s, src.vocabulary)) for i, s in enumerate(steps, start=1)])
    left: list[tuple[str, int]] = []
    placed = False
    for block in blocks:
        if not isinstance(block, Para | Bullet):
            continue
        current: tuple[int, str] | None = None
        text, lead = block.text, None
        if isinstance(block, Bullet) and block.label and named_step(block.label, keys, src.vocabulary) is not None:
            text, lead = block.value, named_step(block.label, keys, src.vocabulary)  # "geo lookup: 8000 ms per call"
        for sentence, line in [(s, block.line + o) for o, s in sentences(text)]:
            if run_success(sentence, line, steps, src, heading):
                placed = True
                continue
            named = named_step(sentence, keys, src.vocabulary) or lead
            lead = None
            target = named or ((current[0], "nothing; the sentence before it names the step") if current else None)
            if target is None or not carries_policy(sentence):
                left.append((sentence, line))
                continue
            current, placed = target, True
            _add(steps, target[0], src, text=SpecText(text=sentence, line=line, kind="sentence"),
                 note=f"read as step-{target[0]}'s policy, said away from the step (it names {target[1]})",
                 warning=f"'{sentence[:60]}' is read as this step's policy though it is said away from the step "
                         f"(it names {target[1]}): check the plan, or write it in the step's text")
    return left if placed else None


_rx.save()

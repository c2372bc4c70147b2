"""Guards against silent misreading: the plan is compared with the words of the spec, and
each place where the text says more than the plan does becomes a warning at its line.

    spec.step-lost         a skill of the catalog is named in the spec as doing work, but no
                           step runs it and it is no step's fallback or compensation (a step lost
                           or merged): the plan would run less than the spec says, and
                           `compile_spec` refuses it (an error, not a warning)
    spec.skill-not-run     the same, where every sentence naming the skill speaks of it as a
                           spare (a fallback, an undo, "instead", "if X fails ... use Y") or as
                           not used: a policy may have been lost, not a step; a warning
    spec.own-fallback      a step runs the skill its own text names as its fallback: the main
                           skill is probably another one
    spec.each-not-read     a step's text asks for each/every item ("for each", "for every")
                           and the step has no For each
    spec.gather-not-read   a step's text waits for or takes all results ("when all", "every
                           result", "the full set") and the step gathers no For each's list
    spec.condition-not-read  a sentence of a step starts with if/otherwise on data (a
                           comparison, "step N says", "reported", a toggle's summary), or the
                           step's own line has an aside "(if ...)", "(QC passed)", and the
                           step has no condition
    spec.join-not-read     a step's text says it runs after whichever branch ran ("whichever
                           ran", "in both cases") and none of the steps it depends on is conditional
    spec.value-not-kept    a step's text gives a JSON object to go on with, and none of its
                           fallbacks keeps a value

Each step's text is its lines in the spec (the text the reader read, carried by the spec: the plan reads no file), from its own line to the next step's. The
guards only add warnings: they never change the plan. Each says that `plan --interpret` can have
the model read the structure there (`plan.structure_reading_lock` takes these findings as its
doubts). The word lists are data below.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping

from orchestrator.errors import Diagnostic
from orchestrator.hints import Hint, HintAction
from orchestrator.plan.location import split_where, warning_at
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.policy import FallbackAction
from orchestrator.spec.approval_words25 import said_of_gate
from orchestrator.spec.branch_join import strong_join
from orchestrator.spec.branch_pseudocode import control_line
from orchestrator.spec.condition import approval_sentence
from orchestrator.spec.phrasing35 import recovery_opening
from orchestrator.spec.regex_cache import Patterns

# "for each X" that is about attempts or time, not items
_NOT_ITEMS = ("attempt", "try", "tries", "retry", "retries", "failure", "error", "call", "request",
              "second", "minute", "hour", "day", "run", "time", "other")
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

LOST_STEP_CODE = "spec.step-lost"
# a sentence naming a skill as a spare or as not used: "fall back to", "instead", "Undo:", "swap in", "not run"
_SPARE_SAID = _rx(r"\bfall(?:s|ing)? ?back\b|\bfallback\b|\binstead\b|\bundo(?:es|ne)?\b|\bcompensat\w*|\broll(?:s|ed)? ?back\b"
                  r"|\bswap(?:s|ped)? in\b|\bback-?up\b|\bspare\b|\bin case\b|\bnot\b|n't\b|\bnever\b|\bno longer\b"
                  r"|\bretired\b|\bdeprecated\b|\bskip\w*|\breplac\w*", re.IGNORECASE)
_SENTENCE_END = _rx(r"[.;!?](?:\s|$)")

# "for every order" (not "they charge for every order", "a fee for each booking": a price, no loop)
_EACH = _rx(r"(?<!\bcharge )(?<!\bcharges )(?<!\bcharged )(?<!\bbill )(?<!\bbills )(?<!\bbilled )(?<!\bfee )"
            r"(?<!\bfees )(?<!\bpay )(?<!\bpays )(?<!\bpaid )(?<!\bcost )(?<!\bcosts )(?<!\bprice )"
            r"\b(?:(?:for|with|on) (?:each|every)|once per)\b\s+(\w+)", re.IGNORECASE)
_GATHER = _rx(r"\b(?:when|once|after) (?:all|every)\b(?! (?:\d+|half|few|other|couple|second|minute|hour|day)\b)|\bevery \w+ results?\b|\ball (?:the )?(?:\w+ )?results\b"
              r"|\bfull set\b|\bevery (?:check|renewal|item) result\b", re.IGNORECASE)
_FAILURE_WORDS = _rx(r"\b(?:fail\w*|errors?\b(?! count)|down|time[sd]? out|hang\w*|slow|unavailable|"
                     r"unreachable|crash\w*|flaky|breaks?|rate.limit\w*|dead|offline|broken|unresponsive|unhealthy|"
                     r"hiccups?|stumbles?|chokes?|won'?t (?:play|work|cooperate|behave|respond|answer)|refus\w*|"
                     r"falls? over)", re.IGNORECASE)
_CONDITION_START = _rx(r"^(?:[-*+]\s+|\d+[.)]\s+|→\s*|\[[ xX]\]\s+)*(?:\*\*|_)?(if|otherwise|else)\b(.*)",
                       re.IGNORECASE)
_ON_DATA = _rx(r"[<>=≥≤]|!=|\bstep \d+ (?:says|reports?|returns?|finds?)\b|\bone or more\b|\bmore than\b"
               r"|\bat least\b|\bfewer than\b|\bis (?:not )?(?:\"|'|`|true|false|empty|zero)", re.IGNORECASE)
_ON_DATA_WEAK = _rx(r"\breported\b|\bsays\b|\bis\b", re.IGNORECASE)
_JOIN = _rx(r"\bwhichever\b[^.]{0,40}\bran\b|\bin (?:both|either) cases?\b"
            r"|\bwhichever (?:one )?happened\b", re.IGNORECASE)
_POLICY_WORDS = _rx(r"\b(?:fail\w*|retr\w*|errors?|give up|abort|stop)\b", re.IGNORECASE)
_STOPS = _rx(r"^\W*(?:\w+\W+){0,2}(?:stop|fail|abort|halt|end)\b", re.IGNORECASE)
_ASIDE = _rx(r"\(([^()\n]{1,60})\)")
_PROSE_THEN = _rx(r"(?i),[ \t]*+then[ \t]++\w")  # "if x, then y does z": a sentence, no pseudocode line
_BRACKETED = _rx(r"\([^()]{0,80}\)")
_ASIDE_CONDITION = _rx(r"^\W*(?:only\s+)?(?:if|when|unless)\b|\b(?:passed|failed|true|false)\W*$|(?<!-)>|<(?!-)|[=≥≤]",
                       re.IGNORECASE)
_SUMMARY = _rx(r"<summary>(.*?)</summary>", re.IGNORECASE)
_SUMMARY_CONDITION = _rx(r"\bis\b|\bany other\b|\botherwise\b|[<>=]|\bif\b", re.IGNORECASE)
_JSON_OBJECT = _rx(r"\{\s*\"[^{}\n]{0,300}\}")
_SENTENCE = _rx(r"(?<=[.!?])\s+(?=[A-Z])")


def _heading(text: str) -> int:
    """The level of a markdown heading line, 0 for any other line."""
    match = re.match(r"(#{1,6})\s", text)
    return len(match.group(1)) if match else 0


def _ranges(plan: Plan, lines: list[str]) -> dict[str, tuple[int, int]]:
    """step id -> (first line, last line) of its text, 1-based, inclusive: up to the next step,
    and no further than the next heading of its level or above (any heading for a step that is
    not a heading); a table row is its own line."""
    starts = sorted((split_where(s.where, plan.spec.path)[1] or 0, s.id) for s in plan.steps)
    out: dict[str, tuple[int, int]] = {}
    for i, (line, sid) in enumerate(starts):
        if not line or line > len(lines):
            continue
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) and starts[i + 1][0] > line else len(lines)
        if i + 1 < len(starts) and starts[i + 1][0] == line:
            end = line  # two steps told on one line (`spec.para_split`): the next one's text is not its
        if lines[line - 1].lstrip().startswith("|"):
            end = line
        level = _heading(lines[line - 1]) or 7
        for number in range(line + 1, end + 1):
            if 0 < _heading(lines[number - 1]) <= level:
                end = number - 1
                break
        out[sid] = (line, end)
    return out


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)


def _fallback_skills(plan: Plan) -> set[str]:
    out: set[str] = set()
    for step in plan.steps:
        for fallback in (step.policy.fallback, *(r.fallback for r in step.policy.rules)):
            if fallback is not None and fallback.skill:
                out.add(fallback.skill)
        if step.policy.compensation:
            out.add(step.policy.compensation)
    return out


def _said_as_spare(line: str, name: re.Pattern[str]) -> bool:
    """The sentence of `line` that names the skill speaks of it as a spare or as not used
    (`_SPARE_SAID`), or it names a failure before the skill ("if the mirror is down, use X"), or a failure asked
    just before it ("Mirror down? Use X.")."""
    for match in name.finditer(line):
        ends_before = [m for m in _SENTENCE_END.finditer(line, 0, match.start())]
        start = ends_before[-1].end() if ends_before else 0
        ends = _SENTENCE_END.search(line, match.end())
        sentence = line[start:ends.start() if ends else len(line)]
        if _SPARE_SAID.search(sentence) or _FAILURE_WORDS.search(line, start, match.start()):
            return True
        if ends_before and ends_before[-1].group(0).startswith("?"):  # the sentence before asks of a failure
            asked = ends_before[-2].end() if len(ends_before) > 1 else 0
            if _FAILURE_WORDS.search(line, asked, ends_before[-1].start()):
                return True
    return False


def _step_lines(lines: list[str], span: tuple[int, int]) -> Iterator[tuple[int, str]]:
    first, last = span
    in_fence = False
    for number in range(first, min(last, len(lines)) + 1):
        text = lines[number - 1]
        if text.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield number, text


def guard_plan(plan: Plan, catalog_skills: set[str], lines: list[str],
               owned: Mapping[int, frozenset[str]] | None = None) -> list[Diagnostic]:
    """The warnings of the module docstring, for a plan and the lines of the spec it was built
    from (the spec's own text: the plan reads no file), each with the hint that the model can
    read it (`HintAction.INTERPRET`, worded by each front end). `owned`: line -> the steps whose
    text the reader read it as; a line of other steps' text only is no text of a step whose span
    covers it (a script's step comment above the next call: `# 4) draft - whichever ran feeds in`)."""
    return [d.model_copy(update={"hint": Hint(action=HintAction.INTERPRET)})
            for d in _guards(plan, catalog_skills, lines, owned or {})]


def _guards(plan: Plan, catalog_skills: set[str], lines: list[str],
            owned: Mapping[int, frozenset[str]]) -> list[Diagnostic]:
    if not lines:
        return []
    path = plan.spec.path
    found: list[Diagnostic] = []
    run = {s.skill for s in plan.steps}
    spare = _fallback_skills(plan)
    ranges = _ranges(plan, lines) if plan.spec.format == "markdown" else {}
    for name in sorted(catalog_skills - run - spare):
        pattern = _word(name)
        where = [n for n, text in enumerate(lines, 1) if pattern.search(text)]
        if where:
            inside = next(((n, s) for n in where for s in plan.steps
                           if s.id in ranges and ranges[s.id][0] < n <= ranges[s.id][1]), None)
            merged = "" if inside is None else (
                f"; line {inside[0]} is read as part of {inside[1].id} ({inside[1].name}), its sentences as that "
                "step's policies: if it is a step of its own, give it a heading or a bold lead (`**Name.** ...`)")
            lines_said = ', '.join(map(str, where[:5]))
            if any(_said_as_spare(lines[n - 1], pattern) for n in where):
                found.append(warning_at(f"{path}:{where[0]}", path,
                                        f"skill `{name}` is named here but no step runs it, and it is no step's "
                                        f"fallback or compensation: a step may have been lost or merged into another "
                                        f"(lines {lines_said}){merged}", "spec.skill-not-run"))
            else:
                found.append(warning_at(f"{path}:{where[0]}", path,
                                        f"skill `{name}` is named here but no step runs it, and it is no step's "
                                        f"fallback or compensation: a step was lost or merged into another, and a "
                                        f"plan that would run less than its spec says is not made (lines "
                                        f"{lines_said}){merged}", LOST_STEP_CODE))
    if plan.spec.format != "markdown":
        return found  # the YAML readers own their comments and keys
    conditional = frozenset(s.id for s in plan.steps if s.when or s.routes)
    for step in plan.steps:
        span = ranges.get(step.id)
        if span is None:
            continue
        own = [(n, text) for n, text in _step_lines(lines, span) if step.id in owned.get(n, (step.id,))]
        found += _step_guards(step, own, path, conditional)
    return found


def _equals_chain(aside: str) -> bool:
    """"(PVC = chlorine gas = never)", "(late = angry = refund)": three things or more joined by single `=` and
    nothing else, a shorthand of what leads to what, no comparison; "(x = 1 or y = 2)", "(n == 3)" and "(a = b)" are
    not one."""
    if "==" in aside or any(c in aside for c in "<>!≥≤") or _ASIDE_CONDITION.match(aside):
        return False
    parts = [p.strip() for p in aside.split("=")]
    return len(parts) >= 3 and all(parts) and not any(_AND_OR.search(p) for p in parts)


_AND_OR = _rx(r"(?i)\b(?:and|or)\b")


def _calls_own_skill(aside: str, skill: str | None) -> bool:
    """"("cpue-aggregate", hauls = checked)" on the line of the step running `cpue-aggregate`: a script's call,
    the skill quoted first and its arguments after it (read as the step's inputs), no condition of its own."""
    return bool(skill) and re.match(rf"\s*[\"'`]{re.escape(skill or '')}[\"'`]\s*(?:[,)]|$)", aside) is not None


def _opens_rule(step: PlanStep, said: str) -> bool:
    """Whether the condition `said` is the failure one of the step's recovery rules is read from ("If the
    site is down, carry on with ..."): a failure policy, read, not a condition of the step's running."""
    words = " ".join(said.split()).lower()
    return any(words in " ".join(r.failure.split()).lower() for r in step.policy.rules if r.failure)


def _recovery_line(step: PlanStep, line: int) -> bool:
    """Whether the step's fallback (other than failing) was read from this line of the spec: its "if" is the
    failure the fallback is for, not a condition of the step's running (round 49)."""
    said = step.provenance.get("policy.fallback")
    where = getattr(said, "where", None) or ""
    return step.policy.fallback is not None and step.policy.fallback.action is not FallbackAction.FAIL \
        and where.rsplit(":", 1)[-1] == str(line)


def _step_guards(step: PlanStep, text: list[tuple[int, str]], path: str,
                 conditional: frozenset[str]) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def warn(line: int, message: str, code: str) -> None:
        found.append(warning_at(f"{path}:{line}", path, f"{step.id} ({step.skill or step.name}): {message}", code))

    fallbacks = [f for f in (step.policy.fallback, *(r.fallback for r in step.policy.rules)) if f is not None]
    own = [f for f in fallbacks if f.action is FallbackAction.SKILL and f.skill == step.skill]
    if own and step.skill:
        warn(text[0][0] if text else 0,
             f"runs `{step.skill}`, which is also its own fallback: the text names it as the skill to use "
             "instead, so the main skill is probably another one", "spec.own-fallback")
    if step.for_each is None:
        for line, words in text:
            match = next((m for m in _EACH.finditer(words) if not m.group(1).lower().startswith(_NOT_ITEMS)), None)
            if match:
                warn(line, f"the text says `{match.group(0)}` but the step has no For each: it runs once",
                     "spec.each-not-read")
                break
        gathered = any(b.gather for b in step.inputs.values())
        for line, words in text:
            match = _GATHER.search(words)
            if match and not gathered:
                warn(line, f"the text says `{match.group(0)}` but the step takes no gathered list of a For "
                           "each's results: it may start before them or miss them", "spec.gather-not-read")
                break
    if not step.when:
        aside = _ASIDE.search(text[0][1]) if text else None
        if aside and _ASIDE_CONDITION.search(aside.group(1)) and not _equals_chain(aside.group(1)) \
                and not _calls_own_skill(aside.group(1), step.skill):
            warn(text[0][0], f"the step's own line states a condition (`{aside.group(0)}`) but the step has none: "
                             "it always runs", "spec.condition-not-read")
        for line, words in text:
            pseudo = control_line(words) and _PROSE_THEN.search(words) is None  # "If x, then instead ...": prose
            said = None if pseudo else _condition(words)  # `if x > 3 then`: the next step's
            if said and step.policy.approval is not None and (
                    approval_sentence(said) or approval_sentence(words) or said_of_gate(words)):
                continue  # "If the total is over 500 the lead has to OK it": the approval's condition, read
                # (or not readable, and then the approval holds on every run, warned where it is read)
            if said and _opens_rule(step, said):
                continue  # "If the licensing site is down, carry on with ...": the failure its recovery rule reads
            if said and _recovery_line(step, line):
                continue  # "if the feed is down, use feed-cache instead": the line its fallback was read from
            if said:
                warn(line, f"the text states a condition (`{said}`) but the step has none: it always runs",
                     "spec.condition-not-read")
                break
    branched = [d for d in step.depends_on if d in conditional]
    if step.join != "any" and not branched:
        for line, words in text:
            match = _JOIN.search(words) or strong_join(words)
            if match:
                warn(line, f"the text says `{match.group(0)}` but the step does not run after a choice of "
                           f"branches (it depends on {', '.join(step.depends_on) or 'nothing'}, none conditional)",
                     "spec.join-not-read")
                break
    if not any(f.action is FallbackAction.DEFAULT and f.value is not None for f in fallbacks):
        for line, words in text:
            for match in _JSON_OBJECT.finditer(words):
                try:
                    json.loads(match.group(0))
                except ValueError:
                    continue
                warn(line, f"the text gives the value {match.group(0)} but no fallback of the step keeps it",
                     "spec.value-not-kept")
                return found
    return found


def _condition(words: str) -> str | None:
    summary = _SUMMARY.search(words)
    if summary:
        inner = summary.group(1).strip()
        return inner if _SUMMARY_CONDITION.search(inner) and not _FAILURE_WORDS.search(inner) else None
    for sentence in _SENTENCE.split(words.strip()):
        match = _CONDITION_START.match(sentence.strip())
        if not match:
            continue
        head = re.split(r"[,:;]", match.group(2), maxsplit=1)[0]
        if recovery_opening(sentence.strip()):
            continue  # "if it is still going at the 8-minute mark, pull the plug": the step's recovery, read
        if match.group(1).lower() in ("otherwise", "else"):
            if not _POLICY_WORDS.search(head):
                return sentence.strip()[:80]
        elif _STOPS.search(match.group(2)[len(head):]):
            continue  # "if ok is false, stop the run": a check, not a branch
        elif _FAILURE_WORDS.search(head) and not _ON_DATA.search(_BRACKETED.sub("", head)):
            continue  # "if the export times out (> 90 s), ...": the failure's limit in brackets, a policy
        elif _ON_DATA.search(head) or (_ON_DATA_WEAK.search(head) and not _FAILURE_WORDS.search(head)):
            return sentence.strip()[:80]
    return None


_rx.save()

"""A dotenv file (`.env`, `x.env`, `.env.example`) whose keys name skills as steps, read field by field
(never sourced or run) into the assignments `spec.code_calls` reads:

    TENANCY=                  # tenancy ref          -> an empty value: the workflow input `TENANCY` (its comment the description)
    GRACE_DAYS=14                                    -> a constant, put in where a condition names it
    STEP1=arrears-check       # TENANCY -> days_late -> a key whose value is a skill: a step (`step-1`); its comment its text;
                                                        names before `->` what it reads, after it what it puts out
    STEP1_RETRY=2x_wait45s                           -> `<step key>_<setting>`: that step's setting, read as the YAML key
    STEP2=formal-notice       # ONLY when days_late is over GRACE_DAYS   -> its condition (`days_late`: step-1's output)
    STEP3=friendly-nudge      # otherwise             -> the otherwise of the step before
    STEP4=send-letter         # letter from whichever of 2/3 ran       -> waits for both, a join
    RUN_TIMEOUT=10m / DONE_WHEN="..."               -> the whole run's limit, the success check

A step waits for the steps whose outputs or skill names its comment names, else for the step before it.
When the skills' inputs are known, a name the comment says it reads (`TENANCY`, `OFFICE_SIG`) is given to the
skill input that shares a word with it (`tenancy_ref`, `sig`), warned. A dotenv file no key of which names a
skill is no such spec (read as before).
"""

from __future__ import annotations

import re
from pathlib import PurePath

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.check import SpecParts
from orchestrator.spec.code_literal import Lit, Tok
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LINE = _rx(r"^[ \t]*+(?:export[ \t]++)?(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63}+)[ \t]*+=[ \t]*+(?P<rest>.*+)$")
_QUOTED = _rx(r"^(?P<q>[\"'])(?P<v>[^\"']{0,2000}+)(?P=q)[ \t]*+(?:#[ \t]*+(?P<c>.*+))?+$")
_PLAIN = _rx(r"^(?P<v>(?:[^#\s]|[ \t]++(?!#|[ \t]*+$)|(?<=\S)#)*+)[ \t]*+(?:#[ \t]*+(?P<c>.*+))?+$")
_COMMENT = _rx(r"^[ \t]*+#[ \t]*+(?P<c>.*+)$")
_SKILLISH = _rx(r"^[a-z][a-z0-9]*+(?:[-_][a-z0-9]++)*+$")
_STEP_KEY = _rx(r"^(?:STEP|STAGE|TASK|JOB)_?+\d{1,3}+$", re.I)
_ARROW = _rx(r"^(?P<left>[^>]{0,400}?)(?:->|=>|→)(?P<right>[^.;(]{0,200}+)")
_NAME = _rx(r"(?<![\w-])(?P<n>[A-Za-z_][A-Za-z0-9_]{0,63}+)(?![\w-])")
_WHEN = _rx(r"\b(?:only[ \t]++)?+(?:when|if)[ \t]++(?P<c>[^.;(]{1,200}+)", re.I)
_ONLY = _rx(r"\bonly[ \t]++(?:when|if)\b|^[ \t]*+(?:when|if)\b", re.I)
_OTHERWISE = _rx(r"^[ \t]*+(?:otherwise|else)\b", re.I)
_EITHER = _rx(r"\bwhichever[ \t]++of[ \t]++(?:steps?[ \t]++)?+(?P<a>\d{1,3}+)[ \t]*+(?:/|or|and|,)[ \t]*+(?P<b>\d{1,3}+)", re.I)
_SAME = _rx(r"\bsame[ \t]++inputs?[ \t]++as[ \t]++(?P<k>[A-Za-z_][A-Za-z0-9_]{0,63}+)", re.I)
_SAYS = _rx(r"^[ \t]*+(?P<s>[a-z][\w-]{0,63}+)[ \t]++(?:says|reports|returns|gives)[ \t]++(?P<f>[A-Za-z_]\w{0,63}+)[ \t]*+=[ \t]*+(?P<v>[\w.-]{1,60}+)[ \t]*+$", re.I)
_GLUE = _rx(r"(?<=[a-z])(?=\d)|(?<=\d)x(?=_)")
# `<step key>_<setting>` suffixes that are not the YAML form's words as written
_SETTINGS = {"onfail": "on_fail", "onerror": "on_fail", "signoff": "approval", "ok": "approval", "if": "when",
             "only_if": "when", "needs": "depends_on", "after": "depends_on", "retries": "retries"}
_RUN_PREFIXES = ("run_", "workflow_", "whole_", "total_", "job_")


def is_dotenv(path: str) -> bool:
    """A dotenv file by its name: `.env`, `.env.local`, `rent.env`."""
    name = PurePath(path).name.lower()
    return name == ".env" or name.startswith(".env.") or name.endswith(".env")


def _value(rest: str, line: int) -> tuple[Lit, str]:
    m = _QUOTED.match(rest) or _PLAIN.match(rest)
    if m is None:
        return Lit("str", rest.strip(), line, line), ""
    text, said = m.group("v").strip(), (m.group("c") or "").strip()
    if not text and "q" not in m.groupdict():
        return Lit("null", None, line, line), said
    if not m.groupdict().get("q") and text.lstrip("-").isdigit():
        return Lit("num", int(text), line, line), said
    return Lit("str", text, line, line), said


class _Step:
    def __init__(self, key: str, skill: str, line: int, said: str) -> None:
        self.key, self.skill, self.line, self.said = key, skill, line, said
        self.id = ""
        self.settings: list[tuple[str, int, Lit]] = []
        self.end = line
        self.outputs: list[str] = []
        self.after: list[str] = []


def _names(text: str) -> list[str]:
    return [m.group("n") for m in _NAME.finditer(text)]


def read_dotenv(src: Source) -> SpecParts | None:
    """The parts of a dotenv spec (module docstring), or None when no key names a skill."""
    from orchestrator.spec.code_calls import read_assigned

    vocabulary: Vocabulary = src.vocabulary
    pairs: list[tuple[str, int, Lit, str]] = []
    comments: list[Tok] = []
    unread: list[tuple[int, str]] = []
    for n, raw in enumerate(src.lines, 1):
        if (c := _COMMENT.match(raw)) is not None:
            comments.append(Tok("comment", c.group("c").strip(), n, 0, 0, n))
            continue
        m = _LINE.match(raw)
        if m is None:
            if raw.strip():
                unread.append((n, raw.strip()))
            continue
        value, said = _value(m.group("rest"), n)
        pairs.append((m.group("key"), n, value, said))
    steps: dict[str, _Step] = {}
    for key, n, value, said in pairs:
        text = str(value.value) if value.kind == "str" else ""
        if text and (vocabulary.skill_for(text) or (_STEP_KEY.match(key) and _SKILLISH.match(text) and not vocabulary)):
            steps[key] = _Step(key, vocabulary.skill_for(text) or text, n, said)
    if not steps:
        return None
    for n, raw in unread:
        src.warn(n, f"'{raw[:60]}' is no KEY=value line, so it is not read", "spec.unread")
    for number, step in enumerate(steps.values(), 1):
        step.id = f"step-{number}"
        arrow = _ARROW.search(step.said)
        step.outputs = _names(arrow.group("right")) if arrow else []
    assigned: list[tuple[str, int, Lit]] = []
    top: list[tuple[str, int, Lit]] = []
    for key, n, value, said in pairs:
        if key in steps:
            continue
        owner = max((k for k in steps if key.startswith(f"{k}_")), key=len, default=None)
        if owner is not None:
            setting = yk.key_name(key[len(owner) + 1:])
            steps[owner].settings.append((_SETTINGS.get(setting, setting), n, value))
            steps[owner].end = max(steps[owner].end, n)
            if said:
                comments.append(Tok("comment", said, n, 0, 0, n))
            continue
        lowered = key.lower()
        bare = next((lowered[len(p):] for p in _RUN_PREFIXES if lowered.startswith(p)), lowered)
        if value.kind != "null" and yk.top_key(bare) in ("timeout", "success", "retry", "limits"):
            top.append((yk.top_key(bare), n, value))
            continue
        if said:
            comments.append(Tok("comment", said, n, 0, 0, n))
        assigned.append((key, n, value))
    checks: list[tuple[str, int, str]] = []
    for name, n, value in list(top):  # "send-letter says sent=true": that step's own check, at its line
        m = _SAYS.match(str(value.value)) if name == "success" and value.kind == "str" else None
        done_by = next((st for st in steps.values() if m is not None and st.skill == m.group("s")), None)
        if m is not None and done_by is not None:
            top[top.index((name, n, value))] = (name, n, Lit(
                "str", f"steps.{done_by.id}.output.{m.group('f')} == {m.group('v')}", n, n))
            checks.append((done_by.id, n, str(value.value)))
            src.warn(n, f"'{str(value.value)[:60]}' is read as the run's success check: {done_by.id} ({done_by.skill}) "
                        f"puts out {m.group('f')} == {m.group('v')}", "spec.success")
    items = [_item(step, steps, assigned, src) for step in steps.values()]
    first, last = min(s.line for s in steps.values()), max(s.end for s in steps.values())
    assigned.append(("steps", first, Lit("seq", None, first, last, items=items)))
    for name, n, value in top:
        assigned.append((name, n, value))
    for tok in comments:
        if tok.line > last and tok.line not in {n for _, n, _ in top}:
            src.warn(tok.line, f"the comment '{tok.text[:60]}' comes after the last step, so it is not read",
                     "spec.unread")
    parts = read_assigned(src, sorted(comments, key=lambda t: t.line), assigned, [], keep_case=True)
    if parts is None or not checks:
        return parts
    out = []
    for read in parts.steps:
        found = [Reading(what="success", where=src.where(n), text=text,
                         note=f"the run's success check `{text}`, checked on {read.id}'s output (a DONE_WHEN key)")
                 for sid, n, text in checks if sid == read.id]
        out.append(read.model_copy(update={"readings": (*read.readings, *found)}) if found else read)
    return parts.model_copy(update={"steps": tuple(out)})


def _item(step: _Step, steps: dict[str, _Step], assigned: list[tuple[str, int, Lit]], src: Source) -> Lit:
    """One step's fields: id, skill, its condition, what it waits for, what it reads, its settings."""
    n = step.line
    pairs: list[tuple[str, int, Lit]] = [("id", n, Lit("str", step.id, n, n)), ("skill", n, Lit("str", step.skill, n, n))]
    order = list(steps.values())
    before = order[: order.index(step)]
    made = {f: s for s in before for f in s.outputs}
    arrow = _ARROW.search(step.said)
    reads = arrow.group("left") if arrow else step.said
    after: list[str] = []
    if (either := _EITHER.search(step.said)) is not None:
        after += [f"step-{either.group(g)}" for g in ("a", "b") if 0 < int(either.group(g)) <= len(before)]
    for name in _names(reads):
        if name in made and made[name].id not in after:
            after.append(made[name].id)
        elif (s := next((b for b in before if b.skill == name), None)) is not None and s.id not in after:
            after.append(s.id)
    if (same := _SAME.search(step.said)) is not None and same.group("k") in steps:
        other = steps[same.group("k")]
        theirs = _ARROW.search(other.said)
        reads = f"{reads} {theirs.group('left') if theirs is not None else other.said}"
        after += [a for a in other.after if a not in after]
    otherwise = _OTHERWISE.search(step.said) is not None and before
    if otherwise:
        after = list(before[-1].after) or after
        pairs.append(("when", n, Lit("str", "else", n, n)))
    elif _ONLY.search(step.said) and (cond := _WHEN.search(step.said)) is not None:
        pairs.append(("when", n, Lit("str", _refs(cond.group("c").strip(), made), n, n)))
    if not after and before:
        after = [before[-1].id]
    step.after = after
    pairs.append(("depends_on", n, Lit("seq", None, n, n, items=[Lit("str", a, n, n) for a in after])))
    takes = _takes(step, reads, made, assigned, src)
    if takes:
        pairs.append(("takes", n, Lit("map", None, n, n, pairs=takes)))
    for key, line, value in step.settings:
        if value.kind == "str":
            text = str(value.value)
            if key in ("retry", "retries", "backoff", "timeout"):
                text = _GLUE.sub(" ", text).replace("_", " ")
            value = Lit("str", text if key == "approval" else _refs(text, made), line, line)
        pairs.append((key, line, value))
    return Lit("map", None, n, step.end, pairs=pairs, call=step.key)


def _refs(text: str, made: dict[str, _Step]) -> str:
    """Bare output names of earlier steps as `step-N.name`."""
    return _NAME.sub(lambda m: f"steps['{made[m.group('n')].id}'].output.{m.group('n')}" if m.group("n") in made else m.group("n"),
                     text)


def _takes(step: _Step, reads: str, made: dict[str, _Step], assigned: list[tuple[str, int, Lit]],
           src: Source) -> list[tuple[str, int, Lit]]:
    """The skill's inputs from the names its comment reads, when the skill's inputs are known: a key of the file
    or an earlier step's output sharing a word with the input (warned)."""
    wanted = src.vocabulary.inputs_of(step.skill)
    if not wanted:
        return []
    keys = {k for k, _, _ in assigned}
    n = step.line
    out: list[tuple[str, int, Lit]] = []
    left: list[str] = []
    named = [name for name in dict.fromkeys(_names(reads)) if name in keys or name in made]
    for name in named:
        words = set(name.lower().split("_"))
        hits = sorted(i for i in wanted if i.lower() == name.lower() or words & set(i.lower().split("_")))
        if len(hits) != 1 or any(k == hits[0] for k, _, _ in out):
            left.append(name)
            continue
        if hits[0] == name:  # the skill's own name: bound by name as ever
            out.append((name, 0, Lit("null")))
            continue
        out.append((hits[0], n, _source(name, made, n)))
        if hits[0].lower() != name.lower():
            src.warn(n, f"`{name}` is given to {step.skill}'s input `{hits[0]}`: their names share a word", "spec.guess")
    free = sorted(set(wanted) - {k for k, _, _ in out})
    if len(left) == 1 and len(free) == 1:  # "TENANCY, MONTH and via from send-letter": via is the one left, channel
        name = left[0]
        out.append((free[0], n, _source(name, made, n)))
        src.warn(n, f"`{name}` is given to {step.skill}'s input `{free[0]}`: it is the one value named here no input "
                    "is called, and the one input nothing named here is called", "spec.guess")
    return [(k, line, v) for k, line, v in out if line]


def _source(name: str, made: dict[str, _Step], line: int) -> Lit:
    """A key of the file as itself (an input or a constant), an earlier step's output as the form's reference."""
    if name in made:
        return Lit("str", "{{ steps." + made[name].id + ".output." + name + " }}", line, line)
    return Lit("ref", name, line, line)


_rx.save()

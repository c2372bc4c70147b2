"""A Java `.properties` file whose dotted keys group a step's fields, read field by field (never run) into
the assignments `spec.code_calls` reads, as `spec.dotenv42` does for a .env:

    date=                         -> an empty value: the workflow input `date`
    site.code=LP-2                -> a constant (`${site.code}` is the literal `LP-2`)
    step.1.skill=fetch-list       -> `step.<N>.<field>`: step N's field; `skill` names its skill (`step-1`)
    step.1.in=day:${date}, n:4    -> its inputs: `name:value` pairs, `${...}` a reference, else a literal
    step.2.with=1                 -> starts with step 1 (the same waits), not after it
    step.3.foreach=${step.1.rows} -> once per item of step 1's `rows`; `${item.f}` the item's field
    step.4.after=1,3              -> waits for steps 1 and 3; `${step.3.*}` is step 3's results, gathered
    run.done.when=step.4.ok == true / run.maxMinutes=45 -> the run's success check / its whole-run limit

`key=value`, `key: value` and `key value` lines, `#` / `!` comments and lines continued with a trailing `\\`
are read as Java reads them. Comment lines right under a step's keys (no blank line between) are that step's
words (its rules); other comments belong to the step after them, and those before the first step are the header.
A step that says neither `after` nor `with` waits for the steps its `${step.N...}` name, else for the step
before it. Any other field of a step is read as the YAML form's key (`retries`, `timeout`, `when`, ...). A file no step
group of which names a skill is no such spec (read as text, as before).
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

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"^[ \t]*+[#!][ \t]*+(?P<c>.*+)$")
_PAIR = _rx(r"^[ \t]*+(?P<key>[A-Za-z_][\w.-]{0,120}+)[ \t]*+(?:[=:][ \t]*+|[ \t](?=[ \t]*+\S))(?P<v>.*+)$")
_STEP = _rx(r"^(?P<g>(?:steps?|stages?|tasks?|jobs?)[._](?P<id>[A-Za-z0-9][\w-]{0,40}+))[._](?P<f>[A-Za-z_][\w.]{0,40}+)$", re.I)
_REF = _rx(r"\$\{(?P<r>[^{}]{1,120}+)\}")
_STEP_REF = _rx(r"^(?:steps?|stages?|tasks?|jobs?)[._](?P<id>[A-Za-z0-9][\w-]{0,40}+)(?:[._](?P<f>[\w.*]{1,80}+))?$", re.I)
_BARE_STEP = _rx(r"(?<![\w.${])(?:steps?|stages?|tasks?|jobs?)\.(?P<id>[A-Za-z0-9][\w-]{0,40}+)\.(?P<f>[A-Za-z_]\w{0,60}+)", re.I)
_IDS = _rx(r"^[ \t]*+\d{1,3}+(?:[ \t]*+[,;][ \t]*+\d{1,3}+)*+[ \t]*+$")
_LIMIT = _rx(r"^(?:max|limit|timeout|deadline)[._-]?+(?P<u>minutes?|mins?|seconds?|secs?|hours?|hrs?)$"
             r"|^(?P<u2>minutes?|mins?|seconds?|secs?|hours?)[._-]?+(?:max|limit)$", re.I)
_SKILL_FIELDS = ("skill", "uses", "run", "action")
_IN_FIELDS = ("in", "input", "inputs", "args", "params", "takes")
_EACH_FIELDS = ("foreach", "for_each", "each", "loop", "over")
_AFTER_FIELDS = ("after", "needs", "depends", "depends_on", "requires", "wait_for", "waitfor")
_WITH_FIELDS = ("with", "alongside", "parallel_with", "together_with")
_OUT_FIELDS = ("out", "output", "outputs", "returns")


def is_properties(path: str) -> bool:
    """A Java properties file by its name (`x.properties`)."""
    return PurePath(path).name.lower().endswith(".properties")


def logical_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(first line number, text) of each logical line: a line ending in an odd number of `\\` goes on with
    the next one, its leading blanks dropped (as java.util.Properties reads them)."""
    out: list[tuple[int, str]] = []
    held: tuple[int, str] | None = None
    for n, raw in enumerate(lines, 1):
        text = raw.rstrip("\r")
        if held is not None:
            text = held[1] + text.lstrip(" \t")
            n = held[0]
            held = None
        elif _COMMENT.match(text):
            out.append((n, text))
            continue
        tail = len(text) - len(text.rstrip("\\"))
        if tail % 2 == 1:
            held = (n, text[:-1])
            continue
        out.append((n, text))
    if held is not None:
        out.append(held)
    return out


class _Step:
    def __init__(self, key: str, line: int) -> None:
        self.key, self.line, self.end = key, line, line
        self.id = f"step-{key}" if key.isdigit() else key
        self.fields: list[tuple[str, int, str]] = []


def _name(key: str) -> str:
    return key.replace(".", "_").replace("-", "_")


def read_properties(src: Source) -> SpecParts | None:
    """The parts of a .properties spec (module docstring), or None when no step group names a skill."""
    from orchestrator.spec.code_calls import read_assigned

    comments: list[Tok] = []
    pairs: list[tuple[str, int, str]] = []
    unread: list[tuple[int, str]] = []
    kinds: dict[int, str] = {}
    for n, text in logical_lines(src.lines):
        if (c := _COMMENT.match(text)) is not None:
            comments.append(Tok("comment", c.group("c").strip(), n, 0, 0, n))
            kinds[n] = "comment"
        elif (m := _PAIR.match(text)) is not None:
            pairs.append((m.group("key"), n, m.group("v").strip()))
        elif text.strip():
            unread.append((n, text.strip()))
    steps: dict[str, _Step] = {}
    rest: list[tuple[str, int, str]] = []
    for key, n, value in pairs:
        m = _STEP.match(key)
        if m is None:
            rest.append((key, n, value))
            continue
        step = steps.setdefault(m.group("id"), _Step(m.group("id"), n))
        step.fields.append((m.group("f").lower(), n, value))
        step.end = max(step.end, n)
        kinds[n] = f"step:{m.group('id')}"
    steps = {k: s for k, s in steps.items() if any(f in _SKILL_FIELDS and v for f, _, v in s.fields)}
    if not steps:
        return None
    for n, raw in unread:
        src.warn(n, f"'{raw[:60]}' is no key=value line, so it is not read", "spec.unread")
    for step in steps.values():  # the comment lines right under its keys are its words
        while kinds.get(step.end + 1) == "comment":
            step.end += 1
    ids = {k: s.id for k, s in steps.items()}
    names = {key: _name(key) for key, _, _ in rest}
    assigned: list[tuple[str, int, Lit]] = []
    top: list[tuple[str, int, Lit]] = []
    for key, n, value in rest:
        last = key.rsplit(".", 2)
        tail = "_".join(last[-2:]) if len(last) > 1 else key
        limit = _LIMIT.match(last[-1])
        if yk.top_key(tail) == "success" or yk.top_key(last[-1]) == "success":
            top.append(("success", n, Lit("str", _cond(value, ids), n, n)))
        elif limit is not None and value.isdigit():
            unit = (limit.group("u") or limit.group("u2") or "s")[0].lower()
            top.append(("timeout", n, Lit("str", f"{value}{unit}", n, n)))
        elif not value:
            assigned.append((names[key], n, Lit("null", None, n, n)))
        else:
            assigned.append((names[key], n, _literal(value, n)))
    items = [_item(step, steps, ids, names, src) for step in steps.values()]
    first, last_line = min(s.line for s in steps.values()), max(s.end for s in steps.values())
    assigned.append(("steps", first, Lit("seq", None, first, last_line, items=items)))
    assigned += top
    for tok in comments:  # `# old: step.6.skill=x`: a comment after the last step's words says nothing read
        if tok.line > last_line and tok.text:
            src.warn(tok.line, f"the comment '{tok.text[:60]}' comes after the last step, so it is not read",
                     "spec.unread")
    said = {n: f"{key}={value}" for key, n, value in rest}
    return _run_checks(read_assigned(src, comments, assigned, [], keep_case=True), top, said, src)


_ON_STEP = _rx(r"\bsteps\.(?P<id>[A-Za-z0-9][\w-]{0,40}+)\.output\.")


def _run_checks(parts: SpecParts | None, top: list[tuple[str, int, Lit]], lines: dict[int, str], src: Source
                ) -> SpecParts | None:
    """A top-level done key (`audit.done.when=step.5.sent == true`) on one step's output: the run's success check,
    judged after the run (`plan.run_checks37`), not that step's own output contract; warned at its line."""
    if parts is None:
        return None
    found: dict[str, list[Reading]] = {}
    for kind, n, value in top:
        named = {m.group("id") for m in _ON_STEP.finditer(str(value.value))} if kind == "success" else set()
        step = next((st for st in parts.steps if named == {st.id}), None)
        if step is None or any(r.what == "success" and r.where == src.where(n) for r in step.readings):
            continue  # read (and said) as the run's check by the YAML form's reader (`yaml_top.run_success`)
        said = lines.get(n, str(value.value))
        found.setdefault(step.id, []).append(Reading(
            what="success", where=src.where(n), text=said,
            note=f"the run's success check `{value.value}`, checked on {step.id}'s output (a done key of the file)"))
        src.warn(n, f"'{said[:60]}' is read as the run's success check: {step.id} ({step.skill}) puts out "
                    f"{_ON_STEP.sub('', str(value.value))}, checked once the run has ended", "spec.success")
    if not found:
        return parts
    return parts.model_copy(update={"steps": tuple(
        st.model_copy(update={"readings": (*st.readings, *found[st.id])}) if st.id in found else st
        for st in parts.steps)})


def _literal(text: str, line: int) -> Lit:
    if text.lstrip("-").isdigit():
        return Lit("num", int(text), line, line)
    if text.lower() in ("true", "false"):
        return Lit("bool", text.lower() == "true", line, line)
    return Lit("str", text, line, line)


def _cond(text: str, ids: dict[str, str]) -> str:
    """`step.5.sent == true` / `${step.5.sent} == true` in the form's words."""
    text = _REF.sub(lambda m: m.group("r"), text)
    return _BARE_STEP.sub(lambda m: f"steps.{ids.get(m.group('id'), m.group('id'))}.output.{m.group('f')}"
                          if m.group("id") in ids else m.group(0), text)


def _split(text: str) -> list[str]:
    """`a:${x}, b:2` → ['a:${x}', 'b:2'] (commas inside `${...}` kept)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth <= 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in [*out, cur] if p.strip()]


def _value(text: str, line: int, step: _Step, ids: dict[str, str], names: dict[str, str], src: Source) -> Lit:
    """One value: a whole `${...}` reference in the form's words, else a literal (a reference inside text warned)."""
    m = _REF.fullmatch(text.strip())
    if m is None:
        if _REF.search(text):
            src.warn(line, f"{step.id}: '{text[:60]}' mixes a reference into text: taken as the literal text",
                     "spec.unread")
        return _literal(text.strip(), line)
    ref = m.group("r").strip()
    if ref in names:
        return Lit("ref", names[ref], line, line)
    head, _, field = ref.partition(".")
    if head in ("item", "each", "it", "row"):
        return Lit("str", "{{ item" + (f".{field}" if field else "") + " }}", line, line)
    s = _STEP_REF.match(ref)
    if s is not None and s.group("id") in ids:
        sid, f = ids[s.group("id")], s.group("f")
        if f in ("*", "all", None):
            return Lit("str", "{{ " + sid + "[*] }}", line, line)
        return Lit("str", "{{ steps." + sid + ".output." + f + " }}", line, line)
    src.warn(line, f"{step.id}: `${{{ref}}}` names no key of the file and no step: read as the workflow input "
                   f"`{_name(ref)}`", "spec.inputs")
    return Lit("str", "{{ inputs." + _name(ref) + " }}", line, line)


def _step_ids(text: str, ids: dict[str, str]) -> list[str]:
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    return [ids.get(p, f"step-{p}") for p in parts if p]


def _item(step: _Step, steps: dict[str, _Step], ids: dict[str, str], names: dict[str, str], src: Source) -> Lit:
    """One step's fields in the YAML form's words."""
    n = step.line
    pairs: list[tuple[str, int, Lit]] = [("id", n, Lit("str", step.id, n, n))]
    order = list(steps.values())
    before = order[: order.index(step)]
    after: list[str] | None = None
    takes: list[tuple[str, int, Lit]] = []
    for field, line, value in step.fields:
        if field in _SKILL_FIELDS:
            pairs.append(("skill", line, Lit("str", value, line, line)))
        elif field in _IN_FIELDS or (field in _WITH_FIELDS and not _IDS.match(value)):
            for part in _split(value):
                cut = min((i for i in (part.find(":"), part.find("=")) if i > 0), default=-1)
                key, val = (part[:cut].strip(), part[cut + 1:]) if cut > 0 else ("", part)
                if not re.fullmatch(r"[A-Za-z_][\w-]{0,63}", key):
                    src.warn(line, f"{step.id}: '{part[:60]}' gives no `name:value`, so it is not read", "spec.unread")
                    continue
                takes.append((key, line, _value(val, line, step, ids, names, src)))
        elif field in _WITH_FIELDS:  # `with=1`: starts with step 1, waits for what it waits for
            mates = [s for s in steps.values() if s.id in _step_ids(value, ids) and s is not step]
            if not mates:
                src.warn(line, f"{step.id}: `with={value}` names no other step to start with, so it is not read",
                         "spec.unread")
                continue
            after = [a for s in mates for a in _waits(s, steps, ids)]
        elif field in _AFTER_FIELDS:
            after = _step_ids(value, ids)
        elif field in _EACH_FIELDS:
            each = _STEP_REF.match(_REF.sub(lambda m: m.group("r"), value).strip())
            if each is None or each.group("id") not in ids or not each.group("f"):
                src.warn(line, f"{step.id}: '{value[:60]}' names no step's output to go over, so the step runs once",
                         "spec.unread")
                continue
            pairs.append(("for_each", line, Lit("str", f"item in {ids[each.group('id')]}.{each.group('f')}", line, line)))
        elif field in _OUT_FIELDS:
            continue
        else:
            pairs.append((field.replace(".", "_"), line, Lit("str", _cond(value, ids), line, line)))
    if after is not None:
        pairs.append(("depends_on", n, Lit("seq", None, n, n, items=[Lit("str", a, n, n) for a in after])))
    elif not before:
        pairs.append(("depends_on", n, Lit("seq", None, n, n, items=[])))
    elif not any((r := _STEP_REF.match(m.group("r").strip())) is not None and r.group("id") in ids
                 for _, _, v in step.fields for m in _REF.finditer(v)):
        pairs.append(("depends_on", n, Lit("seq", None, n, n, items=[Lit("str", before[-1].id, n, n)])))
    if takes:
        pairs.append(("takes", n, Lit("map", None, n, n, pairs=takes)))
    return Lit("map", None, n, step.end, pairs=pairs, call=f"step.{step.key}")


def _waits(step: _Step, steps: dict[str, _Step], ids: dict[str, str]) -> list[str]:
    """What a step waits for as written (`after=`), else nothing said: []."""
    for field, _, value in step.fields:
        if field in _AFTER_FIELDS:
            return _step_ids(value, ids)
    return []


_rx.save()

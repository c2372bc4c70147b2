"""A crontab (an /etc/cron.d file, `crontab -l`, a systemd-less scheduler's job list) whose job lines
run the skills: each job is a step, the comment lines right above it its step comment and its text.

    DAY=2027-02-16      # the day we remind people about     a variable the jobs use: a workflow input
    MAILTO=gary@example.org                                   (`day`, its value the default); cron's own
                                                              (MAILTO, SHELL, PATH, ...) are not read
    # (1) pull the book. 3 tries in total, 2 min between      the step comment and its text, as in a
    00 18 * * 1-5 recep /opt/sw/run appt-export day="$DAY"    script runbook (`spec.script_runbook`); the
                                                              times and the user are cron's, the command
                                                              runs the skill (a runner path before it)
    ... reminder-text appt=<each appointment>                 runs once per item of the earlier step's
                                                              list output of that name (`appointments`)
    ... sms-send-batch messages=<all of 3> credits=<from 2>   step 3's results gathered; step 2's `credits`
    ... daily-tally sms_sent=<4>                              step 4's `sms_sent`
    # old: 30 18 * * 1-5 recep /opt/sw/old.sh                 a job commented out: no step, no text

A file is a crontab by its name (`.crontab`, `.cron`, `crontab`, a path under `cron.d/`) or, with
no other suffix it is read by, when its code lines are all job lines (five time fields or an
`@daily`-like word) and `NAME=value` lines, one job at least. The times are not read (the runner
starts a step when the steps it needs are done, and says so in a warning at the first job). A
placeholder `<...>` the module cannot read is left unbound and warned.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from orchestrator.spec.check import SpecParts
from orchestrator.spec.fields import source_of
from orchestrator.spec.model import FieldSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FIELD = r"[\d*][\d*,/-]{0,40}+|[A-Za-z]{3}(?:-[A-Za-z]{3})?"
# a job line: five time fields (or `@daily`), then the rest (an optional user, the command)
_JOB = _rx(rf"^(?:(?:{_FIELD})[ \t]++){{4}}(?:{_FIELD})[ \t]++(?P<rest>\S.*+)$"
           r"|^@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)[ \t]++(?P<rest2>\S.*+)$")
_VARIABLE = _rx(r"^(?P<var>[A-Za-z_]\w{0,60}+)[ \t]*+=[ \t]*+(?P<value>[^#\s][^#]*?|)[ \t]*+(?:#.*+)?$")
# a commented-out job ("# old: 30 18 * * 1-5 recep /opt/sw/x.sh"): a word or two may lead it
_COMMENTED_JOB = _rx(rf"^#++[ \t]*+(?:[A-Za-z]{{1,12}}+:[ \t]*+)?(?:(?:{_FIELD})[ \t]++){{4}}(?:{_FIELD})[ \t]++\S")
_PLACEHOLDER = _rx(r"(?P<key>[A-Za-z_][\w-]{0,60}+)=<(?P<said>[^<>\n]{1,80}+)>")
_EACH = _rx(r"(?i)^(?:each|every|one\s++per|per|for\s++each)\s++(?:of\s++the\s++|the\s++)?(?P<noun>[A-Za-z_][\w ]{0,40}?)"
            r"(?:\s++(?:from|of|in)\s++(?:step\s*+|#|\()?(?P<n>\d{1,3}+)\)?)?$")
# a sentence that says the loop the placeholder says: "it runs once for each one", "one per appointment"
_ONCE_EACH = _rx(r"(?i)(?<![^\s.;])(?:it\s++|this\s++)?(?:runs?|goes|fires?|happens)\s++once\s++(?:for|per)\s++(?:each|every)"
                 r"(?:\s++(?:one|item|of\s++them))?+[^.;\n]{0,40}+[.;]?")
# an earlier step the job's comment cites: "(1)", "step 1", "from 1", "#1"
_CITED = _rx(r"(?i)(?:\(|(?<!\w)step\s*+|(?<!\w)(?:from|of|off)\s++|#)(\d{1,3}+)(?![\w.])")
_RUNNER_SKILL = _rx(r"^[a-z0-9]++(?:[-_][a-z0-9]++)++$")
_CALL_WORDS = frozenset(("skill", "run-skill", "call-skill", "skill-run", "run_skill", "invoke-skill", "skillweave"))
CRON_OWN = frozenset(("MAILTO", "MAILFROM", "SHELL", "PATH", "HOME", "LOGNAME", "USER", "CRON_TZ", "TZ", "RANDOM_DELAY",
                      "START_HOURS_RANGE", "CONTENT_TYPE", "CONTENT_TRANSFER_ENCODING"))
_SUFFIXES = (".crontab", ".cron")


def is_crontab(path: str, text: str) -> bool:
    """The file is a crontab (module docstring)."""
    p = PurePath(path)
    if p.suffix.lower() in (".md", ".markdown", ".yaml", ".yml", ".json", ".toml", ".csv", ".tsv"):
        return False
    named = p.suffix.lower() in _SUFFIXES or p.name.lower() in ("crontab", "cron") or "cron.d" in p.parts
    jobs = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _JOB.match(line):
            jobs += 1
        elif not _VARIABLE.match(line):
            return named and jobs > 0
    return jobs > 0


def command_call(rest: str, skills: frozenset[str]) -> tuple[str, str] | None:
    """(skill, its arguments) of a job's command after the times: an optional user, an optional runner
    (`/opt/sw/run`, `run-skill`), then the skill; None when no word is one."""
    words = rest.split(None, 4)
    for start in range(min(3, len(words))):
        word = words[start].strip("\"'")
        name = word.rsplit("/", 1)[-1]
        nxt = words[start + 1] if start + 1 < len(words) else ""
        if (name in skills and "/" not in word) or (not skills and start and _RUNNER_SKILL.match(word)):
            return name, rest.split(None, start + 1)[start + 1] if len(words) > start + 1 else ""
        runner = "/" in word or name in _CALL_WORDS or name in ("run", "runner")
        if runner and nxt and (nxt in skills or (not skills and _RUNNER_SKILL.match(nxt))):
            tail = rest.split(None, start + 2)
            return nxt, tail[start + 2] if len(tail) > start + 2 else ""
        if "/skills/" in f"/{word}" and (m := re.search(r"skills/([a-z0-9][\w-]*+)/", word)):
            return m.group(1), rest.split(None, start + 1)[start + 1] if len(words) > start + 1 else ""
    return None


def script_lines(src: Source) -> tuple[list[str], dict[int, list[tuple[str, str]]], list[tuple[int, str, str]]]:
    """The crontab's lines as a script runbook reads them (`skill <name> key=value` for a job, a
    commented-out job blanked), the placeholders of each job line (line -> (key, said)), and its
    variables (line, name, value)."""
    skills = frozenset(src.vocabulary.skills) if src.vocabulary else frozenset()
    out: list[str] = []
    holders: dict[int, list[tuple[str, str]]] = {}
    variables: list[tuple[int, str, str]] = []
    first = 0
    for number, raw in enumerate(src.lines, start=1):
        line = raw.strip()
        if _COMMENTED_JOB.match(line):
            src.warn(number, "a job commented out: not read (no step)", "spec.reading")
            out.append("")
            continue
        job = _JOB.match(line) if not line.startswith("#") else None
        var = _VARIABLE.match(line) if job is None and not line.startswith("#") else None
        if var is not None:
            if var.group("var") in CRON_OWN:
                out.append("")
                continue
            variables.append((number, var.group("var"), var.group("value").strip().strip("\"'")))
            comment = line.split("#", 1)[1].strip() if "#" in line else ""
            out.append(f"{var.group('var')}=  # {comment}" if comment else f"{var.group('var')}=")
            continue
        if job is None:
            out.append(raw)
            continue
        call = command_call(job.group("rest") or job.group("rest2"), skills)
        if call is None:
            out.append(raw)
            continue
        first = first or number
        skill, args = call
        holders[number] = [(m.group("key"), m.group("said").strip()) for m in _PLACEHOLDER.finditer(args)]
        out.append(f"skill {skill} {_PLACEHOLDER.sub('', args).strip()}".rstrip())
    if first:
        src.warn(first, "read as a crontab: each job line is a step running the skill its command names, the comment "
                        "lines above it its text; the times are not read (a step starts when the steps it needs are "
                        "done)", "spec.reading")
    return out, holders, variables


def _plural(noun: str) -> tuple[str, ...]:
    word = noun.strip().split()[-1]
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return (word[:-1] + "ies", word)
    return (word + "es" if word.endswith(("s", "x", "ch", "sh")) else word + "s", word)


def _each(step: StepSpec, said: str, key: str, earlier: list[StepSpec], src: Source, line: int
          ) -> StepSpec | None:
    """The step made a For each over the list `said` names ("each appointment", "every row from 2")."""
    m = _EACH.match(said)
    if m is None:
        return None
    names = _plural(m.group("noun"))
    cited = _CITED.findall(" ".join(t.text for t in step.texts) + " " + step.name)
    numbers = [int(n) for n in cited if 0 < int(n) < (step.number or 0)]
    if m.group("n"):
        numbers = [int(m.group("n"))]
    owner, field = None, names[0]
    for s in reversed(earlier):
        outputs = src.vocabulary.outputs_of(s.skill) if src.vocabulary and s.skill else None
        hit = next((n for n in names if outputs and n in outputs), None)
        if hit and (not numbers or s.number in numbers):
            owner, field = s, hit
            break
    if owner is None and len(numbers) <= 1 and earlier:  # no outputs known: the step cited, else the one before
        owner = earlier[numbers[0] - 1] if numbers else earlier[-1]
    if owner is None:
        return None
    ref = f"steps.{owner.id}.output.{field}"
    note = f"runs once for each item of {owner.id}'s `{field}` (`{key}=<{said}>`), `{key}` being the item"
    src.warn(line, f"{step.id} ({step.name}): {note}", "spec.reading")
    texts = tuple(t.model_copy(update={"text": _ONCE_EACH.sub("", t.text).strip()}) for t in step.texts)
    return step.model_copy(update={
        "texts": tuple(t for t in texts if t.text), "for_each": f"item in {ref}", "input_values": {**step.input_values, key: "{{ item }}"},
        "readings": (*step.readings, Reading(what="for_each", where=src.where(line), text=f"{key}=<{said}>", note=note))})


def _placeholders(steps: list[StepSpec], holders: dict[int, list[tuple[str, str]]], src: Source) -> list[StepSpec]:
    out: list[StepSpec] = []
    for step in steps:
        line = int(step.where.rsplit(":", 1)[1]) if step.where.rsplit(":", 1)[-1].isdigit() else 0
        for key, said in holders.get(line, []):
            each = _each(step, said, key, out, src, line)
            if each is not None:
                step = each
                continue
            ref = source_of(said, key)
            number = int(ref.split(".")[1].split("-")[1]) if ref and ref.startswith("steps.step-") else 0
            if ref is None or not (0 < number < (step.number or 0)):
                src.warn(line, f"{step.id} ({step.name}): `{key}=<{said}>` is not read (write `<each NAME>`, "
                               f"`<all of N>`, `<from N>` or `<N>` for a value of step N), so `{key}` is left "
                               "unbound", "spec.reading")
                continue
            step = step.model_copy(update={"inputs": (*step.inputs, FieldSpec(
                name=key, source=ref, where=src.where(line), description=said))})
        out.append(step)
    return out


def read_crontab(src: Source) -> SpecParts | None:
    """The parts of a crontab (module docstring), read as a script runbook of its job lines."""
    lines, holders, variables = script_lines(src)
    return read_jobs(src, lines, holders, variables)


def read_jobs(src: Source, lines: list[str], holders: dict[int, list[tuple[str, str]]],
              variables: list[tuple[int, str, str]], *, as_written: bool = False) -> SpecParts | None:
    """The parts of a file whose job lines became a script's calls (`lines`): read as a script runbook,
    its placeholders read, each variable set for the jobs the default of the workflow input it is
    (shared with `spec.unit35`; `as_written`: that input named as the variable is spelled, `AIR_DATE`)."""
    from orchestrator.spec.script_runbook import read_script

    src.lines = lines
    src.text = "\n".join(lines)
    parts = read_script(src, "sh")
    if parts is None:
        return None
    steps = _placeholders(list(parts.steps), holders, src)
    values = {var: (value, line) for line, var, value in variables}
    inputs = []
    renamed: dict[str, str] = {}  # `inputs.air_date` -> `inputs.AIR_DATE`
    for spec in parts.inputs or ():
        var = next((v for v in values if v.lower() == spec.name.lower()), None)
        if var is not None and as_written:
            renamed[f"inputs.{spec.name}"] = f"inputs.{var}"
            spec = spec.model_copy(update={"name": var})
        if var is not None and values[var][0]:
            value, line = values[var]
            spec = spec.model_copy(update={"default": value, "required": False, "where": src.where(line)})
            src.warn(line, f"`{var}={value}` is set for the jobs: read as the workflow input `{spec.name}` "
                           f"(default {value!r})", "spec.reading")
        inputs.append(spec)
    if any(k != v for k, v in renamed.items()):
        steps = [s.model_copy(update={"inputs": tuple(
            f.model_copy(update={"source": renamed.get(f.source or "", f.source)}) for f in s.inputs)}) for s in steps]
    return parts.model_copy(update={"steps": tuple(steps), "inputs": tuple(inputs) or None})


_rx.save()

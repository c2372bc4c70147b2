"""A Procfile (Heroku / foreman / honcho: one `name: command` process line each) whose process lines
run the skills: each such line is a step, the `#` comment lines right above it its text.

    # You pass in ORDERS_SINCE when you start it.          comments before the first process: the
    # The whole batch has 90 minutes.                      title and intent (whole-run lines)
    # 1. get the orders. retry after 5s, then 30s.         a step comment and its text, read for its
    fetch: sw run fetch-orders since=$ORDERS_SINCE         policy, as a script runbook's (`spec.script_runbook`)
                                                           the command runs the skill (a runner before
                                                           it: `sw run`, `bin/skill`, `skill`), each
                                                           `key=value` an input, `$X` / `${X}` an
                                                           environment variable: a workflow input
                                                           named as spelled (`ORDERS_SINCE`)
    # rip-large: if it crashes, fall back to x-lowres      no numbered comment: the process is a
    rip_large: sw run rip-large jobs=@split.large_format   step of its own, the comments above it its text;
                                                           `@split.large_format` is the output
                                                           `large_format` of process `split`
    pack: sw run pack-weigh printed=@rip_large.done+@rip_std.done
                                                           several processes' values joined: the step
                                                           waits for each, the input is their values
                                                           put together in order into one list (a
                                                           list's items each an item, a process
                                                           skipped adds nothing)
    # web: gunicorn app:app                                a process line commented out: no step (warned)
    web: gunicorn app:app                                  a process that runs no skill: no step (warned)

`@proc.field` whose field the skill of `proc` does not put out, while it puts out the input's own
name (`total_kg=@pack.weight`, pack's skill giving `total_kg`), is read as that name (warned).
Procfile runners start every process at once; here a process waits for the processes whose values
it reads and for the ones its comments name, as a runbook's steps do (said once, at the first
process). A file is a Procfile by its name (`Procfile`, `Procfile.dev`, `x.procfile`) or, with no
suffix, when all its code lines are process lines and one at least runs a skill by a runner word.
The steps and their wiring are the crontab reader's (`spec.crontab`), shared.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.model import FieldSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.spec.check import SpecParts
    from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a process line: `name: command` at the line's start
_PROCESS = _rx(r"^(?P<name>[A-Za-z0-9_][\w.-]{0,60}+)[ \t]*+:[ \t]++(?P<cmd>\S.*+)$")
# a process line commented out: its command's first word is a program, a path or a runner
_COMMENTED = _rx(r"^#++[ \t]*+(?P<name>[A-Za-z0-9_][\w.-]{0,60}+)[ \t]*+:[ \t]++(?P<cmd>(?:[\w.-]*+/[\w./-]++|sw|skill|"
                 r"skillweave|run-skill|python3?+|node|npm|yarn|pnpm|bundle|bin/\w++|rails|gunicorn|uvicorn|celery|"
                 r"rake|php|java|exec|env|sh|bash|sidekiq|daphne|flask|django-admin|manage\.py)(?![\w.-])[^#\n]*+)")
# a runner word and the skill after it (content sniffing, no vocabulary there)
_RUNS = _rx(r"(?:^|[ \t/])(?:sw|skillweave|skill|run-skill)(?:[ \t]++run)?+[ \t]++[a-z0-9]++(?:[-_][a-z0-9]++)++")
_REF = _rx(r"(?<![\w@])@(?P<proc>[A-Za-z0-9_][\w-]{0,60}+)\.(?P<field>[A-Za-z_]\w{0,60}+)")
_JOINED = _rx(r"^@[A-Za-z0-9_][\w-]{0,60}+\.[A-Za-z_]\w{0,60}+(?:[ \t]*+[+,&][ \t]*+@[A-Za-z0-9_][\w-]{0,60}+"
              r"\.[A-Za-z_]\w{0,60}+)++$")
_ENV = _rx(r"\$\{?([A-Za-z_]\w{0,60}+)")
_SUFFIXES = (".procfile",)


def is_procfile(path: str, text: str) -> bool:
    """The file is a Procfile (module docstring)."""
    p = PurePath(path)
    if p.suffix.lower() in _SUFFIXES or p.name.lower() == "procfile" or p.name.lower().startswith("procfile."):
        return True
    if p.suffix:
        return False
    runs = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _PROCESS.match(raw.rstrip())
        if m is None:
            return False
        runs = runs or _RUNS.search(m.group("cmd")) is not None
    return runs


def _argument(key: str, value: str, line: int, procs: dict[str, tuple[str, int]], src: Source,
              joined: dict[int, list[tuple[str, list[tuple[str, str]]]]]) -> str | None:
    """A `key=value` argument as the script reader reads it (`@proc.field` -> `proc.field`); None when
    it is left out (several processes' values joined: noted in `joined`)."""
    if _JOINED.match(value):
        joined.setdefault(line, []).append((key, [(m.group("proc"), m.group("field")) for m in _REF.finditer(value)]))
        return None
    ref = _REF.fullmatch(value)
    if ref is None:
        return f"{key}={value}"
    proc, wanted = ref.group("proc"), ref.group("field")
    if proc not in procs:
        src.warn(line, f"`{key}={value}`: no process `{proc}` comes before this line, so `{key}` is not read from it",
                 "spec.reading")
        return f"{key}={value}"
    skill = procs[proc][0]
    outputs = src.vocabulary.outputs_of(skill) if src.vocabulary else None
    if outputs and wanted not in outputs and key in outputs:
        src.warn(line, f"`{key}={value}`: skill `{skill}` (process `{proc}`) puts out no `{wanted}` but puts out "
                       f"`{key}`: read as `@{proc}.{key}`", "spec.reading")
        wanted = key
    return f"{key}={proc}.{wanted}"


def procfile_lines(src: Source) -> tuple[list[str], list[tuple[int, str, str]],
                                        dict[int, list[tuple[str, list[tuple[str, str]]]]], dict[str, tuple[str, int]]]:
    """The Procfile's lines as a script runbook reads them (a process that runs a skill a call writing
    `name.json`, a process commented out or running no skill blank), the environment variables its
    commands use (line, name, ""), the joined arguments of each line and the processes (name -> skill, line)."""
    from orchestrator.spec.crontab import command_call

    skills = frozenset(src.vocabulary.skills) if src.vocabulary else frozenset()
    out: list[str] = []
    variables: list[tuple[int, str, str]] = []
    joined: dict[int, list[tuple[str, list[tuple[str, str]]]]] = {}
    procs: dict[str, tuple[str, int]] = {}
    seen: set[str] = set()
    for number, raw in enumerate(src.lines, start=1):
        line = raw.strip()
        if line.startswith("#") and _COMMENTED.match(line):
            src.warn(number, "a process line commented out: not read (no step)", "spec.reading")
            out.append("")
            continue
        m = _PROCESS.match(raw.rstrip()) if not line.startswith("#") else None
        if m is None:
            out.append(raw)
            continue
        name, cmd = m.group("name"), m.group("cmd").split(" #", 1)[0].strip()
        call = command_call(cmd, skills)
        if call is None:
            src.warn(number, f"process `{name}` runs `{cmd[:80]}`, which calls no skill: not a step", "spec.reading")
            out.append("")
            continue
        skill, args = call
        words = []
        for word in args.split():
            key, eq, value = word.partition("=")
            if not eq:
                words.append(word)
                continue
            said = _argument(key, value, number, procs, src, joined)
            if said is not None:
                words.append(said)
        for var in _ENV.findall(args):
            if var not in seen:
                seen.add(var)
                variables.append((number, var, ""))
        procs[name] = (skill, number)
        out.append(f"skill {skill} {' '.join(words)} > {name}.json".replace("  ", " "))
    if procs:
        first = min(n for _, n in procs.values())
        src.warn(first, "read as a Procfile: each process line that runs a skill is a step, the comment lines above it "
                        "its text; a process waits for the processes whose values (`@name.field`) it reads and for "
                        "the steps its comments name, not started all at once as a Procfile runner would",
                 "spec.reading")
    return out, variables, joined, procs


def _join(steps: list[StepSpec], joined: dict[int, list[tuple[str, list[tuple[str, str]]]]],
          procs: dict[str, tuple[str, int]], src: Source) -> list[StepSpec]:
    """Each step with a joined argument waits for the processes it names and reads their values joined in
    order into one list (`steps.a.output.x + steps.b.output.y`, `plan.joined_value40`)."""
    at_line = {int(s.where.rsplit(":", 1)[1]): s for s in steps if s.where.rsplit(":", 1)[-1].isdigit()}
    out = []
    for step in steps:
        line = int(step.where.rsplit(":", 1)[1]) if step.where.rsplit(":", 1)[-1].isdigit() else 0
        for key, refs in joined.get(line, []):
            names = [n for n, _ in refs]
            found = [(at_line[procs[n][1]].id, f) for n, f in refs if n in procs and procs[n][1] in at_line]
            ids = list(dict.fromkeys(sid for sid, _ in found))
            inputs = step.inputs
            if len(found) < len(refs):
                src.warn(line, f"{step.id} ({step.name}): `{key}` joins the values of {', '.join(names)}, of which "
                               f"some is no earlier process that runs a skill: `{key}` is left unbound", "spec.reading")
            elif key not in {f.name for f in step.inputs}:
                source = " + ".join(f"steps.{sid}.output.{f}" for sid, f in found)
                inputs = (*inputs, FieldSpec(name=key, where=src.where(line), source=source))
            deps = tuple(dict.fromkeys((*step.depends_on, *ids)))
            note = f"waits for {', '.join(ids)}, whose values `{key}` joins in order into one list"
            step = step.model_copy(update={"depends_on": deps, "inputs": inputs, "readings": (
                *step.readings, Reading(what="depends_on", where=src.where(line), text=key, note=note))})
        out.append(step)
    return out


def read_procfile(src: Source) -> SpecParts | None:
    """The parts of a Procfile (module docstring), read as the crontab reader reads its jobs."""
    from orchestrator.spec.crontab import read_jobs

    lines, variables, joined, procs = procfile_lines(src)
    if not procs:  # a Procfile of web and worker processes: refused, with why (no workflow made of it)
        names = ", ".join(m.group("name") for raw in src.lines if (m := _PROCESS.match(raw.rstrip())))
        src.error(1, f"read as a Procfile, but none of its processes ({names[:120] or 'none'}) runs a skill "
                     "(`name: sw run <skill> key=value`), so it has no steps", "spec.reading")
    parts = read_jobs(src, lines, {}, variables, as_written=True)
    if parts is None or not joined:
        return parts
    return parts.model_copy(update={"steps": tuple(_join(list(parts.steps), joined, procs, src))})


# the comments above a process say its time limit as a cap on it: "rip-standard: cap at 10 min, it's never
# longer", "Cap it at 5 min - it never takes more": the clause opens with the cap and a word of duration is near
# ("longer", "takes", "hangs"); "back off, cap at 60 s" stays the cap of the waits (`spec.grammar`)
EARLY: tuple[Row, ...] = (
    Row("timeout", r"(?:^|(?<=[:;.!?(]))\s*cap(?:\s+(?:it|this|that|the\s+(?:step|run|job|process|call|attempt)))?\s+"
        r"at\s+{D}(?!\s*(?:between|apart|per\s+wait|wait|delay|back-?off|pause|ceiling))",
        needs=r"\b(?:longer|takes?|took|lasts?|hangs?|hung|stuck|runs?\s+(?:for|over|past)|over-?runs?)\b"),
)

# "3 + 4 run side by side once split is done": which steps start together (the order reader's), not a policy
IGNORE: tuple[Row, ...] = (
    Row("ignore", r"(?<![\w-])\d{1,2}\s*(?:\+|&|and)\s*\d{1,2}\s+(?:run|go|start|happen|fire)s?\s+(?:side\s+by\s+side|"
        r"together|in\s+parallel|at\s+the\s+same\s+time|at\s+once)(?:\s+(?:once|after|when|as\s+soon\s+as)\s+[\w-]+"
        r"(?:\s+(?:is|are|has|have))?\s+(?:done|finished|complete|completed|through|over))?"),
)

GATES = {"EARLY": r"|cap", "IGNORE": r"|side|together|parallel|same\s+time|at\s+once"}


_rx.save()

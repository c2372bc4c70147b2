"""A step's bullets under a team's own labels, read by what their values say.

    - **Desk:** `condition-check`                 -> the skill (the value is one skill's name)
    - **Kicks off:** after C / straight away      -> when it starts: after those steps, or at the start
    - **Go time:** when 1 and 2 are both back

A label no reader knows ("Desk", "Station", "Who runs it") whose whole value is one skill's name (in
backticks or bold or bare; a catalog skill when the catalog is known) names the step's skill, unless the label
speaks of a fallback, an undo or an escalation ("Backup", "Rollback", "Plan B"), or the step has a
skill already. A label that speaks of starting ("Kicks off", "Starts", "Go time", "Timing") says when
the step starts: the steps its value names to wait for (read as `Depends on:`), or none when it says
"straight away", "immediately", "right away" (parts that say what it does not wait for, "(doesn't
need A)", are left out; "at the same time as C" alone is not read, as C may wait for others). Each is a reading shown in the plan at its line; a start value
that says neither is left to the policy reader, which reports it.
"""

from __future__ import annotations

from typing import Protocol

from orchestrator.spec import step_prose as prose
from orchestrator.spec.blocks import Bullet
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.steps37 import start_after_label, waits_for_nothing

_rx = Patterns(__name__)

_ONE_SKILL = _rx(r"^[ \t]*+[`*_]{0,2}+([a-z][a-z0-9]*+(?:-[a-z0-9]++)++)[`*_]{0,2}+[ \t]*+\.?$")
_NOT_THE_SKILL = _rx(r"(?i)\b(?:back\s*+up|fall\s*+back|roll\s*+back|undo|revert|instead|else|otherwise|"
                     r"escalat\w*+|plan\s*+b|alternative|spare|compensat\w*+|clean\s*+up|if|on\s++(?:fail\w*+|error))\b")
_START_LABEL = _rx(r"(?i)^\W*+(?:kicks?\s++off|kick-?off|starts?|starting|begins?|go(?:es)?(?:\s++time)?|launch\w*+|"
                   r"trigger\w*+|fires?|timing|when(?:\s++it\s++(?:runs|starts))?|runs\s++when|start\s++when|"
                   r"goes\s++when|order|sequence)\W*+$")
_ROOT_WORDS = _rx(r"(?i)\b(?:straight\s++away|right\s++away|immediately|at\s++once|first\s++thing|at\s++the\s++start|"
                  r"from\s++the\s++start|as\s++soon\s++as\s++(?:the\s++)?(?:run|workflow|it)\s++starts|"
                  r"no\s++need\s++to\s++wait)\b")
# "(doesn't need step 1)", ", not after step 2": what it does not wait for
_NEGATED = _rx(r"(?i)(?:[(,;][ \t]*+)?+\b(?:does(?:n['’]t|\s++not)|do(?:n['’]t|\s++not)|not|never|without|no\s++need\s++to)"
               r"\s++(?:need|wait|depend|after|on)\w*+[^),;]{0,80}+\)?")


class _Builder(Protocol):
    src: Source
    sid: str
    seen: set[str]
    prose_depends: tuple[prose.StepList, int, str] | None
    structure_read: int

    def read(self, what: str, line: int, text: str, note: str) -> None: ...

    def labelled(self, key: str, bullet: Bullet, sid: str) -> None: ...


def read_own_field(b: _Builder, block: Bullet) -> bool:
    """Read a bullet with a label no reader knows by its value (module docstring); True when read."""
    label, value = block.label or "", block.value
    one = _ONE_SKILL.match(value)
    if one is not None and "skill" not in b.seen and not _NOT_THE_SKILL.search(label) and (
            not b.src.vocabulary.skills or one.group(1) in b.src.vocabulary.skills):
        b.labelled("skill", Bullet(line=block.line, text=block.text, label="skill", value=f"`{one.group(1)}`"), b.sid)
        b.read("skill", block.line, block.text, f"'{label}:' read as the step's skill (its value is one skill's name)")
        return True
    if not _START_LABEL.match(label) and not start_after_label(label):  # "Kicks off after:" (`spec.steps37`)
        return False
    if waits_for_nothing(value):  # "nothing — same time as A": a root (`spec.steps37`)
        b.prose_depends = (prose.StepList(root=True), block.line, value)
        b.structure_read += 1
        b.read("depends_on", block.line, block.text,
               f"'{label}:' read as when the step starts: '{value.strip()[:40]}', at the start of the run (it waits for no step)")
        return True
    waits = _NEGATED.sub(" ", value)
    found = prose.dependency_phrase(waits)
    if found is not None and found.ids:
        b.prose_depends = (found, block.line, value)
        b.structure_read += 1
        b.read("depends_on", block.line, block.text,
               f"'{label}:' read as when the step starts: after {', '.join(found.ids)}")
        return True
    if _ROOT_WORDS.search(waits):  # "straight away, at the same time as B": it waits for no step
        # ("at the same time as C" alone is not read: C may itself wait for others)
        b.prose_depends = (prose.StepList(root=True), block.line, value)
        b.structure_read += 1
        b.read("depends_on", block.line, block.text,
               f"'{label}:' read as when the step starts: at the start of the run (it waits for no step)")
        return True
    return False

"""Bind each step of a spec to one skill of the catalog.

1. A backticked name (`` `fetch-docs` ``), a YAML `skill:`/`agent:` value, or a
   bare text that is exactly a skill's name binds directly.
2. Otherwise kind words narrow the candidates (MCP-wrapping -> mcp,
   script-execution -> script, LLM/prompt -> llm; none -> every executable
   skill), and the step's words (its `Skill:` text, its name, its output names)
   are scored against each candidate's name and description: a word that
   matches a word of the skill's name scores 3, one that matches its
   description 1; output names count half. Words match when equal or when one
   is a prefix of the other over at least five letters (or all of a short
   word: `doc` ~ `documentation`, `valid` ~ `validator`).
3. A unique best score binds. A tie goes to the `chooser` (an LLM tie-breaker)
   when one is given, else it is an error listing the candidates.

Instruction-only skills are never matched by words, only by name (and then
the static checks refuse them: nothing can execute them).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.kinds import BoundSkill
from orchestrator.kinds import BuiltinKind as SkillKind
from orchestrator.plan.location import error_at
from orchestrator.plan.model import Provenance
from orchestrator.spec.model import StepSpec, WorkflowSpec

# An LLM tie-breaker: given a step and the equally good candidates, the chosen name (or None).
SkillChooser = Callable[[StepSpec, tuple[BoundSkill, ...]], str | None]

SKILL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_BACKTICKED = re.compile(r"`([^`]+)`")
_WORD = re.compile(r"[a-z0-9]+")

NAME_WEIGHT = 3.0
DESCRIPTION_WEIGHT = 1.0
OUTPUT_FACTOR = 0.5

_KIND_WORDS: dict[str, SkillKind] = {
    "mcp": SkillKind.MCP,
    "script": SkillKind.SCRIPT,
    "scripts": SkillKind.SCRIPT,
    "llm": SkillKind.LLM,
    "prompt": SkillKind.LLM,
}
_STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "e", "g", "for", "from", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "the", "this", "that", "to", "via", "with", "using", "uses", "use", "skill", "skills", "step", "steps", "wrapping", "wraps", "wrapped", "execution", "execute", "executing", "executes", "mcp", "script", "scripts", "llm", "prompt", "tool", "output", "outputs", "input", "inputs", "json", "string", "value", "values", "result", "results"]
)


class Binding(BaseModel):
    model_config = ConfigDict(frozen=True)

    step: str
    skill: str
    provenance: Provenance


class _Scored(BaseModel):
    model_config = ConfigDict(frozen=True)

    skill: BoundSkill
    score: float
    matched: tuple[str, ...]


def _norm(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case content words of a text, plural `s` dropped, stop words removed."""
    return [_norm(w) for w in _WORD.findall(text.lower()) if w not in _STOPWORDS and len(w) > 1]


def words_match(first: str, second: str) -> bool:
    if first == second:
        return True
    shorter = min(len(first), len(second))
    if shorter < 3:
        return False
    need = min(5, shorter)
    return first[:need] == second[:need]


def kinds_named(text: str) -> set[SkillKind]:
    """The skill kinds a `Skill:` text asks for (MCP-wrapping, script-execution, LLM)."""
    return {_KIND_WORDS[w] for w in _WORD.findall(text.lower()) if w in _KIND_WORDS}


def _step_words(step: StepSpec) -> dict[str, float]:
    """Each content word of the step with its weight (the highest where it occurs)."""
    weights: dict[str, float] = {}
    text = _BACKTICKED.sub(" ", step.skill or "")
    for w in [*words(text), *words(step.name)]:
        weights[w] = 1.0
    for field in step.outputs:
        for w in words(field.name.replace("_", " ")):
            weights.setdefault(w, OUTPUT_FACTOR)
    for w in words(step.description):
        weights.setdefault(w, OUTPUT_FACTOR)
    return weights


def _shown(step: StepSpec) -> dict[str, str]:
    """Normalised word -> the word as the step wrote it (for review notes)."""
    text = " ".join([_BACKTICKED.sub(" ", step.skill or ""), step.name,
                     *(f.name.replace("_", " ") for f in step.outputs), step.description])
    shown: dict[str, str] = {}
    for raw in _WORD.findall(text.lower()):
        shown.setdefault(_norm(raw), raw)
    return shown


def score_skill(step: StepSpec, skill: BoundSkill) -> tuple[float, tuple[str, ...]]:
    """How well a skill's name and description match the step's words, and the matches."""
    name_words = words(skill.name.replace("-", " "))
    description_words = words(skill.description)
    score = 0.0
    matched: list[str] = []
    shown = _shown(step)
    for word, weight in sorted(_step_words(step).items()):
        if any(words_match(word, n) for n in name_words):
            score += NAME_WEIGHT * weight
            matched.append(f"{shown.get(word, word)} (name)")
        elif any(words_match(word, d) for d in description_words):
            score += DESCRIPTION_WEIGHT * weight
            matched.append(f"{shown.get(word, word)} (description)")
    return score, tuple(matched)


def explicit_name(step: StepSpec, spec_format: str) -> str | None:
    """The skill name a step states outright (backticks, YAML, a bare hyphenated name)."""
    text = (step.skill or "").strip()
    ticked: list[str] = _BACKTICKED.findall(text)
    if ticked:
        return ticked[0].strip()
    if spec_format == "yaml" and text:
        return text
    if SKILL_NAME.match(text) and "-" in text:
        return text
    return None


def near_names(name: str, names: Iterable[str]) -> list[str]:
    return difflib.get_close_matches(name, sorted(names), n=3, cutoff=0.5)


def _unknown(step: StepSpec, spec: WorkflowSpec, name: str, skills: Mapping[str, BoundSkill]) -> Diagnostic:
    near = near_names(name, skills)
    hint = f" (did you mean {', '.join(f'`{n}`' for n in near)}?)" if near else ""
    return error_at(
        step.skill_where or step.where,
        spec.path,
        f"{step.id} ({step.name}): unknown skill `{name}`{hint}",
        "unknown-skill",
    )


def _candidates(step: StepSpec, skills: Mapping[str, BoundSkill]) -> tuple[set[SkillKind], list[BoundSkill]]:
    kinds = kinds_named(step.skill or "")
    pool = [s for s in skills.values() if s.kind != SkillKind.INSTRUCTIONS]
    if kinds:
        pool = [s for s in pool if s.kind in kinds]
    return kinds, sorted(pool, key=lambda s: s.name)


def _match(
    step: StepSpec,
    spec: WorkflowSpec,
    skills: Mapping[str, BoundSkill],
    chooser: SkillChooser | None,
) -> Binding | Diagnostic:
    where = step.skill_where or step.where
    kinds, pool = _candidates(step, skills)
    kind_text = " or ".join(sorted(k.value for k in kinds)) if kinds else "executable"
    scored = sorted(
        (_Scored(skill=s, score=sc, matched=m) for s in pool for sc, m in [score_skill(step, s)]),
        key=lambda x: (-x.score, x.skill.name),
    )
    scored = [s for s in scored if s.score > 0]
    if not scored:
        names = ", ".join(f"`{s.name}`" for s in pool) or "none"
        return error_at(
            where,
            spec.path,
            f"{step.id} ({step.name}): no {kind_text} skill matches "
            f"`{(step.skill or step.name).strip()}` (candidates: {names}); name one in backticks",
            "unknown-skill",
        )
    best = [s for s in scored if s.score == scored[0].score]
    if len(best) == 1:
        top = best[0]
        note = f"matched {kind_text} skills on {', '.join(top.matched)} (score {top.score:g})"
        return Binding(step=step.id, skill=top.skill.name, provenance=Provenance(source="spec", where=where, note=note))
    tied = tuple(s.skill for s in best)
    if chooser is not None:
        chosen = chooser(step, tied)
        if chosen in {s.name for s in tied}:
            note = f"chosen among {', '.join(s.name for s in tied)} (tied at score {best[0].score:g})"
            return Binding(step=step.id, skill=str(chosen), provenance=Provenance(source="llm", where=where, note=note))
    listing = ", ".join(f"`{s.skill.name}`" for s in best)
    return error_at(
        where,
        spec.path,
        f"{step.id} ({step.name}): ambiguous skill: {listing} match equally "
        f"(score {best[0].score:g}); name one in backticks",
        "ambiguous-skill",
    )


def bind_steps(
    spec: WorkflowSpec,
    skills: Mapping[str, BoundSkill],
    chooser: SkillChooser | None = None,
    refused: Mapping[str, Sequence[Diagnostic]] | None = None,
) -> tuple[dict[str, Binding], list[Diagnostic]]:
    """Bind every step; return the bindings made and an error per step that could not be bound.

    `refused` maps the names of skills the catalog found but will not hand out (broken,
    shadowed) to why: a step naming one gets those reasons instead of "unknown skill".
    """
    refused = refused or {}
    bindings: dict[str, Binding] = {}
    errors: list[Diagnostic] = []
    for step in spec.steps:
        name = explicit_name(step, spec.format)
        where = step.skill_where or step.where
        result: Binding | Diagnostic
        if (step.skill or "").strip().upper().startswith("TODO"):
            errors.append(error_at(where, spec.path, f"{step.id} ({step.name}): no skill chosen yet (the Skill "
                                                     "line is a TODO); name one in backticks", "unknown-skill"))
            continue
        if name is not None:
            if name in skills:
                result = Binding(step=step.id, skill=name, provenance=Provenance(source="spec", where=where, note="named"))
            elif name in refused:
                errors += [error_at(where, spec.path, f"{step.id} ({step.name}): skill `{name}` cannot be used: "
                                                      f"{d.render()}", "broken-skill") for d in refused[name]]
                continue
            else:
                result = _unknown(step, spec, name, skills)
        else:
            result = _match(step, spec, skills, chooser)
        if isinstance(result, Binding):
            bindings[step.id] = result
        else:
            errors.append(result)
    return bindings, errors


def candidates_of(step: StepSpec, skills: Mapping[str, BoundSkill]) -> Sequence[str]:
    """Names of the skills a step could bind to by kind (for messages and the LLM chooser)."""
    return [s.name for s in _candidates(step, skills)[1]]



class _TieRecorder:
    """A chooser that decides nothing and remembers the candidates it was shown."""

    def __init__(self) -> None:
        self.candidates: tuple[BoundSkill, ...] = ()

    def __call__(self, step: StepSpec, candidates: tuple[BoundSkill, ...]) -> str | None:
        self.candidates = candidates
        return None


def find_ties(spec: WorkflowSpec, skills: Mapping[str, BoundSkill]) -> dict[str, tuple[BoundSkill, ...]]:
    """Steps whose words match several skills equally, with those skills: what an LLM
    tie-breaker must decide. An async caller can ask the model first and then pass
    `chooser=lambda step, candidates: picks.get(step.id)` to `build_plan`."""
    out: dict[str, tuple[BoundSkill, ...]] = {}
    for step in spec.steps:
        if explicit_name(step, spec.format) is not None:
            continue
        recorder = _TieRecorder()
        _match(step, spec, skills, recorder)
        if recorder.candidates:
            out[step.id] = recorder.candidates
    return out

"""Bind each step of a spec to one skill of the catalog, from what its author wrote.

In this order, the first rule that gives one skill binds, and the binding's
provenance says which rule and which line:

1. The name said outright: a backticked name in the `Skill:` line, a YAML
   `skill:`/`agent:` value, or a bare `Skill:` text that is a skill's name
   (provenance note "named"); else the first backticked name anywhere in the
   step's prose that is a catalog skill ("named in backticks in the step's text"), then
   the first such name in bold (`**fetch-docs**`), then a catalog skill's hyphenated
   name written bare in the text ("the list-deploys skill": "named in plain words";
   only when it is the one such name, outside a sentence about a fallback or an undo).
2. A tool named instead of the skill (`- Skill: get_rate`, "the warehouse MCP
   server's `run_query` tool"): the one MCP skill whose `skillweave.tool` it is
   (`server/tool` and `server.tool` too), else the one skill whose description
   names that tool. A `Skill:` value that is neither a skill nor a tool is an
   error with the near names.
3. The step's words: kind words narrow the candidates (MCP-wrapping -> mcp,
   script-execution -> script, LLM/prompt -> llm; none -> every executable
   skill), and the step's words (its `Skill:` text, its name, its output names,
   its description at half weight) are scored against each candidate's name and
   description: a word that matches a word of the skill's name scores 3, one that
   matches its description 1. Words match when equal or when one is a prefix of
   the other over at least five letters (or all of a short word: `doc` ~
   `documentation`, `valid` ~ `validator`). The best binds only when it clearly
   wins: nothing else scores within `CLEAR_MARGIN` of it. Among skills that score about
   as well, the words only one of them has (stemmed: "translator" ~ "translate") decide
   when that one clearly wins on them (a name word's worth at least, the others under
   `TIE_MARGIN` of it).
4. Otherwise the `chooser` decides once (the LLM, or a lockfile of its earlier
   answers; provenance "llm"), or it is an error listing the candidates.

A step with no `Skill:` line is bound the same way. Instruction-only skills are
never matched by words, only by name (and then the static checks refuse them:
nothing can execute them).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import Diagnostic
from orchestrator.hints import Hint, HintAction
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
# The best word score binds only when the runner-up scores less than this share of it.
CLEAR_MARGIN = 0.75
# Among those, words only one of them has decide when the runner-up has less than this share.
TIE_MARGIN = 0.5
_TOOLISH = re.compile(r"^[A-Za-z][\w.:/-]*$")

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


_MARKED = {"backticks": "backticks", "bold": "bold", "plain": "plain words"}


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
    """The name a step's `Skill:` line (or YAML `skill:`) states outright: a backticked name,
    a YAML value, or a bare hyphenated or snake_case name; None for free text."""
    text = (step.skill or "").strip()
    ticked: list[str] = _BACKTICKED.findall(text)
    if ticked:
        return ticked[0].strip()
    if spec_format == "yaml" and text:
        return text
    bare = text.rstrip(".;,")
    if SKILL_NAME.match(bare) and "-" in bare:
        return bare
    if re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[\w-]+[/.][\w-]+", bare):
        return bare  # a tool's name (`get_rate`, `fx/get_rate`)
    return None


def _by_tool(token: str, skills: Mapping[str, BoundSkill]) -> tuple[list[BoundSkill], str]:
    """The skills a tool name points at, and how: MCP skills wrapping it, else skills whose
    description names it (a stand-in says "for the Jira server's jira_create_issue tool")."""
    t = token.strip().strip("`").strip()
    if not t or not _TOOLISH.match(t):
        return [], ""
    forms = {t}
    for sep in ("/", ".", "__"):
        if sep in t:
            forms.add(t.rsplit(sep, 1)[-1])
    wrapping = [s for s in skills.values() if s.kind == SkillKind.MCP and s.tool
                and (s.tool in forms or f"{s.server}/{s.tool}" == t or f"{s.server}.{s.tool}" == t
                     or f"mcp__{s.server}__{s.tool}" == t)]
    if wrapping:
        return sorted(wrapping, key=lambda s: s.name), "wraps"
    if "_" not in t and "/" not in t and "." not in t:
        return [], ""
    word = re.compile(rf"(?<![\w-]){re.escape(t)}(?![\w-])")
    naming = [s for s in skills.values() if s.kind != SkillKind.INSTRUCTIONS and word.search(s.description)]
    return sorted(naming, key=lambda s: s.name), "describes"


def _tool_binding(step: StepSpec, token: str, where: str, skills: Mapping[str, BoundSkill],
                  chooser: SkillChooser | None, spec: WorkflowSpec) -> Binding | Diagnostic | None:
    found, how = _by_tool(token, skills)
    if not found:
        return None
    if len(found) == 1:
        only = found[0]
        note = (f"the tool `{token}` is wrapped by skill {only.name} ({only.server}/{only.tool})" if how == "wraps"
                else f"the tool `{token}` is named in the description of skill {only.name}")
        return Binding(step=step.id, skill=only.name, provenance=Provenance(source="spec", where=where, note=note))
    tied = tuple(found)
    if chooser is not None:
        chosen = chooser(step, tied)
        if chosen in {s.name for s in tied}:
            return Binding(step=step.id, skill=str(chosen), provenance=Provenance(
                source="llm", where=where, note=f"chosen among {', '.join(s.name for s in tied)}, "
                                                f"which all {'wrap' if how == 'wraps' else 'name'} the tool `{token}`"))
    listing = ", ".join(f"`{s.name}`" for s in tied)
    return error_at(where, spec.path, f"{step.id} ({step.name}): the tool `{token}` is "
                                      f"{'wrapped' if how == 'wraps' else 'named'} by several skills: {listing}; "
                                      "name one in backticks", "ambiguous-skill")


def near_names(name: str, names: Iterable[str]) -> list[str]:
    return difflib.get_close_matches(name, sorted(names), n=3, cutoff=0.5)


def _unknown(step: StepSpec, spec: WorkflowSpec, name: str, skills: Mapping[str, BoundSkill]) -> Diagnostic:
    tools = {s.tool: s.name for s in skills.values() if s.kind == SkillKind.MCP and s.tool}
    near = near_names(name, skills)
    hints = [f"`{n}`" for n in near]
    if re.search(r"[_./]", name):  # it looks like a tool's name: the tools near it too
        hints += [f"the tool `{t}` (skill `{tools[t]}`)" for t in near_names(name, tools)]
    hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
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
    wanted = (step.skill or step.name).strip()
    if not scored:
        names = ", ".join(f"`{s.name}`" for s in pool) or "none"
        return error_at(
            where,
            spec.path,
            f"{step.id} ({step.name}): no {kind_text} skill matches "
            f"`{wanted}` (candidates: {names}); name one in backticks",
            "unknown-skill",
        )
    top = scored[0]
    close = [s for s in scored if s.score >= top.score * CLEAR_MARGIN]
    if len(close) == 1:
        note = f"matched {kind_text} skills on {', '.join(top.matched)} (score {top.score:g})"
        return Binding(step=step.id, skill=top.skill.name, provenance=Provenance(source="spec", where=where, note=note))
    exact = _written_whole(step, close)
    if exact is not None:  # "3. sort-rows" among sort-rows, sort-rows-fast: the name written out wins the tie
        others = ", ".join(s.skill.name for s in close if s is not exact)
        note = (f"matched {kind_text} skills on {', '.join(exact.matched)} (score {exact.score:g}); preferred to "
                f"{others}: its whole name is written in the step's text")
        return Binding(step=step.id, skill=exact.skill.name, provenance=Provenance(source="spec", where=where,
                                                                                  note=note))
    broken = _break_tie(step, close)
    if broken is not None:
        winner, only = broken
        others = ", ".join(s.skill.name for s in close if s is not winner)
        note = (f"matched {kind_text} skills on {', '.join(winner.matched)} (score {winner.score:g}); "
                f"preferred to {others} on words only it has: {', '.join(only)}")
        return Binding(step=step.id, skill=winner.skill.name, provenance=Provenance(source="spec", where=where,
                                                                                   note=note))
    tied = tuple(s.skill for s in close)
    if chooser is not None:
        chosen = chooser(step, tied)
        if chosen in {s.name for s in tied}:
            scores = ", ".join(f"{s.skill.name} {s.score:g}" for s in close)
            how = f"tied at score {top.score:g}" if all(s.score == top.score for s in close) else f"scores {scores}"
            note = f"chosen among {', '.join(s.name for s in tied)} ({how})"
            return Binding(step=step.id, skill=str(chosen), provenance=Provenance(source="llm", where=where, note=note))
    if all(s.score == top.score for s in close):
        listing = ", ".join(f"`{s.skill.name}`" for s in close)
        message = (f"{step.id} ({step.name}): ambiguous skill: {listing} match equally "
                   f"(score {top.score:g}); name one in backticks")
    else:
        listing = ", ".join(f"`{s.skill.name}` ({s.score:g})" for s in close)
        message = (f"{step.id} ({step.name}): no skill clearly matches `{_clip(wanted)}`: {listing} score "
                   "about as well; name one in backticks")
        found = error_at(where, spec.path, message, "ambiguous-skill")
        return found.model_copy(update={"hint": Hint(action=HintAction.LET_MODEL_CHOOSE)})
    return error_at(where, spec.path, message, "ambiguous-skill")


_SUFFIXES = ("ations", "ation", "ions", "ion", "ors", "or", "ers", "er", "ings", "ing", "ed", "es", "s", "e")


def stem(word: str) -> str:
    """A word without its common English ending (`translator`, `translations` and `translate`
    alike), keeping at least four letters."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _written_whole(step: StepSpec, close: Sequence[_Scored]) -> _Scored | None:
    """Among skills that score about as well, the one whose whole name the step's text writes out (not as
    part of a longer name: `sort-rows` is not in "sort-rows-fast"); None unless exactly one is."""
    text = " ".join([step.skill or "", step.name, step.description, *(t.text for t in step.texts)]).lower()
    written = [c for c in close if _whole_name(c.skill.name.lower(), text)]
    return written[0] if len(written) == 1 else None


def _whole_name(name: str, text: str) -> bool:
    at = text.find(name)
    while at >= 0:
        before, after = text[at - 1:at], text[at + len(name):at + len(name) + 1]
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        at = text.find(name, at + 1)
    return False


def _break_tie(step: StepSpec, close: Sequence[_Scored]) -> tuple[_Scored, tuple[str, ...]] | None:
    """Among skills that score about as well, the one the step's words favour on words that
    only it has (stemmed, exact: the shared words are what made the tie); None unless it
    clearly wins: at least a name word's worth (`NAME_WEIGHT`), the runner-up under
    `TIE_MARGIN` of it."""
    weights = {stem(w): wt for w, wt in sorted(_step_words(step).items(), key=lambda kv: kv[1])}
    own: list[tuple[set[str], set[str]]] = [
        ({stem(w) for w in words(c.skill.name.replace("-", " "))}, {stem(w) for w in words(c.skill.description)})
        for c in close]
    scores: list[tuple[float, tuple[str, ...]]] = []
    for i, (name, description) in enumerate(own):
        others = set().union(*(n | d for j, (n, d) in enumerate(own) if j != i))
        score, said = 0.0, list[str]()
        for word, weight in weights.items():
            if word in others:
                continue
            if word in name:
                score, said = score + NAME_WEIGHT * weight, [*said, word]
            elif word in description:
                score, said = score + DESCRIPTION_WEIGHT * weight, [*said, word]
        scores.append((score, tuple(said)))
    order = sorted(range(len(close)), key=lambda i: -scores[i][0])
    best, second = scores[order[0]][0], scores[order[1]][0]
    if best >= NAME_WEIGHT and second < best * TIE_MARGIN:
        return close[order[0]], scores[order[0]][1]
    return None


def _clip(text: str, width: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def _named(
    step: StepSpec,
    spec: WorkflowSpec,
    skills: Mapping[str, BoundSkill],
    chooser: SkillChooser | None,
    refused: Mapping[str, Sequence[Diagnostic]],
) -> Binding | Diagnostic | list[Diagnostic] | None:
    """Rules 1 and 2 (module docstring); None when the author named nothing of the catalog."""
    name = explicit_name(step, spec.format)
    where = step.skill_where or step.where
    if name is not None:
        if name in skills:
            return Binding(step=step.id, skill=name, provenance=Provenance(source="spec", where=where, note="named"))
        if name in refused:
            return [error_at(where, spec.path, f"{step.id} ({step.name}): skill `{name}` cannot be used: "
                                               f"{d.render()}", "broken-skill") for d in refused[name]]
        cased = [s for s in skills if s.casefold() == name.casefold()]
        if len(cased) == 1:  # `DORMANT-SCAN` for `dormant-scan`: that skill, in other letter case (round 50)
            return Binding(step=step.id, skill=cased[0], provenance=Provenance(
                source="spec", where=where, note=f"named `{name}`: the skill `{cased[0]}` in other letter case"))
        return _tool_binding(step, name, where, skills, chooser, spec) or _unknown(step, spec, name, skills)
    plain = {m.text for m in step.mentions if m.marked == "plain" and m.text in skills}
    for mention in step.mentions:
        if mention.marked == "plain" and len(plain) > 1:
            continue  # several catalog names written bare: the words decide
        if mention.text in skills:
            others = [m.text for m in step.mentions if m.text in skills and m.text != mention.text]
            also = f" (also named: {', '.join(dict.fromkeys(others))})" if others else ""
            return Binding(step=step.id, skill=mention.text, provenance=Provenance(
                source="spec", where=mention.where,
                note=f"named in {_MARKED[mention.marked]} in the step's text{also}"))
        if mention.text in refused:
            return [error_at(mention.where, spec.path, f"{step.id} ({step.name}): skill `{mention.text}` cannot "
                                                       f"be used: {d.render()}", "broken-skill")
                    for d in refused[mention.text]]
    for mention in step.mentions:
        if mention.marked == "plain":
            continue  # a bare word is a skill's name only when the catalog has it (above)
        found = _tool_binding(step, mention.text, mention.where, skills, chooser, spec)
        if found is not None:
            return found
    return None


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
        where = step.skill_where or step.where
        if (step.skill or "").strip().upper().startswith("TODO"):
            errors.append(error_at(where, spec.path, f"{step.id} ({step.name}): no skill chosen yet (the Skill "
                                                     "line is a TODO); name one in backticks", "unknown-skill"))
            continue
        result = _named(step, spec, skills, chooser, refused)
        if result is None:
            result = _match(step, spec, skills, chooser)
        if isinstance(result, Binding):
            bindings[step.id] = result
        elif isinstance(result, list):
            errors += result
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
    """Steps whose binding the model must decide (words that match several skills about
    equally, or a tool several skills wrap), with those skills. An async caller can ask the
    model first and then pass `chooser=lambda step, candidates: picks.get(step.id)` to
    `build_plan`."""
    out: dict[str, tuple[BoundSkill, ...]] = {}
    for step in spec.steps:
        recorder = _TieRecorder()
        if _named(step, spec, skills, recorder, {}) is None:
            _match(step, spec, skills, recorder)
        if recorder.candidates:
            out[step.id] = recorder.candidates
    return out

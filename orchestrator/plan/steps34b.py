"""A placeholder in angle brackets as an input's value: the workflow input or the gathered results it names.

    takes:                                       an author's own YAML (or a `- input: value` line)
      requests: "<operator: requests>"             the workflow input `requests`
      term: <input: term>                          the workflow input `term`
      changes: <everything lookup produced>        every result of the For each step `lookup`, gathered
      rows: <all of the fetch results>             every result of `fetch`, gathered

A value written wholly inside angle brackets is a blank to fill, not text to pass: form templates,
runbooks and home-made schemas write `<operator: x>` or `<ask: x>` for what the person starting the
run gives, and `<everything x produced>` for what an earlier step gave. Before, the skill got the
bracketed text as a literal. Read so only when the plan has the value:

- `<WHO: name>` (WHO one of operator, input, user, caller, runner, ask, asked, prompt, given, param,
  parameter, "workflow input") is the workflow input `name` when the run declares it;
- `<... every/all/everything ... STEP ...>` naming exactly one step by its id is that step's results
  gathered in item order, when it is a `For each` step (each item's field of the input's singular when
  the items output it, as `plan.gather_words` does).

Anything else in brackets ("<today's date>", "<your name>") stays the literal and its warnings. Each
reading is warned at the input's line with how to write it plainly.
"""

from __future__ import annotations

from orchestrator.plan.fan_gather import gathered_pointer
from orchestrator.plan.model import InputBinding
from orchestrator.plan.scope import Scope
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.steps34b import gathers_in_brackets

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASKED = _rx(r"(?i)^<[ \t]*+(?:operator|input|user|caller|runner|ask|asked|prompt|given|param|parameter|"
             r"workflow[ \t]++input)[ \t]*+[:=][ \t]*+(?P<name>[A-Za-z_][\w-]{0,60}+)[ \t]*+>$")
_BRACKETED = _rx(r"^<(?P<words>[^<>\n]{3,100}+)>$")
_WORD = _rx(r"[\w-]++")


def placeholder_binding(name: str, value: str, scope: Scope) -> tuple[InputBinding, str, str] | None:
    """The binding a bracketed placeholder `value` of input `name` stands for, its provenance note and
    the warning's text (module docstring); None when it is no placeholder the plan can fill."""
    text = value.strip()
    if not text.startswith("<"):
        return None
    asked = _ASKED.match(text)
    if asked is not None:
        wanted = asked.group("name")
        found = next((i for i in scope.inputs if i == wanted or i == wanted.replace("-", "_")), None)
        if found is None:
            return None
        return (InputBinding(source="input", name=found),
                f"workflow input: {found} (the placeholder '{text[:60]}')",
                f"`{name}` is given the placeholder '{text[:80]}': read as the workflow input `{found}`, not as "
                f"that text. To say so plainly write `{name}: {{{{ inputs.{found} }}}}`")
    bracketed = _BRACKETED.match(text)
    if bracketed is None or not gathers_in_brackets(text):
        return None
    words = {w.lower() for w in _WORD.findall(bracketed.group("words"))}
    named = [sid for sid in scope.produced if sid.lower() in words and sid != scope.step]
    if len(named) != 1 or not scope.produced[named[0]].gathered:
        return None
    sid = named[0]
    pointer = gathered_pointer(name, scope.produced[sid].fields)
    what = f"`{pointer[1:]}` of " if pointer else ""
    return (InputBinding(source="step", step=sid, pointer=pointer, gather=True),
            f"gathered: {what}every item output of {sid}, in item order (the placeholder '{text[:60]}')",
            f"`{name}` is given the placeholder '{text[:80]}': read as {what}every result of {sid} (a For each "
            f"step), gathered in item order, not as that text. To say so plainly write `{name}: {sid}[*]`")


_rx.save()

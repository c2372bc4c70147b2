"""A quoted text the step's prose says right after a skill input's name, read as that input's value.

    ... dns-names (given lab_slug, the host count, and the zone "labs.northfield.example") ...
        -> zone: "labs.northfield.example"
    `notice-batch` sends one notice per person ..., with the branch as "Maple Street".
        -> branch: "Maple Street"
    Post it to the channel “#ops-night” with `post-status`.           -> channel: "#ops-night"
    text-customer - their mobile, the price ... sign it off "Gaz Locks 24/7"   -> sign_off: "Gaz Locks 24/7"

A step's skill may read a name (`zone`, `branch`) that nothing gives: no workflow input, no earlier
output, no value written as the name. When the step's own text (or a parenthesis the document writes
right after the step's skill's name, "dns-names (given ...)", in another step's paragraph) says the name's words (or the name in
backticks; a name of two words also as a verb with its object between them: "sign it off" for `sign_off`), then at most "as", "of", "called", "named", "set to", "=" or ":", then one text in double
quotes (straight or curly), in one clause (no comma, sentence end or parenthesis between), that text
is the step's literal, warned at the step's line with the plain
way to write it (`zone: "labs.northfield.example"`). Not read: a quote in a clause that opens with
"if", "when", "unless", "until", "whether" or "once" (a condition: "if the branch is "Main""), a name
followed by "is" (`said_value` reads "the home port is ..." for names of two words), an input whose
schema takes a number, a boolean, a list or an object, a quoted reference (`day="$DAY"`, "{{ x }}",
"%DATE%", "<each appointment>"), and a name said with two different quoted texts
(a guess between them: warned, nothing bound). The text is scanned once per quote, linear in its length.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.said_value import bind_literal
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_QUOTED = _rx(r"\"(?P<a>[^\"\n]{1,80}+)\"|“(?P<b>[^”\n]{1,80}+)”")
_WORD = _rx(r"[a-z0-9]++|[=:]")
_CLAUSE_END = _rx(r"[.;!?(,]\s|[.;!?(,]$|—|\s-{1,2}\s")
_PAREN = _rx(r"\((?P<inner>[^()]{1,300}+)\)")
_REFERENCE = _rx(r"\$|\{\{|%[A-Za-z_]{1,40}+%|<[^<>\n]{1,40}+>")
_LINKS = frozenset({"as", "of", "called", "named", "set", "to", "=", ":"})
_OBJECT = frozenset({"it", "them", "this", "that", "each", "every"})  # "sign it off", "round them up"
_CONDITION = frozenset({"if", "when", "unless", "until", "whether", "once", "whenever"})
_NOT_TEXT = frozenset({"number", "integer", "boolean", "array", "object"})


def _before(text: str, at: int) -> list[str]:
    """The words of the clause that ends at `at` (from its last sentence, comma or parenthesis break)."""
    head = text[max(0, at - 160):at]
    breaks = list(_CLAUSE_END.finditer(head))
    if breaks:
        head = head[breaks[-1].end():]
    return _WORD.findall(head.lower().replace("`", " ").replace("_", " ").replace("-", " "))


def _names_it(words: list[str], name: str) -> bool:
    """Whether the clause's words end with the name's words, after at most two linking words."""
    mine = name.lower().replace("-", "_").split("_")
    tail = list(words)
    links = 0
    while tail and tail[-1] in _LINKS and links < 2:
        tail.pop()
        links += 1
    if links == 1 and words[-1] == "to":  # "to" alone ("send it to "ops"") is a place, not a name's value
        return False
    if len(mine) == 2 and len(tail) >= 3 and tail[-3] == mine[0] and tail[-2] in _OBJECT and tail[-1] == mine[1]:
        return not _CONDITION & set(tail)  # `sign_off` said as a verb and its particle: "sign it off "Gaz Locks""
    return len(tail) >= len(mine) and tail[-len(mine):] == mine and not _CONDITION & set(tail)


def called_with(skill: str, document: str) -> list[str]:
    """The parentheses the document writes right after the skill's name, anywhere: "ip-allocate (given the
    host count) and dns-names (given lab_slug and the zone "labs.example")" says dns-names' call in its own
    parenthesis, though the paragraph is another step's."""
    out = []
    for m in _PAREN.finditer(document):
        head = document[max(0, m.start() - len(skill) - 4):m.start()].rstrip().rstrip("`*_").lower()
        if head.endswith(skill.lower()) and not (head[:-len(skill)][-1:].isalnum() or head[:-len(skill)][-1:] in "-_"):
            out.append(m.group("inner"))
    return out


def quoted_said(name: str, text: str) -> tuple[str, str] | bool | None:
    """(value, the words it was read from) for `name` in `text`; None when nothing is said; False when two
    different texts are said for it."""
    found: dict[str, str] = {}
    for m in _QUOTED.finditer(text):
        words = _before(text, m.start())
        if words and _names_it(words, name):
            value = m.group("a") or m.group("b") or ""
            if value.strip() and not _REFERENCE.search(value):  # `day="$DAY"`: the shell's variable, no literal
                found.setdefault(value, " ".join([*words[-4:], m.group(0)]))
    if len(found) > 1:
        return False
    if not found:
        return None
    value, said = next(iter(found.items()))
    return value, said


def bind_quoted_said(step: StepSpec, names: Iterable[str], text: str, document: str, skill: str, types: dict[str, str],
                     bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                     path: str) -> list[Diagnostic]:
    """Bind each of `names` (inputs nothing gives) to the quoted text the step's prose says for it, or a
    parenthesis right after its `skill`'s name in the `document` does, warned; `types` is each name's JSON
    type where its schema says one."""
    out: list[Diagnostic] = []
    for name in names:
        if name in bindings or types.get(name) in _NOT_TEXT:
            continue
        said, away = quoted_said(name, text), ""
        if said is None and skill:  # "dns-names (given ..., the zone "x")" in another step's paragraph
            said, away = quoted_said(name, "\n".join(called_with(skill, document))), f" (after `{skill}`'s name)"
        if said is None:
            continue
        if said is False:
            out.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which "
                                  "nothing gives; the text says two different quoted values beside its name: none "
                                  f"is taken; write `{name}: \"...\"` in the step", "plan.input-said-value"))
            continue
        assert isinstance(said, tuple)
        value, words = said
        out.append(bind_literal(step, path, name, value, f"the text says '{words}'{away}",
                                f"'{words}'{away} is read as its value {value!r} for this step", bindings, provenance))
    return out


_rx.save()

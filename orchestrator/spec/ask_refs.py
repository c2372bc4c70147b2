"""A block of asked-for inputs in an author's own YAML schema whose entries each describe their
input, and the `HEAD.NAME` references to it in the steps' values.

    asks_for:                                  # filled in by whoever kicks it off
      site: {what: "site name in SCADA", eg: "Brae Moor"}   → the workflow input `site`
      sweep_date: {what: "YYYY-MM-DD"}                      → the workflow input `sweep_date`
    tasks:
      pull:
        feed: {site: ask.site}                 → `{{ inputs.site }}`
        feed: {site: input.site}               → the same (a word for an input, when a block asks)
        feed: {site: ask.plant}                → left as text and warned: no input `plant` is asked for

`described_inputs`: the entries of a mapping under a key that says it is asked for (`own_schema`
decides that), each a name whose value is nothing (`site:`), a plain text (its description) or a
mapping of plain values that describes it (`what`, `eg`, `help`, `format`, `default` ...): never
a mapping holding a list or another mapping (that is a step or a block of the author's). `heads`:
the words a reference to the block starts with: the key itself (`asks_for`), each of its words that
says it is asked in every form (`ask`, `asks`, `asked`), and the words for an input (`input`,
`inputs`, `in`, `given`, `user`). `unread_head`: a value `HEAD.NAME` whose head is one of these but
whose name is no input asked for, which the caller warns rather than keep silently as text.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NAME = _rx(r"^[A-Za-z_][\w-]{0,63}+$")
# the keys that describe one asked-for input
_DESCRIBING = _rx(r"^(?:what|what_it_is|description|desc|describe|about|help|hint|note|notes|meaning|means|"
                  r"eg|e_g|e\.g\.?|example|examples|for_example|sample|like|format|type|kind|unit|units|"
                  r"default|defaults_to|otherwise|required|optional|must|choices|one_of|options|prompt|question|"
                  r"ask|label|title)$")
_DESCRIPTION_KEYS = ("what", "what_it_is", "description", "desc", "describe", "about", "help", "hint", "meaning",
                     "means", "prompt", "question", "label", "title", "note", "notes")
_EXAMPLE_KEYS = ("eg", "e_g", "e.g", "e.g.", "example", "for_example", "sample", "like")
# a word of the key that says the value is asked of the person who runs it, and its other forms
_ASK_FORMS: dict[str, tuple[str, ...]] = {
    "ask": ("ask", "asks", "asked"), "asks": ("ask", "asks", "asked"), "asked": ("ask", "asks", "asked"),
    "prompt": ("prompt", "prompts", "prompted"), "prompts": ("prompt", "prompts", "prompted"),
    "provide": ("provide", "provided", "provides"), "provided": ("provide", "provided", "provides"),
    "supply": ("supply", "supplied", "supplies"), "supplied": ("supply", "supplied", "supplies"),
    "need": ("need", "needs", "needed"), "needs": ("need", "needs", "needed"), "needed": ("need", "needs", "needed"),
    "bring": ("bring", "brings"), "fill": ("fill", "filled"),
}
# the words a reference to any asked-for input may start with, whatever the block is called
_INPUT_HEADS = frozenset({"input", "inputs", "in", "given", "user", "answer", "answers", "form"})


def _key(node: Node) -> str:
    return str(node.value).strip().lower().replace("-", "_").replace(" ", "_")


def described_inputs(node: Node) -> list[tuple[ScalarNode, str]] | None:
    """Each (name's key node, its description) of a block of asked-for inputs (module docstring), or None
    when `node` is not one."""
    if not isinstance(node, MappingNode) or not node.value:
        return None
    out: list[tuple[ScalarNode, str]] = []
    for k, v in node.value:
        if not isinstance(k, ScalarNode) or not _NAME.match(str(k.value)):
            return None
        if isinstance(v, ScalarNode):
            out.append((k, str(v.value or "").strip()))
            continue
        if not isinstance(v, MappingNode) or not v.value or not all(
                isinstance(dk, ScalarNode) and isinstance(dv, ScalarNode) and _DESCRIBING.match(_key(dk))
                for dk, dv in v.value):
            return None
        said = {_key(dk): str(dv.value or "").strip() for dk, dv in v.value}
        what = next((said[d] for d in _DESCRIPTION_KEYS if said.get(d)), "")
        example = next((said[d] for d in _EXAMPLE_KEYS if said.get(d)), "")
        out.append((k, f"{what} (e.g. {example})" if what and example else what or (f"e.g. {example}" if example else "")))
    return out


def heads(raw: str) -> set[str]:
    """The heads of `HEAD.NAME` that name an input of the block kept under key `raw` (module docstring)."""
    words = raw.strip().lower().replace("-", "_").split("_")
    found = {raw, raw.strip().lower()} | set(_INPUT_HEADS)
    for w in words:
        found |= set(_ASK_FORMS.get(w, ()))
    return found


def unread_head(text: str, prefixes: set[str], declared: set[str]) -> str | None:
    """The warning for `text` when it is `HEAD.NAME` with a head of the asked-for block but a name that is
    no asked-for input (module docstring); None when it is not such a value."""
    head, dot, tail = text.strip().partition(".")
    if not dot or head not in prefixes or not _NAME.match(tail) or tail in declared:
        return None
    have = ", ".join(f"`{n}`" for n in sorted(declared)) or "none"
    return (f"'{text.strip()}' reads like the asked-for input `{tail}`, but no input of that name is asked for "
            f"(asked for: {have}); kept as the text")


_rx.save()

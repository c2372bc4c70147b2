"""Policies written in comments beside the keys of a config-like file (YAML, TOML).

    # whole pipeline gets 45 min wall clock               → the whole run's limit (a comment at the file's head)
    list:
      skill: list-snapshots
      # flaky around midnight -> 3 more goes, 20s / 40s / 80s   → the policy of `retry:` below it
      retry: 3
      timeout: 8m    # past 8 minutes it has failed        → the policy of `timeout:` beside it
      # retry: 5                                           → a key switched off: not read, noted
    # green only when report says status: posted           → the whole run's (a comment standing alone at the top level)

A comment belongs to the key it sits beside (after the value on the key's line) or directly
above (a block of comment lines with no blank line between it and the key, indented at least as
far as the key). A comment on a step's policy key (`retry`, `timeout`, `on_error`, ...) is read as
that step's own words, with the key: a value both say agrees, or the key's wins with a warning
naming both lines (`plan.recovery`); a count alone in the key takes the comment's waits. A comment
at the file's head (before its first key), or one standing alone at the top level (not directly
above a key), speaks for the whole run: its limit and success check (`spec.run_limit`). A comment
that is itself a key and a value (`# retry: 5`, `# retries = 5`) is a switched-off key, not a
policy. Other comments stay asides, as before.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.own_schema import comment_on
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a step key whose value is a recovery policy: its comments are the step's words for it
POLICY_KEYS = frozenset({"retry", "retries", "attempts", "timeout", "retry_for", "backoff", "max_delay", "retry_delay",
                         "on_error", "if_still_failing", "fallback", "restart", "delay"})
_RETRY_KEYS = frozenset({"retry", "retries", "attempts", "retry_for", "backoff", "max_delay", "retry_delay"})
# `# retry: 5`, `# retries = 5`, `#timeout: 30s`: a key and a value, commented out
_KEYED = _rx(r"^([a-z_][a-z0-9_-]{0,63}+)[ \t]*+[:=](?:[ \t]++(\S.*+))?+$")
# the keys a comment may switch off: a step's policy and structure (never a label such as `note:`)
_SWITCHABLE = POLICY_KEYS | {"skill", "input", "when", "for_each", "depends_on", "approval", "otherwise"}
_VALUE_WORDS = 6  # a switched-off key's value is short: more words are a sentence
_END = _rx(r"[.!?:;]$")
_WRAPPED = 50  # a comment line this long that ends mid-sentence was wrapped: the next line goes on with it


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _own_comment(line: str) -> str | None:
    """The text of a line that is only a comment (`# ...`), else None."""
    bare = line.strip()
    return bare[1:].strip() if bare.startswith("#") else None


def switched_off(text: str) -> bool:
    """Whether a comment is a key of a step with a value, commented out (`# retry: 5`)."""
    m = _KEYED.match(text.strip())
    return m is not None and yk.step_key(m.group(1)) in _SWITCHABLE and len((m.group(2) or "").split()) <= _VALUE_WORDS


def _above(src: Source, line: int) -> list[tuple[int, str]]:
    """The comment lines directly above `line` (no blank line between), nearest last; [] when the
    nearest is a switched-off key (what is above it is that key's)."""
    column = _indent(src.line_text(line))
    found: list[tuple[int, str]] = []
    at = line - 1
    while at >= 1 and (said := _own_comment(src.line_text(at))) is not None and _indent(src.line_text(at)) >= column:
        if switched_off(said):
            break
        found.insert(0, (at, said))
        at -= 1
    return found


_OPENS = _rx(r"(?:IF|WHEN|WHENEVER|UNLESS|ONCE|NEVER|ALWAYS|DO|DONT|DON'T|PLEASE|NOTE|NB)\b|[*\-#=]")


def _capitals_go_on(last: str, text: str) -> bool:
    """In comments written all in capitals (a JCL deck's, `spec.jcl50`), a line goes on from the one above unless
    it opens a rule of its own (IF, WHEN, NEVER, DO ..., a bullet)."""
    return last.upper() == last and text.upper() == text and any(c.isalpha() for c in text) \
        and not _OPENS.match(text.lstrip())


def _joined(said: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Comment lines as sentences: a line that goes on from the one above (a long line that does not
    end a sentence, and the next starts in lower case) is joined to it."""
    out: list[tuple[int, str]] = []
    for line, text in said:
        if not text:
            continue
        last = out[-1][1].rsplit("\n", 1)[-1] if out else ""
        if out and out[-1][0] + 1 + out[-1][1].count("\n") == line and not _END.search(last) \
                and len(last) >= _WRAPPED and (text[:1].islower() or _capitals_go_on(last, text)):
            out[-1] = (out[-1][0], f"{out[-1][1]}\n{text}")
        else:
            out.append((line, text))
    return [(line, " ".join(text.split("\n"))) for line, text in out]


def key_comments(src: Source, node: Node) -> list[tuple[str, int, str]]:
    """(key as written, line, comment) for each comment on a policy key of the step `node` (module
    docstring): the block directly above the key first, then the one beside it."""
    if not isinstance(node, MappingNode):
        return []
    out: list[tuple[str, int, str]] = []
    for knode, vnode in node.value:
        if not isinstance(knode, ScalarNode) or yk.step_key(str(knode.value)) not in POLICY_KEYS:
            continue
        line = int(knode.start_mark.line) + 1
        said = _above(src, line)
        beside = comment_on(src.line_text(line))
        if beside and not switched_off(beside):
            said.append((line, beside))
        if isinstance(vnode, ScalarNode) and int(vnode.end_mark.line) + 1 != line:  # a value on lines of its own
            last = int(vnode.end_mark.line) + 1
            if (after := comment_on(src.line_text(last))) and not switched_off(after):
                said.append((last, after))
        kind = yk.step_key(str(knode.value))
        out += [(str(knode.value), at, text) for at, text in _joined(said) if _states(text, src, kind)]
    return out


def _states(text: str, src: Source, kind: str) -> bool:
    """Whether the comment states a policy the plan can use, and only of what its key sets: a comment
    that states none (`# deterministic, don't loop on it` beside `restart: "no"`) stays the key's
    aside, as before; so does one on a retry key that says what to do on failure or how long a try
    may take (`retry: never  # never re-push it, page #sec instead`: that is no retry's)."""
    from orchestrator.spec.phrase import read_phrase
    from orchestrator.spec.prose import sentences

    names = src.vocabulary.skills if src.vocabulary else ()
    read = [p for sentence, _ in sentences(text, 1) if (p := read_phrase(sentence, names)).read]
    if kind in _RETRY_KEYS:
        return bool(read) and all(p.statement.on_failure is None and p.statement.timeout_s is None for p in read)
    return bool(read)


def switched_off_keys(src: Source, node: Node) -> list[Reading]:
    """A note for each key commented out among the step's keys (`# retry: 5`): not read, never a policy."""
    if not isinstance(node, MappingNode) or not node.value:
        return []
    first = int(node.start_mark.line) + 1
    last = int(node.end_mark.line) + 1
    column = min(_indent(src.line_text(int(k.start_mark.line) + 1)) for k, _ in node.value)
    notes: list[Reading] = []
    for at in range(first, min(last, len(src.lines)) + 1):
        said = _own_comment(src.line_text(at))
        if said is not None and switched_off(said) and _indent(src.line_text(at)) >= column:
            notes.append(Reading(what="key", where=src.where(at), text=f"# {said}",
                                 note="a key commented out: switched off, not read (and not a policy)"))
    return notes


def whole_run_comments(src: Source) -> list[tuple[int, str]]:
    """The comments that speak for the whole run (module docstring): the file's head, and each block
    standing alone at the top level (a blank line or the end of the file after it)."""
    lines = src.lines
    said: list[tuple[int, str]] = []
    started = False
    block: list[tuple[int, str]] = []
    for n, raw in enumerate(lines, 1):
        text = _own_comment(raw)
        if text is not None and (not started or _indent(raw) == 0):
            block.append((n, text))
            continue
        if not raw.strip():  # a blank line: the block above stands alone
            said += block
            block = []
            continue
        if not started:
            said += block  # the head: every comment before the first key, even one right above it
        block = []
        started = started or text is None
    said += block
    return [(n, text) for n, text in _joined(said) if not switched_off(text)]


def read_whole_run_comments(src: Source) -> None:
    """Each whole-run comment read for the run's limit and success check (`spec.run_limit`); the rest
    stays an aside, as comments always were."""
    for line, text in whole_run_comments(src):
        read_run_limit(text, line, src, who="whole run")


_rx.save()

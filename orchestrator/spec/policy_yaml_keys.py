"""A YAML step's recovery said in keys of the author's own schema (twenty-third round).

    give_up_after: 45s                          (no retry beside it)  → timeout: 45s
    when_it_breaks: {again: 4, gap: "20s, doubling each time"}        → retry: "4 times, waiting 20s, doubling each time"
    on_failure: {tries: 3, wait: 10s}                                 → retry: "3 attempts, waiting 10s"
    when_it_breaks: never again                                       → no retry

- A key that says when to give up (`give_up_after`, `abandon_after`, `bail_after`), with no retry,
  attempt count or wait beside it, is how long the step may take: its timeout. With a retry beside
  it, it stays the time to keep trying (`yaml_keys.STEP_SYNONYMS["retry_for"]`), unless its comment
  says how long one go normally takes, shorter than it (`give_up_after: 20s  # lookups normally ~1s`):
  then it is each go's timeout still.
- A "when this fails" block (`yaml_fallback`) whose keys are all a retry's (a count: `again`,
  `tries`, `retries`; a wait: `gap`, `wait`, `delay`; `backoff`, `max_wait`, `for_up_to`) is the
  step's retry, not a fallback: it is read as one sentence by the phrase reader, at the block's line.
- "never again", "not again" as what follows a failure: no retry (a grammar row, `EARLY`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.grammar_row import Row

# keys that say when to give up on a step: alone, the step's time
_GIVE_UP = frozenset({"give_up_after", "abandon_after", "bail_after", "bail_out_after", "give_up_at", "abandon_at"})
# step keys (canonical, `yaml_keys.step_key`) that say a retry is beside it
_RETRY_BESIDE = frozenset({"retry", "retries", "attempts", "retry_delay", "backoff", "max_delay"})
# a count of tries in a failure block, by a name no retry table has
_AGAIN = frozenset({"again", "try_again", "retry_again", "redo", "rerun", "re_run", "go_again", "more_tries"})
_WORDS = {"retries": "{v} times", "attempts": "{v} attempts", "delay": "waiting {v}", "max_delay_s": "max wait {v}",
          "budget_s": "for up to {v}", "multiplier": "backoff factor {v}", "backoff": "{v} backoff", "jitter": "jitter {v}"}


# a comment that says how long one go normally takes: "SIS lookups normally ~1s", "usually done in 2 min"
_NORMAL = re.compile(r"(?i)\b(?:normally|usually|typically|generally|mostly|on\s+average|tends?\s+to\s+take|"
                     r"takes?\s+(?:about|around|roughly|~))\b")


def one_go_comment(comment: str, limit: str) -> bool:
    """Whether the comment beside a give-up key says how long one go normally takes, shorter than the key's
    time (`give_up_after: 20s  # SIS lookups normally ~1s`): then the time is each go's, not the retries'."""
    # here, not at the top: `spec.policy_text` reads this module's keys
    from orchestrator.spec.policy_text import first_duration, parse_duration

    m = _NORMAL.search(comment)
    if m is None:
        return False
    normal, most = first_duration(comment[m.start():]), parse_duration(limit)
    return normal is not None and most is not None and 0 < normal < most


def give_up_alone(keys: dict[str, tuple[Node, Node]], said: dict[str, str],
                  comment: Callable[[Node], str] | None = None) -> dict[str, tuple[Node, Node]]:
    """`keys` with a give-up key read as `timeout` when nothing beside it retries, or when its comment says
    how long one go normally takes (module docstring); `said` (canonical key -> as written) follows;
    `comment`: the comment on a key node's line."""
    written = said.get("retry_for", "")
    if "retry_for" not in keys or "timeout" in keys or yk.key_name(written) not in _GIVE_UP:
        return keys
    knode, vnode = keys["retry_for"]
    each = comment is not None and isinstance(vnode, ScalarNode) and one_go_comment(comment(knode), str(vnode.value))
    if keys.keys() & _RETRY_BESIDE and not each:
        return keys
    said["timeout"] = written
    return {("timeout" if k == "retry_for" else k): pair for k, pair in keys.items()}


def _kind(inner: str) -> str | None:
    name = yk.key_name(inner)
    if name in _AGAIN:
        return "retries"
    kind = yk.retry_key(inner)
    return None if kind in (None, "on") else ("attempts" if kind == "sfn_attempts" else kind)


def retry_block(k: Node, v: Node) -> list[tuple[Node, Node]] | None:
    """A failure block whose keys are all a retry's, as a `retry:` key holding its sentence; None for
    any other block (a fallback: `yaml_fallback.failure_block`)."""
    if not isinstance(v, MappingNode) or not v.value:
        return None
    parts: list[str] = []
    for ik, iv in v.value:
        kind = _kind(str(ik.value)) if isinstance(ik, ScalarNode) else None
        if kind is None or not isinstance(iv, ScalarNode) or not str(iv.value).strip():
            return None
        parts.append(_WORDS.get(kind, "{v}").format(v=str(iv.value).strip()))
    if not any(p.endswith(("times", "attempts")) for p in parts):
        return None  # a wait alone in a failure block is too little to say it is a retry
    text = "retry " + ", ".join(parts)
    key = ScalarNode("tag:yaml.org,2002:str", "retry", k.start_mark, k.end_mark)
    return [(key, ScalarNode("tag:yaml.org,2002:str", text, v.start_mark, v.end_mark))]


# "when_it_breaks: never again", "if it fails, not again": no retry
EARLY: tuple[Row, ...] = (
    Row("no_retry", r"(?:^|(?<=[:;,]))\s*+(?:then\s+|so\s+)?(?:never|not|no)\s+(?:ever\s+)?again\b(?!\s+(?:until|unless|before|"
        r"after|without|if)\b)", needs=r"{COND}|break|broke"),
)

GATES = {"EARLY": r"|again"}

"""The keys of an approval block in the author's own words: how long the person is given, and what silence means.

    sign_off:                          approval:
      only_if: rank.needs_crane          when: rank.needs_crane
      hold_for: 90m                 ->   timeout: 90m
      silence_means: go ahead            on_timeout: approve

    captain_ok: {give_her: 2h, if_quiet: "don't sail"}          timeout 7200 s, on_timeout reject
    signoff: {keep_open: 1 day, nobody_answers: proceed anyway}  timeout 86400 s, on_timeout approve

An approval's mapping (`approval:` or a key read as one) may name its wait and its outcome in the
author's words, which `yaml_keys.APPROVAL_KEYS` does not list. Inside such a block a key whose value
is a duration, and whose name says a time is given (`hold`, `give`, `allow`, `keep_open`, `grace`,
`window`, ...), is the wait; a key whose name says no one answered (`silence`, `quiet`, `nobody`,
`no_reply`, `unanswered`, `lapse`) is what a timeout means, its value read in words (`go ahead`,
`don't post - hold it`, `approve`) by `approval_ok.silence_means`. Each reading is a guess about the
author's schema, so it is said at the key's line with how to write it plainly. Any other key stays
"not understood".
"""

from __future__ import annotations

from typing import Literal

from yaml.nodes import Node, ScalarNode

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_WAIT_NAME = _rx(r"^(?:[a-z0-9]++_){0,2}?(?:hold|holds|wait|waits|give|gives|allow|allows|grace|window|keep_open|"
                 r"open_for|open|patience|time_?box|answer_by|reply_by|respond_by|answer_within|reply_within|"
                 r"respond_within|max_wait|wait_max|up_to|until|lasts?|ttl|expire|expires|expiry)(?:_[a-z0-9]++){0,2}$")
_SILENCE_NAME = _rx(r"(?:silen|quiet|nobody|no_?one|no_(?:answer|reply|response|word|show)|unanswered|lapse|ignored|"
                    r"timed_?out|time_?out_(?:means|then)|if_not_answered|no_decision)")


class OwnKey:
    """What an own key of an approval block is read as: its kind (`timeout` / `on_timeout`) and value."""

    __slots__ = ("kind", "node", "said")

    def __init__(self, kind: Literal["timeout", "on_timeout"], node: Node, said: str) -> None:
        self.kind, self.node, self.said = kind, node, said


def own_approval_key(name: str, value: Node) -> OwnKey | None:
    """The approval key an own key of the block means (module docstring); None when it is neither."""
    from orchestrator.spec import policy_text as pt
    from orchestrator.spec.approval_ok import silence_means
    from orchestrator.spec.yaml_keys import approval_outcome, key_name

    if not isinstance(value, ScalarNode) or len(name) > 60:
        return None
    key, text = key_name(name), str(value.value).strip()
    if _SILENCE_NAME.search(key):
        then = approval_outcome(text) or silence_means(text)
        if then is None:
            return None
        return OwnKey("on_timeout", ScalarNode("tag:yaml.org,2002:str", then, value.start_mark, value.end_mark),
                      f"'{name}: {text[:60]}' is read as what no answer means: {then}; to say so plainly write "
                      f"`on_timeout: {then}`")
    if _WAIT_NAME.match(key) and (seconds := pt.parse_duration(text)) is not None and seconds > 0:
        return OwnKey("timeout", value, f"'{name}: {text[:60]}' is read as how long the person is given: "
                                        f"{seconds:g}s; to say so plainly write `timeout: {text[:20]}`")
    return None


_rx.save()

"""A person's OK said in the author's own words: what their silence means, the value that needs it,
and a sign-off block of the author's own keys.

    "If Sam hasn't replied within 15 minutes, book it anyway"    silence: approve
    "no word back in an hour -> don't send it, hold it"           silence: reject
    "AMBER means a weekend shift, so the rota lead has to OK it"  approval only when a value is AMBER
    "If it comes back red, Bev has to sign it off first"          approval only when a value is red
    hm_sign_off: {only_if: ..., who: ..., wait_up_to: 45m, if_silent: "don't post - hold it"}
        (a step key ending in sign_off / approval / ok / go_ahead, holding who, a wait or silence)
                                                                   approval: {when, by, timeout, on_timeout}

`silence_means` is asked after the neighbours' words (`condition._silence_means`) said nothing: the
clause that names the silence itself ("hasn't replied", "no answer") is set aside, then a refusal
("don't", "NOT issued", "hold it") is read as reject and a going-on ("anyway", "regardless", "go
ahead") as approve; neither: None (the caller's default, reject). `value_condition` reads the value
as the planner's value clause (`RED only`: the one field that declares that value, else warned and
asked on every run); it is a guess, warned at its line by the caller. `sign_off_block` renames the
block's keys to the form's approval keys and reads its words of silence by `silence_means`, each
reading warned at its key's line.
"""

from __future__ import annotations

from typing import Literal

from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.yaml_dialect import MAP, note, scalar, short
from orchestrator.spec.yaml_node import NodeReader

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the clause that says nobody answered: set aside before the outcome is read
_SILENT = _rx(r"(?i)\b(?:hasn['’]?t|has\s++not|haven['’]?t|have\s++not|doesn['’]?t|does\s++not|don['’]?t|do\s++not|"
              r"didn['’]?t|did\s++not|isn['’]?t|is\s++not|no|nobody|no\s++one|no-one|none|nothing|not)\s++"
              r"(?:[\w'’]++\s++){0,2}?(?:answer|repl|respon|heard|hear|got\s++back|come\s++back|came\s++back|word|ok|"
              r"approv|sign|look|check|receiv|pick)[\w'’]*+|\bwithout\s++(?:an?\s++|any\s++)?+(?:answer|reply|response|"
              r"word|ok|okay|yes|sign-?off|approval)\b")
_NO = _rx(r"(?i)\b(?:don['’]?t|do\s++not|never|won['’]?t|will\s++not|must\s++not|mustn['’]?t|shall\s++not|can['’]?t|"
          r"cannot|not|no\s++go)\b|\bhold\s++(?:it|off|back|fire|everything|the\s++\w++)\b|\b(?:leave|park|bin|drop|"
          r"scrap|shelve|abandon|cancel|skip|kill)\s++(?:it|the\s++\w++)\b|\b(?:cancel|abort|stop|halt)\s*+$|\bon\s++hold\b|\b(?:it['’]?s|that['’]?s|"
          r"means|counts?\s++as|treat\s++(?:it\s++)?+as)\s++(?:an?\s++)?+(?:no|refus\w*+|reject\w*+|declin\w*+)\b|"
          r"\b(?:reject|refuse|decline|deny)\b|\b(?:is|are|gets?|stays?|remains?|will\s++be|be)\s++(?:held|parked|"
          r"paused|kept\s++back|left|shelved|binned|pulled|withdrawn)\b")
_GO = _rx(r"(?i)\banyway\b|\banyhow\b|\bregardless\b|\ball\s++the\s++same\b|\bgo\s++ahead\b|\bproceed\b|"
          r"\bcarry\s++on\b|\b(?:take|treat)\s++(?:it|that|silence)\s++as\s++(?:an?\s++)?+(?:yes|ok|okay|approv\w*+)\b|"
          r"\bassume\s++(?:it['’]?s\s++|a\s++)?+(?:yes|ok|okay|fine|approved|good)\b|"
          r"\b(?:don['’]?t|do\s++not|no\s++need\s++to)\s++(?:wait|hang\s++on|hold\s++(?:on|up))\b")
_WAIT_NOT = _rx(r"(?i)\b(?:don['’]?t|do\s++not|no\s++need\s++to)\s++(?:wait|hang\s++on|hold\s++(?:on|up))\b")
_CLAUSE = _rx(r"[,;:.!?()]|\s[-–—]\s|->|→|=>|\bthen\b|\bso\b|\bbut\b")


def said_silence(text: str) -> bool:
    """Whether the text says nobody answered ("no answer", "hasn't replied", "without a reply")."""
    return _SILENT.search(text) is not None


def silence_means(text: str) -> Literal["approve", "reject"] | None:
    """What no answer means, said in the author's words (module docstring); None when it does not say."""
    for clause in _CLAUSE.split(_SILENT.sub(" ", text)):
        if _WAIT_NOT.search(clause):  # "don't wait for her, send it"
            return "approve"
        if _NO.search(clause):
            return "reject"
        if _GO.search(clause):
            return "approve"
    return None


# "RED means ... so Bev has to OK it", "AMBER = weekend shift, so ..."
_MEANS = _rx(r"(?i)^\W*+(?:an?\s++|the\s++|any\s++)?+(?P<v>[A-Za-z][\w-]{0,30}+)(?:\s++(?:band|result|rating|grade|"
             r"status|level|score|flag|ones?|cases?|jobs?|items?|rows?))?+\s*+(?:means|=|->|→|implies)\s")
# "If it comes back red, ...", "when it's AMBER: ..."
_COMES = _rx(r"(?i)\b(?:if|when|where)\s++(?:it|they|that|this|the\s++answer|the\s++result)\s*+(?:comes?\s++back|'s|’s|is|"
             r"are|scores?|rates?|turns?\s++out|gets?\s++flagged)\s++(?:as\s++)?+(?:an?\s++)?+(?P<v>[A-Za-z][\w-]{0,30}+)"
             r"\s*+[,:;]")
_NOT_VALUE = frozenset({"this", "that", "it", "which", "what", "approval", "sign", "signoff", "ok", "okay", "yes", "no",
                        "silence", "nothing", "none", "everything", "anything", "all", "each", "every", "there",
                        "here", "he", "she", "they", "we", "you", "i", "done", "ready", "back", "late", "over", "not"})


def value_condition(sentence: str) -> tuple[str, str] | None:
    """(the approval's condition, how it was read) when the sentence asks an OK for one value ("RED
    means a callout, so Bev has to OK it first"); None otherwise. The caller checks it is an approval."""
    m = _MEANS.match(sentence) or _COMES.search(sentence)
    if m is None or m.group("v").lower() in _NOT_VALUE or m.group("v").isdigit():
        return None
    value = m.group("v")
    value = value.lower() if value.isupper() and len(value) > 1 else value  # "RED means": said loud, the value `red`
    return (f"{value} only", f"'{sentence.strip()[:80]}' is read as an approval asked only when a value is "
                             f"'{value}' (the one output or input that declares it); to say so plainly write "
                             f"`Approval: required if FIELD == {value.lower()}`")


_QUOTED = _rx(r"[\"“`'](?P<v>[\w.-]{1,40}+)[\"”`']")


def quoted_values(about: str) -> list[str]:
    """The values a skill's words quote for a name (`band` ("red" at 8+, "amber" at 4-7, else "green"))."""
    return [m.group("v") for m in _QUOTED.finditer(about)]


# a step key of the author's own that holds a person's OK (`hm_sign_off`, `skipper_approval`, `ok_from_chef`)
_SIGN_KEY = _rx(r"^(?:[a-z0-9]++_){0,3}?(?:sign_?off|approval|approve|ok|okay|go_?ahead|green_light|nod|say_?so|"
                r"consent|authori[sz]ation|permission)(?:_(?:from|by|needed|required|first))?+$")
# the block's own keys by what they say
_ARROW = _rx(r"(?i)(?P<s>\bstep\s*+#?\d{1,6}+)\s*+(?:->|→|=>)\s*+")
_WAIT_KEY = _rx(r"^(?:wait|within|up_to|deadline|expir|timeout|give|allow|max|time)")
_SILENCE_KEY = _rx(r"(?:silen|no_(?:answer|reply|response|word)|unanswered|if_not|quiet|nobody|no_one|lapse|"
                   r"expired|ignored|on_timeout|timed_out)")


def sign_off_key(name: str) -> bool:
    """Whether an own step key's name (`hm_sign_off`) says a person's OK."""
    return len(name) <= 60 and _SIGN_KEY.match(name) is not None


def sign_off_block(r: NodeReader, raw: str, knode: Node, vnode: MappingNode, sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]] | None:
    """{"approval": the block with the form's approval keys} for a sign-off block (module docstring);
    None when its keys say no person's OK (who, a wait or what silence means)."""
    pairs: list[tuple[Node, Node]] = []
    kinds: set[str] = set()
    for ik, iv in vnode.value:
        inner = yk.key_name(str(ik.value)) if isinstance(ik, ScalarNode) else ""
        kind = yk.approval_key(inner)
        if kind is None and _SILENCE_KEY.search(inner):
            kind = "on_timeout"
        elif kind is None and _WAIT_KEY.match(inner):
            kind = "timeout"
        if kind is None or kind in kinds:
            pairs.append((ik, iv))  # warned by the approval reader at its line, not read
            continue
        kinds.add(kind)
        if kind == "when" and isinstance(iv, ScalarNode) and _ARROW.search(str(iv.value)):
            iv = scalar(_ARROW.sub(r"\g<s> ", str(iv.value)), iv)  # "step 30 -> unplaced_count above 0"
        if kind == "when" and isinstance(iv, ScalarNode) and read_condition(yk.condition_text(str(iv.value))) is None:
            r.src.warn(r.line(iv), f"{sid}: {raw}.{ik.value} '{short(iv.value)}' cannot be read as a condition: the "
                                   "approval is asked on every run; write a comparison (`unplaced_count > 0`)",
                       "spec.approval-condition")
            continue
        if kind == "on_timeout" and isinstance(iv, ScalarNode) and yk.approval_outcome(iv.value) is None:
            said = str(iv.value)
            then = silence_means(said)
            r.src.warn(r.line(iv), f"{sid}: {raw}.{ik.value} '{short(said)}' is read as: no answer means "
                                   f"{then or 'reject'}" + ("" if then else " (the words say neither)") +
                       f"; to say so plainly write `on_timeout: {then or 'reject'}`", "spec.approval-key")
            iv = scalar(then or "reject", iv)
        pairs.append((scalar(kind, ik), iv))
    if not kinds & {"by", "timeout", "on_timeout"}:
        return None
    notes.append(note(r, knode, f"{raw}: {short(', '.join(str(k.value) for k, _ in vnode.value))}",
                      "an approval: a person says yes before the step runs (approval:), the block's keys read as "
                      "its when, who, wait and what silence means"))
    r.src.warn(r.line(knode), f"{sid}: key '{raw}' is read as the step's approval (a person says yes before it runs); "
                              "if that is meant, write `approval:` with `when:`, `timeout:` and `on_timeout:`",
               "spec.approval-key")
    return {"approval": (knode, MappingNode(MAP, pairs, vnode.start_mark, vnode.end_mark))}


_rx.save()

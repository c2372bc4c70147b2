"""What a matched row of the policy grammar gives its slot, and the numbers, durations and values
it is made of (`spec.phrase` reads the sentence; this module turns each match into its value).

    number("twice") → 2;  duration("1.5 secs") → 1.5;  durations("5s, then 15s") → (5, 15)
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

from orchestrator.spec import grammar as g
from orchestrator.spec.carry_values43 import json_pairs
from orchestrator.spec.grammar_families21 import colon_pairs, fields_of_list, now_series
from orchestrator.spec.grammar_families24 import bare_cap
from orchestrator.spec.phrasing35 import word_pairs
from orchestrator.spec.phrasing38 import as_pairs
from orchestrator.spec.policy_notation25 import is_pairs, said_word
from orchestrator.spec.regex_cache import Patterns, compile_many
from orchestrator.spec.wait_list import waits_in_order

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_EMPTY_OF: dict[str, Any] = {"list": [], "array": [], "string": "", "text": "", "object": {}, "dict": {},
                              "map": {}, "mapping": {}}

_DURATION_PART, _AMOUNT_UNIT = compile_many("phrase", [  # once per install (`spec.regex_cache`)
    (g.DURATION_PART, re.I),
    (rf"(?P<amount>(?<!\d)\d+(?:\.\d+)?|{g.WORDS}|half\s+an?|an?|another|\b)\s*+(?:-\s*+)?(?P<unit>{g.UNITS}|{g.LONG_UNITS})(?![a-z])", re.I),
])


def number(text: str) -> float | None:
    """`3` → 3, `three` → 3, `twice` → 2, `a couple of` → 2."""
    t = " ".join(text.strip().lower().split())
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        return float(t)
    if t in g.NUMBER_WORDS:
        return float(g.NUMBER_WORDS[t])
    return None


def duration(text: str) -> float | None:
    """Seconds in a duration phrase: `2s`, `1.5 secs`, `a minute`, `half an hour`, `1m30s`."""
    total = 0.0
    found = False
    low = text.lower()
    half = re.search(r"((?<!\d)\d+(?:\.\d+)?|(?<![a-z-])[a-z-]+)\s+and\s+a\s+half\s+(\w+)", low)
    if half:
        whole, size = number(half.group(1)), _unit(half.group(2))
        return None if whole is None or size is None else (whole + 0.5) * size
    for m in _AMOUNT_UNIT.finditer(low):
        amount = m.group("amount")
        unit = _unit(m.group("unit"))
        if unit is None:
            continue
        if amount.startswith("half"):
            n: float | None = 0.5
        elif amount in ("a", "an", "another", ""):  # "every minute": one of the unit
            n = 1.0 if amount or len(m.group("unit")) > 1 else None
        else:
            n = number(amount)
        if n is None:
            continue
        total += n * unit
        found = True
    return total if found else None


def _unit(word: str) -> float | None:
    w = word.lower()
    if w in g.UNIT_SECONDS:
        return g.UNIT_SECONDS[w]
    return g.UNIT_SECONDS.get(w.rstrip("s"))


def durations(text: str) -> tuple[float, ...]:
    """Every wait of a series: `5s, then 15s` → (5, 15); `1, 2 and 4 seconds` → (1, 2, 4);
    `2 seconds, then after 8` → (2, 8): a last number without a unit takes the one before;
    `1, 2, 4 then 8 seconds` → (1, 2, 4, 8)."""
    parts = [m.group(0) for m in _DURATION_PART.finditer(text)]
    values = [duration(p) for p in parts]
    last = list(_DURATION_PART.finditer(text))[-1:] if parts else []
    rest = text[last[0].end():] if last else ""
    tail = re.findall(r"(\d+(?:\.\d+)?)", rest)  # "3 seconds, then 9, then 27": each takes the unit before
    if parts and tail and values and values[-1] is not None:
        unit = _AMOUNT_UNIT.search(parts[-1].lower())
        size = _unit(unit.group("unit")) if unit else None
        if size is not None:
            values += [float(n) * size for n in tail]
    bare = re.fullmatch(rf"\s*((?:\d+(?:\.\d+)?(?:\s*,\s*(?:(?:and\s+then|and|then)\s+)?|\s+(?:and\s+then|and|then)\s+|\s*/\s*))+)(\d+(?:\.\d+)?)\s*({g.UNITS})\s*", text, re.I)
    if bare:
        scale = g.UNIT_SECONDS[bare.group(3).lower()]
        numbers = [*re.findall(r"\d+(?:\.\d+)?", bare.group(1)), bare.group(2)]
        return tuple(float(n) * scale for n in numbers)
    return tuple(v for v in values if v is not None)


def _middle(low: str, high: str, high_s: float) -> float | None:
    """The middle of a range of waits, "10-20 seconds" → 15: the low end takes the high end's unit."""
    amount = re.match(r"\s*(\d+(?:\.\d+)?)", high)
    if amount is None or float(amount.group(1)) == 0:
        return None
    return (float(low) * high_s / float(amount.group(1)) + high_s) / 2


def _start(low: str, high: str, high_s: float) -> float | None:
    """The start of a range of waits, "8-12 seconds" → 8: the low end takes the high end's unit."""
    amount = re.match(r"\s*(\d+(?:\.\d+)?)", high)
    if amount is None or float(amount.group(1)) == 0 or float(low) > float(amount.group(1)):
        return None
    return float(low) * high_s / float(amount.group(1))


# a ticked `field: value` (`cleared: false`, `room: TBA, seats: 20`): a YAML flow mapping without its braces
_TICKED_MAPPING = _rx(r"[A-Za-z_][\w-]{0,40}+[ \t]*+:[ \t]++[^{}\[\]&*!`]{1,400}+")


def json_literal(raw: str) -> tuple[bool, Any]:
    text = raw.strip()
    if text[:1] in "`" and text.endswith("`"):
        text = text.strip("`").strip()
        if _TICKED_MAPPING.fullmatch(text):
            return json_literal("{" + text + "}")
    elif text[:1] in "\"'“" and len(text) >= 2:
        return True, text[1:-1]
    try:
        return True, json.loads(text)
    except ValueError:
        pass
    if text[:1] in "{[" and len(text) <= 2000 and not re.search(r"[&*!]", text):  # YAML flow: {team: platform}
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            return False, None
        return (True, value) if isinstance(value, (dict, list)) else (False, None)
    return False, None


# a field and its value with no `=`, and the words between a series' parts ("and the", "then the")
_BARE_PAIRS = _rx(r"(?i)(?<!\w)([a-z_]\w*+)\s++(?:(?:of|at|as|:|=)\s*+)?(\"[^\"]*\"|'[^']*'|``[^`]*+``|`[^`]*+`|-?\d+(?:\.\d+)?+|\[\s*+\]|true|false|null|yes|no)(?![\w.])")
_LINKS = _rx(r"(?i)(?<!\w)(?:and|then|the|one)(?!\w)")


def _groups(m: re.Match[str], prefix: str) -> list[str]:
    return [v for k, v in sorted(m.groupdict().items()) if k.startswith(prefix) and k[len(prefix):].isdigit() and v]


def value_of(slot: str, row: g.Row, m: re.Match[str]) -> Any:
    """The value a matched row gives its slot."""
    if row.value is not None:
        return row.value
    # a count of 4000 digits reads as infinity: no count at all (the field says it is not one)
    counts = [c if c is not None and math.isfinite(c) else None for c in (number(n) for n in _groups(m, "n"))]
    waits = [w if w is not None and math.isfinite(w) else None for w in (duration(d) for d in _groups(m, "d"))]
    if slot == "regenerate":
        return int(counts[0]) if counts and counts[0] is not None else True
    if slot in ("retries", "attempts"):
        return int(counts[0]) if counts and counts[0] is not None else None
    if slot == "wait_fixed" and m.groupdict().get("start") and waits and waits[-1] is not None:
        return _start(m.group("start"), m.group("d1"), waits[-1])  # "8-12 s apart": its start (`grammar_families13`)
    if slot == "wait_fixed" and m.groupdict().get("lo") and waits and waits[-1] is not None:
        return _middle(m.group("lo"), m.group("d1"), waits[-1])  # "a random 10-20 seconds": its middle
    if slot == "timeout" and m.groupdict().get("half") and waits and waits[-1] is not None:
        amount = re.match(r"\s*(\d+(?:\.\d+)?)", m.group("d1"))  # "1 hour and a half": half the unit more
        return waits[-1] * (1 + 0.5 / float(amount.group(1))) if amount and float(amount.group(1)) else None
    if slot == "exp_cap" and m.groupdict().get("bare_cap"):  # "doubling ... up to 32": the unit before it
        return bare_cap(m.string[:m.start()], m.group("bare_cap"))
    if slot in ("wait_fixed", "exp_start", "exp_cap", "budget", "timeout", "run_timeout"):
        return waits[-1] if waits and waits[-1] is not None else None
    if slot == "wait_seq" and m.groupdict().get("lseq"):  # "re-run #1 after 5 min, #2 after 20" (`grammar_families15`)
        listed = waits_in_order(m.group("lseq"))
        return listed if len(listed) >= 2 else None
    if slot == "wait_seq" and m.groupdict().get("nseq"):  # "straight away, then after 30 s" (`grammar_families21`)
        return now_series(m.group("nseq"), duration)
    if slot == "wait_seq" and m.groupdict().get("oseq"):  # "first retry immediately, second after 30s"
        parts = [_LINKS.sub(" ", p) for p in re.split(r"(?i)\b(?:second|third|fourth)\b", m.group("oseq"))]
        seq = tuple(0.0 if duration(p) is None else duration(p) for p in parts)
        return seq if len(seq) >= 2 and all(v is not None for v in seq) else None
    if slot == "exp_range":
        return (waits[0], waits[1]) if len(waits) == 2 and None not in waits else None
    if slot == "wait_seq":
        series = durations(m.group("seq"))
        return series if len(series) >= 2 else None
    if slot == "exp_factor":
        return float(m.groupdict().get("factor") or m.groupdict().get("f2") or 2.0)
    if slot == "value_blank":
        return ""
    if slot == "value_empty":
        kind = (m.groupdict().get("kind") or "").lower()
        for key in (kind, kind.rstrip("s")):
            if key in _EMPTY_OF:
                return json.loads(json.dumps(_EMPTY_OF[key]))
        return True  # the contract's empty value
    if slot == "use_skill":  # "the backup mirror" names the skill `backup-mirror`
        return "-".join((m.groupdict().get("name") or m.group("bare")).strip().split())
    if slot == "use_step":
        return m.group("step").lower()
    if slot == "feedback":
        word = m.group("step").lower()
        step = int(word) if word.isdigit() else int(number(word) or 0)
        return (f"step-{step}", int(counts[0]) if counts and counts[0] is not None else None)
    if slot == "escalate":
        return (m.groupdict().get("msg") or "").strip(" ,;:")
    if slot == "value_pairs" and m.groupdict().get("cpairs"):  # "board figures: a_l 5200, low false" (`grammar_families21`)
        return colon_pairs(m.group("cpairs"), json_literal)
    if slot == "value_pairs" and m.groupdict().get("wpairs"):  # "assume a_b 50 / plan tent" (`spec.phrasing35`)
        return word_pairs(m.group("wpairs"), json_literal)
    if slot == "value_pairs" and m.groupdict().get("jpairs"):  # "use the usual ones: a = [[1,2]]" (`spec.carry_values43`)
        return json_pairs(m.group("jpairs"), json_literal)
    if slot == "value_pairs" and m.groupdict().get("apairs"):  # "take a_b as 50 and note "x"" (`spec.phrasing38`)
        return as_pairs(m.group("apairs"), json_literal)
    if slot == "value_pairs":  # "(doc = "v3", audience = staff)": each field and its value
        shouted = m.string.isupper()  # a sentence all in capitals (a JCL deck's, round 50): its names in lower case
        pairs = re.findall(r"(?<!\w)([a-z_]\w*+)\s*+=\s*+(\"[^\"]*\"|'[^']*'|\[[^\]]{0,200}\]|\{[^}]{0,200}\}|[\w.-]+)",
                           m.group("pairs"), re.IGNORECASE if shouted else 0)
        pairs = [(n.lower(), v) for n, v in pairs] if shouted else pairs
        if pairs:  # "parts = nothing, cost 0": a later pair without its "=" (`spec.policy_notation25`, round 49)
            pairs += [(n, v) for n, v in _BARE_PAIRS.findall(m.group("pairs"))
                      if n not in {p for p, _ in pairs} and not _LINKS.fullmatch(n)]
        if not pairs:  # "lat 0 / lon 0", "low_band of 3 and unit "mm"": a field, then its value (`spec.grammar_families11`)
            pairs = is_pairs(m.group("pairs")) or _BARE_PAIRS.findall(m.group("pairs"))  # "ok is true" (`policy_notation25`)
        out: dict[str, Any] = {}
        for name, said_value in pairs:
            found, literal = json_literal(said_value)
            if not found:  # "missing = nobody": an empty list (`spec.policy_notation25`)
                found, literal = said_word(said_value)
            if not found and said_value.lower() in ("yes", "no"):  # "rained no": a yes/no field (`grammar_families18_policy`)
                found, literal = True, said_value.lower() == "yes"
            if not found and said_value.lower() in ("true", "false"):  # "overdue False" (VBA's, Python's): the truth
                found, literal = True, said_value.lower() == "true"
            out[name] = literal if found else said_value.strip("`")  # "ref ``TEMP-1``": the text in the ticks
        return out
    if slot == "value_nos":
        return {w: [] for w in re.findall(r"\bno\s+(\w+)", m.group("nos").lower())}
    if slot == "value_fields":  # "lat/lon set to null", "default the score to 0.5", "an empty list of matches"
        names = [f for f in re.findall(r"[a-z_]\w*", m.group("fields").lower()) if f != "and"]
        names = fields_of_list(names, m.string[:m.start("fields")], m.group("fields"))
        kind = (m.groupdict().get("kind") or "").lower()
        if kind:
            empty = "" if kind == "blank" else _EMPTY_OF.get(kind, [] if kind == "set" else None)  # `spec.carry_value`
            return {n: json.loads(json.dumps(empty)) for n in names}
        found, literal = json_literal(m.group("value"))
        said: Any = literal if found else m.group("value").strip().lower()
        return {n: None if said in ("none", "null") else said for n in names} if names else None
    if slot == "value_field":
        field = (m.group("field") or m.groupdict().get("f2") or "").strip().lower()  # f2: `spec.carry_value`
        found, literal = json_literal(m.group("value"))
        value: Any = literal if found else m.group("value").strip().lower()
        if value in ("none", "null"):
            value = None
        elif not found and value in g.NUMBER_WORDS:  # "treat the score as zero": the number, not the word
            value = g.NUMBER_WORDS[value]
        if field in ("", "it", "this", "the step", "result", "output", "the result", "the output"):
            field = ""
        return (field.replace(" ", "_") or None, value)
    if slot == "value_literal":
        found, literal = json_literal(m.group("value"))
        if not found and m.group("value").lower() in g.NUMBER_WORDS:  # "log it as zero": the number
            return g.NUMBER_WORDS[m.group("value").lower()]
        return literal if found else m.group("value").strip("`")
    return True

"""The run's success check said in everyday words about the steps' outputs, read onto those outputs.

`spec.whole_success` reads a check that compares a field with a value (`ok == true`). People write
what they would see instead: "the day is done when the register has a class code and the letter is
sent", "we're good once the invoice comes back with an invoice number", "finished when the cargo
note is signed and says CLEARED". Each part of such a clause (split at "and") is read here when it
names what one step outputs:

- "<thing> has / comes back with / gets a <field in words>": that output is not empty, on the step
  whose output has the field (the one the thing names, when several do). The field in words is the
  output's name with its words ("receipt number" is `receipt_no`, "booking reference" `booking_ref`);
  where it is, said after it ("has a decl_no on it", "has a tracking id in there"), is no part of it;
- "<thing> is / was / has been / says <state>": the output named by the state is true (`sent == true`).

A clause that says its check twice, the second time after "i.e.", "in other words", "that is," or
"namely" ("the log holds an entry, i.e. log-decision hands back a log ID"), is read by its second,
plain wording alone. A part that names no step's output ("and says CLEARED", "the crew is happy") is said at its line as
not checked; nothing is dropped. The reading is a guess, so it is said at the line with what to write.
"""

from __future__ import annotations

from orchestrator.spec.elsewhere import keys_of
from orchestrator.spec.model import ContractSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success import check_schema, read_criteria
from orchestrator.spec.success36 import given_back, numbered_field
from orchestrator.spec.success_said import said_checks, said_here
from orchestrator.spec.success_there29 import there_field
from orchestrator.spec.success_words27 import value_name
from orchestrator.spec.whole_success import CODE, outputs_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_AND = _rx(r"(?i)(?<!\s)\s++and\s++|(?<!\s)\s*+[,;]\s*+(?:and\s++)?")
# "the lender receipt has a receipt number", "the invoice comes back with an invoice no."
_HAS = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|its\s++|our\s++)?(?P<thing>[\w' -]{1,60}?)\s++(?:has|have|carries|shows|gets|got|"
           r"(?:comes|came)\s++(?:back|out)\s++with|returns|gives\s++back|includes|hands\s++(?:back|over)|sends\s++back|"
           r"gives|produces)\s++(?:a|an|the|its|their|some)\s++"
           r"(?P<field>[\w.' -]{1,60}+)$")
# "the crew briefing is posted", "the channel manager says pushed", "the letter has been sent"
_STATE = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|its\s++|our\s++)?(?P<thing>[\w' -]{1,60}?)\s++(?:(?:is|are|was|were)(?:\s++(?:marked|shown|listed))?|has\s++been|"
             r"have\s++been|gets|got|says|reads|shows|show|comes\s++back|come\s++back)(?:\s++as)?\s++(?P<state>[a-z][a-z_]{1,40}+)$")
# a part restated in the outputs' words in parentheses after it: "the cellar has been told (the notifier says notified)"
_RESTATED = _rx(r"\((?P<said>[^()]{3,80}+)\)\s*+$")
# "the log holds an entry, i.e. log-decision hands back a log ID": what follows says the same plainly
_SAME_AS = _rx(r"(?i)(?<![\w.-])(?:i\.\s*+e\.|in\s++other\s++words|that\s++is\s++to\s++say|that\s++is(?=,)|"
               r"put\s++plainly|namely)[,:]?+\s++(?=\S)")
# the bracket naming an output that must not be blank: "(text not blank)", "(ref is not empty)", "(id non-empty)"
# "raise-invoice amount above 0", "the booking total over 3": a thing's number said bounded in words
_BOUNDED = _rx(r"(?i)(?<!\s)\s++(?:is\s++)?+(?:above|over|below|under|at\s++least|at\s++most|(?:more|less|greater|fewer)\s++than)"
               r"\s++(?:zero|\d{1,12}+(?:\.\d{1,6}+)?)$")
_HEAD_WORD = _rx(r"^[A-Za-z][\w'`.-]{0,60}+$")


def _bounded(part: str) -> bool:
    """"raise-invoice amount above 0", "the booking total over 3": a thing's number said bounded in words."""
    m = _BOUNDED.search(part)
    words = part[:m.start()].split() if m is not None else []
    return 0 < len(words) <= 6 and all(_HEAD_WORD.match(x) for x in words)


_NOT_BLANK = _rx(r"(?i)(?P<field>[a-z_][a-z0-9_]{0,40}+)\s++(?:(?:is|must\s++be)\s++)?+(?:not\s++(?:blank|empty)|"
                 r"non-?\s*+(?:blank|empty)|filled(?:\s++in)?+)")
# "a decl_no on it", "a tracking id in there": where the field is, said after it, no part of its name
_ON_IT = _rx(r"(?i)(?<!\s)\s++(?:on|in|inside|with|attached\s++to)\s++(?:it|them|there|that|this)$")
_FILLER = frozenset({"the", "a", "an", "its", "their", "of", "for", "on", "in"})
# the short forms a field's name uses for the words said
_SHORT = {"number": ("no", "num", "nr", "number", "n"), "reference": ("ref", "reference"), "identifier": ("id",),
          "quantity": ("qty", "quantity"), "percent": ("pct", "percent"), "message": ("msg", "message"),
          "count": ("count", "n"), "id": ("id",), "ref": ("ref",), "no": ("no", "num", "number")}


def _words(text: str) -> list[str]:
    return [w for w in text.lower().replace(".", " ").replace("-", " ").replace("'s", " ").split() if w not in _FILLER]


def _field_for(words: list[str], names: frozenset[str]) -> str | None:
    """The output name the words say ("receipt number" -> `receipt_no`), or None."""
    if len(words) > 1 and words[-1] in _SHORT["no"] + ("id", "ref", "code", "figure", "value", "amount") and "_".join(words[:-1]) in names:
        return "_".join(words[:-1])  # "a manifest no." is the `manifest` an output holds, its number in it
    for name in sorted(names):
        parts = name.lower().split("_")
        if parts == words or name.lower() == "_".join(words):
            return name
        if len(parts) == len(words) and all(p == w or p in _SHORT.get(w, ()) for p, w in zip(parts, words, strict=True)):
            return name
    return numbered_field(words, names)  # "order number" -> `order_ref` (`spec.success36`)


def _step_for(thing: str, field_words: list[str], steps: list[StepSpec], src: Source,
              state: bool) -> tuple[int, str] | None:
    """(step index, output name) of the one step whose output the part names (the thing picks among several)."""
    owners: list[tuple[int, str]] = []
    for i, step in enumerate(steps):
        names = outputs_of(step, src.vocabulary)
        field = (field_words[0] if field_words and field_words[0] in names else None) if state else _field_for(field_words, names)
        if field is not None:
            owners.append((i, field))
    if len(owners) <= 1:
        return owners[0] if owners else None
    keys = keys_of([(i + 1, s.name, (s.skill or "").strip("`")) for i, s in enumerate(steps)])
    said = set(_words(thing))
    named = [o for o in owners if any(k.number - 1 == o[0] and said & set(k.words) for k in keys)]
    return named[0] if len(named) == 1 else owners[-1]


def plain_restatement(clause: str) -> str:
    """The clause's own restatement when it says its check twice ("the log holds an entry, i.e.
    log-decision hands back a log ID" -> "log-decision hands back a log ID"), else the clause."""
    m = _SAME_AS.search(clause)
    return clause[m.end():] if m is not None and m.start() > 0 and clause[m.end():].strip(" .") else clause


def said_in_words(clause: str, sentence: str) -> bool:
    """Whether a part of the clause says an output in words ("the receipt has a receipt number") and the
    sentence is one `spec.whole_net` reads as the run's success check: a reader that does not know the
    steps yet leaves it to that last reader, which reads it onto the outputs or warns it."""
    from orchestrator.spec.success_words27 import wish_tail
    from orchestrator.spec.whole_success import success_cue

    clause = plain_restatement(clause)  # "..., i.e. log-decision hands back a log ID": the plain words
    parts = [p.strip().rstrip(".") for p in _AND.split(wish_tail(clause)[0])]  # "... - ideally under 25": a wish
    parts += [r.group("said").strip() for p in parts if (r := _RESTATED.search(p)) is not None]
    if any(_NOT_BLANK.fullmatch(p) for p in parts):  # "(text not blank)": an output said to be filled in
        return True
    from orchestrator.spec.success_halves import halves_said

    # "Done = the sheet comes out with at least 8 players on it": a count of things (`spec.success_halves`)
    return (any(_HAS.match(p) or _STATE.match(p) or said_here(p) or given_back(p) or _bounded(p) for p in parts if p)
            or halves_said(clause)) \
        and success_cue(sentence) is not None


def word_checks(clause: str, line: int, steps: list[StepSpec],
                src: Source) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
    """The steps (each with a reading of its check) and the checks on their outputs the clause's parts
    say in words (module docstring), each said at `line`; None when no part names a step's output (the
    caller warns the whole clause)."""
    read: list[tuple[int, str, str]] = []
    unread: list[str] = []
    given_read = False  # a part read as a thing given back (`spec.success36`)
    clause = plain_restatement(clause)  # "the log holds an entry, i.e. log-decision hands back a log ID": the plain words
    for part in (p.strip().rstrip(".") for p in _AND.split(clause)):
        if not part:
            continue
        restated = _RESTATED.search(part)  # "the cellar has been told (notify-cellar says notified)": what it shows
        blank = _NOT_BLANK.fullmatch(restated.group("said").strip()) if restated is not None else None
        if blank is not None and restated is not None:  # "handover-line gives back a line (text not blank)"
            found = _step_for(part[:restated.start()], [blank.group("field")], steps, src, state=True)
            if found is not None:
                read.append((found[0], f"{found[1]} is not empty", part))
                continue
        if restated is not None and (_HAS.match(restated.group("said")) or _STATE.match(restated.group("said"))):
            part = restated.group("said").strip()
        has, state = _HAS.match(part), _STATE.match(part)
        found, written = None, ""
        if has is None and (given := given_back(part)) is not None:  # "Printwise send back an order number" (`spec.success36`)
            found = _step_for(given[0], given[1], steps, src, state=False)
            written = f"{found[1]} is not empty" if found else ""
            given_read = found is not None
        if found is None and has is not None:
            found = _step_for(has.group("thing"), _words(_ON_IT.sub("", has.group("field"))), steps, src, state=False)
            written = f"{found[1]} is not empty" if found else ""
        if found is None and (there := there_field(part)) is not None:  # "there's a label id" (`spec.success_there29`)
            found = _step_for("", _words(there), steps, src, state=False)
            written = f"{found[1]} is not empty" if found else ""
        if found is None and state is not None and not value_name(state.group("state")):  # "says status": no yes/no
            found = _step_for(state.group("thing"), [state.group("state").lower()], steps, src, state=True)
            written = f"{found[1]} == true" if found else ""
        if found is None:  # "less than 5 kg is left over", "the notice is out with a notice_id on it" (`spec.success_said`)
            said = said_checks(part, steps, src)
            if said is None:
                unread.append(part)
            read.extend((at, checked, part) for at, checked in said or ())
            continue
        read.append((found[0], written, part))
    if not read or (given_read and unread):  # "... handed back a tracking number and a status "BOOKED"": `success_checks23`'s
        return None
    out = list(steps)
    contracts: list[ContractSpec] = []
    for at, written, part in read:
        step = out[at]
        src.warn(line, f"{step.id} ({step.name}): '{part[:60]}' is read as the run's success check `{written}` on this "
                       f"step's output: check the plan, or write `- Success criteria: {written}` under the step", CODE)
        reading = Reading(what="success", where=src.where(line), text=part[:160],
                          note=f"the run's success check `{written}`, checked on {step.id}'s output (said in words)")
        out[at] = step.model_copy(update={"readings": (*step.readings, reading)})
        contracts.append(ContractSpec(producer=step.id, consumer=None, where=src.where(line), validation=(written,),
                                      constraints={"": check_schema(read_criteria(written)[0])}))
    for part in unread:
        src.warn(line, f"the run's success check: '{part[:80]}' names no step's output, so that part is not checked; "
                       "write it as a comparison of an output field with a value (`status == \"DONE\"`)", CODE)
    return out, tuple(contracts)


_rx.save()

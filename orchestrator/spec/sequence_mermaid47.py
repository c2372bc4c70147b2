"""A spec drawn as a Mermaid sequence diagram (text opening `sequenceDiagram`, after `%%` comments or a
```mermaid fence), read field by field into the YAML form's nodes with the PlantUML reader's blocks
(`plantuml46`): the same forks, ifs, notes and bindings, drawn the sequence diagram's way.

    participant T as tide-window             → a participant whose name (or alias label) is a skill
    K->>T: site, date                        → a step: a call to that participant runs its skill with these
                                                inputs (`src as name`: `name` takes `src`; `name 30 (gloss)`,
                                                `name = "x"`: a literal)
    T-->>K: slack_time, current_kts          → the reply: the outputs of that participant's latest step
    par ... and ... end                      → the branches start together
    alt current_kts more than 1.5 ... else ... end
                                             → the `alt` branch runs when the comparison holds (words
                                                "more than", "at least", "below"... read as >, >=, <), the
                                                `else` branch otherwise (an `else` with a comparison of its
                                                own: when it holds and none before did); `opt c ... end`: one
                                                branch; a step after `end` takes whichever branch ran
    Note right of T: 2 more tries            → the words of T's latest step, read for its policies
    Note over K,M: whole thing max 10 min    → a note over two or more participants: the whole run's words
                                                (its limit; "done = ..." / "success: ..." its success check)

A step waits for the steps whose outputs it takes or tests (a step that takes none: for the steps before it);
a name no earlier step returns is a workflow input (warned). `%%` comments, `autonumber`, `actor`/`participant`
lines, `activate`, `title`, `rect ... end` and `box ... end` are layout; a `loop`, `critical` or `break` block
is warned as not read, as is any other line.
"""

from __future__ import annotations

from yaml.nodes import MappingNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.hcl30 import _s
from orchestrator.spec.plantuml46 import _Frame, _Step
from orchestrator.spec.plantuml46 import _Reader as _PumlReader
from orchestrator.spec.rakefile42 import split_arguments
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

SUFFIXES = (".mmd", ".mermaid")
_HEADER = _rx(r"^\s*+sequenceDiagram\s*+$")
_FENCE = _rx(r"^\s{0,3}(?:`{3,}+|~{3,}+)\s*+mermaid\s*+$", 0)
_PART = _rx(r"^(?:participant|actor)[ \t]++(\"[^\"]*+\"|\S++)(?:[ \t]++as[ \t]++(.+))?$")
_MSG = _rx(r"^([^\s:<>+-][^\s:<>+]*?)[ \t]*+(<<)?(--?)(>>|>|x|\))[ \t]*+[+-]?[ \t]*+([^:]+?)[ \t]*+:[ \t]*+(.*)$")
_NOTE = _rx(r"(?i)^note[ \t]++(?:right[ \t]++of|left[ \t]++of|over)[ \t]++([^:]+?)[ \t]*+:[ \t]*+(.*)$", 0)
_AS = _rx(r"^([A-Za-z_]\w*+)[ \t]++as[ \t]++([A-Za-z_]\w*+)$")
_BARE_LIT = _rx(r"""^([A-Za-z_]\w*+)[ \t]++(-?\d++(?:\.\d++)?|"[^"]*+"|true|false)$""")
_GLOSS = _rx(r"(?<![ \t])[ \t]*+\([^()]*+\)[ \t]*+$")
_DONE = _rx(r"^(?:done|success|finished|complete)\b[ \t]*+(?:=|:|when|if|means)[ \t]*+(.+)$", 0)
# a comparison said in words, each read as its operator (the longest first)
_WORDS = ((_rx(r"(?<!\s)\s++(?:is\s++)?(?:more|greater|higher|bigger)\s++than\s++|(?<!\s)\s++(?:is\s++)?(?:over|above)\s++", 0), " > "),
          (_rx(r"(?<!\s)\s++(?:is\s++)?(?:less|fewer|lower|smaller)\s++than\s++|(?<!\s)\s++(?:is\s++)?(?:under|below)\s++", 0), " < "),
          (_rx(r"(?<!\s)\s++(?:is\s++)?at\s++least\s++", 0), " >= "),
          (_rx(r"(?<!\s)\s++(?:is\s++)?at\s++most\s++", 0), " <= "),
          (_rx(r"(?<!\s)\s++(?:is\s++not|isn't|does\s++not\s++equal)\s++", 0), " != "),
          (_rx(r"(?<!\s)\s++(?:is|equals)\s++", 0), " == "))
_LAYOUT = ("autonumber", "activate ", "deactivate ", "title ", "title:", "create ", "destroy ", "links ", "link ",
           "accTitle", "accDescr")


def is_mermaid_sequence(path: str, text: str) -> bool:
    """Whether the text's first line that is no `%%` comment (nor a ```mermaid fence) is `sequenceDiagram`."""
    for raw in text.split("\n"):
        body = raw.strip()
        if not body or body.startswith("%%") or _FENCE.match(body):
            continue
        return _HEADER.match(body) is not None
    return False


def in_words(said: str) -> str:
    """`current_kts more than 1.5` -> `current_kts > 1.5` (the first comparison word only)."""
    for pattern, op in _WORDS:
        m = pattern.search(said)
        if m is not None:
            return f"{said[:m.start()].strip()}{op}{said[m.end():].strip()}"
    return said.strip()


class _Reader(_PumlReader):
    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.alias: dict[str, str] = {}  # participant id -> its label
        self.latest: dict[str, _Step] = {}  # participant id -> its latest step
        self.blocks: list[str] = []  # the open blocks: par, alt, opt, loop, rect...
        self.success: tuple[int, str] | None = None

    def skill_of(self, who: str) -> str | None:
        skills = self.src.vocabulary.skills
        for name in (self.alias.get(who, ""), who):
            name = name.strip().strip('"').strip().split(" ")[0] if name else ""
            if name and (name in skills or (not skills and "-" in name)):
                return name
        return None

    def read(self) -> MappingNode:
        fence = False
        for i, raw in enumerate(self.src.lines):
            line, text = i + 1, raw.strip()
            low = text.lower()
            if not text or text.startswith("%%") or _HEADER.match(text):
                continue
            if _FENCE.match(text) or (fence and text.startswith(("```", "~~~"))):
                fence = not fence
                continue
            self.statement(line, text, low)
        if self.blocks:
            self.src.warn(len(self.src.lines), f"Mermaid: a `{self.blocks[-1]}` block is not closed by `end`",
                          "spec.unread")
        return self.node()

    def statement(self, line: int, text: str, low: str) -> None:
        word = low.split(" ")[0].split("\t")[0]
        rest = text[len(word):].strip()
        if low.startswith(_LAYOUT):
            return
        if (m := _PART.match(text)) is not None:
            self.alias[m.group(1).strip('"')] = (m.group(2) or m.group(1)).strip().strip('"')
        elif word == "par":
            self.blocks.append("fork")
            self.stack.append(_Frame("fork", list(self.ends), branch_steps=[[]]))
            self.last = None
        elif word == "and":
            self.next_branch("fork", line, text)
        elif word in ("alt", "opt"):
            self.blocks.append("if")
            self.open_if(line, in_words(rest), None, "yes")
        elif word == "else":
            cond = in_words(_GLOSS.sub("", rest)) if rest else ""
            if cond and self.stack and self.stack[-1].kind == "if" and self.condition(cond, "yes") is not None:
                self.open_if(line, cond, None, "yes", also=True)
            else:
                self.next_branch("if", line, text)
        elif word in ("loop", "critical", "break", "rect", "box"):
            self.blocks.append(word)
            if word not in ("rect", "box"):
                self.src.warn(line, f"Mermaid: a `{word}` block ('{text[:60]}') is not read: its steps run once, "
                                    "as if it were not there", "spec.unread")
        elif word == "end":
            if not self.blocks:
                self.src.warn(line, "Mermaid: this `end` closes no block: not read", "spec.unread")
            elif (kind := self.blocks.pop()) in ("fork", "if"):
                self.close(kind, line, text)
        elif (m := _NOTE.match(text)) is not None:
            self.mermaid_note(line, m.group(1), m.group(2))
        elif (m := _MSG.match(text)) is not None:
            self.message(line, m.group(1).strip(), m.group(3), m.group(5).strip(), m.group(6))
        else:
            self.src.warn(line, f"Mermaid: the line '{text[:60]}' is not read", "spec.unread")

    def message(self, line: int, a: str, dashes: str, b: str, said: str) -> None:
        callee, caller = self.skill_of(b), self.skill_of(a)
        if callee is not None and (dashes == "-" or caller is None or a not in self.latest):
            self.box(line, f"{callee}({said})")
            if self.steps and self.steps[-1].line == line:
                self.latest[b] = self.steps[-1]
            return
        if caller is not None and a in self.latest:  # the reply: its outputs
            step = self.latest[a]
            step.outputs.extend(o for o in (_GLOSS.sub("", x).strip() for x in said.split(","))
                                if o and o not in step.outputs)
            self.last = step
            return
        self.src.warn(line, f"Mermaid: the message '{a} -> {b}: {said[:40]}' calls no skill and answers no call: "
                            "not read", "spec.unread")

    def mermaid_note(self, line: int, over: str, text: str) -> None:
        who = [w.strip() for w in over.split(",") if w.strip()]
        if len(who) == 1 and who[0] in self.latest:
            self.latest[who[0]].notes.append((line, text))
            return
        if len(who) > 1:
            done = _DONE.match(text.strip())
            if done is not None and self.success is None:
                self.success = (line, done.group(1).strip())
            else:
                self.legend.append((line, text))
            return
        self.src.warn(line, f"Mermaid: the note over '{over}' is beside no step (its participant runs none yet): "
                            "not read", "spec.unread")

    def binding(self, step: _Step, arg: str) -> list[tuple[str, str, str]]:
        arg = _GLOSS.sub("", arg.strip())
        if (m := _AS.match(arg)) is not None:  # `pax as diver_count`: diver_count takes pax
            return [(m.group(2), v, t) for _n, v, t in super().binding(step, m.group(1))]
        if (m := _BARE_LIT.match(arg)) is not None:  # `max_depth_m 30`: a literal
            return super().binding(step, f"{m.group(1)} = {m.group(2)}")
        return super().binding(step, arg)

    def data_deps(self) -> None:
        """Each step waits for the steps whose outputs it takes or tests; one that takes none keeps the order."""
        for s in self.steps:
            s.bound = [(n, v, t) for a in split_arguments(s.args) for n, v, t in self.binding(s, a)]
        for s in self.steps:
            said = " ".join([v for _n, v, _t in s.bound] + [s.when or ""])
            used = [o.sid for o in self.steps[: self.steps.index(s)] if f"steps.{o.sid}.output." in said]
            if s.otherwise is not None:  # the else: after what the `alt`'s condition tests
                tested = self.by_id[s.otherwise].when or ""
                used = list(dict.fromkeys([*used, *(o.sid for o in self.steps if f"steps.{o.sid}.output." in tested)]))
            branches = [d for d in used if d in s.deps]
            if s.join_any and len(branches) > 1:  # after whichever branch ran; a value from before: waited for too
                s.deps = branches
            elif used:
                s.join_any, s.deps = False, used

    def node(self) -> MappingNode:
        if not self.steps:
            self.src.error(1, "this Mermaid sequence diagram is not read as a workflow: no message calls a participant "
                              "named for a skill (`participant T as tide-window`, then `K->>T: site`)", "spec.no-steps")
            self.src.raise_if_errors()
        self.data_deps()
        root = super().node()
        if self.success is not None:
            p, (ln, text) = self.src.path, self.success
            root.value.append((_s(p, "success", ln, 0), _s(p, text, ln, 0)))
        return root


def read_mermaid_sequence(src: Source) -> SpecParts:
    """Read a Mermaid sequence diagram (module docstring); one with no call to a skill is refused at line 1."""
    from orchestrator.spec.run_limit import read_run_limit
    from orchestrator.spec.yaml_form import read_yaml

    reader = _Reader(src)
    root = reader.read()
    for line, text in reader.legend:  # a note over the whole diagram speaks for the whole run
        read_run_limit(text, line, src, who="whole run")
    return read_yaml(src, root)


_rx.save()

"""A Mermaid flowchart (a fenced `mermaid` block, or bare lines, opening on `flowchart TD` /
`graph LR`) read as the steps of the spec:

    start([order lands]) --> load & price     a node whose label (first line) names a skill is a
    load["load-orders<br/>from the shop"]     step running it; another node (a trigger, a question)
    load -- rows --> check                    is no step and is passed through
    check{{"check-stock"}}                    an edge: the step it points to runs after the one it
    check -->|in_stock| ship["ship-it"]       leaves; from a node with no step before it: a root
    check -->|else| refund["refund-order"]    (two edges from a start: a parallel start)
    ship --> tell; refund --> tell            a label that is a field name on a step's single edge:
    %% ship: 2 retries, 30s apart              that output passed to the next step; labels on the
                                              edges out of a branching node: the condition of each
                                              (a bare field name: that output is true; "else",
                                              "no", "otherwise": runs when the other did not); a
                                              step reached by two branches runs after whichever ran

A question node `q{stock low?}` with `yes`/`no` edges gives its text as the yes-branch's
condition. A comment (`%%`) or a note outside the diagram that starts with a node's id or
skill (`- **ship** — 2 retries`) is that step's text, read by the policy reader. Every
branch, field and join read so is a guess: a warning at its line says how it was read and
how to write it plainly.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.mermaid_label_comment50 import node_by_label
from orchestrator.spec.model import FieldSpec, Mention, Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FENCE = _rx(r"^\s{0,3}(?P<f>`{3,}+|~{3,}+)\s*+(?P<info>[\w-]*+)")
_HEADER = _rx(r"^\s*+(?:flowchart|graph)(?:\s++(?:TD|TB|BT|LR|RL))?\s*+;?\s*+$", 0)
_SKIP = _rx(r"^\s*+(?:subgraph\b|end\s*+$|classDef\s|class\s|style\s|linkStyle\s|click\s|direction\s)")
_ID = _rx(r"[A-Za-z0-9_]++")
_OPENERS = (("(((", ")))"), ("([", "])"), ("[[", "]]"), ("[(", ")]"), ("[/", "/]"), ("[\\", "\\]"),
            ("((", "))"), ("{{", "}}"), ("[", "]"), ("(", ")"), ("{", "}"), (">", "]"))
# an arrow: `-->`, `---`, `==>`, `-.->`, `--o`, `<-->`; then an optional `|label|`
_ARROW = _rx(r"<?(?:-{2,}+|={2,}+|-\.++-)[>ox]?\s*+(?:\|(?P<label>[^|\n]*+)\|\s*+)?")
# the text form `-- label -->` / `== label ==>` / `-. label .->`
_TEXT_ARROW = _rx(r"(?:--|==|-\.)\s++(?P<label>[^->=.\s][^>\n]*?)\s++(?:-{2,}+>|={2,}+>|\.-++>|-{3,}+)\s*+")
_SKILL = _rx(r"`?(?<![a-z0-9])(?P<name>[a-z0-9]++(?:-[a-z0-9]++)++)`?")  # entered at a run's start
_BREAK = _rx(r"(?i)<br\s*+/?>|\\n")
_FIELDS = _rx(r"^\s*+[A-Za-z_]\w*+(?:\s*+[,+&/]\s*+[A-Za-z_]\w*+)*+\s*+$")
_ELSE = frozenset(("else", "otherwise", "no", "n", "false", "default", "other", "anything else", "fail", "failed"))
_YES = frozenset(("yes", "y", "true", "ok", "pass", "passed"))
_NOTE = _rx(r"^\s*+(?:[-*+]\s++)?(?:\*\*|`)?(?P<id>[A-Za-z0-9_][\w-]*+)(?:\*\*|`)?\s*+(?:[—–:]|-\s)\s*+(?P<text>\S.*)$")


class Edge(BaseModel):
    model_config = ConfigDict(frozen=True)
    a: str
    b: str
    label: str
    line: int


class Flowchart(BaseModel):
    model_config = ConfigDict(frozen=True)
    first: int  # the fence (or header) line, 1-based
    last: int  # the closing fence's line
    labels: dict[str, tuple[str, int]]  # node id -> (label, line of its definition)
    order: tuple[str, ...]  # node ids as first met
    edges: tuple[Edge, ...]
    comments: tuple[tuple[int, str], ...]


def _node(s: str, pos: int, labels: dict[str, tuple[str, int]], order: list[str], line: int) -> tuple[str, int] | None:
    m = _ID.match(s, pos)
    if m is None:
        return None
    nid, pos = m.group(0), m.end()
    if nid not in order:
        order.append(nid)
    for open_, close in _OPENERS:
        if s.startswith(open_, pos):
            start = pos + len(open_)
            quoted = s.startswith('"', start)
            end = s.find(close, s.find('"', start + 1) + 1 if quoted else start)
            if end < 0:
                return nid, pos
            labels.setdefault(nid, (s[start:end].strip().strip('"').strip(), line))
            if open_ in ("{", "{{"):
                labels.setdefault(f"{nid}\x00decision", ("", line))
            return nid, end + len(close)
    return nid, pos


def _statement(s: str, line: int, labels: dict[str, tuple[str, int]], order: list[str], edges: list[Edge]) -> None:
    pos, before, label = 0, list[str](), ""
    while True:
        group: list[str] = []
        while True:  # `a & b`
            while pos < len(s) and s[pos] == " ":
                pos += 1
            got = _node(s, pos, labels, order, line)
            if got is None:
                return
            group.append(got[0])
            pos = got[1]
            amp = s.find("&", pos)
            if amp < 0 or s[pos:amp].strip():
                break
            pos = amp + 1
        edges.extend([Edge(a=a, b=b, label=label, line=line) for a in before for b in group])
        while pos < len(s) and s[pos] == " ":
            pos += 1
        arrow = _TEXT_ARROW.match(s, pos) or _ARROW.match(s, pos)
        if arrow is None or arrow.end() == pos:
            return
        label = (arrow.group("label") or "").strip().strip('"').strip()
        before, pos = group, arrow.end()


def find_flowchart(text: str) -> Flowchart | None:
    """The first Mermaid flowchart in `text` (module docstring), or None."""
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        fence = _FENCE.match(raw)
        header = i if _HEADER.match(raw) else None
        if fence is not None and fence.group("info").lower() == "mermaid" and i + 1 < len(lines) \
                and _HEADER.match(lines[i + 1]):
            header = i + 1
        if header is None:
            continue
        close = fence.group("f") if fence is not None and header == i + 1 else None
        end = header + 1
        while end < len(lines) and (lines[end].strip().startswith(close) is False if close else lines[end].strip()):
            end += 1
        labels: dict[str, tuple[str, int]] = {}
        order: list[str] = []
        edges: list[Edge] = []
        comments: list[tuple[int, str]] = []
        for j in range(header + 1, min(end, len(lines))):
            body = lines[j].strip()
            if body.startswith("%%"):
                comments.append((j + 1, body[2:].strip()))
            elif body and not _SKIP.match(body):
                for part in body.split(";"):
                    _statement(part.strip(), j + 1, labels, order, edges)
        if edges:
            return Flowchart(first=(i if close else header) + 1, last=min(end + 1, len(lines)) if close else end,
                             labels=labels, order=tuple(order), edges=tuple(edges), comments=tuple(comments))
    return None


def blank_flowchart(text: str, chart: Flowchart) -> str:
    """`text` with the flowchart's lines blanked (they keep their numbers)."""
    lines = text.split("\n")
    for i in range(chart.first - 1, min(chart.last, len(lines))):
        lines[i] = ""
    return "\n".join(lines)


def _skill(label: str, nid: str, src: Source) -> str | None:
    first = _BREAK.split(label)[0].strip().strip('"`*').strip()
    for cand in (first.split(" ")[0] if first else "", nid.replace("_", "-")):
        m = _SKILL.fullmatch(cand)
        name = m.group("name") if m else None
        if name and (not src.vocabulary.skills or src.vocabulary.skill_for(name)):
            return src.vocabulary.skill_for(name) or name
    return None


def _say(src: Source, line: int, what: str, plainly: str) -> None:
    src.warn(line, f"flowchart: {what} (a guess): write it plainly as {plainly}", "spec.reading")


class _Reader:
    def __init__(self, chart: Flowchart, src: Source) -> None:
        self.chart, self.src = chart, src
        self.skill = {n: s for n in chart.order if (s := _skill(chart.labels.get(n, ("", 0))[0], n, src))}
        self.sid = {n: f"step-{k}" for k, n in enumerate([n for n in chart.order if n in self.skill], start=1)}
        self.into: dict[str, list[Edge]] = {}
        self.out: dict[str, list[Edge]] = {}
        for e in chart.edges:
            self.into.setdefault(e.b, []).append(e)
            self.out.setdefault(e.a, []).append(e)

    def _steps_before(self, node: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """The steps right before `node`, through the nodes that are no step."""
        found: list[str] = []
        for e in self.into.get(node, []):
            if e.a in self.sid:
                found.append(e.a)
            elif e.a not in seen:
                found += self._steps_before(e.a, seen | {node})
        return list(dict.fromkeys(found))

    def _question(self, node: str) -> str:
        label = _BREAK.split(self.chart.labels.get(node, (node, 0))[0])[0]
        return label.strip().strip('"').rstrip("?").strip()

    def branches(self) -> tuple[dict[str, tuple[str, int]], dict[str, tuple[str, int]]]:
        """(node -> (condition, line)), (node -> (the node whose condition it is the otherwise of, line))."""
        when: dict[str, tuple[str, int]] = {}
        otherwise: dict[str, tuple[str, int]] = {}
        for node, out in self.out.items():
            labelled = [e for e in out if e.label]
            words = {e.label.lower() for e in labelled}
            if len(out) < 2 or not labelled or not (f"{node}\x00decision" in self.chart.labels or words & (
                    _ELSE | _YES) or any(not _FIELDS.match(e.label) for e in labelled)):
                continue
            decision = f"{node}\x00decision" in self.chart.labels or bool(words & (_ELSE | _YES))
            said = [e for e in labelled if e.label.lower() not in _ELSE
                    and (decision or not _FIELDS.match(e.label))]  # a field on a box's edge: data passed
            for e in said:
                low = e.label.lower()
                if node in self.sid and _FIELDS.match(e.label) and low not in _YES:
                    when[e.b] = (f"steps['{self.sid[node]}'].output.{e.label.strip()}", e.line)
                elif node not in self.sid and low in _YES and self._question(node):
                    when[e.b] = (self._question(node), e.line)
                elif low not in _YES:
                    when[e.b] = (e.label, e.line)
                else:
                    self.src.warn(e.line, f"flowchart: the edge '{node} -->|{e.label}| {e.b}' is a branch whose "
                                          f"condition is not said, so '{e.b}' runs either way: write the condition "
                                          "on the edge, e.g. `-->|total > 100|`", "spec.unread")
            for e in labelled:
                if e.label.lower() in _ELSE and said and said[0].b in when:
                    otherwise[e.b] = (said[0].b, e.line)
        return when, otherwise

    def steps(self) -> list[StepSpec]:
        when, otherwise = self.branches()
        branched = set(when) | set(otherwise)
        steps: list[StepSpec] = []
        for node, sid in self.sid.items():
            label, at = self.chart.labels.get(node, (node, self.chart.first))
            where = self.src.where(at)
            deps = [self.sid[d] for d in self._steps_before(node)]
            before = [e for e in self.into.get(node, []) if e.a in self.sid]
            inputs = [FieldSpec(name=f.strip(), source=f"steps.{self.sid[e.a]}.output.{f.strip()}",
                              where=self.src.where(e.line))
                      for e in before if e.label and e.b not in branched and _FIELDS.match(e.label)
                      for f in e.label.replace("&", ",").replace("+", ",").replace("/", ",").split(",")]
            for e in before:
                if e.label and e.b not in branched and _FIELDS.match(e.label):
                    _say(self.src, e.line, f"the edge label '{e.label}' read as the output of '{e.a}' passed to "
                                           f"'{node}'", f"an input line of '{node}': '{e.label} from {e.a}'")
            update: dict[str, object] = {}
            if node in when:
                cond, line = when[node]
                update["when"] = cond
                said = cond.replace("steps['", "").replace("'].output.", " output ")
                _say(self.src, line, f"'{node}' runs only when {said} (is true)", f"'Only if {said}' under '{node}'")
            if node in otherwise and otherwise[node][0] in self.sid:
                other, line = otherwise[node]
                update.update(otherwise_of=self.sid[other], otherwise_where=self.src.where(line))
                _say(self.src, line, f"'{node}' runs only when '{other}' did not", f"'Otherwise:' under '{node}'")
            ways = [e for e in self.into.get(node, []) if e.a in branched or e.a in when or e.a in otherwise]
            if len(deps) >= 2 and ways:
                update["join"] = "any"
                _say(self.src, ways[0].line, f"'{node}' runs once after whichever of "
                                             f"{', '.join(n for n in self._steps_before(node))} ran",
                     f"'After whichever of ... ran' under '{node}'")
            branched |= {node} if node in branched or (ways and "join" not in update) else set()
            steps.append(StepSpec(
                id=sid, number=int(sid.rsplit("-", 1)[1]), name=node, where=where, form="list",
                description=" ".join(_BREAK.split(label)[1:]).strip(), skill=self.skill[node], skill_where=where,
                inputs=tuple(inputs), depends_on=tuple(deps), depends_where=where if not deps else None,
                mentions=(Mention(text=self.skill[node], where=where),),
                readings=(Reading(what="step", where=where, text=label[:80],
                                  note=f"a flowchart node whose label names `{self.skill[node]}`: a step, after "
                                       "the nodes whose edges point to it"),),
            ).model_copy(update=update))
        return steps


def read_flowchart(chart: Flowchart, text: str, src: Source) -> tuple[list[StepSpec], set[int]]:
    """The steps of a flowchart (module docstring) and the lines of the notes read as their text
    (to blank before the rest of the document is read)."""
    reader = _Reader(chart, src)
    steps = reader.steps()
    by_name = {**{n: reader.sid[n] for n in reader.sid}, **{s: reader.sid[n] for n, s in reader.skill.items()}}
    texts: dict[str, list[SpecText]] = {}
    used: set[int] = set()
    for line, comment in chart.comments:
        named = [by_name[w] for w in _ID.findall(comment) if w in by_name]
        if named:
            texts.setdefault(named[0], []).append(SpecText(text=comment, line=line))
        elif comment and (by_label := node_by_label(comment, {n: chart.labels.get(n, ("", 0))[0]
                                                                for n in reader.sid})) is not None:
            node, word = by_label  # "%% P4 is cranky at night: ...": P4 is a word of cls's label
            texts.setdefault(reader.sid[node], []).append(SpecText(text=comment, line=line))
            src.warn(line, f"flowchart: the comment '{comment[:60]}' names no node id; it is read for '{node}', "
                           f"whose label has '{word}': start it with the node's id ('%% {node}: ...') to say so",
                     "spec.placed")
        elif comment:
            src.warn(line, f"flowchart: the comment '{comment[:60]}' names no node, so it is not read: start it "
                           "with the node's id ('%% load: 2 retries, 30s apart')", "spec.unread")
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        note = _NOTE.match(lines[i]) if not chart.first <= i + 1 <= chart.last else None
        if note is None or note.group("id") not in by_name:
            i += 1
            continue
        start, body = i + 1, [note.group("text")]
        while i + 1 < len(lines) and lines[i + 1].startswith((" ", "\t")) and lines[i + 1].strip():
            i += 1
            body.append(lines[i].strip())
        used.update(range(start, i + 2))
        texts.setdefault(by_name[note.group("id")], []).append(SpecText(text=" ".join(body), line=start))
        i += 1
    steps = [s.model_copy(update={"texts": (*s.texts, *texts[s.id])}) if s.id in texts else s for s in steps]
    for node in chart.order:
        if node not in reader.sid and node not in reader.out and node not in reader.into:
            src.warn(chart.labels.get(node, ("", chart.first))[1], f"flowchart: the node '{node}' has no edge and "
                                                                    "names no skill; it is not read", "spec.unread")
    return steps, used


def flowchart_steps(chart: Flowchart, text: str, src: Source) -> tuple[list[StepSpec], str]:
    """The steps of the flowchart, and `text` with the diagram and the notes read as step text
    blanked (they keep their numbers). `markdown.read_markdown` reads a chart only into a source
    of its own, kept when the chart gives steps."""
    steps, used = read_flowchart(chart, text, src)
    lines = blank_flowchart(text, chart).split("\n")
    for line in used:
        if line <= len(lines):
            lines[line - 1] = ""
    return steps, "\n".join(lines)


_rx.save()

"""Code-like text in a syntax no reader knows, read by its skill calls and the skills' own field names.

A stranger's spec may be written in any language (Ruby, Tcl, Go, Elixir, SAS, a JCL deck, a namelist, ...).
What skillweave knows before it reads the file is the catalog: each skill's name, and each skill's input
and output field names (`Vocabulary.inputs_of`, `outputs_of`). This reader leans on those and not on the
syntax:

    # 1) pull the day's bookings                      a comment right above a call: the step's text
    bookings = call("pull-day-bookings", day: $DAY)   a step: a catalog skill named in code (any quoting or
                                                      letter case, `Pull_Day_Bookings`, `EXEC SKILL=X`)
      day := run.day                                  in its block, `key SEP value` where key is an input of
                                                      THAT skill (`=`, `:`, `=>`, `<-`, `:=`, `->`, `-key v`)
    ROOMS=STEP01.ROOMS   x->{f}   $x{f}   x%f   x::f   a reference to a step's output field: its id, label,
    x['f']   @x.f   &X   ${X}   args.day               skill name or the variable its result went to; the
                                                      run's input container (`run`, `args`, `params`, `ctx`,
                                                      `ARGV`, ...) or a sigil (`$X`, `&X`): a workflow input
    for t in x.trays / x.trays.each do |t|            a loop around the call (or a `for_each`/`FOREACH=` key):
                                                      the step runs once per item, `t.f` the item's field
    push @all, call(...)   all << call(...)           a gather: a later step reading `all` reads every result
    if (x.f == 'y') { ... } else { ... }              a condition around the call (or a `when`/`if` key);
                                                      `.eq.`, `-eq`, `eq`, `===` are `==`, `&&`, `.and.` `and`
    after: [a, b]   depends_on = a   needs a          an explicit wait

The step's block is the brackets opened on its line, else the object or group around it (`{ ... }`, an
`[section]`, a namelist group), else its indented body, else the lines up to the next call. A skill name in
a comment, in a sentence in quotes, after `print`/`echo`, or as the value of an `after`/`when`/`description`
key calls nothing. A key in the block that is no input of the step's skill is said not read; a field of
the skill no key names is bound as the planner binds it. Comments in the block or right above it are the
step's texts, read by the policy and success readers; comments before the first step are the title, the
intent and the whole-run sentences. The reading is a guess about the file's shape: it is warned at line 1.

It is tried only where no other reader reads the file (`wired_spec`): text no detector claims, a script the
script runbook reader finds no call in, text whose lines are mostly code.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass, field

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.c_macros54 import assigned_call, fill_in_names, macro_loop
from orchestrator.spec.check import SpecParts
from orchestrator.spec.cobol55 import cobol_comment, cobol_trailing, rules_above_label, wire_using
from orchestrator.spec.code_docs54 import doc_lines
from orchestrator.spec.code_flow54 import (
    assigned_above,
    assigned_wrapped,
    block_var,
    entry_params,
    is_await,
    name_awaited,
    pipe_subject,
    piped,
)
from orchestrator.spec.commands54 import (
    assignment,
    command_getter,
    indented_under,
    positional,
    same_named,
    word_pairs,
)
from orchestrator.spec.comment_rules54 import own_rules
from orchestrator.spec.config_steps54 import (
    ConfigKeys,
    braced,
    braced_refs,
    either_ref,
    holds_inputs,
    hyphen_steps,
    label_steps,
    line_value,
    literal_named,
    otherwise_of,
    read_config_keys,
    run_key,
    unbound_reference,
    under_comments,
)
from orchestrator.spec.lisp_forms55 import destructured_inputs, lisp_code, lisp_like
from orchestrator.spec.missed_calls54 import calls_instead
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source
from orchestrator.spec.under_call54 import own_clause, under_previous
from orchestrator.spec.under_call55 import hangs_indented

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TAG = "tag:yaml.org,2002:"
BY_CALLS_SAID = "no reader knows this file's format: it is read by its skill calls"
UNREAD_SAID = "names no step, input or item this file sets"  # a reference taken as the text itself
MAX_BLOCK = 400  # a block is at most this many lines (a bracket never closed does not take the file)
MAX_STEPS = 200

_WORD = _rx(r"[A-Za-z_][\w-]{0,120}+")
_PREPROC = _rx(r"^#\s*+(?:define|include|if|ifdef|ifndef|endif|else|elif|undef|pragma|region|endregion)\b")
_REM = _rx(r"^(?:rem\b|::)", re.I)
_SAY = _rx(r"^(?:[$@]?\w+\s*+=\s*+)?(?:print|printf|println|puts|echo|say|log|warn|die|raise|throw|message|"
           r"write-host|write-output|write-verbose|display|msgbox|debug\.print|console\.log|console\.error|"
           r"fmt\.print\w*+|io\.puts|io:format|logger\.\w++|log\.\w++|put|disp|cat|writeln|trace)\b(?!-)", re.I)
# a key and its separator just before a position: `key = `, `"key": `, `key => `, `-Key `
_KEY_BEFORE = _rx(r"(?P<key>[A-Za-z_][\w-]{0,60}+)[\"']?\s*+(?:=>|:=|<-|->|=|:)\s*+[\"'\[(]?\s*+$")
_PAIR = _rx(r"(?<![\w$@%&\-])(?<![\w)\]}\"'.]\.)(?P<q>[\"']?)(?P<key>[A-Za-z_][\w-]{0,60}+)(?P=q)\s*+"
            r"(?P<sep>=>|:=|<-|->|=(?![=~>])|:(?![:=]))\s*+")
_TUPLE = _rx(r"(?<![\w$\])}>.])[({]\s*+(?P<q>[\"':]?)(?P<key>[A-Za-z_][\w-]{0,60}+)(?P=q)\s*+,\s*+(?=\S)")
_DASHED = _rx(r"(?<![\w-])--?(?P<key>[A-Za-z_][\w-]{0,60}+)(?:=|\s++)(?=[^\s-])")
_HEADER = _rx(r"^\s*+(?:\[{1,2}+\s*+(?P<a>[\w.\- \"']{1,80}?)\s*+\]{1,2}+|&(?P<b>\w{1,80}+)|<(?P<c>[\w-]{1,40}+)\b[^>]{0,300}+>"
              r"|(?P<d>[\w.-]{1,80}+)\s*+:)\s*+$")
_LABELS = ("id", "key", "name", "step", "label", "as", "ref", "stepid", "stepname", "task")
_ID_PAIR = _rx(r"(?<![\w-])[\"']?(?P<key>id|key|name|step|label|as|ref|step_?id|step_?name|task|out|output|result|into|save_?as|store_?as)\b[\"']?"
               r"(?:\s*+(?:=>|:=|=|:)\s*+|\s++)[\"':]?(?P<value>[A-Za-z_][\w-]{0,80}+)", re.I)
_OPENER_NAME = _rx(r"[\"'](?P<a>[A-Za-z_][\w-]{0,80}+)[\"']|(?P<b>[A-Za-z_][\w-]{0,80}+)\s*+(?:\{|\(|\bdo|:|=\s*+\{)\s*+$")
_DEP_CALL = _rx(r"\b(?:after|depends_?on|dependsOn|needs|requires|wait_?for|run_?after|mustRunAfter|upstream)\s*+\("
                r"(?P<names>[^()\n]{0,300}+)\)", re.I)
_LEAD_LABEL = _rx(r"^\s*+(?:/{2}|\.|@|:)?(?P<label>[A-Za-z_][\w-]{0,40}+)\s++(?=\S)")
_DECL_LABEL = _rx(r"^\s*+(?:step|task|job|stage|node|define|def|proc|sub|function|func|fn|rule|target|block)\s++"
                  r"[\"':]?(?P<label>[A-Za-z_][\w-]{0,80}+)", re.I)
_ASSIGNED = _rx(r"(?:^\s*+|[;{(]\s*+)(?:(?:my|our|local|let|const|var|val|auto|dim|set|def|final|global)\s++|"
                r"(?:[A-Za-z_][\w.:]{0,40}+(?:<[\w, ]{1,40}+>)?[*?&]?\s++))?"
                r"(?:\{\s*+:ok\s*+,\s*+)?[$@%&]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?:,\s*+\w++\s*+)?\}?\s*+"
                r"(?::=|<<-|<-|=(?![=~>])|\bas\b)\s*+(?:await\s++|try\s++)?[\[(]?\s*+(?:[\w.:&$]{0,60}+\s*+\(?\s*+"
                r"(?:[\w.&*$]{1,40}+\s*+,\s*+){0,3}+)?$", re.I)
_TCL_SET = _rx(r"(?:^|\[)\s*+set\s++(?P<var>[A-Za-z_]\w{0,60}+)\s++\[?\s*+(?:[\w.:]{1,40}+\s*+)?$", re.I)
_GATHER = _rx(r"(?:\bpush\s*+\(?\s*+@(?P<a>\w{1,60}+)\s*+,|\blappend\s++(?P<b>\w{1,60}+)\s|"
              r"\b(?P<c>\w{1,60}+)\s*+(?:<<|\+=|\.append\s*+\(|\.push\s*+\(|\.add\s*+\(|\.Add\s*+\(|=\s*+append\s*+\(\s*+\w++\s*+,))")
_FOR_KEYS = frozenset({"foreach", "for_each", "each", "for", "over", "map", "map_over", "loop", "iterate", "with_items",
                       "foreachitem", "loop_over", "for_each_of", "fan_out", "fanout", "scatter", "items"})
_DEP_KEYS = frozenset({"after", "depends", "depends_on", "dependson", "needs", "requires", "wait_for", "waitfor",
                       "waits_for", "run_after", "runafter", "upstream", "follows", "prereq", "prereqs"})
_COND_KEYS = frozenset({"when", "if", "only_if", "onlyif", "condition", "cond", "run_if", "runif", "unless_not",
                        "only_when", "onlywhen", "guard"})
_TEXT_KEYS = frozenset({"description", "desc", "title", "note", "notes", "comment", "summary", "doc", "help", "text",
                        "message", "msg", "label", "about", "purpose"})
_SKILL_KEYS = frozenset({"skill", "uses", "use", "run", "call", "exec", "tool", "action", "invoke", "skill_name",
                         "skillname", "program", "pgm", "command", "cmd"})
_CONTAINERS = frozenset({"run", "input", "inputs", "args", "argv", "params", "param", "parameters", "ctx", "context",
                         "env", "opts", "options", "vars", "request", "req", "arguments", "parm", "parms", "wf",
                         "workflow", "job", "sysparm", "settings", "cfg", "config", "globals", "payload", "event"})
_EACH_HEADS = frozenset({"each", "item", "it", "_", "row", "this", "element", "elem", "x"})
_LOOP_A = _rx(r"\b(?:for|foreach|for\s++each|forall|foreach-object)\s*+\(?\s*+(?:my\s++|var\s++|let\s++|const\s++|val\s++|"
              r"auto\s++|local\s++)?[$@%&]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?:,\s*+[$]?\w{1,60}+\s*+)?"
              r"(?:\bin\b|\bof\b|:=\s*+range\b|<-|:|=|\bas\b|(?=\())\s*+(?P<list>[^\n]{1,300}+)$", re.I)
_LOOP_PHP = _rx(r"\bforeach\s*+\(\s*+(?P<list>[^\n]{1,200}?)\s++as\s++[$&]?(?P<var>\w{1,60}+)\s*+\)", re.I)
_LOOP_METHOD = _rx(r"\.\s*+(?:each|forEach|map|collect|each_with_index|"
                   r"for_each|par_iter\(\)\.for_each|iter\(\)\.for_each)\b\s*+(?:do\b)?\s*+[({]?\s*+\|?\s*+\(?\s*+"
                   r"(?:fn\s++|function\s*+\(\s*+|lambda\s++)?[$]?(?P<var>\w{1,60}+)")
_LOOP_FUNC = _rx(r"\b(?:each|map|lapply|sapply|vapply|Enum\.each|Enum\.map|Task\.async_stream|forEach|foreach|mapcar|"
                 r"for_each|parallel_map|pmap|walk)\s*+\(\s*+(?P<list>[^,()\n]{1,200}+)\s*+,\s*+(?:fn\s++|function\s*+\(\s*+|"
                 r"lambda\s++|\\)?\(?\s*+[$]?(?P<var>\w{1,60}+)", re.I)
_LOOP_HS = _rx(r"\b(?:forM_?+|mapM_?+|for_|traverse_?+|forConcurrently_?+|mapConcurrently_?+)\s++"
               r"(?P<list>\([^()\n]{1,200}+\)|[\w.']{1,80}+)\s*+(?:\$\s*+)?\\\s*+(?P<var>\w{1,60}+)\s*+->")
_LOOP_INTO = _rx(r"^\s*+(?:let\s++|var\s++|val\s++|const\s++|my\s++)?[$@]?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?:<-|:=|=(?!=))")
_LOOP_TCL = _rx(r"\bforeach\s++(?P<var>\w{1,60}+)\s++(?P<list>\[[^\[\]\n]{1,200}+\]|\S{1,200}+)\s*+\{?\s*+$", re.I)
_LOOP_WORD = _rx(r"\b(?:for|foreach|each|forEach|map|lapply|sapply|loop|FOREACH|FOR|forM_?|mapM_?|for_|traverse_?|"
                 r"forConcurrently_?|mapConcurrently_?)(?![\w'])")
_IF = _rx(r"^\s*+\}?\s*+(?P<kw>if|elsif|elif|elseif|else\s++if|unless|when|IF|ELSE\s*+IF|ElseIf|If)\b\s*+"
          r"(?P<cond>[^\n]{1,400}+)$")
_ELSE = _rx(r"^\s*+\}?\s*+(?:else|otherwise|ELSE|Else|default)\b\s*+(?::|\{|->|then|do|THEN)?\s*+\{?\s*+$")
_COND_TAIL = _rx(r"(?<!\s)\s*+(?:\{|then|THEN|Then|do|DO|:|->|\)\s*+\{|\bbegin\b)\s*+$")
_OPENERS = _rx(r"(?:\bdo(?:\s*+\|[^|\n]{0,80}+\|)?|\bthen|\bbegin|\bTHEN|\bThen|\bDO|->)\s*+$")
_CLOSERS = _rx(r"^\s*+(?:end\b|fi\b|done\b|esac\b|endif\b|endfor\b|endforeach\b|endwhile\b|wend\b|next\b|loop\b|"
               r"END\b|End\b|Next\b|ENDIF\b|END-IF\b|ENDDO\b|enddo\b|end\s*+do\b)", re.I)
_MIDDLES = _rx(r"^\s*+(?:else|elsif|elif|elseif|else\s++if|ELSE|Else|ElseIf|ELSEIF)\b")
# the string-joining operator after `"key="` (`"key=" v`, `'key=' + v`, `"key=" . $v`, `'key=' || v`, `"k=" & v`)
_JOINED = _rx(r"[ \t]*+(?:\+|\.\.?|\|\||&|<>|\+\+)?[ \t]*+(?=[^\s,;)\]}])")
_NUMBER = _rx(r"^[+-]?\d{1,15}+(?:\.\d{1,15}+)?$")
_REF_PARTS = _rx(r"[A-Za-z_][\w-]{0,80}+|\*|\d{1,6}+")
_JOIN_NEXT = _rx(r"^(?:and|or|but|then|after|before|with|without|of|to|in|on|until|at|by|per|plus|max|min|waiting|than|"
                 r"from|into|up)\b", re.I)
_JOIN_PREV = _rx(r"(?:[,\-(&+]|\band|\bor|\bthen|\bbut|\bthe|\ba|\bof|\bto|\bif|\bfor|\bwith|\bas)\s*+$", re.I)
_CODE_SHAPE = _rx(r"[;{}()\[\]]\s*+$|^\s*+[}\])]|(?:=>|:=|<-|->|==|!=|&&|\|\|)|^\s*+(?:if|for|foreach|while|end|fi|done|"
                  r"else|def|sub|proc|func|function|fn|set|my|let|var|const|local|call|exec|return|import|use|require|"
                  r"package|module|class|struct|namespace|defmodule|DATA|PROC|RUN|%let|#define|//[A-Z])\b|"
                  r"^\s*+[\w.-]{1,60}+\s*+(?:=|\()|^\s*+[\[&<@$]", re.I)
_PROSE = _rx(r"^\s*+(?:[-*+]\s++\w|\d{1,3}+[.)]\s++[A-Za-z]|#{1,6}+\s++\w|>\s)")
_SENTENCE = _rx(r"(?<![A-Za-z])[A-Za-z]{2,}+[,.]?\s++[A-Za-z]{2,}+\s++[A-Za-z]{2,}+\s++[A-Za-z]{2,}+")


def _norm(name: str) -> str:
    """A name with its case and its word separators taken off: `Tray_ID`, `trayId`, `tray-id` are `trayid`."""
    return re.sub(r"[\W_]++", "", name).lower()


# -- the lines: code and comments ---------------------------------------------------------------------


@dataclass
class Line:
    number: int
    code: str  # the code, the comments taken off
    comment: str  # the comment text, "" for none
    indent: int
    blank: bool  # no code and no comment


def _skip_quote(text: str, i: int) -> int:
    """The index after the string starting at `i` (its quote char), or len(text)."""
    q = text[i]
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == q:
            return j + 1
        j += 1
    return len(text)


def _trailing(code: str, markers: tuple[str, ...]) -> tuple[str, str]:
    """(code, trailing comment) of a line: a marker outside quotes with a space before it."""
    i = 0
    while i < len(code):
        ch = code[i]
        if ch in "\"'`" and (ch != "'" or i == 0 or not code[i - 1].isalnum()):
            i = _skip_quote(code, i)
            continue
        if i > 0 and code[i - 1] in " \t":
            for m in markers:
                if code.startswith(m, i) and (m != "#" or not code.startswith("#{", i)) and (
                        m not in ("--", "!", ";", "%", "'") or code[i + len(m):i + len(m) + 1] in (" ", "\t", "")):
                    return code[:i].rstrip(), code[i + len(m):].strip(" \t*-=<")
        if code.startswith("/*", i):
            end = code.find("*/", i + 2)
            if end > 0:
                said = code[i + 2:end].strip(" *")
                rest, more = _trailing(code[:i] + " " + code[end + 2:], markers)
                return rest, " ".join(x for x in (said, more) if x)
        i += 1
    return code, ""


def split_lines(lines: list[str]) -> list[Line]:
    """Each line's code and comment (module docstring): full-line and trailing comments of the usual markers."""
    jcl = sum(1 for x in lines if x.startswith("//*")) >= 2
    full = {"#": 0, "//": 0, "--": 0, ";": 0, "!": 0, "%": 0, "'": 0}
    out: list[Line] = []
    block_end = ""  # inside a block comment: its closing marker
    closes = {"/*": "*/", "<!--": "-->", "<#": "#>", "{-": "-}", "(*": "*)", "--[[": "]]", "=begin": "=end",
              "=pod": "=cut", "=head1": "=cut", "=head2": "=cut", "=for": "=cut", "%{": "%}"}
    rows: list[tuple[int, str, str, int]] = []
    docs = doc_lines(lines)  # a doc string's lines are prose (`spec.code_docs54`)
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip()
        stripped = text.strip()
        indent = len(text) - len(text.lstrip())
        if number in docs and not block_end:
            rows.append((number, "", docs[number], indent))
            continue
        if block_end:
            cut = stripped.find(block_end)
            if cut >= 0:
                block_end = ""
                said, rest = stripped[:cut], stripped[cut + 2:].strip()
                rows.append((number, rest, said.strip(" *"), indent))
            else:
                rows.append((number, "", stripped.strip("* ").lstrip("#").strip(), indent))
            continue
        if not stripped or (number == 1 and stripped.startswith("#!")):
            rows.append((number, "", "", 0))
            continue
        cobol = cobol_comment(text)  # `*` in column 7, `*>` (`spec.cobol55`)
        if cobol is not None:
            rows.append((number, "", cobol[0], cobol[1]))
            continue
        opener = next((o for o in closes if stripped.startswith(o)), None)
        if opener is not None and not (opener == "/*" and jcl and stripped == "/*"):
            close = closes[opener]
            rest = stripped[len(opener):]
            if close in rest:
                cut = rest.find(close)
                rows.append((number, rest[cut + len(close):].strip(), rest[:cut].strip(" *"), indent))
                continue
            later = next((k for k in range(number, min(len(lines), number + 300)) if close in lines[k]), None)
            if later is not None or opener.startswith("="):
                block_end = close
                rows.append((number, "", rest.strip(" *"), indent))
                continue
        kind = ""
        if stripped.startswith("//*"):
            kind = "//*"
        elif stripped.startswith("//") and not jcl:
            kind = "//"
        elif stripped.startswith("#") and not stripped.startswith("#{") and not (
                _PREPROC.match(stripped) and not (stripped[1:2] in " \t" and _SENTENCE.search(stripped))):
            kind = "#"
        elif stripped.startswith("--") and stripped[2:3] in (" ", "\t", "-", "[", "") and not stripped.startswith("-->"):
            kind = "--"
        elif stripped.startswith(";") or (stripped[:1] in "!%'" and stripped[1:2] in (" ", "\t", "!", "%", "")):
            kind = stripped[0]
        elif _REM.match(stripped):
            kind = "rem"
        if kind:
            full[kind if kind in full else "#"] = full.get(kind if kind in full else "#", 0) + 1
            said = stripped[len(kind):] if kind != "rem" else stripped[3:] if stripped[:3].lower() == "rem" else stripped[2:]
            said = said.lstrip(kind) if kind in (";", "%") else said  # Lisp's `;;`, Erlang's `%%`: one marker
            rows.append((number, "", said.strip().strip("*").strip(), indent))
            continue
        rows.append((number, text, "\x00", indent))
    markers = tuple(m for m in ("#", "//", "--", ";", "!", "%", "'") if m in ("#", "//") or full[m] >= 1)
    markers = (*markers, ";#", "<==", "<--")  # `;#`: Tcl's comment after a command
    for number, code, comment, indent in rows:
        if comment == "\x00":
            code, comment = _trailing(code, markers)
            if not comment and "*>" in code:
                code, comment = cobol_trailing(code)
        out.append(Line(number, code, comment, indent, not code.strip() and not comment))
    return out


# -- brackets and blocks ---------------------------------------------------------------------------------


def _depths(lines: list[Line]) -> tuple[list[int], list[int], list[list[int]]]:
    """Each line's depth before and after it (brackets, and `do`/`then`/`end` words), and the lines that
    opened what is open before it."""
    before: list[int] = []
    after: list[int] = []
    stacks: list[list[int]] = []
    stack: list[int] = []
    for ln in lines:
        before.append(len(stack))
        stacks.append(list(stack))
        code = ln.code
        if _CLOSERS.match(code) and stack:
            stack.pop()
        elif _MIDDLES.match(code) and not code.lstrip().startswith("}") and stack and not code.rstrip().endswith("{"):
            stack.pop()
            before[-1] = len(stack)
            stack.append(ln.number)
        i = 0
        while i < len(code):
            ch = code[i]
            if ch in "\"'`" and (ch != "'" or i == 0 or not code[i - 1].isalnum()):
                i = _skip_quote(code, i)
                continue
            if ch in "([{":
                stack.append(ln.number)
            elif ch in ")]}" and stack:
                stack.pop()
            i += 1
        if _OPENERS.search(code) and not _MIDDLES.match(code):
            stack.append(ln.number)
        if len(stack) > 200:
            del stack[200:]
        after.append(len(stack))
    return before, after, stacks


@dataclass
class _Call:
    index: int  # into the lines
    skill: str
    column: int
    written: str
    start: int = 0  # index of its construct's first line
    end: int = 0  # index of its block's last line
    aliases: set[str] = field(default_factory=set)
    sid: str = ""
    var: str = ""
    gather: str = ""
    number: int = 0


class _Wired:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.vocab = src.vocabulary
        self.lines = split_lines(src.lines)
        if lisp_like(src.lines):  # `(sw :x {:k (:f y)})` read as `sw("x", {k: y.f})` (`spec.lisp_forms55`)
            for ln, code in zip(self.lines, lisp_code([ln.code for ln in self.lines]), strict=True):
                ln.code = code
        self.before, self.after, self.stacks = _depths(self.lines)
        self.by_norm: dict[str, str | None] = {}
        for skill in self.vocab.skills:
            key = _norm(skill)
            self.by_norm[key] = skill if key not in self.by_norm else None
        self.calls: list[_Call] = []
        self.inputs: dict[str, int] = {}  # workflow input name -> line declared
        self.constants: dict[str, object] = {}
        self.items: dict[str, int] = {}  # a loop variable -> its step index (set per step)
        self.input_of: dict[str, str] = {}  # a variable the code reads an input into -> the input's name
        self.item_keys: dict[str, list[str]] = {}  # a list input -> its items' keys, as the header shows them
        self.item_list = ""  # the list input the step being read loops over
        self.containers: set[str] = set()  # variables the parsed arguments went to (`a = parser.parse_args()`)
        self.config = ConfigKeys()  # what a config file's top-level keys said (`spec.config_steps54`)

    # -- finding the calls ------------------------------------------------------------------------------
    def skill_of(self, word: str) -> str | None:
        if len(word) < 3:
            return None
        found = self.vocab.skill_for(word) or self.vocab.cased(word)
        if found is not None:
            return found
        return self.by_norm.get(_norm(word)) if "-" in word or "_" in word or any(c.isupper() for c in word[1:]) \
            else None

    def _is_call(self, code: str, m: re.Match[str]) -> bool:
        start, end = m.start(), m.end()
        after = code[end:end + 3]
        if re.match(r"\.\w{1,30}+\s*+\(", code[end:end + 40]):
            return True  # `AlertManager.call(...)`: a method of the skill's name, called
        if re.match(r"(?:\.[A-Za-z_*]|->|%[A-Za-z]|::|\[['\"]|/[A-Za-z])", after):
            return False  # a reference to the step of that name
        if (start > 0 and code[start - 1] in "$&@") or code[max(0, start - 2):start] in ("${", "$(", "{{"):
            return False
        key = _KEY_BEFORE.search(code[:start])
        if key is not None and key.end() == start:
            word = _norm(key.group("key"))
            if (word in {_norm(k) for k in (*_DEP_KEYS, *_COND_KEYS, *_TEXT_KEYS, *_FOR_KEYS)}
                    and not assigned_call(code, start, end)) \
                    or run_key(key.group("key")):  # `summary = summarise_tanks(...)` a call; `done_when = x ...`: the
                # whole run's check (`spec.config_steps54`)
                return False
        if _SAY.match(code.lstrip()) and not assigned_call(code, start, end):  # `message = f(`: a variable
            return False
        quote = next((q for q in "\"'" if code[:start].count(q) % 2 == 1), None)
        if quote is not None:
            close = code.find(quote, end)
            inner = code[code.rfind(quote, 0, start) + 1:close if close >= 0 else len(code)]
            if len(inner.split()) > 2:
                return False  # a sentence in quotes that names the skill
        return True

    def find_calls(self) -> None:
        for i, ln in enumerate(self.lines):
            if not ln.code.strip():
                continue
            for m in _WORD.finditer(ln.code):
                word = m.group(0).rstrip("-")
                skill = self.skill_of(word)
                if skill is None:
                    continue
                if self._is_call(ln.code, m):
                    self.calls.append(_Call(index=i, skill=skill, column=m.start(), written=word))
                break
            if len(self.calls) >= MAX_STEPS:
                break

    # -- blocks ---------------------------------------------------------------------------------------
    def _close_of(self, i: int, depth: int) -> int:
        """The index of the line at which the depth falls back to `depth` after line `i`."""
        for j in range(i, min(len(self.lines), i + MAX_BLOCK)):
            if self.after[j] <= depth and (j > i or self.after[j] < self.before[i] or j == i):
                if j == i and self.after[i] > depth:
                    continue
                return j
        return min(len(self.lines), i + MAX_BLOCK) - 1

    def _indented_end(self, i: int) -> int:
        ind = self.lines[i].indent
        end = i
        for j in range(i + 1, min(len(self.lines), i + MAX_BLOCK)):
            ln = self.lines[j]
            if ln.blank:
                continue
            if ln.indent <= ind or (not ln.code.strip() and ln.indent <= ind):
                break
            end = j
        return end

    def _index_of(self, number: int) -> int:
        return number - 1

    def blocks(self) -> None:
        calls = self.calls
        for k, c in enumerate(calls):
            i = c.index
            prev = calls[k - 1].index if k else -1
            nxt = calls[k + 1].index if k + 1 < len(calls) else len(self.lines)
            own = i
            if self.after[i] > self.before[i]:
                own = self._close_of(i, self.before[i])
            elif self._indented_end(i) > i:
                own = self._indented_end(i)
            start = i
            if (self.stacks[i] and own == i) or (self.stacks[i] and self.stacks[i][-1] - 1 > prev):
                opener = self._index_of(self.stacks[i][-1])
                close = self._close_of(opener, self.before[opener])
                if opener > prev and close < nxt:
                    start, own = opener, max(own, close)
            if start == i:
                for j in range(i - 1, prev, -1):
                    code = self.lines[j].code
                    if self.lines[j].blank or not code.strip():
                        continue
                    if _HEADER.match(code) and self.before[j] == self.before[i]:
                        start = j
                    break
            c.start, c.end = start, min(own, nxt - 1) if own > i else own
        for k, c in enumerate(calls):
            nxt_start = calls[k + 1].start if k + 1 < len(calls) else len(self.lines)
            if c.end == c.index or (c.end < nxt_start - 1 and self.after[c.end] == self.before[c.start]
                                    and self.lines[c.start].code.strip() and c.start != c.index
                                    and _HEADER.match(self.lines[c.start].code)):
                limit = min(self._lead_start(k + 1) if k + 1 < len(calls) else len(self.lines),
                            c.index + MAX_BLOCK)
                depth = self.before[c.index]
                end = c.end
                for j in range(c.end + 1, limit):
                    ln = self.lines[j]
                    if ln.code.strip() and (self.after[j] < depth or self.before[j] < depth):
                        break
                    if k + 1 == len(calls) and ln.blank:
                        break
                    if ln.code.strip() and (_IF.match(ln.code) or _ELSE.match(ln.code) or _LOOP_WORD.match(ln.code.strip())):
                        break
                    if ln.code.strip() and ln.indent < self.lines[c.index].indent:
                        break
                    end = j
                c.end = end

    def _lead_start(self, k: int) -> int:
        """The index of the first line of the comments right above call `k`'s construct (module docstring)."""
        c = self.calls[k]
        floor = self.calls[k - 1].index if k else -1
        j = c.start - 1
        first = c.start
        blank_seen = False
        while j > floor:
            ln = self.lines[j]
            if ln.blank:
                blank_seen = True
                if first < c.start:
                    break
                j -= 1
                continue
            if ln.code.strip():
                if blank_seen or first < c.start or self._wires(k - 1, ln.code) \
                        or self.after[j] > self.before[c.start] \
                        or _HEADER.match(ln.code) or self.skill_of_line(ln.code):
                    break
            elif ln.comment:
                first = j
            j -= 1
        if k and first < c.start and (under_previous(self.lines, first, c.start, self.calls[k - 1].end)
                                      or hangs_indented(self.src.lines, first, c.start, self.calls[k - 1].end)
                                      or rules_above_label(self.lines, self.calls[k - 1].end, c.start, False)):
            return c.start  # the comments hang under the call before: a blank line after them (`spec.under_call54`),
            # indented under it (`spec.under_call55`), or over the next paragraph's label (`spec.cobol55`)
        return first

    def skill_of_line(self, code: str) -> bool:
        return any(self.skill_of(m.group(0)) for m in _WORD.finditer(code))

    def _wires(self, k: int, code: str) -> bool:
        if k < 0:
            return False
        fields = {_norm(f) for f in self.vocab.inputs_of(self.calls[k].skill) or ()}
        return any(_norm(p.group("key")) in fields for p in _PAIR.finditer(code))

    # -- names ----------------------------------------------------------------------------------------
    def name_steps(self) -> None:
        used: set[str] = set()
        for n, c in enumerate(self.calls, start=1):
            c.number = n
            line = self.lines[c.index].code
            head = line[:c.column]
            for pat in (_TCL_SET, _ASSIGNED):
                m = pat.search(head.rstrip(" \"'"))
                if m is not None and m.group("var").lower() not in ("skill", "name", "uses", "call", "run", "exec"):
                    c.var = m.group("var")
                    break
            # `x = Task.async(fn -> sw(..`, `x =` ending the line above the call: the result is x (`spec.code_flow54`)
            c.var = c.var or assigned_wrapped(head) or assigned_above(self.lines, c.index, c.column)
            if (g := _GATHER.search(head)) is not None:
                c.gather = g.group("a") or g.group("b") or g.group("c") or ""
            labels: list[str] = []
            fields = {_norm(f) for f in self.vocab.inputs_of(c.skill) or ()}
            above = next((j for j in range(c.index - 1, max(-1, c.index - 3), -1) if self.lines[j].code.strip()), -1)
            if not c.var and above >= 0 and self.lines[above].indent < self.lines[c.index].indent \
                    and _LOOP_WORD.search(self.lines[above].code) \
                    and (g := _LOOP_INTO.match(self.lines[above].code)) is not None:
                c.var = c.gather = g.group("var")  # `grades <- forM bins $ \b ->` above the call: its results
            for j in range(c.start, c.end + 1):
                code = self.lines[j].code
                for m in _ID_PAIR.finditer(code):
                    if j == c.index and m.start() >= c.column - 1 and m.group("value") == c.written:
                        continue
                    if _norm(m.group("key")) in fields:
                        continue  # `"name": clientName`: an input of the skill, no label
                    if self.skill_of(m.group("value")) == c.skill and m.group("key").lower() != "id":
                        continue
                    labels.append(m.group("value"))
                    break
                if (h := _HEADER.match(code)) is not None and j == c.start:
                    said = (h.group("a") or h.group("b") or h.group("c") or h.group("d") or "").strip("\"' ")
                    said = said.rsplit(".", 1)[-1].rsplit(" ", 1)[-1]
                    if said and said.lower() not in ("step", "steps", "task", "job", "skill", "else", "otherwise",
                                                     "default", "then", "do", "try", "finally", "begin"):
                        labels.append(said)
                if (d := _DECL_LABEL.match(code)) is not None and d.group("label") != c.written:
                    labels.append(d.group("label"))
            opener_code = self.lines[c.start].code
            if c.start != c.index and not _LOOP_WORD.search(opener_code) and not _IF.match(opener_code) \
                    and not _ELSE.match(opener_code) and not re.match(r"^\s*+(?:go|async|spawn|defer)\b", opener_code) \
                    and not block_var(opener_code) \
                    and (o := _OPENER_NAME.search(opener_code)) is not None:
                said = o.group("a") or o.group("b")
                if not self.skill_of(said) and said.lower() not in ("step", "task", "job", "do", "then", "skill"):
                    labels.insert(0, said)
            lead = _LEAD_LABEL.match(line)
            if lead is not None and c.column > lead.end() - 1 and not self.skill_of(lead.group("label")) \
                    and lead.group("label").lower() not in ("my", "our", "local", "let", "const", "var", "val", "set",
                                                             "call", "run", "exec", "invoke", "push", "return", "def",
                                                             "await", "do", "if", "then", "else", "for", "foreach") \
                    and (line.lstrip().startswith("//") or re.match(r"^\s*+\w[\w-]*+\s++(?:EXEC|exec|CALL|call|RUN|run|"
                                                                    r"SKILL|skill|USES|uses)\b", line)):
                labels.append(lead.group("label"))
            c.aliases = {a.lower() for a in (*labels, c.var, c.gather, c.skill, c.written, str(n)) if a}
            base = next((x for x in labels if x), "") or c.var or c.skill
            sid = re.sub(r"[^\w-]++", "-", base).strip("-") or f"step-{n}"
            if sid.isdigit():
                sid = f"step-{sid}"
            while sid in used:
                sid = f"{sid}-{n}"
            used.add(sid)
            c.sid = sid

    # -- values ---------------------------------------------------------------------------------------
    def step_named(self, head: str, before: int) -> _Call | None:
        low = head.lower().lstrip("$@%&")
        named = [c for c in self.calls[:before] if low in c.aliases]
        if named:
            return named[-1]
        m = re.match(r"^(?:step|stp|s)[-_]?0*(\d{1,4})$", low)
        if m is not None and 0 < int(m.group(1)) <= len(self.calls):
            return self.calls[int(m.group(1)) - 1]
        return None

    def reference(self, text: str, k: int, key: str = "") -> tuple[str, object] | None:
        """(kind, value in the YAML form's words) of a reference in code, or None when it names nothing."""
        raw = text.strip().rstrip(";,").strip()
        sigil = raw[:1] in "$&@%" or raw.startswith("\\")
        inner = raw
        for a, b in (("${{", "}}"), ("{{", "}}"), ("${", "}"), ("$(", ")"), ("#{", "}"), ("%(", ")"), ("%{", "}"),
                     ("@{", "}")):
            if inner.startswith(a) and inner.endswith(b):
                inner, sigil = inner[len(a):-len(b)], True
                break
        if len(inner) > 2 and inner[0] == "%" and inner[-1] == "%":
            inner, sigil = inner[1:-1], True
        inner = _getter(inner)
        inner = inner.lstrip("\\$@%&*").rstrip(".").replace("->", ".").replace("::", ".")
        if inner.endswith("()"):
            inner = inner[:-2]
        applied = _APPLY.match(inner)
        if applied is not None and applied.group("f") not in _NOT_ACCESSORS:  # `grower run`, `binKg b`: f of x
            inner = f"{applied.group('x')}.{applied.group('f')}"
        parts = _REF_PARTS.findall(inner)
        if not parts or (not re.match(r"^[A-Za-z_]", parts[0]) and not (  # `1.rate` where a step is labelled 1
                self.config.labels and len(parts) > 1 and re.match(r"^[A-Za-z_]", parts[1])
                and self.step_named(parts[0], k) is not None)):
            return None
        if parts[0] in self.input_of and parts[0] not in self.inputs:
            parts = [self.input_of[parts[0]], *parts[1:]]
        head, fields = parts[0], parts[1:]
        if head.lower() in ("steps", "step", "results", "outputs", "tasks") and fields:
            head, fields = fields[0], fields[1:]
            if fields and fields[0].lower() in ("output", "outputs", "result", "results"):
                fields = fields[1:]
        if (head.lower() in self.items and self.items[head.lower()] == k) or (head.lower() in _EACH_HEADS and \
                self.items.get("*") == k):
            return "item", "{{ item" + "".join("." + self._item_field(f) for f in fields if f != "*") + " }}"
        step = self.step_named(head, k)
        gathered = next((c for c in self.calls[:k] if c.gather and c.gather.lower() == head.lower()), None)
        if step is None and gathered is not None:
            step = gathered
        if step is not None:
            every = "*" in fields or gathered is step or (not fields and self._looped(step))
            fields = [f for f in fields if f != "*"]
            if every and not fields:
                return "step", "{{ " + step.sid + " | collect }}" if self._looped(step) else "{{ steps." + step.sid + ".output }}"
            if not fields:
                outs = self.vocab.outputs_of(step.skill) or frozenset()
                match = next((o for o in outs if _norm(o) == _norm(key)), None)
                return ("step", "{{ steps." + step.sid + ".output." + match + " }}") if match \
                    else ("step", "{{ steps." + step.sid + ".output }}")
            same = [c for c in self.calls[:k] if step.var and c.var == step.var and c is not step and not gathered]
            if same:  # `dmg = ...` in each arm of an if: the value of whichever ran (`plan.join_sources`)
                return "step", " or ".join(f"{c.sid}." + ".".join(self._out_field(c, fields)) for c in [*same, step])
            return "step", "{{ steps." + step.sid + ".output." + ".".join(self._out_field(step, fields)) + " }}"
        if (head.lower() in _CONTAINERS or head in self.containers) and fields:
            name = key if key and _norm(key) == _norm(fields[0]) else fields[0]
            name = next((i for i in self.inputs if _norm(i) == _norm(fields[0])), name)
            self.inputs.setdefault(name, 0)
            return "input", "{{ inputs." + name + " }}"
        if head in self.constants and not fields:
            return "constant", self.constants[head]
        if head in self.inputs or (sigil and not fields):
            self.inputs.setdefault(head, 0)
            return "input", "{{ inputs." + head + ("." + ".".join(fields) if fields else "") + " }}"
        return None

    def _looped(self, step: _Call) -> bool:
        return bool(getattr(step, "looped", False))

    def _out_field(self, step: _Call, fields: list[str]) -> list[str]:
        outs = self.vocab.outputs_of(step.skill) or frozenset()
        first = next((o for o in outs if _norm(o) == _norm(fields[0])), None)
        if first is None and fields[0].isupper():
            first = fields[0].lower()
        return [first or fields[0], *fields[1:]]

    def _item_field(self, name: str) -> str:
        """An item's field as the header shows the items' keys (`binKg` -> `kg`, `binNo` -> `bin`), else as written."""
        keys = self.item_keys.get(self.item_list, [])
        norm = _norm(name)
        for hit in (next((x for x in keys if _norm(x) == norm), None),
                    next((x for x in keys if norm.endswith(_norm(x))), None),
                    next((x for x in keys if norm.startswith(_norm(x))), None)):
            if hit is not None:
                return hit
        return name.lower() if name.isupper() else name

    def _set_by_program(self, word: str, k: int) -> int | None:
        """The line before step `k`'s call at which a program file (not a config file) sets the bare identifier `word`
        on a line that calls no skill (`InputBox, LearnerNo`, `read -r learner`, `gets(learner)`), else None."""
        from pathlib import PurePath

        if not re.match(r"^[A-Za-z_]\w{0,60}+$", word) or \
                PurePath(self.src.path).suffix.lower() not in CODE_SUFFIXES - _CONFIG_SUFFIXES:
            return None
        calls = {c.index for c in self.calls}
        word_at = re.compile(rf"(?<![\w$@%&.\"'-]){re.escape(word)}(?![\w\"'(-])")
        for j in range(min(self.calls[k].index, len(self.lines))):
            if j not in calls and word_at.search(self.lines[j].code):
                return j + 1
        return None

    def value(self, text: str, k: int, key: str, line: int) -> object:
        """A value in code in the YAML form's words: a literal, or a reference (`reference`)."""
        said = text.strip().rstrip(",;").strip()
        if said.startswith("\\@") or said.startswith("\\"):
            said = said.lstrip("\\")
        if (either := either_ref(self, said, k)) is not None:  # '3a/3b.status': whichever ran (`spec.config_steps54`)
            return either
        if (inside := braced(said)) is not None and (ref := self.reference(inside, k, key)) is not None:
            return ref[1]  # `{loa}`, `{1.rate}`: a placeholder naming an input or a step's field (`spec.config_steps54`)
        named, literal = literal_named(self, said)
        if named:  # 'term_start' where a top-level key `term_start` is set: its value
            return literal
        if len(said) >= 2 and said[0] == said[-1] and said[0] in "\"'`":
            inner = said[1:-1]
            ref = self.reference(inner, k, key) if re.match(r"^(?:\$\{?|\{\{|&|%|#\{)", inner) else None
            if ref is None and _QUOTED_REF.match(inner):  # 'age-band.band', 'ask.dob': a step's or the inputs' field
                ref = self.reference(inner, k, key)
                ref = ref if ref is not None and ref[0] in ("step", "input", "item") else None
            if ref is not None and (ref[0] != "constant" or inner[:1] in "$%&"):  # `"$LIMIT"`: the constant itself
                return ref[1]
            if unbound_reference(inner):
                self.src.warn(line, f"the value '{inner[:60]}' is written as a reference, but `{inner.split('.')[0][:40]}`"
                                    " names no step, input or key this file sets: it is read as the text itself",
                              "spec.unread")
            return inner
        low = said.lower().strip(".")
        if low in ("true", "$true", "yes", "t", "#t"):
            return True
        if low in ("false", "$false", "no", "f", "#f", "nil"):
            return False if low != "nil" else None
        if _NUMBER.match(said):
            return float(said) if "." in said else int(said)
        if said.startswith(":") and re.match(r"^:\w++$", said):
            return said[1:]
        ref = self.reference(said, k, key)
        if ref is not None:
            return ref[1]
        if (wrapped := _WRAPPED.match(said)) is not None:  # `S (grower run)`, `String(x)`: the value inside
            return self.value(wrapped.group("a") or wrapped.group("b"), k, key, line)
        if (set_by := self._set_by_program(said, k)) is not None:  # `InputBox, LearnerNo, ...` then `{no: LearnerNo}`
            self.inputs.setdefault(said, 0)
            self.src.warn(line, f"`{said}` is set by the program at line {set_by} (not by a skill call), so it is "
                                f"read as the run's input `{said}`: give it when the run starts", "spec.reading")
            return "{{ inputs." + said + " }}"
        if re.match(r"^[\w.-]{1,80}+$", said) and not re.match(r"^[A-Za-z_]\w*+\.[A-Za-z_]", said):
            return said  # a bare word: the text itself (`POSTAGE=2ND`, `mode = fast`)
        self.src.warn(line, f"the value `{said[:60]}` {UNREAD_SAID}: it is read as the text itself", "spec.unread")
        return said


# a field read by a getter: `jget(w, "kg")`, `get(x, 'f')`; `scan.Int("points")`, `x.get("f")`; `docket .: "variety"`,
# `x ! "f"`, `x ^. "f"`; an unwrap after it (`x["f"]!`, `x?.f`, `x.f.unwrap()`)
_GET_FN = _rx(r"^[A-Za-z_][\w.:]{0,60}+\s*+\(\s*+(?P<obj>[$@%&*]?[A-Za-z_]\w{0,60}+)\s*+,\s*+[\"'](?P<f>[\w-]{1,60}+)[\"']\s*+\)$")
_GET_METHOD = _rx(r"^(?P<obj>[$@%&*]?[A-Za-z_]\w{0,60}+)\s*+(?:\.|->|::)\s*+[A-Za-z_]\w{0,30}+\s*+\(\s*+[\"'](?P<f>[\w-]{1,60}+)[\"']\s*+\)$")
_GET_OP = _rx(r"^(?P<obj>[$@%&*]?[A-Za-z_]\w{0,60}+)\s*+(?:\.:|\.\?|\^\.|!|#|\?\.)\s*+[\"'](?P<f>[\w-]{1,60}+)[\"']$")
_UNWRAP = _rx(r"(?:[!?]|\.unwrap\(\)|\.get\(\)|\.value)$")
# a constructor or cast around a value: `S (grower run)`, `String(x)`, `int(x)`, `N (binKg b)`, `L grades`
_WRAPPED = _rx(r"^(?:[A-Z]\w{0,20}+|int|str|float|float64|int64|string|bool|number|Number|String|toString|tostring|"
               r"tonumber|Just|Some|Ok)\s*+(?:\((?P<a>[^()]{1,200}+)\)|(?P<b>[A-Za-z_$][\w.]{0,80}+))$")


# a function applied to a name, as in Haskell or an ML: `grower run`, `binKg b` (the field `grower` of `run`)
_APPLY = _rx(r"^(?P<f>[a-z_][\w']{0,60}+)\s++(?P<x>[a-z_]\w{0,60}+)$")
_NOT_ACCESSORS = frozenset({"not", "and", "or", "in", "is", "return", "pure", "print", "show", "new", "await", "go",
                            "typeof", "sizeof", "len", "length", "map", "then", "else", "of", "as", "do", "let", "if"})


def _getter(text: str) -> str:
    """`x.f` for a field read by a getter (`_GET_FN`, `_GET_METHOD`, `_GET_OP`), an unwrap taken off; else `text`."""
    said = text.strip()
    if (command := command_getter(said)) is not None:  # `[dict get $x f]`, `(get x :f)`, `x.fetch(:f)`
        return command
    for _ in range(3):
        cut = _UNWRAP.sub("", said).strip()
        if cut == said:
            break
        said = cut
    for pat in (_GET_FN, _GET_METHOD, _GET_OP):
        m = pat.match(said)
        if m is not None:
            return f"{m.group('obj')}.{m.group('f')}"
    return said


# a reference written in quotes, as a config module writes one: `'age-band.band'`, `"ask.dob"`, `'steps.x.out'`
_QUOTED_REF = _rx(r"^[A-Za-z_][\w-]{0,60}+(?:\.[A-Za-z_][\w-]{0,60}+){1,4}+$")


def _value_text(code: str, at: int, stops: str = ",; \t") -> str:
    """The value written at `at`: a string in quotes, else up to one of `stops` (a comma, `;` or space) or a closing
    bracket outside brackets."""
    if at >= len(code):
        return ""
    if code[at] in "\"'`" and stops != ",":
        end = _skip_quote(code, at)
        return code[at:end]
    depth, i = 0, at
    while i < len(code):
        ch = code[i]
        if ch in "\"'":
            i = _skip_quote(code, i)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch in stops:
            break
        i += 1
    return code[at:i].strip()


@dataclass
class _Step:
    call: _Call
    inputs: dict[str, object] = field(default_factory=dict)
    deps: list[str] = field(default_factory=list)
    when: str = ""
    for_each: str = ""
    otherwise: str = ""  # the step whose condition must be false (`'else' => '3a'`)
    texts: list[SpecText] = field(default_factory=list)
    notes: list[Reading] = field(default_factory=list)


_OPS = ((r"===", "=="), (r"!==", "!="), (r"\.eq\.", " == "), (r"\.ne\.", " != "), (r"\.gt\.", " > "),
        (r"\.lt\.", " < "), (r"\.ge\.", " >= "), (r"\.le\.", " <= "), (r"\.and\.", " and "), (r"\.or\.", " or "),
        (r"\.not\.", " not "), (r"\.true\.", " true "), (r"\.false\.", " false "), (r"(?<![\w-])-eq\b", " == "),
        (r"(?<![\w-])-ne\b", " != "), (r"(?<![\w-])-gt\b", " > "), (r"(?<![\w-])-lt\b", " < "),
        (r"(?<![\w-])-ge\b", " >= "), (r"(?<![\w-])-le\b", " <= "), (r"(?<![\w-])-and\b", " and "),
        (r"(?<![\w-])-or\b", " or "), (r"\beq\b", " == "), (r"\bne\b", " != "), (r"\bEQ\b", " == "),
        (r"\bNE\b", " != "), (r"\bGT\b", " > "), (r"\bLT\b", " < "), (r"\bAND\b", " and "), (r"\bOR\b", " or "),
        (r"&&", " and "), (r"\|\|", " or "), (r"<>|~=|/=", " != "), (r"\bAndAlso\b", " and "),
        (r"\bOrElse\b", " or "), (r"\$true\b|\bTRUE\b|\bTrue\b", "true"), (r"\$false\b|\bFALSE\b|\bFalse\b", "false"),
        (r"!(?!=)", " not "), (r"(?<![=!<>])=(?!=)", " == "))
_OPS_RX = [(_rx(a), b) for a, b in _OPS]
_EXPR_REF = _rx(r"(?:\$\{|#\{|\{\{|[$@&%])?[A-Za-z_][\w]{0,60}+(?:(?:\.|->|%|::|/)\{?[A-Za-z_][\w]{0,60}+\}?|\[['\"][\w-]{1,60}+['\"]\]"
                r"|\{['\"]?\w{1,60}+['\"]?\}|\(\w{1,60}+\))*+\}{0,2}+\.?")


_GETTER_IN = _rx(r"(?:[A-Za-z_][\w.:]{0,60}+\s*+\(\s*+)?[$@%&*]?[A-Za-z_]\w{0,60}+\s*+(?:,\s*+|\.\s*+[A-Za-z_]\w{0,30}+"
                 r"\s*+\(\s*+|\.:\s*+|\^\.\s*+|\[\s*+)[\"'][\w-]{1,60}+[\"']\s*+[)\]]?!?")


def _condition(w: _Wired, text: str, k: int) -> str:
    """A condition in code in the condition reader's words: operators as Python's, references as `step.field`."""
    said = text.strip()
    said = _COND_TAIL.sub("", said).strip()
    if said.startswith("(") and said.count("(") == said.count(")") + 1:  # `if (a > 4) {`: its tail's `)` went
        said = said[1:].strip()
    while said[:1] + said[-1:] in ("()", "{}", "[]") and said.count(said[0]) == said.count(said[-1]):
        said = said[1:-1].strip()
    quoted: list[str] = []

    def keep(m: re.Match[str]) -> str:
        quoted.append(m.group(0))
        return f"\x01{len(quoted) - 1}\x01"

    said = _GETTER_IN.sub(lambda m: _getter(m.group(0)), said)  # `scan.Int("points")`, `jget(w, "kg")`: `x.f`
    said = re.sub(r"\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'", keep, said)

    def stash(text: str) -> str:
        quoted.append(text)
        return f"\x01{len(quoted) - 1}\x01"
    said = hyphen_steps(w, said, k, stash)  # `class-capacity.spaces`: one step's name (`spec.config_steps54`)
    said = braced_refs(w, said, k, stash)  # `{1.band} is large`: step 1's band (`spec.config_steps54`)
    for pat, repl in _OPS_RX:
        said = pat.sub(repl, said)

    def ref(m: re.Match[str]) -> str:
        word = m.group(0)
        if word.lower() in ("and", "or", "not", "true", "false", "null", "none", "in", "is"):
            return word
        got = w.reference(word, k)
        if got is None:
            return word
        kind, value = got
        if kind == "constant":
            return repr(value) if isinstance(value, str) else str(value)
        text = str(value).removeprefix("{{ ").removesuffix(" }}")
        if text.startswith("steps."):
            return text.removeprefix("steps.").replace(".output.", ".", 1)
        return text
    said = _EXPR_REF.sub(ref, said)
    said = re.sub(r"\x01(\d++)\x01", lambda m: quoted[int(m.group(1))], said)
    return " ".join(said.split())


def _pairs(code: str) -> list[tuple[str, int, str]]:
    """(key, column, value text) of each `key SEP value` and `-key value` of a line of code; a pair inside
    quotes (`"venue=$venue"`) ends at its closing quote."""
    out = []
    for m in _PAIR.finditer(code):
        q = code[m.start() - 1] if m.start() and not m.group("q") else ""
        if q in ("\"", "'") and code[:m.start() - 1].count(q) % 2 == 0:
            end = code.find(q, m.end())
            said = code[m.end():end if end >= 0 else len(code)].strip()
            if not said and end >= 0 and (joined := _JOINED.match(code, end + 1)) is not None:
                said = _value_text(code, joined.end())  # `"hotel=" hotel`, `'day=' + day`: the value joined on
            out.append((m.group("key"), m.start(), said))
            continue
        out.append((m.group("key"), m.start(), _value_text(code, m.end())))
    out += [(m.group("key"), m.start(), _value_text(code, m.end())) for m in _DASHED.finditer(code)]
    seen = {col for _, col, _ in out}
    for m in _TUPLE.finditer(code):  # `("grower", S (grower run))`, `{day, Day}`: a pair written as a tuple
        if m.start("key") - len(m.group("q")) not in seen:
            out.append((m.group("key"), m.start("key"), _value_text(code, m.end(), ",")))  # up to its comma or bracket
    return sorted(out, key=lambda x: x[1])


def _loop(w: _Wired, c: _Call, k: int) -> tuple[str, str, int] | None:
    """(list text, item variable, line) of a loop around call `c` (its own line counts), or None."""
    above = next((j for j in range(c.index - 1, max(-1, c.index - 3), -1) if w.lines[j].code.strip()), -1)
    lead = [above + 1] if above >= 0 and w.lines[above].indent < w.lines[c.index].indent \
        and _OPENERS.search(w.lines[above].code) else []  # `forM xs $ \b ->` on the line above, its body indented
    if not lead and (under := indented_under(w.lines, c.index)) is not None:
        lead = [under + 1]  # `for sn in pnl["boards"]:` with the call in its indented body
    for opener in [*reversed(w.stacks[c.index]), *lead, c.index + 1]:
        j = opener - 1
        if j < 0 or j >= len(w.lines):
            continue
        code = w.lines[j].code
        prev = w.calls[k - 1].index if k else -1
        if j != c.index and (j <= prev and any(p.index > j for p in w.calls[:k])):
            continue
        if (macro := macro_loop(code)) is not None:  # `for_each (tank, TANKS) {` (`spec.c_macros54`)
            return macro[0], macro[1], j + 1
        if not _LOOP_WORD.search(code):
            continue
        for pat in (_LOOP_PHP, _LOOP_HS, _LOOP_FUNC, _LOOP_METHOD, _LOOP_TCL, _LOOP_A):
            m = pat.search(code)
            if m is not None:
                if pat is _LOOP_METHOD:
                    head = re.search(r"[\w$@%&.\[\]'\"{}>:-]{1,200}+$", code[:m.start()].rstrip())
                    if head is None:
                        continue
                    listed = head.group(0)
                else:
                    listed = m.group("list").strip()
                listed = re.sub(r"(?<!\s)\s*+(?:\{|\bdo|:|->|\bthen)\s*+$", "", listed).strip()
                while listed.startswith("(") and listed.endswith(")"):
                    listed = listed[1:-1].strip()
                listed = re.sub(r"^@\{\s*+(.+?)\s*+\}$", r"\1", listed.strip("() "))
                return listed, m.group("var"), j + 1
    return None


def _branch(w: _Wired, c: _Call) -> tuple[str | None, int] | None:
    """(condition text or None for an else arm, line) of the innermost if/else around call `c` (its brackets, else
    the line its body is indented under: `if x:` / `else:`), or None."""
    above = c.index - 1
    while above >= 0 and (not w.lines[above].code.strip() or w.lines[above].indent >= w.lines[c.index].indent):
        if c.index - above > MAX_BLOCK:
            above = -1
            break
        above -= 1
    lead = [above + 1] if above >= 0 and w.lines[above].code.rstrip().endswith(":") \
        and (_IF.match(w.lines[above].code) or _ELSE.match(w.lines[above].code)) else []
    for opener in [*reversed(w.stacks[c.index]), *lead]:
        j = opener - 1
        code = w.lines[j].code
        if _ELSE.match(code):
            return None, j + 1
        m = _IF.match(code)
        if m is not None:
            cond = m.group("cond")
            if m.group("kw").lower() == "unless":
                cond = f"not ({_COND_TAIL.sub('', cond)})"
            return cond, j + 1
        if _LOOP_WORD.search(code):
            continue
    return None


def read_wired(src: Source) -> SpecParts | None:
    """The parts of code-like text read by its skill calls (module docstring), or None when it calls no
    catalog skill in code."""
    if not src.vocabulary or not src.lines:
        return None
    w = _Wired(src)
    w.find_calls()
    if not w.calls:
        return None
    w.blocks()
    w.name_steps()
    name_awaited(w.lines, w.calls)  # `x = Task.await(y)`: x names y's step (`spec.code_flow54`)
    _declared(w)
    read_config_keys(w)
    label_steps(w)
    steps = [_read_step(w, k) for k in range(len(w.calls))]
    _otherwise(steps)
    return _parts(w, steps)


def _declared(w: _Wired) -> None:
    """The workflow inputs and constants the code sets before the first call: `X = ARGV[0]`, `SET X=`,
    `$x = shift @ARGV`, `x = nil`; `T = 'RPV-2'` a constant."""
    first = w.calls[0].start
    w.containers.update(entry_params(w.lines, w.calls[0].index))  # `def run(order)`: order.x an input
    for name, j in destructured_inputs(w.src.lines, w.calls[0].index):  # `(defn run [{:keys [a b]}]`: a, b inputs
        w.inputs.setdefault(name, j + 1)  # (`spec.lisp_forms55`)
    _said_inputs(w, first)
    fill_ins: list[int] = []  # lines of declarations left empty to be filled in (`let name = ""`)
    for j in range(first):
        code = w.lines[j].code.strip()
        if not code:
            continue
        if (said := assignment(code)) is not None:  # `set panel [lindex $argv 0]`, `set LINE "SMT-2"`
            kind, name, constant = said
            if kind == "input":
                w.inputs[name] = j + 1
                fill_ins.append(j)
            else:
                w.constants[name] = constant
            continue
        m = re.match(r"^(?:(?://\s*+)?SET\s++|set\s++|my\s++|our\s++|local\s++|let\s++|const\s++|var\s++|val\s++|"
                     r"%let\s++|export\s++|declare\s++|param\s*+\(?\s*+)?[$@%&]?(?P<name>[A-Za-z_]\w{0,60}+)\s*+"
                     r"(?::\s*+\w++\s*+)?(?:=|:=|<-|\s)\s*+(?P<value>.*+)$", code)
        if m is None:
            continue
        name, value = m.group("name"), m.group("value").strip().rstrip(";").strip()
        if re.search(r"ARGV|argv|sys\.argv|\$\d|\bargs\b|\bparams?\b|getenv|ENV\[|\$ENV|os\.environ|\binput\s*+\(|"
                     r"Read-Host|commandArgs|\$1|\bnil\b|\bNone\b|\bnull\b|\bundef\b|<==|\bYYYY|\bNNN|^['\"][A-Z?_ -]{0,20}+['\"]$",
                     value) or positional(value) or (w.lines[j].comment and "<==" in (w.src.lines[j] if j < len(w.src.lines) else "")):
            w.inputs.setdefault(name, j + 1)
            w.inputs[name] = j + 1
            fill_ins.append(j)
        elif value in ("0", "0.0", "[]", "{}") and any(abs(j - f) <= 1 for f in fill_ins[-1:]):
            w.inputs[name] = j + 1  # `let sizeCm = 0` among the empty fill-ins: one of them
            fill_ins.append(j)
        elif re.match(r"^(?:\"[^\"]{0,200}+\"|'[^']{0,200}+'|-?\d{1,15}+(?:\.\d{1,6}+)?)$", value) \
                and not re.match(r"^(?:use|require|import|package)$", name):
            w.constants[name] = value[1:-1] if value[:1] in "\"'" else (float(value) if "." in value else int(value))


# inputs said before the first call: `-v hotel=GRAND01` on a usage line; a flag the code defines
# (`reg := flag.String("reg", ...)`, `flag.IntVar(&n, "fuel", ...)`, `add_argument("--day")`); the keys of an
# object a comment shows as the run's input (`run.json = { "grower": ..., "bins": [ {"bin": ..} ] }`)
_V_ASSIGN = _rx(r"(?<![\w-])-v\s++(?P<name>[A-Za-z_]\w{0,60}+)=")
_FLAG_DEF = _rx(r"(?:(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|=)\s*+)?(?:flag|flags|pflag|kingpin|optparse|parser|argparse)\."
                r"(?:\w{0,20}+)\s*+\(\s*+(?:&(?P<var2>\w{1,60}+)\s*+,\s*+)?[\"'](?:--?)?(?P<name>[A-Za-z_][\w-]{0,60}+)[\"']")
_PARSED = _rx(r"^\s*+(?:\w{1,10}+\s++)?(?P<var>[A-Za-z_]\w{0,60}+)\s*+(?::=|=)\s*+(?:\w{1,40}+\.){0,3}+(?:parse_args|parseArgs|"
               r"parse_known_args|getopts?|ParseArgs|docopt)\s*+\(")
_ARG_DEF = _rx(r"\badd_argument\s*+\(\s*+[\"']--?(?P<name>[A-Za-z_][\w-]{0,60}+)[\"']")
_OBJ_KEY = _rx(r"[\"'](?P<key>[A-Za-z_][\w-]{0,60}+)[\"']\s*+:")


def _object_keys(text: str) -> list[tuple[str, list[str]]]:
    """The keys of a `{ "k": v, ... }` at its top level, each with the keys of the objects in its list value."""
    out: list[tuple[str, list[str]]] = []
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth <= 0:
                break
        elif ch in "\"'":
            m = _OBJ_KEY.match(text, i)
            if m is not None and depth == 1:
                out.append((m.group("key"), []))
            elif m is not None and depth == 3 and out:
                out[-1][1].append(m.group("key"))
            i = m.end() if m is not None else _skip_quote(text, i)
            continue
        i += 1
    return out


def _said_inputs(w: _Wired, first: int) -> None:
    """The inputs said before the first call (`_V_ASSIGN`, `_FLAG_DEF`, `_ARG_DEF`, a run object in a comment)."""
    for name, line in fill_in_names(w.lines[:first], [ln.code for ln in w.lines]):  # "fill in before you run: TANKS = ..." (`spec.c_macros54`)
        w.inputs.setdefault(name, line)
    for j in range(first):
        ln = w.lines[j]
        if (parsed := _PARSED.match(ln.code)) is not None:
            w.containers.add(parsed.group("var"))
        for m in _V_ASSIGN.finditer(ln.comment):
            w.inputs.setdefault(m.group("name"), ln.number)
        for pat in (_FLAG_DEF, _ARG_DEF):
            for m in pat.finditer(ln.code):
                name = m.group("name").replace("-", "_")
                w.inputs.setdefault(name, ln.number)
                var = m.groupdict().get("var") or m.groupdict().get("var2")
                if var and var != name:
                    w.input_of[var] = name
        if ln.comment and "{" in ln.comment and _OBJ_KEY.search(ln.comment) and \
                re.search(r"(?:^|[\s=:])\{\s*+[\"']", ln.comment):
            text = ln.comment[ln.comment.index("{"):]
            for key, inner in _object_keys(text):
                w.inputs.setdefault(key, ln.number)
                if inner:
                    w.item_keys[key] = inner


def _read_step(w: _Wired, k: int) -> _Step:
    c = w.calls[k]
    step = _Step(call=c)
    fields = w.vocab.inputs_of(c.skill)
    by_norm = {_norm(f): f for f in fields or ()}
    loop = _loop(w, c, k)
    w.items = {}
    if loop is not None:
        listed, var, line = loop
        got = w.reference(listed, k, "")
        if got is not None and got[0] in ("step", "input"):
            step.for_each = str(got[1])
            w.items = {var.lower(): k}
            w.item_list = str(got[1]).removeprefix("{{ inputs.").removesuffix(" }}")
            c.looped = True  # type: ignore[attr-defined]
            step.notes.append(Reading(what="for_each", where=w.src.where(line), text=listed[:160],
                                      note=f"a loop around the call: once per item of {got[1]}, `{var}` the item"))
    seen: set[str] = set()
    subject = pipe_subject(w.lines, c.index, c.column)  # `order |> then(&sw(.., &1.date))`: &1 is order
    for j in range(c.start, c.end + 1):
        ln = w.lines[j]
        code = piped(ln.code, subject)
        for d in _DEP_CALL.finditer(code):
            for name in re.findall(r"[A-Za-z_][\w-]{0,80}+", d.group("names")):
                dep = w.step_named(name, k)
                if dep is not None and dep.sid not in step.deps:
                    step.deps.append(dep.sid)
        if j == c.index and c.var:
            cut = code.find(c.written, c.column) if c.written in code[c.column:] else c.column
            cut -= 1 if cut > 0 and code[cut - 1] in "\"'`" else 0  # the skill name's own quotes go too
            code = " " * cut + code[cut:]
        pairs = _pairs(code)
        if j == c.index:  # `skill load-panel panel_id $panel`: the fields as words after the skill's name
            named = {_norm(key) for key, _, _ in pairs}
            pairs = sorted([*pairs, *(p for p in word_pairs(code, c.column + len(c.written), set(by_norm))
                                      if _norm(p[0]) not in named)], key=lambda p: p[1])
        for key, col, said in pairs:
            norm = _norm(key)
            if norm in by_norm and by_norm[norm] not in seen:
                name = by_norm[norm]
                seen.add(name)
                if not said:
                    continue
                step.inputs[name] = w.value(said, k, name, ln.number)
                continue
            if key.lower() in _FOR_KEYS and not step.for_each and said:
                got = w.reference(said.strip("\"'"), k, "")
                if got is not None and got[0] in ("step", "input"):
                    step.for_each = str(got[1])
                    w.items = {"*": k}
                    c.looped = True  # type: ignore[attr-defined]
                continue
            if key.lower() in _DEP_KEYS or norm in {_norm(d) for d in _DEP_KEYS}:
                said = line_value(code, key, said)  # `after = 2 or 3`: the whole line (`spec.config_steps54`)
                for name in re.findall(r"[A-Za-z_0-9][\w-]{0,80}+", _value_text(code, code.find(said, col)) or said):
                    dep = w.step_named(name, k)
                    if dep is not None and dep.sid not in step.deps:
                        step.deps.append(dep.sid)
                continue
            if norm in {_norm(x) for x in _COND_KEYS} and said:
                said = line_value(code, key, said)  # `only_if = {1.band} is large` (`spec.config_steps54`)
                step.when = _condition(w, said.strip("\"'`"), k) or step.when
                continue
            if (arm := otherwise_of(w, key, said, k, ln.number)) is not None:
                step.otherwise = arm or step.otherwise
                continue
            if norm in {_norm(x) for x in (*_SKILL_KEYS, *_LABELS, *_TEXT_KEYS)} or w.skill_of(key):
                continue
            if fields is not None and j != c.index and ln.code.strip() and not _IF.match(ln.code) \
                    and not _LOOP_WORD.search(ln.code) and not macro_loop(ln.code) and said and key not in w.inputs \
                    and not holds_inputs(key, said) and not is_await(ln.code):
                w.src.warn(ln.number, f"`{key}` is no input of the skill {c.skill} (its inputs: "
                                      f"{', '.join(sorted(fields)) or 'none'}), so it is not read", "spec.unread")
        if ln.comment:
            step.texts.append(SpecText(text=ln.comment, line=ln.number))
    step.texts += under_comments(w, k)  # comments indented under the item, after it: its rules
    said_lines = {t.line for t in step.texts}
    step.texts += [SpecText(text=w.lines[j].comment, line=w.lines[j].number)  # above a label (`spec.cobol55`)
                   for j in rules_above_label(w.lines, c.end, w.calls[k + 1].start if k + 1 < len(w.calls)
                                              else len(w.lines), k + 1 == len(w.calls))
                   if w.lines[j].number not in said_lines]
    wire_using(w, k, step)  # `CALL .. USING 'skill' A B RETURNING C` (`spec.cobol55`)
    earlier = {_norm(o) for p in w.calls[:k] for o in w.vocab.outputs_of(p.skill) or ()}
    for name, said in same_named(fields, set(step.inputs), w.inputs, earlier).items():
        step.inputs[name] = "{{ inputs." + said + " }}"  # `kennel_code` of `set kennelCode [lindex $argv 0]`
    if not step.when:
        branch = _branch(w, c)
        if branch is not None:
            cond, line = branch
            step.when = "else" if cond is None else _condition(w, cond, k)
            step.notes.append(Reading(what="condition", where=w.src.where(line), text=(cond or "else")[:160],
                                      note=f"the call is inside this branch: {step.when}"))
    for value in [*step.inputs.values(), step.for_each, step.when]:
        either = re.findall(r"(?:^| or )([\w-]++)\.", str(value)) if re.fullmatch(
            r"[\w-]++\.[\w.]++(?: or [\w-]++\.[\w.]++)++", str(value)) else []
        for sid in [*re.findall(r"steps\.([\w-]+)\.output|\{\{ ([\w-]+) \| collect", str(value)),
                    *((x, "") for x in either)]:
            name = sid[0] or sid[1]
            if name not in step.deps and name != c.sid:
                step.deps.append(name)
    for s in w.calls[:k]:
        if step.when and re.search(rf"(?<![\w-]){re.escape(s.sid)}\.", step.when) and s.sid not in step.deps:
            step.deps.append(s.sid)
    for waited in list(step.deps):  # `dmg = ...` in both arms of an if: the step waits for whichever ran
        called = next((x for x in w.calls[:k] if x.sid == waited), None)
        for other in w.calls[:k]:
            if called is not None and called.var and other.var == called.var and other.sid not in step.deps:
                step.deps.insert(step.deps.index(waited), other.sid)
    return step


def _otherwise(steps: list[_Step]) -> None:
    """An else arm's step is the otherwise of the condition before it."""
    for k, step in enumerate(steps):
        if step.when == "else" and not any(s.when and s.when != "else" for s in steps[:k]):
            step.when = ""
        elif step.when == "else" or step.otherwise:  # it waits for what the condition it is the otherwise of reads
            named = [s for s in steps[:k] if s.call.sid == step.otherwise and s.when]  # `'else' => '3a'`
            cond = named[0] if named else next((s for s in reversed(steps[:k]) if s.when and s.when != "else"), step)
            for s in steps[:k]:
                if re.search(rf"(?<![\w-]){re.escape(s.call.sid)}\.", cond.when) and s.call.sid not in step.deps:
                    step.deps.append(s.call.sid)


def _join(texts: list[SpecText]) -> list[SpecText]:
    from orchestrator.spec.approval_scope54 import banner, starts_rule

    out: list[SpecText] = []
    for t in texts:
        last = out[-1] if out else None
        if last is not None and t.line == last.line + last.text.count("\n") + 1 and not last.text.rstrip().endswith(
                (".", "!", "?", ":")) and (_JOIN_NEXT.match(t.text) or _JOIN_PREV.search(last.text)) \
                and not starts_rule(t.text) and not own_clause(t.text) and not banner(last.text.rsplit("\n", 1)[-1]) \
                and not banner(t.text) and not own_rules(last.text.rsplit("\n", 1)[-1], t.text):
            # "on error try again ...", "and if it errors retry it twice": rules of their own (`spec.approval_scope54`,
            # `spec.under_call54`); "--- STEP 3 ---": a title
            out[-1] = last.model_copy(update={"text": f"{last.text}\n{t.text}"})
        else:
            out.append(t)
    return out


def _mark(path: str, line: int) -> Mark:
    return Mark(path, 0, max(line, 1) - 1, 0, None, None)


def _node(value: object, line: int, path: str) -> Node:
    mark = _mark(path, line)
    if isinstance(value, dict):
        return MappingNode(f"{_TAG}map", [(ScalarNode(f"{_TAG}str", str(k), mark, mark, style='"'), _node(v, line, path))
                                          for k, v in value.items()], mark, mark)
    if isinstance(value, list | tuple):
        return SequenceNode(f"{_TAG}seq", [_node(v, line, path) for v in value], mark, mark)
    if isinstance(value, bool):
        return ScalarNode(f"{_TAG}bool", "true" if value else "false", mark, mark)
    if value is None:
        return ScalarNode(f"{_TAG}null", "null", mark, mark)
    if isinstance(value, int | float):
        return ScalarNode(f"{_TAG}{'int' if isinstance(value, int) else 'float'}", str(value), mark, mark)
    return ScalarNode(f"{_TAG}str", str(value), mark, mark, style='"')


def _parts(w: _Wired, steps: list[_Step]) -> SpecParts:
    from orchestrator.spec.yaml_form import read_yaml

    src = w.src
    covered: set[int] = set()
    for k, s in enumerate(steps):
        lead = w._lead_start(k)
        covered.update(range(lead, s.call.end + 1))
        under = {t.line for t in steps[k - 1].texts} if k else set()  # indented under the step before: its own
        under |= {w.config.titles[k][0]} if k in w.config.titles else set()  # `// 3a - title`: its name, no rule
        above = [SpecText(text=w.lines[j].comment, line=w.lines[j].number) for j in range(lead, s.call.start)
                 if w.lines[j].comment and not w.lines[j].code.strip() and w.lines[j].number not in under]
        s.texts = _join([*above, *s.texts])
    header = [(ln.number, ln.comment) for j, ln in enumerate(w.lines) if j < w.calls[0].start and j not in covered
              and ln.comment]
    src.warn(1, f"{BY_CALLS_SAID} ({len(steps)} found: "
                f"{', '.join(s.call.skill for s in steps[:6])}{', ...' if len(steps) > 6 else ''}), a guess about its "
                "shape; each call's block gives the step its inputs (keys named as the skill's inputs), its "
                "condition, its loop and its comments", "spec.suffix")
    items: dict[str, object] = {}
    if w.inputs:
        items["inputs"] = {name: {"description": w.config.notes[name]} if name in w.config.notes else {}
                           for name in w.inputs}
    step_maps = []
    for s in steps:
        entry: dict[str, object] = {"id": s.call.sid, "skill": s.call.skill}
        if (named := w.config.titles.get(s.call.number - 1)) is not None:
            entry["name"] = named[1]
        if s.inputs:
            entry["input"] = s.inputs
        if s.for_each:
            entry["for_each"] = s.for_each
        if s.when:
            entry["when"] = s.when
        if s.otherwise:
            entry["otherwise"] = s.otherwise
        entry["depends_on"] = s.deps
        step_maps.append((s.call.number and w.lines[s.call.index].number, entry))
    root_items: list[tuple[Node, Node]] = []
    for key, value in items.items():
        root_items.append((ScalarNode(f"{_TAG}str", key, _mark(src.path, 1), _mark(src.path, 1)),
                           _node(value, min(w.inputs.values() or [1]) or 1, src.path)))
        if key == "inputs" and isinstance(value, dict):  # each input at the line that declares it
            root_items[-1][1].value = [(ScalarNode(f"{_TAG}str", name, _mark(src.path, w.inputs.get(name) or 1),
                                                   _mark(src.path, w.inputs.get(name) or 1), style='"'),
                                        _node(v, w.inputs.get(name) or 1, src.path)) for name, v in value.items()]
    seq = SequenceNode(f"{_TAG}seq", [_node(e, line, src.path) for line, e in step_maps],
                       _mark(src.path, step_maps[0][0]), _mark(src.path, step_maps[0][0]))
    root_items.append((ScalarNode(f"{_TAG}str", "steps", seq.start_mark, seq.start_mark), seq))
    prose = [""] * len(src.lines)
    for ln in w.lines:
        if ln.comment and 0 < ln.number <= len(prose):
            prose[ln.number - 1] = ln.comment
    src.code = list(src.lines)
    src.text = "\n".join(prose)
    src.lines = list(prose)
    root = MappingNode(f"{_TAG}map", root_items, _mark(src.path, 1), _mark(src.path, 1))
    parts = read_yaml(src, root)
    out = []
    for s, step in zip(steps, parts.steps, strict=False):
        texts, update, held = _approval(w, s, step)
        out.append(step.model_copy(update={**update, "texts": (*step.texts, *texts),
                                           "readings": (*s.notes, *step.readings, *held)}))
    title = header[0][1] if header else parts.title
    intent = "\n".join(t for _, t in header[1:] if t) if header else parts.intent
    for line, text in header:
        read_run_limit(text, line, src, who="whole run")
    return parts.model_copy(update={"steps": tuple(out), "title": parts.title or title, "intent": parts.intent or intent})


_ARTICLE_TIME = _rx(r"(?i)\b(?:an|a|one)\s++(hour|minute|min|day|second|sec)\b")
# a bound said beside the person's yes: "(over 4 hours)", "more than 40 crates", "under 2 kg"
_BOUND = _rx(r"(?i)\b(?P<op>over|more\s++than|above|greater\s++than|at\s++least|under|less\s++than|below|fewer\s++than)"
             r"\s++(?P<n>\d{1,9}+(?:\.\d{1,6}+)?)\s*+(?P<word>[A-Za-z_]{2,40}+)")
_BOUND_OPS = {"over": ">", "more than": ">", "above": ">", "greater than": ">", "at least": ">=", "under": "<",
              "less than": "<", "below": "<", "fewer than": "<"}


def _bound_of(w: _Wired, s: _Step, sentence: str) -> str | None:
    """The approval's condition from a bound said in its sentence on a field the step takes (`over 4 hours` where
    the step's input `hours` comes from `est`: `est.hours > 4`), else None."""
    for m in _BOUND.finditer(sentence):
        word = _norm(m.group("word"))
        names = (word, word.rstrip("s"), word + "s")
        op = _BOUND_OPS[" ".join(m.group("op").lower().split())]
        for name, value in s.inputs.items():
            got = re.fullmatch(r"\{\{ steps\.([\w-]++)\.output(?:\.([\w.]++))? \}\}", str(value))
            if _norm(name) in names:
                said = f"{got.group(1)}.{got.group(2)}" if got and got.group(2) else \
                    f"inputs.{name}" if "inputs." in str(value) else None
                if said is not None:
                    return f"{said} {op} {m.group('n')}"
        for value in s.inputs.values():  # a field of a step the step takes from: `priced.hours`
            got = re.fullmatch(r"\{\{ steps\.([\w-]++)\.output(?:\.[\w.]++)? \}\}", str(value))
            called = next((c for c in w.calls if got and c.sid == got.group(1)), None)
            out = next((o for o in w.vocab.outputs_of(called.skill) or () if _norm(o) in names), None) if called else None
            if called is not None and out is not None:
                return f"{called.sid}.{out} {op} {m.group('n')}"
    return None


def _approval(w: _Wired, s: _Step, step: StepSpec) -> tuple[list[SpecText], dict[str, object], tuple[Reading, ...]]:
    """The step's comments without the block that asks a person's yes (`approval_hold.approval_in`), and the
    approval it sets: its condition from a bound on a field the step takes (`_bound_of`), its wait, what silence
    means; the block is no policy of the step's own ("over 4 hours" no timeout)."""
    from orchestrator.spec.approval_hold import approval_in
    from orchestrator.spec.approval_scope54 import (
        banner,
        clock_wait,
        input_refs,
        named_fields,
        refs_back,
        scope_condition,
        scope_said,
        step_title,
    )

    blocks: list[list[SpecText]] = []  # the comments in runs of lines next to each other
    for said in s.texts[:MAX_BLOCK]:
        if banner(said.text):  # "--- STEP 3: creamery notice ---": the step's title, no part of a rule
            continue
        if blocks and said.line == blocks[-1][-1].line + blocks[-1][-1].text.count("\n") + 1 \
                and len(blocks[-1]) < 12:
            blocks[-1].append(said)
        else:
            blocks.append([said])
    for block in blocks:
        body = list(block)
        head, _, under = body[0].text.partition("\n")
        if step_title(head) and (under or len(body) > 1):  # "3 press": the step's title (`spec.approval_scope54`)
            body = [body[0].model_copy(update={"text": under, "line": body[0].line + 1}), *body[1:]] if under \
                else body[1:]
        said = body[0]
        text = _ARTICLE_TIME.sub(r"1 \1", " ".join(t.text for t in body))
        text, fields = named_fields(text, {c.sid for c in w.calls})  # quote("price") -> price (`quote.price`)
        found = approval_in(text, w.src)
        if found is None:
            continue
        policy, sentence, when = found
        when, sentence = (refs_back(when, fields) if when else when), refs_back(sentence, fields)
        scope = scope_said(sentence)  # "RED band only:": on a value the step is given (`spec.approval_scope54`)
        scoped = scope_condition(scope, input_refs(s.inputs)) if scope else None
        when = _bound_of(w, s, sentence) or scoped or when  # a bound on a field the step takes, else as said
        if policy.timeout_s is None and (clock := clock_wait(text)) is not None:
            w.src.warn(said.line, f"{step.id}: the approval's wait '{clock}' is a time of day, not a length: "
                                  "it waits with no time limit; write `wait up to <time>`", "spec.approval")
        policy = policy.model_copy(update={"when": when})
        wait = (f"; it waits {policy.timeout_s:g}s, then {'approves' if policy.on_timeout == 'approve' else 'rejects'}"
                if policy.timeout_s is not None else "; it waits with no time limit")
        where = w.src.where(said.line)
        w.src.warn(said.line, f"{step.id}: '{sentence[:80]}' is read as a person's approval of {step.id}, the call "
                              f"under the comment: it waits for it {f'only when {when}' if when else 'on every run'}"
                              f"{wait}", "spec.approval")
        rest = [t for t in s.texts if t not in block]
        return rest, {"approval": policy, "field_where": {**step.field_where, "approval": where}}, (
            Reading(what="approval", where=where, text=sentence[:120],
                    note="needs a person's approval" + (f" only when {when}" if when else "")),)
    return s.texts, {}, ()


def code_share(text: str) -> float:
    """The share of a text's written lines that read as code, not prose (0 for none)."""
    code = prose = 0
    for raw in text.splitlines()[:2000]:
        s = raw.strip()
        if not s:
            continue
        if _PROSE.match(s):
            prose += 1
        elif _CODE_SHAPE.search(s) and not (_SENTENCE.search(s) and not re.search(r"[;{}()=]", s)):
            code += 1
        elif s[:1] in "#/;!%'-" or s.lower().startswith("rem "):
            continue  # a comment: neither
        else:
            prose += 1
    return code / (code + prose) if code + prose else 0.0


_rx.save()


FIRST: ContextVar[bool] = ContextVar("wired52_first", default=True)  # off: the other readers' reading of a code file
# stands (the planner's second reading when the calls' reading is refused, `compile._other_reading`)
ENABLED = True  # off: the readers as before this reader (`bench/carry_over.py` compares the two)
WIRED_SHARE = 0.75  # ... and its calls name a source for at least this share of their skills' inputs
CODE_SHARE = 0.5  # text whose written lines are at least this share code is read by its calls first


def _fresh(src: Source, text: str) -> Source:
    fresh = Source(text, src.path, src.vocabulary)
    fresh.anchored = src.anchored
    return fresh


def adopt(src: Source, fresh: Source) -> None:
    """`src` takes the state of the source `fresh` was read from (its text, lines and findings)."""
    src.text, src.lines, src.code = fresh.text, fresh.lines, fresh.code
    src.errors[:], src.warnings[:] = fresh.errors, fresh.warnings
    src.readings[:], src.unread[:] = fresh.readings, fresh.unread


def wired_text(src: Source, text: str) -> tuple[SpecParts, Source] | None:
    """Text no detector claims (read as markdown text), read by its skill calls when its lines are mostly
    code and it calls a catalog skill in code; None otherwise (the markdown readers read it as before)."""
    if not ENABLED or not src.vocabulary or not src.anchored or code_share(text) < CODE_SHARE:
        return None
    return wired_script(src, text)


def _wired_fields(parts: SpecParts) -> int:
    """How many of the steps' inputs a reading bound to a source (a step's output, an input, an item, a literal)."""
    return sum(1 for step in parts.steps for f in step.inputs if f.source is not None)


def better_wired(src: Source, text: str, anchored: SpecParts) -> tuple[SpecParts, Source] | None:
    """Mostly-code text the markdown readers read anchored on its skills, read by its skill calls instead when
    that reading finds the same skills and binds more of their fields; None: the anchored reading stands."""
    if not ENABLED or not src.vocabulary or code_share(text) < CODE_SHARE:
        return None
    got = wired_script(src, text)
    if got is None:
        return None
    fields = sum(len(src.vocabulary.inputs_of(s.skill or "") or ()) for s in got[0].steps)
    bound = _wired_fields(got[0])
    if len(got[0].steps) != len(anchored.steps) or not fields or bound < WIRED_SHARE * fields:
        return None  # the anchored reading stands: the calls do not say how most fields are wired
    return got


# a suffix that names a programming or config language: such a file is read by its skill calls first
_SUFFIXES = (
    ".go .swift .hs .lhs .awk .rb .tcl .ex .exs .sas .ahk .php .c .h .cc .cpp .hpp .cs .java .kt .kts .scala .jl .rs .pl "
    ".pm .r .m .f .f90 .f95 .for .cob .cbl .pas .clj .cljs .erl .hrl .ml .mli .fs .fsx .dart .ts .js .mjs .cjs .lua .ps1 "
    ".psm1 .bat .cmd .ini .cfg .conf .py .sh .bash .zsh .fish .groovy .gradle .vb .vbs .bas .cls .nim .zig .v .d .cr "
    ".coffee .elm .purs .rkt .scm .lisp .el .st .sql .tf .nix .mk .ksh .csh .sed .pro .ada .adb .vhd .asm .s")
CODE_SUFFIXES = frozenset(_SUFFIXES.split())
_CONFIG_SUFFIXES = frozenset((".ini", ".cfg", ".conf", ".properties", ".env", ".toml"))  # sections read as headings


# a suffix of prose or markup: read by the text readers, whatever share of its lines looks like code
_PROSE_SUFFIXES = frozenset((".txt", ".text", ".wiki", ".html", ".htm", ".xml", ".puml", ".plantuml", ".pu", ".mmd",
                             ".mermaid", ".rst", ".org", ".adoc", ".asciidoc", ".tex", ".csv", ".tsv", ".ics", ".eml",
                             ".msg", ".rtf", ".log", ".md", ".markdown", ".yaml", ".yml", ".json", ".toml", ".proto",
                             ".dot", ".gv", ".svg", ".nml"))


def is_code_file(path: str, text: str) -> bool:
    """A file whose suffix names a programming or config language, or one of no prose suffix whose written
    lines are mostly code."""
    from pathlib import PurePath

    suffix = PurePath(path).suffix.lower()
    if suffix in _PROSE_SUFFIXES:
        return False
    return suffix in CODE_SUFFIXES or code_share(text) >= CODE_SHARE


def fields_read(parts: SpecParts) -> tuple[int, int]:
    """(steps found, step inputs bound to a source: a step's output, a workflow input, an item or a literal that is
    not empty) of a reading: how two readings of one file are compared."""
    bound = 0
    for step in parts.steps:
        named = {f.name for f in step.inputs if f.source}
        named |= {k for k, v in step.input_values.items() if v not in ("", None)}
        bound += len(named)
    return len(parts.steps), bound


def code_first(src: Source, text: str, parts: SpecParts | None, anchored_read: bool,
               specific: bool = False) -> tuple[SpecParts, Source] | None:
    """A code file read by its skill calls instead of `parts`, whenever they are found: over a reading refused
    (`parts` None); over the text readers' reading of a file in a programming language (its suffix) when they
    read it only anchored on the skills' names (`anchored_read`; a config file's sections read as headings, a
    reading by the grammar, stay theirs);
    over a format-specific reader's reading (`specific`) only when that one binds none of the steps' fields and the
    calls find as many steps and bind most of their skills' fields. None: `parts` stands."""
    if not ENABLED or not src.vocabulary or not src.anchored or not is_code_file(src.path, text) \
            or (parts is not None and not FIRST.get()):
        return None
    got = wired_script(src, text)
    if got is None:
        return None
    if parts is None:
        return got
    steps, bound = fields_read(parts)
    wsteps, wbound = fields_read(got[0])
    if not specific:
        from pathlib import PurePath

        from orchestrator.spec.reading_choice54 import calls_win

        suffix = PurePath(src.path).suffix.lower()
        # a config file the text readers read only anchored on its skills (no section read as a heading): its calls
        # too, when they find every step the anchored reading found
        language = suffix in CODE_SUFFIXES - _CONFIG_SUFFIXES or (suffix in _CONFIG_SUFFIXES and wsteps >= steps)
        # ... binding more of the skills' fields (a config file's sections, a grammar's reading stay theirs)
        # ... and weighing more by what each resolves, literals of references against it (`spec.reading_choice54`)
        unread = sum(1 for x in got[1].warnings if UNREAD_SAID in x.message)
        return got if language and anchored_read and wbound > bound \
            and calls_win(got[0], parts, text, src.vocabulary, unread) else None
    if calls_instead(src, steps, bound, wsteps, wbound):  # `rows.append(skill(...))` the script reader missed
        return got
    fields = sum(len(src.vocabulary.inputs_of(s.skill or "") or ()) for s in got[0].steps)
    return got if not bound and wsteps >= steps and fields and wbound >= WIRED_SHARE * fields else None


def wired_script(src: Source, text: str) -> tuple[SpecParts, Source] | None:
    """A script the script runbook reader found no call in, read by its skill calls; None when it calls none."""
    if not ENABLED or not src.vocabulary:
        return None
    fresh = _fresh(src, text)
    parts = read_wired(fresh)
    if parts is None or not parts.steps:
        return None
    return parts, fresh

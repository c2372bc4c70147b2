"""The names of a script runbook (`spec.script_runbook`): what each value a skill call passes is.

    APP="$1"   $app = $args[0]   app = sys.argv[1]   DAY ?=     a workflow input (an argument is named
                                                              as the first call passes it, warned)
    PLATE=$(skill read-plate ...)   > plate.json             the step's output, by the variable or file
    N=$(jq .count plate.json)                                a field of that output
    MODE=fast   mode="fast"                                  a literal value
    min_secs=30   rate=0.5                                   a number (as a Dockerfile's RUN reads it); 007 or
                                                             PowerShell's "30" text (a POSIX shell's quotes
                                                             are its own: the skill's declared type decides)

A value that names a step's output (`plate.wells`, `$PLATE.wells`, `$(jq .wells plate.json)`,
`plate["wells"]`) is that output's field; one that two steps write (both arms of an `if` write
decision.json) is a value from whichever ran (`spec.either_input`); `$X` never set is a workflow
input from the environment; anything else is a literal.
"""

from __future__ import annotations

from orchestrator.spec.model import InputSpec
from orchestrator.spec.powershell45 import hashtable, literal
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_code import reference, value_kind
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)
_NUMBER = _rx(r"-?(?:0|[1-9]\d*+)(?:\.\d++)?")  # 30, -4, 0.12; not 007 (a code)


def word_value(value: str) -> object:
    """A literal word's value: an unquoted number is that number (`min_secs=30` gives 30), anything else its
    text, quotes taken off (PowerShell's `-Tray "3"` gives '3')."""
    text = value.strip()
    if _NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    return text.strip("\"'")


class Names:
    """The variables of a script and the names that stand for its steps' outputs, kept as it is read."""

    def __init__(self, src: Source, language: str) -> None:
        self.src, self.language = src, language
        self.variables: dict[str, tuple[str, object, int]] = {}  # var -> (kind, detail, line)
        self.refs: dict[str, list[int]] = {}  # a name that stands for a step's output -> step numbers
        self.inputs: dict[str, InputSpec] = {}
        self.tables: dict[str, list[tuple[str, str]]] = {}  # PowerShell: a hashtable variable's pairs
        self.fields: dict[str, list[int]] = {}  # a batch file: an output field of a step's skill -> step numbers

    def step_named(self, name: str, number: int) -> None:
        """`name` (its output file's stem, the variable set to its result, its skill) stands for step `number`."""
        if name and number not in self.refs.setdefault(name, [])[-1:]:  # numbers only grow
            self.refs[name].append(number)

    def outputs(self, skill: str, number: int) -> None:
        """A batch file (`spec.batch47`): the fields step `number`'s skill outputs, each `%field%` after it."""
        for name in sorted(self.src.vocabulary.outputs_of(skill) or ()):
            self.fields.setdefault(name.lower(), []).append(number)

    def params(self, line: int, params: list[tuple[str, bool, object, str | None]]) -> None:
        """A PowerShell `param(...)` block (`spec.powershell45`): each parameter a workflow input, as named."""
        for name, required, default, type_ in params:
            self.variables[name] = ("input", name, line)
            self.inputs[name] = InputSpec(name=name, required=required, default=default, type=type_,
                                          where=self.src.where(line))

    def describe(self, descriptions: dict[str, str]) -> None:
        """Each input's description, from the script's help (`.PARAMETER Name`)."""
        for var, spec in list(self.inputs.items()):
            text = descriptions.get(var) or next((t for n, t in descriptions.items() if n.lower() == var.lower()), "")
            if text and not spec.description:
                self.inputs[var] = spec.model_copy(update={"description": text})

    def variable(self, line: int, var: str, value: str) -> None:
        if self.language == "ps" and (table := hashtable(value)) is not None:  # `$p = @{...}`, splatted later
            self.tables[var] = table
        kind, name = value_kind(value)
        if not value.strip("\"' "):  # `VOYAGE ?=`, `DAY=""`: given from outside
            kind, name = "env", var.lower()
        if kind == "positional":  # a batch file's `set JOB=%1` names its argument, as written (`spec.batch47`)
            # a batch file's `set JOB=%1` (`spec.batch47`), Perl's `my $job = shift` (`spec.perl50`): named as written
            self.variables[var] = ("input", var if self.language in ("bat", "perl") else None, line)
        elif kind in ("env", "args"):
            self.variables[var] = ("input", name, line)
        else:
            ref = reference(value)
            if ref is not None and ref[0] in self.refs and ref[1]:
                self.variables[var] = ("field", (ref[0], ref[1]), line)
            elif self.language in ("vba", "perl") and not value.strip().startswith('"'):  # `Const RATE = 4.2`: a number
                self.variables[var] = ("literal", word_value(value), line)
            else:
                self.variables[var] = ("literal", value.strip("\"'"), line)

    def source_of(self, key: str, value: str, line: int) -> tuple[str | None, object, str]:
        """(a source, a literal, an either-description) of what `key=value` gives the skill."""
        if self.language == "ps" and (known := literal(value))[0]:  # `$true`, `$false`
            return None, known[1], ""
        if self.language in ("py", "r", "vba", "perl") and value.strip().lower() in ("true", "false"):  # True, TRUE, False
            return None, value.strip().lower() == "true", ""
        ref = reference(value)
        if ref is None:
            return None, word_value(value), ""
        name, fld = ref
        var = self.variables.get(name)
        if var is not None and var[0] == "input":
            return self._input(name, var[1] if isinstance(var[1], str) else key, var[2], line), None, ""
        if var is not None and var[0] == "literal":
            return None, var[1], ""
        if var is not None and var[0] == "field":
            name, fld = var[1]  # type: ignore[misc]
        numbers = self.refs.get(name) or self.refs.get(name.lower()) or []
        if var is not None and var[0] == "step":  # a tuple: set in each arm of an `if`, whichever ran's
            numbers = list(var[1]) if isinstance(var[1], tuple) else [int(var[1])]  # type: ignore[call-overload]
        if not numbers and var is None and self.language == "bat":  # `%status%` no `set` gave: an output's field
            numbers, fld = self.fields.get(name.lower(), []), fld or name.lower()
        if not numbers:
            if value.strip().strip("\"'").startswith("$") or self.language in ("py", "r", "sieve", "vba", "perl"):
                return self._input(name, name.lower(), line, line), None, ""
            return None, value.strip("\"'"), ""
        tail = f".{fld}" if fld else ""
        if len(numbers) == 1:
            return f"steps.step-{numbers[0]}.output{tail}", None, ""
        return None, None, " or ".join(f"step-{n}{tail or '.' + key}" for n in numbers)

    def _input(self, var: str, name: str, declared: int, line: int) -> str:
        if var not in self.inputs:
            self.inputs[var] = InputSpec(name=name, where=self.src.where(declared))
            if name.lower() != var.lower():
                given, hint = (("(a cell of the sheet or an input box)", f"`{name} = Range(...).Value`")
                               if self.language == "vba" else ("(an argument)", f"`{name.upper()}=\"$1\"`"))
                self.src.warn(declared, f"`{var}` is given to the script {given}: read as the workflow input "
                                        f"`{name}`, the name line {line} passes it under; write {hint} "
                                        "to name it yourself", "spec.reading")
        return f"inputs.{self.inputs[var].name}"


_rx.save()

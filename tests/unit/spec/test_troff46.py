"""`spec.troff46`: a troff man page read as the markdown it stands for, line for line: the SYNOPSIS's italic
arguments the workflow inputs, a `.TP` item whose tag is "N. skill" a step, fonts as code names, comments and
layout requests dropped, another page's name in SEE ALSO no code name. Pages of our own (a lab's plate reader, a
bakery's night run), and texts that are no man page."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.troff46 import inline, is_man, man_markdown
from orchestrator.spec.vocabulary import Vocabulary

_PLATES = """.\\" plates.1 -- lab tools
.TH PLATE-RUN 8 "May 2026" "Lab" "Lab Tools"
.SH NAME
plate-run \\- read and score one rack of plates
.SH SYNOPSIS
.B plate-run
.I rack
.RI [ operator ]
.SH STEPS
.TP
.B 1. read-plates
Reads every plate in \\fIrack\\fR. Gives back \\fIreadings\\fR.
.TP
.B 2. score-readings
Scores the \\fIreadings\\fR from step 1.
.SH OPTIONS
.TP
.B \\-\\-dry\\-run
Print only.
.SH SEE ALSO
.BR plate-export (1),
.BR lab-tools (7)
"""


def test_a_page_with_th_or_two_sh_is_a_man_page() -> None:
    assert is_man(_PLATES)
    assert is_man(".SH NAME\nbake \\- the night run\n.SH DESCRIPTION\nBakes.\n")
    assert not is_man("# Plates\n\n.TH is how a man page opens\n")  # a markdown page that mentions it
    assert not is_man("Notes\n.SH once\n")  # one section line only


def test_the_page_lowered_line_for_line() -> None:
    lowered = man_markdown(_PLATES)
    assert lowered is not None
    lines = lowered.split("\n")
    assert len(lines) == len(_PLATES.split("\n"))
    assert lines[0] == ""  # the comment
    assert lines[1] == "# PLATE-RUN"
    assert lines[4:8] == ["## Arguments", "", "`rack`", "`operator`"]
    assert lines[10] == "### 1. `read-plates`"
    assert lines[11] == "Reads every plate in `rack`. Gives back `readings`."
    assert lines[17] == "- `--dry-run`"  # an option's tag: a bullet, no step
    assert lines[18] == "   Print only."
    assert lines[20:22] == ["plate-export(1),", "lab-tools(7)"]  # other pages: no code names


def test_inline_fonts_and_named_characters() -> None:
    assert inline("use \\fBbake\\-loaf\\fR with \\fIoven\\fP \\(em hot") == "use `bake-loaf` with `oven` — hot"
    assert inline("a \\f(CWcode\\fR word") == "a `code` word"
    assert inline("plain text \\\" a trailing comment") == "plain text"


def test_a_man_page_spec_reads_its_inputs_and_steps() -> None:
    page = """.TH NIGHT-BAKE 1
.SH SYNOPSIS
\\fBnight-bake\\fR \\fIshop\\fR \\fIbake_date\\fR
.SH STEPS
.TP
.B 1. plan-batches
Plans the batches for \\fIshop\\fR on \\fIbake_date\\fR. Gives back \\fIbatches\\fR.
.TP
.B 2. fire-ovens
Fires the ovens for the \\fIbatches\\fR from step 1.
"""
    spec = parse_spec_text(page, "night-bake.1", "markdown", Vocabulary(skills=frozenset({"plan-batches",
                                                                                          "fire-ovens"})))
    assert [i.name for i in spec.inputs] == ["shop", "bake_date"]
    assert [(s.id, s.where.rpartition(":")[2]) for s in spec.steps] == [("step-1", "6"), ("step-2", "9")]
    assert any("troff man page" in w.message for w in spec.warnings if w.line == 1)


def test_negative_a_markdown_page_is_left_as_written() -> None:
    text = "# Bake\n\n## Steps\n\n1. `plan-batches` for the shop\n"
    assert man_markdown(text) is None

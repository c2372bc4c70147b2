"""A LaTeX article (a lab report with `enumerate` steps, thesis notes with a `\\subsection` per step
and a `description` list of inputs, a methods appendix without a preamble) reads as its markdown
would, line for line; a markdown spec with `$x$` in it, or an `algorithmic` block, is not lowered
(`spec.markup_latex`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.markup_latex import inline, is_latex, latex_markdown
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "weigh-sample", "dry-sample", "log-mass", "fetch-tiles", "stitch-tiles", "publish-map", "small-map")])


def _spec(text: str, path: str = "report.tex") -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", _VOCAB)


def _skills(spec: WorkflowSpec) -> list[list[str]]:
    return [list(dict.fromkeys(m.text for m in s.mentions)) for s in spec.steps]


_LAB = r"""\documentclass{article}
\usepackage{siunitx}
\title{Moisture content --- lab 4}
\begin{document}
\maketitle
% remember to attach the balance calibration sheet
\section{Inputs}
\begin{description}
  \item[\texttt{sample\_id}] the jar label
  \item[\texttt{tray}] which oven tray
\end{description}
\section{Procedure}
\begin{enumerate}
  \item Weigh the wet sample with \texttt{weigh-sample}. Allow 2~minutes at most.
  \item Dry it with \texttt{dry-sample} at $105^{\circ}$C;
        if the oven faults, retry it once after 30\,s.
  \item Record both masses with \texttt{log-mass}.
\end{enumerate}
\end{document}
"""


def test_a_lab_report_with_enumerate_steps_reads_its_steps_and_description_inputs() -> None:
    md = latex_markdown(_LAB)
    assert md is not None
    lines = md.split("\n")
    assert len(lines) == len(_LAB.split("\n"))
    assert lines[2] == "# Moisture content — lab 4"
    assert lines[5] == ""  # a comment
    assert lines[8] == "- `sample_id`: the jar label"
    assert lines[13] == "1. Weigh the wet sample with `weigh-sample`. Allow 2 minutes at most."
    assert lines[15] == "   if the oven faults, retry it once after 30 s."  # the item goes on, indented
    spec = _spec(_LAB)
    assert [i.name for i in spec.inputs] == ["sample_id", "tray"]
    assert _skills(spec) == [["weigh-sample"], ["dry-sample"], ["log-mass"]]
    assert [s.where.rsplit(":", 1)[1] for s in spec.steps] == ["14", "15", "17"]


_NOTES = r"""\section{What goes in}
\begin{itemize}
  \item \texttt{area} --- the bounding box
\end{itemize}

\section{Pipeline}
\subsection{Tiles} Pull the tiles with \texttt{fetch-tiles}.

\subsection{Stitch} This forks on how many tiles came back (\texttt{tile\_count} from the fetch):
\begin{itemize}
  \item if more than 4 came back, \texttt{stitch-tiles} them into one image.
  \item otherwise --- a tiny area --- do \texttt{small-map} on them instead.
\end{itemize}

\subsection{Publish} Whichever ran, \texttt{publish-map} takes its image.

\section{When is a map finished?}
When \texttt{publish-map} reports \texttt{published} true.
"""


def test_thesis_notes_with_a_subsection_per_step_read_the_fork_the_join_and_the_success_question() -> None:
    assert is_latex(_NOTES)  # no preamble: its sections say so
    md = latex_markdown(_NOTES)
    assert md is not None
    lines = md.split("\n")
    assert lines[4:7] == ["## Pipeline", "### Tiles", "Pull the tiles with `fetch-tiles`."]  # heading moved up a line
    assert lines[7:9] == ["### Stitch", "This forks on how many tiles came back (`tile_count` from the fetch):"]
    spec = _spec(_NOTES)
    assert _skills(spec) == [["fetch-tiles"], ["stitch-tiles"], ["small-map"], ["publish-map"]]
    stitch, small = spec.steps[1], spec.steps[2]
    assert any(r.what == "branch" and r.text == "tile_count > 4" for r in stitch.readings)
    assert small.otherwise_of == stitch.id
    assert any("success check `published == true`" in r.note for s in spec.steps for r in s.readings)


def test_a_heading_with_no_free_line_before_it_stays_a_bold_lead() -> None:
    md = latex_markdown("\\section{Steps}\n\\subsection{Tiles} Pull them with \\texttt{fetch-tiles}.\n"
                        "\\subsection{Stitch} Then \\texttt{stitch-tiles}.\n")
    assert md is not None
    assert md.split("\n")[:3] == ["## Steps", "**Tiles** Pull them with `fetch-tiles`.",
                                  "**Stitch** Then `stitch-tiles`."]


def test_inline_commands_math_and_spacing() -> None:
    assert inline(r"Give it 90\,s; e.g.\ the \emph{full} wave, threshold $\geq 0.8$ (80\%).") == \
        "Give it 90 s; e.g. the *full* wave, threshold ≥ 0.8 (80%)."
    assert inline(r"\textbf{Note}: see \href{https://x.org}{the wiki}\footnote{ask Sam}.") == \
        "**Note**: see the wiki (ask Sam)."
    assert inline(r"run \texttt{load--raw} -- then ``stop''") == "run `load--raw` – then \"stop\""


def test_markdown_with_inline_math_is_not_latex() -> None:
    text = "# Ratios\n\n## Steps\n\n1. Weigh it with `weigh-sample`; keep it if $x > 0.5$.\n" \
           "2. \\section{not a heading} Log it with `log-mass`.\n"
    assert not is_latex(text)
    assert latex_markdown(text) is None
    assert _skills(_spec(text, "notes.md")) == [["weigh-sample"], ["log-mass"]]


def test_an_algorithmic_block_is_left_to_its_own_reader() -> None:
    text = "\\documentclass{article}\n\\begin{document}\n\\begin{algorithmic}\n\\State \\Call{fetch-tiles}{}\n" \
           "\\end{algorithmic}\n\\end{document}\n"
    assert not is_latex(text)


def test_verbatim_is_a_code_block_and_its_text_is_kept() -> None:
    md = latex_markdown("\\section{Steps}\n\\begin{verbatim}\nmake all % not a comment\n\\end{verbatim}\n"
                        "\\section{Notes}\n")
    assert md is not None
    assert md.split("\n")[:4] == ["## Steps", "```", "make all % not a comment", "```"]

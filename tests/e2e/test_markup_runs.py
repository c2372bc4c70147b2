"""An HTML page and a LaTeX article as specs, through the real `skillweave run` with real script skills: a
library's intranet page (form fields in a `<ul>`, steps in an `<ol>` with a condition, its "Otherwise" and a
join) and a dispatch note in LaTeX (a `description` list of inputs, a `\\subsection` per step, an `itemize`
fork on a count and "Whichever ran") each run to their author's output on both branches. Before, the pages
were read as text: their inputs were not declared and the runs were refused (`spec.markup_html`,
`spec.markup_latex`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import final_output, run, write_script_skills

pytestmark = pytest.mark.e2e

_SKILLS = {
    "find-copy": ("Looks a book up.", "`isbn` (string)", "`on_shelf` (boolean), `shelf` (string)",
                  "out = {'on_shelf': d['isbn'].endswith('1'), 'shelf': 'B-12'}"),
    "hold-copy": ("Holds a copy.", "`shelf` (string), `patron` (string)", "`ref` (string)",
                  "out = {'ref': 'HOLD-%s@%s' % (d['patron'], d['shelf'])}"),
    "ill-request": ("Asks another library.", "`isbn` (string), `patron` (string)", "`ref` (string)",
                    "out = {'ref': 'ILL-%s-%s' % (d['patron'], d['isbn'])}"),
    "notify-patron": ("Tells the patron.", "`patron` (string), `ref` (string)", "`sent` (boolean), `text` (string)",
                      "out = {'sent': True, 'text': d['patron'] + ': ' + d['ref']}"),
    "count-boxes": ("Counts the boxes.", "`boxes` (array of strings)", "`box_n` (integer), `kept` (array)",
                    "out = {'box_n': len(d['boxes']), 'kept': d['boxes']}"),
    "ship-pallet": ("Ships on a pallet.", "`kept` (array)", "`label` (string)",
                    "out = {'label': 'PALLET x%d' % len(d['kept'])}"),
    "ship-parcel": ("Ships as parcels.", "`kept` (array)", "`label` (string)",
                    "out = {'label': 'PARCEL x%d' % len(d['kept'])}"),
    "print-label": ("Prints the label.", "`label` (string), `site` (string)", "`printed` (boolean), `text` (string)",
                    "out = {'printed': True, 'text': d['site'] + ' ' + d['label']}"),
}

_PAGE = """\
<!-- saved from the library intranet -->
<div class="page">
<h1>Book requests &ndash; how the flow works</h1>
<h2>What the form hands us</h2>
<ul>
  <li><b>ISBN</b> (<code>isbn</code>)</li>
  <li><b>Library card</b> (<code>patron</code>) &ndash; as on the card</li>
</ul>
<h2>The flow</h2>
<ol>
  <li>Look the book up with <code>find-copy</code>.</li>
  <li>If on_shelf is true: <code>hold-copy</code> holds it for the patron.</li>
  <li>Otherwise (not on the shelf) send an <code>ill-request</code> for the patron.</li>
  <li>Either way, finish with <code>notify-patron</code>: the ref from whichever of 2/3 ran.</li>
</ol>
<div class="callout info"><p><b>When is it done?</b> It counts as done when notify-patron comes back with <code>sent: true</code>.</p></div>
</div>
"""

_NOTE = r"""\documentclass{article}
\title{Dispatch --- per-order notes}
\begin{document}
\section{What goes in}
\begin{description}
  \item[\texttt{boxes}] the box ids of the order
  \item[\texttt{site}] the dock, e.g.\ ``D4''
\end{description}

\section{Pipeline}
\subsection{Count} Run \texttt{count-boxes} on the boxes.

\subsection{Ship} This forks on how many boxes there are (\texttt{box\_n} from the count):
\begin{itemize}
  \item if at least 3 came, \texttt{ship-pallet} the kept boxes.
  \item otherwise --- a small order --- do \texttt{ship-parcel} on the kept boxes instead.
\end{itemize}

\subsection{Label} Whichever ran, \texttt{print-label} takes its label and the site.
\end{document}
"""


def _run(tmp_path: Path, name: str, text: str, inputs: dict[str, Any]) -> dict[str, Any]:
    write_script_skills(tmp_path, _SKILLS)
    spec = tmp_path / name
    spec.write_text(text, encoding="utf-8")
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps(inputs), encoding="utf-8")
    done = run("run", str(spec), "--skills-dir", str(tmp_path / "skills"), "--input-file", str(given), "--json",
               "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("isbn", "text"), [("9780141", "C-7: HOLD-C-7@B-12"), ("9780142", "C-7: ILL-C-7-9780142")])
def test_an_intranet_page_runs_its_branch_and_the_join(tmp_path: Path, isbn: str, text: str) -> None:
    result = _run(tmp_path, "requests.html", _PAGE, {"isbn": isbn, "patron": "C-7"})
    assert final_output(result) == {"sent": True, "text": text}


@pytest.mark.parametrize(("boxes", "text"), [(["a", "b", "c"], "D4 PALLET x3"), (["a"], "D4 PARCEL x1")])
def test_a_latex_note_runs_its_fork_and_the_join(tmp_path: Path, boxes: list[str], text: str) -> None:
    result = _run(tmp_path, "dispatch.tex", _NOTE, {"boxes": boxes, "site": "D4"})
    assert final_output(result) == {"printed": True, "text": text}

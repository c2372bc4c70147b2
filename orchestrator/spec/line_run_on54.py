"""A success check on a line of its own that the sentence before runs into with no stop (54th round).

    # the whole lot has to be finished inside 10 mins, if it isn't, kill it, the van goes at 4:30 regardless
    # it's a good run when print-dockets says printed: true

Comment notes end a thought at the end of a line without a stop, so the document's sentences (`spec.whole_doc`)
keep both lines in one, and the success cue, led by 80 characters and a colon, is not at its head. When a later
line of such a sentence opens with the run's success cue ("it's a good run when ...", "done when ...",
"we're finished once ..."), `line_run_on` gives the words from that line on, read as the check at that line
(`spec.whole_net`, as `spec.run_on43` does after a stop with no capital). A line that goes on a sentence whose
cue is on the line before ("... is done\nwhen the invoice is sent") is no line of its own: the whole sentence is
read as before; a later line that opens with no cue is left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence


def line_run_on(text: str, lines: Sequence[tuple[int, str]], first: int, last: int) -> str | None:
    """The words of sentence `text` (lines `first`..`last` of `lines`) from its first later line that opens with
    the run's success cue (module docstring), or None."""
    from orchestrator.spec.whole_success import success_cue

    flat = " ".join(text.split())
    for number, said in lines:
        if not first < number <= last:
            continue
        if success_cue(" ".join(said.split())) is None:
            continue  # the line alone first: the tail is read only for a line that opens with the cue (linear)
        head = " ".join(said.split()[:3])
        at = flat.find(head) if head else -1
        if at <= 0:
            continue
        tail = flat[at:]
        if success_cue(tail) is not None:
            return tail
    return None

"""A label list ends at its line's end when the paragraph runs on with a new sentence (`plan.line_end55`)."""

from orchestrator.plan.wanted import read_instructions


def _names(body: str) -> tuple[list[str], list[str], list[str]]:
    said = read_instructions(body, "x/SKILL.md")
    return [n.name for n in said.inputs], [n.name for n in said.outputs], [u.where for u in said.unread]


def test_outputs_then_a_sentence_on_the_next_line_are_read() -> None:
    body = ("Prints a label.\n\nInputs: apiary (text), jars (whole number)\nOutputs: printed (true/false), text (text)\n"
            "Exits 2 (reason on stderr) when an input is missing.\n")
    assert _names(body) == (["apiary", "jars"], ["printed", "text"], [])


def test_other_phrasings_of_the_sentence_after_the_list() -> None:
    assert _names("Returns: total (number), lines (list of text)\nThe script writes them as JSON on stdout.\n") \
        == ([], ["total", "lines"], [])
    assert _names("Takes: branch (text) and as_of (date)\nFails with exit 3 when the branch is closed.\n") \
        == (["branch", "as_of"], [], [])


def test_a_list_over_two_lines_then_a_sentence() -> None:
    body = "Outputs: trays (whole number),\nstart (time, HH:MM)\nNothing else is printed.\n"
    assert _names(body) == ([], ["trays", "start"], [])


def test_a_list_going_on_is_not_cut() -> None:
    # a comma at the line's end: the next line is the list's, and the whole is a sentence, still warned
    assert _names("Outputs: total (number),\nThe sum of it all\n")[1:] == ([], ["x/SKILL.md:1"])
    # a capitalised name after a missing comma: names, not a new sentence; unread as before
    assert _names("Outputs: net (number), grade (text)\nBand (text)\n")[1:] == ([], ["x/SKILL.md:1"])
    # the next line lower case: a run-on clause of the list, not a new sentence
    assert _names("Outputs: net (number), grade (text)\nwhen the scale is read\n")[1:] == ([], ["x/SKILL.md:1"])


def test_a_sentence_on_the_label_line_itself_stays_unread() -> None:
    assert _names("Outputs: the total of the day\nExits 2 when it fails.\n")[1:] == ([], ["x/SKILL.md:1"])

"""The words of a step's Input line, kept whole for the planner's gather rule.

    - **Takes:** everything `classify` produced, all PRs together

`spec.fields` reads an Input line ("Takes", "Feed", "Input") into field names and warns each clause
that is no name (`spec.field`). Such a clause may still say how the step takes its values: "all PRs
together", "every blurb from the loop" say a gather. `spec.step` keeps the line's words under
`StepSpec.extra[INPUT_WORDS]` (nothing else reads that key); `plan.steps34a` reads a gather there.
"""

from __future__ import annotations

from orchestrator.spec.model import StepSpec

INPUT_WORDS = "input words"  # the `StepSpec.extra` key the Input line's words are kept under


def input_words(step: StepSpec) -> str:
    """The words of the step's Input line(s), "" when it has none."""
    return step.extra.get(INPUT_WORDS, "")


# "Inputs for a run: transcripts and product_area.", "Inputs per night: the build number, the branch":
# the word Inputs, what it is given for ("for a run", "per night", "each morning"), a colon, at a sentence's
# start (mid-paragraph too): `spec.prose_inputs` reads the list after it as the run's inputs; "Inputs per
# step:" speaks of the steps' inputs, not the run's
RUN_INPUTS_LEAD = (r"(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))inputs?\s++(?:for|per|each|every|on)\s++"
                   r"(?:(?:a|an|the|each|every)\s++)?+(?!(?:step|stage|task|skill|tool|box|node)s?+\b)[a-z]++(?:\s++[a-z]++)?+\s*+:")


def plural_of(word: str) -> str:
    """The list a noun's items come in: `country` -> `countries`, `batch` -> `batches`, `line` -> `lines`,
    `day` -> `days`; a word already plural (`results`) is kept. "For every country that came out of
    step 1" loops over that step's `countries`, not `countrys`."""
    low = word.lower()
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return word
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"

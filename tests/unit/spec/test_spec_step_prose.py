"""Structure written as sentences: step lists, roots, dependencies, joins and routes."""

from __future__ import annotations

import pytest

from orchestrator.spec.step_prose import (
    dependency_phrase,
    is_bare_structure,
    name_of_sentence,
    read_step_list,
    root_phrase,
    route_sentence,
    sentences,
)


@pytest.mark.parametrize(
    ("text", "ids", "join_any", "root"),
    [
        ("Steps 2, 4, 6 and 8", ("step-2", "step-4", "step-6", "step-8"), False, False),
        ("after 2–4", ("step-2", "step-3", "step-4"), False, False),
        ("2-4", ("step-2", "step-3", "step-4"), False, False),
        ("Steps 2 to 4", ("step-2", "step-3", "step-4"), False, False),
        ("Step 2 or Step 3 (whichever ran)", ("step-2", "step-3"), True, False),
        ("whichever resolver ran (Step 2, 3 or 4)", ("step-2", "step-3", "step-4"), True, False),
        ("Stage 3, 4 or 5", ("step-3", "step-4", "step-5"), True, False),
        ("steps one and two", ("step-1", "step-2"), False, False),
        ("1, 3", ("step-1", "step-3"), False, False),
        ("`step-2`", ("step-2",), False, False),
        ("none", (), False, True),
        ("-", (), False, True),
        ("nothing", (), False, True),
        ("None.", (), False, True),
        ("none (can run while building)", (), False, True),
        ("the one that ran", (), False, False),
    ],
)
def test_a_list_of_steps_reads_as_ids_with_its_join_and_root(
    text: str, ids: tuple[str, ...], join_any: bool, root: bool
) -> None:
    found = read_step_list(text, bare_digits=True)
    assert (found.ids, found.any, found.root) == (ids, join_any, root)


def test_names_are_kept_to_resolve_only_when_no_number_is_given() -> None:
    assert read_step_list("extract, transform", bare_digits=True).names == ("extract", "transform")
    assert read_step_list("`normalise`", bare_digits=True).names == ("normalise",)
    assert read_step_list("Step 1 and the summary", bare_digits=True).names == ()


@pytest.mark.parametrize(
    ("sentence", "ids", "join_any"),
    [
        ("Runs after 1–2.", ("step-1", "step-2"), False),
        ("It runs after Step 2 has finished.", ("step-2",), False),
        ("Once Steps 1 and 2 are done, merge the lists.", ("step-1", "step-2"), False),
        ("Runs once, whichever resolver ran (Stage 3, 4 or 5).", ("step-3", "step-4", "step-5"), True),
        ("Depends on Step 4.", ("step-4",), False),
    ],
)
def test_a_dependency_in_a_sentence_is_read(sentence: str, ids: tuple[str, ...], join_any: bool) -> None:
    found = dependency_phrase(sentence)
    assert found is not None
    assert (found.ids, found.any) == (ids, join_any)


@pytest.mark.parametrize(
    "sentence",
    [
        "Retry after 5s.",
        "Retry after 5 seconds if it fails.",
        "If Step 3 fails after its retries, stop.",
        "after 2 attempts, Step 3 goes on",
        "Keep knocking, but never wait more than 5 min and stop after 8 goes.",  # a count of goes (holdout34 row 10)
        "Give up after 4 shots at it.",
        "Once you have the tarball, check it with `verify-checksum`.",
        "Which of these three runs depends on the category from Stage 1: x",
        "Give it 60 seconds.",
    ],
)
def test_sentences_that_name_no_dependency_are_not_read_as_one(sentence: str) -> None:
    assert dependency_phrase(sentence) is None


def test_roots_are_read_from_what_people_write() -> None:
    assert root_phrase("Independent of step 1; run them side by side.")
    assert root_phrase("Nothing depends on the orders here, so this can start straight away.")
    assert not root_phrase("Depends on the orders.")


def test_a_bare_dependency_leaves_nothing_unread_but_a_condition_does() -> None:
    assert is_bare_structure("Runs after Step 2.")
    assert is_bare_structure("Runs once, whichever resolver ran (Stage 3, 4 or 5).")
    assert not is_bare_structure("only when Step four reported valid = true")


def test_a_routing_sentence_gives_branches_a_default_the_router_and_its_field() -> None:
    found = route_sentence(
        "Which of these three runs depends on the category from Stage 1: `billing` goes to Stage 3, "
        "`technical` to Stage 4, anything else (including \"unknown\") to Stage 5."
    )
    assert found is not None
    assert found.branches == {"billing": "step-3", "technical": "step-4"}
    assert (found.default, found.router, found.on) == ("step-5", "step-1", "category")


def test_a_routing_sentence_in_the_router_names_no_router() -> None:
    found = route_sentence("`billing` goes to Step 2, `technical` to Step 3, anything else to Step 4.")
    assert found is not None
    assert (found.branches, found.default, found.router, found.on) == (
        {"billing": "step-2", "technical": "step-3"}, "step-4", None, None)
    arrows = route_sentence("billing → Step 2, technical → Step 3")
    assert arrows is not None and arrows.branches == {"billing": "step-2", "technical": "step-3"}


def test_a_route_written_as_if_clauses_names_its_field_or_quotes_its_values() -> None:
    found = route_sentence("If the category is billing, go to Step 2; if technical, go to Step 3; "
                           "otherwise go to Step 4.")
    assert found is not None
    assert (found.branches, found.default, found.on) == ({"billing": "step-2", "technical": "step-3"}, "step-4",
                                                         "category")
    quoted = route_sentence("If it is `urgent`, continue with Step 5, otherwise go to Step 6.")
    assert quoted is not None and (quoted.branches, quoted.default) == ({"urgent": "step-5"}, "step-6")


@pytest.mark.parametrize(
    "sentence",
    ["Retry goes to step 2", "Step 2 goes first.", "Send the report to the team.", "It goes to Step 3.",
     "If it fails, go to Step 3; otherwise go to Step 4.", "If it is valid, go to Step 4, otherwise go to Step 6."],
)
def test_sentences_that_are_not_routes_are_not_read_as_routes(sentence: str) -> None:
    assert route_sentence(sentence) is None


def test_sentences_split_at_their_ends_keeping_their_line() -> None:
    text = ("First pull the tarball using `fetch-mirror`, e.g. from mirror 2.5.\nGive it 60 seconds. "
            "If the mirror is down use the backup\n(`backup-mirror` takes the same. inputs).")
    assert sentences(text) == [
        (0, "First pull the tarball using `fetch-mirror`, e.g. from mirror 2.5."),
        (1, "Give it 60 seconds."),
        (1, "If the mirror is down use the backup (`backup-mirror` takes the same. inputs)."),
    ]


def test_a_step_written_as_a_sentence_is_named_by_its_first_clause() -> None:
    assert name_of_sentence("First pull the tarball using `fetch-mirror`, with the package.") == "Pull the tarball"
    assert name_of_sentence("Finally publish to the internal index: `publish-internal`") == "Publish to the internal index"

"""The symbols a pseudocode block's input lines name (`spec.markup37`), in documents of several kinds."""

from __future__ import annotations

from orchestrator.spec.markup37 import named, symbols


def test_a_latex_require_line_names_each_symbol() -> None:
    text = "\\Require samples $S$, plate $p$, threshold $\\tau$ (percent)\n\\ForAll{$s \\in S$}\n"
    assert symbols(text) == {"S": "samples", "p": "plate", "tau": "threshold"}


def test_an_algorithm2e_kwin_and_a_plain_input_line_name_their_symbols() -> None:
    assert symbols("\\KwIn{orders $O$; the region $g$}\n") == {"O": "orders", "g": "region"}
    assert symbols("Input: hosts H, window w\nfor h in H:\n") == {"H": "hosts", "w": "window"}
    assert symbols("Given: the readings r1, a cutoff c\n") == {"r1": "readings", "c": "cutoff"}


def test_a_symbol_stands_for_the_declared_input_of_its_name_or_the_one_that_opens_with_it() -> None:
    text = "\\Require runs $R$, threshold $\\tau$\n"
    assert named(text, "R", frozenset({"runs", "channel"})) == "runs"
    assert named(text, "tau", frozenset({"threshold_pct"})) == "threshold_pct"
    assert named(text, "tau", frozenset({"threshold_pct", "threshold_ms"})) is None  # two fit: none
    assert named(text, "R", frozenset({"channel"})) is None  # no such input


def test_lines_that_name_no_symbol_give_none() -> None:
    assert symbols("Inputs: the CSV file, and the order id\n") == {}  # `id` is a word, not a symbol
    assert symbols("Given: a list of hosts\n") == {}
    assert symbols("We require samples S to be frozen.\n") == {}  # prose, no input line
    assert symbols("\\Require budget: $\\mathit{five}$ minutes\n") == {}  # a wrapper is no symbol


def test_a_symbol_named_twice_is_left_unread() -> None:
    assert symbols("Input: hosts H\nInput: hubs H\n") == {}

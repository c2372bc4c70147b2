"""COBOL's comment lines, the rules above a paragraph label, and `CALL .. USING 'skill' A B RETURNING C` (`spec.cobol55`);
a skill's label list that a sentence follows (`plan.line_end55`)."""

from __future__ import annotations

from orchestrator.plan.bare_names import bare_names
from orchestrator.plan.line_end55 import list_lines
from orchestrator.spec import parse_spec_text
from orchestrator.spec.cobol55 import (
    cobol_comment,
    cobol_trailing,
    data_items,
    returned_field,
    using,
)
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wired52 import split_lines

INPUTS = {"pull-orders": ("shop", "day"), "price-orders": ("orders", "markup", "floor"),
          "send-invoices": ("shop", "priced"), "book-revenue": ("shop", "sum", "invoices")}
OUTPUTS = {"pull-orders": {"orders", "count"}, "price-orders": {"priced", "sum"}, "send-invoices": {"invoices"},
           "book-revenue": {"booked", "ref"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]), lambda s: INPUTS[s])


def read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "SHOPRUN.cob", "markdown", VOCAB, wired=True)


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def sources(s: StepSpec) -> dict[str, object]:
    return {**{f.name: f.source for f in s.inputs if f.source is not None}, **s.input_values}


# fixed format with sequence numbers, `*>` free-format comments, `SECTION` labels
FIXED = """\
000100* SHOPRUN - NIGHTLY INVOICING
000200 DATA DIVISION.
000300 WORKING-STORAGE SECTION.
000400 01 LS-SHOP          PIC X(4).
000500 01 LS-DAY           PIC X(10).
000600 01 LS-MARKUP        PIC 9V99 VALUE 1.20.
000700 01 LS-FLOOR         PIC 99   VALUE 5.
000800 PROCEDURE DIVISION.
000900     ACCEPT LS-SHOP FROM COMMAND-LINE.
001000* ALL DONE WHEN BOOK-REVENUE SAYS BOOKED = TRUE.
001100 PULL SECTION.
001200     CALL 'RUNNER' USING 'PULL-ORDERS' LS-SHOP LS-DAY RETURNING ORD-LIST.
001300*        THE SHOP DB IS SLOW: 3 MINUTES AT MOST.
001400 PRICE SECTION.
001500     CALL 'RUNNER' USING 'price-orders' ORD-LIST LS-MARKUP LS-FLOOR
001600          RETURNING PRC-SUM PRC-PRICED.
001700*        RETRY IT 2 TIMES, 10 SECONDS APART.
001800 SEND SECTION.
001900     CALL 'RUNNER' USING 'send-invoices' LS-SHOP PRC-PRICED RETURNING INV-N.
002000 BOOK SECTION.
002100     CALL 'RUNNER' USING 'book-revenue' LS-SHOP PRC-SUM INV-N
002200          RETURNING BOOK-OK.
002300*        NEVER RETRY THIS ONE.
002400     STOP RUN.
"""

FREE = """\
*> shoprun, free format
IDENTIFICATION DIVISION.
PROGRAM-ID. shoprun.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 w-shop pic x(4).
01 w-day pic x(10).
01 w-markup pic 9v99 value 1.20.
01 w-floor pic 99 value 5.
PROCEDURE DIVISION.
*> finished once book-revenue comes back booked = true
pull-step.
    call "sw" using "pull-orders" w-shop w-day returning o-orders.
        *> give the shop db 3 minutes at most
price-step.
    call "sw" using "price-orders" o-orders w-markup w-floor returning p-sum p-priced.
        *> retry it 2 times, 10 seconds apart
send-step.
    call "sw" using "send-invoices" w-shop p-priced returning s-invoices.
book-step.
    call "sw" using "book-revenue" w-shop p-sum s-invoices returning b-ok.  *> the ledger
        *> never retry this one
    stop run.
"""


def check(spec: WorkflowSpec) -> None:
    assert [s.skill for s in spec.steps] == ["pull-orders", "price-orders", "send-invoices", "book-revenue"]
    pull, price, send, book = spec.steps
    assert sources(pull) == {"shop": "inputs.shop", "day": "inputs.day"}
    assert sources(price)["orders"] == f"steps.{pull.id}.output.orders"
    assert sources(price)["markup"] == 1.2 and sources(price)["floor"] == 5
    assert sources(send)["priced"] == f"steps.{price.id}.output.priced"
    assert sources(book)["sum"] == f"steps.{price.id}.output.sum"
    assert sources(book)["invoices"] == f"steps.{send.id}.output.invoices"  # its only output
    assert set(book.depends_on) == {price.id, send.id}
    assert any("3 minutes" in t.text.lower() for t in pull.texts)
    assert any("retry it 2 times" in t.text.lower() for t in price.texts)
    assert not any("retry" in t.text.lower() for t in pull.texts + send.texts)
    assert any("never retry" in t.text.lower() for t in book.texts)


def test_fixed_format_with_sequence_numbers_and_sections() -> None:
    spec = read(FIXED)
    check(spec)
    said = " ".join(w.message for w in spec.warnings)
    assert "LS-DAY" in said and "LS-SHOP` has no VALUE" not in said  # LS-SHOP is ACCEPTed: no guess
    assert "by its place" in said  # INV-N -> invoices: by place, warned


def test_free_format() -> None:
    check(read(FREE))


def test_the_check_comment_calls_nothing() -> None:
    for text in (FIXED, FREE):
        spec = read(text)
        assert [s.skill for s in spec.steps].count("book-revenue") == 1


def test_comment_lines() -> None:
    assert cobol_comment("      * RUN IS GOOD WHEN X") == ("RUN IS GOOD WHEN X", 8)
    assert cobol_comment("000190*    GIVE IT 2 MINUTES") == ("GIVE IT 2 MINUTES", 11)
    assert cobol_comment("   *> free text") is not None
    assert cobol_comment("      *ptr = 3;") is None  # near miss: C indented six columns
    assert cobol_comment("  * a bullet") is None  # not column 7
    assert cobol_trailing("CALL 'SW' USING 'x' A  *> a note") == ("CALL 'SW' USING 'x' A", "a note")
    assert cobol_trailing("DISPLAY '*> not a comment'") == ("DISPLAY '*> not a comment'", "")
    lines = split_lines(["      * a comment", "      *ptr = 3;"])
    assert lines[0].comment == "a comment" and lines[1].code.strip() == "*ptr = 3;"


def test_a_comment_at_the_labels_depth_stays_its_heading() -> None:
    text = ("01 W-SHOP PIC X(4).\n01 W-DAY PIC X(10).\n"
            "pull-step.\n    call \"sw\" using \"pull-orders\" w-shop w-day returning o-orders.\n"
            "*> retry it 2 times\n"
            "send-step.\n    call \"sw\" using \"send-invoices\" w-shop o-orders returning s-inv.\n")
    spec = read(text)
    pull, send = spec.steps
    assert any("retry" in t.text for t in send.texts) and not any("retry" in t.text for t in pull.texts)


def test_using_and_items() -> None:
    got = using("CALL 'SW' USING 'calc' BY CONTENT A B RETURNING X Y.", "calc")
    assert got is not None and got.args == ["A", "B"] and got.returns == ["X", "Y"]
    assert using("CALL 'SW' USING 'other' A", "calc") is None
    lines = split_lines(["01 WS-R PIC 9V99 VALUE 0.25.", "01 WS-B PIC X(3).", "ACCEPT WS-B"])
    items = data_items(lines)
    assert items["WS-R"].value == 0.25 and items["WS-B"].value is None and items["WS-B"].accepted
    assert returned_field("FIN-TOTAL", ["lines", "total"], 2) == "total"
    assert returned_field("LTR-COUNT", ["letters"], 1) == "letters"
    assert returned_field("LTR-COUNT", ["letters", "pages"], 2) is None


def test_a_label_list_ends_where_a_sentence_starts() -> None:
    body = "Outputs: letters (whole number)\nExits 2 (reason on stderr) when an input is missing.\n"
    names, unread = bare_names(body, "SKILL.md")
    assert [n.name for n in names] == ["letters"] and not unread
    body2 = "Returns: total (number), count\nRaises when the ledger is shut.\n"
    assert [n.name for n in bare_names(body2, "SKILL.md")[0]] == ["total", "count"]
    # near miss: the label line leaves the list open, the next line goes on with it
    wrapped = "Takes: station_id (text), day (text,\nYYYY-MM-DD), Site\n"
    assert [n.name for n in bare_names(wrapped, "SKILL.md")[0]] == ["station_id", "day", "Site"]
    assert list_lines([(1, "a (x),"), (2, "Then b")], lambda t: t if "Then" not in t else None) is None

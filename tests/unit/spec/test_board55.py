"""Round 55 (holdout37 230): "w/" shorthand, "N s each max", a number before its noun, a whole-run line under a phantom."""

from __future__ import annotations

from orchestrator.plan.literal_said import literal_said
from orchestrator.plan.number_noun55 import noun_owner
from orchestrator.spec.phantom_rest55 import run_lines
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrasing55 import plain


def test_w_slash_is_with_never_a_field() -> None:
    for text, value in [("carry on w/ total = 0", {"total": 0}), ("proceed w/ rows = [] then", {"rows": []})]:
        on_failure = read_phrase(text).statement.on_failure
        assert on_failure is not None and on_failure.value == value
    assert plain("fail w/o a retry") == "fail without a retry"
    assert plain("set speed km/h and a/w/b") == "set speed km/h and a/w/b"  # near-miss: a slash inside words


def test_each_max_is_the_attempts_limit() -> None:
    assert read_phrase("2 min apiece tops").statement.timeout_s == 120.0
    assert read_phrase("30 s each at most, then fail").statement.timeout_s == 30.0
    assert plain("3 trays each max") == "3 trays each max"  # near-miss: no time unit


def test_number_before_a_noun_is_the_nouns() -> None:
    text = "the weight in grams + 4 pallets -> load-plan"
    assert literal_said("weight_g", text, ["weight_g", "pallets"]) is None
    assert literal_said("pallets", text, ["weight_g", "pallets"]) == (4, "the weight in grams 4 pallets load-plan")
    assert noun_owner(["2", "trays"], 0, ["tray_count", "ovens"]) == "tray_count"
    assert noun_owner(["3", "sacks"], 0, ["flour_kg", "ovens"]) is None  # near-miss: a noun nothing reads


def test_whole_run_line_under_a_phantom_is_the_runs() -> None:
    lines = [(7, "OK when label-print says printed"), (8, "the entire job: 2 h max"), (9, "label-print stuck > 1 min")]
    assert run_lines(lines, "label-print") == {8}
    assert run_lines([(4, "Dan owes 5 quid")], "x") == set()  # near-miss: chatter


def test_each_noun_then_an_arrow_is_a_for_each_cue() -> None:
    from orchestrator.plan.fan_arrow55 import EACH_ARROW

    for text, noun in [("every invoice => `pdf-render`", "invoice"), ("  | each row → clean-row", "row"),
                       ("EACH parcel ===> label-print", "parcel")]:
        m = EACH_ARROW.search(text)
        assert m is not None and m.group("noun") == noun
    assert EACH_ARROW.search("orders -> each shop gets one") is None  # near-miss: the arrow before "each"
    assert EACH_ARROW.search("each invoice is rendered") is None  # near-miss: no arrow (another cue's)


def test_an_output_after_an_article_is_had_not_compared() -> None:
    from orchestrator.spec.success_article55 import had_noun

    assert had_noun("a", " time") and had_noun("an", " path.") and had_noun("A", " number (HH:MM)")
    assert not had_noun("status", " scheduled")  # near-miss: no article, the bare word is the value
    assert not had_noun("a", ' of "A"') and not had_noun("a", " above 3")  # a value or a bound after it


def test_a_qualifier_after_the_number_is_no_noun() -> None:
    assert noun_owner(["99.5", "max", "2", "risky"], 0, ["min_crash_free", "max_risky"]) is None

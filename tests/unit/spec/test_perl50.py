"""A Perl script read as a script runbook (`spec.perl50`, round 50): `#` comments are its text, `shift @ARGV` /
`$ARGV[n]` / `my (...) = @ARGV` a workflow input named as the variable, `run_skill('skill', { k => v })` (or a flat
`k => v` list) a step's call, `$r->{f}` the output `f` of the step whose result is `$r`, `for my $t (@{ $r->{xs} })
{ push @all, ... }` a loop over a list whose results are gathered, `if / elsif / else` branches. None of the
scripts is a blind set's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.perl50 import perl_code_lines
from orchestrator.spec.script_flow import script_language
from orchestrator.spec.success import success_clause
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text

_OUTPUTS = {"list-hives": frozenset({"hives"}), "weigh-hive": frozenset({"kg"}), "sum-honey": frozenset({"kg", "low"}),
            "order-jars": frozenset({"jars"}), "feed-bees": frozenset({"fed"}), "log-round": frozenset({"logged"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_APIARY = """\
#!/usr/bin/env perl
# honey round -- weigh every hive at one apiary
use strict;
use warnings;
my ($site, $season) = @ARGV;

sub call_skill {
    my ($name, %args) = @_;
    die "stub";
}

# Step 1: list the hives
my $list = call_skill("list-hives", site => $site, season => $season);

# Step 2: weigh each hive
#   retry twice, 10 s apart
my @weights;
foreach my $h (@{$list->{hives}}) {
    push(@weights, call_skill('weigh-hive', { hive => $h->{id}, frame_count => 10 }));
}

# Step 3: add up
my $sum = call_skill('sum-honey', { rows => \\@weights, site => $site });

if ($sum->{low} eq 'yes') {
    # Step 4: feed them
    my $fed = call_skill('feed-bees', { site => $site, kg => $sum->{kg} });
} else {
    # Step 5: order jars
    my $jars = call_skill('order-jars', { kg => $sum->{kg}, label => "Heather" });
}
print "ok\\n";
__END__
# a note after the end
my $x = call_skill('log-round', { site => 1 });
"""


def _spec(text: str, path: str = "round.pl"):
    return parse_spec_text(text, path, "markdown", _WORDS)


def test_a_perl_script_is_a_script_runbook_by_its_suffix_or_its_shebang() -> None:
    assert script_language("round.pl", "use strict;") == "perl"
    assert script_language("round", "#!/usr/bin/perl -w\nuse strict;") == "perl"
    assert script_language("round", "#!/usr/bin/env perl\n") == "perl"
    assert script_language("notes.txt", "perl is a language") is None  # near miss


def test_its_arguments_calls_loop_and_fields_are_read() -> None:
    spec = _spec(_APIARY)
    assert [s.skill for s in spec.steps] == ["list-hives", "weigh-hive", "sum-honey", "feed-bees", "order-jars"]
    assert sorted(i.name for i in spec.inputs or ()) == ["season", "site"]  # named as the variables
    assert {f.name: f.source for f in spec.steps[0].inputs} == {"site": "inputs.site", "season": "inputs.season"}
    second = spec.steps[1]
    assert second.for_each == "item in steps.step-1.output.hives"
    assert second.input_values == {"hive": "{{ item.id }}", "frame_count": 10}
    assert {f.name: f.source for f in spec.steps[2].inputs} == {"rows": "steps.step-2.output", "site": "inputs.site"}
    assert spec.steps[4].input_values == {"label": "Heather"}
    assert not any("log-round" in str(s.skill) for s in spec.steps)  # near miss: after __END__, no code


def test_if_else_are_branches() -> None:
    feed, jars = _spec(_APIARY).steps[3:5]
    assert feed.when == "low == 'yes'"  # `eq` is `==`
    assert jars.when is None and jars.otherwise_of  # the else arm: runs when the if's condition does not hold


def test_statements_in_pythons_words() -> None:
    lines = perl_code_lines(["my $day = $ARGV[0] // 'today';", "my $n = shift;", "my $r = run_skill(",
                             "    'fetch-rows',", "    { day => $day, limit => $cfg{max} },", ");  # the rows",
                             "my @all;", "for my $x (@$rows) {", "  push @all, run_skill(\"mark-row\", row => $$x{id});",
                             "}", "my $d = $ENV{DEPOT};", "while (1) {", "}"])
    code = [t for k, _, t in lines if k == "code"]
    assert code[:3] == ["day = sys.argv[1]", "n = sys.argv[2]", 'r = run_skill("fetch-rows", day=day, limit=cfg.max)']
    assert ("comment", 6, "the rows") in lines
    assert code[3:6] == ["for x in rows:", 'all = run_skill("mark-row", row=x.id)', "\x00next"]
    assert code[6] == 'd = os.environ.get("DEPOT")'
    assert code[7] == "while (1):"  # any other loop: said as a loop, which the reader warns it does not read


def test_a_call_of_no_quoted_skill_is_no_step_and_a_sub_body_is_not_read() -> None:
    text = ("sub helper {\n  my $r = run_skill('weigh-hive', { hive => 1 });\n  return $r;\n}\n"
            "# Step 1: list\nmy $h = run_skill('list-hives', { site => 'north' });\n")
    spec = _spec(text)
    assert [s.skill for s in spec.steps] == ["list-hives"]  # near miss: the call inside the sub is no step
    assert spec.steps[0].input_values == {"site": "north"}


def test_a_done_check_said_before_the_steps_is_the_runs() -> None:
    text = ("#!/usr/bin/perl\n# it's only \"finished\" when the jars step comes back with jars true. else ring Bob\n"
            "my $kg = shift @ARGV;\n# 1) jars\nmy $j = run_skill('order-jars', { kg => $kg });\n"
            "# 2) log it\nmy $l = run_skill('log-round', { site => 'n' });\n")
    spec = _spec(text, "x.pl")
    assert any(t.kind == "success" and "jars == true" in t.text for t in spec.steps[0].texts)


def test_done_may_be_quoted_and_only_said_before_it() -> None:
    assert success_clause("it's only \"done\" when x is 3") == "x is 3"
    assert success_clause("It is only ready once the sheet says ok") == "the sheet says ok"
    assert success_clause("it's only a draft when printed") is None  # near miss


_BODIES = {
    "list-hives": "Lists hives.\n\nInputs: site (text).\nOutputs: hives (list of objects with id).\n",
    "weigh-hive": "Weighs one hive.\n\nInputs: hive (text).\nOutputs: kg (number).\n",
    "sum-honey": "Adds up.\n\nInputs: rows (list of objects with kg).\nOutputs: kg (number).\n",
}


def test_the_pushed_array_is_the_loops_results_gathered() -> None:
    text = ("my $site = shift @ARGV;\nmy $l = run_skill('list-hives', { site => $site });\nmy @w;\n"
            "for my $h (@{ $l->{hives} }) {\n    push @w, run_skill('weigh-hive', { hive => $h->{id} });\n}\n"
            "my $s = run_skill('sum-honey', { rows => \\@w });\n")
    plan = plan_of_text(text, SaidCatalog(_BODIES), "bees.pl")
    summed = next(s for s in plan.steps if s.skill == "sum-honey")
    assert (summed.inputs["rows"].step, summed.inputs["rows"].gather) == ("step-2", True)


def test_no_single_thing_gets_more_than_a_time_is_the_attempts_limit() -> None:
    from orchestrator.spec.phrase import read_phrase

    assert read_phrase("no single upload gets more than 90 seconds").statement.timeout_s == 90
    assert read_phrase("and no one batch is allowed over 2 minutes").statement.timeout_s == 120
    assert read_phrase("no single upload gets more than 3 photos").statement.timeout_s is None  # near miss: no time


def test_the_word_step_comes_back_with_a_field_and_its_value() -> None:
    from orchestrator.spec.success_back27 import step_said_back

    words = {"register": 5, "jars": 2}
    assert step_said_back("the register step comes back with updated true", {}, 5, {}, words) == \
        (5, "updated == true", "'the register step' names it")
    assert step_said_back("the jars stage returns ok yes", {}, 5, {}, words) == (2, "ok == yes", "'the jars stage' names it")
    assert step_said_back("the billing step comes back with updated true", {}, 5, {}, words) is None  # near miss

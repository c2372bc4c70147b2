"""A Procfile whose process lines run the skills is read as a runbook of them (`spec.procfile38`): each
`name: sw run <skill> key=value` line a step (with or without a numbered comment above it), the comment
lines above it its text (its policy read, not its title only), `@proc.field` the output of an earlier
process, `$X` an environment variable the workflow input, several processes' values joined a wait on
each and their values joined in order into one input (unbound, warned, when one is no process), a process line commented out or running no skill no step (warned). A lab's
sequencing pipeline, a newsroom's morning edition, a bakery's dough run; and Procfiles of real web
processes, a YAML-like notes file, that are not read as a workflow."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.procfile38 import is_procfile
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("demux-reads", "align-reads", "call-variants", "qc-report", "qc-lite", "pull-wires", "draft-briefs",
          "lay-out-page", "count-dough", "order-flour")
OUTPUTS = {"demux-reads": ["samples", "lanes"], "align-reads": ["bams"], "call-variants": ["vcf", "variant_count"],
           "qc-report": ["report_url"], "pull-wires": ["stories", "count"], "draft-briefs": ["briefs"],
           "lay-out-page": ["pdf"], "count-dough": ["kg_needed", "batches"]}


def _spec(text: str, name: str = "Procfile") -> Any:
    vocab = Vocabulary.of([(s, None) for s in SKILLS]).with_outputs(lambda s: frozenset(OUTPUTS.get(s, ())))
    return parse_spec_text(text, name, "markdown", vocab)


def _step(spec: Any, skill: str) -> Any:
    return next(s for s in spec.steps if s.skill == skill)


def _messages(spec: Any) -> dict[int, str]:
    out: dict[int, str] = {}
    for w in spec.warnings:
        out[w.line] = out.get(w.line, "") + " | " + w.message
    return out


LAB = """\
# nightly sequencing run, bench 3. RUN_ID is given by the sequencer when it kicks us off.
# Everything must finish inside 4 hours.

# 1. demux. the share flakes: retry 3 times, 20 s apart
demux: bin/sw run demux-reads run=$RUN_ID
align: bin/sw run align-reads samples=@demux.samples ref=GRCh38
# cap at 45 min, it never takes longer unless the node is stuck
variants: bin/sw run call-variants bams=@align.bams
# 4. qc. if it dies fall back to qc-lite
qc: bin/sw run qc-report vcf=@variants.vcf lanes=@demux.lanes
# web: gunicorn lims.wsgi
"""


def test_a_labs_procfile_reads_every_process_that_runs_a_skill_as_a_step() -> None:
    spec = _spec(LAB, "pipeline.procfile")
    assert [s.skill for s in spec.steps] == ["demux-reads", "align-reads", "call-variants", "qc-report"]
    assert [i.name for i in spec.inputs] == ["RUN_ID"]  # the environment variable, as spelled
    demux, align, variants, qc = spec.steps
    assert {f.name: f.source for f in demux.inputs} == {"run": "inputs.RUN_ID"}
    assert {f.name: f.source for f in align.inputs} == {"samples": f"steps.{demux.id}.output.samples"}
    assert align.input_values == {"ref": "GRCh38"}
    assert {f.name: f.source for f in qc.inputs} == {"vcf": f"steps.{variants.id}.output.vcf",
                                                      "lanes": f"steps.{demux.id}.output.lanes"}
    # the numbered comment is the step's text, read for its policy (not only its title)
    assert any("retry 3 times" in t.text for t in demux.texts)
    assert any("cap at 45 min" in t.text for t in variants.texts)  # no number above it: still a step, comment kept
    lines = _messages(spec)
    assert "read as a Procfile" in lines[5]
    assert "commented out" in lines[11]


def test_the_cap_said_in_a_process_comment_is_its_time_limit_not_a_backoff_cap() -> None:
    assert read_phrase("variants: cap at 45 min, it never takes longer").statement.timeout_s == 2700
    assert read_phrase("Cap it at 5 min - the press never runs over that").statement.timeout_s == 300
    stated = read_phrase("rip-standard: cap at 10 min, it's never legitimately longer").statement
    assert stated.timeout_s == 600 and stated.retries is None
    # the cap of the waits between retries stays that
    backoff = read_phrase("retry 4 times with exponential backoff, cap at 60 s").statement
    assert backoff.timeout_s is None


NEWS = """\
# morning edition. EDITION_DATE comes from the scheduler.

# 1. pull the wires
wires: skill pull-wires day=${EDITION_DATE}
# 2 + 3 run side by side once wires is done
briefs: skill draft-briefs stories=@wires.stories
page: skill lay-out-page stories=@wires.stories notes=@briefs.brief_list count=@wires.total
"""


def test_a_newsrooms_procfile_with_a_renamed_and_an_unknown_reference() -> None:
    spec = _spec(NEWS)
    assert [s.skill for s in spec.steps] == ["pull-wires", "draft-briefs", "lay-out-page"]
    assert [i.name for i in spec.inputs] == ["EDITION_DATE"]
    page = _step(spec, "lay-out-page")
    # `notes=@briefs.brief_list` stays the field written (no `notes` output either): the plan's check says the skill has no such output
    assert any(f.name == "notes" and f.source == f"steps.{spec.steps[1].id}.output.brief_list" for f in page.inputs)
    # `count=@wires.total`: pull-wires puts out no `total` but puts out `count`: that is taken, said
    assert any(f.name == "count" and f.source == f"steps.{spec.steps[0].id}.output.count" for f in page.inputs)
    assert "read as `@wires.count`" in _messages(spec)[7]
    assert read_phrase("2 + 3 run side by side once wires is done").statement.timeout_s is None


BAKERY = """\
# dough run for the two shops
count: sw run count-dough shop=leith
# 2. order the flour: waits for both counts
order: sw run order-flour kg=@count.kg_needed+@count_west.kg_needed
"""


def test_values_joined_from_several_processes_wait_for_each_and_are_said_unbound() -> None:
    spec = _spec(BAKERY)
    order = _step(spec, "order-flour")
    count = _step(spec, "count-dough")
    assert count.id in order.depends_on
    assert not any(f.name == "kg" for f in order.inputs) and "kg" not in order.input_values
    lines = _messages(spec)
    assert "joins the values" in lines[4] and "left unbound" in lines[4]


NEWSROOM = """\
# 1. pull the wires
wires: sw run pull-wires desk=world
# 2. the local desk's stories too
local: sw run pull-wires desk=local
briefs: sw run draft-briefs stories=@wires.stories,@local.stories
page: sw run lay-out-page briefs=@briefs.briefs
"""


def test_values_joined_from_several_processes_are_one_input_read_from_each_in_order() -> None:
    spec = _spec(NEWSROOM)
    briefs = _step(spec, "draft-briefs")
    stories = next(f for f in briefs.inputs if f.name == "stories")
    wires, local = (s.id for s in spec.steps[:2])
    assert stories.source == f"steps.{wires}.output.stories + steps.{local}.output.stories"
    assert {wires, local} <= set(briefs.depends_on)
    assert "joins the values" not in _messages(spec).get(5, "")
    dough = _spec("count: sw run count-dough shop=leith\ncount_west: sw run count-dough shop=west\n"
                  "order: sw run order-flour kg=@count_west.kg_needed&@count.kg_needed\n")
    kg = next(f for f in _step(dough, "order-flour").inputs if f.name == "kg")
    assert kg.source == f"steps.{dough.steps[1].id}.output.kg_needed + steps.{dough.steps[0].id}.output.kg_needed"


WEB = """\
web: gunicorn shop.wsgi --bind 0.0.0.0:$PORT
worker: celery -A shop worker -l info
release: python manage.py migrate
"""


def test_a_procfile_of_web_processes_is_no_workflow_and_says_so() -> None:
    assert is_procfile("Procfile", WEB)
    with pytest.raises(SpecError, match="none of its processes \\(web, worker, release\\) runs a skill"):
        _spec(WEB)  # refused, not an empty or guessed workflow


def test_files_that_look_like_procfiles_but_are_not_read_as_one() -> None:
    notes = "owner: Dee\nshop: leith\nwhen: every morning\n"
    assert not is_procfile("notes", notes)  # `key: value` lines that run no skill
    assert not is_procfile("config.yaml", "web: sw run pull-wires day=x\n")  # a YAML file by its suffix
    assert not is_procfile("jobs.txt", "wires: sw run pull-wires\n")  # a suffix other readers take
    assert is_procfile("jobs", "# the jobs\nwires: sw run pull-wires day=x\nbriefs: skill draft-briefs\n")
    assert is_procfile("Procfile.dev", "web: npm start\n")
    # a prose comment with a colon is not a process commented out
    spec = _spec("# 1. pull. wires: they come in late, retry twice\nwires: skill pull-wires\n")
    assert not any("commented out" in w.message for w in spec.warnings)


THOUSANDS = """\
# nightly run. RUN_ID is given when it kicks us off.

# 1000. demux. the share flakes: retry 3 times, 20 s apart
demux: bin/sw run demux-reads run=$RUN_ID
# 1010) align - if it fails, retry once after 30 s
align: bin/sw run align-reads samples=@demux.samples ref=GRCh38
"""


def test_a_procfile_numbered_in_thousands_keeps_its_step_names_and_their_policy_text() -> None:
    spec = _spec(THOUSANDS)
    demux, align = spec.steps
    assert (demux.name, align.name) == ("demux", "align")  # the number is the step's, not its name's
    assert [t.text for t in demux.texts] == ["the share flakes: retry 3 times, 20 s apart"]
    assert [t.text for t in align.texts] == ["if it fails, retry once after 30 s"]
    assert read_phrase(demux.texts[0].text).statement.retries == 3


def test_a_year_in_a_procfiles_comment_is_no_step_number() -> None:
    spec = _spec("# Copyright 2024. All rights reserved.\n" + THOUSANDS)
    assert [s.name for s in spec.steps] == ["demux", "align"]

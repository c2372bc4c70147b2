"""A Makefile written as make is written is read as its steps: a file target per step, its
prerequisites the steps it waits for (none: a root, so two such start together), the skill run inside
a pipeline (`... | $(PY) skills/<name>/main.py > $@`), a `jq` object filter before it as the skill's
inputs, phony goals and recipes that run no skill not steps (`spec.make_targets`). A lab's sequencing
Makefile, a newsroom's nightly build, a GIS tile build; and rules that look alike but are not so read."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.make_targets import (
    assigned_value,
    file_header,
    jq_arguments,
    pipeline_skill,
    skill_command,
)

LAB = """\
# sequencing QC, run as `make all RUN_ID=R77`
RUN_ID ?=
MIN_Q := 30
.PHONY: all
all: out/report.html

# trim-reads and count-barcodes don't need each other: make -j2 runs both
out/trimmed.json:   ## trim-reads for RUN_ID. retry 2 times, 10s apart
\tjq -n --arg r $(RUN_ID) '{run:$$r}' | python3 skills/trim-reads/main.py > $@
out/barcodes.json:  ## count-barcodes. give it 5 minutes at most
\tjq -n --arg r $(RUN_ID) '{run:$$r}' | python3 skills/count-barcodes/main.py > $@

out/report.html: out/trimmed.json out/barcodes.json
\tjq -s --argjson q $(MIN_Q) '{reads: .[0].reads, barcodes: .[1].counts, min_q: $$q}' $^ | python3 skills/qc-report/main.py > $@

clean:  ## not part of the run
\trm -rf out/
"""


def _spec(text: str, name: str = "Makefile") -> Any:
    return parse_spec_text(text, name, "markdown")


def test_a_lab_makefiles_file_targets_are_its_steps_with_their_prerequisites() -> None:
    spec = _spec(LAB)
    assert [s.skill for s in spec.steps] == ["trim-reads", "count-barcodes", "qc-report"]
    trim, count, report = spec.steps
    assert trim.depends_on == () and count.depends_on == ()  # two roots: they start together
    assert trim.depends_where is not None and count.depends_where is not None
    assert report.depends_on == ("step-1", "step-2")
    assert {f.name: f.source for f in report.inputs} == {"reads": "steps.step-1.output.reads",
                                                          "barcodes": "steps.step-2.output.counts"}
    assert report.input_values == {"min_q": 30}
    assert {f.name: f.source for f in trim.inputs} == {"run": "inputs.RUN_ID"}  # the author's name, kept
    assert [i.name for i in spec.inputs] == ["RUN_ID"]
    assert any("'clean'" in w.message and "not a step" in w.message for w in spec.warnings)


def test_a_newsrooms_nightly_build_chains_through_its_prerequisite() -> None:
    text = ("EDITION ?= city\nDESK := \\#night-desk\n\n"
            "build/stories.json:  ## pull-wires for EDITION\n"
            "\tjq -n --arg e $(EDITION) '{edition:$$e}' | ./skills/pull-wires/run > $@\n"
            "build/page.json: build/stories.json  ## lay-out-page\n"
            "\tjq --arg d '$(DESK)' '{stories: .items, desk: $$d}' $< | ./skills/lay-out-page/run > $@\n")
    spec = _spec(text, "nightly.mk")
    wires, page = spec.steps
    assert (wires.skill, page.skill, page.depends_on) == ("pull-wires", "lay-out-page", ("step-1",))
    assert {f.name: f.source for f in page.inputs} == {"stories": "steps.step-1.output.items"}
    assert page.input_values == {"desk": "#night-desk"}  # `\#` is make's escape, not a comment


def test_a_pipelines_skill_and_its_own_arguments() -> None:  # a GIS tile build; a backup job
    assert pipeline_skill("gdal_translate a.tif - | $(PY) skills/cut-tiles/main.py > $@") == "cut-tiles"
    assert pipeline_skill("cd work && ./skills/pack-backup/run.sh --fast") == "pack-backup"
    assert skill_command("jq -n --arg d x '{d:$$d}' | $(PY) skills/a-b/main.py zoom=3 > $@") == \
        "$(PY) skills/a-b/main.py zoom=3"
    assert skill_command("skill load-rows n=3") == "skill load-rows n=3"


@pytest.mark.parametrize("command", [
    "echo 'see skills/foo-bar/README for how' > notes.txt",  # inside quotes: said, not run
    "cat docs/skills/foo-bar.md",  # a path that is no skill's folder
    "rm -rf build/",
])
def test_a_command_that_runs_no_skill(command: str) -> None:
    assert pipeline_skill(command) is None


def test_rule_lines_that_are_no_file_target() -> None:
    assert file_header("%.o: %.c") is None  # a pattern rule makes no one file
    assert file_header("\tjq . $< > out/a.json") is None  # a recipe line
    assert file_header("# out/a.json: a note") is None
    got = file_header("out/a.json: in/b.json in/c.json  ## merge-them")
    assert got is not None and got.group("name") == "out/a.json" and got.group("deps").split() == ["in/b.json", "in/c.json"]


def test_a_jq_filter_gives_nothing_it_does_not_say() -> None:
    deps = ("build/a.json",)
    assert jq_arguments("jq '{n: (.a + .b)}' $< | python3 skills/sum-up/main.py", deps) == []  # an expression
    assert jq_arguments("jq '{n: .a}' $< > out.json", deps) == []  # no skill after it
    assert jq_arguments("jq '{n: .[2].a}' $^ | python3 skills/sum-up/main.py", deps) == []  # no third prerequisite


def test_a_variables_escaped_hash() -> None:
    assert assigned_value("CHAN := \\#ops", "\\") == "#ops"
    assert assigned_value("N := 3  # three", "3") == "3"


def test_a_fenced_justfiles_variables_stay_lower_case() -> None:  # only a Makefile that is the spec keeps them
    text = "# x\n\n```make\nLIMIT ?= 50\n\npull:\n\tskill pull-rows limit=$(LIMIT)\npush: pull\n\tskill push-rows\n```\n"
    spec = _spec(text, "doc.md")
    assert [i.name for i in spec.inputs] == ["limit"]

"""A spec kept in YAML or TOML in its author's own schema is read by what its keys mean: a block of
the workflow's own keys (`about:`, `meta:`, `[build]`) gives the title, the inputs, the whole-run
limit and the success check; placeholders are inputs; steps under the author's own keys give
their skill, inputs, loop, waits, retries and fallback. One reader serves both formats (TOML is
read into the same nodes); what is not understood is warned at its line, and a TOML syntax error
is an error at its line."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.toml_form import key_lines
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("pull-tags", "sign-build", "post-notes", "dispense-reagent", "read-plate", "wash-plate",
          "manual-read", "portion-stock", "label-tubs", "cook-rice", "bake-lightmaps", "pack-assets",
          "upload-build", "pack-assets-slow")
OUTPUTS = {"read-plate": frozenset({"absorbance", "ok"}), "upload-build": frozenset({"uploaded", "url"}),
           "label-tubs": frozenset({"labels", "printed"}), "post-notes": frozenset({"posted"})}
CATALOG = Vocabulary.of([(s, None) for s in SKILLS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))


def _read(text: str, kind: str = "yaml", path: str = "doc"):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, f"{path}.{kind}", kind, CATALOG)


def _notes(step) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.note for r in step.readings]


def _warned(spec, words: str) -> list[int]:  # type: ignore[no-untyped-def]
    return [w.line for w in spec.warnings if words in w.message]


def _success(spec) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {c.producer: c.validation for c in spec.contracts if c.consumer is None}


# a release pipeline, CI-ish, in the maintainer's own words
RELEASE = """\
# cut a release. run by hand.
meta:
  title: Cut a release
  ask_for: [tag, channel]     # the git tag and where it goes
  hard_stop: 15 min
  done_when: post says posted = true
  owner: ops
pipeline:
  - id: tags
    does: pull-tags
    takes: {tag: <tag>}
  - id: sign
    does: sign-build
    after: [tags]
    on_trouble:
      tries: 2    # two more goes after the first
      gap: 30s
  - id: post
    does: post-notes
    after: [sign]
    takes: {channel: channel}
"""


def test_a_release_pipelines_meta_block_gives_the_title_inputs_limit_and_success_check() -> None:
    spec = _read(RELEASE)
    assert spec.title == "Cut a release" and spec.timeout_s == 900
    assert [(i.name, i.required, i.description) for i in spec.inputs] == [
        ("tag", True, "the git tag and where it goes"), ("channel", True, "the git tag and where it goes")]
    assert _success(spec) == {"post": ("posted == true",)}
    assert _warned(spec, "key 'owner' not understood") == [7]  # never refused, said at its line


def test_a_release_pipelines_steps_take_the_authors_own_keys() -> None:
    tags, sign, post = _read(RELEASE).steps
    assert (tags.skill, sign.skill, post.skill) == ("pull-tags", "sign-build", "post-notes")
    assert [(f.name, f.source) for f in tags.inputs] == [("tag", "inputs.tag")]
    assert sign.depends_on == ("tags",) and sign.retries == 2
    assert sign.retry is not None and sign.retry.delays_s == (30.0,)
    assert "retries, as its comment says (the first attempt not counted)" in _notes(sign)
    assert [(f.name, f.source) for f in post.inputs] == [("channel", "inputs.channel")]


def test_an_input_named_bare_as_its_value_is_that_input_and_warned() -> None:
    spec = _read(RELEASE)
    assert _warned(spec, "'channel' is the name of the workflow input") == [21]


# a lab robot's plate run, in TOML with the technician's own tables
PLATE = """\
# ELISA plate run - robot bay 2
[run]
title = "Plate run"
finish_within = "2h"        # whole thing
complete_when = "read says ok = true"

[plate]                     # fill in before loading
barcode = "?"
layout = "?"

[[step]]
label = "dispense"
tool = "dispense-reagent"
feed_in = { plate = "plate" }
patience = "90s"

[[step]]
label = "wash"
tool = "wash-plate"
wait_for = ["dispense"]
again = { times = 3, pause = "10s, doubling" }

[[step]]
label = "read"
tool = "read-plate"
wait_for = ["wash"]
if_it_breaks = "use manual-read instead"
"""


def test_a_lab_robots_toml_is_read_with_its_lines() -> None:
    spec = _read(PLATE, "toml")
    assert spec.title == "Plate run" and spec.timeout_s == 7200
    [plate] = spec.inputs
    assert (plate.name, plate.type, plate.description, plate.where) == ("plate", "object", "fill in before loading",
                                                                       "doc.toml:7")
    dispense, wash, read = spec.steps
    assert [(s.id, s.where) for s in spec.steps] == [("dispense", "doc.toml:11"), ("wash", "doc.toml:17"),
                                                     ("read", "doc.toml:23")]
    assert dispense.timeout_s == 90 and [(f.name, f.source) for f in dispense.inputs] == [("plate", "inputs.plate")]
    assert wash.depends_on == ("dispense",) and read.depends_on == ("wash",)
    assert _success(spec) == {"read": ("ok == true",)}


def test_a_lab_robots_retry_in_words_and_fallback_skill_go_to_the_policy_grammar() -> None:
    spec = _read(PLATE, "toml")
    assert [s.skill for s in spec.steps] == ["dispense-reagent", "wash-plate", "read-plate"]  # no fallback step
    said = {r.where: r.statement for r in spec.readings}
    again, broken = said["doc.toml:21"], said["doc.toml:27"]  # cited at their TOML lines
    assert again.retries == 3 and again.wait is not None and (again.wait.kind, again.wait.start_s, again.wait.factor) == (
        "exponential", 10.0, 2.0)
    assert broken.on_failure is not None and (broken.on_failure.kind, broken.on_failure.skill) == ("use_skill",
                                                                                                  "manual-read")


# a kitchen's prep list, YAML, the head chef's own schema
KITCHEN = """\
info:
  title: Friday prep
  covers_needed_from_user: covers     # expected covers tonight
  time_cap: 90 min
  finished_if: labels says printed = yes
prep:
  - id: portion
    does: portion-stock
    takes: {covers: <covers>}
  - id: labels
    does: label-tubs
    repeat_for: portion.tubs
    call_each: tub
    takes: {tub: tub}
    time_cap: 20s            # per tub
  - id: rice
    performs: cook-rice
    mood: sunny
"""


def test_a_kitchen_prep_lists_loop_and_its_items_name() -> None:
    spec = _read(KITCHEN)
    portion, labels, rice = spec.steps
    assert labels.for_each == "tub in steps.portion.output.tubs"
    assert labels.timeout_s == 20  # (it waits for portion through the loop: the planner's data reference)
    assert spec.timeout_s == 5400 and [i.name for i in spec.inputs] == ["covers"]
    assert _success(spec) == {"labels": ("printed == true",)}
    assert rice.skill == "cook-rice" and _warned(spec, "key 'mood' not understood") == [18]
    del portion


# a game studio's nightly build, TOML
GAME = """\
[build]
name = "nightly"
wrap_by = "3h"
done_means = "upload came back uploaded = true"

platform = "<target platform>"

[[stage]]
label = "lightmaps"
tool = "bake-lightmaps"
feed_in = { platform = "platform" }

[[stage]]
label = "pack"
tool = "pack-assets"
wait_for = ["lightmaps"]
if_it_breaks = "hand it to pack-assets-slow"

[[stage]]
label = "upload"
tool = "upload-build"
wait_for = ["pack"]
[stage.limits]
attempts = 4     # in total
"""


def test_a_game_builds_toml_reads_its_run_limit_placeholder_and_stages() -> None:
    spec = _read(GAME, "toml", "nightly")
    assert spec.timeout_s == 10800 and spec.name == "nightly"
    [platform] = spec.inputs
    assert (platform.name, platform.description) == ("platform", "target platform")
    lightmaps, pack, upload = spec.steps
    assert [(f.name, f.source) for f in lightmaps.inputs] == [("platform", "inputs.platform")]
    assert pack.depends_on == ("lightmaps",) and upload.retries == 3
    assert _success(spec) == {"upload": ("uploaded == true",)}
    assert [s.skill for s in spec.steps] == ["bake-lightmaps", "pack-assets", "upload-build"]


def test_a_toml_syntax_error_is_an_error_at_its_line_not_a_traceback() -> None:
    with pytest.raises(SpecError) as info:
        _read('[build]\nname = "x"\nwrap_by = 3h\n', "toml")
    [d] = info.value.diagnostics
    assert (d.file, d.line) == ("doc.toml", 3) and d.message.startswith("TOML syntax:")


def test_toml_key_lines_follow_tables_arrays_inline_tables_and_multiline_strings() -> None:
    text = ('a = """one\ntwo"""\n[t]\nx = [\n  {k = 1},\n  {k = 2},\n]\n[[s]]\nid = "p"\n[[s]]\nid = "q"\n'
            '[s.inner]\nz = 1\n"quoted key" = \'v # not a comment\'\n')
    lines = key_lines(text)
    assert lines[("a",)] == 1 and lines[("t",)] == 3 and lines[("t", "x", 0)] == 5 and lines[("t", "x", 1)] == 6
    assert lines[("s", 0)] == 8 and lines[("s", 1, "id")] == 11 and lines[("s", 1, "inner", "z")] == 13
    assert lines[("s", 1, "inner", "quoted key")] == 14


def test_a_ci_jobs_timeout_is_not_lifted_as_the_workflows_own_keys() -> None:
    spec = _read("stages: [build]\ncompile:\n  stage: build\n  script: pull-tags\n  timeout: 10m\n")
    assert [s.skill for s in spec.steps] == ["pull-tags"] and spec.steps[0].timeout_s == 600
    assert spec.timeout_s is None


def test_a_mapping_under_a_key_that_asks_declares_an_input_per_key_and_its_dotted_name_is_that_input() -> None:
    spec = _read("ask_the_sous_chef:\n  covers: how many tonight\n  menu: which card\nprep:\n"
                 "  - id: portion\n    does: portion-stock\n    takes: {covers: ask_the_sous_chef.covers}\n")
    assert [(i.name, i.description) for i in spec.inputs] == [("covers", "how many tonight"), ("menu", "which card")]
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("covers", "inputs.covers")]

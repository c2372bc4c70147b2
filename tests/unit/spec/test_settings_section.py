"""A `[general]`-like section of a config-file spec (`spec.settings_section`): the workflow's settings,
never a step's text; a whole-run limit in it is read, every other setting warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "fetch-tides", "plot-course", "thaw-samples", "read-plate", "cut-audio", "post-episode",
    "create-account", "send-welcome")])


def _spec(text: str, path: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, path, "markdown", WORDS)


def _step_texts(spec) -> str:  # type: ignore[no-untyped-def]
    return " ".join(t.text for s in spec.steps for t in s.texts)


def _check(text: str, path: str, skills: list[str], unread_lines: list[int], limit_line: int | None) -> None:
    spec = _spec(text, path)
    said = [next(m.text for m in s.mentions if WORDS.skill_for(m.text)) for s in spec.steps]
    assert said == skills
    assert not any(k in _step_texts(spec) for k in ("ask_for", "finished_if", "requires", "inputs ="))  # on no step
    unread = [w.line for w in spec.warnings if "is the workflow's, no step's" in w.message]
    assert unread == unread_lines
    limits = [w.line for w in spec.warnings if "read as the whole run's limit" in w.message and "[" in w.message]
    assert limits == ([limit_line] if limit_line else [])


def test_a_passage_plan_ini_general_section_is_no_step() -> None:
    text = ("; passage plan\n\n[general]\nask_for = port, tides\nmax_total = 45min\n\n"
            "[tides]\nskill = fetch-tides\n\n[course]\nskill = plot-course\nafter = tides\n")
    _check(text, "passage.ini", ["fetch-tides", "plot-course"], [4], 5)


def test_a_lab_protocol_cfg_defaults_section_is_no_step() -> None:
    text = ("[defaults]\nfinished_if = plate reads ok\noperator = Sam  ; on shift\n\n"
            "[thaw]\nskill = thaw-samples\n\n[read]\nskill = read-plate\n")
    _check(text, "assay.cfg", ["thaw-samples", "read-plate"], [2, 3], None)


def test_a_podcast_and_an_onboarding_config_settings_sections() -> None:
    podcast = ("[settings]\n; the whole run must not take more than 2 hours\ninputs = raw_audio\n\n"
               "[cut]\nskill = cut-audio\n\n[post]\nskill = post-episode\n")
    _check(podcast, "episode.ini", ["cut-audio", "post-episode"], [3], None)
    spec = _spec(podcast, "episode.ini")
    assert any(r.where == "episode.ini:2" for r in spec.readings)  # the remark's limit: the whole run's
    onboarding = ("[Global]\nrequires = new_hire\ntimeout = 1h\n\n"
                  "[account]\nskill = create-account\n\n[welcome]\nskill = send-welcome\n")
    _check(onboarding, "onboard.ini", ["create-account", "send-welcome"], [2], 3)

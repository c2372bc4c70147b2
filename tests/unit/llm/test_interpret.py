"""`plan --interpret`: the model reads what the grammar cannot, once, into `<spec>.lock.json`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import jsonschema
import pytest

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.errors import ConfigError, LLMError
from orchestrator.hints import Hint, HintAction
from orchestrator.llm.fake import QueuedLLM
from orchestrator.llm.interpret import Interpretation, PolicyInterpreter, read_sentence, tool_schema
from orchestrator.lockfile import LockEntry, Lockfile, load_lock, lock_path, save_lock, text_sha256
from orchestrator.plan.interpretation import apply_lockfile
from orchestrator.policy import OnFailure, PolicyStatement, Wait
from orchestrator.spec import parse_spec
from orchestrator.spec.model import UnreadSentence

ODD = "Should the mirror stumble, let it catch its breath for half a minute and knock again, twice more at most."
SPEC = f"# Flow\n\n## Workflow Steps\n\n### Step 1: Pull\n- Skill: `pull`\n\nGive it 5 seconds.\n{ODD}\n"
READING = PolicyStatement(retries=2, wait=Wait(kind="fixed", seconds=(30.0,)))


def _sentence(text: str = ODD, line: int = 9) -> UnreadSentence:
    return UnreadSentence(text=text, where=f"flow.md:{line}", section="step", steps=("step-1",), step_name="Pull",
                          problem="not understood: 'half a minute', 'again'")


def _spec(tmp_path: Path, text: str = SPEC) -> Path:
    path = tmp_path / "flow.md"
    path.write_text(text, encoding="utf-8")
    return path


class Stub:
    """An interpreter that answers from a table, and counts what it was asked."""

    def __init__(self, answers: dict[str, PolicyStatement | LLMError]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, sentences: Sequence[UnreadSentence]) -> list[object]:
        out: list[object] = []
        for s in sentences:
            self.asked.append(s.text)
            answer = self.answers[s.text]
            out.append(answer if isinstance(answer, LLMError) else
                       Interpretation(sentence=s, statement=answer, reason="read", model="claude-test"))
        return out


# -- the tool and the prompt --------------------------------------------------------------


def test_the_tool_schema_is_the_policy_model_and_accepts_what_it_accepts() -> None:
    schema = tool_schema()
    assert schema["required"] == ["statement", "reason"]
    assert "$ref" not in json.dumps(schema) and "$defs" not in json.dumps(schema)
    statement = READING.model_dump(mode="json", exclude_defaults=True)
    jsonschema.validate({"statement": statement, "reason": "x"}, schema)
    assert set(schema["properties"]["statement"]["properties"]) == set(PolicyStatement.model_fields)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"statement": {"retries": -1}, "reason": "x"}, schema)


async def test_the_model_answers_through_read_policy_about_the_sentence_with_its_step() -> None:
    llm = QueuedLLM([{"statement": {"retries": 2, "wait": {"kind": "fixed", "seconds": [30]}}, "reason": "r"}])
    got = await read_sentence(llm, _sentence())
    assert got.statement == READING and got.reason == "r"
    (prompt, tool, where), = llm.asked
    assert tool.name == "read_policy" and where == "interpret/step/9"
    assert ODD in prompt.user and "Step: Pull (step-1)" in prompt.user and "half a minute" in prompt.user
    assert "`use_step`" in prompt.system  # the fields are explained in the template, not in Python


async def test_an_answer_outside_the_model_is_an_error_naming_the_line() -> None:
    llm = QueuedLLM([{"statement": {"wait": {"kind": "sometimes"}}, "reason": "?"}])
    with pytest.raises(LLMError) as caught:
        await read_sentence(llm, _sentence())
    assert caught.value.where == "flow.md:9" and "wait.kind" in caught.value.message


def test_the_interpreter_runs_its_calls_on_its_own_loop_and_reports_each_failure() -> None:
    llm = QueuedLLM([{"statement": {"no_retry": True}, "reason": "r"}])  # one answer for two sentences
    interpreter = PolicyInterpreter(lambda: llm)
    try:
        first, second = interpreter([_sentence(), _sentence("never mind that", 10)])
    finally:
        interpreter.close()
    assert isinstance(first, Interpretation) and first.statement.no_retry
    assert isinstance(second, LLMError) and second.where == "flow.md:10"


# -- the lockfile ----------------------------------------------------------------------


def test_interpret_writes_the_lockfile_and_the_reading_replaces_the_warning(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    spec = parse_spec(path)
    assert [u.text for u in spec.unread] == [ODD] and any(w.line == 9 for w in spec.warnings)
    stub = Stub({ODD: READING})
    read = apply_lockfile(spec, path, Settings(model="claude-test"), interpret=True, interpreter=stub)
    assert stub.asked == [ODD]
    (llm,) = [r for r in read.readings if r.source == "llm"]
    assert (llm.statement, llm.where, llm.model, llm.text) == (READING, f"{path}:9", "claude-test", ODD)
    assert [r.where for r in read.readings if r.source == "spec"] == [f"{path}:8"]  # the partial reading is replaced
    assert read.unread == () and not any(w.line == 9 for w in read.warnings)
    lock = load_lock(lock_path(path))
    assert lock is not None
    (entry,) = lock.entries
    assert (entry.kind, entry.sha256, entry.model, entry.where) == ("policy", text_sha256(ODD), "claude-test", "flow.md:9")
    assert PolicyStatement.model_validate(entry.reading) == READING


def test_a_later_plan_reads_the_lockfile_without_a_model(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    apply_lockfile(parse_spec(path), path, Settings(), interpret=True, interpreter=Stub({ODD: READING}))
    offline = Stub({})
    again = apply_lockfile(parse_spec(path), path, Settings(), interpreter=offline)
    assert offline.asked == []
    assert [r.statement for r in again.readings if r.source == "llm"] == [READING]
    assert again.warnings == ()


def test_a_changed_sentence_is_stale_and_warned(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    apply_lockfile(parse_spec(path), path, Settings(), interpret=True, interpreter=Stub({ODD: READING}))
    _spec(tmp_path, SPEC.replace("twice more", "three more"))
    spec = apply_lockfile(parse_spec(path), path, Settings())
    assert [r for r in spec.readings if r.source == "llm"] == []
    stale = [w for w in spec.warnings if w.code == "lock.stale"]
    assert [(w.line, "stale" in w.message) for w in stale] == [(9, True)]
    assert len(spec.unread) == 1  # still unread, for --interpret to read again


def test_an_entry_whose_sentence_is_gone_is_reported(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    apply_lockfile(parse_spec(path), path, Settings(), interpret=True, interpreter=Stub({ODD: READING}))
    _spec(tmp_path, SPEC.replace(ODD + "\n", ""))
    spec = apply_lockfile(parse_spec(path), path, Settings())
    (gone,) = [w for w in spec.warnings if w.code == "lock.stale"]
    assert "no longer in the spec" in gone.message


def test_interpret_without_a_key_or_a_recording_is_an_error_before_any_call(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    with pytest.raises(ConfigError, match="set ANTHROPIC_API_KEY") as raised:
        compile_spec(path, Settings(api_key=None), interpret=True)
    assert raised.value.hint == Hint(action=HintAction.ANSWER_FROM_RECORDING)
    assert not lock_path(path).exists()


def test_a_sentence_the_model_could_not_read_stays_a_warning(tmp_path: Path) -> None:
    path = _spec(tmp_path)
    spec = apply_lockfile(parse_spec(path), path, Settings(), interpret=True,
                          interpreter=Stub({ODD: LLMError("no recorded answer", where="flow.md:9")}))
    assert [w.line for w in spec.warnings if "could not read" in w.message] == [9]
    assert len(spec.unread) == 1 and not lock_path(path).exists()


def test_the_lockfile_prefers_the_settings_model_and_is_deterministic_without_it() -> None:
    a = LockEntry(kind="policy", sha256=text_sha256(ODD), model="m-b", text=ODD, reading={"retries": 1})
    b = LockEntry(kind="policy", sha256=text_sha256(ODD), model="m-a", text=ODD, reading={"retries": 2})
    lock = Lockfile().with_entry(a).with_entry(b)
    assert lock.find("policy", ODD, "m-b") == a
    assert lock.find("policy", ODD) == b  # by model name
    assert lock.find("policy", "  ".join(ODD.split())) == b  # whitespace does not matter
    assert lock.find("skill-choice", ODD) is None  # kinds are apart
    assert lock.with_entry(a.model_copy(update={"reading": {"retries": 3}})).find("policy", ODD, "m-b").reading == {
        "retries": 3}


def test_a_broken_lockfile_is_a_config_error_naming_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "flow.md.lock.json"
    path.write_text('{"format": 1,\n "entries": [}\n')
    with pytest.raises(ConfigError) as caught:
        load_lock(path)
    assert caught.value.where == f"{path}:2"
    path.write_text('{"format": 7, "entries": []}')
    with pytest.raises(ConfigError, match="lockfile format 7"):
        load_lock(path)


def test_the_lockfile_round_trips_and_holds_skill_choices_beside_policies(tmp_path: Path) -> None:
    choice = LockEntry(kind="skill-choice", sha256=text_sha256("the CSV parser skill"), model="m",
                       text="the CSV parser skill", reading={"skill": "parse-csv"}, reason="it parses CSV")
    policy = LockEntry(kind="policy", sha256=text_sha256(ODD), model="m", text=ODD,
                       reading=PolicyStatement(on_failure=OnFailure(kind="continue")).model_dump(mode="json"))
    path = tmp_path / "x.lock.json"
    save_lock(path, Lockfile(spec="x.md").with_entry(policy).with_entry(choice))
    assert load_lock(path) == Lockfile(spec="x.md").with_entry(choice).with_entry(policy)
    assert [e["kind"] for e in json.loads(path.read_text())["entries"]] == ["policy", "skill-choice"]

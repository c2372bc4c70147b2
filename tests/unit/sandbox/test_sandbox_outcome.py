"""Classifying what a sandboxed process did: output contract, limits, signals, setup."""

from __future__ import annotations

import signal

import pytest

from orchestrator.sandbox.model import FailureKind, Isolation, ResourceLimits, ResourceUsage
from orchestrator.sandbox.outcome import MAX_OUTPUT_DEPTH, classify, decode_tail, parse_output
from orchestrator.sandbox.process import SpawnResult

LIMITS = ResourceLimits(wall_s=2, cpu_s=3, memory_mb=64, max_procs=8, max_stdout_bytes=2048)


def _ran(**kw: object) -> SpawnResult:
    values: dict[str, object] = {"returncode": 0, "started": True, "stdout": b"{}"}
    values.update(kw)
    return SpawnResult.model_validate(values)


def _kind(spawn: SpawnResult, isolation: Isolation = Isolation.BWRAP) -> FailureKind | None:
    failure = classify(spawn, isolation=isolation, limits=LIMITS).failure
    return failure.kind if failure else None


@pytest.mark.parametrize(
    ("stdout", "value"),
    [
        (b'{"a": 1}', {"a": 1}),
        (b'  \n[1, "\xc3\xa9"]\n\n', [1, "é"]),
        (b"42", 42),
        (b"null", None),
    ],
)
def test_one_json_document_with_surrounding_whitespace_is_the_output(
    stdout: bytes, value: object
) -> None:
    assert parse_output(stdout) == (value, None)


@pytest.mark.parametrize(
    ("stdout", "says"),
    [
        (b"", "stdout is empty"),
        (b"   \n", "stdout is empty"),
        (b"hello world", "stdout is not JSON"),
        (b'{"a": 1}\ndone', "text after the JSON document"),
        (b'{"a": 1}{"b": 2}', "text after the JSON document"),
        (b'{"a": NaN}', "NaN is not valid JSON"),
        (b'{"a": "\xff"}', "stdout is not UTF-8"),
    ],
)
def test_anything_but_one_json_document_is_a_contract_error_that_says_why(
    stdout: bytes, says: str
) -> None:
    value, problem = parse_output(stdout)
    assert value is None
    assert problem is not None and says in problem


def test_contract_errors_quote_the_offending_text() -> None:
    _, problem = parse_output(b'{"ok": true}\nDEBUG: finished')
    assert problem is not None and "DEBUG: finished" in problem and "stderr" in problem


def test_a_clean_exit_with_json_is_a_success() -> None:
    outcome = classify(_ran(stdout=b'{"n": 2}'), isolation=Isolation.BWRAP, limits=LIMITS)
    assert outcome.failure is None
    assert outcome.output == {"n": 2}
    assert outcome.exit_code == 0


def test_a_clean_exit_with_bad_stdout_is_an_output_contract_failure() -> None:
    assert _kind(_ran(stdout=b"hi")) is FailureKind.OUTPUT_CONTRACT


def test_a_nonzero_exit_is_a_code_error_naming_the_status_and_the_exception() -> None:
    spawn = _ran(returncode=1, stderr_tail=b"Traceback...\nValueError: bad input\n")
    outcome = classify(spawn, isolation=Isolation.BWRAP, limits=LIMITS)
    assert outcome.failure is not None
    assert outcome.failure.kind is FailureKind.CODE_ERROR
    assert outcome.failure.message == "script exited with status 1: ValueError: bad input"
    assert outcome.output is None


def test_a_process_that_never_reached_the_script_is_a_setup_failure() -> None:
    spawn = _ran(returncode=1, started=False, stderr_tail=b"bwrap: Can't mount proc\n")
    outcome = classify(spawn, isolation=Isolation.BWRAP, limits=LIMITS)
    assert outcome.failure is not None
    assert outcome.failure.kind is FailureKind.SETUP
    assert "bwrap: Can't mount proc" in outcome.failure.message


def test_a_command_that_cannot_be_started_is_a_setup_failure() -> None:
    assert _kind(SpawnResult(error="cannot start /x/bwrap: No such file")) is FailureKind.SETUP


def test_the_wall_clock_limit_is_a_timeout() -> None:
    failure = classify(
        _ran(returncode=-9, timed_out=True), isolation=Isolation.BWRAP, limits=LIMITS
    ).failure
    assert failure is not None and failure.kind is FailureKind.TIMEOUT
    assert "2 s" in failure.message


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_an_output_cap_is_a_resource_limit_that_names_the_stream(stream: str) -> None:
    failure = classify(
        _ran(returncode=-9, overflow=stream), isolation=Isolation.BWRAP, limits=LIMITS
    ).failure
    assert failure is not None and failure.kind is FailureKind.RESOURCE_LIMIT
    assert stream in failure.message and "killed" in failure.message


def test_bwrap_reports_a_signal_as_128_plus_its_number() -> None:
    outcome = classify(
        _ran(returncode=128 + signal.SIGXCPU), isolation=Isolation.BWRAP, limits=LIMITS
    )
    assert outcome.signal == signal.SIGXCPU and outcome.exit_code is None
    assert outcome.failure is not None and outcome.failure.kind is FailureKind.RESOURCE_LIMIT
    assert "CPU limit of 3 s" in outcome.failure.message


def test_without_a_namespace_init_a_high_exit_status_stays_an_exit_status() -> None:
    outcome = classify(_ran(returncode=130), isolation=Isolation.NONE, limits=LIMITS)
    assert outcome.exit_code == 130 and outcome.signal is None


def test_a_kill_after_using_the_cpu_budget_is_the_cpu_limit() -> None:
    spawn = _ran(returncode=-signal.SIGKILL, usage=ResourceUsage(cpu_s=4.0))
    assert _kind(spawn, Isolation.NONE) is FailureKind.RESOURCE_LIMIT


def test_a_crash_on_a_signal_is_a_code_error_naming_the_signal() -> None:
    failure = classify(
        _ran(returncode=-signal.SIGSEGV), isolation=Isolation.NONE, limits=LIMITS
    ).failure
    assert failure is not None and failure.kind is FailureKind.CODE_ERROR
    assert "SIGSEGV" in failure.message


@pytest.mark.parametrize(
    ("last_line", "says"),
    [
        ("MemoryError", "64 MB"),
        ("BlockingIOError: [Errno 11] Resource temporarily unavailable", "8 processes"),
        ("OSError: [Errno 24] Too many open files: 'x'", "open files"),
        ("OSError: [Errno 27] File too large", "file size"),
    ],
)
def test_python_errors_from_rlimits_are_resource_limits(last_line: str, says: str) -> None:
    spawn = _ran(returncode=1, stderr_tail=f"Traceback ...\n{last_line}\n".encode())
    failure = classify(spawn, isolation=Isolation.UNSHARE, limits=LIMITS).failure
    assert failure is not None and failure.kind is FailureKind.RESOURCE_LIMIT
    assert says in failure.message


def test_failure_messages_are_one_line() -> None:
    spawn = _ran(returncode=2, stderr_tail=b"x" * 2000 + b"\n")
    failure = classify(spawn, isolation=Isolation.BWRAP, limits=LIMITS).failure
    assert failure is not None
    assert "\n" not in failure.message and len(failure.message) <= 300


def test_a_tail_cut_inside_a_character_drops_the_broken_start() -> None:
    assert decode_tail("é€".encode()[1:]) == "€"


def _nested(depth: int) -> bytes:
    return b'{"a": ' * depth + b"1" + b"}" * depth


@pytest.mark.parametrize("depth", [MAX_OUTPUT_DEPTH + 1, 300, 980, 5000])
def test_output_nested_deeper_than_the_limit_breaks_the_contract_saying_where(depth: int) -> None:
    assert MAX_OUTPUT_DEPTH == 128
    failure = classify(
        _ran(stdout=_nested(depth)), isolation=Isolation.BWRAP, limits=LIMITS
    ).failure
    assert failure is not None and failure.kind is FailureKind.OUTPUT_CONTRACT
    assert failure.message == "stdout nests deeper than 128 levels (at char 768)"


def test_output_nested_exactly_to_the_limit_is_fine_and_brackets_in_strings_do_not_count() -> None:
    assert parse_output(_nested(MAX_OUTPUT_DEPTH))[1] is None
    in_strings = b'{"s": "' + b"[{" * 500 + b'", "t": "\\\\\\"[[[", "u": []}'
    assert parse_output(in_strings) == (
        {"s": "[{" * 500, "t": '\\"[[[', "u": []},
        None,
    )


def test_output_with_more_containers_than_the_limit_breaks_the_contract_with_the_count() -> None:
    limits = LIMITS.merged(max_output_containers=1000)
    many = b"[" + b",".join([b'{"a": []}'] * 600) + b"]"  # 1 + 600 + 600 containers
    failure = classify(_ran(stdout=many), isolation=Isolation.BWRAP, limits=limits).failure
    assert failure is not None and failure.kind is FailureKind.OUTPUT_CONTRACT
    assert failure.message.startswith(
        "stdout holds 1,201 objects and arrays, over the limit of 1,000 (max_output_containers)"
    )
    exactly = b"[" + b",".join([b"{}"] * 999) + b"]"
    assert classify(_ran(stdout=exactly), isolation=Isolation.BWRAP, limits=limits).failure is None


def test_brackets_inside_strings_do_not_count_as_containers() -> None:
    text = b'{"s": "' + b"{[" * 5000 + b'", "t": [1, 2]}'
    value, problem = parse_output(text, max_containers=2)
    assert problem is None and value["t"] == [1, 2]
    assert parse_output(b"[[], [], []]", max_containers=3)[1] is not None


@pytest.mark.parametrize("number", ["1e400", "-1e400", "123e999"])
def test_a_number_out_of_a_floats_range_breaks_the_contract(number: str) -> None:
    stdout = b'{"a": [1.5, ' + number.encode() + b"]}"
    assert parse_output(stdout) == (None, f"stdout has a number out of range: {number}")


@pytest.mark.parametrize(
    ("stdout", "where"),
    [
        (b'{"a": "\\ud800"}', "/a: a lone surrogate \\ud800"),
        (b'{"a": ["ok", "x\\udfff"]}', "/a/1: a lone surrogate \\udfff"),
        (b'{"a": {"\\udc00": 1}}', "/a (a key): a lone surrogate \\udc00"),
        (b'"\\ud83d"', "/: a lone surrogate \\ud83d"),
    ],
)
def test_a_lone_surrogate_breaks_the_contract_naming_where(stdout: bytes, where: str) -> None:
    failure = classify(_ran(stdout=stdout), isolation=Isolation.BWRAP, limits=LIMITS).failure
    assert failure is not None and failure.kind is FailureKind.OUTPUT_CONTRACT
    assert failure.message == f"stdout at {where} is not valid Unicode"


def test_a_surrogate_pair_escape_is_one_valid_character() -> None:
    assert parse_output(b'{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}') == (
        {"a": "\U0001f600", "b": "\\ud800"},
        None,
    )


def test_a_work_directory_over_its_quota_is_a_resource_limit_even_after_a_clean_exit() -> None:
    for spawn in (_ran(over_quota=True), _ran(returncode=-signal.SIGKILL, over_quota=True)):
        failure = classify(spawn, isolation=Isolation.BWRAP, limits=LIMITS).failure
        assert failure is not None and failure.kind is FailureKind.RESOURCE_LIMIT
        assert failure.message == "script wrote more than 512 MB to its work directory"


def test_running_out_of_memory_names_the_limit_as_one_for_each_process() -> None:
    failure = classify(
        _ran(returncode=1, stderr_tail=b"MemoryError\n"), isolation=Isolation.BWRAP, limits=LIMITS
    ).failure
    assert failure is not None and failure.kind is FailureKind.RESOURCE_LIMIT
    assert failure.message.startswith("script ran out of memory under its limit of 64 MB a process")

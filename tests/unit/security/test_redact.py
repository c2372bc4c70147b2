"""Values an mcp.json took from the environment, replaced by `${VAR}` in text and streams."""

from __future__ import annotations

import io

import pytest

from orchestrator.errors import McpError
from orchestrator.mcp_client.config import parse_mcp_config
from orchestrator.security.redact import MAX_LINE_CHARS, RedactingStream, Redactor, redact_error

SECRET = "sk-ant-0123456789abcdef"


def test_a_value_is_replaced_by_the_name_of_its_variable() -> None:
    redactor = Redactor(secrets={SECRET: "ANTHROPIC_API_KEY"})
    assert redactor.redact(f"argv: ['--key', '{SECRET}'] and {SECRET}") == (
        "argv: ['--key', '${ANTHROPIC_API_KEY}'] and ${ANTHROPIC_API_KEY}"
    )


def test_a_longer_value_holding_a_shorter_one_is_replaced_whole() -> None:
    redactor = Redactor(secrets={"abcd": "SHORT", "abcdefgh": "LONG"})
    assert redactor.redact("x abcdefgh y abcd") == "x ${LONG} y ${SHORT}"


def test_the_config_collects_values_from_the_environment_but_not_defaults_or_short_ones(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = (
        '{"mcpServers": {"s": {"command": "run", "args": ["--key", "${KEY}", "--mode", "${MODE:-strict-default}",'
        ' "--n", "${N}"], "env": {"T": "${TOKEN}"}}}}'
    )
    servers, _ = parse_mcp_config(text, path=tmp_path / "mcp.json", env={"KEY": SECRET, "N": "42", "TOKEN": "tok-987654"})
    assert servers["s"].redactor.secrets == {SECRET: "KEY", "tok-987654": "TOKEN"}


def _streamed(redactor: Redactor, pieces: list[bytes]) -> str:
    sink = io.StringIO()
    stream = RedactingStream(redactor, sink)
    for piece in pieces:
        stream.feed(piece)
    stream.close()
    return sink.getvalue()


@pytest.mark.parametrize("at", [1, 5, len(SECRET) - 1, len(SECRET) + 9])
def test_a_secret_split_across_reads_is_still_replaced(at: int) -> None:
    line = f"started with {SECRET}\n".encode()
    cut = line.index(SECRET.encode()) + at
    out = _streamed(Redactor(secrets={SECRET: "KEY"}), [line[:cut], line[cut:]])
    assert out == "started with ${KEY}\n"


def test_a_secret_in_an_endless_line_is_replaced_without_holding_the_whole_line() -> None:
    filler = b"x" * (MAX_LINE_CHARS - 5)
    sink = io.StringIO()
    stream = RedactingStream(Redactor(secrets={SECRET: "KEY"}), sink)
    stream.feed(filler + SECRET.encode()[:10])
    stream.feed(SECRET.encode()[10:] + b"y" * 100)
    written_before_close = sink.getvalue()
    stream.close()
    assert SECRET not in sink.getvalue()
    assert sink.getvalue() == filler.decode() + "${KEY}" + "y" * 100
    assert len(written_before_close) >= MAX_LINE_CHARS - len(SECRET)  # the long line was not all held back


def test_a_character_split_across_reads_is_kept_whole() -> None:
    out = _streamed(Redactor(secrets={SECRET: "KEY"}), ["é\n".encode()[:1], "é\n".encode()[1:]])
    assert out == "é\n"


def test_an_error_raised_further_has_its_message_and_stderr_tail_redacted() -> None:
    class WithTail(McpError):
        stderr_tail = f"argv {SECRET}"

    error = WithTail(f"failed to start: {SECRET}", where="mcp.json:2")
    redact_error(error, Redactor(secrets={SECRET: "KEY"}))
    assert error.message == "failed to start: ${KEY}" and str(error) == error.message
    assert error.stderr_tail == "argv ${KEY}"

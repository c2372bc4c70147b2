"""The blob folder: payloads over the threshold travel by reference, and come back whole or not at all."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from temporalio.api.common.v1 import Payload

from orchestrator.journal.events import OutputStored
from orchestrator.temporal.blobs import BlobError, BlobFolder, data_converter
from orchestrator.temporal.messages import RunHistory


def test_a_payload_over_the_threshold_goes_to_the_blob_folder_and_comes_back_equal(tmp_path: Path) -> None:
    converter = data_converter(tmp_path, threshold=1024)
    big = RunHistory(events=(OutputStored(ts=1.0, step="s", output={"text": "x" * 5000}),), total=1)

    async def round_trip() -> tuple[list[Payload], RunHistory]:
        payloads = await converter.encode([big])
        [back] = await converter.decode(payloads, [RunHistory])
        return payloads, back

    payloads, back = asyncio.run(round_trip())
    assert back == big
    assert payloads[0].ByteSize() < 1024  # only the reference went through Temporal
    [stored] = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert stored.stat().st_size > 5000 and stored.parent.name == stored.name[:2]


def test_a_small_payload_stays_inline(tmp_path: Path) -> None:
    converter = data_converter(tmp_path, threshold=1024)
    payloads = asyncio.run(converter.encode([RunHistory(total=0)]))
    assert b"total" in payloads[0].data
    assert not any(tmp_path.iterdir())


def test_the_same_content_is_stored_once_under_its_hash(tmp_path: Path) -> None:
    folder = BlobFolder(tmp_path)
    assert folder.put(b"abc") == folder.put(b"abc")
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == 1


def test_a_missing_or_altered_blob_is_an_error_naming_its_hash(tmp_path: Path) -> None:
    folder = BlobFolder(tmp_path)
    sha = folder.put(b"payload")
    folder.path(sha).write_bytes(b"tampered")
    with pytest.raises(BlobError, match=f"blob {sha} .* does not match its hash"):
        folder.get(sha)
    folder.path(sha).unlink()
    with pytest.raises(BlobError, match=f"blob {sha} is not in {tmp_path}"):
        folder.get(sha)

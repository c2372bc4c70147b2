"""Payloads too big for Temporal, kept out of band in a content-addressed blob folder.

Temporal refuses a payload over 2 MB and slows down well before (it warns from
256 KB). Every payload at or over `BLOB_THRESHOLD` bytes (a step's large
output, a big plan, the events of a large run) is written to the blob folder
under its own sha256, `<blob-dir>/<sha[:2]>/<sha>`, and only a reference
goes through Temporal (Temporal's external-storage claim check; this is its
driver for a plain folder). Writing is atomic and idempotent (one content, one
name), so any number of workers and clients may share the folder: a network
file system, or one machine's disk. Every process of a deployment (workers,
`skillweave run`, `runs show`) must see the same folder (`--blob-dir`,
`SKILLWEAVE_BLOB_DIR`; default `<state-dir>/blobs`). A missing or altered blob
is an error naming its hash, never a silently different value.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from temporalio.api.common.v1 import Payload
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.converter import (
    DataConverter,
    ExternalStorage,
    StorageDriver,
    StorageDriverClaim,
    StorageDriverRetrieveContext,
    StorageDriverStoreContext,
)

BLOB_THRESHOLD = 256 * 1024  # bytes: Temporal's own warning size, well under its 2 MB limit
DRIVER_NAME = "skillweave-blob-dir"


class BlobError(Exception):
    """A blob cannot be read back (missing, or not what its hash says)."""


class BlobFolder(StorageDriver):
    """A StorageDriver over a folder shared by workers and clients (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def name(self) -> str:
        return DRIVER_NAME

    def type(self) -> str:
        return "skillweave.blob-dir"

    def path(self, sha: str) -> Path:
        return self.folder / sha[:2] / sha

    def put(self, data: bytes) -> str:
        sha = hashlib.sha256(data).hexdigest()
        target = self.path(sha)
        if target.is_file() and target.stat().st_size == len(data):
            return sha
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{sha}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
        return sha

    def get(self, sha: str) -> bytes:
        try:
            data = self.path(sha).read_bytes()
        except OSError as exc:
            raise BlobError(f"blob {sha} is not in {self.folder} ({exc.strerror}): is the blob folder shared by the client and every worker?") from None
        if hashlib.sha256(data).hexdigest() != sha:
            raise BlobError(f"blob {sha} in {self.folder} does not match its hash")
        return data

    async def store(self, context: StorageDriverStoreContext, payloads: Sequence[Payload]) -> list[StorageDriverClaim]:
        claims = []
        for payload in payloads:
            sha = self.put(payload.SerializeToString())
            claims.append(StorageDriverClaim(claim_data={"sha256": sha}))
        return claims

    async def retrieve(self, context: StorageDriverRetrieveContext, claims: Sequence[StorageDriverClaim]) -> list[Payload]:
        found = []
        for claim in claims:
            payload = Payload()
            payload.ParseFromString(self.get(claim.claim_data["sha256"]))
            found.append(payload)
        return found


def data_converter(blob_dir: Path | None, threshold: int = BLOB_THRESHOLD) -> DataConverter:
    """Pydantic's converter, with payloads over `threshold` kept in `blob_dir` (None: none kept)."""
    if blob_dir is None:
        return pydantic_data_converter
    storage = ExternalStorage(drivers=[BlobFolder(blob_dir)], payload_size_threshold=threshold)
    return dataclasses.replace(pydantic_data_converter, external_storage=storage)

"""Compiled regular expressions kept between processes, as Python keeps bytecode in `__pycache__`.

The policy grammar (`spec.grammar`) has about 190 patterns, some 40 000 characters once
expanded. `re.compile` parses and compiles them in 50-70 ms in every process that reads
a policy sentence, most of what the reader adds to `skillweave validate`. Their compiled
form (CPython's `_sre` code: a list of integers per pattern) loads in 1-2 ms.

    compile_all(name, sources, flags, expand=None) -> list[re.Pattern[str]]
    compile_many(name, [(pattern, flags), ...]) -> list[re.Pattern[str]]

compile a fixed list of patterns (each source as `expand` makes it, if given: the
grammar's placeholders are only expanded when the cache cannot be used): from
`__pycache__/regex-<name>-<interpreter>-<hash>.marshal` beside this module when it
holds exactly these patterns for this interpreter, else with `re.compile`, and then
write that file for the next process (atomically, replacing the file of an older
grammar; `SKILLWEAVE_REGEX_CACHE=0` turns it off; a folder that cannot be written, a
file that cannot be read or a `re` whose internals differ all just mean `re.compile`).
A module's own patterns go the same way one by one (`Patterns`): `_rx = Patterns(__name__)`
at its top, `_rx(pattern, flags)` where it called `re.compile`, `_rx.save()` at its end.
It is not bytecode: `PYTHONDONTWRITEBYTECODE` does not apply. The cache is keyed by
the patterns, the flags, the interpreter's version and `_sre.MAGIC`, so a changed
grammar or Python never loads stale code, and what is written is first checked to
compile back to the same patterns.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import marshal
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

_FOLDER = Path(__file__).resolve().parent / "__pycache__"


def _internals() -> tuple[Any, Any, Any] | None:
    """CPython's regex parser, code generator and `_sre`, where this module knows them."""
    if os.environ.get("SKILLWEAVE_REGEX_CACHE", "1") == "0":
        return None
    if sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info[:2] <= (3, 13):
        return None
    try:
        return (importlib.import_module("re._parser"), importlib.import_module("re._compiler"),
                importlib.import_module("_sre"))
    except ImportError:
        return None


def _path(name: str, patterns: list[str], flags: int, sre: Any, version: str = "") -> Path:
    digest = hashlib.sha256("\x00".join([str(flags), sys.version, str(sre.MAGIC), version, *patterns]).encode())
    return _FOLDER / f"regex-{name}-{sys.implementation.cache_tag}-{digest.hexdigest()[:16]}.marshal"


def _load(path: Path, sources: list[str], sre: Any) -> list[re.Pattern[str]] | None:
    try:
        data = marshal.loads(path.read_bytes())
        if not isinstance(data, list) or [d[0] for d in data] != sources:
            return None
        return [sre.compile(pattern, fl, code, groups, groupindex, indexgroup)
                for _, pattern, fl, code, groups, groupindex, indexgroup in data]
    except (OSError, ValueError, EOFError, TypeError, IndexError, RuntimeError):
        return None


def _compiled_form(pattern: str, flags: int, parser: Any, compiler: Any) -> tuple[Any, ...]:
    """What `re._compiler.compile` hands `_sre.compile`, as plain data."""
    parsed = parser.parse(pattern, flags)
    code = [int(c) for c in compiler._code(parsed, flags)]
    groupindex = {str(k): int(v) for k, v in parsed.state.groupdict.items()}
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return pattern, int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _store(path: Path, name: str, sources: list[str], patterns: list[str], flags: int, parser: Any,
           compiler: Any, sre: Any) -> None:
    try:
        data = [(source, *_compiled_form(p, flags, parser, compiler)) for source, p in zip(sources, patterns, strict=True)]
        # what is written must load back as the same patterns, or nothing is written
        check = [sre.compile(*d[1:]) for d in data]
        if [c.pattern for c in check] != patterns:
            return
    except (ValueError, TypeError, AttributeError, RuntimeError):
        return
    _write(path, name, data)


def _write(path: Path, name: str, data: list[Any]) -> None:
    """Replace the cache file at `path` with `data`, atomically, and drop the module's older ones;
    a failure leaves nothing behind (the next process compiles again)."""
    import tempfile  # only when writing: most processes only read

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".regex-", dir=path.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(marshal.dumps(data))
        os.chmod(tmp, 0o644)  # as a .pyc: readable by whoever runs this install
        os.replace(tmp, path)
        for old in path.parent.glob(f"regex-{name}-{sys.implementation.cache_tag}-*.marshal"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(tmp)


def _expanded(sources: list[str], expand: Callable[[str], str] | None) -> list[str]:
    return [expand(s) for s in sources] if expand is not None else list(sources)


def compile_all(
    name: str, sources: list[str], flags: int = 0, expand: Callable[[str], str] | None = None,
    version: str = "",
) -> list[re.Pattern[str]]:
    """`[re.compile(expand(s), flags) for s in sources]`, loaded from the cache `name` when it can be
    (module docstring). `version` is part of the key: what `expand` substitutes (a changed
    placeholder must not load the patterns compiled from the old one)."""
    internals = _internals()
    if internals is None:
        return [re.compile(p, flags) for p in _expanded(sources, expand)]
    parser, compiler, sre = internals
    path = _path(name, sources, int(flags), sre, version)
    loaded = _load(path, sources, sre) if path.is_file() else None
    if loaded is not None:
        return loaded
    expanded = _expanded(sources, expand)
    compiled = [re.compile(p, flags) for p in expanded]
    _store(path, name, sources, expanded, int(flags), parser, compiler, sre)
    return compiled


_INLINE = ((re.IGNORECASE, "i"), (re.DOTALL, "s"), (re.MULTILINE, "m"), (re.VERBOSE, "x"), (re.ASCII, "a"))


def compile_many(name: str, items: list[tuple[str, int]]) -> list[re.Pattern[str]]:
    """Patterns with flags of their own (a module's regexes), as `compile_all`: each flag is
    written inline ("(?i)...")."""
    sources = []
    for pattern, flags in items:
        inline = "".join(letter for flag, letter in _INLINE if flags & flag)
        sources.append(f"(?{inline}){pattern}" if inline else pattern)
    return compile_all(name, sources)


class Patterns:
    """A module's `re.compile` calls at import, loaded compiled from
    `__pycache__/regex-mod-<module>-<interpreter>-<hash>.marshal` (keyed by the interpreter's
    version and `_sre.MAGIC`; each pattern found by its text and flags, so an edited one is
    compiled afresh). `save()`, at the module's end, writes the file again when a pattern
    was not in it (the first process after a change), as `compile_all` does."""

    def __init__(self, module: str) -> None:
        self._name = "mod-" + module.rpartition(".")[2]
        self._internals = _internals()
        self._used: list[tuple[str, int]] = []
        self._missed = False
        self._loaded: dict[tuple[str, int], re.Pattern[str]] = {}
        self._path: Path | None = None
        if self._internals is not None:
            self._path = _path(self._name, [], 0, self._internals[2], "patterns")
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError, IndexError, RuntimeError):
                sre = self._internals[2]
                for source, flags, *form in marshal.loads(self._path.read_bytes()):
                    self._loaded[(source, flags)] = sre.compile(*form)

    def __call__(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        """`re.compile(pattern, flags)`, from the file when it holds it."""
        key = (pattern, int(flags))
        self._used.append(key)
        found = self._loaded.get(key)
        if found is None:
            found = re.compile(pattern, flags)
            self._missed = True
        return found

    def save(self) -> None:
        """Write the patterns used so far, if one was compiled here (else nothing)."""
        if not self._missed or self._internals is None or self._path is None:
            return
        parser, compiler, sre = self._internals
        path = self._path
        try:
            data = [(source, flags, *_compiled_form(source, flags, parser, compiler)) for source, flags in self._used]
            if [sre.compile(*d[2:]).pattern for d in data] != [source for source, _ in self._used]:
                return
        except (ValueError, TypeError, AttributeError, RuntimeError):
            self._missed = False
            return
        _write(path, self._name, data)
        self._missed = False

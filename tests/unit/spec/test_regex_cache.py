"""Compiled patterns kept between processes match exactly as freshly compiled ones do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from orchestrator.spec import grammar, regex_cache
from orchestrator.spec.regex_cache import compile_all, compile_many

SAMPLES = ("retry 3 times, waiting 2s between tries", "Give it 60 seconds.", "if it fails page the on-call",
           "exponential backoff, max wait 20s", "nothing to see here", "RETRY TWICE", "")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(regex_cache, "_FOLDER", tmp_path)
    monkeypatch.delenv("SKILLWEAVE_REGEX_CACHE", raising=False)
    return tmp_path


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> None:
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
    for text in SAMPLES:
        assert [(m.span(), m.groupdict()) for m in a.finditer(text)] == [(m.span(), m.groupdict())
                                                                         for m in b.finditer(text)]


def test_the_grammar_loaded_from_the_cache_matches_as_it_compiles(folder: Path) -> None:
    sources = grammar._every_pattern()
    fresh = [re.compile(grammar.expand(s), re.I) for s in sources]
    written = compile_all("grammar", sources, re.I, grammar.expand)
    (cache,) = folder.glob("regex-grammar-*.marshal")
    loaded = compile_all("grammar", sources, re.I, grammar.expand)
    assert cache.stat().st_mode & 0o777 == 0o644
    for a, b, c in zip(fresh, written, loaded, strict=True):
        _same(a, b)
        _same(a, c)


def test_a_cache_that_is_not_this_grammar_s_is_not_loaded(folder: Path) -> None:
    compile_all("t", [r"\d+ retries", r"(?P<n>\d+)s"])
    (cache,) = folder.glob("regex-t-*.marshal")
    cache.write_bytes(b"not marshal data")
    again = compile_all("t", [r"\d+ retries", r"(?P<n>\d+)s"])  # unreadable: compiled, and written anew
    assert [p.pattern for p in again] == [r"\d+ retries", r"(?P<n>\d+)s"]
    assert again[1].search("wait 5s") is not None
    changed = compile_all("t", [r"\d+ tries"])  # another grammar: another file, the old one removed
    assert changed[0].search("3 tries") is not None
    assert len(list(folder.glob("regex-t-*.marshal"))) == 1


def test_the_cache_can_be_turned_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLWEAVE_REGEX_CACHE", "0")
    assert compile_all("off", ["a+"])[0].fullmatch("aaa") is not None
    assert list(folder.iterdir()) == []


def test_patterns_with_their_own_flags_keep_them(folder: Path) -> None:
    items = [(r"retry\s+(\d+)", re.I), (r"^a.b$", re.S | re.M), (r"x", 0)]
    for _ in range(2):  # written, then loaded
        one, two, three = compile_many("flags", items)
        assert one.search("RETRY 3") is not None and two.search("q\na\nb") is not None
        assert three.search("X") is None
        for pattern, (source, flags) in zip((one, two, three), items, strict=True):
            assert pattern.flags & ~re.UNICODE == flags
            assert pattern.pattern.endswith(source)


def test_a_modules_patterns_load_from_the_cache_as_they_compile(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [(r"(?i)(?P<n>\d+)\s+(?:retries|tries)", 0), (r"retry\s+(\d+)s", re.I), (r"^a.b$", re.S | re.M)]
    written = regex_cache.Patterns("orchestrator.spec.sample")
    fresh = [written(p, f) for p, f in items]
    written.save()
    (cache,) = folder.glob("regex-mod-sample-*.marshal")
    assert cache.stat().st_mode & 0o777 == 0o644

    def no_compile(*args: object) -> None:
        raise AssertionError("compiled instead of loaded")

    monkeypatch.setattr(re, "compile", no_compile)
    loaded = regex_cache.Patterns("orchestrator.spec.sample")
    for (pattern, flags), before in zip(items, fresh, strict=True):
        _same(before, loaded(pattern, flags))
    loaded.save()  # nothing compiled: nothing written
    assert list(folder.glob("regex-mod-sample-*.marshal")) == [cache]


def test_a_module_pattern_edited_or_a_broken_cache_is_compiled_afresh(folder: Path) -> None:
    first = regex_cache.Patterns("orchestrator.spec.edited")
    first(r"\d+ retries")
    first.save()
    (cache,) = folder.glob("regex-mod-edited-*.marshal")
    edited = regex_cache.Patterns("orchestrator.spec.edited")
    pattern = edited(r"(?P<n>\d+) tries")  # not in the file: compiled
    assert pattern.search("3 tries") is not None and pattern.search("3 retries") is None
    edited.save()
    reread = regex_cache.Patterns("orchestrator.spec.edited")
    assert reread(r"(?P<n>\d+) tries").search("7 tries").group("n") == "7"  # type: ignore[union-attr]
    cache.write_bytes(b"not marshal data")
    broken = regex_cache.Patterns("orchestrator.spec.edited")
    assert broken(r"(?P<n>\d+) tries").search("4 tries") is not None


def test_a_modules_patterns_are_not_kept_when_the_cache_is_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLWEAVE_REGEX_CACHE", "0")
    off = regex_cache.Patterns("orchestrator.spec.off")
    assert off("a+").fullmatch("aaa") is not None
    off.save()
    assert list(folder.iterdir()) == []

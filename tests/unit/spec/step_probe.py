"""What the spec tests of a document's steps look at: each step's line, the skill it names in backticks, its text,
and the lines a warning with given words is at."""

from __future__ import annotations


def lines(spec: object) -> list[str]:
    return [s.where.rsplit(":", 1)[1] for s in spec.steps]  # type: ignore[attr-defined]


def skills(spec: object) -> list[str]:
    """The skill each step names in backticks (the binder takes it first)."""
    return [next((m.text for m in s.mentions if m.marked != "plain"), "") for s in spec.steps]  # type: ignore[attr-defined]


def texts(step: object) -> str:
    return " ".join(t.text for t in step.texts)  # type: ignore[attr-defined]


def warned(spec: object, words: str) -> list[int]:
    return [w.line for w in spec.warnings if words in w.message]  # type: ignore[attr-defined]

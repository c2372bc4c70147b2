"""The exception tree drawn in orchestrator/errors.py's docstring is the tree the code has,
and each class's exit code is the one the drawing gives it."""

from __future__ import annotations

import importlib
import pkgutil
import re

import orchestrator
from orchestrator import errors
from orchestrator.errors import SkillweaveError

LINE = re.compile(r"^(?P<indent>[ │├└─]*)(?P<name>[A-Z]\w+Error)\s+(?P<text>.*)$")
EXIT = re.compile(r"exit (\d)")


def drawn() -> dict[str, tuple[str | None, int]]:
    """class name -> (parent drawn above it, exit code the drawing gives it)."""
    tree: dict[str, tuple[str | None, int]] = {}
    stack: list[tuple[int, str]] = []
    for raw in (errors.__doc__ or "").splitlines():
        match = LINE.match(raw.strip("\n")[4:] if raw.startswith("    ") else "")
        if match is None:
            continue
        depth = len(match["indent"])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        said = EXIT.search(match["text"])
        code = int(said.group(1)) if said else tree[parent][1] if parent else 1
        tree[match["name"]] = (parent, code)
        stack.append((depth, match["name"]))
    return tree


def every_error_class() -> list[type[SkillweaveError]]:
    for module in pkgutil.walk_packages(orchestrator.__path__, "orchestrator."):
        if not module.name.endswith("__main__") and not module.name.startswith("orchestrator._bundled"):
            importlib.import_module(module.name)
    found: list[type[SkillweaveError]] = []
    todo = [SkillweaveError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def test_the_drawing_names_the_classes_of_errors_py_with_their_parents() -> None:
    tree = drawn()
    for name, (parent, _) in tree.items():
        cls = getattr(errors, name, None) or next(c for c in every_error_class() if c.__name__ == name)
        base = next(c.__name__ for c in cls.__mro__[1:] if not c.__name__.startswith("_"))  # private bases are not drawn
        assert parent is None or base == parent, f"{name} is drawn under {parent}, but derives from {base}"
    ours = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, SkillweaveError)}
    assert ours - {"_DiagnosticsError"} <= set(tree), "every class of errors.py is drawn"


def test_every_error_class_has_the_exit_code_its_drawing_or_its_drawn_ancestor_gives_it() -> None:
    tree = drawn()
    for cls in every_error_class():
        ancestor = next(c for c in cls.__mro__ if c.__name__ in tree)
        assert cls.exit_code == tree[ancestor.__name__][1], (
            f"{cls.__module__}.{cls.__name__} exits {cls.exit_code}; the drawing says "
            f"{tree[ancestor.__name__][1]} for {ancestor.__name__}"
        )


def test_the_usage_errors_exit_2_and_the_run_errors_exit_1() -> None:
    tree = drawn()
    assert tree["UserError"][1] == 2 and tree["ResumeError"] == ("UserError", 2)
    assert tree["RunError"][1] == 1 and tree["LimitExceededError"] == ("RunError", 1)
    assert tree["JournalError"][1] == 1


def test_every_error_class_has_a_code_of_its_own_or_its_parent_s() -> None:
    for cls in every_error_class():
        assert re.fullmatch(r"[a-z_]+", cls.code), cls

"""Skill kinds: registered objects that say how a kind of skill is read, run and treated.

    SkillKind            the base of a kind: name, description, its own metadata keys,
                         `read(meta) -> KindFields`, `traits`, `runner` ("module:attr")
    KindTraits           what the engine and the planner read about a kind (never its name)
    KindFields           the bound fields a kind reads from its keys
    KindMetadata         what `SkillKind.read` is given: the skill's skillweave.* keys
    KindRegistry         the kinds of a process: built-in entry points, then the installed
                         ones of the `skillweave.kinds` group (docs/kinds.md)
    kind_registry()      the process's registry
    BoundSkill           what a plan records of one skill (kind, path, hash, schemas, params)
    BuiltinKind          the names of the kinds shipped with skillweave
    INSTRUCTIONS         the kind of a skill without `skillweave.*` keys (for hosts; never run)
"""

from orchestrator.kinds.model import (
    COMMON_KEYS,
    INSTRUCTIONS,
    PREFIX,
    BoundSkill,
    BuiltinKind,
    KindFields,
    KindMetadata,
    KindTraits,
    ParamValue,
    SkillKind,
)
from orchestrator.kinds.registry import BUILTIN_NAMES, GROUP, KindRegistry, kind_registry

__all__ = [
    "BUILTIN_NAMES",
    "COMMON_KEYS",
    "GROUP",
    "INSTRUCTIONS",
    "PREFIX",
    "BoundSkill",
    "BuiltinKind",
    "KindFields",
    "KindMetadata",
    "KindRegistry",
    "KindTraits",
    "ParamValue",
    "SkillKind",
    "kind_registry",
]

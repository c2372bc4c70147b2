"""Skill kinds: what a plan records of a skill, and the registered kind objects.

    BoundSkill           what a plan records of one skill (kind, path, hash, schemas, ...)
    BuiltinKind          the names of the kinds shipped with skillweave
    INSTRUCTIONS         the kind of a skill without `skillweave.*` keys (for hosts; never run)
"""

from orchestrator.kinds.model import INSTRUCTIONS, BoundSkill, BuiltinKind, ParamValue

__all__ = ["INSTRUCTIONS", "BoundSkill", "BuiltinKind", "ParamValue"]

"""The skill catalog: find SKILL.md folders, parse them, check the Agent Skills rules.

Public surface (everything else in this package is private to it):

    Skill                       frozen model of one loaded skill folder: name, description,
                                path, skill_md, origin ("bundled"|"spec"|"dir"|"env"),
                                kind (a registered kind's name, `orchestrator.kinds`;
                                "instructions" without skillweave.* keys), params,
                                body, body_line, entry, server, tool, input_schema,
                                output_schema, network, timeout_s, license, compatibility,
                                allowed_tools, metadata, sha256, warnings;
                                `bound() -> BoundSkill` for plans
    load_skill(folder, origin="dir") -> Skill
                                raises SkillError (file:line) when the skill cannot be used
    Catalog                     `get(name)` (NotFoundError with near names; SkillError when
                                the skill is broken or shadowed), iteration, `in`, `len`,
                                `skills`, `names`, `problems` (diagnostics, never fatal)
    load_catalog(settings, spec_path=None) -> Catalog
                                bundled, then `skills/` beside the spec, then each
                                settings.skills_dirs, then settings.env_skills_dirs
    validate_skill_folder(folder, profile="strict") -> list[Diagnostic]
                                Agent Skills conformance under a host profile
                                ("strict"|"claude-code"|"cursor") plus skillweave.* keys
    plan_fix(skill_md, profile) / apply_fix(skill_md, profile) -> FixResult
                                move unknown top-level keys under metadata as strings
    skill_folders(path)         the skill folders of one search folder
    scaffold_skill(name, kind, directory, *, description, server, tool)
                                `new skill`: render skills/_templates/skill/ into a new folder
    PROFILES, Profile, Origin   the profile and origin names
"""

from orchestrator.skills.catalog import Catalog, load_catalog, load_skill, skill_folders
from orchestrator.skills.fix import Change, FixResult, apply_fix, plan_fix
from orchestrator.skills.model import PROFILES, SKILL_FILE, Origin, Profile, Skill
from orchestrator.skills.scaffold import scaffold_skill
from orchestrator.skills.validate import validate_skill_folder

__all__ = [
    "PROFILES",
    "SKILL_FILE",
    "Catalog",
    "Change",
    "FixResult",
    "Origin",
    "Profile",
    "Skill",
    "apply_fix",
    "load_catalog",
    "load_skill",
    "plan_fix",
    "scaffold_skill",
    "skill_folders",
    "validate_skill_folder",
]

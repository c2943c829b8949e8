"""Role conditions (seed 004) and OpenStack Fuel restrictions and limits.

``load_roles`` reads a roles document; ``RoleSet.check`` tells whether a role
can be assigned to the selected nodes of a simulated :class:`Cluster`;
``evaluate`` runs one condition; ``compile_expression`` compiles one
expression. How it is built, and the choices toskit made where the seed and
Fuel are silent, are in docs/conditions.md.
"""

from __future__ import annotations

from toskit.conditions.check import check_text
from toskit.conditions.cluster import Cluster
from toskit.conditions.decision import RoleDecision
from toskit.conditions.evaluate import evaluate
from toskit.conditions.expression import Expression, compile_expression
from toskit.conditions.fuel import Release, list_releases, load_release
from toskit.conditions.results import LimitsOutcome, Outcome, RoleOutcome, TraceEntry
from toskit.conditions.roles import Role, RoleSet, load_roles
from toskit.errors import ConditionError

__all__ = [
    "Cluster",
    "ConditionError",
    "Expression",
    "LimitsOutcome",
    "Outcome",
    "Release",
    "Role",
    "RoleDecision",
    "RoleOutcome",
    "RoleSet",
    "TraceEntry",
    "check_text",
    "compile_expression",
    "evaluate",
    "list_releases",
    "load_release",
    "load_roles",
]

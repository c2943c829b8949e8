"""Why a property has its value: ``st.explain(path)`` / ``node.explain(path)`` (issue #32).

An :class:`Explanation` is built on demand from what the load kept: the
merge records, per value, the :class:`~toskit.tosca.values.resolve.Origin`
that won (its label, document and node path) and the ``(value, Origin)``
layers it replaced. Nothing here runs while loading; ``file:line`` of each
layer is looked up in the document's position tree only when an
explanation is made.

An explanation holds:

* the effective value and its type;
* the layer stack, lowest first, the winner last: every layer that wrote the
  path, with its :class:`Source` (kind, the type of a default, the input,
  the file and range where that layer wrote it) and its value;
* the function hops behind a value that came from a call: a ``get_input``
  leads to the input's definition, default and given value; a
  ``get_property``/``get_attribute`` to the explanation of the property it
  read (on another node, a capability, a requirement's target, …);
  ``concat``/``join`` and other calls list their arguments with values;
* the constraints and the validation clause checked at the path, with the
  result the load's findings give (``satisfied``, ``violated``, or ``not
  checked`` for a value only known at deployment);
* the findings filed on the path (issue #28's subjects).

Kinds of a :class:`Source`: ``template`` (the template wrote it),
``type default`` (a default on a node, capability, relationship … type),
``data type default`` (a field default of a data type), ``profile`` (a
default of a normative/profile type), ``input`` (a ``get_input`` resolved
during the merge), ``function`` (a value computed by another call), and
``copy`` (a TOSCA 2.0 template that took the value from the template it
``copy``-ies).

Choices the issue leaves open (docs/explain.md): a path names a leaf or an
inner value (a map is explained as a whole: its own stack, its findings
below it); function hops are followed at most :data:`MAX_HOPS` deep and a
loop is cut where it comes back; a path that does not exist raises
:class:`ExplainError` (a ``ToskitError``) with a did-you-mean.

One job a module:

* :mod:`.paths` -- what a path names (or the error saying what exists);
* :mod:`.model` -- the data: :class:`Explanation`, :class:`Source`,
  :class:`StackLayer`, :class:`Hop`, :class:`Check`;
* :mod:`.layers` -- an origin as a :class:`Source` (kind, file:line), and
  what a layer wrote; the per-template memo;
* :mod:`.positions` -- where each node of a clean document was written,
  read without building its values again;
* :mod:`.hops` -- the calls behind a value; :mod:`.checks` -- the clauses;
* :mod:`.build` -- assembling an explanation from those;
* :mod:`.text` -- ``str()``, ``to_dict()`` values, one-line YAML;
* :mod:`.blame_yaml` -- ``toskit blame``; :mod:`.command` -- both commands' runs.
"""

from __future__ import annotations

from toskit.tosca.explain.blame_yaml import VALUE_LIMIT, WAS_LIMIT, blame
from toskit.tosca.explain.build import explain, explain_entity
from toskit.tosca.explain.model import (
    MAX_HOPS,
    Check,
    ExplainError,
    Explanation,
    Hop,
    Source,
    StackLayer,
    explanation_json,
)

__all__ = [
    "MAX_HOPS",
    "VALUE_LIMIT",
    "WAS_LIMIT",
    "Check",
    "ExplainError",
    "Explanation",
    "Hop",
    "Source",
    "StackLayer",
    "blame",
    "explain",
    "explain_entity",
    "explanation_json",
]

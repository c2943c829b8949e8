"""Python annotations -> TOSCA property schemas.

| annotation | TOSCA |
|---|---|
| ``str`` ``int`` ``float`` ``bool`` | ``string`` ``integer`` ``float`` ``boolean`` |
| ``None`` | ``null`` |
| a ``DataEntity`` subclass | that data type |
| ``list[X]`` / ``List[X]`` / ``Sequence[X]`` | ``list`` with ``entry_schema: X`` |
| ``dict[str, X]`` / ``Dict`` / ``Mapping`` | ``map`` with ``entry_schema: X`` (¹) |
| ``X | None``, ``Optional[X]``, ``Union[X, None]`` | ``X``, not required |
| ``Annotated[X, ...]`` | ``X`` |
| ``Any``, ``object`` | any value (no ``type``) |
| ``Size``, ``Time``, ``Frequency``, ``Bitrate`` (²) | the TOSCA special type |
| ``"Name"`` (a string) | the same, read as an annotation |

(¹) a key type other than ``str`` becomes ``key_schema``. (²) And
``tosca_timestamp``, ``tosca_version``, ``tosca_range``, ``tosca_bytes``.

String annotations (forward references, ``from __future__ import
annotations``) are *read*, never evaluated: :func:`interpret` parses them
with :mod:`ast` and looks names up in the module's namespace, accepting
only names, attribute access, subscripts, ``|`` and constants.
Anything else raises :class:`AnnotationError` with a message a person can act on.
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import types
import typing
from collections.abc import Mapping
from typing import Any

from toskit.dsl.entities import ToscaType, ToscaTypeRef
from toskit.records import field, record

__all__ = ["AnnotationError", "FieldSchema", "interpret"]


class AnnotationError(Exception):
    """An annotation that has no TOSCA meaning."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@record
class FieldSchema:
    """What an annotation says about a field.

    ``schema`` is the TOSCA schema (``{"type": ..., "entry_schema": ...}``;
    empty for "any value"); ``required`` is ``False`` for ``X | None``;
    ``classes`` are the DSL classes the annotation refers to (the types the
    emitted document must also define); ``target`` is the node or
    capability class when the annotation names one (a requirement or a
    capability on a node type).
    """

    schema: dict[str, Any]
    required: bool = True
    classes: list[type] = field(default_factory=list)
    target: type | None = None


_LIST_ORIGINS = {
    list,
    tuple,
    collections.abc.Sequence,
    collections.abc.MutableSequence,
    set,
    frozenset,
}
_MAP_ORIGINS = {dict, collections.abc.Mapping, collections.abc.MutableMapping}
_PRIMITIVES = {str: "string", int: "integer", float: "float", bool: "boolean", type(None): "null"}
_BARE = {list: "list", dict: "map", tuple: "list"}
_SUPPORTED_HINT = (
    "use str, int, float, bool, a DataEntity subclass, list[X], dict[str, X], "
    "X | None, or a TOSCA marker such as Size"
)


# --------------------------------------------------------------------------
# Step 1: annotation (object or string) -> a small intermediate form:
#   ("type", obj) | ("list", rep) | ("map", key_rep, rep) | ("union", [rep, ...])


def _from_object(obj: Any, namespace: Mapping[str, Any], depth: int = 0) -> tuple:
    if depth > 50:
        raise AnnotationError("annotation nests too deeply")
    if isinstance(obj, str):
        return _from_string(obj, namespace, depth + 1)
    if isinstance(obj, typing.ForwardRef):
        return _from_string(obj.__forward_arg__, namespace, depth + 1)
    origin = typing.get_origin(obj)
    args = typing.get_args(obj)
    if origin is typing.Annotated:
        return _from_object(args[0], namespace, depth + 1)
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        return ("union", [_from_object(a, namespace, depth + 1) for a in args])
    if origin in _LIST_ORIGINS:
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            args = args[:1]
        if len(args) > 1:
            raise AnnotationError(
                f"{obj!r}: a list annotation takes one element type", hint=_SUPPORTED_HINT
            )
        return ("list", _from_object(args[0], namespace, depth + 1) if args else ("type", Any))
    if origin in _MAP_ORIGINS:
        if len(args) == 2:
            return (
                "map",
                _from_object(args[0], namespace, depth + 1),
                _from_object(args[1], namespace, depth + 1),
            )
        return ("map", ("type", str), ("type", Any))
    return ("type", obj)


def _from_string(text: str, namespace: Mapping[str, Any], depth: int) -> tuple:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise AnnotationError(f"annotation {text!r} is not a Python expression") from None
    return _from_node(tree.body, namespace, depth)


def _lookup(node: ast.AST, namespace: Mapping[str, Any]) -> Any:
    """The object a Name/Attribute chain refers to (no evaluation beyond lookups)."""
    if isinstance(node, ast.Name):
        if node.id in namespace:
            return namespace[node.id]
        if hasattr(builtins, node.id):
            return getattr(builtins, node.id)
        if node.id in typing.__all__:
            return getattr(typing, node.id)
        raise AnnotationError(
            f"unknown name {node.id!r} in annotation",
            hint="define or import it in the module (forward references must name a class "
            "the module defines)",
        )
    if isinstance(node, ast.Attribute):
        base = _lookup(node.value, namespace)
        try:
            return getattr(base, node.attr)
        except AttributeError:
            raise AnnotationError(
                f"{ast.unparse(node.value)!r} has no attribute {node.attr!r}"
            ) from None
    raise AnnotationError(f"annotation part {ast.unparse(node)!r} is not a name")


def _from_node(node: ast.AST, namespace: Mapping[str, Any], depth: int) -> tuple:
    if depth > 50:
        raise AnnotationError("annotation nests too deeply")
    if isinstance(node, ast.Constant):
        if node.value is None:
            return ("type", None)
        if isinstance(node.value, str):
            return _from_string(node.value, namespace, depth + 1)
        raise AnnotationError(f"constant {node.value!r} is not a type")
    if isinstance(node, (ast.Name, ast.Attribute)):
        return _from_object(_lookup(node, namespace), namespace, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return (
            "union",
            [
                _from_node(node.left, namespace, depth + 1),
                _from_node(node.right, namespace, depth + 1),
            ],
        )
    if isinstance(node, ast.Subscript):
        return _from_subscript(node, namespace, depth)
    raise AnnotationError(f"unsupported annotation {ast.unparse(node)!r}", hint=_SUPPORTED_HINT)


def _from_subscript(node: ast.Subscript, namespace: Mapping[str, Any], depth: int) -> tuple:
    """A generic annotation: ``Optional``, ``Union``, ``Annotated``, a list
    (or ``tuple[X, ...]``) or a mapping."""
    base = _lookup(node.value, namespace)
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    origin = typing.get_origin(base) or base
    if base is typing.Optional:
        return ("union", [_from_node(items[0], namespace, depth + 1), ("type", None)])
    if base is typing.Union:
        return ("union", [_from_node(i, namespace, depth + 1) for i in items])
    if base is typing.Annotated:
        return _from_node(items[0], namespace, depth + 1)
    if origin in _LIST_ORIGINS:
        if (
            origin is tuple
            and len(items) == 2
            and isinstance(items[1], ast.Constant)
            and items[1].value is Ellipsis
        ):
            items = items[:1]
        if len(items) != 1:
            raise AnnotationError(
                f"{ast.unparse(node)!r}: a list annotation takes one element type",
                hint=_SUPPORTED_HINT,
            )
        return ("list", _from_node(items[0], namespace, depth + 1))
    if origin in _MAP_ORIGINS:
        if len(items) != 2:
            raise AnnotationError(
                f"{ast.unparse(node)!r}: a mapping annotation needs a key and a value type"
            )
        return (
            "map",
            _from_node(items[0], namespace, depth + 1),
            _from_node(items[1], namespace, depth + 1),
        )
    raise AnnotationError(
        f"unsupported generic annotation {ast.unparse(node)!r}", hint=_SUPPORTED_HINT
    )


# --------------------------------------------------------------------------
# Step 2: intermediate form -> TOSCA schema


def _describe(obj: Any) -> str:
    return getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)


def _schema(rep: tuple, out: FieldSchema, owner_kind: str, top: bool) -> dict[str, Any]:
    tag = rep[0]
    if tag == "union":
        members = [m for m in rep[1] if not (m[0] == "type" and m[1] in (None, type(None)))]
        if len(members) < len(rep[1]) and top:
            out.required = False
        if not members:
            return {"type": "null"}
        if len(members) > 1:
            raise AnnotationError(
                "a union of several types has no TOSCA equivalent",
                hint="use one type (optionally with '| None'), or Any for any value",
            )
        return _schema(members[0], out, owner_kind, top)
    if tag == "list":
        entry = _schema(rep[1], out, owner_kind, False)
        return {"type": "list", **({"entry_schema": entry} if entry else {})}
    if tag == "map":
        schema: dict[str, Any] = {"type": "map"}
        key = _schema(rep[1], out, owner_kind, False)
        if key and key != {"type": "string"}:
            schema["key_schema"] = key
        entry = _schema(rep[2], out, owner_kind, False)
        if entry:
            schema["entry_schema"] = entry
        return schema
    return _type_schema(rep[1], out, owner_kind, top)


def _type_schema(obj: Any, out: FieldSchema, owner_kind: str, top: bool) -> dict[str, Any]:
    """The schema of one Python type (``str``, a ``DataEntity`` subclass …)."""
    if obj is Any or obj is object:
        return {}
    if obj is None:
        return {"type": "null"}
    if isinstance(obj, type) and issubclass(obj, ToscaTypeRef) and obj.tosca_name:
        return {"type": obj.tosca_name}
    if isinstance(obj, type):
        if obj in _PRIMITIVES:
            return {"type": _PRIMITIVES[obj]}
        if obj in _BARE:
            return {"type": _BARE[obj]}
        if issubclass(obj, ToscaType):
            kind = obj._tosca_kind
            if kind == "data":
                out.classes.append(obj)
                return {"type": obj._type_name}
            if top and owner_kind == "node" and kind in ("node", "capability"):
                out.classes.append(obj)
                out.target = obj
                return {"type": obj._type_name}
            raise AnnotationError(
                f"{_describe(obj)} is a {kind} type, which cannot be the type of a "
                f"{'field' if owner_kind == 'data' else 'property'}",
                hint="a property's type is a primitive or a DataEntity subclass",
            )
    raise AnnotationError(
        f"cannot map the annotation {_describe(obj)} to a TOSCA type", hint=_SUPPORTED_HINT
    )


def interpret(
    annotation: Any, namespace: Mapping[str, Any], owner_kind: str = "data"
) -> FieldSchema:
    """What ``annotation`` (written on a class of ``owner_kind``) means in TOSCA.

    ``namespace`` resolves names in string annotations (the defining
    module's globals). Raises :class:`AnnotationError`.
    """
    out = FieldSchema(schema={})
    out.schema = _schema(_from_object(annotation, namespace), out, owner_kind, True)
    return out

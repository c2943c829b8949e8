"""The schemas of spec §7 (S1–S4), as YAML text and as parsed dicts."""

from __future__ import annotations

import yaml

S1_YAML = """\
types:
- name: root
  map:
    fields:
    - {name: num, type: {scalar: numeric}}
    - {name: str, type: {scalar: string}}
    - {name: bool, type: {scalar: boolean}}
    - {name: any, type: {scalar: untyped}}
    - {name: atomicList, type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: plainList, type: {list: {elementType: {scalar: string}}}}
    - {name: set, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
    - {name: numSet, type: {list: {elementType: {scalar: numeric}, elementRelationship: associative}}}
    - {name: items, type: {list: {elementType: {namedType: item}, elementRelationship: associative, keys: [name]}}}
    - {name: multi, type: {list: {elementType: {namedType: item2}, elementRelationship: associative, keys: [key, id]}}}
    - {name: labels, type: {map: {elementType: {scalar: string}}}}
    - {name: atomicMap, type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}}
    - {name: struct, type: {namedType: inner}}
    - {name: atomicStruct, type: {namedType: inner, elementRelationship: atomic}}
    - {name: ports, type: {list: {elementType: {namedType: port}, elementRelationship: associative, keys: [containerPort, protocol]}}}
- name: inner
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: b, type: {scalar: numeric}}
    - {name: deep, type: {namedType: inner}}
- name: item
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: value, type: {scalar: string}}
    - {name: port, type: {scalar: numeric}}
    - {name: tags, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
- name: item2
  map:
    fields:
    - {name: key, type: {scalar: string}}
    - {name: id, type: {scalar: numeric}}
    - {name: v, type: {scalar: string}}
- name: port
  map:
    fields:
    - {name: containerPort, type: {scalar: numeric}}
    - {name: protocol, type: {scalar: string}, default: TCP}
    - {name: name, type: {scalar: string}}
"""

S2_YAML = """\
types:
- name: any
  scalar: untyped
  list:
    elementType: {namedType: anyAtomic}
    elementRelationship: atomic
  map:
    elementType: {namedType: any}
- name: anyAtomic
  scalar: untyped
  list:
    elementType: {namedType: anyAtomic}
    elementRelationship: atomic
  map:
    elementType: {namedType: anyAtomic}
    elementRelationship: atomic
- name: strOrList
  scalar: string
  list:
    elementType: {scalar: string}
    elementRelationship: atomic
"""

S3_YAML = """\
types:
- name: union
  map:
    fields:
    - {name: discriminator, type: {scalar: string}}
    - {name: letter, type: {scalar: string}}
    - {name: one, type: {scalar: numeric}}
    - {name: two, type: {scalar: numeric}}
    - {name: three, type: {scalar: numeric}}
    - {name: a, type: {scalar: numeric}}
    - {name: b, type: {scalar: numeric}}
    unions:
    - discriminator: discriminator
      deduceInvalidDiscriminator: true
      fields:
      - {fieldName: one, discriminatorValue: One}
      - {fieldName: two, discriminatorValue: TWO}
      - {fieldName: three, discriminatorValue: three}
    - discriminator: letter
      fields:
      - {fieldName: a, discriminatorValue: A}
      - {fieldName: b, discriminatorValue: b}
"""

S4_YAML = """\
types:
- name: u
  map:
    fields:
    - {name: type, type: {scalar: string}}
    - {name: string, type: {scalar: string}}
    - {name: fieldA, type: {scalar: string}}
    - {name: fieldB, type: {scalar: string}}
    - {name: numeric, type: {scalar: numeric}}
    unions:
    - discriminator: type
      deduceInvalidDiscriminator: true
      fields:
      - {fieldName: numeric, discriminatorValue: Numeric}
      - {fieldName: string, discriminatorValue: String}
    - fields:
      - {fieldName: fieldA, discriminatorValue: FieldA}
      - {fieldName: fieldB, discriminatorValue: FieldB}
"""

SCHEMA_YAML = {"S1": S1_YAML, "S2": S2_YAML, "S3": S3_YAML, "S4": S4_YAML}


def as_dict(name: str) -> dict:
    return yaml.safe_load(SCHEMA_YAML[name])


def v(text: str):
    """A value written in flow YAML (the notation of spec §7)."""
    return yaml.safe_load(text)

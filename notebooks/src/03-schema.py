# %% [markdown]
# # A structural schema: validate, merge, compare
#
# Kubernetes merges configuration written by several owners — you, a
# controller, an admission webhook — into one object. To do that safely it
# needs to know, for every list and map, **how its elements relate**:
#
# * a list of container *arguments* is one value: **replaced whole**
#   (the schema writes `elementRelationship: atomic`);
# * a list of *containers* is really a map keyed by `name`: **merged by name**,
#   item by item (`associative`, with `keys: [name]`);
# * a list of *finalizers* is **a set** of strings (`associative`, no keys);
# * a map of *labels* has independent keys, **merged key by key** (`separable`,
#   a map's default), while a `resources` block is one unit, **replaced
#   whole** (`atomic`).
#
# That model comes from Kubernetes' *structured-merge-diff*. `toskit.schema`
# implements it in Python: load a schema, then validate values against it,
# merge two values, compare them, and list the fields a value sets. The
# TOSCA part of toskit merges its nested defaults with this same engine.

# %%
from toskit import schema
import toskit

# %% [markdown]
# ## 1. A schema
#
# A schema is a list of named types. Each type is an *atom*: a `scalar`
# (`numeric`, `string`, `boolean` or `untyped`), a `list` or a `map`. Here
# is a small pod-like object:

# %%
POD_SCHEMA = """\
types:
- name: pod
  map:
    fields:
    - name: labels
      type: {map: {elementType: {scalar: string}}}
    - name: finalizers
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: containers
      type:
        list:
          elementType: {namedType: container}
          elementRelationship: associative
          keys: [name]
- name: container
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: image, type: {scalar: string}}
    - name: args
      type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: ports
      type:
        list:
          elementType: {namedType: port}
          elementRelationship: associative
          keys: [containerPort, protocol]
    - {name: resources, type: {namedType: resources, elementRelationship: atomic}}
- name: port
  map:
    fields:
    - {name: containerPort, type: {scalar: numeric}}
    - {name: protocol, type: {scalar: string}, default: TCP}
    - {name: name, type: {scalar: string}}
- name: resources
  map:
    fields:
    - {name: cpu, type: {scalar: string}}
    - {name: memory, type: {scalar: string}}
"""
pod = schema.load(POD_SCHEMA)
pod

# %%
# NBVAL_CHECK_OUTPUT
[t.name for t in pod.types], pod.find("container").map.fields[2].name

# %% [markdown]
# Mistakes in the schema itself are caught when it is loaded, with the path
# of the offending key inside the schema document:

# %%
# NBVAL_CHECK_OUTPUT
try:
    schema.load("types:\n- name: x\n  map:\n    fields:\n    - {name: n, type: {sclar: string}}\n")
except toskit.SchemaError as err:
    print(err)

# %% [markdown]
# ## 2. Validation
#
# `validate(value, type_name)` returns a list of diagnostics — every problem,
# not just the first. Each has a **field path**: `.containers[name="web"]`
# addresses the container whose key `name` is `web`, wherever it sits in the
# list.

# %%
# NBVAL_CHECK_OUTPUT
good = {
    "labels": {"app": "shop"},
    "finalizers": ["cleanup"],
    "containers": [
        {"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]},
    ],
}
pod.validate(good, "pod")

# %%
# NBVAL_CHECK_OUTPUT
bad = {
    "labels": {"app": 1},
    "finalizers": ["cleanup", "cleanup"],
    "containers": [
        {"name": "web", "image": "nginx", "ports": [{"containerPort": "eighty"}]},
        {"name": "web"},
        {"image": "sidecar"},
    ],
    "replicas": 3,
}
for problem in sorted(pod.validate(bad, "pod"), key=lambda d: (d.path, d.message)):
    print(f"{problem.path}: {problem.message}")

# %% [markdown]
# The list itself is a `DiagnosticList`: in a notebook, every problem with
# its severity, code and field path, errors first:

# %%
pod.validate(bad, "pod")

# %% [markdown]
# Note the port: `protocol` was not written, but its `default: TCP` takes
# part in the key, so `{containerPort: 80}` and
# `{containerPort: 80, protocol: TCP}` are the same item.

# %% [markdown]
# ## 3. Merge
#
# `merge(lhs, rhs, type_name)` lays `rhs` over `lhs`. How each part merges
# follows from the schema — the same two values give different results for
# a list replaced whole and for a keyed one:

# %%
# NBVAL_CHECK_OUTPUT
base = {
    "labels": {"app": "shop"},
    "finalizers": ["cleanup"],
    "containers": [
        {"name": "web", "image": "nginx:1.27", "args": ["--port", "80"],
         "resources": {"cpu": "1", "memory": "1Gi"}},
        {"name": "cache", "image": "redis:7"},
    ],
}
overlay = {
    "labels": {"tier": "frontend"},
    "finalizers": ["audit"],
    "containers": [
        {"name": "web", "args": ["--port", "8080"], "resources": {"cpu": "2"}},
        {"name": "metrics", "image": "exporter:2"},
    ],
}
merged = pod.merge(base, overlay, "pod")
merged

# %% [markdown]
# What happened, part by part:
#
# | part | how it merges | result |
# |---|---|---|
# | `labels` | a map merged key by key | both keys kept |
# | `finalizers` | a set | union of both |
# | `containers` | a list merged by `name` | `web` merged field by field, `cache` kept, `metrics` added |
# | `args` | a list replaced whole | the overlay's list |
# | `resources` | a map replaced whole | the overlay's map: `memory` is gone |
#
# Merging never deletes list items, and it never changes its inputs.

# %% [markdown]
# ## 4. Compare and field sets
#
# `compare(old, new, type_name)` reports the field paths that were added,
# removed and modified. Reordering a keyed list is not a change; reordering
# a list replaced whole is.

# %%
# NBVAL_CHECK_OUTPUT
diff = pod.compare(base, merged, "pod")
print("added:   ", sorted(diff.added))
print("removed: ", sorted(diff.removed))
print("modified:", sorted(diff.modified))

# %% [markdown]
# In a notebook the comparison shows itself:

# %%
diff

# %% [markdown]
# `to_fieldset(value, type_name)` lists the fields a value *sets*. This is
# how Kubernetes' server-side apply records which manager owns which field:
# the owner of `overlay` owns exactly these.

# %%
# NBVAL_CHECK_OUTPUT
sorted(pod.to_fieldset(overlay, "pod"))

# %% [markdown]
# `remove` and `extract` take such paths: drop the fields one owner set, or
# keep only them.

# %%
# NBVAL_CHECK_OUTPUT
pod.remove(merged, {'.containers[name="metrics"]', ".labels.tier"}, "pod")

# %% [markdown]
# ## 5. Unions
#
# Some objects hold "one of" several fields — a volume comes from a
# `configMap` *or* a `secret` *or* an `emptyDir` — often with a
# *discriminator* field that names which. The seed's union rules are explicit
# functions you call after an update, never applied behind your back.

# %%
VOLUME_SCHEMA = """\
types:
- name: volume
  map:
    fields:
    - {name: source, type: {scalar: string}}
    - {name: configMap, type: {scalar: string}}
    - {name: secret, type: {scalar: string}}
    - {name: emptyDir, type: {scalar: string}}
    unions:
    - discriminator: source
      deduceInvalidDiscriminator: true
      fields:
      - {fieldName: configMap, discriminatorValue: ConfigMap}
      - {fieldName: secret, discriminatorValue: Secret}
      - {fieldName: emptyDir, discriminatorValue: EmptyDir}
"""
volumes = schema.load(VOLUME_SCHEMA)

# %% [markdown]
# Switching the discriminator clears the other members; setting exactly one
# member fills the discriminator in; setting two at once is a conflict:

# %%
# NBVAL_CHECK_OUTPUT
old = {"source": "ConfigMap", "configMap": "settings"}
print(volumes.normalize_union(old, {"source": "Secret", "configMap": "settings", "secret": "tls"}, "volume"))
print(volumes.normalize_union({}, {"emptyDir": "scratch"}, "volume"))
try:
    volumes.normalize_union(old, {"source": "ConfigMap", "configMap": "a", "secret": "b"}, "volume")
except toskit.SchemaError as err:
    print("SchemaError:", str(err).split(":")[0])

# %% [markdown]
# # Reviewing a template change: `toskit.compare` and `toskit diff`
#
# A pull request changes a TOSCA template. The YAML diff shows which lines
# moved; a reviewer needs something else: **what the change does to the
# effective configuration** — which merged values change on which node,
# because of which layer (a data-type default, a node-type default, the
# template, an input), and which problems it introduces or fixes.
#
# toskit already resolves every value with its provenance, so it can answer
# that directly. This tutorial reviews one change to a small web shop:
#
# 1. the two versions, and the YAML diff a reviewer would see;
# 2. `toskit.compare(old, new)`: the effective diff, value by value;
# 3. provenance: a change that touches no line of the topology;
# 4. the diff as a table, and diagnostics introduced and fixed;
# 5. beyond property values: capabilities, interfaces, renames;
# 6. `toskit diff` on the command line, in CI.

# %%
import difflib
import json
import pathlib
import subprocess
import sys

import toskit

# %% [markdown]
# ## 1. Two versions of a template
#
# `examples/review/v1.yaml` is the shop as it is on `main`;
# `examples/review/v2.yaml` is the pull request. The YAML diff is short:

# %%
# NBVAL_CHECK_OUTPUT
old_text = pathlib.Path("examples/review/v1.yaml").read_text(encoding="utf-8")
new_text = pathlib.Path("examples/review/v2.yaml").read_text(encoding="utf-8")
for line in difflib.unified_diff(
    old_text.splitlines(), new_text.splitlines(), "v1.yaml", "v2.yaml", lineterm="", n=0
):
    print(line)

# %% [markdown]
# A dozen changed lines. But which nodes does `min_version: "1.3"` reach? Does
# anything still use `orders_db`? Is `"8443"` a problem? The YAML diff
# cannot say: it does not know the types.

# %% [markdown]
# ## 2. The effective diff
#
# `toskit.compare` takes two loaded templates (or two paths) and returns a
# `TemplateDiff`. In a notebook it shows grouped by node: each changed
# value old → new with the layer that set it on each side; new errors come
# first; templates with no change are only counted.

# %%
old = toskit.load("examples/review/v1.yaml")
new = toskit.load("examples/review/v2.yaml")
diff = toskit.compare(old, new)
diff

# %% [markdown]
# `str(diff)` is the same report as text (what `toskit diff` prints):

# %%
# NBVAL_CHECK_OUTPUT
print(diff)

# %% [markdown]
# ## 3. Why did it change? Provenance
#
# The topology of `v2.yaml` never mentions `min_version` or the database
# `version`, and `replicas` is written the same in both files
# (`{$get_input: web_replicas}`). Yet these values change. Each
# `ValueChange` carries the source of the old and of the new value;
# `template_untouched` is true when neither was written in the template:

# %%
# NBVAL_CHECK_OUTPUT
for change in diff.values:
    if change.change == "changed" and change.template_untouched:
        print(f"{change.entity}.{change.path}: {change.old!r} -> {change.new!r}  [{change.new_source}]")

# %% [markdown]
# The sources name the layer, and the other groups of the diff say what
# changed in that layer: a default on a type, or an input's default.

# %%
# NBVAL_CHECK_OUTPUT
for type_change in diff.types:
    for p in type_change.properties:
        print(f"{type_change.kind} type {type_change.name}: {p.property}.{p.aspect} {p.old!r} -> {p.new!r}")
for name, before, after in diff.inputs:
    print(f"input {name}: {before!r} -> {after!r}")

# %% [markdown]
# So the review comment writes itself: *raising `shop.Tls`'s default
# `min_version` to 1.3 changes `web` (and the new `worker`); raising
# `shop.Database`'s default `version` to 16 changes `reports_db`, which
# the pull request does not otherwise touch.

# %% [markdown]
# ## 4. As a table, and the diagnostics
#
# `to_frame()` gives one row per change, for pandas; the effective values
# are the rows of section `values`:

# %%
# NBVAL_CHECK_OUTPUT
frame = diff.to_frame()
frame[(frame.section == "values") & (frame.change == "changed")][
    ["entity", "path", "old", "new", "old_source", "new_source"]
]

# %% [markdown]
# Requirements are compared by their resolved target (`web` now depends on
# `orders_db_v2`), and templates added, removed, retyped or **renamed** are
# listed. Is `orders_db_v2` the old `orders_db` renamed? Half of its body
# changed (`storage_gb` 50 → 100), and toskit pairs a changed body with a
# new name only when *more* than half of it is the same, so here it reports
# one database removed and one added (section 5 shows a rename):

# %%
# NBVAL_CHECK_OUTPUT
for r in diff.requirements:
    print(f"{r.entity}.{r.requirement}: {r.old_target} -> {r.new_target}")
for t in diff.templates:
    was = f" (was {t.old_name})" if t.change == "renamed" else ""
    print(f"{t.change}: {t.kind} {t.name}{was} ({t.new_type or t.old_type})")

# %% [markdown]
# Diagnostics are matched by severity, code and path — never by line — so
# text that merely moved is no change. This pull request fixes one error
# (`storage_gb: fifty`) and introduces another (a port written as a
# string); each carries the `file:line:column` of its own side:

# %%
# NBVAL_CHECK_OUTPUT
for d in diff.introduced:
    print(f"introduced: {d.file}:{d.line}:{d.column} {d.code} {d.path}")
for d in diff.fixed:
    print(f"fixed:      {d.file}:{d.line}:{d.column} {d.code} {d.path}")
print("new errors:", len(diff.new_errors))

# %% [markdown]
# Moving the whole topology down three lines changes every line number,
# and nothing else:

# %%
# NBVAL_CHECK_OUTPUT
moved = toskit.loads(new_text.replace("service_template:", "\n\n\nservice_template:"), name="moved.yaml")
print(new.diagnostics[0].line, "->", moved.diagnostics[0].line)
toskit.compare(new, moved).is_same

# %% [markdown]
# ## 5. Beyond property values: capabilities, interfaces, renames
#
# Not every change is a property value. `toskit.compare` compares the whole
# document as written, section by section — capabilities, requirements,
# interfaces and their operations, artifacts, groups, policies, workflows,
# inputs, outputs, imports, every type — besides the effective values.
# A second small pull request, on a 1.3 template: the host gets more
# memory (a *capability* property), the install script changes (an
# *interface* operation), a typo in a property name is fixed and the
# database node is renamed:

# %%
COMPUTE_V1 = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.Service:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      relase: {type: string, required: false}
      release: {type: string, required: false}
topology_template:
  node_templates:
    app_host:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: {num_cpus: 2, mem_size: 2 GB}
    app:
      type: shop.Service
      properties:
        relase: "2.4"
      requirements:
        - host: app_host
      interfaces:
        Standard:
          operations:
            create:
              implementation: scripts/install-v1.sh
              inputs: {port: 8080}
    db:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: {num_cpus: 4, mem_size: 8 GB}
"""
COMPUTE_V2 = (
    COMPUTE_V1.replace("{num_cpus: 2, mem_size: 2 GB}", "{num_cpus: 2, mem_size: 4 GB}")
    .replace("scripts/install-v1.sh", "scripts/install-v2.sh")
    .replace('relase: "2.4"', 'release: "2.4"')
    .replace("    db:\n", "    orders_db:\n")
)
review = toskit.compare(
    toskit.loads(COMPUTE_V1, name="compute-v1.yaml"), toskit.loads(COMPUTE_V2, name="compute-v2.yaml")
)
review

# %% [markdown]
# As text: the capability change is an effective value (with the layer
# and line that set it on each side), the script is a change *as written*
# at `interfaces.Standard.operations.create.implementation`, the typo fix
# is one `renamed` value — not an added `release` and a removed `relase`
# — and the renamed node is one rename:

# %%
# NBVAL_CHECK_OUTPUT
print(review)

# %% [markdown]
# The same records, one kind at a time:

# %%
# NBVAL_CHECK_OUTPUT
for v in review.values:
    target = f" -> {v.new_path}" if v.change == "renamed" else ""
    print(f"value {v.change}: {v.entity}.{v.path}{target}: {v.old!r} -> {v.new!r} @ {v.new_location}")
for f in review.fields:
    print(f"as written {f.change}: {f.section} {f.entity} {f.path}: {f.old!r} -> {f.new!r}")
for t in review.templates:
    print(f"template {t.change}: {t.old_name} -> {t.name}")

# %% [markdown]
# `to_frame()` holds all of them, with a `section` column (`values`,
# `templates`, or where a change as written is):

# %%
# NBVAL_CHECK_OUTPUT
review.to_frame()[["section", "entity", "path", "change", "old", "new", "new_path"]]

# %% [markdown]
# ## 6. On the command line, and in CI
#
# `toskit diff OLD NEW` prints the same report. `--format json` is for
# bots, `--format html -o diff.html` writes a standalone page, and
# `--fail-on new-errors` exits with status 1 when the new version
# introduces an error — the one thing a CI job should block on:

# %%
# NBVAL_CHECK_OUTPUT
done = subprocess.run(
    [sys.executable, "-m", "toskit", "diff", "examples/review/v1.yaml", "examples/review/v2.yaml",
     "--format", "json", "--fail-on", "new-errors"],
    capture_output=True, text=True,
)
report = json.loads(done.stdout)
print("exit status:", done.returncode)
print(done.stderr.strip())
print(report["summary"])

# %% [markdown]
# A side can be a file at a git revision of the repository you are in:
# `git:REV:PATH` reads that one file (and, when the loader asks, each file
# it imports) with `git cat-file` — local, no network; as with `git show`,
# PATH is from the repository root, and `./PATH` from the current folder —
# so in a checkout of the pull request
#
# ```
# toskit diff git:origin/main:shop.yaml shop.yaml --fail-on new-errors
# ```
#
# compares the branch with `main`. A GitHub Actions job that posts the
# report on the pull request and fails on new errors:
#
# ```yaml
# - uses: actions/checkout@v4
#   with: {fetch-depth: 0}
# - run: pip install toskit
# - run: toskit diff git:origin/${{ github.base_ref }}:shop.yaml shop.yaml > diff.txt
# - run: gh pr comment ${{ github.event.number }} --body-file diff.txt
#   env: {GH_TOKEN: "${{ github.token }}"}
# - run: toskit diff git:origin/${{ github.base_ref }}:shop.yaml shop.yaml --fail-on new-errors
# ```
#
# Exit status 2 means the comparison could not run (a missing file, a
# revision git does not know, an output file it refuses: `-o` never
# overwrites an input, writes through a link, or replaces a file toskit
# did not write unless `--force` is given).

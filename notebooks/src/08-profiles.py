# %% [markdown]
# # Profiles: a type library with versions, and what upgrading it does
#
# TOSCA 2.0 organises types in **profiles**: a file declares
# `profile: org.acme.db:1.0` and templates import it by that name and
# version instead of by path. This tutorial puts the tutorials' database
# types (the `DatabaseService` of the tour) into such a profile, then moves
# the template to version 2.0 of it and reads what the upgrade does:
#
# 1. a profile catalog: `toskit.load(..., profiles=[folder])`;
# 2. the upgrade impact: `upgrade_check(old, new, templates)`;
# 3. reading the report: what breaks, what is orphaned, which defaults move;
# 4. the same on the command line (`toskit upgrade-check`, `toskit diff --types`).

# %%
import subprocess
import sys

import toskit
from toskit.compare.upgrade import upgrade_check
from toskit.tosca.load.catalog import ProfileCatalog

# %% [markdown]
# ## 1. A profile catalog
#
# `examples/profiles/acme-db-1.0/acme-db.yaml` declares
# `profile: org.acme.db:1.0`; `examples/profiles/service.yaml` imports it:
#
# ```yaml
# imports:
#   - profile: org.acme.db:1.0
#     namespace: acme
# ```
#
# Without a catalog toskit cannot know the profile: one warning, and the
# names in the `acme:` namespace are not checked at all.

# %%
# NBVAL_CHECK_OUTPUT
st = toskit.load("examples/profiles/service.yaml")
for d in st.diagnostics:
    print(d.code, "-", d.message)
    print("  hint:", d.hint)

# %% [markdown]
# With `profiles=[folder]` the import resolves through the files of that
# folder that declare `profile:` (only their first lines are read until a
# profile is needed), and everything is checked:

# %%
# NBVAL_CHECK_OUTPUT
st = toskit.load("examples/profiles/service.yaml", profiles=["examples/profiles/acme-db-1.0"])
print(len(st.diagnostics), "findings")
print(st.node_templates["db"].type.name)
print(st.node_templates["db"].properties["connection"]["endpoint"]["port"])

# %% [markdown]
# A catalog lists what it found, and toskit's own normative profiles are
# entries of it too (importing them is a no-op: they are always loaded).

# %%
# NBVAL_CHECK_OUTPUT
catalog = ProfileCatalog(["examples/profiles/acme-db-1.0", "examples/profiles/acme-db-2.0"])
for entry in catalog.entries():
    if not entry.builtin:
        print(f"{entry.name:14} {entry.version:5} {entry.shown()}")
print(sum(e.builtin for e in catalog.entries()), "built-in entries, e.g.", catalog.entries()[0].profile)

# %% [markdown]
# ## 2. Upgrading to version 2.0
#
# Version 2.0 of the library changes a few things (see the comments in
# `examples/profiles/acme-db-2.0/acme-db.yaml`). `upgrade_check` loads the
# template once against each version and compares the two loads with the
# model of `toskit diff`. The template imports `org.acme.db:1.0`; the new
# folder only has `2.0`, so the import is read as `2.0`: that is the upgrade
# being asked about. In a notebook the result is a table:

# %%
impact = upgrade_check(
    "examples/profiles/acme-db-1.0", "examples/profiles/acme-db-2.0", ["examples/profiles/service.yaml"]
)
impact

# %% [markdown]
# ## 3. Reading the impact
#
# * **breaking**: errors the new library introduces, each located in the
#   template: a new required property (`tls`) without a default, a value
#   that the narrowed `valid_values` refuse (`mariadb`);
# * **orphaned**: values the template sets for properties that are gone —
#   `legacy_mode` was removed, `pool_size` renamed (the did-you-mean names
#   `poolsize`);
# * **default**: values that change although no line of the template
#   changes, with both layers: the endpoint's port moves from 2233 to 5432
#   because the `Endpoint` default changed, and `poolsize` takes its default
#   of 10 because the template's 20 sits under the old name.

# %%
# NBVAL_CHECK_OUTPUT
print(impact)

# %% [markdown]
# The port is the easiest to miss in a review: nothing in `service.yaml`
# mentions it. Each record carries both layers:

# %%
# NBVAL_CHECK_OUTPUT
(port,) = [v for v in impact.defaults if v.path.endswith("port")]
print(port.old, "from", port.old_source, "at", port.old_location)
print(port.new, "from", port.new_source, "at", port.new_location)

# %% [markdown]
# `examples/profiles/service-2.0.yaml` is the template after the move: it
# imports `org.acme.db:2.0`, sets `tls`, picks `mysql`, renames
# `pool_size` and keeps the old port on purpose. It loads without a finding:

# %%
# NBVAL_CHECK_OUTPUT
st2 = toskit.load("examples/profiles/service-2.0.yaml", profiles=["examples/profiles/acme-db-2.0"])
print(len(st2.diagnostics), "findings; port", st2.node_templates["db"].properties["connection"]["endpoint"]["port"])

# %% [markdown]
# ## 4. On the command line
#
# `toskit upgrade-check OLD NEW TEMPLATE…` (or `toskit diff --types OLD NEW
# TEMPLATE…`) prints the same report; `--fail-on breaking` exits 1 when
# something breaks or is orphaned, so CI can hold a library upgrade until
# the templates are ready. OLD and NEW may also be `git:REV:FOLDER`: one
# library folder at two revisions. `toskit check --profiles DIR` checks
# templates with the catalog.

# %%
# NBVAL_CHECK_OUTPUT
run = subprocess.run(
    [sys.executable, "-m", "toskit", "upgrade-check", "examples/profiles/acme-db-1.0",
     "examples/profiles/acme-db-2.0", "examples/profiles/service.yaml", "--fail-on", "breaking"],
    capture_output=True, text=True,
)
print(run.stdout.splitlines()[-1])
print("exit", run.returncode, "-", run.stderr.strip())

# %% [markdown]
# # Role conditions: who may become a controller?
#
# OpenStack Fuel deploys a cloud onto a cluster of machines. Each machine
# gets *roles* (`controller`, `compute`, `cinder`, …), and a role may only be
# assigned when its **conditions** hold: "a multi-node cluster has at most
# one controller", "HA wants at least three". A proposal for Fuel's
# `openstack.yaml` wrote those rules as data:
#
# * `conflicts`: roles that cannot share a node with this one;
# * `conditions`: a list of rules built from `condition`/`then`/`else`,
#   `all`, `not`, `exists` and `recommended`, over expressions such as
#   `cluster:mode == 'multinode'` or `selectedNodes._length <= 1`.
#
# `toskit.conditions` loads such a document, compiles every expression once
# (with a real parser, never Python's `eval`) and evaluates the rules
# against a **simulated cluster** and a **selection** of nodes. This
# notebook walks through the proposal's controller rules — including the
# places where the proposal is wrong.

# %%
from toskit import conditions
import toskit

# %% [markdown]
# ## 1. The proposal as written does not load
#
# Here is the proposal's `roles_metadata`, exactly as written (four lines of
# prose above it are left out):

# %%
SEED = """\
roles_metadata:
  controller:
    conflicts:
      - compute
    conditions:
      - condition: "cluster:mode == 'multinode'"
          then:
            all:
              - condition: "selectedNodes._length <= 1"
                warning: "Multi-node environment cannot have more than one controller node."
              - not:
                  exists:
                    where: "cluster:nodes"
                    variable: node
                    condition:
                      all:
                        - not: "<node>.id in selectedNodes._pluck('id')"
                        - condition: "<node>._hasRole('controller')"
                        - not: "<node>._pending_deletion"
          else: true
      - condition: "cluster:mode == 'ha_compact'"
        then:
          recommended:
            expression: "cluster:nodes._length >= <value>"
            value: 3
            warning: "At least <value> controller nodes are recommended for HA deployment."
"""

# %% [markdown]
# Loading it raises `toskit.TemplateError`. The error carries a
# `yaml-syntax` diagnostic that points at the offending key and says what is
# wrong in terms of *this* document, not in the parser's jargon:

# %%
# NBVAL_CHECK_OUTPUT
try:
    conditions.load_roles(SEED)
except toskit.TemplateError as err:
    problem = err.diagnostics[0]
    print(problem.code, "at line", problem.line, "column", problem.column)
    print("hint:", problem.hint)

# %% [markdown]
# `then:` sits two columns to the right of `condition:`, so YAML reads it
# as the start of a new mapping inside the string value of `condition` —
# which is not allowed. The keys of one mapping must start in the same
# column. The fix: move `then:` and `else: true` (with everything under
# them) two spaces to the left. We also add the other roles the examples
# below use.

# %%
ROLES = """\
roles_metadata:
  controller:
    conflicts:
      - compute
    conditions:
      - condition: "cluster:mode == 'multinode'"
        then:
          all:
            - condition: "selectedNodes._length <= 1"
              warning: "Multi-node environment cannot have more than one controller node."
            - not:
                exists:
                  where: "cluster:nodes"
                  variable: node
                  condition:
                    all:
                      - not: "<node>.id in selectedNodes._pluck('id')"
                      - condition: "<node>._hasRole('controller')"
                      - not: "<node>._pending_deletion"
        else: true
      - condition: "cluster:mode == 'ha_compact'"
        then:
          recommended:
            expression: "cluster:nodes._length >= <value>"
            value: 3
            warning: "At least <value> controller nodes are recommended for HA deployment."
  compute: {}
  cinder: {}
  zabbix-server:
    conflicts: '*'
"""
roles = conditions.load_roles(ROLES)
roles

# %%
# NBVAL_CHECK_OUTPUT
controller = roles["controller"]
list(roles), controller.conflicts, len(controller.conditions)

# %% [markdown]
# ## 2. Simulated clusters
#
# A `Cluster` has a `mode` and `nodes`; each node has an `id`, its `roles`,
# the `pending_roles` it is about to get, and flags such as
# `pending_deletion`. The `pool` holds unallocated machines that can be
# selected but are not part of the cluster yet — here, nodes 11 and 12.

# %%
POOL = [{"id": 11}, {"id": 12}]


def cluster(mode, *nodes):
    return conditions.Cluster(mode=mode, nodes=list(nodes), pool=POOL)


clusters = {
    "empty multinode": cluster("multinode"),
    "multinode with a controller": cluster(
        "multinode", {"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}
    ),
    "multinode, controller being deleted": cluster(
        "multinode",
        {"id": 1, "roles": ["controller"], "pending_deletion": True},
        {"id": 2, "roles": ["compute"]},
    ),
    "multinode, controller being added": cluster(
        "multinode",
        {"id": 1, "pending_roles": ["controller"], "pending_addition": True},
        {"id": 2, "roles": ["compute"]},
    ),
    "empty HA": cluster("ha_compact"),
    "HA, 1 controller + 2 computes": cluster(
        "ha_compact",
        {"id": 1, "roles": ["controller"]},
        {"id": 2, "roles": ["compute"]},
        {"id": 3, "roles": ["compute"]},
    ),
    "HA, 3 controllers": cluster(
        "ha_compact", *({"id": i, "roles": ["controller"]} for i in (1, 2, 3))
    ),
    "empty HA full": cluster("ha_full"),
}
clusters["multinode with a controller"]

# %% [markdown]
# ## 3. Checking the controller role
#
# `roles.check(role, cluster, selected=[ids])` answers "may the selected
# nodes become controllers?". The result says whether the role is
# `allowed`, the `warnings` to show, and the roles it `conflicts` with:

# %%
# NBVAL_CHECK_OUTPUT
outcome = roles.check("controller", clusters["empty multinode"], selected=[11, 12])
outcome.allowed, outcome.warnings

# %% [markdown]
# Every outcome that is not plainly allowed carries a **reason**: one
# sentence, built from the rule's `warning` when it has one, from the
# evaluation otherwise. `print(outcome)` gives the reason and the trace
# entries that decided it (marked `▶`), each stating its facts: the guard's
# value and the branch it took, the values an expression read.

# %%
# NBVAL_CHECK_OUTPUT
print(outcome)

# %% [markdown]
# Shown in a notebook, an outcome also displays its whole **trace**: every
# condition that was evaluated. A rule reads `guard TRUE → then: FALSE`
# (the guard held, the `then` branch ran and failed) or `guard FALSE →
# rule does not apply`; each expression lists the values it read
# (`selectedNodes._length = 2`); `▶` marks the entries that decided.

# %%
outcome

# %% [markdown]
# Now the controller rules on every cluster above, with one or two pool
# nodes selected:

# %%
# NBVAL_CHECK_OUTPUT
import pandas as pd

rows = []
for name, c in clusters.items():
    for selected in ([11], [11, 12]):
        out = roles.check("controller", c, selected=selected)
        rows.append(
            {
                "cluster": name,
                "selected": selected,
                "allowed": out.allowed,
                "reason": out.reason,
            }
        )
pd.set_option("display.max_colwidth", 140)
pd.DataFrame(rows)

# %% [markdown]
# Reading the table:
#
# * In **multinode** mode one controller may be selected, two may not —
#   with the warning the proposal wrote.
# * When the cluster **already has a controller** elsewhere, the role is
#   blocked. The proposal gives no warning there (see problem 3 below), so
#   the reason comes from the evaluation: which rule, and which node the
#   `exists` found.
# * A controller **being deleted** does not count; one **being added**
#   (a pending role) does.
# * In **HA** mode the role is always allowed; with fewer than three
#   controllers it carries the *advice* of `recommended`.
# * In **ha_full** mode neither rule applies.

# %% [markdown]
# ## 4. The expression language
#
# Every string in a condition is an expression. You can compile and evaluate
# one on its own; `compile_expression` parses it once, `evaluate` runs it.

# %%
# NBVAL_CHECK_OUTPUT
mn1 = clusters["multinode with a controller"]
for text in [
    "cluster:mode == 'multinode'",
    "cluster:nodes._pluck('id')",
    "cluster:nodes._length",
    "not 1 == 2",
    "1 == true",
]:
    value = conditions.compile_expression(text).evaluate(cluster=mn1)
    print(f"{text:32} -> {value!r}")

# %% [markdown]
# A few decisions the proposal left open, which toskit makes explicit:
#
# * **Precedence is Python's**: `not 1 == 2` is `not (1 == 2)`, true.
# * **Equality is strict**: `1 == true` is false (a boolean is not a number).
# * **Pool nodes are not cluster nodes**: `cluster:nodes` lists 1 and 2 only.
#
# Mistakes are `toskit.ConditionError`s with a kind and the exact position,
# shown with a caret:

# %%
# NBVAL_CHECK_OUTPUT
for text in ["cluster:mode = 'x'", "cluster.mode == 'multinode'", "1 == 1 == true",
             "cluster:nodes._size"]:
    try:
        conditions.compile_expression(text).evaluate(cluster=mn1)
    except toskit.ConditionError as err:
        print(err, end="\n\n")

# %% [markdown]
# ## 5. What is wrong with the proposal
#
# ### Problem 2: a rule without `else`
#
# The second rule says `condition: "cluster:mode == 'ha_compact'"` with a
# `then` and no `else`. The proposal's own semantics make a missing `else`
# *false*, so read literally the rule fails on every non-HA cluster — and a
# controller could never be assigned in multinode mode. toskit treats a
# top-level rule whose guard is false as **not applicable** (the proposal's
# `else: true` on the first rule shows that intent). Wrapping the rules in
# `all:` gives back the literal reading:

# %%
# NBVAL_CHECK_OUTPUT
RULE_HA_ONLY = {
    "condition": "cluster:mode == 'ha_compact'",
    "then": {"condition": "true"},
}
as_rules = conditions.evaluate([RULE_HA_ONLY], mn1, selected=[1])
literally = conditions.evaluate({"all": [RULE_HA_ONLY]}, mn1, selected=[1])
print("top-level rule:", as_rules.value)
print("inside all:    ", literally.value)

# %% [markdown]
# ### Problem 3: blocked without a reason
#
# The `not exists` clause — "no other node is a controller" — has no
# `warning`, so when it fails the role is simply unavailable. A user looking
# at a greyed-out role in Fuel's UI got no explanation. toskit still builds a
# reason from the trace (it names the node the `exists` found), but adding
# a `warning:` to the `not` node says it in the author's own words:

# %%
# NBVAL_CHECK_OUTPUT
NO_OTHER_CONTROLLER = {
    "not": {
        "exists": {
            "where": "cluster:nodes",
            "variable": "node",
            "condition": {
                "all": [
                    {"not": "<node>.id in selectedNodes._pluck('id')"},
                    {"condition": "<node>._hasRole('controller')"},
                    {"not": "<node>._pending_deletion"},
                ]
            },
        }
    },
}
silent = conditions.evaluate(NO_OTHER_CONTROLLER, mn1, selected=[11])
explained = conditions.evaluate(
    {**NO_OTHER_CONTROLLER, "warning": "This cluster already has a controller."},
    mn1,
    selected=[11],
)
print(silent.value, silent.warnings, silent.reason)
print(explained.value, explained.warnings, explained.reason)

# %% [markdown]
# ### Problem 4: the HA advice counts the wrong nodes
#
# `cluster:nodes._length >= <value>` counts *every* node: one controller
# with two computes makes three nodes, so no advice is given although the
# cluster has a single controller. Fuel itself counted the nodes that have
# the role and are not being deleted; toskit's `_withRole` and
# `_afterDeployment` say exactly that:

# %%
# NBVAL_CHECK_OUTPUT
ha1c2 = clusters["HA, 1 controller + 2 computes"]


def advice(expression):
    return {
        "recommended": {
            "expression": expression,
            "value": 3,
            "warning": "At least <value> controller nodes are recommended for HA deployment.",
        }
    }


as_written = conditions.evaluate(advice("cluster:nodes._length >= <value>"), ha1c2, selected=[11])
better = conditions.evaluate(
    advice("cluster:nodes._afterDeployment._withRole('controller')._length >= <value>"),
    ha1c2,
    selected=[11],
)
print("as written:", as_written.warnings)
print("better:    ", better.warnings)

# %% [markdown]
# ### Problem 5: pending roles count
#
# `_hasRole('controller')` is true for a node that *will* become a
# controller (`pending_roles`), so a controller being added elsewhere blocks
# a second one — usually what you want. `_hasDeployedRole` looks at deployed
# roles only:

# %%
# NBVAL_CHECK_OUTPUT
mn1p = clusters["multinode, controller being added"]
for member in ("_hasRole", "_hasDeployedRole"):
    check = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": f"<n>.{member}('controller')",
        }
    }
    print(member, conditions.evaluate(check, mn1p).value)

# %% [markdown]
# ### Problem 6: what the prose leaves out
#
# The proposal's prose gives `else` absent as `eval(false)` but says nothing
# about operator precedence, equality between types, or what happens when an
# expression reads something that does not exist. toskit decides each of
# those (section 4 above), reports unknown names when the document is
# loaded, and reports a missing value with its path:

# %%
# NBVAL_CHECK_OUTPUT
try:
    conditions.compile_expression("cluster:nonexistent == null").evaluate(cluster=mn1)
except toskit.ConditionError as err:
    print(err)
print(conditions.compile_expression("cluster:nonexistent == null").evaluate(cluster=mn1, strict=False))

# %% [markdown]
# ## 6. Conflicts
#
# `controller` declares a conflict with `compute`. In the interactive check
# conflicts are symmetric: selecting `compute` blocks `controller` and the
# other way round.

# %%
# NBVAL_CHECK_OUTPUT
empty = clusters["empty multinode"]
for role, other in (("controller", "compute"), ("compute", "controller")):
    out = roles.check(role, empty, selected=[11], selected_roles=[other])
    print(f"{role:10} with {other:10}: allowed={out.allowed} conflicts={out.conflicts} {out.warnings}")

# %% [markdown]
# Checking the roles of one node the way Fuel's server did raises on the
# first role that declares a conflict:

# %%
# NBVAL_CHECK_OUTPUT
try:
    roles.check_assignment(["controller", "compute"])
except toskit.ConditionError as err:
    print(err)

# %% [markdown]
# ## 7. Try it yourself: the cluster simulator
#
# `toskit.explore(roles, cluster)` opens a `ClusterSimulator`. Here a
# cluster of twenty nodes: one controller and nineteen computes.
#
# * **Select** nodes with the checkboxes of the cluster table (or the
#   "selected nodes" list, or "select by role").
# * Pick **roles to assign** and press "assign to selected": every selected
#   node gets them as pending roles at once ("unassign" takes them away).
# * Every role's outcome sits next to the controls, with its **reason**; open
#   a role's **trace** and it stays open while you keep editing, showing the
#   new values.
# * Edit one node (roles, pending roles, deletion), add or remove nodes,
#   switch the mode.
#
# Try the cases above: select a compute node, then the controller as well;
# or switch to `ha_compact`.

# %%
twenty = conditions.Cluster(
    mode="multinode",
    nodes=[{"id": 1, "name": "node-1", "roles": ["controller"]}]
    + [{"id": i, "name": f"node-{i}", "roles": ["compute"]} for i in range(2, 21)],
    pool=[{"id": 21, "name": "spare"}],
)
simulator = toskit.explore(roles, twenty)
simulator.select([2])
simulator.add_class("role-simulator")
simulator

# %% [markdown]
# Everything the widget shows is also reachable from Python, which is how
# toskit's own tests drive it:

# %%
# NBVAL_CHECK_OUTPUT
print(simulator.outcome("controller").reason)
simulator.select([1, 2])
print(simulator.outcome("controller").reason)
simulator.select([1])
print(simulator.outcome("controller").allowed, repr(simulator.outcome("controller").reason))
simulator.select([2])

# %% [markdown]
# ## 8. A real Fuel release: restrictions, limits and settings
#
# OpenStack Fuel never shipped the proposal's `conditions`. What it shipped
# is, on each role, a list of **restrictions** (a role is disabled — or
# hidden — while a restriction's condition is *true*, the opposite polarity
# of a `warning`) and **limits** (`min`, `max`, `recommended` node counts,
# some read from the settings), all evaluated against the release's
# **settings**. `conditions.load_release` reads a real release file
# (`../conformance/fuel/openstack.yaml`, from fuel-web's fixtures, Apache 2.0) with
# the same expression engine as above.

# %%
# NBVAL_CHECK_OUTPUT
RELEASE_FILE = "../conformance/fuel/openstack.yaml"
for name, version, os_name, state in conditions.list_releases(RELEASE_FILE):
    print(f"{name:28} {version:14} {os_name:8} {state}")

release = conditions.load_release(RELEASE_FILE, "Newton on Ubuntu 16.04")
print(release.modes)

# %% [markdown]
# A default cluster of this release (mode `ha_compact`), no nodes yet, and
# one node from the pool selected: which roles could it get, and why not?
# `check_all` checks every role at once; `hidden` roles are the ones Fuel's
# UI would not even list (they need a feature group the master node does
# not have), and `limits` holds the counted nodes against the bounds.

# %%
# NBVAL_CHECK_OUTPUT
cluster = release.cluster(mode="ha_compact", pool=[{"id": 1}])
for role, out in release.check_all(cluster, selected=[1]).items():
    status = "hidden " if out.hidden else ("allowed" if out.allowed else "blocked")
    limits = ""
    if out.limits is not None:
        bounds = [
            f"{kind} {getattr(out.limits, kind)}"
            for kind in ("min", "max", "recommended")
            if getattr(out.limits, kind) is not None
        ]
        limits = f"  [count {out.limits.count}: {', '.join(bounds)}]"
    print(f"{role:20} {status}{limits}")
    if out.reason:
        print(f"{'':22}{out.reason}")

# %% [markdown]
# The trace of a Fuel role holds its restrictions and limits as entries:
# each restriction's expression, the setting values it read, its action
# and message; the limits with the count they were compared with.

# %%
# NBVAL_CHECK_OUTPUT
print(release.check("cinder-block-device", cluster, selected=[1]).trace)

# %% [markdown]
# `ceph-osd` is blocked: its restriction reads four storage settings
# (`settings:storage.volumes_ceph.value == false and
# settings:storage.images_ceph.value == false and …`), all off by default.
# Settings are overridden by their dotted path. With Ceph RBD for volumes
# on, that restriction no longer holds — and the Cinder role, whose
# restriction forbids Ceph for volumes, is blocked instead:

# %%
# NBVAL_CHECK_OUTPUT
with_ceph = release.cluster(
    mode="ha_compact", pool=[{"id": 1}], settings_overrides={"storage.volumes_ceph.value": True}
)
for role in ("ceph-osd", "cinder", "cinder-block-device"):
    before = release.check(role, cluster, selected=[1])
    after = release.check(role, with_ceph, selected=[1])
    print(
        f"{role:20} default: {'allowed' if before.allowed else 'blocked'}"
        f"   with Ceph: {'allowed' if after.allowed else 'blocked'}"
    )

# %% [markdown]
# ## 9. The release in the cluster simulator
#
# `toskit.explore(release, cluster)` opens the simulator on the release: the
# mode list holds the release's modes (and the cluster's status and network
# provider can be changed); the **settings** column on the right (fold it
# away with its title) lists exactly the settings that the roles'
# restrictions and limits read, starting at the release's defaults, plus
# the feature groups they test. Each input checks what you type with the
# setting's own rule: type `abc` as the Ceph replication factor and the
# release's own message, "Invalid number", appears under it; "reset
# settings" brings every default back. Hidden roles are left out of the
# list and cannot be assigned; every role shows its count against its
# limits (`1 / min 1 / rec 3`). Tick "Ceph RBD for volumes" and watch
# `ceph-osd` become allowed; tick the feature group `experimental` and
# `mongo` appears.

# %%
fuel_cluster = release.cluster(
    mode="ha_compact", nodes=[{"id": i, "name": f"node-{i}"} for i in range(1, 7)], pool=[{"id": 11}]
)
fuel_simulator = toskit.explore(release, fuel_cluster)
fuel_simulator.add_class("fuel-simulator")
fuel_simulator

# %% [markdown]
# The panel's controls call the same Python methods that toskit's tests use:

# %%
# NBVAL_CHECK_OUTPUT
fuel_simulator.select([11])
print("hidden:", fuel_simulator.hidden_roles)
fuel_simulator.set_setting("storage.volumes_ceph", True)
print("ceph-osd with Ceph:   ", fuel_simulator.outcome("ceph-osd").allowed)
fuel_simulator.set_setting("storage.volumes_ceph", False)
print("ceph-osd without Ceph:", fuel_simulator.outcome("ceph-osd").allowed)
fuel_simulator.set_feature_groups(["experimental"])
print("hidden with 'experimental':", fuel_simulator.hidden_roles)
fuel_simulator.set_feature_groups([])
fuel_simulator.select([])

# %% [markdown]
# # A tour of toskit
#
# toskit reads typed configuration templates — TOSCA service templates, a
# structural schema model and role conditions — and shows you what they
# *mean*: every default filled in and where it came from, every problem
# pointed at its line, every decision explained.
#
# This tour takes ten minutes. Each system then has its own tutorial:
#
# | notebook | what it teaches |
# |---|---|
# | `01-data-types.ipynb` | TOSCA data types, node types, defaults and nested merging, in YAML and in Python |
# | `02-functions.ipynb` | the TOSCA 2.0 `$` function notation, escaping, built-in functions |
# | `03-schema.ipynb` | a structural schema: validate, merge, compare, unions |
# | `04-role-conditions.ipynb` | role conditions on a simulated cluster, and the flaws of a real proposal |
# | `05-python-dsl.ipynb` | TOSCA types and templates as Python classes; YAML ⇄ Python |

# %%
import toskit

# %% [markdown]
# ## 1. Load a template, see every problem
#
# A TOSCA template declares **data types** (structured values with typed
# fields and defaults), **node types** that use them, and **node templates**
# that fill them in. This one has two mistakes — a port written as a
# string and a misspelt `password` — and toskit reports them as two errors.
# It also warns that `db` has no `host`: a `tosca.nodes.DBMS` must be hosted
# on a node, and this short example declares none. `toskit.loads` (or
# `toskit.load` for a file) never raises for a problem in the template: it
# collects every diagnostic and resolves everything it can.

# %%
SERVICE = """\
tosca_definitions_version: tosca_simple_yaml_1_3

data_types:
  Endpoint:
    properties:
      ip: {type: string}
      port: {type: integer, default: 2233}
  Auth:
    properties:
      username: {type: string, default: admin}
      password: {type: string}
  Connection:
    properties:
      endpoint: {type: Endpoint}
      auth: {type: Auth}

node_types:
  DatabaseService:
    derived_from: tosca.nodes.DBMS
    properties:
      connection: {type: Connection}

topology_template:
  node_templates:
    db:
      type: DatabaseService
      properties:
        connection:
          endpoint: {ip: 192.168.15.85, port: "2244"}
          auth: {pasword: secret}
"""
st = toskit.loads(SERVICE, name="service.yaml")

# %%
# NBVAL_CHECK_OUTPUT
for problem in st.diagnostics:
    print(problem)

# %% [markdown]
# Each diagnostic has a stable `code`, the `file:line:column` of the
# offending node, the offending line with a caret and, when toskit can
# guess what you meant, a hint. In a notebook the template shows itself:
# counts, diagnostics first, then its types and node templates.

# %%
st

# %% [markdown]
# ## 2. Defaults, merged, with their sources
#
# Fix the two mistakes and look at the node template's properties: the
# template wrote three values, the data types' defaults filled in the rest.
# The **property table** says where each value came from.

# %%
# NBVAL_CHECK_OUTPUT
fixed = toskit.loads(
    SERVICE.replace('port: "2244"', "port: 2244").replace("pasword", "password"),
    name="service.yaml",
)
db = fixed.node_templates["db"]
print(fixed.ok)
print(db.properties)
db.property_table().to_frame()[["path", "value", "type", "source"]]

# %% [markdown]
# ## 3. Explore it
#
# `toskit.explore` gives the obvious widget for an object. For a template:
# the type inheritance tree (your types highlighted, the normative TOSCA
# types dimmed) beside the property explorer. Click a type in the tree and
# the explorer shows a node template of that type.

# %%
explorer = toskit.explore(fixed)
explorer.tree.add_class("tour-type-tree")
explorer.properties.add_class("tour-property-explorer")
explorer

# %% [markdown]
# ## 4. Functions
#
# TOSCA values can be computed. TOSCA 2.0 marks every call with `$`, so a
# plain map can never be mistaken for one (see `02-functions`):

# %%
# NBVAL_CHECK_OUTPUT
from toskit import functions

url = functions.parse({"$concat": ["http://", {"$get_input": "host"}, ":8080"]})
print(url)
functions.evaluate(url, inputs={"host": "example.com"})

# %% [markdown]
# ## 5. A structural schema
#
# Kubernetes merges configuration from several owners by knowing how each
# list relates its items: replaced whole, merged by key, or a set. Here a
# list of containers keyed by `name` (see `03-schema`):

# %%
# NBVAL_CHECK_OUTPUT
from toskit import schema

pods = schema.load("""\
types:
- name: pod
  map:
    fields:
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
""")
pods.merge(
    {"containers": [{"name": "web", "image": "nginx:1.26"}, {"name": "cache", "image": "redis"}]},
    {"containers": [{"name": "web", "image": "nginx:1.27"}]},
    "pod",
)

# %% [markdown]
# ## 6. Role conditions on a simulated cluster
#
# OpenStack Fuel decides which roles a machine may take from conditions
# written as data. In multinode mode, at most one controller (see
# `04-role-conditions`):

# %%
from toskit import conditions

roles = conditions.load_roles("""\
roles_metadata:
  controller:
    conflicts: [compute]
    conditions:
      - condition: "cluster:mode == 'multinode'"
        then:
          condition: "selectedNodes._length <= 1"
          warning: "Multi-node environment cannot have more than one controller node."
        else: true
  compute: {}
""")
cluster = conditions.Cluster(mode="multinode", nodes=[{"id": 1, "roles": ["compute"]}], pool=[{"id": 11}, {"id": 12}])

# %%
# NBVAL_CHECK_OUTPUT
for selected in ([11], [11, 12]):
    outcome = roles.check("controller", cluster, selected=selected)
    print(selected, outcome.reason or "allowed")

# %% [markdown]
# The `ClusterSimulator` lets you edit the cluster live: switch the mode,
# select nodes (tick them in the cluster table), choose roles and assign
# them to every selected node at once, add nodes. Every role's outcome, with
# the reason it is blocked, follows each change; open a role's trace to see
# each condition's facts. Tick a second node and the controller role turns
# blocked.

# %%
simulator = toskit.explore(roles, cluster)
simulator.select([11])
simulator.add_class("tour-simulator")
simulator

# %% [markdown]
# ## 7. One kind of problem report
#
# Everything toskit finds wrong is a `toskit.Diagnostic`, and its fields are
# plain attributes, easy to filter and count in your own code:

# %%
# NBVAL_CHECK_OUTPUT
[(d.severity, d.code, d.line) for d in st.diagnostics]

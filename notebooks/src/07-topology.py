# %% [markdown]
# # Requirements, drawn: the topology of a template
#
# A node template rarely stands alone. A web application needs a web server
# to run on, the web server needs a machine, a database needs a database
# management system (DBMS). TOSCA writes each such need as a **requirement**
# of the node that needs it, and the template that fulfils it is its
# **target**:
#
# ```yaml
# shop_app:
#   type: tosca.nodes.WebApplication
#   requirements:
#     - host: web_server        # requirement name: target
# ```
#
# Each requirement forms a **relationship** of some type (`HostedOn` for
# `host`, `DependsOn` for `dependency`, `AttachesTo` for a volume…) with a
# **capability** of the target (the web server's `host` capability).
#
# Reading that off YAML is slow. `st.topology()` draws it: node templates
# as boxes, requirements as arrows from the node that needs to the node
# that fulfils.

# %%
import toskit
from toskit.widgets import explore

# %% [markdown]
# ## 1. A web shop
#
# `examples/web-shop.yaml` beside this notebook has six node templates:
# web app → web server → compute, database → DBMS → compute, and a block
# storage volume attached to the machine.

# %%
st = toskit.load("examples/web-shop.yaml")
shop = st.topology()
shop

# %% [markdown]
# Thick arrows are **hosted on** relationships: follow them down and you
# reach the machine everything runs on. The thin ones are the other
# relationships: the app *depends on* its database, the machine *attaches*
# the volume. Hover an arrow to read its requirement, relationship type,
# target capability and why that target was chosen.
#
# The same facts are plain Python objects:

# %%
# NBVAL_CHECK_OUTPUT
print(shop)

# %%
# NBVAL_CHECK_OUTPUT
edge = shop.edge("shop_app", "host")
print(edge.tooltip)
print()
print("hosting chain:", " → ".join(shop.hosting_chain("shop_app")))
print("hosting chain:", " → ".join(shop.hosting_chain("orders_db")))

# %% [markdown]
# ## 2. When a requirement finds no target
#
# A typo in a target name is easy to make and hard to see in YAML. In the
# drawing it is a **dashed red arrow to nowhere**, and the topology lists
# it with the loader's diagnostic:

# %%
broken_text = open("examples/web-shop.yaml", encoding="utf-8").read().replace(
    "- host: postgres", "- host: postgress"
)
broken = toskit.loads(broken_text, name="web-shop-typo.yaml").topology()
broken

# %%
# NBVAL_CHECK_OUTPUT
for problem in broken.unresolved:
    print(problem.kind, problem.source, problem.requirement)
    print("  ", problem.diagnostic)

# %% [markdown]
# ## 3. Choosing a target by type — and narrowing it with a node filter
#
# A requirement may name a node **type** instead of a template:
# `host: tosca.nodes.Compute` means "any compute node". With two machines,
# that is ambiguous: toskit takes the first and says so (an orange arrow).
# A `node_filter` narrows the choice with constraints on the candidates'
# properties and capabilities, and the topology records which filter
# clause excluded each candidate.

# %%
choice = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    batch_job:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: tosca.nodes.Compute         # any machine: ambiguous
    analytics:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:                    # only a machine with 8 CPUs or more
              capabilities:
                - host:
                    properties:
                      - num_cpus: { greater_or_equal: 8 }
    small_vm:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 2 } } }
    big_vm:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 16 } } }
"""
choices = toskit.loads(choice, name="choice.yaml").topology()
choices

# %%
# NBVAL_CHECK_OUTPUT
for problem in choices.ambiguous:
    print(problem.diagnostic)
print()
for candidate in choices.edge("analytics", "host").candidates:
    print(f"{candidate.candidate:9} {candidate.outcome:9} {candidate.reason}")

# %% [markdown]
# TOSCA 2.0 writes a node filter as one condition in `$` notation, e.g.
# `$greater_or_equal: [{$get_property: [SELF, CAPABILITY, num_cpus]}, 8]`
# (`SELF` is the relationship being formed, `CAPABILITY` the candidate's
# capability); it takes part in choosing the target the same way.
#
# ## 4. Explore
#
# In a live notebook, `explore(topology)` makes the drawing clickable:
# click a box to see that node template's merged property table (values,
# types and which layer set each one); hover an arrow for why it points
# there. The buttons switch to a grouped view.

# %%
explorer = explore(shop)
explorer.add_class("tutorial-topology")
explorer.select("vm")
explorer

# %% [markdown]
# ## 5. Large templates
#
# A template with hundreds of nodes is unreadable as one box per node.
# `grouped()` draws one box per node type ("how many of what needs what"),
# and `collapse_hosting()` one box per hosting chain, named by the machine
# at its bottom:

# %%
# NBVAL_CHECK_OUTPUT
print(shop.collapse_hosting())
print(shop.grouped())

# %%
shop.collapse_hosting()

# %% [markdown]
# ## 6. Export
#
# `to_svg()` gives a standalone SVG file and `to_dot()` Graphviz text, for
# documents and other tools. The layout is computed in Python (grandalf's
# layered Sugiyama layout), with no network access.

# %%
# NBVAL_CHECK_OUTPUT
print(shop.to_dot())

# %% [markdown]
# # TOSCA functions: the `$` notation
#
# A TOSCA value can be computed: `concat` joins strings, `get_input` reads
# an input, `get_property` reads another node's property. TOSCA 1.x wrote a
# call as a map with one key naming the function:
#
# ```yaml
# url: { concat: [ "http://", example.com ] }
# ```
#
# That has a nasty consequence, found by the TOSCA community: **there is no
# way to write a map whose only key happens to be a function name**. The
# proposal below, accepted into TOSCA 2.0, fixes it by prefixing every call
# with `$`:
#
# ```yaml
# url: { $concat: [ "http://", example.com ] }
# ```
#
# `toskit.functions` parses values into trees of calls, evaluates them, and
# reports malformed calls. This notebook follows the proposal's examples.

# %%
from toskit import functions
import toskit

# %% [markdown]
# ## 1. The trap
#
# The proposal's server has a `traits` property: a map from names to lists
# of strings. Someone wants a trait called `concat`:

# %%
TRAIT = {"concat": ["this", "is", "supposed", "to", "be", "a", "value"]}

# %% [markdown]
# In a TOSCA 1.x file, that map *is* a call — `concat` evaluated over seven
# strings — and nothing can stop it:

# %%
# NBVAL_CHECK_OUTPUT
tree_1x = functions.parse(TRAIT, version="1.3")
tree_1x, functions.evaluate(tree_1x, version="1.3")

# %% [markdown]
# In TOSCA 2.0 a call needs the `$`, so the same map is just data:

# %%
# NBVAL_CHECK_OUTPUT
functions.parse(TRAIT, version="2.0") == TRAIT

# %% [markdown]
# The same happens in a whole template. Here is the proposal's server, as
# a TOSCA 1.3 file and as a TOSCA 2.0 file (the proposal misspelled the
# property `trait`; we use `traits`, and come back to the typo below):

# %%
SERVER = """\
tosca_definitions_version: {version}
node_types:
  Server:
    properties:
      traits:
        type: map
        entry_schema:
          type: list
          entry_schema: string
{templates}:
  node_templates:
    server:
      type: Server
      properties:
        traits:
          concat: [ this, is, supposed, to, be, a, value ]
"""
old = toskit.loads(
    SERVER.format(version="tosca_simple_yaml_1_3", templates="topology_template"), name="server-1.3.yaml"
)
new = toskit.loads(SERVER.format(version="tosca_2_0", templates="service_template"), name="server-2.0.yaml")

# %%
# NBVAL_CHECK_OUTPUT
for d in old.diagnostics:
    print(d.severity, d.code, "-", d.message)
print("1.3:", old.node_templates["server"].properties)
print("2.0:", new.node_templates["server"].properties, new.ok)

# %% [markdown]
# In 1.3 the map became the string `thisissupposedtobeavalue`, which is not
# a map of lists: an error the author cannot fix. In 2.0 it is the data the
# author wrote. And the proposal's typo, `trait`, is caught as an unknown
# property, with a suggestion:

# %%
# NBVAL_CHECK_OUTPUT
typo = toskit.loads(
    SERVER.format(version="tosca_2_0", templates="service_template").replace("        traits:\n          concat", "        trait:\n          concat"),
    name="server.yaml",
)
for d in typo.diagnostics:
    print(d)

# %% [markdown]
# One typo, one error: the unknown `trait` is a near miss of `traits`,
# which is required and now has no value, so the checker says both in one
# diagnostic. The node template's view shows one row: `trait`, marked
# `unknown`, with its did-you-mean and the fact that `traits` is required.
# Its value is the call, kept as data:

# %%
typo.node_templates["server"]

# %% [markdown]
# ## 2. Calls
#
# `parse` turns every call into a `functions.Call`. Its arguments are the
# list under the key (a single non-list value is one argument), and calls
# nest:

# %%
# NBVAL_CHECK_OUTPUT
url = functions.parse(
    {"$concat": ["http://", {"$get_input": "host"}, ":", {"$get_input": "port"}]}
)
print(url)
print(url.name, url.args)

# %% [markdown]
# In a notebook a call shows itself as a tree of its arguments:

# %%
url

# %%
# NBVAL_CHECK_OUTPUT
functions.evaluate(url, inputs={"host": "example.com", "port": "8080"})

# %% [markdown]
# A function can take any value as its argument — a map reads like keyword
# arguments — and names may carry a namespace, written before the last `:`:

# %%
# NBVAL_CHECK_OUTPUT
context = functions.parse({"$get_security_context": {"env": "staging", "role": "admin"}})
generator = functions.parse({"$namespace1:random_generator": [{"$get_input": ["seed"]}]})
print(context.name, context.args)
print(generator.namespace, generator.name, generator.args)

# %% [markdown]
# ## 3. Escaping with `$$`
#
# To write a map key that starts with `$`, double the `$`. Parsing removes
# exactly one:

# %%
# NBVAL_CHECK_OUTPUT
functions.parse({"$$concat": ["a", "value"], "$$$price": 5})

# %% [markdown]
# Only *keys* need escaping. A string value that starts with `$` is a call
# only if it names a known function (`$value`, used in validation clauses,
# is one); anything else stays text, and toskit warns you so a typo does not
# go unnoticed:

# %%
# NBVAL_CHECK_OUTPUT
found = []
value = functions.parse({"prop1": "$myid", "price": "$5.00", "prop2": "my_value"}, diagnostics=found)
print(value)
for warning in found:
    print(f"{warning.severity}[{warning.code}]: {warning.message} (hint: {warning.hint})")

# %% [markdown]
# ## 4. Malformed calls
#
# A `$` key must be the only key of its map. Anything else is ambiguous —
# is it a call with extra data, or data with a typo? — so it is an error
# with the code `malformed-function`:

# %%
# NBVAL_CHECK_OUTPUT
try:
    functions.parse({"$concat": ["a", "b"], "other": 1})
except toskit.FunctionSyntaxError as err:
    print(err.diagnostic.code)
    print(err)

# %% [markdown]
# ## 5. Built-in functions
#
# TOSCA 2.0 defines string, list, logic and comparison functions. A few:

# %%
# NBVAL_CHECK_OUTPUT
examples = [
    {"$concat": [[1, 2], [3]]},
    {"$join": [["a", "b", "c"], "-"]},
    {"$token": ["ip=10.0.0.2", "=", 1]},
    {"$union": [[1, 7], [3, 4, 9], [1, 16]]},
    {"$and": [True, False]},
    {"$has_suffix": ["foobar", "bar"]},
    {"$remainder": [-7, 3]},
]
for example in examples:
    print(f"{str(functions.parse(example)):42} -> {functions.evaluate(functions.parse(example))!r}")

# %% [markdown]
# When a call cannot be evaluated, `evaluate` raises `toskit.FunctionError`
# with a `kind` saying what went wrong:

# %%
# NBVAL_CHECK_OUTPUT
for bad in [
    {"$get_input": "memory"},
    {"$equal": [1, "1"]},
    {"$remainder": [7, 0]},
    {"$frobnicate": [1]},
]:
    try:
        functions.evaluate(functions.parse(bad), inputs={"cpus": 4})
    except toskit.FunctionError as err:
        print(err)

# %% [markdown]
# ## 6. Validation clauses
#
# A property definition can carry a `validation` clause: a call that must
# be true, in which `$value` is the value being checked.

# %%
# NBVAL_CHECK_OUTPUT
non_negative = functions.parse({"$greater_or_equal": ["$value", 0]})
functions.validate(non_negative, 5)
try:
    functions.validate(non_negative, -1)
except toskit.FunctionError as err:
    print(err.kind)

# %% [markdown]
# ## 7. Your own functions
#
# Register a Python callable under a (preferably namespaced) name and
# templates can call it:

# %%
# NBVAL_CHECK_OUTPUT
import math

functions.register("ubct:sqrt", math.sqrt)
try:
    print(functions.evaluate(functions.parse({"$ubct:sqrt": 16})))
finally:
    functions.unregister("ubct:sqrt")

# %% [markdown]
# ## 8. Back to YAML
#
# `unparse` is the inverse of `parse`: calls become `$` keys again, and
# literal text that would be misread is escaped. A round trip gives the same
# tree:

# %%
# NBVAL_CHECK_OUTPUT
tree = functions.parse({"$$concat": {"$concat": ["a", "$$b"]}})
plain = functions.unparse(tree)
print(plain)
functions.parse(plain) == tree

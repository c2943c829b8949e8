# %% [markdown]
# # A tour of toskit
#
# toskit reads typed configuration templates — TOSCA service templates, a
# structural schema model and role conditions — and shows you what they
# *mean*: every default filled in, every problem pointed at its line, every
# decision explained.
#
# This tour grows with the toolkit. Each system has its own tutorial:
#
# | notebook | what it teaches |
# |---|---|
# | `01-data-types.ipynb` | TOSCA data types, node types, defaults and nested merging |
# | `02-functions.ipynb` | the TOSCA 2.0 `$` function notation |
# | `03-schema.ipynb` | a structural schema: validate, merge, compare, unions |
# | `04-role-conditions.ipynb` | role conditions on a simulated cluster |

# %%
import toskit

toskit.__version__

# %% [markdown]
# ## One kind of problem report
#
# Everything toskit finds wrong is a `toskit.Diagnostic`: a severity, a
# stable code you can search for, a message, the place in the file and,
# when toskit can guess what you meant, a hint. Printed, it reads like a
# compiler message:

# %%
# NBVAL_CHECK_OUTPUT
problem = toskit.Diagnostic(
    severity="error",
    code="type-mismatch",
    message="property 'port' of node template 'db' expects an integer, got 'abc'",
    path="topology_template.node_templates.db.properties.port",
    file="service.yaml",
    line=12,
    column=15,
    hint="write the port as a number, e.g. 5432",
)
print(problem)

# %% [markdown]
# The fields are plain attributes, so diagnostics are easy to filter and
# count in your own code:

# %%
# NBVAL_CHECK_OUTPUT
problem.code, problem.path, problem.is_error

# %% [markdown]
# # TOSCA in Python: `toskit.dsl`
#
# A TOSCA template is YAML, but types and templates can just as well be
# written as Python classes: an editor completes the names, a type checker
# catches a wrong field, and ordinary Python builds many similar templates.
# `toskit.dsl` reads such classes — including modules written for Unfurl's
# `tosca` package — and turns them into the same `ServiceTemplate` that
# `toskit.load` returns. It also converts in both directions, YAML ⇄ Python.
#
# The rules are few:
#
# | Python | TOSCA |
# |---|---|
# | a subclass of `dsl.DataEntity` | a data type |
# | a subclass of `dsl.nodes.Root`, `dsl.nodes.DBMS`, … | a node type |
# | an annotation `port: int` | a property of type `integer` (`str`, `float`, `bool`, `list[X]`, `dict[str, X]` too) |
# | `X \| None` | the property is not required |
# | a class attribute value `= 443` | the default |
# | the docstring under an attribute | its description |
# | `_type_name = "shop.Endpoint"` | the TOSCA name (default: the class name) |
# | calling a node class with a name | a node template |

# %%
import pathlib
import tempfile

import toskit
from toskit import dsl

# %% [markdown]
# ## 1. A module of classes
#
# `examples/shop.py` beside this notebook declares a data type, a node type
# and two node templates:

# %%
print(pathlib.Path("examples/shop.py").read_text(encoding="utf-8"))

# %% [markdown]
# `dsl.load_module` runs the file (afresh, each time) and builds the
# template. Diagnostics point at **Python** lines — here the string
# `"eighty"` given for an integer port:

# %%
# NBVAL_CHECK_OUTPUT
shop = dsl.load_module("examples/shop.py")
for problem in shop.diagnostics:
    if problem.is_error:
        print(problem)

# %% [markdown]
# The node template's view marks the row, with the message and the Python
# line under it:

# %%
shop.node_templates["staging"]

# %% [markdown]
# Everything else is the same object as for YAML: types with their
# effective properties, node templates with merged values and provenance.

# %%
# NBVAL_CHECK_OUTPUT
web_shop = shop.types["WebShop"]
print(web_shop.description)
for name, definition in web_shop.own_properties.items():
    print(f"  {name:9} {definition.type:14} required={definition.required}")

# %%
# NBVAL_CHECK_OUTPUT
shop.node_templates["shop"].property_table().to_frame()[["path", "value", "type", "source"]]

# %% [markdown]
# ## 2. Python → YAML
#
# `template_to_yaml` writes the template out as YAML. By default it keeps
# the dialect the DSL writes, **Unfurl's** `tosca_simple_unfurl_1_0_0`:
# TOSCA 1.3 plus Unfurl's extensions, which toskit and Unfurl read but other
# TOSCA tools refuse by its version line. Ask for a standard version —
# `version="1.3"` (`tosca_simple_yaml_1_3`) or `version="2.0"` (`tosca_2_0`,
# with the 2.0 profile's names and `validation` clauses) — and the result is
# plain TOSCA YAML that other tools read:

# %%
# NBVAL_CHECK_OUTPUT
print(dsl.template_to_yaml(shop, version="1.3"))

# %% [markdown]
# tosca-parser (the OpenStack TOSCA parser) reads that document, and finds
# in it what toskit finds: `"eighty"` is not an integer, and neither web
# shop — a kind of `tosca.nodes.WebApplication` — is hosted on anything.
# The Unfurl form it refuses first, by its version line:

# %%
# NBVAL_CHECK_OUTPUT
import re
import tempfile

from toscaparser.tosca_template import ToscaTemplate


def tosca_parser(text: str) -> list[str]:
    """What tosca-parser says about a document: its verdict, one line per problem."""
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as file:
        file.write(text)
    try:
        ToscaTemplate(file.name)
        return ["parsed, no problem"]
    except Exception as exc:  # tosca-parser raises exceptions of its own kinds
        found = re.findall(r"^\s*(\w+(?:Error|Version): .*)$", str(exc), flags=re.MULTILINE)
        return [line[:110] for line in dict.fromkeys(found)]


for version in ("1.3", None):
    print(f"version={version!r}:")
    for line in tosca_parser(dsl.template_to_yaml(shop, version=version)):
        print("   ", line)

# %% [markdown]
# ## 3. YAML → Python
#
# The other direction turns a YAML template into a module of classes. Here
# the nested-merging example of `01-data-types`:

# %%
NESTED = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
  datatypes.Data1:
    properties:
      prop1:
        type: string
        default: prop1_default
      prop2:
        type: string
        default: prop2_default
      prop3:
        type: string
        default: prop3_default

node_types:
  nodes.MyApp:
    derived_from: tosca.nodes.Root
    properties:
      data1:
        type: datatypes.Data1
        default:
          prop2: prop2_override

topology_template:
  node_templates:
    my_app:
      type: nodes.MyApp
      properties:
        data1:
          prop3: prop3_override
"""
from_yaml = toskit.loads(NESTED, name="nested.yaml")
source = dsl.template_to_python(from_yaml)

# %%
# NBVAL_CHECK_OUTPUT
print(source)

# %% [markdown]
# Loading that Python back gives the same resolved template: the round
# trip keeps the meaning.

# %%
# NBVAL_CHECK_OUTPUT
with tempfile.TemporaryDirectory() as folder:
    path = pathlib.Path(folder, "nested.py")
    path.write_text(source, encoding="utf-8")
    back = dsl.load_module(path)
print(back.node_templates["my_app"].properties)
back.node_templates["my_app"].properties == from_yaml.node_templates["my_app"].properties

# %% [markdown]
# ## 4. Modules written for Unfurl
#
# Unfurl's `tosca` package uses the same style; such modules load unchanged
# (`import tosca`, `from tosca import DataEntity` and `import unfurl` refer
# to `toskit.dsl` while the module runs). The data-types tutorial's Python
# examples are written that way; `01-data-types` loads every one of them
# next to its YAML twin.

# %% [markdown]
# # TOSCA data types, defaults and nested merging
#
# TOSCA describes a deployment as **node templates** (a database, a web
# server, …) whose **properties** are typed. Besides the built-in types
# (`string`, `integer`, …) a template can declare its own **data types**:
# structured values with named fields, each with a type, a `required` flag
# and maybe a `default`.
#
# This notebook follows the examples of a data-types tutorial written for
# TOSCA users, one by one. Each is loaded with `toskit.loads`, which never
# raises for a problem in the template: it returns a `ServiceTemplate` that
# carries every diagnostic, and resolves every property it can.

# %%
import pathlib
import tempfile

import toskit
from toskit import dsl


def load_python(source: str, name: str) -> toskit.ServiceTemplate:
    """Load a module of toskit.dsl classes written as text (see the Python twins below)."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder, name)
        path.write_text(source, encoding="utf-8")
        return dsl.load_module(path)

# %% [markdown]
# ## 1. Basic usage
#
# A data type `my.datatypes.Endpoint` with an `ip` and a `port`; a node type
# `DatabaseService` (a kind of the normative `tosca.nodes.DBMS`) with an
# `endpoint` property of that type; and one node template that fills it in.

# %%
ENDPOINT = """\
  my.datatypes.Endpoint:
    description: Socket endpoint details
    properties:
      ip:
        description: the endpoint IP
        type: string
      port:
        description: the endpoint port
        type: integer
"""
BASIC = f"""\
tosca_definitions_version: tosca_simple_unfurl_1_0_0

data_types:
{ENDPOINT}
node_types:
  DatabaseService:
    derived_from: tosca.nodes.DBMS
    properties:
      endpoint:
        type: my.datatypes.Endpoint

topology_template:
  node_templates:
    my_db_service:
      type: DatabaseService
      properties:
        endpoint:
          ip: 192.168.15.85
          port: 2233
"""
st = toskit.loads(BASIC, name="basic.yaml")
st

# %% [markdown]
# **About `tosca_simple_unfurl_1_0_0`.** The examples come from a tutorial
# written for [Unfurl](https://github.com/onecommons/unfurl), an
# orchestrator whose TOSCA *dialect* is TOSCA 1.3 plus a few extensions,
# announced by that version line. toskit reads it like 1.3. Other TOSCA
# tools (tosca-parser, Puccini) know only the standard version strings —
# `tosca_simple_yaml_1_3` or `tosca_2_0` — and refuse the file by its first
# line; `dsl.template_to_yaml(st, version="1.3")` writes a template out in
# the standard form (see tutorial 05).

# %% [markdown]
# The template is fine. (The normative `tosca.nodes.DBMS` needs a `host` to
# run on; toskit notes that as a warning, because it explores templates that
# an orchestrator will complete.)

# %%
# NBVAL_CHECK_OUTPUT
print("ok:", st.ok)
for d in st.diagnostics:
    print(d.severity, d.code)
st.node_templates["my_db_service"].properties

# %% [markdown]
# The type itself can be inspected: its ancestry, and its effective
# property definitions — the ones it inherits from `tosca.nodes.DBMS` and
# the one it adds.

# %%
# NBVAL_CHECK_OUTPUT
service = st.types["DatabaseService"]
print(" → ".join(t.name for t in reversed([service, *service.ancestors])))
print({name: (p.type, p.defined_in) for name, p in service.properties.items()})

# %% [markdown]
# In a notebook the type shows itself as a table: its ancestry, every
# effective property with its type, whether it must be given (`REQUIRED`;
# one with a default reads `default`), its default, its constraints and the
# type that defined it (`●` marks those this type adds):

# %%
service

# %% [markdown]
# **The same in Python.** The tutorial writes every example twice: as YAML
# and as Python classes (in the style of Unfurl's `tosca` package, which
# `toskit.dsl` accepts unchanged). A class is a type, an annotation is a
# property, the docstring under it is its description, and calling a node
# class with a name makes a node template:

# %%
BASIC_PY = '''\
import unfurl
import tosca
from tosca import DataEntity


class my_datatypes_Endpoint(DataEntity):
    """Socket endpoint details"""

    _type_name = "my.datatypes.Endpoint"
    ip: str
    """the endpoint IP"""

    port: int
    """the endpoint port"""


class DatabaseService(tosca.nodes.DBMS):
    endpoint: "my_datatypes_Endpoint"


my_db_service = DatabaseService(
    "my_db_service",
    endpoint=my_datatypes_Endpoint(
        ip="192.168.15.85",
        port=2233,
    ),
)
'''
st_py = load_python(BASIC_PY, "basic.py")

# %%
# NBVAL_CHECK_OUTPUT
print(st_py.node_templates["my_db_service"].properties)
st_py.node_templates["my_db_service"].properties == st.node_templates["my_db_service"].properties

# %% [markdown]
# ## 2. Validation
#
# Leave out `port`, and the template is no longer valid. The diagnostic
# names the node template and the field, and points at the line:

# %%
MISSING_PORT = BASIC.replace("my_db_service:", "my_db_service2:").replace(
    "          port: 2233\n", ""
)
st2 = toskit.loads(MISSING_PORT, name="missing-port.yaml")

# %%
# NBVAL_CHECK_OUTPUT
for d in st2.diagnostics:
    if d.is_error:
        print(d)

# %% [markdown]
# The node template's view says the same *where it is*: every property row
# carries its state, and the missing `endpoint.port` has a row of its own,
# marked `missing`, with the message and `file:line` under it. The same
# states are columns of `to_frame()`:

# %%
st2.node_templates["my_db_service2"]

# %%
# NBVAL_CHECK_OUTPUT
st2.node_templates["my_db_service2"].property_table().to_frame()[["path", "value", "status", "problem"]]

# %% [markdown]
# With `required: false` on `port`, the same template is valid:

# %%
# NBVAL_CHECK_OUTPUT
OPTIONAL_PORT = MISSING_PORT.replace(
    "        description: the endpoint port\n",
    "        description: the endpoint port\n        required: false\n",
)
toskit.loads(OPTIONAL_PORT).ok

# %% [markdown]
# A field the data type does not declare is an error too. When it looks
# like a typo of a required field that is left without a value (`prot` for
# `port`), the one error says both, with the rename as its hint:

# %%
# NBVAL_CHECK_OUTPUT
EXTRA = BASIC.replace(
    "          port: 2233\n", "          port: 2233\n          some_other_property: the_value\n"
)
for d in toskit.loads(EXTRA, name="extra.yaml").diagnostics:
    if d.is_error:
        print(f"{d.code}: {d.message}")
TYPO = BASIC.replace("          port: 2233\n", "          prot: 2233\n")
for d in toskit.loads(TYPO, name="typo.yaml").diagnostics:
    if d.is_error:
        print(f"{d.code}: {d.message}" + (f" ({d.hint})" if d.hint else ""))

# %% [markdown]
# ## 3. Inheritance
#
# `my.datatypes.ExtendedEndpoint` derives from `Endpoint` and adds a
# `username`. Its properties are the parent's plus its own:

# %%
EXTENDED = f"""\
tosca_definitions_version: tosca_simple_unfurl_1_0_0

data_types:
{ENDPOINT}
  my.datatypes.ExtendedEndpoint:
    derived_from: my.datatypes.Endpoint
    properties:
      username:
        description: Username used to connect to the endpoint
        type: string

node_types:
  DatabaseService:
    derived_from: tosca.nodes.DBMS
    properties:
      endpoint:
        type: my.datatypes.ExtendedEndpoint

topology_template:
  node_templates:
    my_db_service:
      type: DatabaseService
      properties:
        endpoint:
          ip: 192.168.15.85
          port: 2233
          username: jimmy
"""
st3 = toskit.loads(EXTENDED)

# %%
# NBVAL_CHECK_OUTPUT
extended = st3.types["my.datatypes.ExtendedEndpoint"]
print({name: p.defined_in for name, p in extended.properties.items()})
print(st3.node_templates["my_db_service"].properties)

# %% [markdown]
# ## 4. Composition
#
# Data types nest: a `Connection` holds an `Endpoint` and an `Auth`. (The
# tutorial derived `DatabaseService` from `cloudify.nodes.DBMS`, a type from
# another TOSCA dialect. toskit reports the unknown type, suggests the
# normative one, and still resolves the properties.)

# %%
COMPOSITION = f"""\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
{ENDPOINT}
  my.datatypes.Connection:
    properties:
      endpoint:
        type: my.datatypes.Endpoint
      auth:
        type: my.datatypes.Auth

  my.datatypes.Auth:
    properties:
      username:
        type: string
      password:
        type: string

node_types:
  DatabaseService:
    derived_from: cloudify.nodes.DBMS
    properties:
      connection:
        type: my.datatypes.Connection

topology_template:
  node_templates:
    my_db_service:
      type: DatabaseService
      properties:
        connection:
          endpoint:
            ip: 192.168.15.85
            port: 2233
          auth:
            username: jimmy
            password: secret
"""
COMPOSITION_PY = '''\
import tosca


class Auth(tosca.datatypes.Root):
    username: str
    password: str


class Endpoint(tosca.datatypes.Root):
    ip: str
    port: int


class Connection(tosca.datatypes.Root):
    endpoint: Endpoint
    auth: Auth


class DatabaseService(tosca.nodes.DBMS):
    connection: Connection


my_db_service = DatabaseService(
    "my_db_service",
    connection=Connection(
        endpoint=Endpoint(
            ip="192.168.15.85",
            port=2233
        ),
        auth=Auth(
            username="jimmy",
            password="secret"
        )
    )
)

__all__ = ["Auth", "Endpoint", "Connection", "DatabaseService"]
'''

# %%
# NBVAL_CHECK_OUTPUT
composed = toskit.loads(COMPOSITION, name="composition.yaml")
for d in composed.diagnostics:
    if d.is_error:
        print(f"{d.code}: {d.message} ({d.hint})")
composed_py = load_python(COMPOSITION_PY, "composition.py")
print("YAML:  ", composed.node_templates["my_db_service"].properties)
print("Python:", composed_py.node_templates["my_db_service"].properties)

# %% [markdown]
# ## 5. Default values
#
# With defaults on `port` and `username`, a template only writes what
# differs. (This time the tutorial wrote `nodes.DBMS`, which does not exist
# either.)

# %%
DEFAULTS = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
  my.datatypes.Connection:
    properties:
      endpoint:
        type: my.datatypes.Endpoint
      auth:
        type: my.datatypes.Auth

  my.datatypes.Endpoint:
    description: Socket endpoint details
    properties:
      ip:
        description: the endpoint IP
        type: string
      port:
        default: 2233
        type: integer

  my.datatypes.Auth:
    properties:
      username:
        default: admin
        type: string
      password:
        type: string

node_types:
  DatabaseService:
    derived_from: nodes.DBMS
    properties:
      connection:
        type: my.datatypes.Connection

topology_template:
  node_templates:
    my_db_service:
      type: DatabaseService
      properties:
        connection:
          endpoint:
            ip: 192.168.15.85
          auth:
            password: secret
"""
st4 = toskit.loads(DEFAULTS, name="defaults.yaml")

# %%
# NBVAL_CHECK_OUTPUT
for d in st4.diagnostics:
    if d.is_error:
        print(d.code, "-", d.message, "-", d.hint)
st4.node_templates["my_db_service"].properties

# %% [markdown]
# Where did each value come from? The **property table** has one row per
# leaf value, with the layer that supplied it:

# %%
# NBVAL_CHECK_OUTPUT
table = st4.node_templates["my_db_service"].property_table()
table.to_frame()[["path", "value", "type", "source"]]

# %% [markdown]
# In a notebook the table shows itself, each source in its own colour:

# %%
table

# %% [markdown]
# **In Python**, a default is the class attribute's value. The Python twin
# resolves to the same values; its sources name the Python classes:

# %%
DEFAULTS_PY = '''\
import tosca


class Auth(tosca.datatypes.Root):
    username: str = "admin"
    password: str


class Endpoint(tosca.datatypes.Root):
    ip: str
    port: int = 2233


class Connection(tosca.datatypes.Root):
    endpoint: Endpoint
    auth: Auth


class DatabaseService(tosca.nodes.DBMS):
    connection: Connection


my_db_service = DatabaseService(
    "my_db_service",
    connection=Connection(
        endpoint=Endpoint(
            ip="192.168.15.85"
        ),
        auth=Auth(
            password="secret"
        )
    )
)

__all__ = ["Auth", "Endpoint", "Connection", "DatabaseService"]
'''
defaults_py = load_python(DEFAULTS_PY, "defaults.py").node_templates["my_db_service"]
defaults_py.property_table().to_frame()[["path", "value", "source"]]

# %% [markdown]
# Overriding a default is just writing the value:

# %%
# NBVAL_CHECK_OUTPUT
OVERRIDE = DEFAULTS.replace(
    "            ip: 192.168.15.85\n", "            ip: 192.168.15.85\n            port: 2244\n"
)
frame = toskit.loads(OVERRIDE).node_templates["my_db_service"].property_table().to_frame()
frame[frame.path == "connection.endpoint.port"][["path", "value", "source"]]

# %% [markdown]
# ## 6. Nested merging: data type ← node type ← template
#
# Three layers each set one field of `data1`: the data type's defaults, the
# node type's default for the property, and the template. They merge field
# by field, the higher layer winning:

# %%
NESTED = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
  datatypes.Data1:
    properties:
      prop1:
        default: prop1_default
      prop2:
        default: prop2_default
      prop3:
        default: prop3_default

  datatypes.Data2:
    properties:
      data1:
        type: datatypes.Data1
        default:
          prop2: prop2_override

node_types:
  nodes.MyApp:
    properties:
      data1:
        type: datatypes.Data1
        default:
          prop2: prop2_override

  nodes.UsesData2:
    properties:
      data2:
        type: datatypes.Data2

topology_template:
  node_templates:
    my_app:
      type: nodes.MyApp
      properties:
        data1:
          prop3: prop3_override
    uses_data2:
      type: nodes.UsesData2
"""
st5 = toskit.loads(NESTED)

# %%
# NBVAL_CHECK_OUTPUT
st5.node_templates["my_app"].property_table().to_frame()[["path", "value", "source"]]

# %% [markdown]
# **In Python**, a partial default is an instance that sets only some
# fields: `Data1(prop2="prop2_override")` records `prop2` alone, so it merges
# exactly like the YAML.

# %%
# NBVAL_CHECK_OUTPUT
NESTED_PY = '''\
import tosca


class Data1(tosca.datatypes.Root):
    prop1: str = "prop1_default"
    prop2: str = "prop2_default"
    prop3: str = "prop3_default"


class MyApp(tosca.nodes.Root):
    data1: Data1 = Data1(prop2="prop2_override")


my_app = MyApp(
    "my_app",
    data1=Data1(
        prop3="prop3_override"
    )
)

__all__ = ["Data1", "MyApp"]
'''
nested_py = load_python(NESTED_PY, "nested.py")
print(nested_py.node_templates["my_app"].properties)
nested_py.node_templates["my_app"].properties == st5.node_templates["my_app"].properties

# %% [markdown]
# The same holds for a data type whose field is another data type:
# `datatypes.Data2` writes the default `{prop2: prop2_override}` for its
# `data1` field, and it is merged over `Data1`'s own defaults. The template
# `uses_data2` sets nothing, so its `data2` is built from defaults alone:

# %%
# NBVAL_CHECK_OUTPUT
print(st5.types["datatypes.Data2"].properties["data1"].default)
st5.node_templates["uses_data2"].property_table().to_frame()[["path", "value", "source"]]

# %% [markdown]
# ## 7. Nested merging and inheritance
#
# When a derived node type redefines a data-typed property, both types'
# defaults merge too. The tutorial's text has a typo — `topology_template`
# without its colon — which toskit reports with a hint:

# %%
INHERIT = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
  datatypes.Data1:
    properties:
      prop1:
        default: prop1_default
      prop2:
        default: prop2_default
      prop3:
        default: prop3_default

node_types:
  nodes.MyApp:
    properties:
      data2:
        type: datatypes.Data1
        default:
          prop2: prop2_override

  nodes.DerivedFromMyApp:
    derived_from: nodes.MyApp
    properties:
      data2:
        type: datatypes.Data1
        default:
          prop3: prop3_override

topology_template
  node_templates:
    my_app:
      type: nodes.DerivedFromMyApp
"""

# %%
# NBVAL_CHECK_OUTPUT
broken = toskit.loads(INHERIT, name="inherit.yaml")
for d in broken.diagnostics:
    print(d.code, "at line", d.line, "-", d.hint)

# %%
# NBVAL_CHECK_OUTPUT
fixed = toskit.loads(INHERIT.replace("topology_template\n", "topology_template:\n"))
fixed.node_templates["my_app"].property_table().to_frame()[["path", "value", "source"]]

# %% [markdown]
# `DerivedFromMyApp` wrote only `prop3`, `MyApp` only `prop2`, and `Data1`
# filled in `prop1`. (The tutorial's result block calls the property
# `data1`; it is `data2`.) The Python twin: a subclass redefines the
# attribute with its own partial default.

# %%
# NBVAL_CHECK_OUTPUT
INHERIT_PY = '''\
import tosca


class Data1(tosca.datatypes.Root):
    prop1: str = "prop1_default"
    prop2: str = "prop2_default"
    prop3: str = "prop3_default"


class MyApp(tosca.nodes.Root):
    data2: Data1 = Data1(prop2="prop2_override")


class DerivedFromMyApp(MyApp):
    data2: Data1 = Data1(prop3="prop3_override")


my_app = DerivedFromMyApp("my_app")

__all__ = ["Data1", "MyApp", "DerivedFromMyApp"]
'''
inherit_py = load_python(INHERIT_PY, "inherit.py")
print(inherit_py.node_templates["my_app"].properties)
inherit_py.node_templates["my_app"].properties == fixed.node_templates["my_app"].properties

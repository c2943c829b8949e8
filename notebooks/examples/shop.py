"""A web shop written with toskit.dsl: TOSCA types and templates as Python classes.

Loaded by notebooks/05-python-dsl.ipynb with ``toskit.dsl.load_module``.
The template ``staging`` has a mistake on purpose.
"""

from toskit import dsl


class Endpoint(dsl.DataEntity):
    """Where a service listens."""

    _type_name = "shop.Endpoint"
    host: str
    """host name or IP address"""
    port: int = 443
    """TCP port"""


class WebShop(dsl.nodes.WebApplication):
    """The shop's front end."""

    endpoint: Endpoint
    replicas: int = 2
    features: list[str] = ["cart"]
    limits: dict[str, int] | None = None
    banner: str | None = None


shop = WebShop("shop", endpoint=Endpoint(host="shop.example.com"), features=["cart", "wishlist"])
staging = WebShop("staging", endpoint=Endpoint(host="staging.example.com", port="eighty"), replicas=1)

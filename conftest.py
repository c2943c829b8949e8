"""Repository-wide pytest set-up (the notebooks under nbval are collected outside tests/).

pytest-lsp (tests/lsp) wraps ``pytest_runtest_call`` for every item and
returns without yielding for an item that has no ``funcargs`` -- nbval's
notebook cells -- which fails each cell ("wrap_controller ... did not
yield"). Such items get an empty ``funcargs``, as pytest's own doctest
items have, so the wrapper yields and the cell runs.
"""


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not hasattr(item, "funcargs"):
            item.funcargs = {}

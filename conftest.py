"""Repository-wide pytest set-up (the notebooks under nbval are collected outside tests/).

* pytest-lsp (tests/lsp) wraps ``pytest_runtest_call`` for every item and
  returns without yielding for an item that has no ``funcargs`` -- nbval's
  notebook cells -- which fails each cell ("wrap_controller ... did not
  yield"). Such items get an empty ``funcargs``, as pytest's own doctest
  items have, so the wrapper yields and the cell runs.
* The browser checks run last. Playwright's sync API keeps an asyncio loop
  running in the main thread for as long as its session fixture lives, and
  every asyncio test collected after it (tests/lsp under pytest-asyncio)
  would fail with "Runner.run() cannot be called from a running event loop"
  in the one-run ``make test``.
"""


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not hasattr(item, "funcargs"):
            item.funcargs = {}
    # A stable sort: the order within each group is kept.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)

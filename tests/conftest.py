import os
import sys
from pathlib import Path

import pytest

# Helper modules at the top of tests/ (corpus) import by name from any folder.
sys.path.insert(0, str(Path(__file__).parent))


SHADOW_ENV = "TOSKIT_YAML_SHADOW"  # toskit.source.shadow.ENV_VAR


def pytest_addoption(parser):
    parser.addoption(
        "--yaml-shadow",
        action="store_true",
        help="parse every YAML document on both parse paths and fail on any difference "
        "(TOSKIT_YAML_SHADOW=1, toskit.source.shadow)",
    )
    parser.addoption(
        "--yaml-shadow-in",
        action="append",
        default=[],
        metavar="DIR",
        help="the same, for the tests under DIR only (repeatable; what `make test` does)",
    )


def pytest_configure(config):
    if config.getoption("--yaml-shadow"):
        # Read by toskit.source.load_yaml on every call (subprocesses inherit it).
        os.environ[SHADOW_ENV] = "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # Around the whole test, fixtures included (a module's fixture is set up
    # within its first test): shadow mode on for the tests under --yaml-shadow-in.
    dirs = [Path(d).resolve() for d in item.config.getoption("--yaml-shadow-in")]
    here = Path(str(item.path)).resolve()
    on = any(here.is_relative_to(d) for d in dirs) and os.environ.get(SHADOW_ENV) != "1"
    if on:
        os.environ[SHADOW_ENV] = "1"
    try:
        yield
    finally:
        if on:
            os.environ.pop(SHADOW_ENV, None)

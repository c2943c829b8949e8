"""The package as users install it: ``python -m build``, then the wheel in a fresh venv (issue #34 item 7).

``python -m build`` makes the sdist and then the wheel *from the sdist*, so
a file missing from the sdist breaks the wheel too. The wheel is installed
with ``--no-deps`` into a new virtual environment whose only other path is
this environment's site-packages (for the dependencies: no download, and
toskit itself is imported from the wheel, which the test checks). There the
installed ``toskit`` checks a template (the normative profiles), writes a
page (the stylesheet) and finds its widgets' JavaScript and ``py.typed``.
Marked ``slow``; ``make test`` runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import toskit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "notebooks" / "examples"
HANG_GUARD = 900  # seconds, a bound on a stuck build, not a performance target
ASSETS = [
    "toskit/py.typed",
    "toskit/display/style.css",
    "toskit/widgets/type_tree.js",
    "toskit/widgets/cluster_simulator.js",
    "toskit/widgets/topology.js",
    "toskit/tosca/profiles/tosca-simple-1.3.yaml",
    "toskit/tosca/profiles/tosca-2.0.yaml",
    "toskit/tosca/profiles/LICENSE",
]

pytestmark = pytest.mark.slow


def _run(args: list, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GITHUB_ACTIONS")}
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        env=env,
        check=False,
        **kwargs,
    )


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = _run([sys.executable, "-m", "build", "--outdir", out, ROOT])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed (no dependencies downloaded: they come from this one)."""
    home = tmp_path_factory.mktemp("venv") / "env"
    done = _run([sys.executable, "-m", "venv", "--without-pip", home])
    assert done.returncode == 0, done.stderr
    python = home / "bin" / "python"
    site = _run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    # This environment's packages after the venv's own: the dependencies, not toskit
    # (its editable install here is a .pth hook, which a plain path line does not run).
    Path(site, "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (wheel,) = dist.glob("toskit-*.whl")
    done = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            "--quiet",
            wheel,
        ]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return home


def test_build_makes_a_wheel_and_an_sdist_with_the_assets(dist):
    (wheel,) = dist.glob(f"toskit-{toskit.__version__}-py3-none-any.whl")
    (sdist,) = dist.glob(f"toskit-{toskit.__version__}.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(ASSETS) <= names
    assert not any(name.startswith(("tests/", "notebooks/", "conformance/")) for name in names)
    assert "toskit-0.1.0.dist-info/entry_points.txt" in names
    with tarfile.open(sdist) as tar:
        members = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    assert set(ASSETS) <= members and "pyproject.toml" in members


def test_installed_wheel_runs(venv, tmp_path):
    python, toskit_cmd = venv / "bin" / "python", venv / "bin" / "toskit"
    where = _run([python, "-c", "import toskit; print(toskit.__file__)"], cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv), where  # the wheel, not the checkout
    version = _run([toskit_cmd, "--version"], cwd=tmp_path)
    assert version.stdout == f"toskit {toskit.__version__}\n"
    # A 1.3 template: its types derive from the normative profile shipped in the wheel.
    check = _run(
        [toskit_cmd, "check", "-j", "1", EXAMPLES / "web-shop.yaml", EXAMPLES / "service.yaml"],
        cwd=tmp_path,
    )
    assert check.returncode == 1, check.stderr
    assert "web-shop.yaml as TOSCA 1.3 template: 0 errors" in check.stdout
    assert "service.yaml:30:18: error[unknown-property]" in check.stdout
    # The page carries the stylesheet from the wheel.
    page = tmp_path / "shop.html"
    show = _run([toskit_cmd, "show", EXAMPLES / "web-shop.yaml", "-o", page], cwd=tmp_path)
    assert show.returncode == 0, show.stderr
    css = (ROOT / "toskit" / "display" / "style.css").read_text()
    first_rule = next(
        line for line in css.splitlines() if "{" in line and not line.startswith(("/*", "@"))
    )
    assert first_rule.strip() in page.read_text()
    assets = _run(
        [
            python,
            "-c",
            (
                "from importlib.resources import files\n"
                "for name in ('type_tree.js', 'cluster_simulator.js', 'topology.js'):\n"
                "    assert 'export' in files('toskit.widgets').joinpath(name).read_text(), name\n"
                "assert files('toskit').joinpath('py.typed').is_file()\n"
                "print('ok')\n"
            ),
        ],
        cwd=tmp_path,
    )
    assert assets.stdout == "ok\n", assets.stderr

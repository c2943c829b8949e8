"""``toskit lsp`` in JupyterLab's editor (issue #33, item 3).

JupyterLab is served as for the other Lab check (``lab_server.serve_lab``:
127.0.0.1, throw-away settings, no update check), with one difference: the
language server extension (jupyter-lsp) is on, as ``make lab`` has it. It
finds ``toskit lsp`` through toskit's ``jupyter_lsp_spec_v1`` entry point.
A copy of ``notebooks/examples/service.yaml`` (its ``pasword`` typo) is
opened in the file editor: the typo gets the error underline, and hovering
it shows toskit's text. Screenshots in the light and the dark theme land in
``test-artifacts/lsp-lab-THEME.png``. No page request may leave the local
server (the offline guard).

Every wait is for a condition (the underline drawn, the tooltip shown),
never a fixed sleep.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import lab_server
import pytest

from conftest import guarded_page

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).parents[2] / "notebooks" / "examples" / "service.yaml"

# serve_lab's settings with the language server extension on.
_WITH_LSP = json.loads(json.dumps(lab_server._SERVER_CONFIG))
_WITH_LSP["ServerApp"]["jpserver_extensions"]["jupyter_lsp"] = True


@pytest.fixture(scope="module")
def lsp_lab(
    tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path
) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("lsp-lab")
    shutil.copy(EXAMPLE, folder / "service.yaml")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lab_server, "_SERVER_CONFIG", _WITH_LSP)
        home = tmp_path_factory.mktemp("lsp-lab-home")
        with lab_server.serve_lab(folder, home, artifacts_dir / "lsp-lab.log") as served:
            yield served


@pytest.fixture
def lab_page(browser, lsp_lab: tuple[str, str], request: pytest.FixtureRequest) -> Iterator[object]:
    base, _ = lsp_lab
    with guarded_page(browser, base, request) as page:
        yield page


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_typo_is_underlined_and_hover_shows_toskit(
    lab_page, lsp_lab, artifacts_dir: Path, theme: str
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    base, token = lsp_lab
    page.goto(f"{base}/lab/tree/service.yaml?token={token}", wait_until="domcontentloaded")
    if theme == "dark":
        page.wait_for_function(
            "() => window.jupyterapp && window.jupyterapp.commands.hasCommand('apputils:change-theme')"
        )
        page.evaluate(
            "() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})"
        )
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
    editor = page.locator(".jp-FileEditor .cm-content")
    expect(editor).to_contain_text("pasword")
    # The diagnostic's underline, on the typo (CodeMirror's lint range).
    underline = page.locator(".jp-FileEditor .cm-lintRange-error", has_text="pasword")
    expect(underline).to_have_count(1, timeout=120_000)
    # The lint tooltip on the typo carries toskit's message (the diagnostic).
    box = underline.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    lint = page.locator(
        ".cm-tooltip-hover .cm-diagnostic-error",
        has_text="unknown property 'connection.auth.pasword'",
    )
    expect(lint).to_be_visible(timeout=60_000)
    expect(lint).to_contain_text("did you mean 'password'?")
    # LSP hover (jupyterlab-lsp shows it with the Control key held, its default) on
    # the ip value: the effective value, the layer that set it and the definition.
    value = page.locator(".jp-FileEditor .cm-line", has_text="endpoint: {ip:").get_by_text(
        "192.168.15.85"
    )
    vbox = value.bounding_box()
    page.mouse.move(vbox["x"] + vbox["width"] / 2, vbox["y"] + vbox["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.move(vbox["x"] + vbox["width"] / 2 + 2, vbox["y"] + vbox["height"] / 2)
    hover = page.locator(".lsp-hover")
    expect(hover).to_be_visible(timeout=60_000)
    expect(hover).to_contain_text("connection.endpoint.ip")
    expect(hover).to_contain_text(
        "= 192.168.15.85 — set by template (service.yaml:29), type string"
    )
    expect(hover).to_contain_text("defined in Endpoint (service.yaml:6)")
    page.screenshot(path=str(artifacts_dir / f"lsp-lab-{theme}.png"))
    page.keyboard.up("Control")

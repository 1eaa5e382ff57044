"""The installable app's shell: the service worker as a plain script at the site root, registered at an
address that changes with the site's files, and the list of files it keeps for offline use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings

from games.views.app import shell, shell_version

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_the_worker_is_the_plain_script_from_the_static_folder_at_the_root(client, db):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response.content == (STATIC / "sw.js").read_bytes()


def test_pages_register_the_worker_at_an_address_that_names_the_files_version(client, db):
    page = client.get("/").content.decode()
    assert f'data-service-worker="/sw.js?v={shell_version()}"' in page


def test_the_shell_lists_every_script_module_the_table_page_can_import(client, db):
    listed = client.get("/sw-shell.json").json()
    modules = {path.relative_to(STATIC).as_posix() for path in STATIC.rglob("*.js")} - {"sw.js"}
    assert modules <= set(shell())
    assert {"table/main.js", "table/steps.js", "outbox.js"} <= modules
    assert listed["files"] == [static(name) for name in shell()]
    assert listed["offline"] == "/offline/"
    assert listed["version"] == shell_version()


def test_a_changed_file_changes_the_version(tmp_path, monkeypatch):
    before = shell_version()
    for name in [*shell(), "sw.js"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((STATIC / name).read_bytes())
    monkeypatch.setattr("games.views.app.STATIC_DIR", tmp_path)
    shell_version.cache_clear()
    try:
        assert shell_version() == before
        (tmp_path / "table" / "steps.js").write_text("// changed\n", encoding="utf-8")
        shell_version.cache_clear()
        assert shell_version() != before
    finally:
        shell_version.cache_clear()


@pytest.mark.parametrize("module", ["table/main.js", "hand-form.js"])
def test_in_production_a_module_imports_the_hashed_files_the_shell_keeps(tmp_path, module):
    """collectstatic names each file by its content; a module's imports must name those files too, or a
    page would load an old module beside a new one, and offline the service worker would not have it."""
    storage = {"BACKEND": "scorekeeper.storage.StaticFilesStorage"}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                                                           "staticfiles": storage},
                           STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"]):
        call_command("collectstatic", "--no-input", verbosity=0)
        served = static(module)
    assert re.search(r"\.[0-9a-f]{12}\.js$", served)
    text = (tmp_path / served.removeprefix("/static/")).read_text(encoding="utf-8")
    imports = re.findall(r'from "([^"]+)"', text)
    assert imports
    for name in imports:
        assert re.search(r"\.[0-9a-f]{12}\.js$", name), name
        assert (tmp_path / Path(module).parent / name).resolve().is_file(), name

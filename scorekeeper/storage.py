"""Static files in production: compressed, and named by their content so that browsers may keep them for good."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    # The table page's script modules import one another: their imports name the hashed files too, so a
    # page never mixes a new module with an old one, and the service worker keeps what the page loads.
    support_js_module_import_aggregation = True

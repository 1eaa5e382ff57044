"""Sessions signed in before ``scorekeeper.accounts.AccountBackend`` name Django's ``ModelBackend``, which is no
longer among the authentication backends: Django would treat them as signed out. They are made to name the
account backend (and their copies in the cache dropped, so that each is read again from the database)."""

import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import migrations
from django.utils import timezone

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ACCOUNT_BACKEND = "scorekeeper.accounts.AccountBackend"

logger = logging.getLogger(__name__)


def renamed(old: str, new: str):
    def rename(apps, schema_editor):
        Session = apps.get_model("sessions", "Session")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        codec = store()
        changed = []
        live = Session.objects.using(schema_editor.connection.alias).filter(expire_date__gt=timezone.now())
        for session in live.iterator(chunk_size=1000):
            data = codec.decode(session.session_data)
            if data.get(BACKEND_SESSION_KEY) == old:
                data[BACKEND_SESSION_KEY] = new
                session.session_data = codec.encode(data)
                changed.append(session)
        Session.objects.using(schema_editor.connection.alias).bulk_update(changed, ["session_data"], batch_size=500)
        prefix = getattr(store, "cache_key_prefix", None)
        if changed and prefix:
            try:
                codec._cache.delete_many([prefix + session.session_key for session in changed])
            except Exception:  # noqa: BLE001 - a copy left in the cache reads as signed out until it expires
                logger.warning("sessions kept in the cache could not be dropped: they read as signed out",
                               exc_info=True)

    return rename


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0023_game_indexes_each_needed"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(renamed(MODEL_BACKEND, ACCOUNT_BACKEND), renamed(ACCOUNT_BACKEND, MODEL_BACKEND),
                             elidable=True),
    ]

"""Scorekeeper's settings, read from the environment (see .env.example and docs/deploy.md).

With nothing set: a SQLite file in the project folder, Celery tasks run in-process, DEBUG on.
``DATABASE_URL`` selects the database, ``REDIS_URL`` Redis for Celery and the cache, and
``DJANGO_ENV=production`` the safe production defaults (which need SECRET_KEY and ALLOWED_HOSTS).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from .env import database_from_url, env_bool, env_choice, env_int, env_ints, env_list, env_rate, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DJANGO_ENV = env_choice("DJANGO_ENV", "development", ("development", "production", "test"))
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DEBUG", not PRODUCTION)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production")
    SECRET_KEY = "development-only-secret-key-not-for-production-use-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"])
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_ENV=production (comma-separated)")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A TLS-terminating proxy in front: trust its X-Forwarded-Proto, and the address it saw (PROXY_COUNT).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "games",
    "api",
]

MIDDLEWARE = [
    # Outermost, so that it sees every answer as it leaves: no body on HEAD, 1xx, 204, 304 (scorekeeper/bodyless.py).
    "scorekeeper.bodyless.BodylessAnswersMiddleware",
    "scorekeeper.observability.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Refuses what no view should see (TRACE, NUL characters, oversized headers); see scorekeeper/guard.py.
    "scorekeeper.guard.RequestGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "scorekeeper.privacy.PrivateWhenSignedInMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"
ASGI_APPLICATION = "scorekeeper.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context.accounts",
                "games.context.app",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
# On PostgreSQL the few statements of the hottest requests are prepared once a connection (scorekeeper/postgresql);
# off for a pooler that cannot keep a connection's prepared statements.
DATABASES["default"]["PREPARED_STATEMENTS"] = env_bool("DATABASE_PREPARED_STATEMENTS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing at once when two requests write together.
    # Writers take the lock when their transaction begins (so a hand append never meets a
    # stale read) and wait for one another instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    # Tests use a file too: an in-memory database shares one cache between connections and
    # refuses concurrent writers at once instead of letting them wait their turn.
    # One file per test process, so test runs side by side do not share it.
    DATABASES["default"].setdefault("TEST", {})["NAME"] = str(
        Path(tempfile.gettempdir()) / f"scorekeeper-test-{os.getpid()}.sqlite3"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL") or None
if REDIS_URL:
    # Short timeouts: the cache holds request counts (api/throttles.py), which are skipped, not waited
    # for, when Redis cannot be reached.
    CACHES = {"default": {"BACKEND": "scorekeeper.redis_cache.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    # Sessions read from Redis (written to the database too, so that they outlive a flush of the cache and Redis
    # being down: scorekeeper/sessions.py): a page polled every couple of seconds by a signed-in phone costs no
    # session query. Without Redis each process's cache is its own, and a session ended in one would live on in
    # another's: the database alone.
    SESSION_ENGINE = "scorekeeper.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis as broker and result backend when configured; otherwise tasks run in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", REDIS_URL is None)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
# A task is acknowledged when done (acks_late); one held by a worker that died without giving it back
# (SIGKILL, a lost machine) goes back on the queue this many seconds after it was taken. It must be
# longer than a task may run (the time limits), or a slow task would be handed to a second worker.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 900)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # Workers look for such tasks every tenth of the timeout (at most every 30 s), not every 100 s.
    "unacked_restore_interval": max(1, min(30, CELERY_VISIBILITY_TIMEOUT // 10)),
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A request queues a task after its hand is stored; with the broker down it must give up quickly.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
# ... and so must the result backend, which a queueing request subscribes to (Celery retries 20 times, ~20 s).
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": CELERY_TASK_PUBLISH_RETRY_POLICY}
# Every worker also queues that catch-up whenever it (re)connects to the broker (scorekeeper/celery.py),
# so standings missed while Redis was down converge once it is back, even without beat.
# `make beat` (exactly one per deployment): every five minutes, queue an update for any league whose
# standings missed one (the broker was down when a game finished). Expires unsent if no worker takes it.
CELERY_BEAT_SCHEDULE = {
    "standings-catch-up": {"task": "games.standings_catch_up", "schedule": 300.0, "options": {"expires": 240}},
    "webhooks-catch-up": {"task": "games.webhooks_catch_up", "schedule": 300.0, "options": {"expires": 240}},
}

# Webhooks (docs/webhooks.md). Addresses on loopback, private, link-local or other non-public networks are
# refused in production (no reaching the server's own network through a webhook), and so is plain http.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", not PRODUCTION)
WEBHOOK_ALLOW_HTTP = env_bool("WEBHOOK_ALLOW_HTTP", not PRODUCTION)
# Seconds to wait before each retry of a failed delivery; after the last, the delivery is given up.
WEBHOOK_RETRY_DELAYS = env_ints("WEBHOOK_RETRY_DELAYS", [5, 60, 300, 1800, 7200, 18000])
# Seconds a receiver has to connect, and to answer.
WEBHOOK_TIMEOUT = env_int("WEBHOOK_TIMEOUT", 10)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in attempts are limited (django-axes): after LOGIN_FAILURE_LIMIT failures for one username
# from one address, that pair is refused for LOGIN_COOLOFF_MINUTES. On by default in production.
LOGIN_RATE_LIMIT = env_bool("LOGIN_RATE_LIMIT", PRODUCTION)
AXES_ENABLED = LOGIN_RATE_LIMIT
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15)
AXES_COOLOFF_TIME = LOGIN_COOLOFF_MINUTES / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# ... and after LOGIN_ADDRESS_FAILURE_LIMIT failures from one address over any usernames, that address.
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
# Failures are counted in the database, so every app server sees the same count.
AXES_HANDLER = "scorekeeper.signin.SignInLimits"
AXES_LOCKOUT_CALLABLE = "scorekeeper.signin.locked_out"
AXES_DISABLE_ACCESS_LOG = True
AXES_RESET_ON_SUCCESS = True
# A sign-in refused while locked out is answered as such (429), and does not lengthen the lock-out.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
AUTHENTICATION_BACKENDS = [
    *(["axes.backends.AxesStandaloneBackend"] if LOGIN_RATE_LIMIT else []),
    # Django's ModelBackend, reading a signed-in page's account by a statement written once (scorekeeper/accounts.py).
    "scorekeeper.accounts.AccountBackend",
]
# With the limit off (development, tests) axes only records; it need not guard authenticate().
SILENCED_SYSTEM_CHECKS = [] if LOGIN_RATE_LIMIT else ["axes.W003"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Who may create an account: anyone ("open", the development default), or only someone holding an
# invitation to a league ("invite", the production default).
SIGNUP = env_choice("SIGNUP", "invite" if PRODUCTION else "open", ("open", "invite"))

# Mail (password resets). Development prints mail to the console; EMAIL_HOST sends it by SMTP.
EMAIL_HOST = env_str("EMAIL_HOST", "") or ""
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Scorekeeper <scorekeeper@localhost>")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
# Password reset mails a link: offered wherever mail goes somewhere (SMTP, or the console outside
# production). In production without EMAIL_HOST it is not offered at all, rather than pretending to send.
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_HOST) or not PRODUCTION

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development whitenoise serves straight from the source folders (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "scorekeeper.storage.StaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON only, whatever the client accepts (a browser, ?format=api): see api/negotiation.py.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.JSONWhateverTheAccept",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # Request limits (api/throttles.py), counted in the cache: Redis when REDIS_URL is set (shared by
    # every app server), else this process's memory. The token and sign-up endpoints have their own limits.
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.AnonymousReads", "api.throttles.UserWrites"],
    "DEFAULT_THROTTLE_RATES": {
        "anonymous_reads": env_rate("THROTTLE_ANONYMOUS_READS", "120/minute"),
        "user_writes": env_rate("THROTTLE_USER_WRITES", "60/minute"),
        "token_requests": env_rate("THROTTLE_TOKEN_REQUESTS", "10/minute"),
        # Sign-ups, the API's and the site's form together.
        "signups": env_rate("THROTTLE_SIGNUPS", "10/minute"),
    },
    # Behind PROXY_COUNT proxies of ours, the client's address is the one the outermost saw (that many
    # from the right in X-Forwarded-For); otherwise the connection's own.
    "NUM_PROXIES": env_int("PROXY_COUNT", 1 if BEHIND_PROXY else 0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Scorekeeper API",
    "DESCRIPTION": "Record and read card games (Spades, Smudge, Trumps, Thieving Stink), matches and leagues.",
    "SWAGGER_UI_SETTINGS": {
        # An operation's summary is one button: a link inside it could not be reached on its own.
        "deepLinking": False,
    },
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get components of their own, so that they can say what a request may not hold
    # (blank names, unknown fields) without saying it of the responses.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.add_links"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Four things have a status; each its own enum, named for what it is.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.play.Game.Status",
        "InvitationStatusEnum": "games.models.people.Invitation.Status",
        "ClaimStatusEnum": "games.models.people.PlayerClaim.Status",
        "ConfirmationEnum": "games.models.play.Confirmation",
        "HandConfirmationEnum": "games.models.play.HAND_CHECK_STATES",
        "NightStatusEnum": "games.models.nights.Night.Status",
    },
}

# Production: safe by default; every value can still be overridden from the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sign-in limits count failures per address: the same address the request limits use.
AXES_CLIENT_IP_CALLABLE = "scorekeeper.signin.client_address"

# Content-Security-Policy: our pages load scripts, styles, images and fonts only from this site and
# have no inline script or style. Only the API documentation (Swagger UI) relaxes it (api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOG_FORMAT = env_choice("LOG_FORMAT", "json" if PRODUCTION else "plain", ("json", "plain"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "scorekeeper.observability.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

"""Password reset by mail, offered only where mail can be sent (``settings.PASSWORD_RESET_BY_MAIL``):
in development mail is printed to the console; in production it needs an SMTP server (EMAIL_HOST)."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404


def mail_required(view):
    @wraps(view)
    def offered_with_mail(request, *args, **kwargs):
        if not settings.PASSWORD_RESET_BY_MAIL:
            raise Http404("Password reset by mail is not offered here: ask an organiser to set a new password.")
        return view(request, *args, **kwargs)

    return offered_with_mail


password_reset = mail_required(auth_views.PasswordResetView.as_view())
password_reset_done = mail_required(auth_views.PasswordResetDoneView.as_view())

"""Answers that HTTP says carry no body: any answer to HEAD, and 1xx, 204 and 304 answers.

Django answers HEAD as it answers GET, body and all, and leaves the body of a 204 or 304 to the view; its own
development server and test client drop them, gunicorn sends what it is given. With a connection kept open
(gunicorn's threaded workers keep them), the client reads no body after such an answer, so the body it was sent
is read as the start of the next answer on that connection, which is then garbled. This drops the body as the
development server does: a HEAD answer keeps its headers (its Content-Length is the GET's), the others lose theirs;
a streamed body is closed without being read (a HEAD of the games CSV does not write the CSV).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase


def bodyless(request: HttpRequest, response: HttpResponseBase) -> bool:
    return request.method == "HEAD" or 100 <= response.status_code < 200 or response.status_code in (204, 304)


class BodylessAnswersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not bodyless(request, response):
            return response
        if response.streaming:
            # Never read; the response closes it (Django keeps the generator's close for then).
            response.streaming_content = []
        else:
            response.content = b""
        if request.method != "HEAD" and "Content-Length" in response:
            del response["Content-Length"]
        return response

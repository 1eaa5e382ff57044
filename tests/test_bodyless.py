"""No body on an answer HTTP says has none (HEAD; 1xx, 204, 304): on a kept-alive connection the client would read
it as the start of the next answer. Django's test client drops such bodies itself, so these call the middleware."""

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from scorekeeper.bodyless import BodylessAnswersMiddleware


def answered(method: str, response):
    return BodylessAnswersMiddleware(lambda request: response)(RequestFactory().generic(method, "/api/v1/games/"))


def test_a_head_answer_keeps_the_gets_headers_and_loses_its_body():
    response = answered("HEAD", HttpResponse(b'{"count": 3}', content_type="application/json",
                                             headers={"Content-Length": "12"}))
    assert response.content == b""
    assert response["Content-Length"] == "12" and response["Content-Type"] == "application/json"


def test_a_streamed_head_answer_is_never_read():
    read = []

    def rows():
        read.append("a row")
        yield b"Game,Started\r\n"

    response = answered("HEAD", StreamingHttpResponse(rows(), content_type="text/csv"))
    assert b"".join(response.streaming_content) == b""
    assert read == []


@pytest.mark.parametrize("status", [204, 304])
def test_no_content_and_not_modified_carry_no_body(status):
    response = answered("GET", HttpResponse(b"null", status=status, headers={"Content-Length": "4"}))
    assert response.content == b"" and "Content-Length" not in response


def test_other_answers_keep_their_body():
    response = answered("GET", HttpResponse(b"null", status=405))
    assert response.content == b"null"

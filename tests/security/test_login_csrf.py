"""Login CSRF with no browser defence left: no ``Origin``, no Fetch Metadata, as a client
that strips them (or a browser that never sent them) posts. The sign-in form's CSRF check
used to take any cookie and form value that were equal, so an attacker who could plant the
cookie signed the reviewer in as himself. Now only a pair this deployment issued, recently,
signs anyone in."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from citeproof.server._csrf import MAX_AGE, csrf_refusal, issue_csrf
from tests.server.conftest import Server, start_server
from tests.server.sign_in import form_token


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("login-csrf"))


def sign_in(server: Server, cookie: str, csrf: str) -> httpx.Response:
    """A sign-in post as mallory, with exactly this cookie and form token and no Origin or
    Fetch Metadata header."""
    with httpx.Client(base_url=server.url, cookies={"citeproof_csrf": cookie}) as http:
        return http.post("/review/login", data={"token": server.token("mallory"), "csrf": csrf})


def refused(reply: httpx.Response) -> bool:
    return (
        reply.status_code == 403
        and "citeproof_token" not in reply.cookies
        and "The sign-in form expired; sign in again." in reply.text
    )


def issued_pair(server: Server) -> tuple[str, str]:
    """The cookie and the form token of one sign-in page the service served."""
    with httpx.Client(base_url=server.url) as http:
        page = http.get("/review")
        assert page.status_code == 401
        return page.cookies["citeproof_csrf"], form_token(page)


def test_a_made_up_matching_cookie_and_token_sign_nobody_in(server: Server) -> None:
    assert refused(sign_in(server, "planted-by-mallory", "planted-by-mallory"))
    cookie, _ = issued_pair(server)
    assert refused(sign_in(server, cookie, cookie))


def test_a_token_signs_in_only_with_the_cookie_it_was_issued_with(server: Server) -> None:
    first_cookie, first_token = issued_pair(server)
    second_cookie, second_token = issued_pair(server)
    assert refused(sign_in(server, first_cookie, second_token))
    assert refused(sign_in(server, second_cookie, first_token))
    signed = sign_in(server, second_cookie, second_token)
    assert signed.status_code == 303 and "citeproof_token" in signed.cookies


def test_a_pair_signed_with_another_key_is_refused(server: Server) -> None:
    """What a forger without the deployment's key makes, however well formed."""
    import time

    forged = issue_csrf(b"not this deployment's key".ljust(32, b"!"), time.time())
    assert refused(sign_in(server, forged.cookie, forged.token))


def test_a_token_is_good_for_max_age_and_not_before_it_was_issued() -> None:
    key = bytes(range(32))
    pair = issue_csrf(key, 1_000_000.0)
    limit = MAX_AGE.total_seconds()
    assert csrf_refusal(key, pair.cookie, pair.token, 1_000_000.0) is None
    assert csrf_refusal(key, pair.cookie, pair.token, 1_000_000.0 + limit) is None
    late = csrf_refusal(key, pair.cookie, pair.token, 1_000_000.0 + limit + 1)
    assert late is not None and "out of date" in late
    early = csrf_refusal(key, pair.cookie, pair.token, 999_000.0)
    assert early == "the form's CSRF token is dated in the future"
    stamped = f"{1_000_000 + 3_600}.{pair.token.partition('.')[2]}"  # its time moved on
    assert csrf_refusal(key, pair.cookie, stamped, 1_000_000.0 + limit) is not None

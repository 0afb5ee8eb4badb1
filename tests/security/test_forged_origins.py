"""State-changing requests carrying an ``Origin`` that is not the service's own page, from a
client that sends no Fetch Metadata (an older browser, or a page's request replayed without
it): ``Origin: null`` (a sandboxed frame, a ``data:`` URL, a cross-site redirect) used to be
let through by ``--dev``, and no test sent the service's own host on another port (another
origin, whose page may be anyone's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.conftest import Server, start_server
from tests.server.lines import body, lending_line


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("dev-origins"), "--dev")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("origins"))


JSON = {"Content-Type": "application/json"}


def test_origin_null_without_fetch_metadata_plants_nothing_in_a_dev_service(dev: Server) -> None:
    with dev.client() as http:
        verify = http.post(
            "/v1/verify", content=body(lending_line("null-1")), headers={**JSON, "Origin": "null"}
        )
        assert (verify.status_code, verify.json()["field"]) == (403, "Origin")
        assert "Origin is 'null'" in verify.json()["detail"]
        upload = http.post(
            "/v1/sources",
            files={"files": ("planted.txt", b"Planted text.", "text/plain")},
            headers={"Origin": "null"},
        )
        assert (upload.status_code, upload.json()["field"]) == (403, "Origin")
        ready = http.get("/readyz").json()
        assert (ready["audit_records"], ready["sources"]) == (0, 0)
        # The service's own page in a browser that says so is served as before.
        own = http.post(
            "/v1/verify",
            content=body(lending_line("own-1")),
            headers={**JSON, "Origin": "null", "Sec-Fetch-Site": "same-origin"},
        )
        assert own.status_code == 200, own.text


@pytest.mark.parametrize("which", ["dev", "server"])
def test_the_same_host_on_another_port_is_another_origin(
    which: str, request: pytest.FixtureRequest
) -> None:
    service: Server = request.getfixturevalue(which)
    other_port = f"http://127.0.0.1:{service.port + 1}"
    with service.client(None if which == "dev" else "alice") as http:
        before = http.get("/readyz").json()
        verify = http.post(
            "/v1/verify",
            content=body(lending_line("port-1")),
            headers={**JSON, "Origin": other_port},
        )
        assert (verify.status_code, verify.json()["field"]) == (403, "Origin")
        assert verify.json()["detail"] == f"Origin {other_port!r} is not this service"
        upload = http.post(
            "/v1/sources",
            files={"files": ("planted.txt", b"Planted text.", "text/plain")},
            headers={"Origin": other_port},
        )
        assert upload.status_code == 403
        assert http.get("/readyz").json() == before
        same = http.post(
            "/v1/verify",
            content=body(lending_line("port-2")),
            headers={**JSON, "Origin": service.url},
        )
        assert same.status_code == 200, same.text

"""Who may read an uploaded source, against a real `citeproof serve`: the readers a reply
reports are the readers stored, a reader left out is revoked (old versions too), readers can be
changed explicitly by the uploader only, and another principal cannot tell a source that is not
theirs from one that does not exist, nor learn a path of the server, nor work out an id."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citeproof.sources._ids import file_doc_id, source_id
from tests.server.conftest import Server, start_server

MEMO = b"Underwriting memo.\n\nThe Hartley loan-to-value is 83%.\n"
MEMO_V2 = b"Underwriting memo, revised.\n\nThe Hartley loan-to-value is 79%.\n"
QUESTION = {"question": "What is the Hartley loan-to-value?"}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start_server(tmp_path_factory.mktemp("access"), "--provider", "extractive")


def upload(http: httpx.Client, name: str, content: bytes, *readers: str) -> dict[str, object]:
    reply = http.post(
        "/v1/sources", files={"files": (name, content)}, data={"readers": list(readers)}
    )
    assert reply.status_code == 200, reply.text
    source: dict[str, object] = reply.json()["files"][0]["sources"][0]
    return source


def reads(http: httpx.Client, sid: object) -> bool:
    """Whether the caller may attach ``sid`` to a turn (422 when not)."""
    reply = http.post("/v1/ask", json={**QUESTION, "attached": [sid]})
    assert reply.status_code in (200, 422), reply.text
    return reply.status_code == 200


def test_share_revoke_new_version_and_restore_leave_the_reported_readers_stored(
    api: Server,
) -> None:
    with api.client("alice") as alice, api.client("bob") as bob:
        shared = upload(alice, "revoke.txt", MEMO, "bob")
        assert shared["readers"] == ["alice", "bob"]
        assert reads(bob, shared["id"])

        # The same content again, with no readers: bob is revoked, and the reply says so.
        again = upload(alice, "revoke.txt", MEMO)
        assert (again["status"], again["readers"]) == ("unchanged", ["alice"])
        assert not reads(bob, shared["id"])
        assert reads(alice, shared["id"])

        # Shared again, then a new version without bob: no version is bob's any more.
        assert upload(alice, "revoke.txt", MEMO, "bob")["readers"] == ["alice", "bob"]
        second = upload(alice, "revoke.txt", MEMO_V2)
        assert second["status"] == "new_version" and second["readers"] == ["alice"]
        assert not reads(bob, shared["id"]) and not reads(bob, second["id"])

        # The old content once more: restored, with the readers given now, not the old ones.
        restored = upload(alice, "revoke.txt", MEMO)
        assert (restored["status"], restored["id"]) == ("restored", shared["id"])
        assert restored["readers"] == ["alice"]
        assert not reads(bob, shared["id"])


def test_readers_change_explicitly_and_only_by_the_uploader(api: Server) -> None:
    with api.client("alice") as alice, api.client("bob") as bob:
        source = upload(alice, "explicit.txt", MEMO)
        assert not reads(bob, source["id"])
        shared = alice.put(f"/v1/sources/{source['id']}/readers", json={"readers": ["bob"]})
        assert shared.status_code == 200, shared.text
        assert shared.json()["readers"] == ["alice", "bob"]
        assert reads(bob, source["id"])

        # A reader cannot change the readers (not even to add itself or revoke the owner).
        taken = bob.put(f"/v1/sources/{source['id']}/readers", json={"readers": []})
        assert taken.status_code == 404
        unknown = bob.put("/v1/sources/d-000000000000/readers", json={"readers": []})
        assert (unknown.status_code, unknown.json()["title"]) == (404, taken.json()["title"])

        revoked = alice.put(f"/v1/sources/{source['id']}/readers", json={"readers": []})
        assert revoked.json()["readers"] == ["alice"]
        assert not reads(bob, source["id"])


def test_not_yours_and_does_not_exist_answer_alike_and_name_no_server_path(
    api: Server,
) -> None:
    with api.client("alice") as alice, api.client("eve") as eve:
        first = upload(alice, "secret.txt", MEMO)
        upload(alice, "secret.txt", MEMO_V2)  # the first version is superseded now
        replies = [
            eve.post("/v1/ask", json={**QUESTION, "attached": [sid]})
            for sid in (first["id"], "d-000000000000")
        ]
        assert [r.status_code for r in replies] == [422, 422]
        theirs, missing = (r.json() for r in replies)
        assert theirs["detail"].replace(str(first["id"]), "ID") == missing["detail"].replace(
            "d-000000000000", "ID"
        )
        assert {k: v for k, v in theirs.items() if k != "detail"} == {
            k: v for k, v in missing.items() if k != "detail"
        }
        for reply in replies:
            assert str(api.data) not in reply.text and "sources.db" not in reply.text


def test_source_ids_cannot_be_derived_from_a_name_and_a_content(api: Server) -> None:
    """Before, an upload's id was a hash of the data folder, a hash of the principal, the file
    name and the content: all guessable. The folder is keyed by the deployment's secret now."""
    with api.client("alice") as alice:
        source = upload(alice, "guess.txt", MEMO)
    guessed_folder = api.data / "uploads" / hashlib.sha256(b"alice").hexdigest()[:16]
    digest = "sha256:" + hashlib.sha256(MEMO.decode().replace("\r\n", "\n").encode()).hexdigest()
    guessed = source_id("document", file_doc_id(Path(guessed_folder / "guess.txt")), digest)
    assert source["id"] != guessed
    assert source["doc_id"] != file_doc_id(guessed_folder / "guess.txt")

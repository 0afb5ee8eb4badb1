"""`citeproof token list` and `citeproof token revoke` (issue 46): a token can be seen (its
principal and age, never its secret) and stopped without touching the database by hand."""

from __future__ import annotations

from pathlib import Path

from citeproof.server import ServiceState
from tests.cli_runs import invoke


def test_tokens_are_listed_without_their_secrets_and_revoked_at_once(tmp_path: Path) -> None:
    code, alice, _ = invoke("token", "add", "alice", "--data", str(tmp_path))
    assert code == 0
    assert invoke("token", "add", "bob", "--data", str(tmp_path))[0] == 0
    code, out, _ = invoke("token", "list", "--data", str(tmp_path))
    assert code == 0 and [line.split("\t")[0] for line in out.splitlines()] == ["alice", "bob"]
    assert alice.strip() not in out and "cpt_" not in out
    state = ServiceState(tmp_path / "service.db")
    assert state.principal_for(alice.strip()) == "alice"
    code, _, err = invoke("token", "revoke", "alice", "--data", str(tmp_path))
    assert code == 0 and "revoked" in err
    assert state.principal_for(alice.strip()) is None
    assert invoke("token", "list", "--data", str(tmp_path))[1].split("\t")[0] == "bob"
    code, _, err = invoke("token", "revoke", "alice", "--data", str(tmp_path))
    assert code == 1 and "has no token" in err


def test_listing_a_folder_without_service_data_says_so_and_creates_nothing(
    tmp_path: Path,
) -> None:
    code, _, err = invoke("token", "list", "--data", str(tmp_path / "none"))
    assert code == 1 and "no service data" in err
    assert not (tmp_path / "none").exists()

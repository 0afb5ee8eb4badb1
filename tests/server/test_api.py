"""API v1 through a real HTTP client against a real `citeproof serve` process (issue 12),
with the audit log on SQLite and, when CITEPROOF_PG_URL is set, on PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citeproof import verify
from citeproof.outcome import answer_to_json, located
from tests.conftest import PgSchemas, pg_url
from tests.lending import SOURCES
from tests.server.conftest import Server, start_server
from tests.server.lines import LENDING_ANSWER, body, lending_line

POLL_LIMIT = 600  # polls of 0.1 s before a batch test gives up


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def api(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The service with its audit log on SQLite, then on PostgreSQL."""
    args = ["--provider", "extractive"]
    if request.param == "postgresql":
        pg_url()  # skips (or fails under CITEPROOF_REQUIRE_PG=1) without a server
        schemas: PgSchemas = request.getfixturevalue("pg_schemas")
        _, url = schemas.new()
        args += ["--audit", url]
    yield from start_server(tmp_path_factory.mktemp(f"api-{request.param}"), *args)


def test_verify_returns_the_same_record_as_the_library_and_logs_it_F_3(api: Server) -> None:
    with api.client("alice") as http:
        response = http.post("/v1/verify", content=body(lending_line("api-verify")))
        assert response.status_code == 200, response.text
        record = response.json()
        # The service names inline sources' paragraphs as `read_batch_line` does.
        sources = [located(source) for source in SOURCES]
        expected = answer_to_json(verify(LENDING_ANSWER, sources, answer_id="api-verify"))
        # Corrections carry the time they were made: compare everything else.
        for data in (record, expected):
            for quote in data["quotes"]:
                for correction in quote["corrections"]:
                    correction.pop("time")
        assert record == expected
        assert record["counts"]["corrected"] == 1 and record["counts"]["not_found"] == 1

        stored = http.get("/v1/answers/api-verify")
        assert stored.status_code == 200
        assert stored.json()["answer"]["text"] == record["text"]
        assert stored.json()["request"]["principal"] == "alice"

        report = http.get("/v1/audit/verify").json()
        assert report["ok"] is True and report["records"] >= 1
        proof = http.get(f"/v1/audit/{stored.json()['request_id']}/proof")
        assert proof.status_code == 200, proof.text
        assert proof.json()["leaf_index"] == stored.json()["audit_sequence"]


def test_an_idempotency_key_returns_the_first_record_for_a_repeat_F_3(api: Server) -> None:
    with api.client("alice") as http:
        headers = {"Idempotency-Key": "order-77"}
        first = http.post("/v1/verify", content=body(lending_line("idem")), headers=headers)
        again = http.post("/v1/verify", content=body(lending_line("idem")), headers=headers)
        assert first.status_code == again.status_code == 200
        assert again.content == first.content
        assert again.headers["idempotent-replayed"] == "true"
        other = lending_line("idem-other")
        clash = http.post("/v1/verify", content=body(other), headers=headers)
        assert clash.status_code == 422
        assert clash.headers["content-type"] == "application/problem+json"
        assert clash.json()["field"] == "Idempotency-Key"


def test_a_bad_line_is_a_problem_naming_the_field_F_3(api: Server) -> None:
    with api.client("alice") as http:
        line = lending_line("bad")
        line["sources"][1]["kind"] = "letter"
        response = http.post("/v1/verify", content=body(line))
        assert response.status_code == 422
        assert response.headers["content-type"] == "application/problem+json"
        problem = response.json()
        assert problem["field"] == "sources.1.kind" and problem["status"] == 422
        broken = http.post("/v1/verify", content=b'{"id": "x", "answer": ')
        assert broken.status_code == 422 and "not valid JSON" in broken.json()["detail"]


def _wait_for_batch(http: httpx.Client, batch_id: str) -> dict[str, object]:
    for _ in range(POLL_LIMIT):
        info = http.get(f"/v1/batches/{batch_id}").json()
        if info["status"] == "done":
            return dict(info)
        time.sleep(0.1)
    raise AssertionError(f"batch {batch_id} did not finish: {info}")


def test_a_batch_reports_progress_and_gives_results_as_jsonl_F_3(api: Server) -> None:
    lines = [lending_line(f"batch-{n}") for n in range(3)]
    bad = lending_line("batch-bad")
    bad["answer"] = 7
    upload = b"\n".join([*(body(line) for line in lines), body(bad)]) + b"\n"
    with api.client("alice") as http:
        created = http.post(
            "/v1/batches", content=upload, headers={"Content-Type": "application/x-ndjson"}
        )
        assert created.status_code == 202, created.text
        batch_id = created.json()["id"]
        assert created.json()["total"] == 4
        info = _wait_for_batch(http, batch_id)
        assert info["done"] == 4 and info["failed"] == 1
        results = http.get(f"/v1/batches/{batch_id}/results")
        assert results.headers["content-type"].startswith("application/x-ndjson")
        records = [json.loads(line) for line in results.text.splitlines()]
        assert [r["id"] for r in records] == ["batch-0", "batch-1", "batch-2", "batch-bad"]
        assert records[3]["error"]["field"] == "answer" and records[3]["line"] == 4
        assert records[0]["counts"]["verified"] == 2


def test_sources_uploaded_by_one_principal_stay_out_of_anothers_turn_012_3(
    api: Server, tmp_path: Path
) -> None:
    files = {
        "files": ("hartley-memo.txt", b"Underwriting memo.\n\nThe Hartley loan-to-value is 83%.\n")
    }
    with api.client("alice") as alice, api.client("bob") as bob:
        stored = alice.post("/v1/sources", files=files)
        assert stored.status_code == 200, stored.text
        report = stored.json()
        assert report["readers"] == ["alice"]
        source_id = report["files"][0]["sources"][0]["id"]

        mine = alice.post("/v1/ask", json={"question": "What is the Hartley loan-to-value?"})
        assert mine.status_code == 200, mine.text
        assert source_id in mine.json()["eligibility"]["eligible"]
        assert "83%" in mine.json()["text"]
        assert set(mine.json()["turn"]["timings"]) >= {"retrieve", "generate", "verify"}

        theirs = bob.post("/v1/ask", json={"question": "What is the Hartley loan-to-value?"})
        assert theirs.status_code == 200, theirs.text
        assert source_id not in json.dumps(theirs.json())
        assert "83%" not in theirs.json()["text"]
        asked_as_other = bob.post("/v1/ask", json={"question": "LTV?", "user": "alice"})
        assert asked_as_other.status_code == 403
        assert asked_as_other.json()["field"] == "user"

        answer_id = mine.json()["id"]
        assert bob.get(f"/v1/answers/{answer_id}").status_code == 404
        request_id = alice.get(f"/v1/answers/{answer_id}").json()["request_id"]
        assert bob.get(f"/v1/audit/{request_id}/proof").status_code == 404

    if api.data.joinpath("audit.db").exists():  # the SQLite run: the record as logged
        from citeproof.audit import open_store

        with open_store(str(api.data / "audit.db")) as log:
            [logged] = log.find(request_id)
        request = logged.payload["request"]
        # The same members as `citeproof ask` logs (citeproof.asking.turn_request).
        assert set(request) == {
            "command", "question", "user", "provider", "model", "prompt_version",
            "quote_first", "timings", "principal", "request_id",
        }  # fmt: skip
        assert request["command"] == "serve ask" and request["user"] == "alice"


def test_health_readiness_metrics_and_the_openapi_document_F_3(api: Server) -> None:
    with api.client("alice") as http:
        assert http.post("/v1/verify", content=body(lending_line("metrics"))).status_code == 200
        assert http.get("/healthz").json() == {"status": "ok"}
        ready = http.get("/readyz").json()
        assert ready["status"] == "ready" and ready["audit_records"] >= 0
        metrics = http.get("/metrics")
        assert metrics.headers["content-type"].startswith("text/plain")
        assert 'citeproof_http_requests_total{method="GET",route="/healthz",status="200"}' in (
            metrics.text
        )
        assert 'citeproof_stage_seconds_bucket{le="+Inf",stage="verify"}' in metrics.text
        assert 'citeproof_quote_verdicts_total{status="corrected"}' in metrics.text
        document = http.get("/openapi.json").json()
        assert {"/v1/verify", "/v1/batches", "/v1/ask", "/v1/sources"} <= set(document["paths"])
        verify_body = document["paths"]["/v1/verify"]["post"]["requestBody"]
        assert "answer" in verify_body["content"]["application/json"]["schema"]["properties"]
        docs = http.get("/docs")
        assert docs.status_code == 200
        assert 'src="/assets/swagger/swagger-ui-bundle.js"' in docs.text
        assert "://" not in docs.text  # every asset from this server
        assert http.get("/assets/swagger/swagger-ui-bundle.js").status_code == 200

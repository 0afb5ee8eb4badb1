"""API v1: verify, batches, ask, sources, answers and the audit log; health and metrics.

Handlers read the body themselves (through the edge's counted, time-limited receive) and run
the library's synchronous work in a thread, under the request deadline: past it the client
gets a 503 problem at once and the worker is free for others.

A worker verifies one answer at a time (the verify lane, `citeproof.server._lanes`), its
principals served in turn; other work has `WORK_THREADS` threads. Verification is CPU under
one interpreter lock: answers verified side by side only take the lock from each other, so
every request takes as long as the slowest, and the thread appending to the audit log,
holding the log's write lock for every worker, waits for the interpreter lock behind them
while the other worker's appends queue (32 clients on two workers, 16 threads verifying:
appends waited 44 ms at p50; docs/measurements-history.md).

The caller is known from the request's headers before its body is read: a client without a
valid token cannot hold a connection open sending a body.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, Request, Response
from starlette.datastructures import UploadFile
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse

from citeproof.errors import InputError
from citeproof.outcome import BatchLine
from citeproof.server._attempts import AbandonedWork, Attempt
from citeproof.server._auth import Authenticator
from citeproof.server._lanes import FairLane
from citeproof.server._problems import PROBLEM_TYPE, Problem
from citeproof.server._service import AskIn, ReadersIn, Service, body_digest, dumps

T = TypeVar("T")
Lane = Literal["work", "verify"]

UPLOAD_PATHS = ("/v1/sources", "/v1/batches")
WORK_THREADS = 16
"""Threads per worker process running requests' work; as many abandoned ones at most."""
VERIFY_THREADS = 64
"""Threads per worker process holding verifications: one verifies, the others wait in the
verify lane for their principal's turn; more wait for a thread, in arrival order."""
MAX_UPLOAD_FILES = 100


def _inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON schema with its ``$defs`` inlined, to embed in the OpenAPI document."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return walk(defs[ref.removeprefix("#/$defs/")])
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    inlined: dict[str, Any] = walk(schema)
    return inlined


def _body(schema: dict[str, Any], media: str = "application/json") -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {media: {"schema": schema}}}}


_PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "content": {PROBLEM_TYPE: {}}}
    for status, text in (
        (401, "no token, or an unknown one"),
        (413, "over a size limit (the problem names the field)"),
        (422, "bad input (the problem names the field)"),
        (429, "over the rate limit"),
        (503, "past the request deadline"),
    )
}


def build_router(service: Service, auth: Authenticator) -> APIRouter:
    router = APIRouter()
    limits = service.limits
    lanes: dict[Lane, anyio.CapacityLimiter] = {}
    abandoned = AbandonedWork(WORK_THREADS, service.metrics.count_abandoned)
    verifying = FairLane()

    def lane(name: Lane) -> anyio.CapacityLimiter:
        """The threads of one kind of work (``work``, ``verify``), made in the event loop."""
        if not lanes:
            lanes["work"] = anyio.CapacityLimiter(WORK_THREADS)
            lanes["verify"] = anyio.CapacityLimiter(VERIFY_THREADS)
        return lanes[name]

    async def in_thread(
        function: Callable[..., T],
        *args: Any,
        lane_name: Lane = "work",
        turn_of: str = "",
        **kwargs: Any,
    ) -> T:
        """``function`` in a thread of its lane under the request deadline, which counts the
        wait for the lane (in the verify lane, the turn of principal ``turn_of``). Past it the
        caller is answered 503 and the work is abandoned: it stops at its next check and
        writes no audit record (unless it was writing it already: then its result is the
        answer)."""
        if abandoned.full:
            raise Problem(
                503,
                "Busy",
                "the service is still stopping work abandoned past its deadline",
                headers={"Retry-After": "1"},
            )
        attempt: Attempt[T] = Attempt(abandoned)
        call = functools.partial(
            attempt.run,
            functools.partial(function, *args, **kwargs),
            lane=(verifying, turn_of) if lane_name == "verify" else None,
        )
        try:
            with anyio.move_on_after(limits.deadline_seconds):
                return await anyio.to_thread.run_sync(
                    call, abandon_on_cancel=True, limiter=lane(lane_name)
                )
        except anyio.get_cancelled_exc_class():  # the client went away: nobody gets an answer
            attempt.abandon()
            raise
        if attempt.abandon():
            raise Problem(
                503,
                "Deadline exceeded",
                f"the request took over {limits.deadline_seconds:g} s",
                headers={"Retry-After": "1"},
            )
        await anyio.to_thread.run_sync(attempt.done.wait)  # it is writing its record
        return attempt.outcome()

    async def who(request: Request) -> str:
        return await in_thread(auth.principal, request)

    @router.post(
        "/v1/verify",
        tags=["verify"],
        summary="Verify one answer against its sources",
        openapi_extra=_body(_inline_refs(BatchLine.model_json_schema())),
        responses=_PROBLEMS,
    )
    async def verify_answer(request: Request) -> Response:
        """Body: one batch line of the JSON contract (``id``, ``answer``, ``sources``,
        ``policy``). Returns the verified answer record, as ``citeproof verify --format
        json``; the answer is logged in the audit log under the caller's principal. With an
        ``Idempotency-Key`` header, a repeated request returns the first response."""
        key = request.headers.get("idempotency-key")
        principal = await who(request)
        raw = await request.body()

        async def verified() -> str:
            """The answer verified in the verify lane, in ``principal``'s turn, as JSON."""
            record = await in_thread(
                service.verify_body,
                raw,
                principal,
                where="request body",
                kind="verify",
                lane_name="verify",
                turn_of=principal,
            )
            return dumps(record)

        if key is None:
            return _json(await verified())
        if not key or len(key) > 200:
            raise InputError("must be 1 to 200 characters", field="Idempotency-Key")
        claim, stored = await in_thread(
            service.state.claim_key,
            principal,
            key,
            body_digest(raw),
            stale_seconds=2 * limits.deadline_seconds,
        )
        if claim == "stored":
            assert stored is not None
            return _json(stored, headers={"Idempotent-Replayed": "true"})
        if claim == "busy":
            raise Problem(
                409,
                "Conflict",
                "a request with this Idempotency-Key is still running",
                field="Idempotency-Key",
                headers={"Retry-After": "1"},
            )
        try:
            text = await verified()
        except BaseException:
            await in_thread(service.state.release_key, principal, key)
            raise
        await in_thread(service.state.store_response, principal, key, text)
        return _json(text)

    @router.post(
        "/v1/batches",
        tags=["batches"],
        status_code=202,
        summary="Upload a JSONL batch to verify in the background",
        openapi_extra=_body({"type": "string"}, "application/x-ndjson"),
        responses=_PROBLEMS,
    )
    async def create_batch(request: Request) -> Response:
        """Body: JSON lines, one batch line each. The batch is stored before this answers
        and survives a restart; follow it at ``/v1/batches/{id}``."""
        principal = await who(request)
        raw = await request.body()
        lines = [line for line in raw.splitlines() if line.strip()]
        if not lines:
            raise InputError("the batch has no lines", field="body")
        if len(lines) > limits.batch_lines:
            raise Problem(
                413,
                "Over a limit",
                f"body has {len(lines)} lines; the limit is {limits.batch_lines}",
                field="body",
            )
        batch_id = await in_thread(service.state.create_batch, principal, lines)
        info = await in_thread(service.state.batch, principal, batch_id)
        assert info is not None
        return JSONResponse(
            _batch_json(info.to_json()),
            status_code=202,
            headers={"Location": f"/v1/batches/{batch_id}"},
        )

    @router.get("/v1/batches/{batch_id}", tags=["batches"], responses=_PROBLEMS)
    async def batch_progress(batch_id: str, request: Request) -> Response:
        """Progress of a batch: ``status`` (queued, running, done), ``done`` of ``total``."""
        principal = await who(request)
        info = await in_thread(service.state.batch, principal, batch_id)
        if info is None:
            raise Problem(404, "Not found", f"no batch {batch_id!r}", field="batch_id")
        return JSONResponse(_batch_json(info.to_json()))

    @router.get("/v1/batches/{batch_id}/results", tags=["batches"], responses=_PROBLEMS)
    async def batch_results(batch_id: str, request: Request) -> Response:
        """The records of the lines finished so far, as JSON lines, in line order."""
        principal = await who(request)
        info = await in_thread(service.state.batch, principal, batch_id)
        if info is None:
            raise Problem(404, "Not found", f"no batch {batch_id!r}", field="batch_id")
        lines = await in_thread(lambda: list(service.state.batch_results(batch_id)))
        return StreamingResponse(
            iter([line + "\n" for line in lines]), media_type="application/x-ndjson"
        )

    @router.post(
        "/v1/ask",
        tags=["ask"],
        summary="Answer a question from the source store and verify the answer",
        openapi_extra=_body(_inline_refs(AskIn.model_json_schema())),
        responses=_PROBLEMS,
    )
    async def ask(request: Request) -> Response:
        """One turn as the caller's principal: only sources it may read are eligible. The
        answer record comes with the turn: eligibility, prompt, generation and timings."""
        principal = await who(request)
        raw = await request.body()
        return _json(dumps(await in_thread(service.ask, raw, principal)))

    @router.post(
        "/v1/sources",
        tags=["sources"],
        summary="Ingest uploaded files into the source store",
        openapi_extra=_body(
            {
                "type": "object",
                "properties": {
                    "files": {"type": "array", "items": {"type": "string", "format": "binary"}},
                    "readers": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["files"],
            },
            "multipart/form-data",
        ),
        responses=_PROBLEMS,
    )
    async def ingest(request: Request) -> Response:
        """Multipart ``files`` (.eml, .pdf, .docx, .html, .md, .txt): each becomes sources
        readable by the caller and by any ``readers`` named."""
        principal = await who(request)
        async with request.form(max_files=MAX_UPLOAD_FILES, max_fields=200) as form:
            files: list[tuple[str, bytes]] = []
            for item in form.getlist("files"):
                if not isinstance(item, UploadFile):
                    raise InputError("must be uploaded files", field="files")
                files.append((item.filename or "", await item.read()))
            readers = [str(r) for r in form.getlist("readers") if isinstance(r, str)]
        if not files:
            raise InputError("upload at least one file", field="files")
        report = await in_thread(service.ingest, files, principal, readers)
        return JSONResponse(report)

    @router.put(
        "/v1/sources/{source_id}/readers",
        tags=["sources"],
        summary="Change who may read a document you uploaded",
        openapi_extra=_body(_inline_refs(ReadersIn.model_json_schema())),
        responses=_PROBLEMS,
    )
    async def set_readers(source_id: str, request: Request) -> Response:
        """Body: ``{"readers": [...]}``. The document ``source_id`` is a version of is then
        readable by the caller and those readers only, every version of it: a reader left out
        is revoked. Answers the access list stored. Only the uploader may change it; for
        anyone else the source does not exist (404)."""
        principal = await who(request)
        raw = await request.body()
        return JSONResponse(await in_thread(service.set_readers, raw, principal, source_id))

    @router.get("/v1/answers/{answer_id}", tags=["answers"], responses=_PROBLEMS)
    async def answer(answer_id: str, request: Request) -> Response:
        """The caller's latest answer with this id, read back from the audit log."""
        principal = await who(request)
        entry = await in_thread(service.entry, principal, answer_id)
        payload = await in_thread(service.payload, entry)
        return _json(
            dumps(
                {
                    "request_id": entry.request_id,
                    "audit_sequence": entry.audit_sequence,
                    "created_at": entry.created_at,
                    "request": payload.get("request"),
                    "answer": payload.get("answer"),
                }
            )
        )

    @router.get("/v1/audit/verify", tags=["audit"], responses=_PROBLEMS)
    async def audit_verify(request: Request) -> Response:
        """Re-hash the whole audit log and check its signed checkpoints."""
        await who(request)
        return JSONResponse(await in_thread(service.audit_report))

    @router.get("/v1/audit/{request_id}/proof", tags=["audit"], responses=_PROBLEMS)
    async def audit_proof(
        request_id: str, request: Request, sequence: int | None = None
    ) -> Response:
        """An inclusion proof of one of the caller's records against a signed checkpoint: the
        one at ``sequence`` (its ``audit_sequence``) when given, else the caller's latest
        under this request id."""
        principal = await who(request)
        return JSONResponse(await in_thread(service.proof, principal, request_id, sequence))

    @router.get("/healthz", tags=["health"])
    async def healthz() -> Response:
        """The process answers, and can start work: 503 when its threads have been taken up
        by work abandoned past its deadline for longer than a deadline (then a liveness probe
        should restart it)."""
        stuck = abandoned.full_for()
        if stuck > limits.deadline_seconds:
            return JSONResponse(
                {
                    "status": "stuck",
                    "detail": f"{abandoned.running} threads have been running work abandoned "
                    f"past its deadline for {stuck:.0f} s",
                },
                status_code=503,
            )
        return JSONResponse({"status": "ok"})

    @router.get("/readyz", tags=["health"])
    async def readyz() -> Response:
        """Every database answers."""
        return JSONResponse(await in_thread(service.ready))

    @router.get("/metrics", tags=["health"])
    async def metrics() -> Response:
        """Prometheus text format: requests, latencies per stage, verdict counts."""
        return PlainTextResponse(
            service.metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8"
        )

    return router


def _json(text: str, headers: dict[str, str] | None = None) -> Response:
    return Response(text, media_type="application/json", headers=headers)


def _batch_json(info: dict[str, Any]) -> dict[str, Any]:
    batch_id = info["id"]
    return {
        **info,
        "links": {
            "self": f"/v1/batches/{batch_id}",
            "results": f"/v1/batches/{batch_id}/results",
        },
    }

"""What the service does for a request, as plain synchronous functions over the library.

`Service` holds one worker process's connections: the service database, the audit log (one
connection, used under a lock: appends are serialised by the log anyway) and the provider.
Verification is `citeproof.verify`; what follows it is `citeproof.outcome.recording.conclude`;
asking is `citeproof.asking.ask_store`; ingestion is `citeproof.sources.ingest`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citeproof.asking import ask_store, turn_to_json
from citeproof.audit import GroupCommit, inclusion_proof, open_store, verify_log
from citeproof.errors import InputError, RecordNotFoundError
from citeproof.model import Policy, Source, VerifiedAnswer
from citeproof.outcome.contract import answer_to_json, read_batch_line
from citeproof.outcome.recording import Outcome, conclude
from citeproof.providers.base import Provider
from citeproof.providers.registry import get_provider
from citeproof.server.config import Limits, ServiceConfig
from citeproof.server.metrics import Metrics
from citeproof.server.problems import Problem
from citeproof.server.state import AnswerEntry, ServiceState
from citeproof.sources.ingest import ingest_files
from citeproof.sources.store import SourceStore
from citeproof.verifier.parse import parse_answer
from citeproof.verifier.verification import verify

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


class AskIn(BaseModel):
    """The body of ``POST /v1/ask``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    question: str = Field(min_length=1)
    user: str | None = None
    attached: list[str] = Field(default_factory=list)
    limit: int = Field(default=8, ge=1, le=50)
    max_tokens: int = Field(default=300, ge=1, le=4_000)
    budget_chars: int | None = Field(default=None, ge=100, le=200_000)


class Service:
    """One worker process's view of the service (see the module docstring)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.limits = config.limits
        config.data.mkdir(parents=True, exist_ok=True)
        self.state = ServiceState(config.service_db)
        self.metrics = Metrics()
        self._audit = open_store(config.audit_target, checkpoint_dir=config.checkpoint_dir)
        self._audit_lock = threading.Lock()
        # Concurrent requests share commits (one fsync for many records); readers of the
        # same connection take the lock the commits take.
        self._appends = GroupCommit(self._audit, self._audit_lock)
        self._provider: Provider | None = None
        self._provider_lock = threading.Lock()
        SourceStore(config.store_path).close()  # created now, so /readyz sees it

    def close(self) -> None:
        with self._audit_lock:
            self._audit.close()

    # --- verify ----------------------------------------------------------------------------
    def verify_body(self, raw: bytes, principal: str, *, where: str, kind: str) -> dict[str, Any]:
        """One batch line of the JSON contract → the verified answer record, logged in the
        audit log under ``principal``. Raises `InputError` or `Problem` naming the field."""
        started = time.perf_counter()
        text = _utf8(raw, where)
        answer_id, answer, sources, line_policy = read_batch_line(text, where=where)
        check_sizes(self.limits, answer, sources)
        policy = line_policy.to_policy(Policy()) if line_policy else Policy()
        parsed = time.perf_counter()
        verified = verify(answer, sources, policy=policy, answer_id=answer_id)
        verified_at = time.perf_counter()
        self.record(verified, principal, {"command": f"serve {kind}"}, kind=kind)
        self.metrics.observe_stages(
            {
                "parse_request": parsed - started,
                "verify": verified_at - parsed,
                "record": time.perf_counter() - verified_at,
            }
        )
        return answer_to_json(verified)

    def record(
        self, verified: VerifiedAnswer, principal: str, request: Mapping[str, Any], *, kind: str
    ) -> Outcome:
        """Evidence, validation and the audit record (naming ``principal``), then the index
        entry the review pages and ``GET /v1/answers/{id}`` read."""
        outcome = conclude(verified, request={**request, "principal": principal}, log=self._appends)
        assert outcome.audit_sequence is not None  # a log was given
        self.state.record_answer(
            answer_id=verified.id,
            principal=principal,
            request_id=outcome.request_id,
            audit_sequence=outcome.audit_sequence,
            kind=kind,
            counts={
                **verified.counts(),
                **{f"claim_{v}": n for v, n in verified.claim_counts().items() if v != "none"},
            },
            text=verified.text,
        )
        self.metrics.count_verdicts(verified.counts())
        return outcome

    # --- ask -------------------------------------------------------------------------------
    def ask(self, raw: bytes, principal: str) -> dict[str, Any]:
        """A whole turn over the source store, as ``principal`` (the store's access lists
        apply to it): the answer record with the turn's eligibility and timings."""
        try:
            body = AskIn.model_validate_json(raw)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or None
            raise InputError(first["msg"], where="request body", field=field) from None
        if body.user is not None and body.user != principal:
            raise Problem(403, "Forbidden", "a token asks as its own principal only", field="user")
        if len(body.question) > self.limits.question_chars:
            raise _limit(
                "question",
                f"is {len(body.question)} characters; the limit is {self.limits.question_chars}",
            )
        provider = self.provider()
        with SourceStore(self.config.store_path) as store:
            turn = ask_store(
                body.question,
                store,
                provider,
                user=principal,
                attached=body.attached,
                budget_chars=body.budget_chars,
                limit=body.limit,
                max_tokens=body.max_tokens,
                timeout=self.limits.deadline_seconds,
                # Another principal's sources are not even retrieved: not their passages,
                # not their ids in the turn's record.
                only_readable=True,
            )
        request = {
            "command": "serve ask",
            "question": body.question,
            "user": principal,
            "provider": turn.generation.provider,
            "model": turn.generation.model,
            "prompt_version": turn.prompt.version,
            "timings": turn.timings,
        }
        self.record(turn.answer, principal, request, kind="ask")
        self.metrics.observe_stages(turn.timings)
        return turn_to_json(turn)

    def provider(self) -> Provider:
        with self._provider_lock:
            if self._provider is None:
                self._provider = get_provider(self.config.provider)
            return self._provider

    # --- sources ---------------------------------------------------------------------------
    def ingest(
        self, files: Sequence[tuple[str, bytes]], principal: str, readers: Sequence[str]
    ) -> dict[str, Any]:
        """Store uploaded files (name, content) as sources readable by ``principal`` and
        ``readers``. A file is kept under the principal's upload folder, so uploading the
        same name again makes a new version of the same document."""
        folder = self.config.data / "uploads" / hashlib.sha256(principal.encode()).hexdigest()[:16]
        folder.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        for position, (name, content) in enumerate(files):
            safe = _SAFE_NAME.sub("_", Path(name).name).strip(" .")[:120]
            if not safe or "." not in safe:
                raise InputError(
                    f"{name!r} has no file extension (.eml, .pdf, .docx, .html, .md, .txt)",
                    field=f"files.{position}",
                )
            path = folder / safe
            path.write_bytes(content)
            paths.append(path)
        acl = sorted({principal, *readers})
        with SourceStore(self.config.store_path) as store:
            report = ingest_files(store, paths, acl=acl)
        return {
            "files": [
                {
                    "name": result.path.name,
                    "sources": [
                        {
                            "id": change.source_id,
                            "doc_id": change.doc_id,
                            "kind": change.kind,
                            "title": change.title,
                            "revision": change.revision,
                            "status": change.status,
                        }
                        for change in result.changes
                    ],
                    "problems": list(result.problems),
                    "skipped": list(result.skipped),
                }
                for result in report.results
            ],
            "failures": [
                {"name": failure.path.name, "message": failure.message.replace(str(folder), "")}
                for failure in report.failures
            ],
            "readers": acl,
        }

    # --- answers and the audit log ---------------------------------------------------------
    def entry(self, principal: str, answer_id: str) -> AnswerEntry:
        entry = self.state.answer(principal, answer_id)
        if entry is None:
            raise Problem(404, "Not found", f"no answer {answer_id!r}", field="answer_id")
        return entry

    def payload(self, entry: AnswerEntry) -> dict[str, Any]:
        """The audit payload of an indexed answer, read back from the log."""
        with self._audit_lock:
            records = list(self._audit.records(entry.audit_sequence, entry.audit_sequence + 1))
        if not records or records[0].request_id != entry.request_id:
            raise Problem(
                500, "Audit log mismatch", "the answer's audit record is missing or changed"
            )
        return records[0].payload

    def audit_report(self) -> dict[str, Any]:
        with self._audit_lock:
            return verify_log(self._audit).to_json()

    def proof(self, principal: str, request_id: str) -> dict[str, Any]:
        if not self.state.owns_request(principal, request_id):
            raise Problem(404, "Not found", f"no request {request_id!r}", field="request_id")
        with self._audit_lock:
            try:
                return inclusion_proof(self._audit, request_id).to_json()
            except RecordNotFoundError:
                raise Problem(
                    404, "Not found", f"no request {request_id!r}", field="request_id"
                ) from None

    def ready(self) -> dict[str, Any]:
        """Whether every database answers: the service's, the source store, the audit log."""
        self.state.token_names()
        with SourceStore(self.config.store_path) as store:
            sources = store.count()
        with self._audit_lock:
            size = self._audit.size()
        return {"status": "ready", "sources": sources, "audit_records": size}


def check_sizes(limits: Limits, answer: str, sources: Sequence[Source]) -> None:
    """The service's limits on one answer and its sources (answer characters, number of
    sources, characters of each, number of quotes): a 413 `Problem` naming the field."""
    if len(answer) > limits.answer_chars:
        raise _limit("answer", f"is {len(answer)} characters; the limit is {limits.answer_chars}")
    if len(sources) > limits.sources_per_answer:
        raise _limit(
            "sources", f"has {len(sources)} sources; the limit is {limits.sources_per_answer}"
        )
    for position, source in enumerate(sources):
        if len(source.text) > limits.source_chars:
            raise _limit(
                f"sources.{position}.text",
                f"is {len(source.text)} characters; the limit is {limits.source_chars}",
            )
    quotes = len(parse_answer(answer).quotes)
    if quotes > limits.quotes_per_answer:
        raise _limit("answer", f"has {quotes} quotes; the limit is {limits.quotes_per_answer}")


def body_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def dumps(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False)


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid UTF-8 at byte {error.start}", where=where) from None


def _limit(field: str, detail: str) -> Problem:
    return Problem(413, "Over a limit", f"{field} {detail}", field=field)

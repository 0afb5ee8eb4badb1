"""What the service does for a request, as plain synchronous functions over the library.

`Service` holds one worker process's connections: the service database, the audit log (one
connection, used under a lock: appends are serialised by the log anyway) and the provider.
Verification is `citeproof.verify`; what follows it is `citeproof.outcome.conclude`;
asking is `citeproof.asking.ask_store`; ingestion is `citeproof.sources._ingest`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citeproof import compact_json
from citeproof.asking import ask_store, turn_request, turn_to_json
from citeproof.audit import AppendsRecords, GroupCommit, inclusion_proof, open_store, verify_log
from citeproof.errors import AuditRecordError, InputError, RecordNotFoundError, UnknownSourceError
from citeproof.model import Policy, Source, VerifiedAnswer
from citeproof.outcome import Outcome, conclude, payload_with_texts, read_batch_line
from citeproof.providers import Provider, get_provider
from citeproof.server import _attempts as attempts
from citeproof.server._answer_record import index_counts
from citeproof.server._attempts import CommitOnce
from citeproof.server._config import Limits, ServiceConfig
from citeproof.server._metrics import Metrics
from citeproof.server._problems import Problem
from citeproof.server._state import AnswerEntry, ServiceState
from citeproof.sources import DEFAULT_LIMITS, ReadLimits, SourceStore, StoredSource, ingest_files
from citeproof.verifier import citable_names, verify
from citeproof.verifier.parse import parse_answer

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]+")
EXPANDED_BYTES_PER_CHAR = 20
"""Decompressed bytes (a DOCX package, a PDF's page content) an upload may hold per character
of the source limit: markup and layout take room, but not a thousand times the text."""


class AskIn(BaseModel):
    """The body of ``POST /v1/ask``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    question: str = Field(min_length=1)
    user: str | None = None
    attached: list[str] = Field(default_factory=list)
    limit: int = Field(default=8, ge=1, le=50)
    max_tokens: int = Field(default=300, ge=1, le=4_000)
    budget_chars: int | None = Field(default=None, ge=100, le=200_000)


class ReadersIn(BaseModel):
    """The body of ``PUT /v1/sources/{id}/readers``: who may read the document besides the
    caller (an empty list: the caller only)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    readers: list[str] = Field(max_length=200)


class Service:
    """One worker process's view of the service (see the module docstring)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.limits = config.limits
        # An upload's file is read under the service's own limits: no source longer than a
        # verify request may send, no file read for longer than a request may take.
        self.read_limits = ReadLimits(
            max_source_chars=config.limits.source_chars,
            max_expanded_bytes=min(
                DEFAULT_LIMITS.max_expanded_bytes,
                EXPANDED_BYTES_PER_CHAR * config.limits.source_chars,
            ),
            max_seconds=config.limits.deadline_seconds,
        )
        config.data.mkdir(parents=True, exist_ok=True)
        self.state = ServiceState(config.state_target)
        self.metrics = Metrics()
        self._audit = open_store(config.audit_target, checkpoint_dir=config.checkpoint_dir)
        self._audit_lock = threading.Lock()
        # Concurrent requests share commits (one fsync for many records); readers of the
        # same connection take the lock the commits take.
        self._appends = GroupCommit(self._audit, self._audit_lock)
        self._provider: Provider | None = None
        self._provider_lock = threading.Lock()
        SourceStore(config.store_target).close()  # created now, so /readyz sees it

    def close(self) -> None:
        with self._audit_lock:
            self._audit.close()

    # --- verify ----------------------------------------------------------------------------
    def verify_body(
        self,
        raw: bytes,
        principal: str,
        *,
        where: str,
        kind: str,
        request: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """One batch line of the JSON contract → the verified answer record, logged in the
        audit log under ``principal`` (with ``request``'s members in its request). Raises
        `InputError` or `Problem` naming the field."""
        started = time.perf_counter()
        text = _utf8(raw, where)
        answer_id, answer, sources, line_policy = read_batch_line(text, where=where)
        check_sizes(self.limits, answer, sources)
        policy = line_policy.to_policy(Policy()) if line_policy else Policy()
        parsed = time.perf_counter()
        attempts.check()
        verified = verify(answer, sources, policy=policy, answer_id=answer_id)
        verified_at = time.perf_counter()
        logged = {"command": f"serve {kind}", **(request or {})}
        outcome = self.record(verified, principal, logged, kind=kind)
        self.metrics.observe_stages(
            {
                "parse_request": parsed - started,
                "verify": verified_at - parsed,
                "record": time.perf_counter() - verified_at,
            }
        )
        answered: dict[str, Any] = outcome.payload["answer"]  # the record as logged
        return answered

    def record(
        self, verified: VerifiedAnswer, principal: str, request: Mapping[str, Any], *, kind: str
    ) -> Outcome:
        """Evidence, validation and the audit record (naming ``principal``), then the index
        entry the review pages and ``GET /v1/answers/{id}`` read. Under a request's attempt
        (`citeproof.server._attempts`) the record is written only if the caller still waits:
        else `Abandoned` is raised and nothing is written."""
        attempts.check()
        attempt = attempts.current()
        log: AppendsRecords = (
            self._appends if attempt is None else CommitOnce(self._appends, attempt)
        )
        outcome = conclude(verified, request={**request, "principal": principal}, log=log)
        assert outcome.audit_sequence is not None  # a log was given
        self.state.record_answer(
            answer_id=verified.id,
            principal=principal,
            request_id=outcome.request_id,
            audit_sequence=outcome.audit_sequence,
            kind=kind,
            counts=index_counts(verified),
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
        with SourceStore(self.config.store_target) as store:
            for position, source_id in enumerate(body.attached):
                self.readable(store, source_id, principal, field=f"attached.{position}")
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
        request = turn_request(turn, "serve ask", body.question, principal)
        self.record(turn.answer, principal, request, kind="ask")
        self.metrics.observe_stages(turn.timings)
        return turn_to_json(turn)

    def provider(self) -> Provider:
        with self._provider_lock:
            if self._provider is None:
                self._provider = get_provider(self.config.provider)
            return self._provider

    # --- sources ---------------------------------------------------------------------------
    def upload_folder(self, principal: str) -> Path:
        """Where ``principal``'s uploads are kept: a folder named by a keyed hash of the
        principal, so that nobody without the deployment's key can work out a document's
        origin, hence its doc_id or a source id, from a name and a content."""
        key = self.state.deployment_key()
        name = hmac.new(key, principal.encode("utf-8"), hashlib.sha256).hexdigest()[:32]
        return self.config.data / "uploads" / name

    def ingest(
        self, files: Sequence[tuple[str, bytes]], principal: str, readers: Sequence[str]
    ) -> dict[str, Any]:
        """Store uploaded files (name, content) as sources readable by ``principal`` and
        ``readers``. A file is kept under the principal's upload folder, so uploading the
        same name again makes a new version of the same document. The readers given replace
        the document's readers, every version (leaving one out revokes it); each source's
        ``readers`` in the reply are those the store holds afterwards."""
        folder = self.upload_folder(principal)
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
        with SourceStore(self.config.store_target) as store:
            report = ingest_files(
                store, paths, acl=acl, limits=self.read_limits, on_file=lambda _: attempts.check()
            )
            results = [
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
                            "readers": list(store.readers(change.doc_id) or ()),
                        }
                        for change in result.changes
                    ],
                    "problems": [self.public(p) for p in result.problems],
                    "skipped": [self.public(s) for s in result.skipped],
                }
                for result in report.results
            ]
        return {
            "files": results,
            "failures": [
                {"name": failure.path.name, "message": self.public(failure.message)}
                for failure in report.failures
            ],
            "readers": acl,
        }

    def set_readers(self, raw: bytes, principal: str, source_id: str) -> dict[str, Any]:
        """Replace the readers of the document ``source_id`` is a version of (the caller is
        always one) and return the access list stored. Only the principal who uploaded it
        may; for anyone else the source does not exist (404, as for an unknown id)."""
        try:
            body = ReadersIn.model_validate_json(raw)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or None
            raise InputError(first["msg"], where="request body", field=field) from None
        with SourceStore(self.config.store_target) as store:
            record = self.readable(store, source_id, principal, field="source_id", status=404)
            # The principal's folder is named by the deployment's key, the same on every host
            # of one database; the data folder above it is this host's own.
            if Path(record.origin).parent.name != self.upload_folder(principal).name:
                raise _no_source(source_id, "source_id", 404)
            stored = store.set_readers(record.doc_id, sorted({principal, *body.readers}))
        return {"id": source_id, "doc_id": record.doc_id, "readers": list(stored or ())}

    def readable(
        self, store: SourceStore, source_id: str, principal: str, *, field: str, status: int = 422
    ) -> StoredSource:
        """The stored source ``source_id`` when ``principal`` may read it. A source that
        does not exist and one that is not the caller's get the same answer, which names no
        path of the server."""
        try:
            record = store.record(source_id)
        except UnknownSourceError:
            raise _no_source(source_id, field, status) from None
        if not record.readable_by([principal]):
            raise _no_source(source_id, field, status)
        return record

    def public(self, message: str) -> str:
        """``message`` with the server's own paths taken out (see `redact_paths`)."""
        return redact_paths(message, self.server_paths)

    @property
    def server_paths(self) -> tuple[str, ...]:
        """The places on disk a response must never name: the data folder, the store, the
        audit log (a URL's password and host too)."""
        return (
            str(self.config.data),
            str(self.config.store_path),
            self.config.store_target,
            self.config.audit_target,
            self.config.state_target,
        )

    # --- answers and the audit log ---------------------------------------------------------
    def entry(self, principal: str, answer_id: str) -> AnswerEntry:
        entry = self.state.answer(principal, answer_id)
        if entry is None:
            raise Problem(404, "Not found", f"no answer {answer_id!r}", field="answer_id")
        return entry

    def payload(self, entry: AnswerEntry) -> dict[str, Any]:
        """The audit payload of an indexed answer, read back from the log with its sources'
        texts."""
        with self._audit_lock:
            records = list(self._audit.records(entry.audit_sequence, entry.audit_sequence + 1))
            if not records or records[0].request_id != entry.request_id:
                raise Problem(
                    500, "Audit log mismatch", "the answer's audit record is missing or changed"
                )
            try:
                return payload_with_texts(records[0].payload, self._audit)
            except (InputError, AuditRecordError) as error:
                raise Problem(500, "Audit log mismatch", str(error)) from None

    def audit_size(self) -> int:
        """How many records the audit log holds (every host's, when they share it)."""
        with self._audit_lock:
            return self._audit.size()

    def logged_line(
        self, principal: str, batch_id: str, line: int, since: int
    ) -> dict[str, Any] | None:
        """The answer record batch line ``line`` was logged as by a holder that stopped
        before storing it (looked for from audit sequence ``since`` on), now in the answer
        index too; None when it was not logged. A taken-over line is not verified into a
        second record."""
        with self._audit_lock:
            found = None
            for record in self._audit.records(since):
                request = record.payload.get("request", {})
                if (request.get("batch"), request.get("line")) == (batch_id, line) and request.get(
                    "principal"
                ) == principal:
                    found = record
                    break
        if found is None:
            return None
        answer: dict[str, Any] = found.payload["answer"]
        if found.sequence not in self.state.request_sequences(principal, found.request_id):
            counts = answer.get("counts", {})
            self.state.record_answer(
                answer_id=str(answer.get("id", "")),
                principal=principal,
                request_id=found.request_id,
                audit_sequence=found.sequence,
                kind="batch",
                counts={k: v for k, v in counts.items() if isinstance(v, int)},
                text=str(answer.get("text", "")),
            )
        return answer

    def audit_report(self) -> dict[str, Any]:
        with self._audit_lock:
            return verify_log(self._audit).to_json()

    def proof(self, principal: str, request_id: str, sequence: int | None = None) -> dict[str, Any]:
        """An inclusion proof of the record ``principal`` logged under ``request_id``: the one
        at ``sequence`` when given, else their latest. Records another principal logged under
        the same id are neither proved nor in the way; for them this is 404."""
        mine = self.state.request_sequences(principal, request_id)
        chosen = mine[-1] if sequence is None and mine else sequence
        if chosen is None or chosen not in mine:
            at = f" at sequence {sequence}" if sequence is not None else ""
            raise Problem(404, "Not found", f"no request {request_id!r}{at}", field="request_id")
        with self._audit_lock:
            try:
                return inclusion_proof(self._audit, request_id, sequence=chosen).to_json()
            except RecordNotFoundError:
                raise Problem(
                    404, "Not found", f"no request {request_id!r}", field="request_id"
                ) from None

    def seal(self) -> None:
        """Sign a checkpoint over the records logged since the last one (see
        `AuditStore.seal`); the service calls it every ``checkpoint_seconds``."""
        with self._audit_lock:
            self._audit.seal()

    def ready(self) -> dict[str, Any]:
        """Whether every database answers: the service's, the source store, the audit log."""
        self.state.token_names()
        with SourceStore(self.config.store_target) as store:
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
    # Read as `verify` will read it (the same names), so the parse is reused there.
    quotes = len(parse_answer(answer, citable_names(sources)).quotes)
    if quotes > limits.quotes_per_answer:
        raise _limit("answer", f"has {quotes} quotes; the limit is {limits.quotes_per_answer}")


def body_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def dumps(record: Mapping[str, Any]) -> str:
    """``record`` as compact JSON text (`citeproof.compact_json`)."""
    return compact_json.dumps(record).decode("utf-8")


def _utf8(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid UTF-8 at byte {error.start}", where=where) from None


def redact_paths(message: str, paths: Sequence[str]) -> str:
    """``message`` with each of ``paths`` (longest first) replaced by ``<server>``: a reply
    never tells a caller where the server keeps its files."""
    for path in sorted(set(paths), key=len, reverse=True):
        if path:
            message = message.replace(path, "<server>")
    return message


def _no_source(source_id: str, field: str, status: int) -> Problem:
    title = "Not found" if status == 404 else "Invalid input"
    return Problem(status, title, f"no source {source_id!r} that you may read", field=field)


def _limit(field: str, detail: str) -> Problem:
    return Problem(413, "Over a limit", f"{field} {detail}", field=field)

"""A small, real world for the operations tests: four source files ingested into a source
store, and answers quoting them verified and logged to an audit log (SQLite or PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from citeproof.audit import AuditStore, open_store
from citeproof.model import Source
from citeproof.outcome import conclude
from citeproof.sources import SourceStore
from citeproof.verifier import verify

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

FILES = {
    "policy.md": (
        "Residential credit policy\n\n"
        "Applications with a loan-to-value ratio above 80% must be referred to a senior "
        "underwriter.\n\n"
        "Self-employed applicants must provide two years of certified accounts.\n"
    ),
    "rates.md": (
        "Rate sheet\n\n"
        "The standard variable rate is reviewed on the first business day of each month.\n\n"
        "The base rate today is 4.25%.\n"
    ),
    "memo.md": (
        "Underwriting memo\n\n"
        "The Hartley valuation came back at 412,000 pounds, below the purchase price.\n"
    ),
    "guide.md": (
        "Broker guide\n\n"
        "Brokers must submit every application through the portal, never by email.\n"
    ),
}

CHANGED_POLICY = FILES["policy.md"].replace("above 80%", "above 85%")
"""The policy's second paragraph, changed: the quote of answer `policy` no longer matches."""
NEW_RATES = FILES["rates.md"].replace("4.25%", "4.50%")
"""A new version of the rate sheet; the quoted first paragraph is unchanged."""

QUOTES = {
    "policy": ("policy.md", 2, "loan-to-value ratio above 80% must be referred to a senior"),
    "rates": ("rates.md", 2, "reviewed on the first business day of each month"),
    "memo": ("memo.md", 2, "The Hartley valuation came back at 412,000 pounds"),
    "guide": ("guide.md", 2, "must submit every application through the portal"),
}


@dataclass
class World:
    folder: Path
    store_path: Path
    audit: str
    checkpoints: Path
    request_ids: dict[str, str]

    def open_log(self) -> AuditStore:
        return open_store(self.audit, checkpoint_dir=self.checkpoints)

    def write(self, name: str, text: str) -> None:
        (self.folder / name).write_text(text, encoding="utf-8")

    def reingest(self) -> None:
        with SourceStore(self.store_path) as store:
            for path in sorted(self.folder.iterdir()):
                store.ingest_file(path)

    def rebuild_store(self) -> Path:
        """A fresh store of the files as they are now (a deleted file is absent from it)."""
        path = self.store_path.with_name("rebuilt.db")
        with SourceStore(path) as store:
            for file in sorted(self.folder.iterdir()):
                store.ingest_file(file)
        return path


def by_origin(store: SourceStore, folder: Path) -> dict[str, Source]:
    return {
        Path(s.origin).name: s.source for s in store.current() if Path(s.origin).parent == folder
    }


def log_answers(
    store_path: Path, folder: Path, audit: str, checkpoints: Path, copies: int = 1
) -> dict[str, str]:
    """Verify and log one answer per entry of QUOTES (``copies`` times each, with different
    facts so each copy has its own request id); returns the request id per answer name."""
    with SourceStore(store_path) as store:
        sources = by_origin(store, folder)
    request_ids: dict[str, str] = {}
    with open_store(audit, checkpoint_dir=checkpoints) as log:
        for copy in range(copies):
            for name, (file, paragraph, quote) in QUOTES.items():
                source = sources[file]
                answer = f'The file says "{quote}" [{source.id}, ¶{paragraph}].'
                verified = verify(answer, list(sources.values()), now=NOW)
                outcome = conclude(
                    verified,
                    request={"command": "test", "answer": name, "copy": copy},
                    log=log,
                )
                request_ids.setdefault(name, outcome.request_id)
    return request_ids


def make_world(tmp_path: Path, audit: str, copies: int = 1) -> World:
    folder = tmp_path / "files"
    folder.mkdir(parents=True)
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    store_path = tmp_path / "sources.db"
    with SourceStore(store_path) as store:
        for path in sorted(folder.iterdir()):
            store.ingest_file(path)
    checkpoints = tmp_path / "checkpoints"
    request_ids = log_answers(store_path, folder, audit, checkpoints, copies)
    return World(folder, store_path, audit, checkpoints, request_ids)

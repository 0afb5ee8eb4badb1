"""The interface both backends implement: run a statement, read rows, hold a transaction.

Statements are written with ``?`` (or ``:name``) parameters and in the SQL that SQLite and
PostgreSQL share (``INSERT ... ON CONFLICT``, ``RETURNING``, ``CASE``, ``COALESCE``); what
differs is asked of the engine (`json_int`, `json_values`, `skip_locked`, the DDL types).
Values always travel as parameters, never in the statement's text.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal

Row = tuple[Any, ...]
Params = Sequence[Any] | Mapping[str, Any]
Backend = Literal["sqlite", "postgresql"]


class Engine(ABC):
    """One database, shared by the threads of a process (each gets its own connection)."""

    backend: Backend
    where: str
    """The database as it may be shown: a path, or a URL without its password."""

    # --- statements --------------------------------------------------------------------------
    @abstractmethod
    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run ``sql`` and return every row it gives."""

    def row(self, sql: str, params: Params = ()) -> Row | None:
        """Run ``sql`` and return its first row, or None."""
        found = self.rows(sql, params)
        return found[0] if found else None

    @abstractmethod
    def run(self, sql: str, params: Params = ()) -> int:
        """Run ``sql`` and return how many rows it changed."""

    @abstractmethod
    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run ``sql`` once for each of ``params``."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """Hold one write transaction for the ``with`` block: committed at its end, rolled
        back when it raises. The statements of this thread inside it run in it. Writers
        take the database's write lock at the start (SQLite: ``BEGIN IMMEDIATE``)."""

    @abstractmethod
    def lock(self, name: str) -> None:
        """Inside a transaction, wait for the lock ``name`` (held until the transaction
        ends): one holder across every process and host of this database."""

    @abstractmethod
    def close(self) -> None:
        """Close this thread's connection (the others close with their threads)."""

    # --- the SQL that differs ------------------------------------------------------------------
    @abstractmethod
    def json_int(self, column: str, key: str) -> str:
        """SQL reading member ``key`` of the JSON object text in ``column`` as an integer
        (NULL when absent). ``key`` must be a word the caller checked: it is SQL text."""

    @abstractmethod
    def json_values(self, json_sql: str, *, integer: bool = False) -> str:
        """A subquery of the members of the JSON array that ``json_sql`` (a column, or a
        parameter holding JSON text) holds, as text or, with ``integer``, integers."""

    @property
    @abstractmethod
    def skip_locked(self) -> str:
        """What ends a ``SELECT`` that claims rows: on PostgreSQL ``FOR UPDATE SKIP LOCKED``
        (a row another transaction holds is passed over), empty on SQLite (whose writers
        queue for the one write lock)."""

    @property
    @abstractmethod
    def like(self) -> str:
        """The case-insensitive LIKE (SQLite's LIKE is; PostgreSQL's is ILIKE)."""

    @abstractmethod
    def ddl(self, text: str) -> str:
        """A ``CREATE`` written with the types ``{int}``, ``{real}``, ``{blob}`` and
        ``{serial}`` (an integer primary key given by the database) in this backend's."""

    def tables(self) -> set[str]:
        """The tables this database holds."""
        return set(self._table_names())

    @abstractmethod
    def _table_names(self) -> Iterator[str]: ...

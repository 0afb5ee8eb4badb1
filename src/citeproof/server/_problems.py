"""Errors as ``application/problem+json`` (RFC 9457), each naming the field it concerns."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

PROBLEM_TYPE = "application/problem+json"


class Problem(Exception):
    """An error the service answers with: HTTP status, a short title, the detail, and the
    request field (``answer``, ``sources.0.text``, ``Authorization``...) when there is one."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str,
        *,
        field: str | None = None,
        where: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.field = field
        self.where = where
        self.headers = headers or {}

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": "about:blank",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if self.field is not None:
            body["field"] = self.field
        if self.where is not None:
            body["where"] = self.where
        return body

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.to_json(), status_code=self.status, headers=self.headers, media_type=PROBLEM_TYPE
        )


def too_large(limit: int, field: str = "body") -> Problem:
    return Problem(413, "Request too large", f"the request body is over {limit} bytes", field=field)

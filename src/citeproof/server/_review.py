"""The reviewer's web app: ``/review`` (the queue: answers filtered by what went wrong, worst
first, searchable) and ``/review/{id}`` (the answer as the answer page draws it: numbered
markers, each opening its panel, the legend, the sources). ``POST /review/logout`` signs out.

Server-rendered with Jinja2 (autoescape on: answer and source text only ever become text);
one external script, ``/static/review.js``, and two style sheets (``/static/answer.css``: the
answer page's own, and ``/static/review.css``), loaded under the strict CSP. In a browser the
token is given once on the login form and kept in an HttpOnly, SameSite=Strict cookie.

Signing in is guarded against login CSRF (another site signing the reviewer in as someone
else): the form carries a CSRF token the service signed for the nonce in a SameSite=Strict
cookie set with the form (`citeproof.server._csrf`: a pair made up by the caller is refused),
and `citeproof.server._origins` refuses a POST a browser says comes from another origin.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.convertors import PathConvertor, register_url_convertor
from starlette.responses import RedirectResponse, Response

from citeproof.errors import CiteproofError
from citeproof.render import PAGE_CSS
from citeproof.server._auth import REVIEW_COOKIE, Authenticator
from citeproof.server._csrf import csrf_refusal, issue_csrf
from citeproof.server._problems import Problem
from citeproof.server._service import Service
from citeproof.server._views import FILTER_KEYS, FILTERS, SORTS, review_page, row

TEMPLATES = Path(str(files("citeproof.server") / "templates"))
templates = Jinja2Templates(
    env=Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True))
)
templates.env.filters["pathquote"] = lambda value: quote(str(value), safe="")
PAGE_HEADERS = {"Cache-Control": "no-store"}
CSRF_COOKIE = "citeproof_csrf"


class AnswerIdConvertor(PathConvertor):
    """Any answer id, line breaks included (the contract allows any string as an id)."""

    regex = "(?s:.+)"


register_url_convertor("answer_id", AnswerIdConvertor())


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    """The template ``name`` with the request's CSP nonce; never cached."""
    response: Response = templates.TemplateResponse(
        request,
        name,
        {"nonce": request.state.csp_nonce, **context},
        status_code=status,
        headers=PAGE_HEADERS,
    )
    return response


def build_review_router(service: Service, auth: Authenticator) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    keys: list[bytes] = []

    def csrf_key() -> bytes:
        """The deployment's key, read from the service database once."""
        if not keys:
            keys.append(service.state.deployment_key())
        return keys[0]

    async def who(request: Request) -> str | None:
        try:
            return await anyio.to_thread.run_sync(lambda: auth.principal(request, cookie=True))
        except Problem as problem:
            if problem.status == 401:
                return None
            raise

    def login(
        request: Request, message: str | None = None, status: int = 401, notice: str = ""
    ) -> Response:
        """The sign-in form, with a fresh CSRF pair: its token in the form, its nonce in the
        cookie."""
        csrf = issue_csrf(csrf_key(), time.time())
        response = render(
            request,
            "login.html",
            {"message": message, "notice": notice, "csrf": csrf.token},
            status,
        )
        response.set_cookie(
            CSRF_COOKIE,
            csrf.cookie,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/review",
        )
        return response

    @router.get("/static/answer.css")
    async def answer_css() -> Response:
        return Response(PAGE_CSS, media_type="text/css", headers={"Cache-Control": "no-cache"})

    @router.get("/review")
    async def recent(
        request: Request, q: str = "", status: str = "", sort: str = "worst"
    ) -> Response:
        principal = await who(request)
        if principal is None:
            return login(request)
        chosen = FILTER_KEYS.get(status)
        sort = sort if sort in SORTS else "worst"
        search = q[:200]
        severity = [f.counts for f in FILTERS] if sort == "worst" else []

        def load() -> tuple[list[Any], dict[str, int]]:
            entries = service.state.recent_answers(
                principal,
                search=search,
                status="|".join(chosen.counts) if chosen else "",
                severity=severity,
            )
            tally = service.state.answer_tally(
                principal, {f.key: f.counts for f in FILTERS}, search=search
            )
            return entries, tally

        entries, tally = await anyio.to_thread.run_sync(load)
        now = datetime.now(UTC)
        return render(
            request,
            "list.html",
            {
                "rows": [row(entry, now) for entry in entries],
                "q": q,
                "status": chosen.key if chosen else "",
                "sort": sort,
                "sorts": SORTS,
                "filters": FILTERS,
                "tally": tally,
                "principal": principal,
            },
        )

    @router.post("/review/login")
    async def log_in(request: Request) -> Response:
        async with request.form(max_files=0, max_fields=4) as form:
            token = str(form.get("token") or "").strip()
            sent = str(form.get("csrf") or "")
        cookie = request.cookies.get(CSRF_COOKIE, "")
        if csrf_refusal(csrf_key(), cookie, sent, time.time()) is not None:
            return login(request, "The sign-in form expired; sign in again.", status=403)
        if not token or service.state.principal_for(token) is None:
            return login(request, "That token is not known.")
        response = RedirectResponse("/review", status_code=303)
        response.set_cookie(
            REVIEW_COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/review",
        )
        return response

    @router.post("/review/logout")
    async def log_out(request: Request) -> Response:
        response = login(request, status=200, notice="Signed out.")
        response.delete_cookie(
            REVIEW_COOKIE,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/review",
        )
        return response

    @router.get("/review/{answer_id:answer_id}")
    async def review(answer_id: str, request: Request) -> Response:
        principal = await who(request)
        if principal is None:
            return login(request)
        entry = await anyio.to_thread.run_sync(service.entry, principal, answer_id)
        payload = await anyio.to_thread.run_sync(service.payload, entry)

        def page() -> Response:  # in a thread: a long page never holds up other requests
            try:
                view = review_page(payload, entry, datetime.now(UTC))
            except (CiteproofError, KeyError, TypeError, ValueError) as error:
                raise Problem(500, "Audit log mismatch", f"unreadable answer: {error}") from None
            return render(request, "answer.html", {"page": view, "principal": principal})

        return await anyio.to_thread.run_sync(page)

    return router

"""The ASGI application: API v1, the review pages, the API docs from local assets."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response

import citeproof
from citeproof.errors import CiteproofError, InputError, ProviderError
from citeproof.model import Policy
from citeproof.server._api import UPLOAD_PATHS, build_router
from citeproof.server._auth import Authenticator, RateLimiter
from citeproof.server._batches import BatchRunner
from citeproof.server._config import ServiceConfig, is_loopback
from citeproof.server._guards import EdgeMiddleware, internal_error
from citeproof.server._openapi30 import openapi_30
from citeproof.server._origins import OriginGuard
from citeproof.server._problems import Problem
from citeproof.server._rate import RateBuckets
from citeproof.server._review import build_review_router, render
from citeproof.server._sealing import Sealer
from citeproof.server._service import Service
from citeproof.verifier.support import warm_up

log = logging.getLogger("citeproof.server")

STATIC = Path(str(files("citeproof.server") / "static"))


def create_app(config: ServiceConfig) -> FastAPI:
    """The service for ``config``. Refuses ``dev`` on an address other than loopback."""
    if config.dev and not is_loopback(config.host):
        raise InputError(
            f"--dev (no tokens) is for loopback addresses only, not {config.host!r}",
            field="host",
        )
    service = Service(config)
    runner = BatchRunner(service)
    sealer = Sealer(service.seal, config.limits.checkpoint_seconds)
    auth = Authenticator(
        service.state,
        RateLimiter(
            config.limits.rate_per_minute,
            config.limits.rate_burst,
            RateBuckets(service.state.engine),
        ),
        dev=config.dev,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The claim judge's parser, lexicon and model, before the first request's deadline.
        await asyncio.to_thread(warm_up, Policy())
        runner.start()
        sealer.start()
        try:
            yield
        finally:
            runner.stop()
            sealer.stop()
            service.close()

    app = FastAPI(
        title="citeproof",
        version=citeproof.__version__,
        summary="Verify LLM answers against their sources; review them beside the sources.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    app.state.service = service
    app.include_router(build_router(service, auth))
    app.include_router(build_review_router(service, auth))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _mount_swagger(app)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.exception_handler(Problem)
    async def problem(request: Request, error: Exception) -> Response:
        assert isinstance(error, Problem)
        return error.response()

    public = service.public  # no reply names a path of the server

    @app.exception_handler(InputError)
    async def bad_input(request: Request, error: Exception) -> Response:
        assert isinstance(error, InputError)
        where = public(error.where) if error.where else None
        return Problem(
            422, "Invalid input", public(error.detail), field=error.field, where=where
        ).response()

    @app.exception_handler(ProviderError)
    async def provider_failed(request: Request, error: Exception) -> Response:
        return Problem(502, "Model call failed", public(str(error)), field="provider").response()

    @app.exception_handler(CiteproofError)
    async def refused(request: Request, error: Exception) -> Response:
        return Problem(422, "Cannot do that", public(str(error))).response()

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        first = error.errors()[0]
        field = ".".join(str(p) for p in first.get("loc", ())) or None
        return Problem(422, "Invalid input", str(first.get("msg")), field=field).response()

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return Problem(
            error.status_code, "HTTP error", str(error.detail), headers=dict(error.headers or {})
        ).response()

    @app.exception_handler(ClientDisconnect)
    async def client_left(request: Request, error: Exception) -> Response:
        # The client closed the connection before its body arrived: nobody reads a reply.
        log.info("client left during %s %s", request.method, request.url.path)
        return Problem(400, "Client disconnected", "the request body was cut off").response()

    @app.exception_handler(Exception)
    async def crashed(request: Request, error: Exception) -> Response:
        # Reached only by an error of the edge middleware itself, which answers the others.
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return internal_error().response()

    app.add_middleware(OriginGuard, dev=config.dev)
    app.add_middleware(
        EdgeMiddleware,
        metrics=service.metrics,
        body_bytes=config.limits.body_bytes,
        upload_bytes=config.limits.upload_bytes,
        upload_paths=UPLOAD_PATHS,
        read_seconds=config.limits.body_read_seconds,
        body_seconds=config.limits.body_seconds,
    )
    return app


def _mount_swagger(app: FastAPI) -> None:
    """Swagger UI from the ``swagger-ui-bundle`` package's files, started by our own script
    (no CDN, no inline script)."""
    import swagger_ui_bundle  # type: ignore[import-untyped]

    app.mount(
        "/assets/swagger",
        StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
        name="swagger",
    )

    @app.get("/docs", include_in_schema=False)
    async def docs(request: Request) -> Response:
        return render(request, "docs.html", {})

    @app.get("/docs/openapi-3.0.json", include_in_schema=False)
    async def docs_document() -> JSONResponse:
        # The bundled Swagger UI (4.x) reads OpenAPI 3.0 only; /openapi.json stays 3.1.
        return JSONResponse(openapi_30(app.openapi()))

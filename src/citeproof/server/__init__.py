"""``citeproof serve``: the HTTP service (API v1) and the reviewer's web app.

`create_app` builds the ASGI application from a `ServiceConfig`; `citeproof serve` runs it on
uvicorn. Verification, asking, ingestion and the audit log are the library's own functions;
this package adds only what a service needs around them: tokens, limits, idempotency,
persisted batches, metrics, and the review pages.
"""

from citeproof.server.app import create_app
from citeproof.server.config import Limits, ServiceConfig

__all__ = ["Limits", "ServiceConfig", "create_app"]

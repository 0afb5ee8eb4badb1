"""``citeproof serve``: the HTTP service (API v1) and the reviewer's web app.

`create_app` builds the ASGI application from a `ServiceConfig`; `citeproof serve` runs it on
uvicorn. Verification, asking, ingestion and the audit log are the library's own functions;
this package adds only what a service needs around them: tokens, limits, idempotency,
persisted batches, metrics, and the review pages.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.server._app import create_app
    from citeproof.server._balance import create_table
    from citeproof.server._config import Limits, ServiceConfig, is_loopback
    from citeproof.server._connections import GuardedH11Protocol
    from citeproof.server._database_admin import CopyReport, copy_data, migrate_all, schema_report
    from citeproof.server._guards import EdgeMiddleware
    from citeproof.server._listen import BALANCED, reserve
    from citeproof.server._metrics import MULTIPROCESS_DIR, Metrics
    from citeproof.server._problems import PROBLEM_TYPE, Problem
    from citeproof.server._process import config_to_env
    from citeproof.server._service import Service, check_sizes
    from citeproof.server._state import ServiceState


_WHERE = {
    "BALANCED": "citeproof.server._listen",
    "CopyReport": "citeproof.server._database_admin",
    "EdgeMiddleware": "citeproof.server._guards",
    "GuardedH11Protocol": "citeproof.server._connections",
    "Limits": "citeproof.server._config",
    "MULTIPROCESS_DIR": "citeproof.server._metrics",
    "Metrics": "citeproof.server._metrics",
    "PROBLEM_TYPE": "citeproof.server._problems",
    "Problem": "citeproof.server._problems",
    "Service": "citeproof.server._service",
    "ServiceConfig": "citeproof.server._config",
    "ServiceState": "citeproof.server._state",
    "check_sizes": "citeproof.server._service",
    "config_to_env": "citeproof.server._process",
    "copy_data": "citeproof.server._database_admin",
    "create_app": "citeproof.server._app",
    "create_table": "citeproof.server._balance",
    "is_loopback": "citeproof.server._config",
    "migrate_all": "citeproof.server._database_admin",
    "reserve": "citeproof.server._listen",
    "schema_report": "citeproof.server._database_admin",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "BALANCED",
    "MULTIPROCESS_DIR",
    "PROBLEM_TYPE",
    "CopyReport",
    "EdgeMiddleware",
    "GuardedH11Protocol",
    "Limits",
    "Metrics",
    "Problem",
    "Service",
    "ServiceConfig",
    "ServiceState",
    "check_sizes",
    "config_to_env",
    "copy_data",
    "create_app",
    "create_table",
    "is_loopback",
    "migrate_all",
    "reserve",
    "schema_report",
]

"""How ``citeproof serve`` hands its configuration to uvicorn's worker processes: through
environment variables, read back by the app factory each worker calls."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from fastapi import FastAPI

from citeproof.server._app import create_app
from citeproof.server._config import SETTINGS_ENV, Limits, ServiceConfig

ENV = SETTINGS_ENV
SWITCH_SECONDS = 0.001
"""How long a thread may hold the interpreter lock while another asks for it (Python's
default is 5 ms). A worker's event loop and its verifying thread take turns with it: at 5 ms,
each step of a one-quote request (read, authenticate, verify, reply) waited up to 5 ms
behind another principal's heavy verification."""


def config_to_env(config: ServiceConfig) -> None:
    os.environ[ENV] = json.dumps(
        {
            "data": str(config.data),
            "store": str(config.store) if config.store else None,
            "audit": config.audit,
            "database": config.database,
            "host": config.host,
            "dev": config.dev,
            "provider": config.provider,
            "limits": config.limits.to_json(),
        }
    )


def app_from_env() -> FastAPI:
    """The application for the configuration `config_to_env` stored."""
    raw = os.environ.get(ENV)
    if raw is None:
        raise RuntimeError(f"{ENV} is not set: start the service with `citeproof serve`")
    data = json.loads(raw)
    sys.setswitchinterval(SWITCH_SECONDS)
    return create_app(
        ServiceConfig(
            data=Path(data["data"]),
            store=Path(data["store"]) if data["store"] else None,
            audit=data["audit"],
            database=data.get("database"),
            host=data["host"],
            dev=bool(data["dev"]),
            provider=data["provider"],
            limits=Limits.from_json(data["limits"]),
        )
    )

"""The Content-Security-Policy every service response must carry, as the tests read it."""

from __future__ import annotations

import re

# The policy of every response but the API docs, nonce aside (citeproof.server._guards).
STRICT_CSP = re.compile(
    r"default-src 'none'; script-src 'self' 'nonce-(?P<nonce>[A-Za-z0-9+/]{22}==)'; "
    r"style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; "
    r"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
# Swagger UI styles itself from its script and draws data: icons; scripts still need the nonce.
DOCS_CSP = re.compile(
    r"default-src 'none'; script-src 'self' 'nonce-(?P<nonce>[A-Za-z0-9+/]{22}==)'; "
    r"style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    r"font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

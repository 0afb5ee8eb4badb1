"""The review app's sign-in form as a client without a browser fills it in."""

from __future__ import annotations

import re

import httpx

_FIELD = re.compile(r'name="csrf" value="([^"]+)"')


def form_token(page: httpx.Response) -> str:
    """The CSRF token the sign-in page ``page`` put in its form (its cookie is in the
    client's jar)."""
    found = _FIELD.findall(page.text)
    assert len(found) == 1, f"the sign-in page has {len(found)} CSRF fields: {page.text[:500]}"
    return found[0]

"""One entry point over every vendor: `convert(vendor, response, request, sources)`."""

from __future__ import annotations

from collections.abc import Sequence

from citeproof.adapters._anthropic import from_anthropic
from citeproof.adapters._cohere import from_cohere
from citeproof.adapters._converted import VENDORS, Converted
from citeproof.adapters._gemini import from_gemini
from citeproof.adapters._mistral import from_mistral
from citeproof.adapters._openai import from_openai
from citeproof.adapters._perplexity import from_perplexity
from citeproof.errors import InputError
from citeproof.model import Source

READS_REQUEST = frozenset({"anthropic", "cohere", "mistral"})
"""The vendors whose request holds sources the response only points at."""


def convert(
    vendor: str,
    response: object,
    request: object | None = None,
    sources: Sequence[Source] = (),
) -> Converted:
    """The ``from_<vendor>`` conversion of ``response``.

    Raises `InputError` for an unknown vendor, or a ``request`` given to a vendor whose
    response carries everything the conversion reads (OpenAI, Gemini, Perplexity).
    """
    if vendor not in VENDORS:
        raise InputError(f"unknown format {vendor!r}; expected one of {', '.join(VENDORS)}")
    if request is not None and vendor not in READS_REQUEST:
        raise InputError(
            f"the {vendor} request holds nothing the conversion reads: give the response alone "
            "(and the cited sources with --source)"
        )
    if vendor == "anthropic":
        return from_anthropic(response, request, sources)
    if vendor == "cohere":
        return from_cohere(response, request, sources)
    if vendor == "mistral":
        return from_mistral(response, request, sources)
    if vendor == "openai":
        return from_openai(response, sources)
    if vendor == "gemini":
        return from_gemini(response, sources)
    return from_perplexity(response, sources)

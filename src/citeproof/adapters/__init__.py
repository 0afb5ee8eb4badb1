"""Native citations of the LLM APIs, converted into what citeproof verifies.

Each ``from_<vendor>`` takes a vendor response as it comes (parsed JSON, JSON text or the
vendor SDK's object), optionally the request that produced it and the caller's own copies of
the sources, and returns a `Converted`: the answer text with ``<cite:ID>`` markers (and, where
the vendor states the cited text, inline quotes), the `Source` values, and the vendor's
citations with what citeproof found at the locations they state. ``Converted.verify()`` gives
the same `VerifiedAnswer` as `citeproof.verify`.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.adapters._anthropic import from_anthropic, request_sources
    from citeproof.adapters._cohere import from_cohere
    from citeproof.adapters._converted import (
        VENDORS,
        Converted,
        LocationCheck,
        Vendor,
        VendorCitation,
        citation_report,
    )
    from citeproof.adapters._documents import (
        from_haystack,
        from_langchain,
        from_llamaindex,
        to_haystack,
        to_langchain,
        to_llamaindex,
    )
    from citeproof.adapters._gemini import from_gemini
    from citeproof.adapters._mistral import from_mistral
    from citeproof.adapters._offsets import TextOffsets, TextSpan, span_of
    from citeproof.adapters._openai import from_openai
    from citeproof.adapters._perplexity import from_perplexity
    from citeproof.adapters._pipelines import haystack_verifier, langchain_verifier
    from citeproof.adapters.fields import MAX_JSON_CHARS


_WHERE = {
    "Converted": "citeproof.adapters._converted",
    "LocationCheck": "citeproof.adapters._converted",
    "MAX_JSON_CHARS": "citeproof.adapters.fields",
    "TextOffsets": "citeproof.adapters._offsets",
    "TextSpan": "citeproof.adapters._offsets",
    "VENDORS": "citeproof.adapters._converted",
    "Vendor": "citeproof.adapters._converted",
    "VendorCitation": "citeproof.adapters._converted",
    "citation_report": "citeproof.adapters._converted",
    "from_anthropic": "citeproof.adapters._anthropic",
    "from_cohere": "citeproof.adapters._cohere",
    "from_gemini": "citeproof.adapters._gemini",
    "from_haystack": "citeproof.adapters._documents",
    "from_langchain": "citeproof.adapters._documents",
    "from_llamaindex": "citeproof.adapters._documents",
    "from_mistral": "citeproof.adapters._mistral",
    "from_openai": "citeproof.adapters._openai",
    "from_perplexity": "citeproof.adapters._perplexity",
    "haystack_verifier": "citeproof.adapters._pipelines",
    "langchain_verifier": "citeproof.adapters._pipelines",
    "request_sources": "citeproof.adapters._anthropic",
    "span_of": "citeproof.adapters._offsets",
    "to_haystack": "citeproof.adapters._documents",
    "to_langchain": "citeproof.adapters._documents",
    "to_llamaindex": "citeproof.adapters._documents",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "MAX_JSON_CHARS",
    "VENDORS",
    "Converted",
    "LocationCheck",
    "TextOffsets",
    "TextSpan",
    "Vendor",
    "VendorCitation",
    "citation_report",
    "from_anthropic",
    "from_cohere",
    "from_gemini",
    "from_haystack",
    "from_langchain",
    "from_llamaindex",
    "from_mistral",
    "from_openai",
    "from_perplexity",
    "haystack_verifier",
    "langchain_verifier",
    "request_sources",
    "span_of",
    "to_haystack",
    "to_langchain",
    "to_llamaindex",
]

"""Native citations of the LLM APIs, converted into what citeproof verifies.

Each ``from_<vendor>`` takes a vendor response as it comes (parsed JSON, JSON text or the
vendor SDK's object), optionally the request that produced it and the caller's own copies of
the sources, and returns a `Converted`: the answer text with ``<cite:ID>`` markers (and, where
the vendor states the cited text, inline quotes), the `Source` values, and the vendor's
citations with what citeproof found at the locations they state. ``Converted.verify()`` gives
the same `VerifiedAnswer` as `citeproof.verify`.
"""

from citeproof.adapters.anthropic import from_anthropic
from citeproof.adapters.cohere import from_cohere
from citeproof.adapters.converted import (
    VENDORS,
    Converted,
    LocationCheck,
    Vendor,
    VendorCitation,
    citation_report,
)
from citeproof.adapters.documents import (
    from_haystack,
    from_langchain,
    from_llamaindex,
    to_haystack,
    to_langchain,
    to_llamaindex,
)
from citeproof.adapters.gemini import from_gemini
from citeproof.adapters.mistral import from_mistral
from citeproof.adapters.offsets import TextOffsets, TextSpan, span_of
from citeproof.adapters.openai import from_openai
from citeproof.adapters.perplexity import from_perplexity
from citeproof.adapters.pipelines import haystack_verifier, langchain_verifier

__all__ = [
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
    "span_of",
    "to_haystack",
    "to_langchain",
    "to_llamaindex",
]

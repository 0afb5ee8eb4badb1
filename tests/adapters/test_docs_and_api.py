"""The adapters' public surface and their documentation (F.4)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import citeproof.adapters
from tests.adapters.fixtures import load

DOC = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def test_the_adapters_public_names_are_exactly_these_F_4() -> None:
    assert sorted(citeproof.adapters.__all__) == sorted(
        [
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
            "from_mistral",
            "from_openai",
            "from_perplexity",
            "span_of",
            # the framework documents and pipeline steps
            "from_langchain",
            "to_langchain",
            "from_llamaindex",
            "to_llamaindex",
            "from_haystack",
            "to_haystack",
            "langchain_verifier",
            "haystack_verifier",
            # what the proxy takes from the adapters
            "MAX_JSON_CHARS",
            "request_sources",
        ]
    )


def test_the_documented_python_example_runs_on_the_documented_response_F_4() -> None:
    block = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)[0]
    namespace = {
        "response": load("anthropic-response-plain-text"),
        "request": load("anthropic-request-plain-text"),
    }
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(DOC), "exec"), namespace)
    assert printed.getvalue().splitlines() == [
        "doc-0 verbatim characters 0-20",
        "doc-0 verbatim characters 20-36",
        "q1 verified The grass is green.",
        "q2 verified The sky is blue.",
        "According to the document, the grass is green (“The grass is green.” <cite:doc-0#p1>) "
        "and the sky is blue (“The sky is blue.” <cite:doc-0#p1>).",
    ]


def test_every_vendor_is_documented_F_4() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## What each vendor gives")[1].split("## One offset model")[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    for name in ("Anthropic", "OpenAI", "Gemini", "Cohere", "Mistral", "Perplexity"):
        assert any(row.split("|")[1].strip().startswith(("Google " + name, name)) for row in rows)

"""Perplexity: ``[1]``-style markers in the answer, numbering its ``search_results``.

Marker ``[N]`` cites search result N (1-based) and the sentence it ends; it is replaced by a
``<cite:result-N>`` marker. A result's text is its ``snippet`` when the response carries one
(only an excerpt of the page: give the page with ``--source result-N=FILE`` to check against
all of it). Responses from before ``search_results`` list the urls in ``citations``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citeproof.adapters import fields
from citeproof.adapters._compose import Cite, SourceSet, VendorSource, compose, sentence_before
from citeproof.adapters._converted import Converted, sources_given
from citeproof.errors import AnswerError
from citeproof.model import Source

_MARKER = re.compile(r"\[(\d{1,3})\]")


def from_perplexity(response: object, sources: Sequence[Source] = ()) -> Converted:
    """Convert a Perplexity chat completion (a dict, JSON text or the SDK's object).

    A marker naming no search result is left as written (the verifier reports it as citing
    nothing provided). Raises `AnswerError` naming the field for a malformed response.
    """
    body = fields.as_object(response, "perplexity response")
    choices = fields.objects(body, "choices", "perplexity response")
    if not choices:
        raise AnswerError("no choices: nothing was answered", where="perplexity response")
    path, choice = choices[0]
    message = fields.child(choice, "message", path)
    if message is None:
        raise AnswerError("is missing", where=path, field="message")
    output = fields.text(message, "content", f"{path}.message") or ""
    results = _results(body)
    known = SourceSet(sources_given(sources))
    cites: list[Cite] = []
    run_start = run_end = -1
    for found in _MARKER.finditer(output):
        # "[1][2]" and "[1] [2]" end the same sentence: both cite the words before the first.
        if output[run_end : found.start()].strip() or run_end < 0:
            run_start = found.start()
        run_end = found.end()
        number = int(found.group(1))
        if not 1 <= number <= len(results):
            continue
        words = sentence_before(output, run_start)
        label = known.add(results[number - 1])
        cites.append(Cite(words, label, "search_result", replaces=found.span()))
    answer, converted, notes = compose(output, cites, where="perplexity response")
    return Converted(
        vendor="perplexity",
        answer=answer,
        sources=known.sources(),
        citations=converted,
        output=output,
        notes=tuple(known.notes) + notes,
    )


def _results(body: fields.Json) -> list[VendorSource]:
    results = fields.objects(body, "search_results", "perplexity response")
    if results:
        return [
            VendorSource(
                f"result-{number}",
                fields.text(result, "snippet", path),
                title=fields.text(result, "title", path),
                url=fields.text(result, "url", path),
            )
            for number, (path, result) in enumerate(results, start=1)
        ]
    urls = fields.field(body, "citations") or []
    if not isinstance(urls, list):
        raise AnswerError("expected a list of urls", where="perplexity response", field="citations")
    return [
        VendorSource(f"result-{number}", None, url=url if isinstance(url, str) else None)
        for number, url in enumerate(urls, start=1)
    ]

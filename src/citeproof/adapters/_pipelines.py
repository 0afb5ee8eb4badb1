"""Verification as a step of a framework pipeline: a LangChain runnable and a Haystack
component, each taking the answer and the retrieved documents and giving the verified answer.

Both convert the documents with `citeproof.adapters._documents` (ids kept, so ``[id]`` in the
answer names the retrieved document) and call `citeproof.verify`; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citeproof.adapters._documents import from_haystack, from_langchain
from citeproof.errors import InputError
from citeproof.model import Policy, VerifiedAnswer
from citeproof.verifier import verify

if TYPE_CHECKING:
    from langchain_core.runnables import Runnable


def langchain_verifier(policy: Policy | None = None) -> Runnable[Mapping[str, Any], VerifiedAnswer]:
    """A runnable from ``{"answer": str, "documents": [Document, ...]}`` to the verified answer,
    to chain after a retrieval-and-answer chain. Raises `InputError` for a missing key."""
    from langchain_core.runnables import RunnableLambda

    def run(inputs: Mapping[str, Any]) -> VerifiedAnswer:
        try:
            answer, documents = inputs["answer"], inputs["documents"]
        except KeyError as missing:
            raise InputError(f"the runnable's input needs {missing}", field=str(missing)) from None
        return verify(answer, [from_langchain(d) for d in documents], policy=policy)

    return RunnableLambda(run, name="citeproof_verify")


def haystack_verifier(policy: Policy | None = None) -> Any:
    """A Haystack component instance with inputs ``answer`` (str) and ``documents`` and the
    output ``verified`` (the `VerifiedAnswer`); connect a generator's reply and a retriever's
    documents to it."""
    from haystack import Document, component

    class CiteproofVerifier:
        """Verifies an answer's quotes and citations against the retrieved documents."""

        @component.output_types(verified=VerifiedAnswer)
        def run(self, answer: str, documents: list[Document]) -> dict[str, VerifiedAnswer]:
            sources = [from_haystack(document) for document in documents]
            return {"verified": verify(answer, sources, policy=policy)}

    # Haystack matches connections on the run method's annotations as objects, and this
    # module's annotations are strings (``from __future__ import annotations``).
    CiteproofVerifier.run.__annotations__ = {
        "answer": str,
        "documents": list[Document],
        "return": dict[str, VerifiedAnswer],
    }
    return component(CiteproofVerifier)()

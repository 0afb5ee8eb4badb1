"""Answer text → claims, quotes and citation markers (`parse_answer`).

Pure and tolerant: any ``str`` parses (odd text gives fewer quotes, never an error), in time
roughly linear in its length. Every offset is a ``str`` index into the text given.

Citation markers (each id in a marker becomes one `Citation` sharing the marker's text and span):

- ``<cite:ID>`` and ``<cite:ID#pN>``; the label is ``ID`` as written.
- ``[1]``, ``[S2]``, ``[S2, ¶4]``, ``[S2 ¶4]``, ``[S2 p4]``, ``[S2, p. 4]``, ``[S2, para 4]``,
  ``[email-1]``: the label is the id as written (``"1"``, ``"S2"``, ``"email-1"``) and the
  ``¶``/``p``/``para``/``paragraph`` suffix becomes ``paragraph``.
- ``[Source 2]`` (also ``Src 2``, ``Source2``, ``Document 2``, ``Doc 2``): the label is the
  number alone, ``"2"`` (``[doc-2]`` is an id of its own, ``"doc-2"``).
- ``[1, 3]`` and ``[S1; S2]``: one citation per id. ``[2-4]``, ``[S2-S4]``: the range, at most
  50 ids. ``[1][3]`` is two markers, each with its own span; a quote followed by them is tied to
  both.
- Footnotes ``[^1]`` take their ids from the definition line ``[^1]: ...`` (a ``<cite:...>``, a
  bracket marker, or the whole text read as ids, e.g. ``Source 2, paragraph 4``); otherwise the
  label is the definition text trimmed (a title or URL for the verifier to resolve), and a
  footnote with no definition is labelled with its name.
- A bracket is a citation only if all of it reads as ids: links ``[text](url)``, ``[ ]``,
  ``[x]``, ``[sic]``, ``[...]`` and ``[citation needed]`` are not. Ids are a number, up to three
  letters and a number (``S2``, ``D1``), ``doc-3``/``email-1`` style, ``Source N``, or a source
  named by one word: any word with a paragraph suffix (``[policy, ¶3]``), else a lower-case
  word of two letters or more that is not an editor's word (``[memo]``, ``[credit-policy]``;
  not ``[sic]``, ``[redacted]``, ``[name]``). Capitalised lone words (``[Note]``, ``[Name]``)
  are template text, not citations, unless they name one of the answer's sources.
- The answer's own source names (``parse_answer(text, source_names)``; `verify` passes every
  source's id, title, doc_id and url): a bracket naming them, alone or in a list with ids and
  paragraphs, cites them however they are written (``name_key``: case and punctuation
  aside, so ``[Credit Policy]`` names ``credit-policy``): ``[Contract]``, ``[ACME ¶2, S3]``,
  ``[src]``, ``[Q3 Report]``, ``[MSA § 12.1]`` (a section, clause or page beside a name cites
  the source; the place is not read). Names compare case folded; a footnote definition is
  read the same way. A name after ``Source:`` (also ``Document:``, ``Doc:``, ``Ref:``) is a
  citation whether the source was given or not: ``[Source: Board Minutes]`` cites "Board
  Minutes", for the verifier to resolve or refuse.
- Markers inside inline quotes, code, footnote or link definition lines cite nothing.

Quotes, numbered ``q1``, ``q2``... by position; each occurrence is its own quote (003.8):

- Block quotes: consecutive lines starting with up to three spaces and ``>``. ``text`` is the
  lines without ``>`` and one following space, right-trimmed, joined by ``\\n``; ``span`` runs
  from the first ``>`` to the end of the last quoted word. Markers ending the last line (``—
  [S1]``) or on an attribution line right after the block (``[S1 ¶4]``, ``— [S1]``, ``Source:
  [2]``) are its citations and not part of its text; failing those, markers inside the block.
  Inline quotes inside a block quote are part of it, not quotes of their own.
- Inline quotes: ``"…"``, ``“…”``, ``‘…’``, ``'…'``, ``«…»``, ``»…«``, ``„…“``, ``‚…‘``,
  ``「…」``, ``『…』`` within one paragraph and at most 2000 characters; ``span`` is the text
  between the marks, trimmed, so ``text == answer[span]``. Apostrophes (``don't``, ``users’``)
  and inch marks (``5'10"``, ``27"``) are not quotes; an unbalanced mark gives no quote; a quote
  nested in another is part of the outer one. A quote is tied to the first marker(s) after it
  in its sentence, else to the nearest before it in the sentence, else to none.

Claims, numbered ``c1``, ``c2``...: the sentences of paragraphs, list items (without their
bullet) and table rows, and each block quote with its attribution line. Headings, rules, code
fences and definition lines are not claims; neither is text without a letter or digit.
"""

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.parse._answer import parse_answer
    from citeproof.verifier.parse._markers import name_key
    from citeproof.verifier.parse._normalise import normalise_markers


_WHERE = {
    "name_key": "citeproof.verifier.parse._markers",
    "normalise_markers": "citeproof.verifier.parse._normalise",
    "parse_answer": "citeproof.verifier.parse._answer",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = ["name_key", "normalise_markers", "parse_answer"]

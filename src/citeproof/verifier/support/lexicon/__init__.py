"""The words the claim judge reads as classes, in one place: every rule asks here.

Word classes (`MODALITY`, `NEGATORS`, `QUANTIFIERS`, `DIRECTIONS`, `CONDITIONS`, ...) are
small hand-made tables of function words, each keyed by lemma. Content words are compared
through WordNet 3.0 (`wordnet`): two lemmas are `synonyms` when they share one of their first
three senses, one is `broader` than the other when one of its first senses is a hypernym of the
other's, and `antonyms` where WordNet says so.
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.support.lexicon._classes import (
        ANYONE,
        ATTRIBUTION,
        CONDITION_PAIRS,
        CONDITION_WORDS,
        CONDITIONS,
        DIRECTIONS,
        DISCOURSE,
        DOCUMENTS,
        FRAMING_PREPOSITIONS,
        LIGHT_VERBS,
        MODALITY,
        NEGATORS,
        QUANTIFIERS,
        Deontic,
        direction_of,
        quantifier_of,
    )
    from citeproof.verifier.support.lexicon._wordnet import WordNet, wordnet


_WHERE = {
    "ANYONE": "citeproof.verifier.support.lexicon._classes",
    "ATTRIBUTION": "citeproof.verifier.support.lexicon._classes",
    "CONDITIONS": "citeproof.verifier.support.lexicon._classes",
    "CONDITION_PAIRS": "citeproof.verifier.support.lexicon._classes",
    "CONDITION_WORDS": "citeproof.verifier.support.lexicon._classes",
    "DIRECTIONS": "citeproof.verifier.support.lexicon._classes",
    "DISCOURSE": "citeproof.verifier.support.lexicon._classes",
    "DOCUMENTS": "citeproof.verifier.support.lexicon._classes",
    "Deontic": "citeproof.verifier.support.lexicon._classes",
    "FRAMING_PREPOSITIONS": "citeproof.verifier.support.lexicon._classes",
    "LIGHT_VERBS": "citeproof.verifier.support.lexicon._classes",
    "MODALITY": "citeproof.verifier.support.lexicon._classes",
    "NEGATORS": "citeproof.verifier.support.lexicon._classes",
    "QUANTIFIERS": "citeproof.verifier.support.lexicon._classes",
    "WordNet": "citeproof.verifier.support.lexicon._wordnet",
    "direction_of": "citeproof.verifier.support.lexicon._classes",
    "quantifier_of": "citeproof.verifier.support.lexicon._classes",
    "wordnet": "citeproof.verifier.support.lexicon._wordnet",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "ANYONE",
    "ATTRIBUTION",
    "CONDITIONS",
    "CONDITION_PAIRS",
    "CONDITION_WORDS",
    "DIRECTIONS",
    "DISCOURSE",
    "DOCUMENTS",
    "FRAMING_PREPOSITIONS",
    "LIGHT_VERBS",
    "MODALITY",
    "NEGATORS",
    "QUANTIFIERS",
    "Deontic",
    "WordNet",
    "direction_of",
    "quantifier_of",
    "wordnet",
]

"""The words the claim judge reads as classes, in one place: every rule asks here.

Word classes (`MODALITY`, `NEGATORS`, `QUANTIFIERS`, `DIRECTIONS`, `CONDITIONS`, ...) are
small hand-made tables of function words, each keyed by lemma. Content words are compared
through WordNet 3.0 (`wordnet`): two lemmas are `synonyms` when they share one of their first
three senses, one is `broader` than the other when one of its first senses is a hypernym of the
other's, and `antonyms` where WordNet says so. A source's own definitions (`defined_terms`:
"Harrowgate Freight Services Ltd (the "Licensee")") say which party a defined term names;
a mail thread's headers and signatures say who "we" and "you" are in each message
(`speakers`).
"""

from __future__ import annotations

import typing

from citeproof.lazy import on_first_use

if typing.TYPE_CHECKING:
    from citeproof.verifier.support.lexicon._classes import (
        ANYONE,
        ASKING,
        ATTRIBUTION,
        BOUND_BY_TIME,
        BOUNDS,
        CARVED_IF,
        CARVING_OUT,
        CONDITION_PAIRS,
        CONDITION_WORDS,
        CONDITIONS,
        DENYING,
        DIRECTIONS,
        DISCOURSE,
        DOCUMENTS,
        EXCEPTIONS,
        FRAMING_PREPOSITIONS,
        LIGHT_VERBS,
        MODALITY,
        NECESSARY_CONDITIONS,
        NEGATORS,
        OBJECT_CONTROL,
        OR_BEYOND,
        PER_PERIOD,
        PRICE_NOUNS,
        QUANTIFIERS,
        RATE_WORDS,
        SETTING_ASIDE,
        STATING_VERBS,
        THIRD_PERSON,
        TIME_OPENERS,
        TIME_WORDS,
        Deontic,
        direction_of,
        quantifier_of,
    )
    from citeproof.verifier.support.lexicon._defined import (
        NO_DEFINITIONS,
        DefinedTerms,
        defined_terms,
        terms_defined_around,
    )
    from citeproof.verifier.support.lexicon._speakers import (
        NO_SPEAKERS,
        READER,
        WRITER,
        Message,
        Speakers,
        speakers,
    )
    from citeproof.verifier.support.lexicon._wordnet import WordNet, wordnet


_WHERE = {
    "ANYONE": "citeproof.verifier.support.lexicon._classes",
    "ASKING": "citeproof.verifier.support.lexicon._classes",
    "ATTRIBUTION": "citeproof.verifier.support.lexicon._classes",
    "BOUNDS": "citeproof.verifier.support.lexicon._classes",
    "BOUND_BY_TIME": "citeproof.verifier.support.lexicon._classes",
    "CARVED_IF": "citeproof.verifier.support.lexicon._classes",
    "CARVING_OUT": "citeproof.verifier.support.lexicon._classes",
    "CONDITIONS": "citeproof.verifier.support.lexicon._classes",
    "CONDITION_PAIRS": "citeproof.verifier.support.lexicon._classes",
    "CONDITION_WORDS": "citeproof.verifier.support.lexicon._classes",
    "DENYING": "citeproof.verifier.support.lexicon._classes",
    "DIRECTIONS": "citeproof.verifier.support.lexicon._classes",
    "DISCOURSE": "citeproof.verifier.support.lexicon._classes",
    "DOCUMENTS": "citeproof.verifier.support.lexicon._classes",
    "DefinedTerms": "citeproof.verifier.support.lexicon._defined",
    "Deontic": "citeproof.verifier.support.lexicon._classes",
    "EXCEPTIONS": "citeproof.verifier.support.lexicon._classes",
    "FRAMING_PREPOSITIONS": "citeproof.verifier.support.lexicon._classes",
    "LIGHT_VERBS": "citeproof.verifier.support.lexicon._classes",
    "MODALITY": "citeproof.verifier.support.lexicon._classes",
    "Message": "citeproof.verifier.support.lexicon._speakers",
    "NECESSARY_CONDITIONS": "citeproof.verifier.support.lexicon._classes",
    "NEGATORS": "citeproof.verifier.support.lexicon._classes",
    "NO_DEFINITIONS": "citeproof.verifier.support.lexicon._defined",
    "NO_SPEAKERS": "citeproof.verifier.support.lexicon._speakers",
    "OBJECT_CONTROL": "citeproof.verifier.support.lexicon._classes",
    "OR_BEYOND": "citeproof.verifier.support.lexicon._classes",
    "PER_PERIOD": "citeproof.verifier.support.lexicon._classes",
    "PRICE_NOUNS": "citeproof.verifier.support.lexicon._classes",
    "QUANTIFIERS": "citeproof.verifier.support.lexicon._classes",
    "RATE_WORDS": "citeproof.verifier.support.lexicon._classes",
    "READER": "citeproof.verifier.support.lexicon._speakers",
    "SETTING_ASIDE": "citeproof.verifier.support.lexicon._classes",
    "STATING_VERBS": "citeproof.verifier.support.lexicon._classes",
    "Speakers": "citeproof.verifier.support.lexicon._speakers",
    "THIRD_PERSON": "citeproof.verifier.support.lexicon._classes",
    "TIME_OPENERS": "citeproof.verifier.support.lexicon._classes",
    "TIME_WORDS": "citeproof.verifier.support.lexicon._classes",
    "WRITER": "citeproof.verifier.support.lexicon._speakers",
    "WordNet": "citeproof.verifier.support.lexicon._wordnet",
    "defined_terms": "citeproof.verifier.support.lexicon._defined",
    "direction_of": "citeproof.verifier.support.lexicon._classes",
    "quantifier_of": "citeproof.verifier.support.lexicon._classes",
    "speakers": "citeproof.verifier.support.lexicon._speakers",
    "terms_defined_around": "citeproof.verifier.support.lexicon._defined",
    "wordnet": "citeproof.verifier.support.lexicon._wordnet",
}

__getattr__ = on_first_use(globals(), _WHERE)


__all__ = [
    "ANYONE",
    "ASKING",
    "ATTRIBUTION",
    "BOUNDS",
    "BOUND_BY_TIME",
    "CARVED_IF",
    "CARVING_OUT",
    "CONDITIONS",
    "CONDITION_PAIRS",
    "CONDITION_WORDS",
    "DENYING",
    "DIRECTIONS",
    "DISCOURSE",
    "DOCUMENTS",
    "EXCEPTIONS",
    "FRAMING_PREPOSITIONS",
    "LIGHT_VERBS",
    "MODALITY",
    "NECESSARY_CONDITIONS",
    "NEGATORS",
    "NO_DEFINITIONS",
    "NO_SPEAKERS",
    "OBJECT_CONTROL",
    "OR_BEYOND",
    "PER_PERIOD",
    "PRICE_NOUNS",
    "QUANTIFIERS",
    "RATE_WORDS",
    "READER",
    "SETTING_ASIDE",
    "STATING_VERBS",
    "THIRD_PERSON",
    "TIME_OPENERS",
    "TIME_WORDS",
    "WRITER",
    "DefinedTerms",
    "Deontic",
    "Message",
    "Speakers",
    "WordNet",
    "defined_terms",
    "direction_of",
    "quantifier_of",
    "speakers",
    "terms_defined_around",
    "wordnet",
]

"""Mutation testing (mutmut) of the modules where a bug costs users most; `make mutation`.

    python tools/mutation.py                  # every group below
    python tools/mutation.py catalog live     # only these groups
    python tools/mutation.py --list           # the groups, their modules and tests

Each group's modules are mutated one small change at a time (an operator, a constant, a
condition, a string, an argument dropped) and the group's tests run against each mutant; a
mutant no test fails on *survived*: a bug of that shape would pass the suite. Every group runs
in a fresh copy of the working tree under ``out/mutation/<group>/`` (the checkout itself is
never touched), and the results go to ``out/mutation/report.md``: per group the mutants, how
many were killed, the time taken, and every survivor with its diff, unless `EQUIVALENT` lists
it with the reason no test can tell it from the original.

Not part of CI: the whole run takes hours on two cores (see docs/measurements.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Group:
    """Modules mutated together and the tests that pin their rules."""

    modules: tuple[str, ...]
    tests: tuple[str, ...]
    deselect: str = ""  # a pytest -k expression of tests to leave out (too slow per mutant)
    # A mutant's run is stopped after (its tests' time + 1 s) * this * 2 of CPU time (mutmut's
    # timeout_multiplier, 15 by default); lower it where many mutants loop for ever.
    timeout_multiplier: float = 15.0


GROUPS: dict[str, Group] = {
    "quotes": Group(
        (
            "src/citeproof/verifier/_judgement.py",
            "src/citeproof/verifier/_differences.py",
            "src/citeproof/verifier/_correct.py",
            "src/citeproof/verifier/match/*",
        ),
        (
            "tests/test_verify.py",
            "tests/test_email_cited_or_holding.py",
            "tests/test_match.py",
            "tests/test_cited_markers.py",
            "tests/test_marker_normalise.py",
            "tests/test_meaning.py",
            "tests/test_quote_small_words.py",
            "tests/test_quote_cost.py",
            "tests/test_index_cache.py",
            "tests/test_quote_verdicts.py",
            "tests/test_difference_kinds.py",
            "tests/test_match_index.py",
            "tests/test_match_align.py",
            "tests/test_match_elisions.py",
            "tests/test_quote_corrections.py",
        ),
        # Left out, a second or more a mutant each: a fresh interpreter (its own subprocess),
        # four threads over 24 answers, every small word swapped in turn, 20,000-character
        # sources; the same rules are pinned here by the in-process, per-kind and 2,000-
        # character cases.
        deselect=(
            "not loads_no_model and not safe_to_share_between_threads"
            " and not changing_any_small_word and not 20000"
        ),
        # The word-snapping loops a mutant makes endless would run a minute or more each.
        timeout_multiplier=3.0,
    ),
    "catalog": Group(
        ("src/citeproof/verifier/_catalog.py", "src/citeproof/turn/_eligibility.py"),
        (
            "tests/test_catalog.py",
            "tests/test_empty_acl.py",
            "tests/test_eligibility_rules.py",
            "tests/test_eligibility_prompt.py",
            "tests/test_pipeline.py",
        ),
    ),
    "support-facts": Group(
        ("src/citeproof/verifier/support/_facts.py",),
        (
            "tests/test_support.py",
            "tests/test_support_negation_scope.py",
            "tests/test_support_facts.py",
            "tests/test_support_facts_alignment.py",
            "tests/test_support_opposites.py",
        ),
    ),
    "audit": Group(
        (
            "src/citeproof/audit/_chain.py",
            "src/citeproof/audit/_merkle.py",
            "src/citeproof/audit/_checkpoint.py",
            "src/citeproof/audit/_proofs.py",
            "src/citeproof/audit/_verify.py",
        ),
        ("tests/audit",),
        deselect="not kill_9 and not concurrent and not flipped_byte_in_any",
    ),
    "server-guards": Group(
        ("src/citeproof/server/_guards.py", "src/citeproof/server/_auth.py"),
        (
            "tests/server/test_guards_in_process.py",
            "tests/server/test_limits_and_auth.py",
            "tests/server/test_security_headers.py",
        ),
    ),
    "ingest-paths": Group(
        ("src/citeproof/sources/_ingest.py", "src/citeproof/sources/_build.py"),
        ("tests/security/test_symlinks.py", "tests/test_store.py", "tests/test_sources.py"),
    ),
    "live": Group(
        ("src/citeproof/outcome/_live.py",),
        (
            "tests/test_live_rules.py",
            "tests/test_live_transport.py",
            "tests/security/test_limits.py",
        ),
    ),
    "render-safety": Group(
        (
            "src/citeproof/render/_markdown_safety.py",
            "src/citeproof/render/_safe_text.py",
            "src/citeproof/render/_html_parts.py",
        ),
        (
            "tests/test_render.py",
            "tests/security/test_markdown_output.py",
            "tests/security/test_terminal_output.py",
            "tests/security/test_rendering_properties.py",
            "tests/test_golden.py",
            "tests/test_meaning.py",
        ),
        # Chromium loads: seconds a mutant; the same payloads go through markdown-it here.
        deselect="not browser",
    ),
}

_SORTED_ALREADY = (
    "the record's keys are inserted in sorted order (eligible, excluded) and its values are "
    "lists, so sorting the keys or not writes the same JSON"
)
EQUIVALENT: dict[str, str] = {
    # "<module>.<function>__mutmut_<n>": "why no test can tell it from the original",
    # Numbers follow mutmut 3.8.1 on the code as it is; re-check them when a module changes.
    **{
        f"citeproof.turn._eligibility.x__fingerprint__mutmut_{n}": (
            "sort_keys=False/None/left out: " + _SORTED_ALREADY
        )
        for n in (9, 13, 16)
    },
    **{
        "citeproof.outcome._live.x_read_payload__mutmut_" + n: (
            "json's own int parsing is exact, and as_value makes the same Decimal of the int"
        )
        for n in ("4", "7")
    },
    "citeproof.outcome._live.x__stamp__mutmut_4": (
        "datetime.now(None) is local time without a zone; astimezone(UTC) reads such a time as "
        "local, so the UTC stamp is the same (but for the repeated hour when clocks go back)"
    ),
    "citeproof.outcome._live.xǁFileLiveValuesǁfetch__mutmut_11": (
        "read(None) reads the whole file: the refusal is the same and only the memory bound is "
        "lost, which no test can see without a file of unbounded size"
    ),
    "citeproof.outcome._live.xǁFileLiveValuesǁfetch__mutmut_13": (
        "reading MAX+2 bytes instead of MAX+1: a file over the limit is refused the same way"
    ),
    **{
        "citeproof.outcome._live." + name: "codec names ignore case: the same decoding"
        for name in ("xǁFileLiveValuesǁfetch__mutmut_17", "xǁHttpLiveValuesǁfetch__mutmut_37")
    },
    "citeproof.outcome._live.xǁHttpLiveValuesǁfetch__mutmut_36": (
        "the fallback after `response.encoding or` is never reached: httpx always gives an "
        "encoding (the declared charset, else utf-8)"
    ),
    **{
        "citeproof.outcome._live.xǁHttpLiveValuesǁclient__mutmut_" + n: (
            "follow_redirects=None or left out: httpx's default is not to follow, as False says"
        )
        for n in ("4", "8")
    },
    **{
        "citeproof.outcome._live.xǁHttpLiveValuesǁ"
        + name: "HTTP header names ignore case (RFC 9110), in httpx too"
        for name in ("fetch__mutmut_7", "fetch__mutmut_8", "_body__mutmut_7", "_body__mutmut_8")
    },
    "citeproof.outcome._live.xǁHttpLiveValuesǁfetch__mutmut_25": (
        "httpx sends the method upper-cased: GET either way"
    ),
    "citeproof.outcome._live.xǁHttpLiveValuesǁ_body__mutmut_9": (
        "a missing Content-Length read as 'XXXX' instead of '': neither is digits, so the "
        "declared-length check is skipped the same way"
    ),
    "citeproof.outcome._live.xǁHttpLiveValuesǁ_body__mutmut_23": (
        "`>=` for `>` against a monotonic clock: the two differ only at one instant, which no "
        "test can land on"
    ),
    **{
        "citeproof.outcome._live.x__loopback__mutmut_" + n: (
            "httpx gives the host of http://[::1] as ::1 and lowercases names, so stripping "
            "brackets (or the characters X, [ and ]) never changes a host it passes"
        )
        for n in ("6", "7")
    },
    # quotes
    "citeproof.verifier._differences.x__vocabulary__mutmut_1": (
        "_vocabulary is only called when the module is imported, before any test runs: every "
        "mutant's run is forked from a process that imported the original"
    ),
    "citeproof.verifier._differences.x__tokens__mutmut_25": (
        "starts = None for False after a word: sentence_start is only read as true or false"
    ),
    **{
        f"citeproof.verifier._differences.x__block__mutmut_{n}": (
            "zip's strict=None/False/left out: the lengths were just found equal"
        )
        for n in (51, 54, 55)
    },
    "citeproof.verifier._judgement.x__source_wording__mutmut_11": (
        "the glue of a quote without elision joins a single piece: it is never written"
    ),
    "citeproof.verifier._judgement.x__quote_differences__mutmut_3": (
        "`or` for `and`: a quote's parse has at least one segment, so without match segments "
        "the lengths never agree and the whole-quote comparison is made either way"
    ),
    **{
        f"citeproof.verifier._judgement.x__quote_differences__mutmut_{n}": (
            "zip's strict=None/False/left out: the segment counts were just found equal"
        )
        for n in (8, 11, 12)
    },
    "citeproof.verifier.match._search.x__find_chain__mutmut_28": (
        "a chain's score times rather than over the total length: the total is the same for "
        "every chain, so the order of the chains, the only use of the score, is the same"
    ),
    **{
        f"citeproof.verifier.match._search.x__find_chain__mutmut_{n}": (
            "zip's strict=None/False/left out: a chain has one hit per segment"
        )
        for n in (33, 36, 37)
    },
    "citeproof.verifier.match._search.x__snap__mutmut_39": (
        "max(len(quote), 2) for max(len(quote), 1): they differ only for a one-character "
        "quote, whose tie is 1.5 or 3, and scores lie in [0, 1]: every option is near either way"
    ),
    "citeproof.verifier.match._search.x__extend__mutmut_21": (
        "asking for two exact placements instead of one: only the first is used"
    ),
    **{
        f"citeproof.verifier.match._index.x__tokenize__mutmut_{n}": (
            "the word ids' dtype (int64 for int32): they are only sorted and counted"
        )
        for n in (22, 24, 77, 79)
    },
    **{
        f"citeproof.verifier.match._index.x__tokenize__mutmut_{n}": what
        for n, what in (
            (10, '"ASCII" for "ascii": codec names ignore case'),
            (35, '"UTF-32-LE" for "utf-32-le": codec names ignore case'),
            (58, "the dtype of a list of bools: numpy makes it bool either way"),
            (60, "the dtype of a list of bools: numpy makes it bool either way"),
            (
                64,
                "`or True` where the code points outside ASCII are never none (the text is not "
                "ASCII)",
            ),
            (65, "the mask when no code point lies outside ASCII: the text is not ASCII here"),
            (39, "code point 128 counted with ASCII: it is no word character either way"),
            (40, "code point 128 counted with ASCII: it is no word character either way"),
        )
    },
    **{
        f"citeproof.verifier.match._index.x__tokenize__mutmut_{n}": (
            "a Source refuses a lone surrogate (SourceError), so the text encoded never holds "
            "one and the error handler is never called"
        )
        for n in (33, 36, 37)
    },
    **{
        f"citeproof.verifier.match._index.x__tokenize__mutmut_{n}": (
            "the word-by-word fallback runs only when the mask finds another number of words "
            "than `re`, and the mask agrees with `\\w` on every code point (checked over all "
            "of Unicode): the fallback never runs, and when it does it finds the same words"
        )
        for n in (70, *range(80, 97))
    },
    "citeproof.verifier.match._index.xǁTextIndexǁpostings__mutmut_1": (
        "the lock-free read skipped: under the lock the built postings are read the same"
    ),
    **{
        f"citeproof.verifier.match._cache.xǁIndexCacheǁ_measure__mutmut_{n}": (
            "the default of a size not known: _measure is only called for a kept entry, whose "
            "size is always known"
        )
        for n in (6, 8, 9)
    },
    **{
        f"citeproof.verifier.match._probe.xǁVerbatimProbeǁof__mutmut_{n}": what
        for n, what in (
            (
                10,
                "split() for split(' '): the normalised quote's only whitespace is single "
                "spaces, and empty runs are dropped",
            ),
            (
                12,
                "the empty run kept: it occurs only for an empty quote, which no text is ruled "
                "out for either way",
            ),
            (34, '"UTF-8" for "utf-8": codec names ignore case'),
        )
    },
    "citeproof.verifier.match._probe.xǁRulingsǁ_remember__mutmut_4": (
        "popitem(last=None) for last=False: only read as true or false"
    ),
    "citeproof.verifier.match._normalise.x__code_ranges__mutmut_7": (
        "`code + 1` never follows an ascending code: every code its own range, the same "
        "character class"
    ),
    # support-facts
    "citeproof.verifier.support._facts.x__backs__mutmut_20": (
        "math.isclose without rel_tol: its default is the same 1e-09"
    ),
    **{
        f"citeproof.verifier.support._facts.x__backs__mutmut_{n}": (
            "which keys the head of a word is sought among: a word's or name's key begins with "
            "a letter (the tokeniser's word pattern), so its head never equals the first "
            "letters of a number's '#' key, filtered out or not"
        )
        for n in (54, 56)
    },
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "_backs of a negation token is whether its key, the ¬ of every negation, is in the "
            "passage's keys: has_negation, which the line already reads"
        )
        for n in (18, 19)
    },
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "which opcodes skip the narrowing of a long stretch: an equal one's stretch and a "
            "long insert's are never read afterwards, so narrowing them changes nothing"
        )
        for n in (51, 53, 54)
    },
    "citeproof.verifier.support._facts.x_check_facts__mutmut_73": (
        "`i1 <= i2` lets inserts in, whose claim range is empty: the loop does nothing"
    ),
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "a claim negation in a replaced stretch never faces a passage negation there: "
            "difflib aligns any key both sides hold and every negation's key is ¬, so whether "
            "the stretch holds one is False either way"
        )
        for n in (88, 89)
    },
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "whether the claim's side negates: a replaced stretch never holds ¬ on both sides "
            "(difflib aligns any key both hold) and an inserted one has no claim side, so it "
            "is False wherever the passage's side negates; None reads as False"
        )
        for n in (142, 145, 146)
    },
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "an opcode between two others never starts at the claim's end (only the last one "
            "can), so `i1 < len(claim)` always holds there"
        )
        for n in (159, 161)
    },
    "citeproof.verifier.support._facts.x_check_facts__mutmut_183": (
        "`lead or` for `lead and`: with no lead, the alignment against nothing has no replaced "
        "stretch to turn a word in; with the passage as lead, it turns what the passage did"
    ),
    "citeproof.verifier.support._facts.x_check_facts__mutmut_250": (
        "the after-neighbour sought from i - 1: i - 1 aligned would have been the "
        "before-neighbour, and i aligned would be backed (its key is in the passage), never "
        "looked up"
    ),
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "is_content is `kind != 'stop'`, so the condition reads 'a stop word' either way; a "
            "stop word with no stretch open has nothing to flush"
        )
        for n in (331, 332)
    },
    "citeproof.verifier.support._facts.x_check_facts__mutmut_353": (
        "punctuation sought up to the word's end, not its start: a word token holds only "
        "letters, digits, '_' and apostrophes, none of which _BREAK matches"
    ),
    **{
        f"citeproof.verifier.support._facts.x_check_facts__mutmut_{n}": (
            "`or 2.0` for `or 1.0`: the weights are idf weights, never negative, so when those "
            "of a total are 0 so are those of its numerator (a conflict is never backed): 0 "
            "either way"
        )
        for n in (407, 424)
    },
    "citeproof.verifier.support._facts.x__leading_negation__mutmut_1": (
        "`and` for the last `or`: difflib never puts two unequal opcodes side by side, so a "
        "replace or insert first is always followed by an equal one; a delete first, let "
        "through, has no passage side and is refused by `j2 == j1` next"
    ),
    **{
        f"citeproof.verifier.support._facts.x__leading_negation__mutmut_{n}": (
            "the first opcode is a replace or insert (passage side never empty) followed by an "
            "equal one (claim side never empty), so `j2 == j1` and `i2 >= len(claim)` never hold"
        )
        for n in (19, 21)
    },
    **{
        f"citeproof.verifier.support._facts.x__leading_negation__mutmut_{n}": (
            "the claim's first stretch never holds a negation where the passage's ends in one: "
            "difflib aligns any key both sides hold, and every negation's key is ¬"
        )
        for n in (36, 37)
    },
    "citeproof.verifier.support._facts.x__turned__mutmut_16": (
        "`turnable or True`: with no word to turn, every stretch is read and none is turned"
    ),
    "citeproof.verifier.support._facts.x__aligned__mutmut_3": (
        "autojunk=None for False: difflib only asks whether it is true"
    ),
    "citeproof.verifier.support._facts.x__counterpart__mutmut_22": (
        "`or True`: direction() is never None for a comparative token (its last word is what "
        "made the tokeniser read it as one), so the guard never fails"
    ),
    # audit
    **{
        f"citeproof.audit._merkle.x_{function}__mutmut_{n}": (
            "`fn != 1` for `fn != 0` in the climb after a left sibling: the climb starts at an "
            "odd fn (no step) or at fn == sn != 0 (sn == 0 was refused just before), and an "
            "even fn above 0 turns odd before it reaches 0 or 1, so fn is never 0 or 1 there"
        )
        for function, n in (("verify_inclusion", 58), ("verify_consistency", 96))
    },
    "citeproof.audit._merkle.x__subproof__mutmut_18": (
        "whole=None for False: it is only read as true or false"
    ),
    "citeproof.audit._checkpoint.xǁCheckpointDirectoryǁsizes__mutmut_6": (
        "rpartition for partition: either way a name passes only as 12 digits, '.', 'json' "
        "(another dot puts a dot into the stem, which is then not all digits, or into ext)"
    ),
    "citeproof.audit._verify.x__misplaced__mutmut_35": (
        "`claimed >= position` for `>`: _misplaced is only called when claimed != position"
    ),
    # render-safety
    "citeproof.render._markdown_safety.x_canonical_url__mutmut_8": (
        r"[\x00-\x1F\x7F] for [\x00-\x1f\x7f]: hex digits ignore case, the same class"
    ),
    **{
        f"citeproof.render._markdown_safety.x__destination__mutmut_{n}": (
            "where the `<...>` form's end is chosen between the `>` and the fallback, the "
            "choices differ only when the raw destination is empty or holds a line break, "
            "which canonical_url refuses either way: the same `]\\(` edit"
        )
        for n in (40, 41, 44, 47, 49, 50, 56, 57)
    },
    "citeproof.render._markdown_safety.x__destination__mutmut_55": (
        "`close <= newline` for `<`: a `>` and a line break are never at the same index"
    ),
    **{
        f"citeproof.render._markdown_safety.x__destination__mutmut_{n}": (
            "the guard before slicing `text[begin + 1 : end - 1]`: when it fails the slice is "
            "empty anyway (or, for 'XXXX', a value without a scheme, refused like the empty one)"
        )
        for n in (60, 65, 66, 67, 68)
    },
    **{
        f"citeproof.render._markdown_safety.x__destination__mutmut_{n}": (
            "a backslash as the last character steps one past the end instead of to it: the "
            "loop ends there either way, with the same destination"
        )
        for n in (76, 78)
    },
    **{
        f"citeproof.render._markdown_safety.x__destination__mutmut_{n}": (
            "`<= 0x20` / `< 33` for `< 0x20`: the one character added, the space, already ends "
            "the destination as whitespace"
        )
        for n in (86, 87)
    },
    "citeproof.render._markdown_safety.x_neutralise_markdown__mutmut_3": (
        "rewritten_to 1 for 0: a link marker follows its `]`, so it is never before index 1"
    ),
    "citeproof.render._markdown_safety.x_neutralise_markdown__mutmut_8": (
        "`<=` for `<`: no marker can sit where a rewritten destination ends (there stands a "
        "blank, a `)`, a control character or the end, or the `<...>` form's `>` before it)"
    ),
    "citeproof.render._markdown_safety.x_neutralise_markdown__mutmut_41": (
        "zero-length link edits counted as covered: there are none (an escape is one "
        "character, a rewritten destination is never empty)"
    ),
    "citeproof.render._markdown_safety.x_neutralise_markdown__mutmut_44": (
        "`end < s`: no autolink, tag `<` or image `!` ends right where a covered edit starts "
        "(those start after a `]`, `(`, `:`, blank or line break, or at an autolink's `<`, "
        "which no `<` or `!` candidate can precede)"
    ),
    "citeproof.render._markdown_safety.x_neutralise_markdown__mutmut_76": (
        "a tag `<` is followed by a letter, `/`, `!` or `?`, and no covered edit starts on "
        "such a character right after a `<`: widening the check by one finds nothing new"
    ),
    "citeproof.render._markdown_safety.x__escaped__mutmut_13": (
        "position + start has the parity of position - start"
    ),
    "citeproof.render._html_parts.x__fold__mutmut_9": (
        "'XXXX'.join of the characters is as injective as ''.join: equal folds stay equal"
    ),
    "citeproof.render._safe_text.x_visible__mutmut_5": (
        "marks[+1] is marks[-1] for the two characters every caller passes (its contract)"
    ),
    **{
        f"citeproof.render._safe_text.x_safe_console__mutmut_{n}": (
            "Rich reads None as off for markup, highlight and emoji: " + what
        )
        for n, what in ((3, "markup"), (4, "highlight"), (5, "emoji"))
    },
    "citeproof.render._safe_text.x__json_escape__mutmut_7": (
        '"UTF-16-BE" for "utf-16-be": codec names ignore case'
    ),
    "citeproof.render._safe_text.x__json_escape__mutmut_14": (
        'int.from_bytes without "big": big is its default since Python 3.11'
    ),
    "citeproof.render._safe_text.x_json_text__mutmut_3": (
        "ensure_ascii=None for False: json.dumps only asks whether it is true"
    ),
    "citeproof.turn._eligibility.x__fingerprint__mutmut_11": (
        "ensure_ascii=None for False: json.dumps only asks whether it is true"
    ),
    "citeproof.turn._eligibility.x__fingerprint__mutmut_26": (
        '"UTF-8" for "utf-8": Python\'s codec names ignore case, the bytes are the same'
    ),
    # server-guards
    **{
        "citeproof.server." + name: (
            "a header name in another case: Starlette lowercases the names of a response's "
            "headers and of its lookups, so the bytes sent and the header read are the same"
        )
        for name in (
            "_guards.xǁBodyTimeoutǁ__init____mutmut_18",
            "_guards.xǁBodyTimeoutǁ__init____mutmut_19",
            "_auth.xǁRateLimiterǁtake__mutmut_51",
            "_auth.xǁRateLimiterǁtake__mutmut_52",
            "_auth.xǁAuthenticatorǁprincipal__mutmut_30",
            "_auth.xǁAuthenticatorǁprincipal__mutmut_31",
            "_auth.xǁAuthenticatorǁprincipal__mutmut_58",
            "_auth.xǁAuthenticatorǁprincipal__mutmut_59",
            "_auth.x__bearer__mutmut_4",
            "_auth.x__bearer__mutmut_37",
            "_auth.x__bearer__mutmut_38",
        )
    },
    **{
        "citeproof.server._guards.xǁEdgeMiddlewareǁ__call____mutmut_" + n: (
            "a security header's name upper-cased: HTTP header names ignore case (RFC 9110), "
            "so every client reads the same header"
        )
        for n in ("68", "73", "77", "81", "85", "89")
    },
    **{
        "citeproof.server._guards.xǁEdgeMiddlewareǁ__call____mutmut_" + n: (
            '"ASCII" for "ascii": codec names ignore case, the same bytes and text'
        )
        for n in ("19", "71")
    },
    **{
        "citeproof.server._guards.xǁEdgeMiddlewareǁ__call____mutmut_" + n: (
            "receive=None for a problem reply: a Starlette Response only sends, it never reads"
        )
        for n in ("106", "133")
    },
    "citeproof.server._guards.xǁEdgeMiddlewareǁ__call____mutmut_41": (
        "responded = None for False: it is only ever read as true or false"
    ),
    "citeproof.server._guards.xǁEdgeMiddlewareǁ_limited__mutmut_3": (
        "complete = None for False: it is only ever read as true or false"
    ),
    **{
        "citeproof.server._guards.xǁEdgeMiddlewareǁ_limited__mutmut_" + n: (
            "more_body missing read as None instead of False: `not` makes both True"
        )
        for n in ("22", "24")
    },
}


def copy_tree(dest: Path) -> None:
    """The checkout as it is at ``dest``: all of ``src/`` (package data a build put there
    too, such as model files), and elsewhere the tracked and new files, not ignored ones."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns("__pycache__"))
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        name = raw.decode()
        source = ROOT / name
        if name.startswith("src/") or not source.is_file() or source.is_symlink():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def configure(dest: Path, group: Group) -> None:
    """mutmut's settings for one group, in the copy's own pyproject.toml."""
    args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-q"]
    if group.deselect:
        args += ["-k", group.deselect]
    settings = {
        "source_paths": ["src"],
        "also_copy": ["examples"],  # beside tests/, which mutmut copies itself
        "only_mutate": list(group.modules),
        "pytest_add_cli_args_test_selection": list(group.tests),
        "pytest_add_cli_args": args,
        "timeout_multiplier": group.timeout_multiplier,
    }
    lines = ["", "[tool.mutmut]"] + [
        f"{key} = {json.dumps(value)}" for key, value in settings.items()
    ]
    with (dest / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


@dataclass
class Outcome:
    name: str
    seconds: float
    counts: dict[str, int]
    survivors: list[tuple[str, str]]  # (mutant, diff)

    @property
    def equivalent(self) -> list[tuple[str, str]]:
        return [(m, d) for m, d in self.survivors if m in EQUIVALENT]

    @property
    def live(self) -> list[tuple[str, str]]:
        return [(m, d) for m, d in self.survivors if m not in EQUIVALENT]

    @property
    def caught(self) -> int:
        """Mutants a test run stopped: failed, or ran past mutmut's time limit (a loop the
        mutation made endless, which a test would never finish on either)."""
        return self.counts.get("killed", 0) + self.counts.get("timeout", 0)

    @property
    def score(self) -> float:
        judged = self.counts.get("total", 0) - len(self.equivalent)
        return self.caught / judged if judged else 1.0


def mutmut(dest: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mutmut", *args],
        cwd=dest,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def run_group(name: str, group: Group, out: Path, jobs: int) -> Outcome:
    dest = out / name
    copy_tree(dest)
    configure(dest, group)
    # Subprocesses the tests start (the CLI, a server) import the mutated copy too. The
    # folder must exist before mutmut starts: Python skips, for good, a path entry that was
    # missing when it first looked.
    mutated = dest / "mutants" / "src"
    mutated.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(mutated)
    started = time.monotonic()
    run = mutmut(dest, "run", "--max-children", str(jobs), env=env)
    seconds = time.monotonic() - started
    (out / f"{name}.log").write_text(run.stdout[-20_000:] + run.stderr[-20_000:], "utf-8")
    if run.returncode != 0:
        raise SystemExit(f"mutmut failed on group {name}: see {out / f'{name}.log'}")
    mutmut(dest, "export-cicd-stats", env=env)
    counts = json.loads((dest / "mutants" / "mutmut-cicd-stats.json").read_text("utf-8"))
    listed = mutmut(dest, "results", env=env).stdout
    names = re.findall(r"^\s*(\S+): (?:survived|no tests)$", listed, re.MULTILINE)
    diffs = _diffs(dest, names, env)
    survivors = [
        (mutant, "\n".join(line for line in diffs[mutant].splitlines() if line[:1] in "+-@"))
        for mutant in names
    ]
    return Outcome(name, seconds, counts, survivors)


# `mutmut show` for many mutants in one process (mutmut 3.8.1's own functions): a process
# each takes a second apiece, minutes for a group with a few hundred survivors.
_SHOW_ALL = """
import json, sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
names = json.load(sys.stdin)
print(json.dumps({n: get_diff_for_mutant(n, path=find_mutant(n).path) for n in names}))
"""


def _diffs(dest: Path, names: list[str], env: dict[str, str]) -> dict[str, str]:
    shown = subprocess.run(
        [sys.executable, "-c", _SHOW_ALL],
        cwd=dest,
        env=env,
        input=json.dumps(names),
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, str] = json.loads(shown.stdout)
    return found


def write_report(outcomes: list[Outcome], path: Path) -> None:
    total = sum(o.counts.get("total", 0) for o in outcomes)
    killed = sum(o.caught for o in outcomes)
    equivalent = sum(len(o.equivalent) for o in outcomes)
    lines = [
        "# Mutation testing: survivors",
        "",
        f"mutmut on {len(outcomes)} group(s); caught {killed} (killed or timed out) of "
        f"{total - equivalent} mutants that are not equivalent "
        f"({killed / max(total - equivalent, 1):.1%}); {equivalent} equivalent.",
        "",
        "| group | mutants | killed | survived | no tests | timeout | equivalent | score | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        c = o.counts
        lines.append(
            f"| {o.name} | {c.get('total', 0)} | {c.get('killed', 0)} | {c.get('survived', 0)} "
            f"| {c.get('no_tests', 0)} | {c.get('timeout', 0)} | {len(o.equivalent)} "
            f"| {o.score:.1%} | {o.seconds:.0f} s |"
        )
    for o in outcomes:
        lines += ["", f"## {o.name}: {len(o.live)} survivor(s)"]
        for mutant, diff in o.live:
            lines += ["", f"### `{mutant}`", "", "```diff", diff, "```"]
        for mutant, _ in o.equivalent:
            lines += ["", f"- equivalent: `{mutant}`: {EQUIVALENT[mutant]}"]
    path.write_text("\n".join(lines) + "\n", "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"of: {', '.join(GROUPS)} (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "mutation")
    parser.add_argument("--list", action="store_true", help="show the groups and stop")
    args = parser.parse_args()
    if args.list:
        for name, group in GROUPS.items():
            print(f"{name}: {' '.join(group.modules)}\n    tests: {' '.join(group.tests)}")
        return 0
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; expected some of {', '.join(GROUPS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for name in args.groups or list(GROUPS):
        outcome = run_group(name, GROUPS[name], args.out, args.jobs)
        c = outcome.counts
        print(
            f"{name}: {outcome.caught}/{c.get('total', 0)} caught, "
            f"{len(outcome.live)} survivor(s), {len(outcome.equivalent)} equivalent, "
            f"{outcome.seconds:.0f} s",
            flush=True,
        )
        outcomes.append(outcome)
        write_report(outcomes, args.out / "report.md")
    print(f"report: {args.out / 'report.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

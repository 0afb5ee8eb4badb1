"""Which sources a turn may show the model and cite (012.1, 012.3).

One call per turn: `decide_eligibility` looks at every candidate (retrieved or attached for
this turn) and keeps those the user may see, that are the current version, and that fit the
prompt budget. The frozen `Eligibility` it returns is what every later stage takes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from citeproof.canonical import canonical_json
from citeproof.errors import PolicyError
from citeproof.model import Candidate, Eligibility, Exclusion

DEFAULT_BUDGET_CHARS = 24_000
"""Characters of source text a prompt may carry: about 6,000 tokens of English."""


def decide_eligibility(
    candidates: Sequence[Candidate],
    *,
    user: str | None,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
    known_ids: Sequence[str] = (),
) -> Eligibility:
    """The turn's eligibility, candidates considered in the order given (best first).

    ``known_ids`` are other sources the caller knows of (say, the whole store) that were not
    retrieved or attached: they are recorded as excluded ``not_in_turn`` so a citation to them
    says why it is refused.
    """
    if budget_chars <= 0:
        raise PolicyError("must be > 0", field="budget_chars")
    eligible: list[str] = []
    excluded: list[Exclusion] = []
    used = 0
    for candidate in candidates:
        sid = candidate.source.id
        if sid in eligible or any(e.source_id == sid for e in excluded):
            continue
        if candidate.superseded:
            excluded.append(Exclusion(sid, "superseded", "a newer version of this source exists"))
        elif candidate.acl is not None and (user is None or user not in candidate.acl):
            who = f"user {user!r}" if user else "an anonymous user"
            excluded.append(Exclusion(sid, "not_permitted", f"not permitted for {who}"))
        elif used + candidate.chars > budget_chars:
            excluded.append(
                Exclusion(
                    sid,
                    "over_budget",
                    f"{candidate.chars:,} characters would exceed the prompt budget "
                    f"({used:,} of {budget_chars:,} used)",
                )
            )
        else:
            used += candidate.chars
            eligible.append(sid)
    seen = set(eligible) | {e.source_id for e in excluded}
    for sid in known_ids:
        if sid not in seen:
            seen.add(sid)
            excluded.append(Exclusion(sid, "not_in_turn", "not retrieved or attached this turn"))
    return Eligibility(tuple(eligible), tuple(excluded), _fingerprint(eligible, excluded))


def _fingerprint(eligible: Sequence[str], excluded: Sequence[Exclusion]) -> str:
    record = {
        "eligible": list(eligible),
        "excluded": [[e.source_id, e.reason] for e in excluded],
    }
    return "elig_" + hashlib.sha256(canonical_json(record)).hexdigest()[:16]

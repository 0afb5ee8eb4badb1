"""What follows verification: evidence → validation → live values → rules → the audit payload.

`evidence` builds the immutable evidence bundle, `validate` checks every claim has well-formed
evidence, `live` fetches live values (never evidence), `rules` decides deterministic business
rules, `payload` gathers the audit record, `recording` runs these in order and appends the
record to the audit log, and `replay` runs a logged record again. `codec` writes and reads the
record's sources, policy and eligibility; `verify_again` re-verifies a logged answer (for
replay, audit sampling and re-validation). `contract` is the JSON form of the verified answer
and of a batch line.
"""

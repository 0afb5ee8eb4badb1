"""One turn before verification: retrieve → (rerank) → eligibility → prompt, and the pipeline.

`retrieve` finds passages in the source store, `rerank` optionally reorders them (with the
MiniLM encoder of `citeproof.embedding`), `eligibility` decides once per turn which sources
may be shown and cited, `prompt` builds the messages from the eligible sources only, and
`pipeline` runs the whole turn in that order, through generation and verification: the only
place that knows the order.
"""

"""Verification of one answer against its sources: parse → judge → correct.

`parse` finds the claims, quotes and citation markers; `match` locates a quote in a source;
`catalog` resolves citation labels to the turn's sources; `judgement` gives each quote
occurrence its verdict (primary source, then secondary, then not found); `correct` applies the
correction policy per source kind; `verification.verify` runs them in that order.
"""

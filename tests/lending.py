"""Realistic sources of a lending team, shared by the verification tests."""

from __future__ import annotations

from citeproof import Source

POLICY_TEXT = """\
Residential Credit Policy, revision 7

1. Scope. This policy applies to every residential mortgage application received on or after \
1 March 2026, including refinancing and further advances.

2. Loan-to-value. Applications with a loan-to-value ratio above 80% must be referred to a senior \
underwriter before an offer is issued. Applications above 95% are declined.

3. Affordability. The applicant's total monthly debt payments, including the proposed mortgage, \
must not exceed 45% of verified gross monthly income.

4. Verification of income. Self-employed applicants must provide two years of certified accounts \
or tax calculations; a single year is accepted only with a senior underwriter's approval.

5. Exceptions. Any exception to sections 2 to 4 must be recorded in the case notes with the \
name of the approving underwriter and the reason for the exception."""

EMAIL_TEXT = """\
Hi Priya,

Quick update on the Hartley application: the valuation came back at £412,000, so the \
loan-to-value is now 83%.

Under the new policy I think we have to refer it to a senior underwriter before we send the \
offer. Can you pick it up tomorrow morning?

Thanks,
Dan"""

MEMO_TEXT = """\
Underwriting memo: Hartley, case 2026-0412

The applicant is self-employed and provided one year of certified accounts.

Approval of the single year of accounts was given by M. Osei, senior underwriter, on 12 March 2026.

The case is referred for the loan-to-value exception under section 2."""

POLICY = Source(
    id="S1",
    kind="document",
    text=POLICY_TEXT,
    title="Residential Credit Policy rev. 7",
    doc_id="credit-policy",
    version="7",
    url="file:///policies/credit-policy-rev7.pdf",
)
EMAIL = Source(id="S2", kind="email_body", text=EMAIL_TEXT, title="Re: Hartley valuation")
MEMO = Source(id="S3", kind="attachment", text=MEMO_TEXT, title="hartley-memo.docx")

SOURCES = (POLICY, EMAIL, MEMO)


def paragraph_of(source: Source, fragment: str) -> int:
    """The 1-based paragraph of ``source`` that holds ``fragment``."""
    start = source.text.index(fragment)
    for number, (s, e) in enumerate(source.paragraph_spans(), start=1):
        if s <= start < e:
            return number
    raise AssertionError(f"{fragment!r} is in no paragraph")

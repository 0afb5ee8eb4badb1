"""Real files for the source tests, built at test time with the libraries a user's tools use:
messages with `email.message.EmailMessage` (as a mail client writes them), PDFs with fpdf2,
Word files with python-docx.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import docx
from fpdf import FPDF

POLICY_PARAGRAPHS = (
    "Residential Credit Policy, revision 7",
    "Loan-to-value. Applications with a loan-to-value ratio above 80% must be referred to a "
    "senior underwriter before an offer is issued. Applications above 95% are declined.",
    "Affordability. Total monthly debt payments, including the proposed mortgage, must not "
    "exceed 45% of verified gross monthly income.",
    "Exceptions. Any exception must be recorded in the case notes with the name of the "
    "approving underwriter and the reason for the exception.",
)
MEMO_PARAGRAPHS = (
    "Hartley application: underwriting memo",
    "The surveyor valued the property at 412,000 pounds, below the purchase price.",
    "We recommend referral to a senior underwriter under section 2 of the policy.",
)
MEMO_TABLE = (("Item", "Value"), ("Valuation", "412,000"), ("Loan-to-value", "83%"))
SUBJECT = "Résumé of the Hartley valuation – next steps"
ENCODED_SUBJECT = "=?utf-8?q?R=C3=A9sum=C3=A9_of_the_Hartley_valuation_=E2=80=93_next_steps?="
PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def pdf_bytes(paragraphs: Sequence[str] = POLICY_PARAGRAPHS, *, title: str | None = None) -> bytes:
    """A text PDF, one paragraph per ``multi_cell`` with vertical space between them."""
    return pages_pdf_bytes((paragraphs,), title=title)


def pages_pdf_bytes(pages: Sequence[Sequence[str]], *, title: str | None = None) -> bytes:
    """A text PDF of several pages, each the paragraphs given for it, as `pdf_bytes` lays
    them out."""
    pdf = FPDF()
    if title:
        pdf.set_title(title)
    for paragraphs in pages:
        pdf.add_page()
        pdf.set_font("Helvetica", size=11)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 5, paragraph)
            pdf.ln(4)
    return bytes(pdf.output())


def docx_bytes(
    paragraphs: Sequence[str] = MEMO_PARAGRAPHS,
    table: Sequence[Sequence[str]] = MEMO_TABLE,
    *,
    title: str | None = None,
) -> bytes:
    """A Word file: a heading, body paragraphs, an empty paragraph, then a table."""
    document = docx.Document()
    document.add_heading(paragraphs[0], level=1)
    for paragraph in paragraphs[1:]:
        document.add_paragraph(paragraph)
    document.add_paragraph("")
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    if title:
        document.core_properties.title = title
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _message(subject: str, message_id: str, sender: str = "Dan Mercer <dan@lending.example>"):
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "Priya Shah <priya@lending.example>"
    message["Date"] = "Tue, 10 Mar 2026 16:42:05 +0000"
    message["Message-ID"] = f"<{message_id}>"
    message["Subject"] = subject
    return message


def message_with_attachments(message_id: str = "hartley-1@lending.example") -> EmailMessage:
    """multipart/mixed: text/plain and text/html alternatives, a PDF, a DOCX with a
    non-ASCII (RFC 2231) file name, and a PNG that citeproof does not read."""
    message = _message(ENCODED_SUBJECT, message_id)
    message.set_content(
        "Hi Priya,\n\nThe valuation came back at 412,000 pounds, so the loan-to-value is 83%.\n\n"
        "The policy and my memo are attached.\n\nThanks,\nDan\n"
    )
    message.add_alternative(
        "<html><body><p>Hi Priya,</p><p>The valuation came back at <b>412,000 pounds</b>, so "
        "the loan-to-value is 83%.</p><p>Thanks,<br>Dan</p></body></html>",
        subtype="html",
    )
    message.add_attachment(
        pdf_bytes(title="Credit policy"),
        maintype="application",
        subtype="pdf",
        filename="credit-policy.pdf",
    )
    message.add_attachment(
        docx_bytes(),
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
        filename="Mémo Hartley.docx",
    )
    message.add_attachment(PNG_BYTES, maintype="image", subtype="png", filename="logo.png")
    return message


def latin1_message() -> EmailMessage:
    """A body declared ``iso-8859-1``, sent 8-bit."""
    message = _message("Frais de dossier", "frais@lending.example")
    message.set_content(
        "Les frais de dossier sont de 250 EUR pour un prêt à taux fixe.\n\nCordialement, Zoé\n",
        charset="iso-8859-1",
        cte="8bit",
    )
    return message


def quoted_printable_message() -> EmailMessage:
    """A UTF-8 body in quoted-printable, with a line longer than 76 characters."""
    message = _message("Rate sheet =?utf-8?q?r=C3=A9vis=C3=A9e?=", "qp@lending.example")
    message.set_content(
        "The two-year fixed rate for borrowers under 60% loan-to-value is now 4.15% and the "
        "arrangement fee stays at 999 pounds — café discussion to follow.\n",
        charset="utf-8",
        cte="quoted-printable",
    )
    return message


def html_only_message() -> EmailMessage:
    """No text/plain part: the body is HTML with a style block, a script and a table."""
    message = _message("Broker update", "html-only@lending.example")
    message.set_content(
        "<html><head><title>ignored</title><style>p { color: red }</style></head><body>"
        "<h1>Broker update</h1><p>The broker confirmed the &quot;Hartley&quot; deposit of "
        "10%.</p><script>alert('x')</script><div>Completion is expected in <i>April</i>.</div>"
        "<table><tr><td>Deposit</td><td>41,200</td></tr></table></body></html>",
        subtype="html",
    )
    return message


def reply_message() -> EmailMessage:
    """A reply: new text, then an "On ... wrote:" line and ``>`` quoted history."""
    message = _message("Re: Hartley valuation", "reply@lending.example")
    message["In-Reply-To"] = "<hartley-1@lending.example>"
    message.set_content(
        "Thanks Dan, I will refer it to a senior underwriter tomorrow morning.\n"
        "Priya\n"
        "\n"
        "On Tue, 10 Mar 2026 at 16:42, Dan Mercer <dan@lending.example> wrote:\n"
        "> Hi Priya,\n"
        ">\n"
        "> The valuation came back at 412,000 pounds, so the loan-to-value is 83%.\n"
    )
    return message


@dataclass(frozen=True)
class Mailbox:
    """The files one test folder holds, by what they are."""

    root: Path
    with_attachments: Path
    latin1: Path
    quoted_printable: Path
    html_only: Path
    reply: Path
    pdf: Path
    docx: Path
    html: Path
    markdown: Path
    text: Path

    @property
    def messages(self) -> tuple[Path, ...]:
        return (self.with_attachments, self.latin1, self.quoted_printable, self.html_only,
                self.reply)  # fmt: skip

    @property
    def documents(self) -> tuple[Path, ...]:
        return (self.pdf, self.docx, self.html, self.markdown, self.text)


def write_message(path: Path, message: EmailMessage) -> Path:
    path.write_bytes(bytes(message))
    return path


def build_mailbox(root: Path) -> Mailbox:
    """Write every fixture file under ``root`` (mail in ``mail/``, documents in ``docs/``)."""
    mail = root / "mail"
    docs = root / "docs"
    mail.mkdir(parents=True, exist_ok=True)
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "policy.pdf").write_bytes(pdf_bytes(title="Credit policy"))
    (docs / "memo.docx").write_bytes(docx_bytes(title="Hartley memo"))
    (docs / "rates.html").write_text(
        "<!doctype html><html><head><title>Rate sheet</title><style>.x{}</style>"
        "<script>var rate = 9.99;</script></head><body><h1>Rate sheet</h1>"
        "<p>Two-year fixed: 4.15%.</p><p hidden>Internal margin: 1.2%.</p>"
        "<ul><li>Arrangement fee: 999 pounds</li><li>Valuation fee: free</li></ul></body></html>",
        encoding="utf-8",
    )
    (docs / "procedure.md").write_text(
        "# Referral procedure\nReferrals go to the senior underwriter on duty.\n\n"
        "## Timing\nA referral is answered within two working days.\n",
        encoding="utf-8",
    )
    (docs / "notes.txt").write_text(
        "Call notes, 9 March.\n\nThe broker asked about early repayment charges.\n",
        encoding="utf-8",
    )
    return Mailbox(
        root=root,
        with_attachments=write_message(mail / "hartley.eml", message_with_attachments()),
        latin1=write_message(mail / "frais.eml", latin1_message()),
        quoted_printable=write_message(mail / "rates.eml", quoted_printable_message()),
        html_only=write_message(mail / "broker.eml", html_only_message()),
        reply=write_message(mail / "reply.eml", reply_message()),
        pdf=docs / "policy.pdf",
        docx=docs / "memo.docx",
        html=docs / "rates.html",
        markdown=docs / "procedure.md",
        text=docs / "notes.txt",
    )


def write_broken_files(folder: Path) -> dict[str, Path]:
    """A truncated PDF, a .docx that is not a zip, and a .txt that is not UTF-8."""
    folder.mkdir(parents=True, exist_ok=True)
    truncated = folder / "truncated.pdf"
    whole = pdf_bytes()
    truncated.write_bytes(whole[: len(whole) // 3])
    not_zip = folder / "not-a-zip.docx"
    not_zip.write_bytes(b"PK\x03\x04 this is not really a zip archive")
    latin1 = folder / "latin1.txt"
    latin1.write_bytes("Frais de dossier: 250 EUR, prêt à taux fixe.\n".encode("latin-1"))
    return {"pdf": truncated, "docx": not_zip, "txt": latin1}

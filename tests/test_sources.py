"""Readers on real files built at test time: mail as a mail client writes it, PDF, DOCX,
HTML, Markdown and text; plus the Enron sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeproof.errors import SourceError
from citeproof.sources import read_source_file
from citeproof.sources._build import FileDrafts, read_file
from citeproof.sources._segment import email_paragraphs
from tests.mailfixtures import (
    MEMO_PARAGRAPHS,
    POLICY_PARAGRAPHS,
    SUBJECT,
    Mailbox,
    build_mailbox,
    write_broken_files,
)

ENRON = Path(__file__).resolve().parent / "fixtures" / "enron"  # origin, licence: README.md


@pytest.fixture(scope="module")
def mailbox(tmp_path_factory: pytest.TempPathFactory) -> Mailbox:
    return build_mailbox(tmp_path_factory.mktemp("mailbox"))


def paragraphs(drafts: FileDrafts, index: int = 0) -> list[str]:
    draft = drafts.drafts[index]
    return [draft.text[s:e] for s, e in draft.paragraphs]


def test_encoded_subject_is_decoded_into_the_title(mailbox: Mailbox) -> None:
    assert b"=?utf-8?q?" in mailbox.with_attachments.read_bytes()
    body = read_file(mailbox.with_attachments).drafts[0]
    assert body.kind == "email_body"
    assert body.title == SUBJECT
    assert body.message_id == "hartley-1@lending.example"


def test_plain_text_alternative_is_preferred_over_html(mailbox: Mailbox) -> None:
    assert paragraphs(read_file(mailbox.with_attachments)) == [
        "Hi Priya,",
        "The valuation came back at 412,000 pounds, so the loan-to-value is 83%.",
        "The policy and my memo are attached.",
        "Thanks,\nDan",
    ]


def test_each_attachment_is_its_own_source_linked_to_its_message(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.with_attachments)
    body, pdf, word = drafts.drafts
    assert (pdf.kind, pdf.title) == ("attachment", "credit-policy.pdf")
    assert (word.kind, word.title) == ("attachment", "Mémo Hartley.docx")
    for attachment in (pdf, word):
        assert attachment.parent_doc_id == body.doc_id
        assert attachment.message_id == "hartley-1@lending.example"
        assert attachment.id.startswith("a-")
        assert attachment.url.startswith(body.url + "#attachment=")
    assert pdf.url.endswith("#attachment=credit-policy.pdf")


def test_pdf_attachment_reads_as_paragraphs(mailbox: Mailbox) -> None:
    assert paragraphs(read_file(mailbox.with_attachments), 1) == list(POLICY_PARAGRAPHS)


def test_docx_attachment_reads_paragraphs_then_table_rows(mailbox: Mailbox) -> None:
    assert paragraphs(read_file(mailbox.with_attachments), 2) == [
        *MEMO_PARAGRAPHS,
        "Item | Value",
        "Valuation | 412,000",
        "Loan-to-value | 83%",
    ]


def test_attachment_in_an_unread_format_is_skipped_and_named(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.with_attachments)
    assert drafts.problems == ()
    assert len(drafts.skipped) == 1
    assert "logo.png" in drafts.skipped[0] and "image/png" in drafts.skipped[0]


def test_latin1_body_is_decoded(mailbox: Mailbox) -> None:
    assert b"pr\xeat" in mailbox.latin1.read_bytes()
    assert paragraphs(read_file(mailbox.latin1)) == [
        "Les frais de dossier sont de 250 EUR pour un prêt à taux fixe.",
        "Cordialement, Zoé",
    ]


def test_quoted_printable_body_is_decoded_and_unwrapped(mailbox: Mailbox) -> None:
    assert b"=E2=80=94" in mailbox.quoted_printable.read_bytes()
    body = read_file(mailbox.quoted_printable).drafts[0]
    assert body.title == "Rate sheet révisée"
    assert "999 pounds — café discussion to follow." in body.text
    assert "=\n" not in body.text


def test_html_only_body_is_converted_to_paragraphs(mailbox: Mailbox) -> None:
    assert paragraphs(read_file(mailbox.html_only)) == [
        "Broker update",
        'The broker confirmed the "Hartley" deposit of 10%.',
        "Completion is expected in April.",
        "Deposit | 41,200",
    ]


def test_quoted_reply_history_is_kept_and_marked(mailbox: Mailbox) -> None:
    body = read_file(mailbox.reply).drafts[0]
    assert "> The valuation came back at 412,000 pounds" in body.text
    [(start, end)] = body.quoted_spans
    quoted = body.text[start:end]
    assert quoted.startswith("On Tue, 10 Mar 2026 at 16:42, Dan Mercer")
    assert quoted.endswith("the loan-to-value is 83%.")
    assert "I will refer it" not in quoted


def test_quoting_splits_a_paragraph_that_runs_into_quoted_lines() -> None:
    text = "Agreed.\nOn Mon, 9 Mar 2026, Bob\n<bob@example.com> wrote:\n> old text\n> more\n"
    segmented = email_paragraphs(text)
    shown = [text[s:e] for s, e in segmented.paragraphs]
    assert shown == [
        "Agreed.",
        "On Mon, 9 Mar 2026, Bob\n<bob@example.com> wrote:\n> old text\n> more",
    ]
    assert [text[s:e] for s, e in segmented.quoted_spans] == shown[1:]


def test_outlook_original_message_block_is_quoted_history() -> None:
    text = "Fine by me.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\n\nOld text.\n"
    segmented = email_paragraphs(text)
    [(start, end)] = segmented.quoted_spans
    assert text[start:end].startswith("-----Original Message-----")
    assert text[start:end].endswith("Old text.")


def test_html_blockquote_is_quoted_history() -> None:
    from citeproof.sources._html_reader import html_to_text

    page = html_to_text(
        "<div>Sounds good.</div><div class='gmail_quote'><div>On Mon, Bob wrote:</div>"
        "<blockquote><p>Old one<p>Older</blockquote></div><p>PS: thanks</p>"
    )
    assert [page.text[s:e] for s, e in page.quoted_spans] == [
        "On Mon, Bob wrote:\n\nOld one\n\nOlder"
    ]
    assert page.text.endswith("PS: thanks")


def test_pdf_document_reads_with_its_metadata_title(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.pdf)
    assert drafts.drafts[0].kind == "document"
    assert drafts.drafts[0].title == "Credit policy"
    assert paragraphs(drafts) == list(POLICY_PARAGRAPHS)


def test_docx_document_reads_with_its_core_title(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.docx)
    assert drafts.drafts[0].title == "Hartley memo"
    assert paragraphs(drafts)[:3] == list(MEMO_PARAGRAPHS)


def test_html_keeps_visible_text_only(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.html)
    assert drafts.drafts[0].title == "Rate sheet"
    assert paragraphs(drafts) == [
        "Rate sheet",
        "Two-year fixed: 4.15%.",
        "Arrangement fee: 999 pounds",
        "Valuation fee: free",
    ]
    assert "9.99" not in drafts.drafts[0].text and "margin" not in drafts.drafts[0].text


def test_markdown_headings_are_their_own_paragraphs(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.markdown)
    assert drafts.drafts[0].title == "Referral procedure"
    assert paragraphs(drafts) == [
        "# Referral procedure",
        "Referrals go to the senior underwriter on duty.",
        "## Timing",
        "A referral is answered within two working days.",
    ]


def test_text_paragraphs_are_blank_line_blocks_titled_by_file_name(mailbox: Mailbox) -> None:
    drafts = read_file(mailbox.text)
    assert drafts.drafts[0].title == "notes.txt"
    assert paragraphs(drafts) == [
        "Call notes, 9 March.",
        "The broker asked about early repayment charges.",
    ]


def test_every_source_has_ids_version_url_and_spans_into_its_text(mailbox: Mailbox) -> None:
    for path in (*mailbox.messages, *mailbox.documents):
        for draft in read_file(path).drafts:
            source = draft.source("2026-03-10T16:42:05Z")
            assert source.id[:2] in ("d-", "e-", "a-") and len(source.id) == 14
            assert source.doc_id and source.version and source.url
            assert source.url.startswith("file:///")
            assert draft.content_hash.startswith("sha256:")
            assert source.version == draft.content_hash[7:19]
            for start, end in source.paragraph_spans():
                assert source.text[start:end] == source.text[start:end].strip() != ""


def test_ids_do_not_depend_on_the_folder_order_or_a_second_read(mailbox: Mailbox) -> None:
    paths = [*mailbox.messages, *mailbox.documents]
    forward = [d.id for p in paths for d in read_file(p).drafts]
    backward = [d.id for p in reversed(paths) for d in read_file(p).drafts]
    assert sorted(forward) == sorted(backward)
    assert len(set(forward)) == len(forward)


def test_given_version_replaces_the_content_hash(mailbox: Mailbox) -> None:
    assert read_file(mailbox.pdf, version="rev-7").drafts[0].version == "rev-7"


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("pdf", "cannot read the PDF: damaged or truncated"),
        ("docx", "cannot read the DOCX (not a valid Word package"),
        ("txt", "invalid UTF-8 at byte"),
    ],
)
def test_broken_file_gives_a_clear_error_naming_it(
    tmp_path: Path, kind: str, expected: str
) -> None:
    path = write_broken_files(tmp_path)[kind]
    with pytest.raises(SourceError) as raised:
        read_file(path)
    assert str(path) in str(raised.value)
    assert expected in str(raised.value)


def test_read_source_file_reads_pdf_and_docx_for_verify(mailbox: Mailbox) -> None:
    pdf = read_source_file(mailbox.pdf)
    assert (pdf.id, pdf.kind, pdf.title) == ("policy", "document", "policy.pdf")
    assert pdf.paragraph_spans() and POLICY_PARAGRAPHS[1] in pdf.text
    memo = read_source_file(mailbox.docx, source_id="S2")
    assert memo.id == "S2" and "Valuation | 412,000" in memo.text
    email = read_source_file(mailbox.reply)
    assert email.kind == "email_body" and email.title == "reply.eml"


def test_read_source_file_rejects_an_unread_format(tmp_path: Path) -> None:
    path = tmp_path / "sheet.xlsx"
    path.write_bytes(b"PK")
    with pytest.raises(SourceError, match=r"sheet\.xlsx.*cannot read \.xlsx"):
        read_source_file(path)


def test_enron_sample_messages_read_as_email_bodies() -> None:
    messages = sorted(ENRON.glob("*.eml"))
    assert len(messages) == 5
    for path in messages:
        drafts = read_file(path)
        body = drafts.drafts[0]
        assert body.kind == "email_body" and body.message_id
        assert body.title and body.text.strip() and body.paragraphs
    forwarded = read_file(ENRON / "buy-r__discussion_threads__10.eml").drafts[0]
    assert forwarded.title == "Remote office BRM-#2"
    assert "Has anything similar to the following ever been completed" in forwarded.text

"""Readers on real files built at test time: mail as a mail client writes it, PDF, DOCX,
HTML, Markdown and text; plus the Enron sample."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from citeproof.errors import SourceError
from citeproof.sources import ReadLimits, read_source_file, readable_path
from citeproof.sources._build import FileDrafts, read_file
from citeproof.sources._ids import attachment_doc_id, file_doc_id, message_doc_id
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


def message_of_every_attachment_kind(path: Path) -> Path:
    """A message whose attachments are, in order: an image, an empty text, a broken PDF, an
    oversized text, two texts both named ``notes`` (no suffix: known by their type; the first
    in KOI8-R), a message saved as ``fwd.eml`` sent as octet-stream, and a forwarded message
    named ``forwarded``. Each one that is not read comes before one that is."""
    forwarded = EmailMessage()
    forwarded["From"] = "priya@lending.example"
    forwarded["Subject"] = "Forwarded valuation"
    forwarded.set_content("The valuation came back at 412,000.\n")
    saved = EmailMessage()
    saved["From"] = "dan@lending.example"
    saved["Subject"] = "Attached copy"
    saved.set_content("The attached copy of the memo.\n")
    message = EmailMessage()
    message["From"] = "Dan Mercer <dan@lending.example>"
    message["Message-ID"] = "<parts@lending.example>"
    message["Subject"] = "Every kind of attachment"
    message.set_content("The attachments, one of each kind.\n")
    for data, maintype, subtype, name in (
        (b"\x89PNG\r\n", "image", "png", "photo.png"),
        (b"   \n", "text", "plain", "empty.txt"),
        (b"%PDF-1.4 broken", "application", "pdf", "broken.pdf"),
        (b"x" * 400, "text", "plain", "big.txt"),
    ):
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    in_koi8 = "Ставка фиксирована.\n".encode("koi8-r")
    message.add_attachment(
        in_koi8, maintype="text", subtype="plain", filename="notes", params={"charset": "koi8-r"}
    )
    message.add_attachment(b"Second notes.\n", maintype="text", subtype="plain", filename="notes")
    message.add_attachment(
        bytes(saved), maintype="application", subtype="octet-stream", filename="fwd.eml"
    )
    message.add_attachment(forwarded, filename="forwarded")
    path.write_bytes(bytes(message))
    return path


def test_every_kind_of_attachment_is_read_skipped_or_named_as_a_problem(tmp_path: Path) -> None:
    path = message_of_every_attachment_kind(tmp_path / "parts.eml")
    read = read_file(path, version="v7", limits=ReadLimits(max_attachment_bytes=200))
    body, *attachments = read.drafts
    doc_id = message_doc_id("parts@lending.example", path)
    assert (read.path, read.doc_id, body.doc_id) == (path, doc_id, doc_id)
    assert [(d.title, d.text) for d in attachments] == [
        ("notes", "Ставка фиксирована.\n"),  # decoded from its declared charset
        ("notes", "Second notes.\n"),
        ("fwd.eml", "The attached copy of the memo.\n"),  # a message, whatever its type
        ("forwarded", "The valuation came back at 412,000.\n"),  # a message, whatever its name
    ]
    # Two attachments of one name are two documents: their occurrence tells them apart.
    assert [d.doc_id for d in attachments] == [
        attachment_doc_id(doc_id, "notes", 1),
        attachment_doc_id(doc_id, "notes", 2),
        attachment_doc_id(doc_id, "fwd.eml", 1),
        attachment_doc_id(doc_id, "forwarded", 1),
    ]
    for draft in read.drafts:  # the version given, the file they came from, the message
        assert (draft.version, draft.origin, draft.message_id) == (
            "v7",
            readable_path(path.resolve()),
            "parts@lending.example",
        )
    assert {d.parent_doc_id for d in attachments} == {doc_id}
    where = f"{path}#attachment="
    assert read.skipped == (
        f"{where}photo.png: image/png is not a format citeproof reads; skipped",
        f"{where}empty.txt: no text",
    )
    oversized, broken = read.problems
    assert oversized == (
        f"{where}big.txt: the attachment is over the limit of 200 bytes (setting "
        "max_attachment_bytes, environment CITEPROOF_MAX_ATTACHMENT_BYTES)"
    )
    assert broken.startswith(f"{where}broken.pdf: cannot read the PDF: ")


def test_a_message_under_a_trusted_folder_is_named_by_its_message_id(tmp_path: Path) -> None:
    path = message_of_every_attachment_kind(tmp_path / "parts.eml")
    trusted = read_file(path, trusted_roots=[tmp_path])
    assert trusted.doc_id == message_doc_id("parts@lending.example", path, trusted=True)
    elsewhere = read_file(path, trusted_roots=[tmp_path / "other"])
    assert elsewhere.doc_id == message_doc_id("parts@lending.example", path)


def test_a_message_without_a_subject_is_titled_by_its_file_name(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"] = "dan@lending.example"
    message.set_content("No subject here.\n")
    path = tmp_path / "no-subject.eml"
    path.write_bytes(bytes(message))
    (body,) = read_file(path).drafts
    assert body.title == "no-subject.eml"
    # A draft becomes the source stored, with the time it was read.
    source = body.source("2026-03-10T16:42:05+00:00")
    assert (source.id, source.title, source.retrieved_at) == (
        body.id,
        "no-subject.eml",
        "2026-03-10T16:42:05+00:00",
    )


def test_a_document_is_one_draft_named_after_its_file(tmp_path: Path) -> None:
    path = tmp_path / "memo.txt"
    path.write_text("The Hartley memo.\n\nIts second paragraph.\n", "utf-8")
    read = read_file(path)
    (draft,) = read.drafts
    assert (read.doc_id, draft.doc_id) == (file_doc_id(path), file_doc_id(path))
    assert (draft.title, draft.origin) == ("memo.txt", readable_path(path.resolve()))


@pytest.mark.parametrize(
    ("name", "refusal"),
    [("data.xyz", "cannot read .xyz files"), ("README", "cannot read extension-less files")],
)
def test_a_file_in_no_format_read_is_refused_naming_it(
    tmp_path: Path, name: str, refusal: str
) -> None:
    path = tmp_path / name
    path.write_text("Some text.\n", "utf-8")
    with pytest.raises(SourceError) as refused:
        read_file(path)
    assert refused.value.where == str(path)
    assert str(refused.value) == f"{path}: {refusal}"


def test_each_limit_given_applies_to_the_file_and_names_it(tmp_path: Path) -> None:
    document = tmp_path / "memo.txt"
    document.write_text("One.\n\nTwo.\n\nThree.\n", "utf-8")
    mail = message_of_every_attachment_kind(tmp_path / "parts.eml")
    body = tmp_path / "long.eml"
    long = EmailMessage()
    long["From"] = "dan@lending.example"
    long.set_content("One.\n\nTwo.\n\nThree.\n")
    body.write_bytes(bytes(long))
    for path, limits, setting in (
        (document, ReadLimits(max_file_bytes=5), "max_file_bytes"),
        (document, ReadLimits(max_passages=2), "max_passages"),
        (mail, ReadLimits(max_mime_depth=1), "max_mime_depth"),
        (body, ReadLimits(max_passages=2), "max_passages"),
    ):
        with pytest.raises(SourceError) as refused:
            read_file(path, limits=limits)
        assert refused.value.where == str(path), setting
        assert f"setting {setting}" in str(refused.value), (setting, str(refused.value))
    # An attachment over a limit is one of its message's problems; the message is kept.
    attached = EmailMessage()
    attached["From"] = "dan@lending.example"
    attached.set_content("The notes are attached.\n")
    attached.add_attachment(b"One.\n\nTwo.\n\nThree.\n", maintype="text", subtype="plain",
                            filename="notes.txt")  # fmt: skip
    with_notes = tmp_path / "notes.eml"
    with_notes.write_bytes(bytes(attached))
    read = read_file(with_notes, limits=ReadLimits(max_passages=2))
    assert [d.kind for d in read.drafts] == ["email_body"]
    (problem,) = read.problems
    assert problem.startswith(f"{with_notes}#attachment=notes.txt: ") and "max_passages" in problem


def test_an_attached_message_is_read_as_a_message_within_the_limits_naming_it(
    tmp_path: Path,
) -> None:
    nested = EmailMessage()  # mixed > alternative > plain: three levels
    nested["From"] = "priya@lending.example"
    nested.set_content("Inner.\n")
    nested.add_alternative("<p>Inner.</p>", subtype="html")
    nested.add_attachment(b"x", maintype="text", subtype="plain", filename="x.txt")
    outer = EmailMessage()
    outer["From"] = "dan@lending.example"
    outer.set_content("Outer.\n")
    for name, data in (
        ("empty.eml", b""),
        ("nested.eml", bytes(nested)),
        ("latin.txt", b"caf\xe9 au lait\n"),  # a file, not a text part: strictly UTF-8
    ):
        outer.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    path = tmp_path / "outer.eml"
    path.write_bytes(bytes(outer))
    read = read_file(path, limits=ReadLimits(max_mime_depth=1))
    where = f"{path}#attachment="
    assert [d.kind for d in read.drafts] == ["email_body"]
    empty, deep, latin = read.problems
    assert empty == f"{where}empty.eml: the message is empty"
    assert deep.startswith(f"{where}nested.eml: ") and "setting max_mime_depth" in deep
    assert latin.startswith(f"{where}latin.txt: invalid UTF-8")

    long = EmailMessage()
    long["From"] = "priya@lending.example"
    long.set_content("One.\n\nTwo.\n\nThree.\n")
    forwarding = EmailMessage()
    forwarding["From"] = "dan@lending.example"
    forwarding.set_content("Outer.\n")
    forwarding.add_attachment(long, filename="long")
    path = tmp_path / "forwarding.eml"
    path.write_bytes(bytes(forwarding))
    (problem,) = read_file(path, limits=ReadLimits(max_passages=2)).problems
    assert problem.startswith(f"{path}#attachment=long: ") and "setting max_passages" in problem

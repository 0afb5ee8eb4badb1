"""The second tier of the public API: what each package's ``__init__`` exports (its face),
pinned the way ``test_exported_members`` pins `citeproof` itself. A name that joins or leaves
a face fails here; other packages and users import from the face, never from a module.

The faces are derived from the import graph by ``tools/faces.py`` (``make lint`` runs its
``--check``): after importing a new name from another package, run it and update the list
(``tools/faces.py --print-faces`` prints it)."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from types import ModuleType

import pytest

# citeproof.adapters is pinned by tests/adapters/test_docs_and_api.py (F.4).
FACES = {
    "citeproof.audit": [
        "AppendedRecord", "AppendsRecords", "AuditRecord", "AuditStore", "BadRecord", "Checkpoint",
        "CheckpointDirectory", "ConsistencyProof", "CopiedLog", "DEFAULT_CHECKPOINT_EVERY",
        "GroupCommit", "InclusionProof", "MerkleFrontier", "Problem", "ReadCheck", "Row",
        "VerifyReport", "audit_schema_steps", "build_entry", "check_stored_texts",
        "checked_records", "consistency_proof", "copy_log", "inclusion_proof", "json_path_keys",
        "leaf_hash", "load_public_key", "open_existing_store", "open_store", "parse_entry",
        "payload_json", "record_hash", "request_id_for", "text_key", "value_at", "verify_log",
        "verify_proof",
    ],
    "citeproof.cli": [
        "main",
    ],
    "citeproof.operations": [
        "BatchLine", "BatchLineFailed", "BatchSettings", "DEFAULT_CHUNK_SIZE", "ENGINES", "Engine",
        "FailOn", "LoggedRecord", "Margins", "SampleRow", "VERDICTS", "compare", "describe",
        "draw_sample", "failed", "logged_records", "parse_since", "read_golden",
        "render_report_html", "render_report_term", "report_of_log", "review_payload", "run_golden",
        "sample_csv", "verify_lines",
    ],
    "citeproof.outcome": [
        "ANSWER_SCHEMAS", "AUDIT_SCHEMA", "BatchLine", "FOUND", "FileLiveValues", "HttpLiveValues",
        "LiveValues", "Outcome", "answer_to_json", "build_evidence", "conclude", "load_rules",
        "located", "payload_with_texts", "policy_from_json", "policy_to_json", "read_batch_line",
        "read_policy", "read_sources", "source_from_json", "source_to_json", "sources_from_json",
        "verification_inputs",
    ],
    "citeproof.providers": [
        "ChatMessage", "EmbeddedModel", "EmbeddedProvider", "ExtractiveProvider",
        "FunctionProvider", "Generation", "GrammarProvider", "Message", "Pace", "Progress",
        "Provider", "Request", "RetryPolicy", "SourceParagraph", "Usage", "allow_model_requests",
        "check_request", "deadline_after", "default_provider_name", "forbid_model_requests",
        "get_provider", "model_requests_allowed", "plugin_provider_names", "progress_to",
        "provider_names", "register_provider", "wants_quote_first",
    ],
    "citeproof.proxy": [
        "AnswerVerdict", "ON_FAIL", "OnFail", "PROXY_LIMITS", "ProxyConfig", "RECORD_EVENT",
        "SentenceVerdict", "StreamVerifier", "UpstreamTimeouts", "VERDICT_EVENT", "VerdictEvent",
        "check_proxy_config", "config_to_env", "create_proxy_app",
    ],
    "citeproof.render": [
        "AnswerBody", "Asked", "FORMATS", "Format", "PAGE_CSS", "STATUS_LABELS", "SUPPORT_LABELS",
        "answer_body", "json_text", "judged_by_its_quote", "markup_safe", "meaning_sentence",
        "nearest_passage", "plural", "rank", "refusal", "render", "render_html", "render_markdown",
        "render_terminal", "safe_console", "state_label", "tone", "visible", "word_diff",
    ],
    "citeproof.server": [
        "BALANCED", "CopyReport", "EdgeMiddleware", "GuardedH11Protocol", "Limits",
        "MULTIPROCESS_DIR", "Metrics", "PROBLEM_TYPE", "Problem", "Service", "ServiceConfig",
        "ServiceState", "check_sizes", "config_to_env", "copy_data", "create_app", "create_table",
        "is_loopback", "migrate_all", "reserve", "schema_report",
    ],
    "citeproof.sources": [
        "CLOSING", "DEFAULT_LIMITS", "FULL_WIDTH_STOPS", "FileFailure", "IngestReport",
        "IngestResult", "MARKDOWN_SUFFIXES", "PassageHit", "ReadLimits", "Reader", "Segmented",
        "SourceStore", "StoreLibrary", "StoredChange", "StoredSource", "bounded_lines",
        "check_extent", "collect_files", "content_hash", "find_files", "ingest_files",
        "ingest_paths", "is_abbreviation", "is_source_store", "paragraph_locations", "read_bounded",
        "read_document", "read_file_bounded", "read_markdown", "read_pdf_pages", "read_source_file",
        "read_text", "readable_path", "sentence_spans", "starts_sentence",
    ],
    "citeproof.testing": [
        "AuditStoreConformance", "ProviderConformance", "assert_cited", "check_provider",
    ],
    "citeproof.turn": [
        "DEFAULT_BUDGET_CHARS", "Prompt", "RerankingRetriever", "Retriever", "StoreRetriever",
        "Turn", "run_turn", "select_sources",
    ],
    "citeproof.verifier": [
        "MAX_ANSWER_CHARS", "Verifier", "citable_names", "default_answer_id", "difference",
        "verify",
    ],
    "citeproof.verifier.match": [
        "IndexCache", "MatchSettings", "MayHold", "Normalised", "OffsetMap", "QuoteText", "RULINGS",
        "SHARED", "SourceIndex", "TextIndex", "VerbatimProbe", "content_key", "corpus_of",
        "find_quote", "may_hold", "normalise", "parse_quote", "prepare",
    ],
    "citeproof.verifier.parse": [
        "name_key", "normalise_markers", "parse_answer",
    ],
    "citeproof.verifier.support": [
        "SupportJudge", "attach_support", "decide", "warm_up",
    ],
}  # fmt: skip

# What the docs teach beyond `citeproof` itself: (module, name) a user imports.
SECOND_TIER = [
    ("citeproof.adapters", "from_langchain"),
    ("citeproof.adapters", "to_langchain"),
    ("citeproof.adapters", "from_llamaindex"),
    ("citeproof.adapters", "to_llamaindex"),
    ("citeproof.adapters", "from_haystack"),
    ("citeproof.adapters", "to_haystack"),
    ("citeproof.adapters", "langchain_verifier"),
    ("citeproof.adapters", "haystack_verifier"),
    ("citeproof.outcome", "answer_to_json"),
    ("citeproof.testing", "assert_cited"),
    ("citeproof.turn", "run_turn"),
]


@pytest.mark.parametrize("package", sorted(FACES))
def test_each_face_exports_exactly_its_pinned_names(package: str) -> None:
    module = importlib.import_module(package)
    assert sorted(module.__all__) == sorted(FACES[package])
    assert len(set(FACES[package])) == len(FACES[package])
    for name in module.__all__:
        member = getattr(module, name)
        assert not isinstance(member, ModuleType), f"{package}.{name} is a module"


@pytest.mark.parametrize(("module", "name"), SECOND_TIER)
def test_the_second_tier_is_importable_where_the_docs_say_and_documented(
    module: str, name: str
) -> None:
    member = getattr(importlib.import_module(module), name)
    assert inspect.isfunction(member), (module, name)
    assert member.__module__.startswith("citeproof."), (module, name, member.__module__)
    assert inspect.getdoc(member), f"{module}.{name} has no docstring"


def test_the_testing_module_offers_assert_cited_and_its_fixture_and_nothing_else() -> None:
    testing = importlib.import_module("citeproof.testing")
    own = {
        name
        for name, value in vars(testing).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == "citeproof.testing"
    }
    assert own == {"assert_cited", "assert_cited_fixture"}


@pytest.mark.parametrize("package", sorted([*FACES, "citeproof.adapters"]))
def test_importing_a_face_loads_none_of_its_modules(package: str) -> None:
    """A face loads a name's module when the name is first used: after ``import citeproof``,
    importing the package runs its ``__init__`` and none of its modules (what ``import
    citeproof`` loads itself is kept lean by tests/test_startup.py)."""
    script = (
        "import json, sys\n"
        "import citeproof\n"
        "before = set(sys.modules)\n"
        f"import {package}\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    own = [name for name in json.loads(result.stdout) if name.startswith(package + ".")]
    assert own == []

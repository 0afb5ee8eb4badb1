"""The public API is what `citeproof` exports, derived from the module and pinned here: a name
that escapes into the package or disappears from it fails (issue 7, in httpx's style)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType

import pytest

import citeproof
import citeproof.errors

PUBLIC_API = [
    # verify, what it takes and returns, and how its result is shown and recorded
    "verify",
    "Verifier",
    "render",
    "answer_to_json",
    "read_source_file",
    "Source",
    "Policy",
    "VerifiedAnswer",
    "VerifiedQuote",
    "VerifiedClaim",
    "CitedSource",
    "Correction",
    "Difference",
    "Excerpt",
    "Match",
    "Eligibility",
    "Exclusion",
    "Claim",
    "Quote",
    "Citation",
    # the error tree
    "CiteproofError",
    "InputError",
    "SourceError",
    "SupportModelError",
    "SupportHeadError",
    "SupportLexiconError",
    "AnswerError",
    "PolicyError",
    "UnknownSourceError",
    "MissingExtraError",
    "RerankUnavailableError",
    "ProviderError",
    "ProviderConfigError",
    "ProviderConnectionError",
    "ProviderAuthError",
    "ProviderModelError",
    "ProviderTimeout",
    "ProviderRateLimited",
    "ProviderServerError",
    "ProviderRequestError",
    "ModelRequestsForbidden",
    "EvidenceError",
    "LiveValueError",
    "RuleError",
    "AuditError",
    "AuditRecordError",
    "RecordNotFoundError",
    "AuditStoreError",
    "CheckpointError",
    "ProofError",
    "ServiceStateError",
    "DatabaseError",
]


def public_members(module: ModuleType) -> set[str]:
    """The public names a module holds, submodules aside (importing them sets attributes)."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, ModuleType)
        and name != "annotations"  # from __future__ import annotations
    }  # fmt: skip


def test_the_exported_names_are_exactly_the_public_api() -> None:
    assert sorted(citeproof.__all__) == sorted(PUBLIC_API)
    assert len(set(PUBLIC_API)) == len(PUBLIC_API)


def test_every_public_name_of_the_package_is_exported_and_nothing_else_escapes() -> None:
    for name in citeproof.__all__:  # loads the names imported on first use
        getattr(citeproof, name)
    assert public_members(citeproof) == set(citeproof.__all__)


def test_a_name_that_is_not_exported_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        citeproof.no_such_name  # noqa: B018


def test_every_exported_name_is_defined_in_a_citeproof_module() -> None:
    for name in citeproof.__all__:
        member = getattr(citeproof, name)
        assert inspect.isclass(member) or inspect.isfunction(member), name
        assert member.__module__.startswith("citeproof."), (name, member.__module__)
        assert member.__name__ == name, f"{name} is exported under another name"


def test_every_error_class_is_a_citeproof_error_and_is_exported() -> None:
    errors = {
        name
        for name, value in vars(citeproof.errors).items()
        if inspect.isclass(value) and value.__module__ == "citeproof.errors"
    }
    assert errors <= set(citeproof.__all__)
    for name in errors:
        assert issubclass(getattr(citeproof, name), citeproof.CiteproofError), name


def test_every_exported_function_and_class_says_what_a_caller_may_rely_on() -> None:
    for name in citeproof.__all__:
        assert inspect.getdoc(getattr(citeproof, name)), f"{name} has no docstring"


def test_every_citeproof_error_is_defined_in_the_errors_module() -> None:
    """The tree lives in one module: a class anywhere else that derives from one of its
    errors (by name, as written) fails, so a new error cannot escape the tree's page."""
    tree = {
        name
        for name, value in vars(citeproof.errors).items()
        if inspect.isclass(value) and issubclass(value, citeproof.CiteproofError)
    }
    package = Path(citeproof.__file__).parent
    elsewhere = []
    for path in sorted(package.rglob("*.py")):
        if path == package / "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {
                b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
            }
            if bases & tree:
                elsewhere.append(f"{path.relative_to(package)}: {node.name}")
    assert elsewhere == []

"""RFC 6962 Merkle hashing and proofs; verifiers reject every malformed proof (issue 4 §3)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeproof.audit import MerkleFrontier, leaf_hash
from citeproof.audit._merkle import (
    EMPTY_ROOT,
    consistency_proof,
    inclusion_proof,
    root_hash,
    verify_consistency,
    verify_inclusion,
)
from citeproof.errors import ProofError

# The Certificate Transparency reference test vectors (merkle_tree_test.cc).
CT_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657",
             "606162636465666768696a6b6c6d6e6f"]  # fmt: skip
CT_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
LEAVES = [leaf_hash(n.to_bytes(2, "big")) for n in range(64)]


def test_ct_reference_roots() -> None:
    hashes = [leaf_hash(bytes.fromhex(leaf)) for leaf in CT_LEAVES]
    assert [root_hash(hashes[:n]).hex() for n in range(1, 9)] == CT_ROOTS
    assert root_hash([]) == EMPTY_ROOT == hashlib.sha256(b"").digest()


def test_leaf_and_node_prefixes_keep_leaves_and_nodes_apart() -> None:
    a, b = leaf_hash(b"a"), leaf_hash(b"b")
    assert root_hash([a, b]) == hashlib.sha256(b"\x01" + a + b).digest()
    assert a == hashlib.sha256(b"\x00a").digest()


def test_frontier_root_matches_the_full_tree_for_every_size() -> None:
    frontier = MerkleFrontier()
    for size in range(1, 65):
        frontier.append(LEAVES[size - 1])
        assert frontier.root() == root_hash(LEAVES[:size])
        assert MerkleFrontier(size, frontier.nodes).root() == frontier.root()


def test_every_inclusion_proof_for_sizes_1_to_64_verifies() -> None:
    for size in range(1, 65):
        root = root_hash(LEAVES[:size])
        for index in range(size):
            proof = inclusion_proof(LEAVES[:size], index)
            verify_inclusion(LEAVES[index], index, size, proof, root)


def test_every_consistency_proof_for_sizes_1_to_64_verifies() -> None:
    for new in range(1, 65):
        new_root = root_hash(LEAVES[:new])
        for old in range(1, new + 1):
            proof = consistency_proof(LEAVES[:new], old)
            verify_consistency(old, new, root_hash(LEAVES[:old]), new_root, proof)


def inclusion_case(size: int, index: int) -> tuple[bytes, int, int, list[bytes], bytes]:
    return (
        LEAVES[index],
        index,
        size,
        inclusion_proof(LEAVES[:size], index),
        root_hash(LEAVES[:size]),
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: (c[0], c[1], c[2], [*c[3], c[3][0]], c[4]), "more nodes"),
        (lambda c: (c[0], c[1], c[2], c[3][:-1], c[4]), "fewer nodes"),
        (lambda c: (c[0], c[1], c[2], [], c[4]), "fewer nodes"),
        (lambda c: (c[0], c[1] + 1, c[2], c[3], c[4]), "root"),
        (lambda c: (c[0], c[2], c[2], c[3], c[4]), "outside"),
        (lambda c: (c[0], -1, c[2], c[3], c[4]), "outside"),
        (lambda c: (c[0], 0, 0, [], c[4]), "at least 1"),
        (lambda c: (c[0], c[1], 74, c[3], c[4]), "fewer nodes"),
        (lambda c: (c[0], c[1], 32, c[3], c[4]), "more nodes"),
        (lambda c: (c[0], c[1], c[2], [c[3][0][:31], *c[3][1:]], c[4]), "32-byte"),
        (lambda c: (c[0], c[1], c[2], [c[3][0] + b"\x00", *c[3][1:]], c[4]), "32-byte"),
        (lambda c: (c[0][:31], c[1], c[2], c[3], c[4]), "32-byte"),
        (lambda c: (c[0], c[1], c[2], c[3], c[4][:31]), "32-byte"),
        (lambda c: (c[0], c[1], c[2], list(reversed(c[3])), c[4]), "root"),
        (lambda c: (LEAVES[c[1] + 1], c[1], c[2], c[3], c[4]), "root"),
        (lambda c: (c[0], c[1], c[2], c[3], leaf_hash(b"other")), "root"),
        (lambda c: (c[0], True, c[2], c[3], c[4]), "integer"),
    ],
)
def test_malformed_inclusion_proofs_are_rejected(change: object, message: str) -> None:
    case = inclusion_case(37, 10)
    leaf, index, size, proof, root = change(case)  # type: ignore[operator]
    with pytest.raises(ProofError, match=message):
        verify_inclusion(leaf, index, size, proof, root)


@given(
    size=st.integers(1, 64),
    data=st.data(),
)
def test_any_mutation_of_an_inclusion_proof_is_rejected(size: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, size - 1))
    proof = inclusion_proof(LEAVES[:size], index)
    root = root_hash(LEAVES[:size])
    mutation = data.draw(st.sampled_from(["index", "size", "drop", "add", "flip", "swap"]))
    bad_index, bad_size, bad_proof = index, size, list(proof)
    if mutation == "index":
        bad_index = data.draw(st.integers(-2, 70).filter(lambda n: n != index))
    elif mutation == "size":
        bad_size = data.draw(st.integers(-1, 130).filter(lambda n: n != size))
    elif mutation == "drop" and proof:
        del bad_proof[data.draw(st.integers(0, len(proof) - 1))]
    elif mutation == "add":
        bad_proof.insert(data.draw(st.integers(0, len(proof))), LEAVES[63])
    elif mutation == "flip" and proof:
        at = data.draw(st.integers(0, len(proof) - 1))
        node = bytearray(bad_proof[at])
        node[data.draw(st.integers(0, 31))] ^= 1
        bad_proof[at] = bytes(node)
    elif mutation == "swap" and len(set(proof)) > 1:
        bad_proof.reverse()
    else:
        bad_index = index + size  # fall back to an out-of-range index
    try:
        verify_inclusion(LEAVES[index], bad_index, bad_size, bad_proof, root)
    except ProofError:
        return
    # A proof cannot tell two tree sizes apart whose audit paths have the same shape: that is
    # why proofs take the size from the signed checkpoint. Anything else must be rejected.
    assert (bad_index, bad_proof) == (index, proof)
    assert path_shape(index, bad_size) == path_shape(index, size)


def path_shape(index: int, size: int) -> list[bool]:
    """For each audit-path node, leaf to root: is the sibling on the left?"""
    if size == 1:
        return []
    split = 1 << ((size - 1).bit_length() - 1)
    if index < split:
        return [*path_shape(index, split), False]
    return [*path_shape(index - split, size - split), True]


@given(new=st.integers(2, 64), data=st.data())
def test_any_mutation_of_a_consistency_proof_is_rejected(new: int, data: st.DataObject) -> None:
    old = data.draw(st.integers(1, new - 1))
    proof = consistency_proof(LEAVES[:new], old)
    old_root, new_root = root_hash(LEAVES[:old]), root_hash(LEAVES[:new])
    mutation = data.draw(st.sampled_from(["old", "new", "drop", "add", "flip", "roots"]))
    args = [old, new, old_root, new_root, list(proof)]
    if mutation == "old":
        args[0] = data.draw(st.integers(-1, 70).filter(lambda n: n != old))
    elif mutation == "new":
        args[1] = data.draw(st.integers(-1, 130).filter(lambda n: n != new))
    elif mutation == "drop":
        del args[4][data.draw(st.integers(0, len(proof) - 1))]  # type: ignore[attr-defined]
    elif mutation == "add":
        args[4].insert(data.draw(st.integers(0, len(proof))), LEAVES[0])  # type: ignore[attr-defined]
    elif mutation == "flip":
        at = data.draw(st.integers(0, len(proof) - 1))
        node = bytearray(proof[at])
        node[0] ^= 0x80
        args[4][at] = bytes(node)  # type: ignore[index]
    else:
        args[2], args[3] = new_root, old_root
    try:
        verify_consistency(*args)  # type: ignore[arg-type]
    except ProofError:
        return
    # Only a size change the proof cannot see (same path shape; sizes come from the signed
    # checkpoints) may pass; check it passes for any other tree too, so it is only shape.
    assert mutation in ("old", "new") and args[4] == proof
    others = [leaf_hash(b"other" + bytes([n])) for n in range(64)]
    verify_consistency(
        args[0],  # type: ignore[arg-type]
        args[1],  # type: ignore[arg-type]
        root_hash(others[:old]),
        root_hash(others[:new]),
        consistency_proof(others[:new], old),
    )


@pytest.mark.parametrize(
    ("old", "new", "proof", "message"),
    [
        (0, 5, [], "at least 1"),
        (6, 5, [], "larger"),
        (5, 5, [LEAVES[0]], "empty"),
        (3, 5, [], "empty"),
        (3, 5, [b"\x00" * 31], "32-byte"),
    ],
)
def test_malformed_consistency_proofs_are_rejected(
    old: int, new: int, proof: list[bytes], message: str
) -> None:
    with pytest.raises(ProofError, match=message):
        verify_consistency(old, new, root_hash(LEAVES[:3]), root_hash(LEAVES[:5]), proof)


def test_equal_sizes_need_equal_roots() -> None:
    verify_consistency(5, 5, root_hash(LEAVES[:5]), root_hash(LEAVES[:5]), [])
    with pytest.raises(ProofError, match="different roots"):
        verify_consistency(5, 5, root_hash(LEAVES[:5]), root_hash(LEAVES[:4]), [])


def test_proof_generation_refuses_impossible_requests() -> None:
    with pytest.raises(ProofError):
        inclusion_proof(LEAVES[:4], 4)
    with pytest.raises(ProofError):
        consistency_proof(LEAVES[:4], 0)
    with pytest.raises(ProofError):
        consistency_proof(LEAVES[:4], 5)

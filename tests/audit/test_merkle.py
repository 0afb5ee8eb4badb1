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
    with pytest.raises(ProofError, match=r"^trees of equal size have different roots$"):
        verify_consistency(5, 5, root_hash(LEAVES[:5]), root_hash(LEAVES[:4]), [])


def test_proof_generation_refuses_impossible_requests() -> None:
    with pytest.raises(ProofError):
        inclusion_proof(LEAVES[:4], 4)
    with pytest.raises(ProofError):
        consistency_proof(LEAVES[:4], 0)
    with pytest.raises(ProofError):
        consistency_proof(LEAVES[:4], 5)


# RFC 6962 §2.1 written out as the RFC states it (recursive, split at the largest power of two
# below n): the proofs generated must be exactly these, node for node.
def rfc_root(leaves: list[bytes]) -> bytes:
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + rfc_root(leaves[:k]) + rfc_root(leaves[k:])).digest()


def rfc_path(m: int, leaves: list[bytes]) -> list[bytes]:
    if len(leaves) == 1:
        return []
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    if m < k:
        return [*rfc_path(m, leaves[:k]), rfc_root(leaves[k:])]
    return [*rfc_path(m - k, leaves[k:]), rfc_root(leaves[:k])]


def rfc_subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    if m == len(leaves):
        return [] if whole else [rfc_root(leaves)]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    if m <= k:
        return [*rfc_subproof(m, leaves[:k], whole), rfc_root(leaves[k:])]
    return [*rfc_subproof(m - k, leaves[k:], False), rfc_root(leaves[:k])]


def test_proofs_are_the_rfc_6962_path_and_proof_node_for_node() -> None:
    for size in range(1, 34):
        leaves = LEAVES[:size]
        assert root_hash(leaves) == rfc_root(leaves)
        for index in range(size):
            assert inclusion_proof(leaves, index) == rfc_path(index, leaves)
        for old in range(1, size + 1):
            assert consistency_proof(leaves, old) == rfc_subproof(old, leaves, True)


# The examples of RFC 6962 §2.1.3, a tree of 7 leaves, and smaller trees.
@pytest.mark.parametrize(
    ("size", "index", "length"),
    [(1, 0, 0), (2, 1, 1), (3, 2, 1), (7, 0, 3), (7, 3, 3), (7, 4, 3), (7, 6, 2), (8, 0, 3)],
)
def test_an_audit_path_has_one_node_per_level_the_leaf_climbs(
    size: int, index: int, length: int
) -> None:
    assert len(inclusion_proof(LEAVES[:size], index)) == length


@pytest.mark.parametrize(
    ("old", "new", "length"),
    [(1, 1, 0), (1, 2, 1), (2, 3, 1), (3, 4, 3), (4, 8, 1), (3, 7, 4), (4, 7, 1), (6, 7, 3)],
)
def test_a_consistency_proof_has_the_rfc_6962_number_of_nodes(
    old: int, new: int, length: int
) -> None:
    assert len(consistency_proof(LEAVES[:new], old)) == length


def test_a_tree_of_one_leaf_has_that_leaf_as_its_root_and_an_empty_path() -> None:
    assert root_hash([LEAVES[5]]) == LEAVES[5]
    assert inclusion_proof([LEAVES[5]], 0) == []
    verify_inclusion(LEAVES[5], 0, 1, [], LEAVES[5])
    with pytest.raises(ProofError, match=r"^inclusion proof has more nodes than the tree allows$"):
        verify_inclusion(LEAVES[5], 0, 1, [LEAVES[6]], LEAVES[5])


def test_generation_refusals_name_the_index_or_size_and_the_tree() -> None:
    with pytest.raises(ProofError, match=r"^leaf index 4 is outside a tree of size 4$"):
        inclusion_proof(LEAVES[:4], 4)
    with pytest.raises(ProofError, match=r"^leaf index -1 is outside a tree of size 4$"):
        inclusion_proof(LEAVES[:4], -1)
    assert inclusion_proof(LEAVES[:4], 3) == rfc_path(3, LEAVES[:4])
    for old in (0, 5):
        with pytest.raises(
            ProofError, match=rf"^old size {old} must be between 1 and the tree size 4$"
        ):
            consistency_proof(LEAVES[:4], old)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((LEAVES[0], 0, 0, [], LEAVES[0]), "tree size must be at least 1"),
        ((LEAVES[0], 0, -3, [], LEAVES[0]), "tree size must be at least 1"),
        ((LEAVES[0], 2, 2, [LEAVES[1]], LEAVES[0]), "leaf index 2 is outside a tree of size 2"),
        ((LEAVES[0], -1, 2, [LEAVES[1]], LEAVES[0]), "leaf index -1 is outside a tree of size 2"),
        ((LEAVES[0], 0.0, 2, [LEAVES[1]], LEAVES[0]), "leaf index must be an integer"),
        ((LEAVES[0], False, 2, [LEAVES[1]], LEAVES[0]), "leaf index must be an integer"),
        ((LEAVES[0], 0, "2", [LEAVES[1]], LEAVES[0]), "tree size must be an integer"),
        ((LEAVES[0], 0, True, [], LEAVES[0]), "tree size must be an integer"),
        ((LEAVES[0][:31], 0, 2, [LEAVES[1]], LEAVES[0]), "leaf hash is not a 32-byte hash"),
        ((LEAVES[0].hex(), 0, 2, [LEAVES[1]], LEAVES[0]), "leaf hash is not a 32-byte hash"),
        ((LEAVES[0], 0, 2, [LEAVES[1]], LEAVES[0] + b"!"), "root hash is not a 32-byte hash"),
        ((LEAVES[0], 0, 2, [LEAVES[1]], None), "root hash is not a 32-byte hash"),
        ((LEAVES[0], 0, 4, [LEAVES[1], b"x"], LEAVES[0]), "proof node 1 is not a 32-byte hash"),
        ((LEAVES[0], 0, 4, [LEAVES[1].hex()], LEAVES[0]), "proof node 0 is not a 32-byte hash"),
    ],
)
def test_inclusion_refusals_say_exactly_what_is_wrong(
    arguments: tuple[object, ...], message: str
) -> None:
    with pytest.raises(ProofError, match=f"^{message}$"):
        verify_inclusion(*arguments)  # type: ignore[arg-type]


def test_an_inclusion_proof_must_lead_to_the_root() -> None:
    leaves = LEAVES[:6]
    for index in range(6):
        proof = inclusion_proof(leaves, index)
        with pytest.raises(ProofError, match=r"^inclusion proof does not lead to the root hash$"):
            verify_inclusion(LEAVES[index], index, 6, proof, root_hash(LEAVES[:5]))
        with pytest.raises(ProofError, match=r"^inclusion proof has fewer nodes than the tree "):
            verify_inclusion(LEAVES[index], index, 6, proof[:-1], root_hash(leaves))
        with pytest.raises(ProofError, match=r"^inclusion proof has more nodes than the tree "):
            verify_inclusion(LEAVES[index], index, 6, [*proof, LEAVES[0]], root_hash(leaves))


@pytest.mark.parametrize(
    ("old", "new", "proof", "message"),
    [
        (0, 5, [], "old size must be at least 1"),
        (-1, 5, [], "old size must be at least 1"),
        (6, 5, [], "old size 6 is larger than new size 5"),
        (5, 5, [LEAVES[0]], "trees of equal size need an empty consistency proof"),
        (3, 5, [], "consistency proof is empty"),
        (3, 5, [LEAVES[0], b"\x00" * 31], "proof node 1 is not a 32-byte hash"),
        (3.0, 5, [], "old size must be an integer"),
        (True, 5, [], "old size must be an integer"),
        (3, "5", [], "new size must be an integer"),
        (3, False, [], "new size must be an integer"),
    ],
)
def test_consistency_refusals_say_exactly_what_is_wrong(
    old: int, new: int, proof: list[bytes], message: str
) -> None:
    with pytest.raises(ProofError, match=f"^{message}$"):
        verify_consistency(old, new, root_hash(LEAVES[:3]), root_hash(LEAVES[:5]), proof)


def test_consistency_roots_must_be_32_byte_hashes() -> None:
    proof = consistency_proof(LEAVES[:5], 3)
    old_root, new_root = root_hash(LEAVES[:3]), root_hash(LEAVES[:5])
    with pytest.raises(ProofError, match=r"^old root is not a 32-byte hash$"):
        verify_consistency(3, 5, old_root[:31], new_root, proof)
    with pytest.raises(ProofError, match=r"^new root is not a 32-byte hash$"):
        verify_consistency(3, 5, old_root, new_root + b"\x00", proof)


# An old size that is a power of two has its root as the proof's first node: only the new
# root can fail for it (tested apart below).
@pytest.mark.parametrize(("old", "new"), [(3, 4), (3, 5), (5, 8), (6, 7), (7, 8), (5, 6)])
def test_a_consistency_proof_names_which_root_it_fails_to_reach(old: int, new: int) -> None:
    proof = consistency_proof(LEAVES[:new], old)
    old_root, new_root = root_hash(LEAVES[:old]), root_hash(LEAVES[:new])
    verify_consistency(old, new, old_root, new_root, proof)
    other = leaf_hash(b"other")
    with pytest.raises(ProofError, match=r"^consistency proof does not lead to the old root$"):
        verify_consistency(old, new, other, new_root, proof)
    with pytest.raises(ProofError, match=r"^consistency proof does not lead to the new root$"):
        verify_consistency(old, new, old_root, other, proof)
    with pytest.raises(ProofError, match=r"^consistency proof has fewer nodes than the trees "):
        verify_consistency(old, new, old_root, new_root, proof[:-1] or [other])
    with pytest.raises(ProofError, match=r"^consistency proof has more nodes than the trees "):
        verify_consistency(old, new, old_root, new_root, [*proof, other])


def test_a_frontier_needs_one_node_per_set_bit_of_its_size() -> None:
    with pytest.raises(ProofError, match=r"^a frontier of size 3 needs 2 nodes$"):
        MerkleFrontier(3, [LEAVES[0]])
    with pytest.raises(ProofError, match=r"^a frontier of size 4 needs 1 nodes$"):
        MerkleFrontier(4, [LEAVES[0], LEAVES[1]])
    with pytest.raises(ProofError, match=r"^a frontier of size -1 needs"):
        MerkleFrontier(-1, [])
    with pytest.raises(ProofError, match=r"^a frontier of size -1 needs"):
        MerkleFrontier(-1, [LEAVES[0]])  # -1 has one set bit: refused for its sign alone
    with pytest.raises(ProofError, match=r"^proof node 0 is not a 32-byte hash$"):
        MerkleFrontier(1, [b"short"])
    empty = MerkleFrontier()
    assert (empty.size, empty.nodes, empty.root()) == (0, (), EMPTY_ROOT)


def test_a_frontier_holds_the_perfect_subtree_roots_largest_first() -> None:
    frontier = MerkleFrontier()
    for leaf in LEAVES[:7]:
        frontier.append(leaf)
    assert frontier.size == 7
    assert frontier.nodes == (root_hash(LEAVES[:4]), root_hash(LEAVES[4:6]), LEAVES[6])
    eighth = frontier.copy()
    eighth.append(LEAVES[7])
    assert eighth.nodes == (root_hash(LEAVES[:8]),)


def test_a_frontier_copy_grows_on_its_own() -> None:
    frontier = MerkleFrontier()
    for leaf in LEAVES[:5]:
        frontier.append(leaf)
    copy = frontier.copy()
    copy.append(LEAVES[5])
    assert (frontier.size, frontier.root()) == (5, root_hash(LEAVES[:5]))
    assert (copy.size, copy.root()) == (6, root_hash(LEAVES[:6]))


@pytest.mark.parametrize(("old", "new"), [(1, 2), (2, 3), (4, 8), (4, 6), (8, 13)])
def test_from_a_power_of_two_a_wrong_old_root_shows_at_the_new_root(old: int, new: int) -> None:
    proof = consistency_proof(LEAVES[:new], old)
    with pytest.raises(ProofError, match=r"^consistency proof does not lead to the new root$"):
        verify_consistency(old, new, leaf_hash(b"other"), root_hash(LEAVES[:new]), proof)

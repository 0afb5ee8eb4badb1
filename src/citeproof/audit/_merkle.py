"""RFC 6962 Merkle tree hashing, inclusion and consistency proofs, and strict verifiers.

Leaf hash ``SHA-256(0x00 || leaf)``, node hash ``SHA-256(0x01 || left || right)``, the tree for
n leaves split at the largest power of two below n (RFC 6962 §2.1). Proof generation follows
RFC 6962 §2.1.1 (PATH) and §2.1.2 (PROOF/SUBPROOF); verification follows RFC 9162 §2.1.3.2 and
§2.1.4.2 and raises `ProofError` for every malformed proof: an index outside the tree, a size of
0, an old size above the new size, a path that is too long or too short, nodes that are not 32
bytes, or a root that does not come out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from citeproof.errors import ProofError

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()
"""The root of the empty tree (RFC 6962: the hash of the empty string)."""


def leaf_hash(leaf: bytes) -> bytes:
    """``SHA-256(0x00 || leaf)``."""
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two strictly below n (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def root_hash(leaf_hashes: Sequence[bytes]) -> bytes:
    """The tree head of the given leaf hashes (`EMPTY_ROOT` for none)."""
    if not leaf_hashes:
        return EMPTY_ROOT
    level = list(leaf_hashes)
    # Pairing level by level, carrying an odd last node up unchanged, builds the same tree
    # as RFC 6962's split at the largest power of two.
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def inclusion_proof(leaf_hashes: Sequence[bytes], index: int) -> list[bytes]:
    """The audit path (RFC 6962 PATH) for leaf `index` in the tree of all `leaf_hashes`."""
    size = len(leaf_hashes)
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is outside a tree of size {size}")
    return _path(index, leaf_hashes)


def _path(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    n = len(leaves)
    if n == 1:
        return []
    k = _split(n)
    if m < k:
        return [*_path(m, leaves[:k]), root_hash(leaves[k:])]
    return [*_path(m - k, leaves[k:]), root_hash(leaves[:k])]


def consistency_proof(leaf_hashes: Sequence[bytes], old_size: int) -> list[bytes]:
    """The proof (RFC 6962 PROOF) that the tree of the first `old_size` leaves is a prefix."""
    size = len(leaf_hashes)
    if not 1 <= old_size <= size:
        raise ProofError(f"old size {old_size} must be between 1 and the tree size {size}")
    return _subproof(old_size, leaf_hashes, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [root_hash(leaves)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, leaves[:k], whole), root_hash(leaves[k:])]
    return [*_subproof(m - k, leaves[k:], False), root_hash(leaves[:k])]


def _check_nodes(proof: Sequence[bytes], *named: tuple[str, bytes]) -> None:
    for name, value in named:
        if not isinstance(value, bytes) or len(value) != HASH_SIZE:
            raise ProofError(f"{name} is not a {HASH_SIZE}-byte hash")
    for position, node in enumerate(proof):
        if not isinstance(node, bytes) or len(node) != HASH_SIZE:
            raise ProofError(f"proof node {position} is not a {HASH_SIZE}-byte hash")


def _check_int(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProofError(f"{name} must be an integer")
    return value


def verify_inclusion(
    leaf: bytes, index: int, tree_size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """Check that `leaf` (a leaf *hash*) is at `index` in the tree of `tree_size` with `root`.

    Returns None when the proof holds; raises `ProofError` otherwise.
    """
    index = _check_int("leaf index", index)
    tree_size = _check_int("tree size", tree_size)
    _check_nodes(proof, ("leaf hash", leaf), ("root hash", root))
    if tree_size < 1:
        raise ProofError("tree size must be at least 1")
    if not 0 <= index < tree_size:
        raise ProofError(f"leaf index {index} is outside a tree of size {tree_size}")
    fn, sn = index, tree_size - 1
    r = leaf
    for p in proof:
        if sn == 0:
            raise ProofError("inclusion proof has more nodes than the tree allows")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("inclusion proof has fewer nodes than the tree needs")
    if r != root:
        raise ProofError("inclusion proof does not lead to the root hash")


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> None:
    """Check that the tree (`old_size`, `old_root`) is a prefix of (`new_size`, `new_root`).

    Returns None when the proof holds; raises `ProofError` otherwise. Equal sizes need an empty
    proof and equal roots; an old size of 0 is rejected (there is nothing to prove).
    """
    old_size = _check_int("old size", old_size)
    new_size = _check_int("new size", new_size)
    _check_nodes(proof, ("old root", old_root), ("new root", new_root))
    if old_size < 1:
        raise ProofError("old size must be at least 1")
    if old_size > new_size:
        raise ProofError(f"old size {old_size} is larger than new size {new_size}")
    if old_size == new_size:
        if proof:
            raise ProofError("trees of equal size need an empty consistency proof")
        if old_root != new_root:
            raise ProofError("trees of equal size have different roots")
        return
    if not proof:
        raise ProofError("consistency proof is empty")
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is a node of the new tree
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("consistency proof has more nodes than the trees allow")
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("consistency proof has fewer nodes than the trees need")
    if fr != old_root:
        raise ProofError("consistency proof does not lead to the old root")
    if sr != new_root:
        raise ProofError("consistency proof does not lead to the new root")


class MerkleFrontier:
    """The right edge of a growing tree: enough to append leaves and compute the root.

    Holds the roots of the perfect subtrees the tree decomposes into (one per set bit of the
    size, largest first), so appending is O(log n) and memory is O(log n).
    """

    __slots__ = ("_nodes", "_size")

    def __init__(self, size: int = 0, nodes: Sequence[bytes] = ()) -> None:
        if size < 0 or len(nodes) != size.bit_count():
            raise ProofError(f"a frontier of size {size} needs {size.bit_count()} nodes")
        _check_nodes(nodes)
        self._size = size
        self._nodes = list(nodes)

    @property
    def size(self) -> int:
        return self._size

    @property
    def nodes(self) -> tuple[bytes, ...]:
        return tuple(self._nodes)

    def append(self, leaf: bytes) -> None:
        """Add a leaf *hash* at the right end."""
        node = leaf
        size = self._size
        while size & 1:  # each trailing one bit is a perfect subtree of the new leaf's size
            node = node_hash(self._nodes.pop(), node)
            size >>= 1
        self._nodes.append(node)
        self._size += 1

    def root(self) -> bytes:
        """The tree head for the leaves appended so far."""
        if not self._nodes:
            return EMPTY_ROOT
        root = self._nodes[-1]
        for node in reversed(self._nodes[:-1]):
            root = node_hash(node, root)
        return root

    def copy(self) -> MerkleFrontier:
        return MerkleFrontier(self._size, self._nodes)

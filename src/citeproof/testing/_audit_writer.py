"""A writer process for the audit-store conformance suite's crash and concurrency tests.

Usage: python -m citeproof.testing._audit_writer TARGET CHECKPOINT_DIR COUNT TAG
Appends COUNT records and prints "<sequence> <request_id>" after each acknowledged append.
"""

from __future__ import annotations

import sys

from citeproof.audit import open_store


def main() -> None:
    target, checkpoint_dir, count, tag = sys.argv[1:5]
    with open_store(target, checkpoint_dir=checkpoint_dir, checkpoint_every=50) as log:
        for number in range(int(count)):
            request_id = f"{tag}-{number}"
            payload = {"request": {"writer": tag, "number": number}, "answer": "x" * 200}
            appended = log.append(payload, request_id)
            print(appended.sequence, request_id, flush=True)


if __name__ == "__main__":
    main()

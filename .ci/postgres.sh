#!/usr/bin/env bash
# Start the machine's PostgreSQL 15 cluster for the audit tests and print the URL to export as
# CITEPROOF_PG_URL. Idempotent: starts the cluster only when down, creates the role and the
# database only when missing. Run as root (or as a user allowed to `su postgres`).
set -euo pipefail
VERSION="${CITEPROOF_PG_VERSION:-15}"
CLUSTER="${CITEPROOF_PG_CLUSTER:-main}"
ROLE=citeproof
PASSWORD=citeproof
DATABASE=citeproof_test

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi
}

if ! pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1==v && $2==c {print $4}' | grep -q online; then
  pg_ctlcluster "$VERSION" "$CLUSTER" start >&2
fi
for _ in $(seq 1 50); do
  as_postgres pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
if [ "$(as_postgres psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]; then
  as_postgres psql -q -c "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD' SUPERUSER" >&2
fi
if [ "$(as_postgres psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != 1 ]; then
  as_postgres createdb -O "$ROLE" "$DATABASE" >&2
fi
echo "postgresql://$ROLE:$PASSWORD@127.0.0.1:5432/$DATABASE"

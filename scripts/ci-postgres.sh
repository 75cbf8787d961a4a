#!/usr/bin/env bash
# Make sure the PostgreSQL server the storage tests use is up on 127.0.0.1:5432 (trust auth, user
# postgres). On CI machines it is normally running already; on a fresh one the cluster is installed
# but stopped, so start it. Exits non-zero when there is no server to start: the PostgreSQL tests
# then skip with that reason, and the SQLite ones still run.
set -uo pipefail

host=${FAPPO_PG_HOST:-127.0.0.1}
port=${FAPPO_PG_PORT:-5432}

ready() { pg_isready -q -h "$host" -p "$port" >/dev/null 2>&1; }

if ! command -v pg_isready >/dev/null 2>&1; then
    echo "ci-postgres: PostgreSQL client tools are not installed" >&2
    exit 1
fi
if ready; then
    exit 0
fi
if [ ! -d /etc/postgresql ] || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "ci-postgres: no PostgreSQL cluster is installed under /etc/postgresql" >&2
    exit 1
fi
for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>&1 || true
done
# Wait up to 30 s for the server to accept connections.
for _ in $(seq 1 60); do
    if ready; then
        exit 0
    fi
    sleep 0.5
done
echo "ci-postgres: the server did not come up on $host:$port" >&2
exit 1

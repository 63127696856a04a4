#!/usr/bin/env bash
# The scale simulation's data: an organisation history generated directly in PostgreSQL through
# the real schema (docs/scaling.md has the results and what they mean).
#
#   deploy/sim/run.sh [--repos N] [--teams N] [--nights N] [--mean-open N] [--churn F] [--seed F]
#
# Uses DATABASE_URL (which must name an empty database, or one holding no org `sim`), migrates
# it with the a11y-audit binary ($A11Y_AUDIT, default .build/release/a11y-audit), loads the rule
# catalog from `a11y-audit rules`, generates the history, and prints the size of every table.
set -euo pipefail
cd "$(dirname "$0")/../.."
repos=10000 teams=40 nights=90 mean_open=60 churn=0.02 seed=0.42 org=sim
while [ $# -gt 0 ]; do
    case "$1" in
    --repos) repos=$2; shift 2 ;;
    --teams) teams=$2; shift 2 ;;
    --nights) nights=$2; shift 2 ;;
    --mean-open) mean_open=$2; shift 2 ;;
    --churn) churn=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --org) org=$2; shift 2 ;;
    *) echo "usage: deploy/sim/run.sh [--repos N] [--teams N] [--nights N] [--mean-open N] [--churn F] [--seed F] [--org NAME]" >&2; exit 2 ;;
    esac
done
: "${DATABASE_URL:?set DATABASE_URL (deploy/postgres.sh start DIR prints one)}"
binary=${A11Y_AUDIT:-.build/release/a11y-audit}
"$binary" migrate --migrations Migrations
if [ -n "$(psql "$DATABASE_URL" -qtAc "SELECT 1 FROM repositories WHERE org = '$org' LIMIT 1")" ]; then
    echo "organisation $org already has repositories in this database; use an empty database or --org" >&2
    exit 2
fi
rules=$(mktemp)
trap 'rm -f "$rules"' EXIT
"$binary" rules | awk '{ print $1 "\t" $2 "\t" $3 }' > "$rules"
start=$(date +%s)
psql "$DATABASE_URL" -q -v ON_ERROR_STOP=1 -v org="$org" -v repos="$repos" -v teams="$teams" -v nights="$nights" \
     -v mean_open="$mean_open" -v churn="$churn" -v seed="$seed" <<SQL
CREATE TEMP TABLE sim_rules (id text, kind text, severity text);
\copy sim_rules FROM '$rules'
\i deploy/sim/generate.sql
SQL
echo "generated $repos repositories x $nights nights in $(( $(date +%s) - start )) s"
psql "$DATABASE_URL" -P pager=off -c "
SELECT c.relname AS table, c.reltuples::bigint AS rows,
       pg_size_pretty(pg_table_size(c.oid)) AS data, pg_size_pretty(pg_indexes_size(c.oid)) AS indexes,
       pg_size_pretty(pg_total_relation_size(c.oid)) AS total
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY pg_total_relation_size(c.oid) DESC;" \
     -c "SELECT pg_size_pretty(pg_database_size(current_database())) AS database;"

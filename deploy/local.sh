#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: installs the Debian packages, builds
# a11y-audit in release mode, audits the bundled sample repository directly (text, JSON and
# SARIF reports), then runs the whole pipeline locally: a PostgreSQL cluster in .local/postgres
# (unless DATABASE_URL names a server), migrations, three sample repositories as archives, a
# scheduled run, and two worker processes until the run completes.
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/install-deps.sh
swift build -c release --product a11y-audit
binary=.build/release/a11y-audit
state=.local
reports=$state/reports
archives=$state/archives
mkdir -p "$reports" "$archives"

# 1. The scanner alone: no database needed.
tar -czf "$archives/SampleApp.tar.gz" -C Tests/Fixtures SampleApp
for sample in Tests/Fixtures/SampleApp "$archives/SampleApp.tar.gz"; do
    name=$(basename "$sample" .tar.gz)
    [ -f "$sample" ] && name="$name-archive"
    "$binary" scan "$sample" --fail-on none --format json --output "$reports/$name.json"
    "$binary" scan "$sample" --fail-on none --format sarif --output "$reports/$name.sarif"
    "$binary" scan "$sample" --fail-on none > "$reports/$name.txt" || true
done

# 2. The pipeline.
if [ -z "${DATABASE_URL:-}" ]; then
    DATABASE_URL=$(deploy/postgres.sh start "$state/postgres")
    echo "PostgreSQL: a private cluster in $state/postgres ($DATABASE_URL); stop it with deploy/postgres.sh stop $state/postgres"
fi
export DATABASE_URL
"$binary" migrate --migrations Migrations

# Sample repositories, as the worker fetches them: archives with one top folder.
rm -rf "$state/repos" && mkdir -p "$state/repos"
cp -R Tests/Fixtures/SampleApp "$state/repos/checkout-app"
printf '# Shared views belong to the design system team.\n*       @sample/mobile\n/Shared/ @sample/design\n' > "$state/repos/checkout-app/CODEOWNERS"
cp -R Tests/Fixtures/InterfaceBuilder "$state/repos/legacy-storyboards"
for repo in checkout-app legacy-storyboards; do
    tar -czf "$archives/$repo.tar.gz" -C "$state/repos" "$repo"
done
root=$(pwd)
cat > "$state/org.json" <<JSON
{
  "org": "sample",
  "teams": [
    { "name": "Mobile", "owners": ["@sample/mobile"] },
    { "name": "Design System", "owners": ["@sample/design"] }
  ],
  "repositories": [
    { "name": "sample/sample-app", "team": "Mobile", "archive": "file://$root/$archives/SampleApp.tar.gz" },
    { "name": "sample/checkout-app", "team": "Mobile", "archive": "file://$root/$archives/checkout-app.tar.gz" },
    { "name": "sample/legacy-storyboards", "team": "Design System", "archive": "file://$root/$archives/legacy-storyboards.tar.gz" }
  ],
  "schedule": { "cron": "0 2 * * *", "timeZone": "UTC" },
  "retentionDays": 90
}
JSON
# A manual run, so running this script again audits again (nightly runs are one per date).
"$binary" schedule --config "$state/org.json" --now --manual
"$binary" worker --until-idle --name local-1 --work-dir "$state" 2>>"$state/worker-1.log" &
first=$!
"$binary" worker --until-idle --name local-2 --work-dir "$state" 2>>"$state/worker-2.log" &
second=$!
wait "$first" "$second" || true

echo
echo "== the run (a11y-audit status):"
"$binary" status

# 3. The dashboard: rendered into .local/site and served on localhost, kept current as jobs finish.
"$binary" render --out "$state/site"
port=${A11Y_AUDIT_PORT:-8080}
if [ -f "$state/serve.pid" ] && kill -0 "$(cat "$state/serve.pid")" 2>/dev/null; then kill "$(cat "$state/serve.pid")"; sleep 1; fi
nohup "$binary" serve --site "$state/site" --port "$port" --render >"$state/serve.log" 2>&1 &
echo $! > "$state/serve.pid"
sleep 1
echo
echo "Dashboard: http://127.0.0.1:$port/ (log: $state/serve.log; stop it with: kill \$(cat $state/serve.pid))"
echo "Scan reports: $reports (text, JSON, SARIF). Worker logs: $state/worker-*.log."
echo "The results are in PostgreSQL ($DATABASE_URL): \`DATABASE_URL=$DATABASE_URL $binary status\`,"
echo "or psql: SELECT rule_id, path, line, message FROM findings WHERE fixed_in_run IS NULL;"

#!/usr/bin/env bash
# The one-command local stack (the README's first command). On a fresh Debian machine: installs
# the Debian packages, builds a11y-audit in release mode, audits the bundled sample repository
# directly (text, JSON and SARIF reports), then runs the whole pipeline: a PostgreSQL cluster in
# .local/postgres (unless DATABASE_URL names a server), migrations, three sample repositories as
# archives, a manual run, two worker processes until it completes, `a11y-audit status`, and the
# dashboard rendered into .local/site and served on localhost (kept current as jobs finish).
#
#   deploy/local/run.sh [--no-install] [--no-serve]
#     --no-install   skip deploy/install-deps.sh (the packages are installed already)
#     --no-serve     render the dashboard but leave no server running
#
# Environment:
#   DATABASE_URL       use this server instead of the private cluster in .local/postgres
#   A11Y_AUDIT_BINARY  an a11y-audit already built: skip the release build (the quick-start
#                      test passes the build it runs under, so the suite builds only once)
#   A11Y_AUDIT_PORT    the dashboard's port (default 8080; 0 picks a free one)
#
# What it reads besides the repository's fixtures: deploy/local/org.json (the org config,
# with @ARCHIVES@ standing for the archives' folder) and deploy/local/checkout-app.CODEOWNERS.
# Everything it writes is under .local/; running it again audits again (a new manual run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
root=$(pwd)

install=1 serve=1
for argument in "$@"; do
    case "$argument" in
    --no-install) install=0 ;;
    --no-serve) serve=0 ;;
    -h | --help) sed -n '2,/^set -euo pipefail$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "deploy/local/run.sh: unknown option \"$argument\" (known: --no-install, --no-serve)" >&2; exit 2 ;;
    esac
done

state=.local
reports=$state/reports
archives=$state/archives
case "$root" in
*'"'* | *'\'* | *[[:space:]]*) echo "deploy/local/run.sh: the checkout's path ($root) contains a quote, a backslash or a space, which the org config's file:// URLs cannot hold; move the checkout" >&2; exit 2 ;;
esac

echo "== 1. Debian packages"
if [ "$install" = 1 ]; then deploy/install-deps.sh; else echo "skipped (--no-install)"; fi

echo "== 2. Release build"
if [ -n "${A11Y_AUDIT_BINARY:-}" ]; then
    binary=$A11Y_AUDIT_BINARY
    [ -x "$binary" ] || { echo "deploy/local/run.sh: A11Y_AUDIT_BINARY=$binary is not an executable file" >&2; exit 2; }
    echo "skipped: using $binary (A11Y_AUDIT_BINARY)"
else
    swift build -c release --product a11y-audit
    binary=.build/release/a11y-audit
fi
"$binary" version
mkdir -p "$reports" "$archives"

# The scanner alone: no database needed. One cache for the three formats, so the sample is
# parsed once per input and the other two reports come from the cache.
echo "== 3. Scan the sample repository (directory and archive)"
tar -czf "$archives/SampleApp.tar.gz" -C Tests/Fixtures SampleApp
for sample in Tests/Fixtures/SampleApp "$archives/SampleApp.tar.gz"; do
    name=$(basename "$sample" .tar.gz)
    [ -f "$sample" ] && name="$name-archive"
    "$binary" scan "$sample" --fail-on none --cache "$state/scan-cache" --format json --output "$reports/$name.json"
    "$binary" scan "$sample" --fail-on none --cache "$state/scan-cache" --format sarif --output "$reports/$name.sarif"
    "$binary" scan "$sample" --fail-on none --cache "$state/scan-cache" > "$reports/$name.txt"
done

echo "== 4. PostgreSQL"
if [ -z "${DATABASE_URL:-}" ]; then
    DATABASE_URL=$(deploy/postgres.sh start "$state/postgres")
    echo "a private cluster in $state/postgres ($DATABASE_URL); stop it with deploy/postgres.sh stop $state/postgres"
else
    echo "the server in DATABASE_URL"
fi
export DATABASE_URL

echo "== 5. Migrations"
"$binary" migrate --migrations Migrations

# Sample repositories, as the worker fetches them: archives with one top folder.
echo "== 6. Three sample repositories as archives"
rm -rf "$state/repos" && mkdir -p "$state/repos"
cp -R Tests/Fixtures/SampleApp "$state/repos/checkout-app"
cp deploy/local/checkout-app.CODEOWNERS "$state/repos/checkout-app/CODEOWNERS"
cp -R Tests/Fixtures/InterfaceBuilder "$state/repos/legacy-storyboards"
for repo in checkout-app legacy-storyboards; do
    tar -czf "$archives/$repo.tar.gz" -C "$state/repos" "$repo"
done
template=$(cat deploy/local/org.json)
printf '%s\n' "${template//@ARCHIVES@/"$root/$archives"}" > "$state/org.json"

# A manual run, so running this script again audits again (nightly runs are one per date).
echo "== 7. A run, drained by two workers"
"$binary" schedule --config "$state/org.json" --now --manual
"$binary" worker --until-idle --name local-1 --work-dir "$state" 2>>"$state/worker-1.log" &
first=$!
"$binary" worker --until-idle --name local-2 --work-dir "$state" 2>>"$state/worker-2.log" &
second=$!
# A failed job is reported by status below (and on the run's page), not by this script's exit.
wait "$first" || true
wait "$second" || true

echo "== 8. The run (a11y-audit status)"
"$binary" status

echo "== 9. The dashboard"
"$binary" render --out "$state/site"
if [ -f "$state/serve.pid" ] && kill -0 "$(cat "$state/serve.pid")" 2>/dev/null; then
    kill "$(cat "$state/serve.pid")"
    sleep 1
fi
rm -f "$state/serve.pid"
if [ "$serve" = 1 ]; then
    port=${A11Y_AUDIT_PORT:-8080}
    nohup "$binary" serve --site "$state/site" --port "$port" --render >"$state/serve.log" 2>&1 &
    echo $! > "$state/serve.pid"
    # The server prints its bound address first; wait for it, so a port in use is an error here.
    url=""
    for _ in $(seq 1 100); do
        url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$state/serve.log" | head -1)
        [ -n "$url" ] && break
        kill -0 "$(cat "$state/serve.pid")" 2>/dev/null || break
        sleep 0.1
    done
    if [ -z "$url" ]; then
        echo "deploy/local/run.sh: the dashboard server did not start:" >&2
        cat "$state/serve.log" >&2
        exit 1
    fi
    echo "Dashboard: $url (log: $state/serve.log; stop it with: kill \$(cat $state/serve.pid))"
else
    echo "Dashboard: rendered into $state/site (not served: --no-serve)"
fi
echo "Scan reports: $reports (text, JSON, SARIF). Worker logs: $state/worker-*.log."
echo "The results are in PostgreSQL ($DATABASE_URL): \`DATABASE_URL=$DATABASE_URL $binary status\`,"
echo "or psql: SELECT rule_id, path, line, message FROM findings WHERE fixed_in_run IS NULL;"

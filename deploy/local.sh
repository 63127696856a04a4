#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: installs the Debian packages, builds
# a11y-audit in release mode, and audits the bundled sample repositories (a directory and the
# same repository as a .tar.gz archive), writing text, JSON and SARIF reports to .local/reports.
set -euo pipefail
cd "$(dirname "$0")/.."
deploy/install-deps.sh
swift build -c release --product a11y-audit
binary=.build/release/a11y-audit
reports=.local/reports
mkdir -p "$reports"

samples=(Tests/Fixtures/SampleApp)
tar -czf "$reports/SampleApp.tar.gz" -C Tests/Fixtures SampleApp
for sample in "${samples[@]}" "$reports/SampleApp.tar.gz"; do
    name=$(basename "$sample" .tar.gz)
    [ -f "$sample" ] && name="$name-archive"
    echo "== auditing $sample"
    "$binary" scan "$sample" --fail-on none --format json --output "$reports/$name.json"
    "$binary" scan "$sample" --fail-on none --format sarif --output "$reports/$name.sarif"
    "$binary" scan "$sample" --fail-on none > "$reports/$name.txt" || true
done
echo
echo "Reports are in $reports (text, JSON, SARIF). The text report of the sample app:"
echo
cat "$reports/SampleApp.txt"

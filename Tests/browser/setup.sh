#!/usr/bin/env bash
# Installs what the browser accessibility harness needs, idempotently: Debian's chromium and
# chromium-driver, and selenium + axe-selenium-python (which bundles axe-core) in a virtualenv
# at .venv-browser/ in the repository root. Prints the virtualenv's python on the last line.
set -euo pipefail
cd "$(dirname "$0")/../.."
packages=(chromium chromium-driver python3 python3-venv)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
venv=.venv-browser
requirements=Tests/browser/requirements.txt
# Debian's python, so the virtualenv does not depend on whichever python is first on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# Reinstall only when the requirements changed since the last successful install.
stamp="$venv/.requirements.sha256"
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" > "$stamp"
fi
echo "$(pwd)/$venv/bin/python"

#!/usr/bin/env bash
# Installs the Debian packages a11y-audit builds and tests against (idempotent).
set -euo pipefail
packages=(pkg-config libarchive-dev libssl-dev libpq-dev libcurl4-openssl-dev libmicrohttpd-dev zlib1g-dev
          postgresql postgresql-contrib python3-yaml)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

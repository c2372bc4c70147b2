#!/usr/bin/env bash
# Install the Debian packages the sandbox and its tests use, when they are missing:
#   slirp4netns  gives a script with `network: allow` a network namespace of its own with
#                outbound access only (no host loopback, no host abstract sockets)
#   chromium     the headless browser that loads the HTML report in tests/e2e/test_report_browser.py
#                (Playwright drives Debian's build: Playwright's own browser download is not used)
# Idempotent: a no-op when everything is there. Needs root and apt-get; elsewhere it says
# what is missing and carries on (the sandbox then refuses `network: allow`, loudly, and the
# browser test skips, saying why; on CI it fails).
set -euo pipefail
PACKAGES=(slirp4netns chromium)
missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-packages: missing ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2
  echo "install-system-packages: until then the sandbox refuses 'network: allow' scripts and the report's browser test skips" >&2
  exit 0
fi
echo "install-system-packages: apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "install-system-packages: updating the package lists first"
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "install-system-packages: installed ${missing[*]}"

#!/usr/bin/env bash
# Installs the structured-merge-diff oracle's toolchain (test/smd/) from Debian: Go and SMD 4.1.2's sources.
# Idempotent and silent when both are installed; as root it uses apt-get, otherwise sudo when there is one;
# else it exits non-zero saying what to install.
set -euo pipefail

packages=(golang-go golang-k8s-sigs-structured-merge-diff-dev)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "test/smd/install.sh: no apt-get here; install the Debian packages ${missing[*]} (or Go and structured-merge-diff 4.1.2 sources in /usr/share/gocode) by hand" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo -n)
else
  echo "test/smd/install.sh: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "test/smd/install.sh: installing ${missing[*]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "${as_root[@]}" apt-get update -qq &&
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "test/smd/install.sh: installing ${missing[*]} failed" >&2
  exit 1
fi

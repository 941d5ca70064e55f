#!/usr/bin/env bash
# The Debian/Ubuntu packages the build needs, checked in one pass. Every missing package is named at once; they are
# installed when that needs no password (running as root, or sudo that works without one), and the command run is
# printed first. Otherwise the one apt-get line to run is printed and the exit status is 2.
# Used by the Makefile (when the build is configured) and by .ci/run, so the two never disagree.
# `packages.sh --list` prints the list. Not a Debian machine (no dpkg-query): nothing to check; CMake names what it
# cannot find.
set -uo pipefail

packages=(build-essential cmake catch2 libcli11-dev nlohmann-json3-dev libfmt-dev binutils git
          bubblewrap libseccomp-dev libre2-dev libssl-dev gcovr libarchive-dev pkg-config libstemmer-dev)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
command -v dpkg-query >/dev/null 2>&1 || exit 0

# One dpkg-query for all of them; a package dpkg has never heard of is simply absent from the output.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null | awk '/ install ok installed$/ {print $1}')
missing=()
for p in "${packages[@]}"; do
  grep -qx -- "$p" <<<"$installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0

install=(apt-get install -y --no-install-recommends "${missing[@]}")
echo "workbook: ${#missing[@]} Debian package(s) missing: ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then
  as=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as=(sudo -n)
else
  echo "workbook: install them with this one line, then run make again:" >&2
  echo "  sudo ${install[*]}" >&2
  exit 2
fi
# The package lists of a fresh machine (or container) are often empty, so update them first.
echo "workbook: running: ${as[*]:+${as[*]} }apt-get update -q && ${as[*]:+${as[*]} }${install[*]}"
if ! "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
   ! "${as[@]}" env DEBIAN_FRONTEND=noninteractive "${install[@]}"; then
  echo "workbook: installing failed (see apt-get's message above); install them by hand:" >&2
  echo "  sudo ${install[*]}" >&2
  exit 2
fi
echo "workbook: installed ${missing[*]}."

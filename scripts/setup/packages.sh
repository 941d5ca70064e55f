#!/usr/bin/env bash
# The Debian/Ubuntu packages the build needs, checked in one pass. Every missing package is named at once; they are
# installed when that needs no password (running as root, or sudo that works without one), and the command run is
# printed first. Otherwise the one apt-get line to run is printed and the exit status is 2.
# Used by the Makefile (when the build is configured) and by .ci/run, so the two never disagree.
# `packages.sh --list` prints the list. Not a Debian machine (no dpkg-query): nothing to check; CMake names what it
# cannot find.
set -uo pipefail

packages=(build-essential cmake catch2 libcli11-dev nlohmann-json3-dev libfmt-dev binutils git
          bubblewrap libseccomp-dev libre2-dev libssl-dev gcovr libarchive-dev pkg-config libstemmer-dev
          libthrust-dev)

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
if ! "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q; then
  echo "workbook: apt-get update failed (see its message above); install them by hand:" >&2
  echo "  sudo ${install[*]}" >&2
  exit 2
fi
# A name the package sources do not have would fail the whole install with apt's "Unable to locate package"; said
# first, in one sentence. On Ubuntu most of the list is in the universe component, which a trimmed image (a
# container, an autograder's base image) may have turned off. The package names are those of Debian 12, Ubuntu 22.04
# and Ubuntu 24.04 alike (docs/instructor-guide.md, "Gradescope"). WORKBOOK_OS_RELEASE: another os-release file
# (the set-up test's Ubuntu).
unavailable=()
for p in "${missing[@]}"; do
  apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || unavailable+=("$p")
done
if ((${#unavailable[@]})); then
  where="add the distribution's main archive to /etc/apt/sources.list"
  if grep -qsx 'ID=ubuntu' "${WORKBOOK_OS_RELEASE:-/etc/os-release}"; then
    where="enable Ubuntu's universe component (${as[*]:+${as[*]} }add-apt-repository -y universe; the command is in software-properties-common)"
  fi
  echo "workbook: this machine's package sources have no ${unavailable[*]}: $where, then run the same command again." >&2
  exit 2
fi
if ! "${as[@]}" env DEBIAN_FRONTEND=noninteractive "${install[@]}"; then
  echo "workbook: installing failed (see apt-get's message above); install them by hand:" >&2
  echo "  sudo ${install[*]}" >&2
  exit 2
fi
echo "workbook: installed ${missing[*]}."

#!/usr/bin/env bash
# Installs the Debian packages the tests need, once each, only when missing: make test and
# make reliability run it first (and so does .ci/run, through them). A package counts as present
# when any one of its files exists, so a machine that has them all makes no network call and
# needs no root. Otherwise: apt-get update, then one apt-get install of the missing packages, as
# root or through sudo; then each package's file must exist.
#   chromium      /usr/bin/chromium                      the docs page's test (headless)
#   postgresql    /usr/lib/postgresql/15/bin/postgres    the PostgreSQL ledger's tests (a real server)
#   libjemalloc2  libjemalloc.so.2 (amd64 or arm64)      the ETL's allocator (scripts/with-jemalloc.sh)
# SYSTEM_DEPS replaces that list (its tests point it at missing paths):
#   "package=file[:file…] package=file…"
# PI_TEST_NO_CHROMIUM=1 and PI_TEST_NO_POSTGRES=1 (those tests skip: README) leave chromium and
# postgresql out.
set -euo pipefail

deps=${SYSTEM_DEPS:-"chromium=/usr/bin/chromium postgresql=/usr/lib/postgresql/15/bin/postgres libjemalloc2=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2:/usr/lib/aarch64-linux-gnu/libjemalloc.so.2"}

present() { # present FILE[:FILE…]: whether any of them exists
  local f
  IFS=: read -r -a files <<< "$1"
  for f in "${files[@]}"; do [ -e "$f" ] && return 0; done
  return 1
}

missing=()
for dep in $deps; do
  pkg=${dep%%=*}
  files=${dep#*=}
  if [ -z "$pkg" ] || [ "$pkg" = "$dep" ] || [ -z "$files" ]; then
    echo "install-system-deps: \"$dep\" is not package=file[:file…]" >&2
    exit 2
  fi
  if [ "$pkg" = chromium ] && [ "${PI_TEST_NO_CHROMIUM:-}" = 1 ]; then continue; fi
  if [ "$pkg" = postgresql ] && [ "${PI_TEST_NO_POSTGRES:-}" = 1 ]; then continue; fi
  present "$files" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-system-deps: the tests need Debian packages ${missing[*]}: run as root, install sudo, or run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "install-system-deps: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"

for dep in $deps; do
  [[ " ${missing[*]} " == *" ${dep%%=*} "* ]] || continue
  if ! present "${dep#*=}"; then
    echo "install-system-deps: ${dep%%=*} was installed but ${dep#*=} is still missing" >&2
    exit 1
  fi
done

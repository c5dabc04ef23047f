#!/usr/bin/env bash
# A fresh user's first steps, on a machine that cannot compile: a clean clone of HEAD, `npm ci` and
# `npm start` on Node <version> with no C/C++ compiler, make or python on PATH and no node-gyp headers
# configured. Fails if anything was compiled or if the demo does not reach "demo done".
#   scripts/install-without-compiler.sh 26.12.1
set -euo pipefail
version="$1"
repo="$(cd "$(dirname "$0")/.." && pwd)"
node_bin="$(bash "$repo/scripts/node-from-npm.sh" "$version")"
work="$(mktemp -d)"
app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill -- "-$app_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# PATH: this Node first, then every command of the machine except compilers, build tools and other
# Nodes, as links in one folder.
tools="$work/bin"
mkdir -p "$tools"
for dir in /usr/local/bin /usr/bin /bin; do
  for cmd in "$dir"/*; do
    name="$(basename "$cmd")"
    case "$name" in
      cc | c++ | cpp | gcc* | g++* | *-gcc* | *-g++* | clang* | ld | make | gmake | cmake | python* | node | nodejs) continue ;;
    esac
    [ -e "$tools/$name" ] || ln -s "$cmd" "$tools/$name"
  done
done
export PATH="$node_bin:$tools"
for forbidden in cc c++ gcc g++ make python3; do
  if command -v "$forbidden" >/dev/null; then echo "install-without-compiler: $forbidden is still on PATH" >&2; exit 1; fi
done

# npm's user config without nodedir (node-gyp would otherwise find headers set up on this machine).
npmrc="$work/npmrc"
grep -v '^nodedir' "${npm_config_userconfig:-$HOME/.npmrc}" >"$npmrc" 2>/dev/null || : >"$npmrc"
export npm_config_userconfig="$npmrc"
unset npm_config_nodedir || true

git clone -q "$repo" "$work/repo"
cd "$work/repo"
echo "install-without-compiler: npm ci on $(node --version), no compiler on PATH" >&2
npm ci --no-fund --no-audit >"$work/npm-ci.log" 2>&1 || { tail -40 "$work/npm-ci.log" >&2; exit 1; }
if grep -qiE 'node-gyp|gyp info|prebuild-install' "$work/npm-ci.log"; then
  echo "install-without-compiler: npm ci ran a native build:" >&2
  grep -iE 'node-gyp|gyp info|prebuild-install' "$work/npm-ci.log" | head -5 >&2
  exit 1
fi
compiled="$(find node_modules \( -name '*.o' -o -path '*/build/Release/*.node' \) -print | head -5)"
if [ -n "$compiled" ]; then echo "install-without-compiler: compiled at install: $compiled" >&2; exit 1; fi

# npm start: the reference app against the embedded sandbox on a SQLite file, until "demo done".
log="$work/start.log"
setsid npm start >"$log" 2>&1 &
app_pid=$!
for _ in $(seq 1 300); do
  if grep -q 'demo done' "$log"; then
    echo "install-without-compiler: demo done on $(node --version)" >&2
    exit 0
  fi
  if ! kill -0 "$app_pid" 2>/dev/null; then break; fi
  sleep 1
done
echo "install-without-compiler: no 'demo done' within 300 s; the app's output:" >&2
tail -40 "$log" >&2
exit 1

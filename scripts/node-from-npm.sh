#!/usr/bin/env bash
# Prints the bin folder of Node <version> as published on the npm registry (package
# node-linux-<arch>), installing it first into a cache folder (never into the project):
#   PATH="$(scripts/node-from-npm.sh 26.12.1):$PATH" npm test
set -euo pipefail
version="$1"
cache="${PARTNER_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/partner-payments-ci}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-from-npm: no Node package for $(uname -m)" >&2; exit 1 ;;
esac
prefix="$cache/node-$version"
node_dir="$prefix/node_modules/node-linux-$arch"
if [ ! -x "$node_dir/bin/node" ]; then
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-$arch@$version" >&2
fi
[ "$("$node_dir/bin/node" --version)" = "v$version" ] || { echo "node-from-npm: bad Node binary in $node_dir" >&2; exit 1; }
echo "$node_dir/bin"

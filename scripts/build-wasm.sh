#!/usr/bin/env bash
# Builds the wasm engine on stable Rust (wasm-bindgen --target web), both
# builds with the same code, profile and passes, and reports their size:
#
#   bash scripts/build-wasm.sh            # npm: every feature, into npm/wasm/
#   bash scripts/build-wasm.sh foundry    # the Foundry module's: without the scene
#                                         # reader and the seeded roller (the module
#                                         # uses Foundry's walls and dice), into
#                                         # target/wasm-foundry/; fails above the
#                                         # budget in wasm-budget.json (gzip -9 bytes)
#   bash scripts/build-wasm.sh all        # both
#
# Built for speed: cargo profile `wasm` (opt-level 2) and wasm-opt -O2
# (docs/performance.md has the figures). A panic aborts the instance
# (`panic = "abort"`); the panic hook first throws a JavaScript error that
# npm/browser.js turns into `engine_panicked` before it resets the instance.
#
# Installs what it needs: the wasm32 Rust target, wasm-bindgen-cli at the
# exact version furtive-wasm pins, and wasm-opt (npm ci in scripts/binaryen:
# Debian's binaryen 108 turns wasm-bindgen's externref table into a funcref
# table and the module then fails to instantiate).
set -euo pipefail
cd "$(dirname "$0")/.."

# The features the Rust wasm32 target enables by default (and wasm-bindgen
# uses), given explicitly: wasm-opt neither adds nor drops any.
WASM_OPT_FEATURES=(--enable-reference-types --enable-bulk-memory --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-multivalue)

rustup target add wasm32-unknown-unknown >/dev/null

version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/furtive-wasm/Cargo.toml)
if [ -z "$version" ]; then
  echo "build-wasm: cannot read the pinned wasm-bindgen version" >&2
  exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "build-wasm: installing wasm-bindgen-cli $version"
  cargo install wasm-bindgen-cli --version "$version"
fi

(cd scripts/binaryen && npm ci --no-audit --no-fund --silent)
wasm_opt=scripts/binaryen/node_modules/.bin/wasm-opt

which=${1:-npm}
case "$which" in
  npm | foundry | all) ;;
  *) echo "build-wasm: unknown build '$which' (npm, foundry or all)" >&2; exit 2 ;;
esac
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')

# LLVM inlines a function, marked `#[inline]` or not, up to a cost of 175
# (its defaults at opt-level 2: 225, and 325 for one marked `#[inline]`, as
# much of std, serde and serde_json is): the Foundry module's wasm within
# its budget (wasm-budget.json), measured no slower at the table.
WASM_RUSTFLAGS="-C llvm-args=-inline-threshold=175 -C llvm-args=-inlinehint-threshold=175"

# build <out-dir> <cargo arguments...>
build() {
  local out=$1
  shift
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$WASM_RUSTFLAGS" \
    cargo build -p furtive-wasm --target wasm32-unknown-unknown --profile wasm "$@"
  rm -rf "$out"
  # --experimental-reset-state-function: exports __wbg_reset_state, which
  # npm/browser.js calls to start a fresh instance after a panic.
  wasm-bindgen --target web --out-dir "$out" --out-name furtive_wasm \
    --experimental-reset-state-function --remove-producers-section \
    "$target_dir/wasm32-unknown-unknown/wasm/furtive_wasm.wasm"
  "$wasm_opt" "${WASM_OPT_FEATURES[@]}" -O2 --strip-producers \
    "$out/furtive_wasm_bg.wasm" -o "$out/furtive_wasm_bg.wasm"
  local wasm="$out/furtive_wasm_bg.wasm"
  echo "build-wasm: $wasm: $(wc -c <"$wasm") bytes raw, $(gzip -9 -c "$wasm" | wc -c) bytes gzipped (gzip -9)"
}

if [ "$which" = npm ] || [ "$which" = all ]; then
  build npm/wasm
fi

if [ "$which" = foundry ] || [ "$which" = all ]; then
  build target/wasm-foundry --no-default-features
  gzipped=$(gzip -9 -c target/wasm-foundry/furtive_wasm_bg.wasm | wc -c)
  budget=$(sed -n 's/.*"foundryWasmGzipBytes": *\([0-9]*\).*/\1/p' wasm-budget.json)
  if [ -z "$budget" ]; then
    echo "build-wasm: wasm-budget.json has no foundryWasmGzipBytes" >&2
    exit 1
  fi
  if [ "$gzipped" -gt "$budget" ]; then
    echo "build-wasm: FAILED: the Foundry module's wasm is $gzipped bytes gzipped, over the budget of $budget (wasm-budget.json)" >&2
    exit 1
  fi
fi

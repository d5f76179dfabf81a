#!/usr/bin/env bash
# Builds the wasm engine (wasm-bindgen --target web) and reports its size.
#
#   bash scripts/build-wasm.sh            # npm: every feature, built for speed, into npm/wasm/
#   bash scripts/build-wasm.sh foundry    # the Foundry module's: no `scene`, no `roller`,
#                                         # no `free-functions`, no `locate-and-pickpocket`,
#                                         # on a pinned nightly,
#                                         # into target/wasm-foundry/; fails above the budget
#   bash scripts/build-wasm.sh all        # both
#
# The Foundry module uses Foundry's own collision test and Foundry's dice,
# so its wasm leaves out the scene reader and the seeded roller (cargo
# features of furtive-core, issue 9 §7); it keeps its state in a `Session`,
# so its wasm also leaves out the free functions over a whole state but
# `hiddenFrom` (feature `free-functions`: createState, apply and six
# queries; 147,729 -> 142,552 bytes gzipped, 529,007 -> 494,207 raw,
# 2026-11-30), and `Session.canLocate` (P5) and `Session.canPickpocket`
# (P10), which no flow of the module asks (feature `locate-and-pickpocket`
# of the binding crates: 137,095 -> 135,986 bytes gzipped, 451,671 ->
# 443,288 raw, 2026-12-01), and shared token ids and names (feature
# `shared-text`: their own serde readers and writers, 119,772 -> 122,009
# bytes gzipped, 2026-12-02; its ids are `String`s). Its budget is one number in wasm-budget.json
# (`foundryModuleGzipBytes`, gzip -9): above it this script fails. The npm
# build is reported, not limited.
#
# Levers in the code, measured on the Foundry module's wasm (gzip -9,
# 2026-11-30, branch wasmsize; 143,428 bytes, 497,822 raw, before):
#   the journal's effects, validate_config and P9's combat end share their
#     map and set types (Cow<str> sets, one map by (hider, observer);
#     surprises searched in their list, not put in a map per side): four
#     BTreeMap/BTreeSet instantiations fewer, 139,610 / 474,544 raw
#     (-2.7%), kept;
#   the query objects ({observer, hider}) read like every other argument,
#     through the one Value reader with the path (their text reader only
#     with `text-reader`): 138,386 / 471,017 raw (-0.9%), kept. The npm
#     build with both: 282,313 -> 279,978 (1,060,513 -> 1,039,151 raw);
#   every type read with the path over a borrowed Value (serde_json's
#     `&Value` reader, which the npm build's fast path already used) in
#     place of the owned Value's reader, which moves and drops what it has
#     not read: 137,245 / 455,255 raw (-0.8%), kept; the npm build
#     278,946 (1,012,293 raw): one Value reader per type there instead
#     of two;
#   the parts of the generic readers and writer that do not depend on the
#     type (a refusal's path and message, invalid_input naming the field,
#     moving an event's tag to its key, the ASCII JSON buffer) out of line
#     and not generic: 136,507 / 450,423 raw (-0.5%), kept; the npm build
#     278,102 (1,003,839 raw).
#   the enums of names only (Ruleset, SituationModifier, PairReason,
#     HiderPhase, HitZone, Clause) read through one visitor for all
#     (src/named.rs: the derive's visitors were compiled once per enum and
#     reader), answers word for word the derive's: 136,677 -> 136,164
#     gzipped, 445,209 -> 437,852 raw (2026-12-01), kept.
#   litemap's LiteMap (a sorted Vec) in place of BTreeMap/BTreeSet
#     (2026-12-01, branch litemap; 137,548 / 441,668 raw before; every
#     B-tree instantiation carried its own node code): the state maps
#     (creatures, hiders, pairs) 131,797 / 413,561 raw; + the journal's
#     touched-pair map and Cow<str> sets 128,485 / 399,979; + the
#     hiddenFrom lookup built as one 127,331 / 396,000 raw (-7.4% in all),
#     kept. Only serde_json's own BTreeMap<String, Value> is left.
#   the explanations as messages of one catalog, their texts rendered by
#     the npm package (furtive-core's feature `texts`, which no binding
#     builds; src/message.rs, npm/explain.js; 2026-12-01, before litemap):
#     137,548 -> 131,115 gzipped; then a Session's effects packed
#     (src/packed.rs): +1.8 KB; merged with litemap 123,017; a message's
#     key by its number, not a search: 122,832; messages as [key number,
#     argument...] (no names, no map): 121,844; the view sorted once:
#     121,618 (375 KB raw), kept: under issue 9's 122,880.
#   talc as the wasm allocator in place of dlmalloc (crates/furtive-wasm;
#     2026-12-02): 121,618 -> 119,909 (367,118 raw), the npm build 463,934
#     -> 461,776; the same speed (src/lib.rs), kept: under 120,000.
#   SmolStr token ids (branch smolstr, not merged): 128,247 (+6.5 KB: a
#     SmolStr is 24 bytes on wasm32, a String 12, and every serde reader
#     and move of an id grows); the npm wasm +57 KB gzipped.
#   Tried and not kept: every type read through erased_serde (serde_json's
#     Value reader and serde_path_to_error's wrappers compiled once for
#     all types instead of once per type): 208,209 / 984,230 raw (+45%),
#     because erased_serde puts all ~30 visit_* methods of every serde
#     visitor in its vtable; LLVM's -inline-threshold=0: 143,820 (+0.3%);
#     the state maps holding boxed values (one BTreeMap instantiation
#     serves all four): 131,417 / 426,248 raw (-3.7%), not kept: it
#     changes the public Rust field types and adds an allocation per pair
#     on the engine's hot path, and 120 KB is not reached either way.
#   Merged with the Session::apply view walk (feature view-walk, left out
#     here: +3.3 KB): 136,569 / 450,530 raw (2026-11-30).
#
# Installs what it needs: the wasm32 Rust target, wasm-bindgen-cli at the
# exact version furtive-wasm pins, wasm-opt (npm ci in scripts/binaryen)
# and, for the Foundry module's build, the project's pinned nightly
# toolchain (scripts/nightly.sh)
# with its `rust-src` (rustup, minimal profile).
#
# The Foundry module's wasm is built on the pinned nightly (FURTIVE_NIGHTLY),
# which rebuilds the standard library for it; the npm build stays on stable.
# Measured on the Foundry module's wasm after wasm-opt (gzip -9,
# 2026-11-30, stable: 588,296 bytes raw, 163,501 gzipped):
#   -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size
#     (std compiled with the crate's opt-level "z", and its size-minded
#     code paths): 557,417 raw, 156,847 gzipped (-4.1%);
#   + -Zlocation-detail=none (no file/line/column strings in panics):
#     549,729 / 154,911 (-5.3%);
#   + -Cpanic=immediate-abort (a panic is a trap at once: no hook, no
#     message formatting, none of core::fmt's panic machinery):
#     531,869 / 148,792 (-9.0%), kept. A panic still reaches JavaScript
#     as an exception (`RuntimeError: unreachable`), which npm/browser.js
#     turns into `engine_panicked` before it resets the instance; its
#     message no longer carries the panic's own text (the npm build keeps
#     it). tests/js/session.test.mjs checks both builds.
#   Tried and not kept: -Zfmt-debug=none (145,324, but serde words a bad
#     string with Debug, `invalid type: string "x"`: messages would
#     change); opt-level "s" (160,549); -Zmerge-functions=trampolines
#     (148,983); wasm-opt --merge-similar-functions (+0.4%).
FOUNDRY_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
#
# wasm-opt, from the npm package `binaryen` (pinned in scripts/binaryen/,
# installed with npm ci; Debian's binaryen 108 turns wasm-bindgen's
# externref table into a funcref table and the module then fails to
# instantiate). Measured on the Foundry module's wasm (gzip -9, 2026-11-30;
# 169,766 bytes without wasm-opt):
#   -Oz or -O2: 203,451 / 203,998 (+20%): their inlining pass alone adds
#     43 KB gzipped (it copies small generic functions into their callers);
#   -O1: 167,918 (-1.1%);
#   sorting the functions by name (--reorder-functions-by-name, before the
#     name section is dropped) puts the instantiations of one generic
#     (BTreeMap, serde's visitors) side by side, inside gzip's 32 KB window:
#     -3.4% alone;
#   -Oz with inlining off (-aimfs 0 -fimfs 0 -ocimfs 0), sorted by name:
#     161,966 (-4.6%);
#   -O1, --dae-optimizing, -O1, then sorted by name: 161,286 (-5.0%), kept
#     until the nightly build below;
#   on the nightly build (2026-11-30, 148,791 with the passes above): -O2
#     with inlining off (-aimfs 0 -fimfs 0 -ocimfs 0: no function is
#     inlined for being small, flexible or called once), --dae-optimizing,
#     -O1, sorted by name: 147,706 (-0.7%), kept; the npm build 243,793 to
#     242,269. -O3 the same way: 149,115; -O2 twice: 147,710.
# The names are read from wasm-bindgen's output and dropped by wasm-opt
# (no -g), so the shipped file has no name section.
FOUNDRY_PROFILE=wasm-release
FOUNDRY_WASM_OPT_PASSES=(-aimfs 0 -fimfs 0 -ocimfs 0 -O2 --dae-optimizing -O1 --reorder-functions-by-name --strip-producers)
#
# The npm package's wasm is built for speed, not size: it is what tool
# builders run in browsers (and in Node without the addon), and issue 9's
# targets are times. Cargo profile `wasm-speed` (opt-level 2) and wasm-opt
# -O2 with its default inlining. Measured 2026-11-30 with
# `node bench/session.mjs --quick`, one run per pair of builds, wasm in
# Node / in Chromium, median per call (200 creatures: one viewChanged
# naming 150 observers, all coming into view; 20 creatures: free apply):
#   opt-level "z", the Foundry passes (before): 282,303 bytes gzipped;
#     Session.apply 890 / 705 us, free apply 643 / 475 us;
#   opt-level 3, wasm-opt -O3: 552,976 gzipped; 523 / 445 us, 382 / 295 us;
#   opt-level 2, wasm-opt -O2: 535,773 gzipped; 505 / 430 us, 374 / 290 us
#     (the same as 3 within noise), kept;
#   opt-level "s", wasm-opt -O2: 382,351 gzipped; 647 / 530 us,
#     484 / 370 us (a quarter slower than 2).
NPM_PROFILE=wasm-speed
NPM_WASM_OPT_PASSES=(-O2 --strip-producers)
# The features the Rust wasm32 target enables by default (and wasm-bindgen
# uses), given explicitly: wasm-opt neither adds nor drops any.
WASM_OPT_FEATURES=(--enable-reference-types --enable-bulk-memory --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-multivalue)

# scripts/wasm-floor.sh compares both builds with the engine alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/nightly.sh

which=${1:-npm}
case "$which" in
  npm | foundry | all) ;;
  *) echo "build-wasm: unknown build '$which' (npm, foundry or all)" >&2; exit 2 ;;
esac

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

size() { echo "$(wc -c <"$1") bytes raw, $(gzip -9 -c "$1" | wc -c) bytes gzipped (gzip -9)"; }

# build <out-dir> <cargo's wasm32 output dir> <profile> <wasm-opt passes array name> <cargo arguments...>
build() {
  local out=$1 built=$2 profile=$3
  local -n passes=$4
  shift 4
  cargo "$@" -p furtive-wasm --target wasm32-unknown-unknown --profile "$profile"
  rm -rf "$out"
  # --experimental-reset-state-function: exports __wbg_reset_state, which
  # npm/browser.js calls to start a fresh instance after a panic.
  wasm-bindgen --target web --out-dir "$out" --out-name furtive_wasm \
    --experimental-reset-state-function --remove-producers-section \
    "$built/wasm32-unknown-unknown/$profile/furtive_wasm.wasm"
  "$wasm_opt" "${WASM_OPT_FEATURES[@]}" "${passes[@]}" \
    "$out/furtive_wasm_bg.wasm" -o "$out/furtive_wasm_bg.wasm"
}

if [ "$which" = npm ] || [ "$which" = all ]; then
  build npm/wasm target "$NPM_PROFILE" NPM_WASM_OPT_PASSES build
  echo "build-wasm: npm/wasm/furtive_wasm_bg.wasm (every feature): $(size npm/wasm/furtive_wasm_bg.wasm)"
fi

if [ "$which" = foundry ] || [ "$which" = all ]; then
  install_nightly rust-src
  # Its own target directory: the nightly's artifacts would otherwise evict
  # the stable build's from target/wasm32-unknown-unknown at every switch.
  # RUSTFLAGS reach the wasm32 crates and the rebuilt std only (with
  # --target, build scripts and proc macros are built without them).
  RUSTFLAGS="$FOUNDRY_RUSTFLAGS" CARGO_TARGET_DIR=target/wasm-nightly \
    build target/wasm-foundry target/wasm-nightly "$FOUNDRY_PROFILE" FOUNDRY_WASM_OPT_PASSES "+$FURTIVE_NIGHTLY" build --no-default-features \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size
  wasm=target/wasm-foundry/furtive_wasm_bg.wasm
  echo "build-wasm: $wasm (Foundry module: no scene, no roller, no free functions, no text reader, no canLocate or canPickpocket, no shared text): $(size "$wasm")"
  budget=$(sed -n 's/.*"foundryModuleGzipBytes": *\([0-9]*\).*/\1/p' wasm-budget.json)
  if [ -z "$budget" ]; then
    echo "build-wasm: wasm-budget.json has no foundryModuleGzipBytes" >&2
    exit 1
  fi
  gzipped=$(gzip -9 -c "$wasm" | wc -c)
  if [ "$gzipped" -gt "$budget" ]; then
    echo "build-wasm: FAILED: the Foundry module's wasm is $gzipped bytes gzipped, over the budget of $budget (wasm-budget.json)" >&2
    exit 1
  fi
  echo "build-wasm: within the Foundry module's budget: $gzipped <= $budget bytes gzipped (wasm-budget.json)"
fi

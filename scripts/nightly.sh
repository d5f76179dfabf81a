# Sourced, not run: the one nightly Rust toolchain the project uses, for
# the fuzz targets only (cargo-fuzz; scripts/fuzz-smoke.sh,
# docs/fuzzing.md); every build that ships is on stable. Pinned, so a
# new nightly (a new clippy lint, a changed unstable flag) cannot break a
# build that passed.
FURTIVE_NIGHTLY=nightly-2026-05-20

# install_nightly <component...>: installs FURTIVE_NIGHTLY (rustup, minimal
# profile) and the components given, each only when it is missing. Two
# builds started at once (two worktrees on one machine) would both install
# a missing component, and rustup then fails one of them ("detected
# conflict"); flock (util-linux) makes the second wait for the first.
install_nightly() {
  exec 9>"${TMPDIR:-/tmp}/furtive-rustup.lock"
  flock 9
  if ! rustup toolchain list | grep -q "^$FURTIVE_NIGHTLY-"; then
    echo "installing the Rust toolchain $FURTIVE_NIGHTLY (scripts/nightly.sh)"
    rustup toolchain install "$FURTIVE_NIGHTLY" --profile minimal
  fi
  local component
  for component in "$@"; do
    if ! rustup component list --toolchain "$FURTIVE_NIGHTLY" --installed | grep -q "^$component"; then
      rustup component add "$component" --toolchain "$FURTIVE_NIGHTLY"
    fi
  done
  flock -u 9
  exec 9>&-
}

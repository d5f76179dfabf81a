#!/usr/bin/env bash
# Builds the napi addon (crates/furtive-node) in release and copies it to
# npm/furtive.<platform>.node, the file npm/node.js loads. Plain cargo: the
# addon is an ordinary cdylib; napi-build sets the link flags.
set -euo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64-gnu ;;
  Linux-aarch64) platform=linux-arm64-gnu ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "build-node: unsupported platform $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
if [ "$(uname -s)" = Linux ] && ldd --version 2>&1 | grep -qi musl; then
  platform=${platform%-gnu}-musl
fi

cargo build -p furtive-node --release
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
lib="$target_dir/release/libfurtive_node.so"
[ -f "$lib" ] || lib="$target_dir/release/libfurtive_node.dylib"
cp "$lib" "npm/furtive.$platform.node"
echo "build-node: npm/furtive.$platform.node ($(wc -c <"npm/furtive.$platform.node") bytes)"

// Finds the napi addon for this platform, by the napi-rs CLI's conventions
// (package.json `napi.binaryName` and `napi.targets`; `napi create-npm-dirs`
// makes one package per target, `napi prepublish` lists them as optional
// dependencies, so npm installs only the one that fits):
//
//   1. `./furtive.<platform>.node` beside this file: a local build
//      (scripts/build-node.sh);
//   2. the package `furtive-<platform>`, whose `main` is that same file.
//
// <platform> is napi's name for the target: `linux-x64-gnu`,
// `linux-arm64-musl`, `darwin-arm64`, `win32-x64-msvc`... Returns null when
// neither is installed (node.js then runs the wasm engine).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The C library on Linux, read as napi-rs's generated loader does. */
function isMusl() {
  try {
    return readFileSync("/usr/bin/ldd", "utf8").includes("musl");
  } catch {
    const header = process.report?.getReport?.().header;
    return !header?.glibcVersionRuntime;
  }
}

/** napi's platform name for `platform`/`arch` (and the C library on Linux). */
export function platformName({ platform = process.platform, arch = process.arch, musl } = {}) {
  if (platform === "linux") return `linux-${arch}-${(musl ?? isMusl()) ? "musl" : "gnu"}`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** What is tried, in order: the local file, then the platform package. */
export function addonCandidates(name = platformName()) {
  return [`./furtive.${name}.node`, `furtive-${name}`];
}

/** The addon's exports, or null when none is installed for this platform. */
export function loadAddon() {
  for (const candidate of addonCandidates()) {
    try {
      return require(candidate);
    } catch (error) {
      if (error?.code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  return null;
}

// The npm packages as the release workflow makes them, for this machine's
// platform only: a copy of npm/ whose `napi.targets` is the host's target,
// then the napi-rs CLI's own steps (create-npm-dirs, artifacts with the
// addon scripts/build-node.sh built, prepublish without publishing), then
// `npm pack` of `furtive` and of its platform package `furtive-<platform>`.
// Used by tests/release/npm-platforms.test.mjs and tests/js/pack.test.mjs.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { platformName } from "../../npm/native.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI_DIR = path.join(REPO, "scripts/napi");
const CLI = path.join(CLI_DIR, "node_modules/@napi-rs/cli/dist/cli.js");

/** Installs the pinned napi-rs CLI (scripts/napi) unless it is there already. */
export function ensureNapiCli() {
  const pinned = JSON.parse(readFileSync(path.join(CLI_DIR, "package.json"), "utf8")).devDependencies["@napi-rs/cli"];
  const installed = path.join(CLI_DIR, "node_modules/@napi-rs/cli/package.json");
  if (!existsSync(installed) || JSON.parse(readFileSync(installed, "utf8")).version !== pinned) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--silent"], { cwd: CLI_DIR, stdio: "inherit" });
  }
}

/** Runs the napi-rs CLI; returns what it printed. */
export function napi(args, cwd) {
  return execFileSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The Rust target of this machine among npm/package.json's `napi.targets`, by napi's platform name. */
export function hostTarget() {
  const name = platformName();
  const triples = JSON.parse(readFileSync(path.join(REPO, "npm/package.json"), "utf8")).napi.targets;
  const arch = { x64: "x86_64", arm64: "aarch64" }[process.arch];
  const triple = triples.find((t) => t.startsWith(`${arch}-`) && (
    (name.startsWith("linux-") && t.includes("-linux-") && t.endsWith(name.split("-")[2])) ||
    (name.startsWith("darwin-") && t.endsWith("-apple-darwin")) ||
    (name.startsWith("win32-") && t.endsWith("-pc-windows-msvc"))));
  return { name, triple };
}

/** A copy of npm/ as it is in the repository: no built addon, no platform folders, no node_modules. */
export function copyPackage(into) {
  const from = path.join(REPO, "npm");
  cpSync(from, into, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(from, source);
      return !relative.endsWith(".node") && !/^(npm|node_modules)([/\\]|$)/.test(relative);
    },
  });
  return into;
}

/**
 * Packs `furtive` and `furtive-<host platform>` in `work`; returns the two
 * tarballs' paths and their file lists.
 */
export function packForHost(work) {
  ensureNapiCli();
  const { name, triple } = hostTarget();
  if (!triple) throw new Error(`no napi target in npm/package.json for this machine (${name})`);
  const addon = path.join(REPO, `npm/furtive.${name}.node`);
  if (!existsSync(addon)) throw new Error(`${addon} is missing: build it with scripts/build-node.sh`);
  const pkg = copyPackage(path.join(work, "pkg"));
  const manifest = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8"));
  manifest.napi.targets = [triple];
  writeFileSync(path.join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const artifacts = path.join(work, "artifacts");
  mkdirSync(artifacts, { recursive: true });
  cpSync(addon, path.join(artifacts, path.basename(addon)));
  napi(["create-npm-dirs"], pkg);
  napi(["artifacts", "--output-dir", artifacts], pkg);
  napi(["prepublish", "-t", "npm", "--no-gh-release", "--skip-optional-publish"], pkg);
  const pack = (dir) => {
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    return { tarball: path.join(work, packed.filename), files: packed.files.map((f) => f.path).sort(), name: packed.name };
  };
  return { name, main: pack(pkg), platform: pack(path.join(pkg, "npm", name)), manifest: JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")) };
}

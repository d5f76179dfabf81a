#!/usr/bin/env node
// One version for every part of Furtive: the Cargo workspace's
// (`[workspace.package] version` in Cargo.toml) is the source; the npm
// package, the Foundry module's manifest (its version, and the release tag
// in its `download`), the lock files' entries of our
// crates, the lock entries of the npm package where a folder links it (the
// demo, the JavaScript tests) and the top heading of
// CHANGELOG.md follow it.
//
//   node scripts/version.mjs                  prints the version
//   node scripts/version.mjs check [--tag vX.Y.Z]
//                                             fails naming each file that disagrees
//                                             (and, given a tag: the tag, and a
//                                             changelog entry without its date)
//   node scripts/version.mjs bump X.Y.Z       moves every file to X.Y.Z at once
//
// `--root DIR` works on another copy of the repository (the tests use it).

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A release version only: a pre-release tag would become GitHub's latest
// release (the manifest URL every GM's Foundry reads) and npm's `latest`.
const RELEASE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const CRATES = ["furtive-core", "furtive-node", "furtive-wasm"];
const LOCKS = ["Cargo.lock", "fuzz/Cargo.lock"];

/** A file of the repository, or an error naming it when it is missing. */
function readRepoFile(root, file) {
  if (!existsSync(path.join(root, file))) throw new Error(`version: ${file} is missing in ${root}`);
  return readFileSync(path.join(root, file), "utf8");
}

const notRelease = (version) => `"${version}" is not a release version (X.Y.Z; pre-releases and build metadata are not published)`;

/** The workspace version: `version` in Cargo.toml's `[workspace.package]` table. */
export function workspaceVersion(root) {
  const toml = readRepoFile(root, "Cargo.toml");
  const table = toml.match(/^\[workspace\.package\]\n((?:(?!\[).*\n)*)/m);
  const version = table?.[1].match(/^version\s*=\s*"([^"]*)"/m)?.[1];
  if (!version) throw new Error("Cargo.toml: no version in [workspace.package]");
  return version;
}

/**
 * Every place that repeats the version: `read` gives what the file says
 * (null when it says nothing), `write` returns the file's text with `version`
 * (the text as `edited` holds it, when it does).
 */
function places(root, edited = new Map()) {
  const text = (file) => edited.get(file) ?? readRepoFile(root, file);
  // A top-level "version" of a JSON file written two spaces deep.
  const jsonField = (file) => ({
    file,
    read: () => JSON.parse(text(file)).version ?? null,
    write: (version) => text(file).replace(/^( {2}"version": )"[^"]*"/m, `$1"${version}"`),
  });
  // A lock file's entry of the npm package, linked from a folder beside it.
  const linkedLock = (file, key) => ({
    file,
    read: () => JSON.parse(text(file)).packages?.[key]?.version ?? null,
    write: (version) => text(file).replace(new RegExp(`("${key.replace(/[./]/g, "\\$&")}": \\{\\n\\s*"name": "furtive",\\n\\s*"version": )"[^"]*"`), `$1"${version}"`),
  });
  const lockEntries = (file) => ({
    file,
    read: () => {
      const found = CRATES.map((name) => [name, text(file).match(new RegExp(`^name = "${name}"\\nversion = "([^"]*)"`, "m"))?.[1]]).filter(([, v]) => v);
      if (found.length === 0) return null;
      // One version for all our crates, or each crate with its own.
      return found.every(([, v]) => v === found[0][1]) ? found[0][1] : found.map(([name, v]) => `${name} ${v}`).join(", ");
    },
    write: (version) => text(file).replace(new RegExp(`^(name = "(?:${CRATES.join("|")})"\\nversion = )"[^"]*"`, "gm"), `$1"${version}"`),
  });
  return [
    {
      file: "Cargo.toml",
      read: () => workspaceVersion(root),
      write: (version) =>
        text("Cargo.toml").replace(/^(\[workspace\.package\]\n(?:(?!\[).*\n)*?version\s*=\s*)"[^"]*"/m, `$1"${version}"`),
    },
    ...LOCKS.map(lockEntries),
    jsonField("npm/package.json"),
    jsonField("foundry-module/module.json"),
    {
      // This version's zip: `download` names its release tag.
      file: "foundry-module/module.json",
      field: "download",
      read: () => JSON.parse(text("foundry-module/module.json")).download?.match(/\/releases\/download\/v([^/]+)\//)?.[1] ?? null,
      write: (version) => text("foundry-module/module.json").replace(/(\/releases\/download\/v)[^/"]+\//, `$1${version}/`),
    },
    linkedLock("demo/package-lock.json", "../npm"),
    linkedLock("tests/js/package-lock.json", "../../npm"),
    {
      // The newest entry: `## X.Y.Z (unreleased)` or `## X.Y.Z (YYYY-MM-DD)`.
      file: "CHANGELOG.md",
      read: () => text("CHANGELOG.md").match(/^## (\S+)/m)?.[1] ?? null,
      write: (version) => {
        const changelog = text("CHANGELOG.md");
        const top = changelog.match(/^## (\S+) \((.*)\)$/m);
        if (!top) throw new Error("CHANGELOG.md: no `## X.Y.Z (...)` heading");
        // A released top entry stays; the new version opens an entry above it.
        if (top[2] !== "unreleased" && top[1] !== version) {
          return changelog.slice(0, top.index) + `## ${version} (unreleased)\n\n` + changelog.slice(top.index);
        }
        return changelog.slice(0, top.index) + `## ${version} (${top[2]})` + changelog.slice(top.index + top[0].length);
      },
    },
  ];
}

/** The date of CHANGELOG.md's newest entry (`## X.Y.Z (YYYY-MM-DD)`), or null while it is unreleased. */
export function releaseDate(root) {
  return readRepoFile(root, "CHANGELOG.md").match(/^## \S+ \((.*)\)$/m)?.[1].match(/^\d{4}-\d{2}-\d{2}$/)?.[0] ?? null;
}

/** Each file whose version is not `version`: `[{ file, found }]`. */
export function disagreements(root, version = workspaceVersion(root)) {
  return places(root)
    .map((place) => ({ file: place.field ? `${place.file} (${place.field})` : place.file, found: place.read() }))
    .filter(({ found }) => found !== version);
}

/** Writes `version` everywhere (false: every file says it already); refuses what is not a release version. */
export function bump(root, version) {
  if (!RELEASE.test(version)) throw new Error(`version: ${notRelease(version)}`);
  if (workspaceVersion(root) === version && disagreements(root, version).length === 0) return false;
  // Every edit is made in memory first (a file may hold two places), then written.
  const edited = new Map();
  for (const place of places(root, edited)) edited.set(place.file, place.write(version));
  for (const [file, text] of edited) writeFileSync(path.join(root, file), text);
  const left = disagreements(root, version);
  if (left.length) throw new Error(`bump: still not ${version}: ${left.map((d) => d.file).join(", ")}`);
  return true;
}

const USAGE = "usage: node scripts/version.mjs [check [--tag vX.Y.Z] | bump X.Y.Z] [--root DIR]";

/** A usage error: what is wrong, then the usage; nothing is read or written. */
function usage(message) {
  console.error(`${message ? `version: ${message}\n` : ""}${USAGE}`);
  process.exit(2);
}

function main(argv) {
  let root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const args = [];
  let tag = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--root" || argv[i] === "--tag") {
      const value = argv[++i];
      if (!value) usage(`${argv[i - 1]} needs a value`);
      if (argv[i - 1] === "--root") root = path.resolve(value);
      else tag = value;
    } else args.push(argv[i]);
  }
  const [command = "print", ...words] = args;
  const value = words[0];
  if (command === "bump" && words.length > 1) usage(`one version to bump to, not ${words.length} (${words.join(" ")})`);
  if ((command === "check" || command === "print") && words.length) usage(`${command} takes no word, not "${words[0]}"`);
  if (tag !== null && command !== "check") usage("--tag is for check");
  if (command === "print") {
    console.log(workspaceVersion(root));
  } else if (command === "check") {
    const version = workspaceVersion(root);
    if (!RELEASE.test(version)) throw new Error(`version: Cargo.toml: ${notRelease(version)}`);
    const wrong = disagreements(root, version);
    if (tag !== null && tag !== `v${version}`) wrong.push({ file: "the tag", found: tag });
    // A tagged version is released: its changelog entry has its date.
    const undated = tag !== null && releaseDate(root) === null;
    if (wrong.length || undated) {
      for (const { file, found } of wrong) console.error(`version: ${file} says ${found ?? "nothing"}, the workspace ${version}`);
      if (wrong.some(({ file }) => file !== "the tag")) console.error("version: run `node scripts/version.mjs bump X.Y.Z` to move every file at once");
      if (undated) console.error(`version: CHANGELOG.md's ${version} entry has no date: write \`## ${version} (YYYY-MM-DD)\` before tagging`);
      process.exit(1);
    }
    console.log(`version: every file says ${version}${tag ? ` (tag ${tag})` : ""}`);
  } else if (command === "bump" && value) {
    console.log(bump(root, value) ? `version: every file now says ${value}` : `version: every file already says ${value}; nothing changed`);
  } else {
    usage(command === "bump" ? "bump needs a version (X.Y.Z)" : command === "print" ? "" : `no command "${command}"`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

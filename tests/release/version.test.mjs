// One version (scripts/version.mjs): the repository's files agree with the
// Cargo workspace's version; `check` fails naming a file that disagrees;
// `bump` moves every file at once and refuses what is not a version.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { disagreements, workspaceVersion } from "../../scripts/version.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const script = path.join(root, "scripts/version.mjs");
const FILES = [
  "Cargo.toml",
  "Cargo.lock",
  "fuzz/Cargo.lock",
  "npm/package.json",
  "foundry-module/module.json",
  "demo/package-lock.json",
  "tests/js/package-lock.json",
  "CHANGELOG.md",
];

const copies = [];
after(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
/** A copy of the files that carry the version, laid out as in the repository. */
function copy() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "furtive-version-"));
  copies.push(dir);
  for (const file of FILES) cpSync(path.join(root, file), path.join(dir, file));
  return dir;
}
const run = (...args) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
const read = (dir, file) => readFileSync(path.join(dir, file), "utf8");

describe("one version", () => {
  it("every file of the repository says the workspace's version", () => {
    const version = workspaceVersion(root);
    assert.match(version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(disagreements(root), []);
    const result = run("check");
    assert.equal(result.status, 0, result.stderr);
    assert.equal(run().stdout.trim(), version);
  });

  it("check fails naming the one file that disagrees, for each file", () => {
    const version = workspaceVersion(root);
    for (const file of FILES.slice(1)) {
      const dir = copy();
      const text = read(dir, file);
      // The version as the file writes it, the first time it appears after its key.
      const changed =
        file === "CHANGELOG.md"
          ? text.replace(`## ${version} `, "## 9.9.9 ")
          : file.endsWith(".lock")
            ? text.replace(/(name = "furtive-core"\nversion = )"[^"]*"/, '$1"9.9.9"')
            : file.endsWith("package-lock.json")
              ? text.replace(/("(?:\.\.\/)+npm": \{\n\s*"name": "furtive",\n\s*"version": )"[^"]*"/, '$1"9.9.9"')
              : text.replace(/^( {2}"version": )"[^"]*"/m, '$1"9.9.9"');
      assert.notEqual(changed, text, `${file}: the test changes its version`);
      writeFileSync(path.join(dir, file), changed);
      const result = run("check", "--root", dir);
      assert.equal(result.status, 1, `${file} disagrees: check fails`);
      assert.match(result.stderr, new RegExp(`${file.replace(/[./]/g, "\\$&")} says (furtive-core )?9\\.9\\.9,.* the workspace ${version.replace(/\./g, "\\.")}`));
      assert.equal(result.stderr.match(/ says /g).length, 1, `only ${file} is named: ${result.stderr}`);
    }
  });

  it("check fails when module.json's download is another version's zip", () => {
    const dir = copy();
    const file = "foundry-module/module.json";
    writeFileSync(path.join(dir, file), read(dir, file).replace(/\/releases\/download\/v[^/]+\//, "/releases/download/v9.9.9/"));
    const result = run("check", "--root", dir);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /foundry-module\/module\.json \(download\) says 9\.9\.9/);
  });

  it("a changed workspace version makes every other file disagree", () => {
    const dir = copy();
    writeFileSync(path.join(dir, "Cargo.toml"), read(dir, "Cargo.toml").replace(/^version = "[^"]*"/m, 'version = "7.0.0"'));
    const files = FILES.slice(1);
    files.splice(files.indexOf("foundry-module/module.json") + 1, 0, "foundry-module/module.json (download)");
    assert.deepEqual(
      disagreements(dir).map((d) => d.file),
      files,
    );
  });

  it("bump moves every file at once, and the files stay valid", () => {
    const dir = copy();
    const before = Object.fromEntries(FILES.map((file) => [file, read(dir, file)]));
    const result = run("bump", "1.4.0", "--root", dir);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(run("check", "--root", dir).status, 0);
    assert.equal(workspaceVersion(dir), "1.4.0");
    assert.equal(JSON.parse(read(dir, "npm/package.json")).version, "1.4.0");
    assert.equal(JSON.parse(read(dir, "foundry-module/module.json")).version, "1.4.0");
    assert.equal(JSON.parse(read(dir, "foundry-module/module.json")).download, "https://github.com/furtive-vtt/furtive/releases/download/v1.4.0/furtive.zip");
    assert.equal(JSON.parse(read(dir, "demo/package-lock.json")).packages["../npm"].version, "1.4.0");
    assert.equal(JSON.parse(read(dir, "tests/js/package-lock.json")).packages["../../npm"].version, "1.4.0");
    for (const lock of ["Cargo.lock", "fuzz/Cargo.lock"]) {
      assert.match(read(dir, lock), /name = "furtive-core"\nversion = "1\.4\.0"/);
    }
    assert.match(read(dir, "CHANGELOG.md"), /^## 1\.4\.0 \(/m);
    // Only the version changed: every line but the version's is kept.
    for (const file of FILES) {
      const old = before[file].split("\n");
      const now = read(dir, file).split("\n");
      const changed = now.filter((line, i) => line !== old[i]);
      assert.equal(now.length, old.length, `${file}: as many lines`);
      assert.ok(changed.length >= 1 && changed.every((line) => line.includes("1.4.0")), `${file}: only version lines changed: ${changed}`);
    }
    // A release's tag is the version, and its changelog entry has its date.
    const undated = run("check", "--root", dir, "--tag", "v1.4.0");
    assert.equal(undated.status, 1);
    assert.match(undated.stderr, /CHANGELOG\.md's 1\.4\.0 entry has no date/);
    writeFileSync(path.join(dir, "CHANGELOG.md"), read(dir, "CHANGELOG.md").replace(/^## 1\.4\.0 \(.*\)$/m, "## 1.4.0 (2027-02-01)"));
    assert.equal(run("check", "--root", dir, "--tag", "v1.4.0").status, 0);
    const wrongTag = run("check", "--root", dir, "--tag", "v1.4.1");
    assert.equal(wrongTag.status, 1);
    assert.match(wrongTag.stderr, /the tag says v1\.4\.1/);
  });

  it("bump opens a new changelog entry above a released one", () => {
    const dir = copy();
    const changelog = read(dir, "CHANGELOG.md").replace(/^## (\S+) \(unreleased\)/m, "## $1 (2027-01-15)");
    writeFileSync(path.join(dir, "CHANGELOG.md"), changelog);
    execFileSync(process.execPath, [script, "bump", "5.0.0", "--root", dir]);
    const now = read(dir, "CHANGELOG.md");
    assert.ok(now.indexOf("## 5.0.0 (unreleased)") < now.indexOf("(2027-01-15)"), "the new entry is on top");
    assert.equal(run("check", "--root", dir).status, 0);
  });

  it("bump refuses what is not a version and changes nothing", () => {
    const dir = copy();
    const before = FILES.map((file) => read(dir, file));
    for (const bad of ["1.2", "v1.2.3", "01.2.3", ""]) {
      const result = run("bump", bad, "--root", dir);
      assert.notEqual(result.status, 0, `"${bad}" is refused`);
    }
    assert.deepEqual(FILES.map((file) => read(dir, file)), before);
  });

  it("bump refuses a pre-release and changes nothing: a release of it would be every user's latest", () => {
    const dir = copy();
    const before = FILES.map((file) => read(dir, file));
    for (const pre of ["0.3.0-rc.1", "1.0.0-beta", "0.3.0+build.5"]) {
      const result = run("bump", pre, "--root", dir);
      assert.equal(result.status, 1, `"${pre}" is refused`);
      assert.match(result.stderr, new RegExp(`version: "${pre.replace(/[.+]/g, "\\$&")}" is not a release version \\(X\\.Y\\.Z`));
    }
    assert.deepEqual(FILES.map((file) => read(dir, file)), before);
  });

  it("check refuses a pre-release workspace version", () => {
    const dir = copy();
    writeFileSync(path.join(dir, "Cargo.toml"), read(dir, "Cargo.toml").replace(/^version = "[^"]*"/m, 'version = "0.3.0-rc.1"'));
    const result = run("check", "--root", dir);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /Cargo\.toml: "0\.3\.0-rc\.1" is not a release version \(X\.Y\.Z/);
  });

  it("bump to the version the files already say changes nothing and succeeds", () => {
    const dir = copy();
    const version = workspaceVersion(dir);
    const before = FILES.map((file) => read(dir, file));
    const result = run("bump", version, "--root", dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`already says ${version.replace(/\./g, "\\.")}`));
    assert.deepEqual(FILES.map((file) => read(dir, file)), before);
  });

  it("a missing file is named, check and bump fail without a stack trace, and bump writes nothing", () => {
    for (const missing of ["fuzz/Cargo.lock", "npm/package.json", "CHANGELOG.md"]) {
      const dir = copy();
      rmSync(path.join(dir, missing));
      const others = FILES.filter((file) => file !== missing);
      const before = others.map((file) => read(dir, file));
      for (const args of [["check"], ["bump", "3.0.0"]]) {
        const result = run(...args, "--root", dir);
        assert.equal(result.status, 1, `${args[0]} without ${missing}`);
        assert.equal(result.stderr.trim(), `version: ${missing} is missing in ${dir}`);
      }
      assert.deepEqual(others.map((file) => read(dir, file)), before);
    }
  });

  it("works the same from any directory", () => {
    const result = spawnSync(process.execPath, [script, "check"], { encoding: "utf8", cwd: os.tmpdir() });
    assert.equal(result.status, 0, result.stderr);
  });

  it("an option without its value or a word too many is a usage error that changes nothing", () => {
    const dir = copy();
    const before = FILES.map((file) => read(dir, file));
    for (const [args, message] of [
      [["bump", "1.0.0", "1.0.1", "--root", dir], /version: one version to bump to, not 2 \(1\.0\.0 1\.0\.1\)/],
      [["check", "extra", "--root", dir], /version: check takes no word, not "extra"/],
      [["check", "--root", dir, "--tag"], /version: --tag needs a value/],
      [["bump", "1.0.0", "--root"], /version: --root needs a value/],
      [["bump", "1.0.0", "--root", dir, "--tag", "v1.0.0"], /version: --tag is for check/],
    ]) {
      const result = run(...args);
      assert.equal(result.status, 2, `${args.join(" ")}\n${result.stderr}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /usage: node scripts\/version\.mjs/);
    }
    assert.deepEqual(FILES.map((file) => read(dir, file)), before);
  });
});

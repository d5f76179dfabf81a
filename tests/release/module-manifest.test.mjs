// module.json as the release publishes it (scripts/release-module.sh, the
// step the release workflow runs): `manifest` at the latest release's
// module.json, `download` at this tag's zip, the zip carrying the same
// module.json and every file it names; a wrong tag or a broken manifest fails.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { namedPaths } from "../../scripts/module-manifest.mjs";
import { workspaceVersion } from "../../scripts/version.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const zip = path.join(root, "dist/furtive.zip");
const work = mkdtempSync(path.join(os.tmpdir(), "furtive-manifest-"));
after(() => rmSync(work, { recursive: true, force: true }));

const version = workspaceVersion(root);
const tag = `v${version}`;
const releaseModule = (dir, tagName) => spawnSync("bash", [path.join(root, "scripts/release-module.sh"), tagName, dir], { cwd: root, encoding: "utf8" });
const check = (...args) => spawnSync(process.execPath, [path.join(root, "scripts/module-manifest.mjs"), "check", ...args], { encoding: "utf8" });
const entries = (file) => execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).split("\n").filter(Boolean);

describe("the release's module.json", () => {
  let dir;
  before(() => {
    dir = mkdtempSync(path.join(work, "release-"));
    cpSync(zip, path.join(dir, "furtive.zip"));
  });

  it("has the release's URLs, the workspace's version, and the zip has everything it names", () => {
    const result = releaseModule(dir, tag);
    assert.equal(result.status, 0, result.stderr);
    const manifest = JSON.parse(readFileSync(path.join(dir, "module.json"), "utf8"));
    assert.equal(manifest.manifest, "https://github.com/furtive-vtt/furtive/releases/latest/download/module.json");
    assert.equal(manifest.download, `https://github.com/furtive-vtt/furtive/releases/download/${tag}/furtive.zip`);
    assert.equal(manifest.version, version);
    assert.equal(manifest.id, "furtive");
    // Every other field is the repository's module.json.
    const source = JSON.parse(readFileSync(path.join(root, "foundry-module/module.json"), "utf8"));
    assert.deepEqual({ ...manifest, manifest: source.manifest, download: source.download }, source);
    const files = entries(path.join(dir, "furtive.zip"));
    assert.ok(namedPaths(manifest).length >= 4, "module.json names its entry file, styles and languages");
    for (const file of namedPaths(manifest)) assert.ok(files.includes(file), `the zip has ${file}`);
    const zipped = JSON.parse(execFileSync("unzip", ["-p", path.join(dir, "furtive.zip"), "module.json"], { encoding: "utf8" }));
    assert.deepEqual(zipped, manifest, "the zip's module.json is the published one");
    assert.deepEqual(files.filter((f) => f === "module.json"), ["module.json"], "one module.json in the zip");
  });

  it("refuses a tag that is not the workspace's version, and writes nothing", () => {
    const other = mkdtempSync(path.join(work, "tag-"));
    cpSync(zip, path.join(other, "furtive.zip"));
    const result = releaseModule(other, "v9.9.9");
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /the tag says v9\.9\.9, module\.json's version is /);
    assert.throws(() => readFileSync(path.join(other, "module.json")));
  });

  it("check names a file the zip lacks, a download that is not a URL, and URLs that are not this tag's", () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, "module.json"), "utf8"));
    const broken = path.join(work, "broken.json");
    writeFileSync(broken, JSON.stringify({ ...manifest, esmodules: [...manifest.esmodules, "scripts/missing.mjs"], download: "furtive.zip" }));
    const result = check(broken, path.join(dir, "furtive.zip"), "--tag", tag);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /the zip lacks scripts\/missing\.mjs/);
    assert.match(result.stderr, /"download" is not an absolute http\(s\) URL/);
    assert.match(result.stderr, /the zip's module\.json is not this module\.json/);
    const latest = path.join(work, "latest.json");
    writeFileSync(latest, JSON.stringify({ ...manifest, download: "https://github.com/furtive-vtt/furtive/releases/latest/download/furtive.zip" }));
    const mixed = check(latest, path.join(dir, "furtive.zip"), "--tag", tag);
    assert.equal(mixed.status, 1);
    assert.match(mixed.stderr, /"download" is https:\/\/github\.com\/furtive-vtt\/furtive\/releases\/latest\/download\/furtive\.zip, not .*\/releases\/download\/v/);
  });
});

describe("bad input to the release scripts", () => {
  const script = path.join(root, "scripts/module-manifest.mjs");
  const run = (args, options = {}) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8", ...options });

  it("release-module.sh reads DIR from where it is run, like any command", () => {
    const caller = mkdtempSync(path.join(work, "caller-"));
    mkdirSync(path.join(caller, "out"));
    cpSync(zip, path.join(caller, "out/furtive.zip"));
    const result = spawnSync("bash", [path.join(root, "scripts/release-module.sh"), tag, "out"], { cwd: caller, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(readFileSync(path.join(caller, "out/module.json"), "utf8")).version, version);
  });

  it("release-module.sh names a missing zip and a missing tag, and writes nothing", () => {
    const empty = mkdtempSync(path.join(work, "empty-"));
    const missing = spawnSync("bash", [path.join(root, "scripts/release-module.sh"), tag, empty], { encoding: "utf8" });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /release-module: .*furtive\.zip is missing/);
    const untagged = spawnSync("bash", [path.join(root, "scripts/release-module.sh")], { encoding: "utf8" });
    assert.notEqual(untagged.status, 0);
    assert.match(untagged.stderr, /usage: bash scripts\/release-module\.sh vX\.Y\.Z/);
    assert.deepEqual(readdirSync(empty), []);
  });

  it("write refuses URLs that are not absolute http(s), and writes nothing", () => {
    const out = path.join(work, "bad-urls.json");
    for (const [manifest, download] of [["module.json", "http://127.0.0.1:30080/furtive.zip"], ["http://127.0.0.1:30080/module.json", "file:///tmp/furtive.zip"]]) {
      const result = run(["write", "--manifest", manifest, "--download", download, "--out", out]);
      assert.equal(result.status, 1);
      assert.match(result.stderr, /module-manifest: --(manifest|download) is not an absolute http\(s\) URL: /);
      assert.throws(() => readFileSync(out));
    }
  });

  it("check names a missing module.json or zip in our words", () => {
    const absent = path.join(work, "absent");
    for (const [files, named] of [[[`${absent}.json`, zip], `${absent}.json`], [[path.join(root, "foundry-module/module.json"), `${absent}.zip`], `${absent}.zip`]]) {
      const result = check(...files);
      assert.equal(result.status, 1);
      assert.equal(result.stderr.trim(), `module-manifest: ${named} is missing`);
    }
  });
});

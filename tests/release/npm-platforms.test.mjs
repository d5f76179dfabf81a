// The npm package as the release publishes it, by the napi-rs CLI's
// conventions: `napi create-npm-dirs` makes one package per target of
// npm/package.json's `napi.targets`, and npm/native.js asks for exactly
// those names; `furtive` itself carries no addon, lists the platform
// packages as optional dependencies (`napi prepublish`), runs the addon
// when this platform's package is installed and the wasm engine when none is.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";

import { addonCandidates, platformName } from "../../npm/native.js";
import { REPO, copyPackage, ensureNapiCli, napi, packForHost } from "./npm-packages.mjs";

const work = mkdtempSync(path.join(os.tmpdir(), "furtive-npm-platforms-"));
after(() => rmSync(work, { recursive: true, force: true }));

const NAPI_OS = { linux: "linux", darwin: "darwin", win32: "win32" };

describe("npm platform packages", () => {
  it("napi create-npm-dirs makes one package per target, named as npm/native.js looks for it", () => {
    ensureNapiCli();
    const pkg = copyPackage(path.join(work, "dirs"));
    napi(["create-npm-dirs"], pkg);
    const targets = JSON.parse(readFileSync(path.join(REPO, "npm/package.json"), "utf8")).napi.targets;
    const dirs = readdirSync(path.join(pkg, "npm")).sort();
    assert.equal(dirs.length, targets.length, `one folder per target: ${dirs}`);
    assert.deepEqual(dirs, ["darwin-arm64", "darwin-x64", "linux-arm64-gnu", "linux-arm64-musl", "linux-x64-gnu", "linux-x64-musl", "win32-x64-msvc"]);
    const version = JSON.parse(readFileSync(path.join(REPO, "npm/package.json"), "utf8")).version;
    for (const dir of dirs) {
      const manifest = JSON.parse(readFileSync(path.join(pkg, "npm", dir, "package.json"), "utf8"));
      // The platform as napi wrote it into the package (os, cpu, libc) gives the same name in native.js.
      const name = platformName({ platform: NAPI_OS[manifest.os[0]], arch: manifest.cpu[0], musl: manifest.libc?.[0] === "musl" });
      assert.equal(name, dir);
      const [file, packageName] = addonCandidates(name);
      assert.equal(manifest.name, packageName);
      assert.equal(`./${manifest.main}`, file);
      assert.equal(manifest.version, version);
    }
  });

  let packed;
  it("furtive carries no addon and lists this platform's package as an optional dependency", () => {
    packed = packForHost(path.join(work, "host"));
    assert.ok(!packed.main.files.some((f) => f.endsWith(".node")), `no addon in furtive: ${packed.main.files}`);
    for (const file of ["node.js", "native.js", "browser.js", "wasm/furtive_wasm_bg.wasm", "wasm/furtive_wasm.js"]) assert.ok(packed.main.files.includes(file), `furtive has ${file}`);
    assert.deepEqual(packed.platform.files.filter((f) => f.endsWith(".node")), [`furtive.${packed.name}.node`]);
    assert.equal(packed.platform.name, `furtive-${packed.name}`);
    assert.deepEqual(packed.manifest.optionalDependencies, { [`furtive-${packed.name}`]: packed.manifest.version });
  });

  const SCENARIO = `
    import * as furtive from "furtive";
    import { createRequire } from "node:module";
    await furtive.init();
    const state = furtive.createState({ ruleset: "percentile", creatures: [{ id: "spy", stealthSkill: 49 }, { id: "low", acuities: { visual: 30, auditory: 20, olfactory: 16 } }] });
    const outcome = furtive.apply(state, { type: "enterStealth", hider: "spy", roll: 37 });
    let addon = null;
    try { addon = createRequire(import.meta.url).resolve("furtive-${platformName()}"); } catch {}
    console.log(JSON.stringify({ backend: furtive.backend, score: outcome.state.hiders.spy.score, low: furtive.perceives(outcome.state, { observer: "low", hider: "spy" }).allowed, addon }));
  `;
  const install = (name, tarballs) => {
    const app = path.join(work, name);
    mkdirSync(app, { recursive: true });
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", ...tarballs], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
    writeFileSync(path.join(app, "scenario.mjs"), SCENARIO);
    return JSON.parse(execFileSync(process.execPath, ["scenario.mjs"], { cwd: app, encoding: "utf8" }));
  };

  it("installed with its platform package, furtive runs the addon from that package", () => {
    assert.ok(packed, "the packing step failed");
    const result = install("with-addon", [packed.main.tarball, packed.platform.tarball]);
    assert.equal(result.backend, "napi");
    assert.match(result.addon, new RegExp(`node_modules[/\\\\]furtive-${packed.name}[/\\\\]furtive\\.${packed.name}\\.node$`));
    assert.equal(result.score, 67);
    assert.equal(result.low, false);
  });

  it("installed without it, furtive runs the wasm engine with the same results", () => {
    assert.ok(packed, "the packing step failed");
    const result = install("without-addon", [packed.main.tarball]);
    assert.deepEqual(result, { backend: "wasm", score: 67, low: false, addon: null });
  });
});

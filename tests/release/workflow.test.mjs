// The release workflow (.github/workflows/release.yml) cannot run here: it
// passes the linter (scripts/lint-workflows.sh), which fails on a workflow
// with an expression in a run step or a schema error; and it calls what the
// repository has: the README's test command, the release scripts, the
// napi-rs CLI of scripts/napi, one addon build per target of npm/package.json.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const workflow = readFileSync(path.join(root, ".github/workflows/release.yml"), "utf8");
const lint = (...files) => spawnSync("bash", [path.join(root, "scripts/lint-workflows.sh"), ...files], { cwd: root, encoding: "utf8" });

const work = mkdtempSync(path.join(os.tmpdir(), "furtive-workflow-"));
after(() => rmSync(work, { recursive: true, force: true }));

describe("the release workflow", () => {
  it("passes the linter", () => {
    const result = lint();
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout + result.stderr, /release\.yml/);
  });

  it("the linter fails on an expression in a run step and on a schema error", () => {
    const injected = path.join(work, "injected.yml");
    writeFileSync(injected, 'name: x\non: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo "${{ github.event.head_commit.message }}"\n');
    const result = lint(injected);
    assert.notEqual(result.status, 0, "an expression from the commit message in a shell step is refused");
    assert.match(result.stdout + result.stderr, /template-injection/);
    const misspelt = path.join(work, "misspelt.yml");
    writeFileSync(misspelt, "name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    step:\n      - run: echo hi\n");
    assert.notEqual(lint(misspelt).status, 0, "`step:` is not a key of a job");
  });

  it("runs on version tags, with the README's test command and the release scripts", () => {
    assert.match(workflow, /^on:\n {2}push:\n {4}tags:\n {6}- "v\*"$/m);
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const testCommand = readme.match(/Run every test[\s\S]*?```sh\n([^\n]+)\n```/)[1].trim();
    assert.equal(testCommand, "bash scripts/test.sh");
    assert.match(workflow, new RegExp(`run: ${testCommand.replace(/\./g, "\\.")}$`, "m"));
    assert.match(workflow, /run: node scripts\/version\.mjs check --tag "\$GITHUB_REF_NAME"$/m);
    assert.match(workflow, /run: bash scripts\/release-module\.sh "\$GITHUB_REF_NAME"$/m);
    assert.match(workflow, /gh release create "\$GITHUB_REF_NAME" dist\/module\.json dist\/furtive\.zip/);
  });

  it("builds one addon per napi target of npm/package.json, and publishes them by the napi-rs CLI", () => {
    const { napi } = JSON.parse(readFileSync(path.join(root, "npm/package.json"), "utf8"));
    const built = [...workflow.matchAll(/^ {12}target: (\S+)$/gm)].map((m) => m[1]).sort();
    assert.deepEqual(built, [...napi.targets].sort());
    for (const step of ["build", "create-npm-dirs --cwd npm", "artifacts --cwd npm", "prepublish --cwd npm -t npm"]) {
      assert.ok(workflow.includes(`node scripts/napi/node_modules/@napi-rs/cli/dist/cli.js ${step}`), `napi ${step}`);
    }
    assert.match(workflow, /npm publish \.\/npm --access public/);
  });
});

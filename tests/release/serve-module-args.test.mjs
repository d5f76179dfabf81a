// scripts/serve-module.sh refuses what it cannot serve before it builds or
// prints a manifest URL: an option without its value, a port or a duration
// that is not a number, an address Foundry cannot reach it at (0.0.0.0,
// ::), a port another program holds. Each refusal names the option and
// exits 2 (usage) or 1 (the port), quickly, with no server left behind.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Serves for 2 s; the first run may build the zip again when its sources changed.
const serve = (...args) =>
  spawnSync("bash", [path.join(root, "scripts/serve-module.sh"), ...args, "--for", "2"], { cwd: root, encoding: "utf8", timeout: 540_000 });
const freePort = async (host) => {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, host, resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

it("refuses a bad option before building or printing a manifest URL", () => {
  const cases = [
    [["--port"], /serve-module: --port needs a value/],
    [["--port", "abc"], /serve-module: --port "abc" is not a port \(1-65535\)/],
    [["--port", "70000"], /serve-module: --port "70000" is not a port \(1-65535\)/],
    [["--port", "0"], /serve-module: --port "0" is not a port \(1-65535\)/],
    [["--for", "soon"], /serve-module: --for "soon" is not a number of seconds/],
    // timeout(1) takes 0 as no limit at all.
    [["--for", "0"], /serve-module: --for "0" is not a number of seconds/],
    [["--host", "0.0.0.0"], /serve-module: --host 0\.0\.0\.0 is not an address Foundry can download from/],
    [["--host", "::"], /serve-module: --host :: is not an address Foundry can download from/],
    [["--host", ""], /serve-module: --host needs a value/],
    [["--bogus"], /usage: bash scripts\/serve-module\.sh/],
  ];
  for (const [args, message] of cases) {
    const started = Date.now();
    const result = spawnSync("bash", [path.join(root, "scripts/serve-module.sh"), ...args], { cwd: root, encoding: "utf8", timeout: 20_000 });
    assert.equal(result.status, 2, `${args.join(" ")}: usage error\n${result.stderr}`);
    assert.match(result.stderr, message, args.join(" "));
    assert.doesNotMatch(result.stdout, /module\.json/, `${args.join(" ")}: no manifest URL printed`);
    assert.ok(Date.now() - started < 5_000, `${args.join(" ")}: refused at once, without building`);
  }
});

it("refuses a port another program holds, before printing the manifest URL", async () => {
  const holder = net.createServer();
  await new Promise((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address();
  try {
    const result = serve("--port", String(port));
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`serve-module: 127\\.0\\.0\\.1:${port} is in use: stop what holds it, or give another --port`));
    assert.doesNotMatch(result.stdout, /module\.json/);
    // An address that is not this machine's (TEST-NET-1, RFC 5737).
    const foreign = serve("--host", "192.0.2.1", "--port", String(port));
    assert.equal(foreign.status, 1, foreign.stderr);
    assert.match(foreign.stderr, new RegExp(`serve-module: 192\\.0\\.2\\.1:${port} cannot be listened on \\(`));
  } finally {
    holder.close();
  }
});

it("serves on the IPv6 loopback, the address in brackets in the manifest URL", { timeout: 600_000 }, async () => {
  const port = await freePort("::1");
  const result = serve("--host", "::1", "--port", String(port));
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`^ {4}http://\\[::1\\]:${port}/module\\.json$`, "m"));
  const manifest = JSON.parse(readFileSync(path.join(root, "dist/local/module.json"), "utf8"));
  assert.equal(manifest.download, `http://[::1]:${port}/furtive.zip`);
});

it("does not build the zip again for what other builds leave in npm/ (its wasm, the napi addon)", { timeout: 600_000 }, async () => {
  const zip = path.join(root, "dist/furtive.zip");
  // The zip as fresh as its sources (this run builds it again when they changed).
  assert.equal(serve("--port", String(await freePort("127.0.0.1"))).status, 0);
  const before = statSync(zip).mtimeMs;
  const later = new Date(Date.now() + 2_000);
  const left = [path.join(root, "npm/wasm/furtive_wasm_bg.wasm"), ...readdirSync(path.join(root, "npm")).filter((f) => f.endsWith(".node")).map((f) => path.join(root, "npm", f))].filter(existsSync);
  assert.ok(left.length >= 1, "the npm package's wasm or addon is built");
  for (const file of left) utimesSync(file, later, later);
  const started = Date.now();
  const result = serve("--port", String(await freePort("127.0.0.1")));
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stdout + result.stderr, /build-foundry:/, "no rebuild");
  assert.equal(statSync(zip).mtimeMs, before, "dist/furtive.zip untouched");
  assert.ok(Date.now() - started < 15_000);
});

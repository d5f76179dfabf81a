// scripts/serve-module.sh serves the module for Foundry's Install Module:
// it prints a manifest URL on the loopback address, the served module.json's
// `download` resolves to the zip (which carries the same module.json and
// every file it names), and with --for the server stops by itself.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, it } from "node:test";
import { fileURLToPath } from "node:url";

import { namedPaths } from "../../scripts/module-manifest.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const work = mkdtempSync(path.join(os.tmpdir(), "furtive-serve-"));
let server;
after(() => {
  // The whole process group (bash, timeout, python), should a check fail before it stops.
  if (server && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function fetchRetrying(url, until) {
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

it("serves a manifest whose download resolves to the zip, then stops by itself", { timeout: 600_000 }, async () => {
  const port = await freePort();
  const seconds = 8;
  server = spawn("bash", [path.join(root, "scripts/serve-module.sh"), "--port", String(port), "--for", String(seconds)], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout.on("data", (chunk) => (output += chunk));
  server.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));

  // The manifest URL it prints (after building the zip, when it must).
  const manifestUrl = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = output.match(/^ {4}(http:\/\/\S+\/module\.json)$/m);
      if (found) {
        clearInterval(timer);
        resolve(found[1]);
      } else if (server.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`serve-module.sh stopped before printing the manifest URL:\n${output}`));
      }
    }, 100);
  });
  assert.equal(manifestUrl, `http://127.0.0.1:${port}/module.json`);

  const manifestResponse = await fetchRetrying(manifestUrl, Date.now() + 10_000);
  assert.equal(manifestResponse.status, 200);
  const manifest = await manifestResponse.json();
  assert.equal(manifest.id, "furtive");
  assert.equal(manifest.manifest, manifestUrl);
  assert.equal(manifest.download, `http://127.0.0.1:${port}/furtive.zip`);

  const download = await fetch(manifest.download);
  assert.equal(download.status, 200);
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.equal(bytes.subarray(0, 4).toString("latin1"), "PK\x03\x04", "a zip archive");
  const file = path.join(work, "furtive.zip");
  writeFileSync(file, bytes);
  const files = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const named of namedPaths(manifest)) assert.ok(files.includes(named), `the served zip has ${named}`);
  assert.deepEqual(JSON.parse(execFileSync("unzip", ["-p", file, "module.json"], { encoding: "utf8" })), manifest, "the zip's module.json is the served one");

  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), (seconds + 10) * 1000))]);
  assert.equal(code, 0, `serve-module.sh stops by itself after --for ${seconds}:\n${output}`);
});

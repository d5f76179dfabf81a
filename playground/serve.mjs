#!/usr/bin/env node
// Serves the repository's files on 127.0.0.1 for the playground page
// (playground/index.html): static files only, the page runs everything in
// the browser. Used by scripts/playground.sh and the playground's tests.
//
//   node playground/serve.mjs [--port 8080]
// Prints the page's address. Port 0 (the default of the tests) picks a free one.

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".md": "text/plain; charset=utf-8",
};

/**
 * Serves the repository on 127.0.0.1:`port`; resolves to `{ url, close }`,
 * `url` the playground page's address.
 * @param {{ port?: number, headers?: Record<string, string> }} [options]
 */
export async function serve({ port = 0, headers = {} } = {}) {
  const base = resolve(ROOT);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (path === "/") {
      response.writeHead(302, { location: "/playground/" });
      response.end();
      return;
    }
    let file = resolve(join(base, path));
    // Inside the repository, and no hidden file or folder (.git).
    if ((file !== base && !file.startsWith(base + sep)) || path.split("/").some((part) => part.startsWith("."))) {
      response.writeHead(403).end();
      return;
    }
    if (path.endsWith("/")) file = join(file, "index.html");
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      response.end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`not found: ${path}\n`);
    }
  });
  await new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", done);
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/playground/`,
    close: () => new Promise((done) => server.close(done)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const index = process.argv.indexOf("--port");
  const port = index > 0 ? Number(process.argv[index + 1]) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write("playground: --port: expected a port number from 0 to 65535\n");
    process.exit(2);
  }
  serve({ port }).then(
    ({ url }) => process.stdout.write(`Furtive playground: ${url}\n(Ctrl+C stops the server)\n`),
    (error) => {
      process.stderr.write(`playground: cannot serve on 127.0.0.1:${port}: ${error.message}\n`);
      process.exit(1);
    },
  );
}

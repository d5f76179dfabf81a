/**
 * A tiny static file server for the browser test: serves the repository
 * root from 127.0.0.1 on an ephemeral port, with the MIME types the page
 * needs (`application/wasm` for the engine, `text/javascript` for modules).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".hbs": "text/plain; charset=utf-8",
  ".png": "image/png",
};

/**
 * Starts the server; resolves to `{url, close}`. `mounts` maps URL prefixes to
 * folders under `root` (Foundry serves a module at `/modules/<id>/`).
 */
export async function serve(root, mounts = { "/modules/furtive/": "/foundry-module/" }) {
  const base = path.resolve(root);
  const server = http.createServer(async (request, response) => {
    let pathname = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    for (const [prefix, target] of Object.entries(mounts)) if (pathname.startsWith(prefix)) pathname = target + pathname.slice(prefix.length);
    const file = path.resolve(base, `.${pathname}`);
    if (!file.startsWith(base + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error("not a file");
      response.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream", "Cache-Control": "no-store" });
      createReadStream(file).pipe(response);
    } catch {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The top page: the fake Foundry server (the world) and one iframe per
 * client. Each iframe is its own realm with its own Foundry globals, loading
 * the real module files and the real wasm (client.html).
 */
import { FakeServer } from "../fake/server.mjs";
import { BOB, CAROL, GM, makeWorld } from "../fixtures/world-data.mjs";

const manifest = await (await fetch("/foundry-module/module.json")).json();
const server = new FakeServer(makeWorld({ ruleset: "percentile" }), { version: 13, modules: [manifest] });
window.furtiveServer = server;
window.furtiveClients = {};

const clients = [
  [GM, "Gamemaster (GM)"],
  [BOB, "Bob (Fighter: fails)"],
  [CAROL, "Carol (Archer: succeeds)"],
];
for (const [userId, label] of clients) {
  const box = document.createElement("div");
  box.className = "client";
  const title = document.createElement("h2");
  title.textContent = label;
  const frame = document.createElement("iframe");
  frame.name = userId;
  frame.src = `./client.html?user=${encodeURIComponent(userId)}`;
  box.append(title, frame);
  document.getElementById("clients").append(box);
  // Start the clients one after another (the GM first, like a real session).
  await new Promise((resolve) => {
    window.addEventListener("message", function ready(event) {
      if (event.data?.furtiveClientReady === userId) {
        window.removeEventListener("message", ready);
        resolve();
      }
    });
  });
}
await server.idle();
window.furtiveReady = true;

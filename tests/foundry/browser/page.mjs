/**
 * The top page: the fake Foundry server (the world) and one iframe per
 * client. Each iframe is its own realm with its own Foundry globals, loading
 * the real module files and the real wasm (client.html).
 *
 * `?scenario=` picks the world and the clients (browser/hide.test.mjs):
 * - `hide` (default): GM, Bob (fighter fails), Carol (archer succeeds);
 * - `vision-off`: the same with Token Vision off on the scene;
 * - `two-tokens`: GM and Dave, who owns the sentry (fails) and the lookout
 *   (succeeds); the door is open so the lookout has line of sight;
 * - `tremor`: GM and Bob, whose fighter also has tremorsense (feelTremor);
 * - `defend`: GM and Bob (fighter fails), for Bob's Defend dialog;
 * - `own-token`: GM and Alice, who owns the rogue and the guard (the guard
 *   does not perceive the rogue);
 * - `refused`: GM and Bob, whose fighter has a visual acuity of -10 (the
 *   engine refuses the creature);
 * - `linked`: the GM alone; the test duplicates the rogue (a linked token) and
 *   opens Bob's client later in a tab of its own (`window.open`, client.html
 *   with this page as `window.opener`);
 * - `leaks`: GM, Bob (fighter fails), Carol (archer succeeds); the rogue
 *   carries a torch; the test starts a combat, hides the rogue and moves it.
 */
import { FakeServer } from "../fake/server.mjs";
import { ALICE, BOB, CAROL, DAVE, DOOR, GM, TOKENS, makeWorld } from "../fixtures/world-data.mjs";

const SCENARIOS = {
  hide: { title: "the GM hides the rogue from the Token HUD", clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter: fails)"], [CAROL, "Carol (Archer: succeeds)"]] },
  "vision-off": { title: "Token Vision is off on this scene", edit: (w) => (w.scenes[0].tokenVision = false), clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter: fails)"], [CAROL, "Carol (Archer: succeeds)"]] },
  "two-tokens": {
    title: "Dave owns the sentry (fails) and the lookout (succeeds); the door is open",
    edit: (w) => (w.scenes[0].walls.find((wall) => wall._id === DOOR).ds = 1),
    clients: [[GM, "Gamemaster (GM)"], [DAVE, "Dave (Sentry fails, Lookout succeeds)"]],
  },
  tremor: {
    title: "Bob's fighter also feels tremors (feelTremor)",
    edit: (w) => (w.scenes[0].tokens.find((t) => t._id === TOKENS.fighter).detectionModes = [{ id: "feelTremor", enabled: true, range: 60 }]),
    clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter with tremorsense: fails)"]],
  },
  defend: { title: "Bob, whose fighter does not perceive the rogue, opens Defend", clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter: fails)"]] },
  "own-token": {
    title: "Alice owns the rogue and the guard, and controls the guard",
    edit: (w) => (w.actors.find((a) => a._id === "actorGuard000001").ownership = { default: 0, [ALICE]: 3 }),
    clients: [[GM, "Gamemaster (GM)"], [ALICE, "Alice (Rogue hides; controls the Guard, who fails)"]],
  },
  refused: {
    title: "the fighter's visual acuity is -10: the engine refuses it",
    edit: (w) => (w.actors.find((a) => a._id === "actorFighter0001").system.attributes.visual_acuity.value = -10),
    clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter refused by the engine)"]],
  },
  linked: { title: "the rogue (a linked token) hides, the GM duplicates it and reveals the copy", clients: [[GM, "Gamemaster (GM)"]] },
  leaks: {
    title: "the rogue, carrying a torch, hides, then a combat starts and it moves: its tracker row, light and path",
    edit: (w) => (w.scenes[0].tokens.find((t) => t._id === TOKENS.rogue).light = { dim: 15, bright: 5 }),
    clients: [[GM, "Gamemaster (GM)"], [BOB, "Bob (Fighter: fails)"], [CAROL, "Carol (Archer: succeeds)"]],
  },
};

const scenario = SCENARIOS[new URLSearchParams(location.search).get("scenario") ?? "hide"] ?? SCENARIOS.hide;
document.querySelector("h1").textContent = `Furtive: ${scenario.title}`;
const manifest = await (await fetch("/foundry-module/module.json")).json();
const world = makeWorld({ ruleset: "percentile" });
scenario.edit?.(world);
/** The Foundry generation of the world (`?version=14`; 13 by default). */
const version = Number(new URLSearchParams(location.search).get("version") ?? 13);
const server = new FakeServer(world, { version, modules: [manifest] });
window.furtiveServer = server;
window.furtiveClients = {};

for (const [userId, label] of scenario.clients) {
  const box = document.createElement("div");
  box.className = "client";
  const title = document.createElement("h2");
  title.textContent = label;
  const frame = document.createElement("iframe");
  frame.name = userId;
  frame.src = `./client.html?user=${encodeURIComponent(userId)}&version=${version}`;
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

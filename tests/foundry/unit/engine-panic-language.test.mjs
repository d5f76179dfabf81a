/**
 * A panic inside the rules engine (npm/browser.js turns it into
 * `engine_panicked` and resets the wasm instance) is told to the GM in the
 * GM's language, with the module's prefix, like every other notification.
 * Before, engine.mjs `guarded` showed the package's English message as it
 * was ("engine: the engine stopped (...); this is a bug in furtive, ...")
 * to a French GM.
 *
 * The panic is a real one: a call of the module's session is routed to the
 * wasm's `__panicForTests` (crates/furtive-wasm, a deliberate `panic!`), in
 * the GM's realm, so the whole chain (wasm trap, browser.js `run`, the
 * module's `guarded`) runs as in play.
 *
 * One panic is one notice on a client: `guarded` tells the GM as it happens,
 * and the action that called it rejects with the same error, which its
 * caller (net/requests.mjs `notifyRefusal`) then showed a second time.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { ALICE, GM, TOKENS, hideRogue, placeable, plain, setup, shutdown, until } from "./world.mjs";

const moduleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../foundry-module");
const moduleUrl = (file) => pathToFileURL(path.join(moduleDir, file)).href;

/**
 * Makes the next `hiddenFrom()` of a session panic inside the wasm, on a
 * client, through the module's own `SceneSession`; returns the error it threw.
 */
async function panicOnce(client) {
  // The same module instances the real module loaded (the loader caches by URL).
  const engine = await client.loader.import(moduleUrl("scripts/engine.mjs"));
  const glue = await client.loader.import(moduleUrl("engine/wasm/furtive_wasm.js"));
  const session = engine.SceneSession.create({ ruleset: "percentile" });
  const original = glue.Session.prototype.hiddenFrom;
  glue.Session.prototype.hiddenFrom = function panics() {
    return glue.__panicForTests();
  };
  try {
    session.hiddenFrom();
  } catch (error) {
    return error;
  } finally {
    glue.Session.prototype.hiddenFrom = original;
  }
  return null;
}

describe("an engine panic is told to the GM in the GM's language", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE], lang: { [GM]: "fr" } });
  });
  after(() => shutdown(env));

  it("a French GM reads the French sentence, prefixed like the module's other notifications", async () => {
    const told = env.gm.ctx.notifications.length;
    const error = await panicOnce(env.gm);
    assert.equal(error?.code, "engine_panicked", `the call failed with engine_panicked: ${error}`);
    const errors = env.gm.ctx.notifications.slice(told).filter((n) => n.type === "error");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    const sentence = env.gm.ctx.game.i18n.localize("FURTIVE.Error.engine_panicked");
    assert.match(sentence, /moteur de règles/, "the French lang file's sentence");
    assert.ok(errors[0].message.startsWith(`Furtive: ${sentence}`), errors[0].message);
  });

  it("a player's client tells its player nothing (the GM is told)", async () => {
    const told = env.alice.ctx.notifications.length;
    const error = await panicOnce(env.alice);
    assert.equal(error?.code, "engine_panicked");
    assert.deepEqual(plain(env.alice.ctx.notifications.slice(told).map((n) => n.message)), []);
  });
});

describe("one engine panic, one notice per client", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE] });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the GM clicks Reveal on the HUD and the engine panics: the GM reads one notice, not two", async () => {
    const client = env.gm;
    // The package's Session (engine/browser.js, the module's engine): its next `apply` (the
    // Reveal's one event, engine.mjs `applyAll`) panics inside the wasm, once, through the
    // package's own test hook (the handle's `__panicForTests`: a real panic, the instance reset).
    const furtive = await client.loader.import(moduleUrl("engine/browser.js"));
    const original = furtive.Session.prototype.apply;
    let panicked = false;
    furtive.Session.prototype.apply = function panicsOnce(...args) {
      if (panicked) return original.apply(this, args);
      panicked = true;
      return this.__panicForTests();
    };
    const sentence = client.ctx.game.i18n.localize("FURTIVE.Error.engine_panicked");
    const told = client.ctx.notifications.length;
    try {
      const hud = client.ctx.canvas.hud.token;
      hud.bind(placeable(client, TOKENS.rogue));
      hud.element.querySelector('[data-furtive-action="reveal"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
      await until(() => panicked && client.ctx.notifications.length > told, "the GM's notice");
      await env.server.idle();
      hud.clear();
    } finally {
      furtive.Session.prototype.apply = original;
    }
    const notices = client.ctx.notifications.slice(told).filter((n) => n.message.includes(sentence));
    assert.equal(notices.length, 1, JSON.stringify(plain(client.ctx.notifications.slice(told))));
    assert.ok(notices[0].message.startsWith(`Furtive: ${sentence}`), notices[0].message);
  });
});

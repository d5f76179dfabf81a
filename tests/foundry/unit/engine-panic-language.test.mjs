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
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { ALICE, GM, plain, setup, shutdown } from "./world.mjs";

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

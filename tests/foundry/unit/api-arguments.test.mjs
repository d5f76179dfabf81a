/**
 * Bad arguments through `game.modules.get("furtive").api` (a macro or
 * another module): every action rejects with a `FurtiveError` whose stable
 * code and detail name the argument at fault, and changes nothing. These
 * are the cases api-rejects.test.mjs did not cover: a scene given by id,
 * a value of the wrong type that JavaScript would have coerced, an
 * unknown token where the engine, not the module, was left to notice.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";

import { GM, SCENE, TOKENS, apiOf, hideRogue, plain, setup, shutdown } from "./world.mjs";

const records = (client) => client.ctx.game.messages.filter((m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")));

describe("API arguments", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
  });
  after(() => shutdown(env));
  beforeEach(async () => {
    // Each case starts with the rogue hidden from the fighter and the sentry.
    await apiOf(env.gm).reset();
    await env.server.idle();
    await hideRogue(env);
  });

  /** What an action may not change: the viewed scene's record, its lookup, and the chat. */
  function snapshot() {
    const gm = env.gm.ctx;
    return { records: records(env.gm).map((m) => m.id), messages: gm.game.messages.size, lookup: plain(gm.game.scenes.get(SCENE).flags.furtive) };
  }

  /** The call must reject with `code`, its detail naming `field`, and change nothing. */
  async function refused(call, code, field, what) {
    const before = snapshot();
    let result;
    assert.doesNotThrow(() => {
      result = call(apiOf(env.gm));
    }, `${what}: no synchronous throw`);
    await assert.rejects(
      Promise.resolve(result),
      (error) => {
        assert.equal(typeof error?.localized, "function", `${what}: a FurtiveError, got ${error}`);
        assert.equal(error.code, code, `${what}: code (${error.message})`);
        assert.ok(error.message.includes(field), `${what}: the detail names ${field}: ${error.message}`);
        return true;
      },
      what,
    );
    await env.server.idle();
    assert.deepEqual(snapshot(), before, `${what}: nothing changed`);
  }

  it("reset and getState take a scene or its id; an unknown scene is refused, the viewed scene untouched", async () => {
    const api = apiOf(env.gm);
    // getState by id is the same state as by document.
    const byDocument = plain(api.getState(env.gm.ctx.game.scenes.get(SCENE)));
    assert.ok(byDocument?.hiders?.[TOKENS.rogue], "the rogue hides");
    assert.deepEqual(plain(api.getState(SCENE)), byDocument, "getState(sceneId)");
    assert.throws(() => api.getState("sceneNope0000001"), (error) => error.code === "unknown_scene" && error.message.includes("scene"), "getState(unknown id)");
    assert.throws(() => api.getState(42), (error) => error.code === "unknown_scene" && error.message.includes("scene"), "getState(42)");
    // Before, reset("<unknown id>") and reset(42) started the VIEWED scene over.
    await refused((a) => a.reset("sceneNope0000001"), "unknown_scene", "scene", "reset(unknown id)");
    await refused((a) => a.reset(42), "unknown_scene", "scene", "reset(42)");
    await refused((a) => a.reset({ id: SCENE }), "unknown_scene", "scene", "reset(a plain object)");
    assert.ok(api.getState()?.hiders?.[TOKENS.rogue], "the rogue still hides");
    // By id, the named scene starts over.
    await api.reset(SCENE);
    await env.server.idle();
    assert.deepEqual(Object.keys(api.getState()?.hiders ?? {}), [], "reset(sceneId) started that scene over");
  });

  it("override's perceived must be a boolean (the string \"false\" made the pair perceived)", async () => {
    await refused((a) => a.override(TOKENS.rogue, TOKENS.fighter, "false"), "invalid_input", "perceived", "override(\"false\")");
    await refused((a) => a.override(TOKENS.rogue, TOKENS.fighter), "invalid_input", "perceived", "override without perceived");
    await refused((a) => a.override(TOKENS.rogue, TOKENS.fighter, 1), "invalid_input", "perceived", "override(1)");
    assert.equal(apiOf(env.gm).perceives(TOKENS.fighter, TOKENS.rogue), false, "the fighter still does not perceive the rogue");
    await apiOf(env.gm).override(TOKENS.rogue, TOKENS.fighter, true);
    await env.server.idle();
    assert.equal(apiOf(env.gm).perceives(TOKENS.fighter, TOKENS.rogue), true, "override(true) still works");
  });

  it("an unknown token is unknown_token naming the argument in every action that names tokens", async () => {
    // Before, these five left the missing token to the engine, which answered
    // invalid_input naming its own event field ("event: missing field `target`").
    const ghost = "tokenGhost000001";
    await refused((a) => a.damageTaken(ghost, TOKENS.fighter), "unknown_token", "target", "damageTaken(unknown target)");
    await refused((a) => a.damageTaken(TOKENS.rogue, ghost), "unknown_token", "attacker", "damageTaken(unknown attacker)");
    await refused((a) => a.sprint(ghost), "unknown_token", "token", "sprint(unknown)");
    await refused((a) => a.sprint(null), "unknown_token", "token", "sprint(null)");
    await refused((a) => a.changeModifiers(ghost, { situation: [] }), "unknown_token", "hider", "changeModifiers(unknown)");
    await refused((a) => a.override(ghost, TOKENS.fighter, true), "unknown_token", "hider", "override(unknown hider)");
    await refused((a) => a.override(TOKENS.rogue, ghost, true), "unknown_token", "observer", "override(unknown observer)");
    await refused((a) => a.endTurn(ghost), "unknown_token", "token", "endTurn(unknown)");
    await refused((a) => a.endTurn({ id: TOKENS.rogue }), "unknown_token", "token", "endTurn(a plain object)");
  });

  it("options of the wrong type are refused naming them, not coerced", async () => {
    // Before: attack(a, t, "abc") attacked with the defaults, hits NaN became 0 hits,
    // noisy "false" became a noisy attack, knockout(a, t, null) threw a TypeError,
    // damageTaken's hits "abc" became 1 hit.
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, "abc"), "invalid_input", "options", "attack options a string");
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, { hits: NaN }), "invalid_input", "options.hits", "attack hits NaN");
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, { hits: "2" }), "invalid_input", "options.hits", "attack hits a string");
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, { noisy: "false" }), "invalid_input", "options.noisy", "attack noisy a string");
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, { area: 1 }), "invalid_input", "options.area", "attack area a number");
    await refused((a) => a.attack(TOKENS.rogue, TOKENS.fighter, { aimedAtSpace: "no" }), "invalid_input", "options.aimedAtSpace", "attack aimedAtSpace a string");
    await refused((a) => a.knockout(TOKENS.rogue, TOKENS.fighter, null), "invalid_input", "options", "knockout options null");
    await refused((a) => a.knockout(TOKENS.rogue, TOKENS.fighter, { rawDamage: "12" }), "invalid_input", "options.rawDamage", "knockout rawDamage a string");
    await refused((a) => a.damageTaken(TOKENS.rogue, TOKENS.fighter, "abc"), "invalid_input", "hits", "damageTaken hits a string");
    await refused((a) => a.damageTaken(TOKENS.rogue, TOKENS.fighter, Infinity), "invalid_input", "hits", "damageTaken hits Infinity");
  });

  it("hide options of the wrong type are refused naming them before anything is rolled, shown or saved", async () => {
    // Before: moved "false" counted as moved, sprinting "false" as sprinting, and a
    // situation or precautions that is not a list was ignored silently (no modifier).
    const dialogs = env.gm.ctx.dialogs.length;
    await refused((a) => a.hide(TOKENS.rogue, { dialog: false, moved: "false" }), "invalid_input", "options.moved", "hide moved a string");
    await refused((a) => a.hide(TOKENS.rogue, { dialog: false, sprinting: "false" }), "invalid_input", "options.sprinting", "hide sprinting a string");
    await refused((a) => a.hide(TOKENS.rogue, { dialog: false, situation: "dark" }), "invalid_input", "options.situation", "hide situation a text");
    await refused((a) => a.hide(TOKENS.rogue, { dialog: false, situation: [1] }), "invalid_input", "options.situation[0]", "hide situation of numbers");
    await refused((a) => a.hide(TOKENS.rogue, { dialog: false, precautions: "shoes" }), "invalid_input", "options.precautions", "hide precautions a text");
    // Last: before, these opened the GM's Hide dialog.
    await refused((a) => a.hide(TOKENS.rogue, "abc"), "invalid_input", "options", "hide options a string");
    await refused((a) => a.hide(TOKENS.rogue, { dialog: "false" }), "invalid_input", "options.dialog", "hide dialog a string");
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no dialog opened");
  });

  it("changeModifiers checks its free and situation lists as Hide checks options.free", async () => {
    // Before: a free value "12" or NaN, or a situation given as a text, went to the
    // engine unchecked (a new stealth roll asked with modifiers the GM did not mean).
    let hooked = 0;
    const hook = env.gm.ctx.Hooks.on("furtive.preChangeModifiers", () => {
      hooked += 1;
    });
    try {
      await refused((a) => a.changeModifiers(TOKENS.rogue, { free: [{ label: "torch", value: "12" }] }), "invalid_input", "free[0].value", "free value a text");
      await refused((a) => a.changeModifiers(TOKENS.rogue, { free: [{ label: "torch", value: Number.NaN }] }), "invalid_input", "free[0].value", "free value NaN");
      await refused((a) => a.changeModifiers(TOKENS.rogue, { free: { label: "torch", value: 12 } }), "invalid_input", "free", "free not a list");
      await refused((a) => a.changeModifiers(TOKENS.rogue, { situation: "dark" }), "invalid_input", "situation", "situation a text");
      await refused((a) => a.changeModifiers(TOKENS.rogue, { situation: [null] }), "invalid_input", "situation[0]", "situation of null");
    } finally {
      env.gm.ctx.Hooks.off("furtive.preChangeModifiers", hook);
    }
    assert.equal(hooked, 0, "no furtive.preChangeModifiers hook ran");
  });

  it("defend with an unknown defense is refused before anything is asked or posted", async () => {
    // The rogue's surprise attack makes the fighter defenseless (P6): before, a bad
    // defense there was asked, refused by the rules, told and posted as a chat line.
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "trunk" });
    await env.server.idle();
    const notes = env.gm.ctx.notifications.length;
    assert.equal((await apiOf(env.gm).canDefend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue)).allowed, false, "the fighter may not defend itself");
    await refused((a) => a.defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "kick"), "invalid_input", "defense", "defend(kick)");
    await refused((a) => a.defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "constructor"), "invalid_input", "defense", "defend(constructor)");
    assert.equal(env.gm.ctx.notifications.length, notes, "no notification");
  });

  it("a huge id is refused with a short detail (the notification does not quote it whole)", async () => {
    const huge = "x".repeat(100000);
    for (const call of [(a) => a.hide(huge), (a) => a.reveal({ id: huge }), (a) => a.attack(TOKENS.rogue, [huge]), (a) => a.reset(huge)]) {
      await assert.rejects(Promise.resolve().then(() => call(apiOf(env.gm))), (error) => {
        assert.ok(["unknown_token", "unknown_scene"].includes(error.code), error.code);
        assert.ok(error.message.length < 200, `detail of ${error.message.length} characters`);
        assert.ok(error.localized().length < 300, "the localized text too");
        return true;
      });
    }
  });
});

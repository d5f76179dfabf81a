/**
 * The state-lost path fails closed, errors say whose
 * fault it is, each action runs between a cancellable `furtive.pre<Action>`
 * hook and a `furtive.<action>` hook, and the rule-input settings take their
 * defaults from the generic preset.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, setup, shutdown, until } from "./world.mjs";

describe("The scene's state record is deleted (chat log cleared): fail closed, told once, start over", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    await hideRogue(env);
    const gm = env.gm.ctx;
    const record = gm.game.messages.find((m) => m.getFlag("furtive", "kind") === "state");
    assert.ok(record, "the hide wrote the scene's record");
    await record.delete();
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the rogue stays hidden, the next action is refused with state_lost and changes nothing", async () => {
    const before = JSON.stringify(env.server.world.scenes.find((s) => s._id === SCENE).flags);
    await assert.rejects(apiOf(env.gm).reveal(TOKENS.rogue), (error) => error.code === "state_lost" && error.name === "StateLost" && error.fault === "storage");
    await assert.rejects(apiOf(env.gm).hide(TOKENS.fighter, { dialog: false }), (error) => error.code === "state_lost");
    await env.server.idle();
    assert.equal(JSON.stringify(env.server.world.scenes.find((s) => s._id === SCENE).flags), before, "the published lookup is untouched");
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "Bob's fighter still does not perceive the rogue (B1)");
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true);
  });

  it("the GM was told once, with a GM-only card offering to start the scene over", () => {
    const cards = env.gm.ctx.game.messages.filter((m) => m.getFlag("furtive", "kind") === "stateLost");
    assert.equal(cards.length, 1, "one card for two refused actions");
    assert.deepEqual([...cards[0].whisper], [GM]);
    assert.match(cards[0].content, /data-furtive-action="reset"/);
    assert.equal(env.gm.ctx.notifications.filter((n) => /cannot be found/.test(n.message)).length, 1);
  });

  it("starting over clears the lookup and the status; actions work again", async () => {
    await apiOf(env.gm).reset();
    await env.server.idle();
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), true);
    assert.ok(env.gm.ctx.game.messages.find((m) => m.getFlag("furtive", "kind") === "state"), "a new record");
  });
});

describe("Errors say whose fault it is; actions run between their hooks", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB], lang: { [BOB]: "fr" } });
  });
  after(() => shutdown(env));

  it("a player acting on a token they do not own: NotOwner, the user's fault, localized", async () => {
    const error = await apiOf(env.bob)
      .reveal(TOKENS.rogue)
      .then(() => null, (e) => e);
    assert.ok(error, "refused");
    assert.equal(error.name, "NotOwner");
    assert.equal(error.code, "not_owner");
    assert.equal(error.fault, "user");
    const french = env.bob.ctx.game.i18n.localize("FURTIVE.Error.not_owner");
    assert.notEqual(french, "FURTIVE.Error.not_owner");
    assert.ok(error.localized().startsWith(french), error.localized());
  });

  it("an engine refusal: EngineRefused, the rules' fault", async () => {
    const error = await apiOf(env.gm)
      .reveal(TOKENS.fighter)
      .then(() => null, (e) => e);
    assert.equal(error?.name, "EngineRefused");
    assert.equal(error.code, "not_hiding");
    assert.equal(error.fault, "rules");
  });

  it("furtive.preHide can cancel (Cancelled, no roll); furtive.hide reports the outcome", async () => {
    const gm = env.gm.ctx;
    const rolls = () => gm.game.messages.filter((m) => m.rolls?.length).length;
    const before = rolls();
    const id = gm.Hooks.on("furtive.preHide", () => false);
    await assert.rejects(apiOf(env.gm).hide(TOKENS.rogue, { dialog: false }), (error) => error.name === "Cancelled" && error.fault === "user");
    gm.Hooks.off("furtive.preHide", id);
    assert.equal(rolls(), before, "no roll was made");
    let seen = null;
    const after = gm.Hooks.on("furtive.hide", (context) => (seen = context));
    await apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, situation: ["dark"] });
    gm.Hooks.off("furtive.hide", after);
    assert.equal(seen?.token?.id, TOKENS.rogue);
    assert.ok(seen.outcome.changes.length > 0, "the hook gets the engine's outcome");
  });

  it("furtive.preReveal can cancel; furtive.reveal follows a reveal", async () => {
    const gm = env.gm.ctx;
    const id = gm.Hooks.on("furtive.preReveal", (context) => context.tokenId !== TOKENS.rogue);
    await assert.rejects(apiOf(env.gm).reveal(TOKENS.rogue), (error) => error.code === "cancelled");
    gm.Hooks.off("furtive.preReveal", id);
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "still hiding");
    let revealed = null;
    const after = gm.Hooks.on("furtive.reveal", (context) => (revealed = context.tokenId));
    await apiOf(env.gm).reveal(TOKENS.rogue);
    await until(() => revealed !== null, "furtive.reveal");
    gm.Hooks.off("furtive.reveal", after);
    assert.equal(revealed, TOKENS.rogue);
  });
});

describe("Rule-input settings: defaults from the generic preset", () => {
  it("every rule input's registered default is the generic preset's value", async () => {
    const env = await setup({ ruleset: "percentile", users: [GM] });
    try {
      const presets = await env.gm.loader.import(new URL("scripts/systems/presets.mjs", `file://${process.env.FURTIVE_MODULE_DIR ?? new URL("../../../foundry-module/", import.meta.url).pathname}/`).href);
      const registered = env.gm.ctx.game.settings.settings;
      for (const [key, value] of Object.entries(presets.PRESETS.generic)) {
        assert.equal(registered.get(`furtive.${key}`)?.default, value, key);
      }
    } finally {
      shutdown(env);
    }
  });
});

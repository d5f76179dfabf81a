/**
 * The API's actions return a promise that rejects with a `FurtiveError`
 * for a token they cannot resolve or an argument of the wrong shape, as
 * api/api.mjs documents ("Refusals reject with a `FurtiveError`"). Before,
 * hide, reveal, pointOut, attack, knockout and canKnockout threw at once
 * instead: a macro written `api.hide(x).catch(...)` crashed on a deleted
 * token instead of reaching its catch.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { TOKENS, apiOf, setup, shutdown } from "./world.mjs";

describe("API actions reject, never throw, for bad arguments", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
  });
  after(() => shutdown(env));

  /** Calls an API action; the result must be a promise that rejects with `code`. */
  async function rejects(call, code, what) {
    let result;
    assert.doesNotThrow(() => {
      result = call(apiOf(env.gm));
    }, `${what}: no synchronous throw`);
    assert.equal(typeof result?.then, "function", `${what}: a promise`);
    await assert.rejects(result, (error) => typeof error?.localized === "function" && error.code === code, `${what}: rejects with ${code}`);
  }

  it("an unknown token", async () => {
    const ghost = "tokenGhost000001";
    await rejects((api) => api.hide(ghost), "unknown_token", "hide");
    await rejects((api) => api.reveal(ghost), "unknown_token", "reveal");
    await rejects((api) => api.pointOut(TOKENS.fighter, ghost, [TOKENS.sentry]), "unknown_token", "pointOut");
    await rejects((api) => api.pointOut(TOKENS.fighter, TOKENS.rogue, [ghost]), "unknown_token", "pointOut allies");
    await rejects((api) => api.attack(ghost, TOKENS.fighter), "unknown_token", "attack");
    await rejects((api) => api.attack(TOKENS.rogue, [TOKENS.fighter, ghost]), "unknown_token", "attack targets");
    await rejects((api) => api.knockout(TOKENS.rogue, ghost), "unknown_token", "knockout");
    await rejects((api) => api.canKnockout(ghost, TOKENS.fighter), "unknown_token", "canKnockout");
    await rejects((api) => api.defend(ghost, TOKENS.fighter, TOKENS.rogue, "dodge"), "unknown_token", "defend");
    await rejects((api) => api.canDefend(TOKENS.fighter, ghost, TOKENS.rogue), "unknown_token", "canDefend");
  });

  it("an argument of the wrong shape names it", async () => {
    await rejects((api) => api.pointOut(TOKENS.fighter, TOKENS.rogue, TOKENS.sentry), "invalid_input", "pointOut allies not a list");
    await rejects((api) => api.changeModifiers(TOKENS.rogue, undefined), "invalid_input", "changeModifiers without modifiers");
  });

  // Before, a free modifier's value that is not a finite number became 0 silently: the GM's
  // macro hid the Rogue without the modifier it named.
  const badFree = [
    ["a text", [{ label: "torch", value: "abc" }], "free[0].value"],
    ["NaN", [{ label: "torch", value: Number.NaN }], "free[0].value"],
    ["Infinity", [{ label: "cover", value: 10 }, { label: "torch", value: Number.POSITIVE_INFINITY }], "free[1].value"],
    ["no value", [{ label: "torch" }], "free[0].value"],
    ["a number as text", [{ label: "torch", value: "12" }], "free[0].value"],
    ["an entry that is not an object", [5], "free[0]"],
    ["free that is not a list", { label: "torch", value: 12 }, "free"],
  ];
  for (const [what, free, field] of badFree) {
    for (const dialog of [true, false]) {
      it(`hide with options.free holding ${what} (dialog ${dialog}): invalid_input naming \`${field}\`, nothing changes`, async () => {
        const client = env.gm;
        const state = JSON.stringify(apiOf(client).getState());
        const messages = client.ctx.game.messages.size;
        const dialogs = client.ctx.dialogs.length;
        await rejects((api) => api.hide(TOKENS.rogue, { dialog, free }), "invalid_input", `hide, ${what}`);
        await assert.rejects(apiOf(client).hide(TOKENS.rogue, { dialog, free }), (error) => error.message.startsWith(`${field}: `), `the detail names ${field}`);
        await env.server.idle();
        assert.equal(client.ctx.dialogs.length, dialogs, "no dialog opened");
        assert.equal(client.ctx.game.messages.size, messages, "no save, no roll, no card");
        assert.equal(JSON.stringify(apiOf(client).getState()), state, "the state is unchanged");
      });
    }
  }
});

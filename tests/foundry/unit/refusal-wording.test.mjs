/**
 * How a refusal by the engine reads to the user of one action: the field of
 * the event the action sent (`hider: token … is not hiding`), not a place in
 * a list the user never made (`events[0].hider`). One action is one event
 * (gm/transaction.mjs `dispatch`); the engine's `Session.applyAll` names the
 * refused event's place in a list (`events[1].hider`), which only means
 * something for a list of several events.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { TOKENS, apiOf, setup, shutdown } from "./world.mjs";

describe("a refused action names the event's field, not a place in a list", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
  });
  after(() => shutdown(env));

  it("the GM reveals a token that is not hiding: not_hiding, `hider: …`", async () => {
    await assert.rejects(apiOf(env.gm).reveal(TOKENS.rogue), (error) => {
      assert.equal(error.code, "not_hiding");
      assert.equal(error.message, `hider: token \`${TOKENS.rogue}\` is not hiding`);
      assert.equal(error.localized(), `This token is not hiding. (hider: token \`${TOKENS.rogue}\` is not hiding)`);
      return true;
    });
  });

  it("a player's refused request reads the same (through the socket)", async () => {
    await assert.rejects(apiOf(env.alice).reveal(TOKENS.rogue), (error) => {
      assert.equal(error.code, "not_hiding");
      assert.equal(error.message, `hider: token \`${TOKENS.rogue}\` is not hiding`);
      return true;
    });
  });

  it("the GM's Hide of a sprinting token (O12): `sprinting: …`", async () => {
    await assert.rejects(apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, sprinting: true, moved: true }), (error) => {
      assert.equal(error.code, "sprinting");
      assert.equal(error.message, `sprinting: \`${TOKENS.rogue}\` is sprinting and cannot enter stealth (O12)`);
      return true;
    });
  });
});

/**
 * A refusal reads in the user's language. A GM reads the localized
 * sentence and the engine's English detail (fields, token ids); a player
 * reads the sentence only. Before, a French player read "Ce pion ne se
 * cache pas. (hider: token `…` is not hiding)", and "Le MJ a annulé
 * l'action. (a furtive.preReveal listener cancelled the action)".
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, GM, TOKENS, apiOf, setup, shutdown } from "./world.mjs";

describe("a refusal in the reader's language", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, ALICE], lang: { [ALICE]: "fr" } });
  });
  after(() => shutdown(env));

  it("a French player reads the French sentence only", async () => {
    await assert.rejects(apiOf(env.alice).reveal(TOKENS.rogue), (error) => {
      assert.equal(error.code, "not_hiding");
      assert.equal(error.localized(), "Ce pion ne se cache pas.");
      return true;
    });
  });

  it("a French player whose action a hook cancels reads the French sentence only", async () => {
    const id = env.gm.ctx.Hooks.on("furtive.preReveal", () => false);
    try {
      await assert.rejects(apiOf(env.alice).reveal(TOKENS.rogue), (error) => {
        assert.equal(error.code, "cancelled");
        assert.doesNotMatch(error.localized(), /[()]|listener|cancelled/);
        return true;
      });
    } finally {
      env.gm.ctx.Hooks.off("furtive.preReveal", id);
    }
  });

  it("the GM reads the sentence and the detail", async () => {
    await assert.rejects(apiOf(env.gm).reveal(TOKENS.rogue), (error) => {
      assert.equal(error.localized(), `This token is not hiding. (hider: token \`${TOKENS.rogue}\` is not hiding)`);
      return true;
    });
  });
});

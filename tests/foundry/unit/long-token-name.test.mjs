/**
 * A token's name is free text in Foundry (TokenDocument#name, a string
 * field: https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html),
 * and the engine takes a creature's name of at most 256 characters (the
 * texts explanations quote, validate.rs MAX_TEXT_CHARS). The module gives
 * the engine the first 256 characters of a longer name: the token hides and
 * is watched like any other. Cutting in the module and not refusing the
 * creature: the name is only what explanations call the token.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, SCENE, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

describe("a token named with 300 characters", () => {
  let env;
  const name = `R${"é".repeat(299)}`;
  before(async () => {
    env = await setup({
      users: [GM],
      world: (w) => {
        const scene = w.scenes.find((s) => s._id === SCENE);
        scene.tokens.find((t) => t._id === TOKENS.rogue).name = name;
      },
    });
  });
  after(() => shutdown(env));

  it("is in the engine under its first 256 characters, and hides", async () => {
    const outcome = await hideRogue(env);
    assert.equal(outcome?.hidden ?? true, true);
    const creature = apiOf(env.gm).getState().creatures[TOKENS.rogue];
    assert.equal(creature?.name, [...name].slice(0, 256).join(""));
    assert.ok(Object.keys(apiOf(env.gm).getState().hiders).includes(TOKENS.rogue), "the rogue hides");
  });
});

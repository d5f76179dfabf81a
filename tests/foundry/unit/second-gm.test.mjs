/**
 * Two GMs connected: the first is the active GM (game.users.activeGM), who
 * runs every action; the second GM's clicks and macros go to it as requests.
 * The second GM's identity is verified as a player's is (net/socket.mjs: the
 * confirm query), so the GM tools (the
 * GM card's Undo, Roll Perception, Override, End turn, Reset) work for them:
 * before, they were refused with "Only a GM may do this." — told to a GM.
 * The answer stays number-free.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, TOKENS, apiOf, clickCard, hideRogue, setup, shutdown, until } from "./world.mjs";

const GM2 = "gmUser0000000002";
const addSecondGM = (world) => world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });

for (const version of [13, 14]) {
  describe(`v${version}: a second, non-active GM uses the GM tools`, () => {
    let env;
    let second;
    before(async () => {
      env = await setup({ ruleset: "percentile", version, users: [GM, GM2, ALICE, BOB], world: addSecondGM });
      second = env.clients[GM2];
    });
    after(() => shutdown(env));

    it("Override and End turn run, and the answer holds no number", async () => {
      await hideRogue(env);
      assert.equal(apiOf(second).isActiveGM(), false, "the first GM is the active one");
      const sent = env.server.received(BOB).length;
      const result = await apiOf(second).override(TOKENS.rogue, TOKENS.fighter, true);
      await env.server.idle();
      assert.equal(apiOf(env.gm).perceives(TOKENS.fighter, TOKENS.rogue), true, "the override was applied");
      assert.ok(!JSON.stringify(result ?? null).includes("221"), `the second GM's answer holds no score: ${JSON.stringify(result)}`);
      // Nothing Bob's client received since then quotes the rogue's score.
      assert.ok(!env.server.received(BOB).slice(sent).some((json) => json.includes("221")), "Bob received no number");
      await apiOf(second).endTurn(TOKENS.rogue);
      await env.server.idle();
    });

    it("the GM card's Undo button undoes the action for the second GM", async () => {
      const gm = env.gm.ctx;
      await apiOf(env.gm).reset();
      await env.server.idle();
      await hideRogue(env);
      assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the rogue hides");
      const card = second.ctx.game.messages.contents.filter((m) => m.getFlag("furtive", "kind") === "log" && m.getFlag("furtive", "actionId")).at(-1);
      const notes = second.ctx.notifications.length;
      clickCard(second, card, "undo");
      await until(() => !apiOf(env.gm).getState()?.hiders?.[TOKENS.rogue] || second.ctx.notifications.length > notes, "the undo or a refusal");
      await env.server.idle();
      assert.deepEqual([...second.ctx.notifications.slice(notes)].map((n) => n.message), [], "no refusal for the second GM");
      assert.equal(apiOf(env.gm).getState()?.hiders?.[TOKENS.rogue], undefined, "the Hide was undone");
      assert.equal(gm.game.scenes.get(env.world.scenes[0]._id).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false, "and its status");
    });

    it("a player still may not", async () => {
      await assert.rejects(apiOf(env.bob).override(TOKENS.rogue, TOKENS.fighter, true), (error) => error.code === "gm_only");
    });
  });
}

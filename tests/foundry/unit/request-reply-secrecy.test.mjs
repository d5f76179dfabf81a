/**
 * What a player's own request answers them (B1): the public explanations of
 * the outcome, shown by the HUD as a notification, name only tokens the
 * player may see named, as the action's chat card does. A line naming a
 * token the GM hid or a hider none of the player's tokens perceives stays
 * in the card's audience and out of the answer.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, TOKENS, answerHideDialog, apiOf, placeable, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

const SCOUT = "tokenScout000001";

for (const version of [13, 14]) {
  describe(`Foundry ${version}: a player's Hide answers no line naming a GM-hidden observer`, () => {
    let env;
    before(async () => {
      env = await setup({
        version,
        ruleset: "opposed",
        users: [GM, ALICE, BOB],
        world: (w) => {
          const scene = w.scenes[0];
          const guard = scene.tokens.find((t) => t._id === TOKENS.guard);
          scene.tokens.push({ ...guard, _id: SCOUT, name: "Scout", x: 100, y: 100, hidden: true });
        },
      });
    });
    after(() => shutdown(env));

    it("Alice hides the rogue from its HUD: the card naming the Scout is not hers, nor is any notice naming it", async () => {
      rig(env.gm, [[20, 14]]);
      const hud = env.alice.ctx.canvas.hud.token;
      hud.bind(placeable(env.alice, TOKENS.rogue));
      const button = hud.element.querySelector('[data-furtive-action="hide"]');
      assert.ok(button, "the HUD offers Hide");
      button.dispatchEvent(new env.alice.window.MouseEvent("click", { bubbles: true }));
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      await until(() => env.alice.ctx.notifications.some((n) => /Rogue tries to hide/.test(n.message)), "Alice's notice of her Hide");
      await env.server.idle();
      hud.clear();
      const line = env.gm.ctx.game.messages.contents.find((m) => m.flags?.furtive?.kind === "log" && !m.flags.furtive.gm && /Scout watches Rogue/.test(m._source.content));
      assert.ok(line, "the rogue's public line names the Scout");
      assert.ok(!line.whisper.includes(ALICE), "the card is not Alice's");
      const notice = env.alice.ctx.notifications.find((n) => /Rogue tries to hide/.test(n.message)).message;
      assert.match(notice, /Fighter watches Rogue hide/, "the lines naming tokens she sees stay");
      assert.doesNotMatch(notice, /Scout/, "no line naming the GM-hidden Scout");
      assert.doesNotMatch(env.alice.window.document.body.textContent, /Scout/);
    });

    it("the answer to Alice's Hide request holds no line naming the Scout either", async () => {
      await apiOf(env.gm).reveal(TOKENS.rogue);
      rig(env.gm, [[20, 14]]);
      const pending = apiOf(env.alice).hide(TOKENS.rogue);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      const answer = await pending;
      assert.ok(answer.entries.some((e) => /Fighter watches Rogue/.test(e.en)), JSON.stringify(answer));
      assert.doesNotMatch(JSON.stringify(answer), /Scout/);
    });
  });
}

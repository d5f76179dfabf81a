/**
 * An offered Perception check (B4) whose observer token the GM deleted before
 * its owner rolled: the owner's click tells them the token is no longer on
 * the scene. Before, Bob read "Furtive: you do not own this token." about
 * his own token. The engine forgot the observer with the token (tokenRemoved).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { BOB, DOOR, SCENE, rig, shutdown, until } from "./world.mjs";
import { IDS, clickCardButton, dnd5eWorld, moduleMessages, rollSkill, untilState } from "./system-world.mjs";

const HIDER = IDS.hider;
const OBSERVER = IDS.observer;

for (const lang of ["en", "fr"]) {
  describe(`an offered Perception check whose observer was deleted (${lang})`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation: "4.4", lang: { [BOB]: lang } });
    });
    after(() => shutdown(env));

    it("the owner's click says the token is gone, and nothing is rolled", async () => {
      rig(env.alice, [[20, 15]]);
      await rollSkill(env, env.alice, IDS.hiderActor, "ste");
      await untilState(env, (s) => s.hiders[HIDER]?.phase === "hiding", "the hider hides");
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      await untilState(env, (s) => s.hiders[HIDER].pairs[OBSERVER]?.checkPending === true, "Bob's check offered");
      await until(() => moduleMessages(env.bob).some((m) => m.flags.furtive.kind === "perceptionOffer"), "the offer reaches Bob");
      await env.gm.ctx.game.scenes.get(SCENE).tokens.get(OBSERVER).delete();
      await env.server.idle();
      const notes = env.bob.ctx.notifications.length;
      const messages = env.bob.ctx.game.messages.size;
      clickCardButton(env.bob, "sheetPerception", { shiftKey: true });
      await until(() => env.bob.ctx.notifications.length > notes, "Bob is told");
      await env.server.idle();
      const told = env.bob.ctx.notifications.slice(notes).map((n) => n.message);
      const expected = env.bob.ctx.game.i18n.localize("FURTIVE.System.TokenGone");
      assert.notEqual(expected, "FURTIVE.System.TokenGone", "the key exists");
      assert.deepEqual([...told], [expected]);
      assert.equal(env.bob.ctx.game.messages.size, messages, "nothing rolled");
    });
  });
}

/**
 * The GM reloads the page (or reconnects) while a player's request waits for
 * their answer: the GM's Hide dialog was open. The reloaded GM is the same
 * user, so the player's client must send the request again when that GM
 * connects (the new page knows nothing of it; the request keeps its id, so a
 * GM runs it at most once). Before, the request was sent again only to a
 * different GM, and the player waited for the 10-minute timeout.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { startClient } from "../node/harness.mjs";
import { ALICE, BOB, GM, TOKENS, answerHideDialog, apiOf, ready, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

for (const version of [13, 14]) {
  describe(`v${version}: the GM reloads while Alice's Hide waits for the GM's dialog`, () => {
    it("the reloaded GM gets the request and Alice gets the answer", async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, ALICE, BOB] });
      try {
        let settled = null;
        const pending = apiOf(env.alice).hide(TOKENS.rogue).then(
          (value) => (settled = { ok: true, value }),
          (error) => (settled = { ok: false, error }),
        );
        await waitForDialog(env.gm, env.server);
        // The GM's page reloads: the old page is gone (its dialog with it), a new one connects.
        env.gm.ctx.disconnect();
        env.gm.window.close();
        await env.server.idle();
        const fresh = await startClient({ server: env.server, userId: GM, version });
        env.clients[GM] = fresh;
        env.gm = fresh;
        await apiOf(fresh).engineReady;
        await ready(fresh);
        await env.server.idle();
        rig(fresh, [[100, 83]]);
        const dialog = await waitForDialog(fresh, env.server);
        answerHideDialog(fresh, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
        await until(() => settled !== null, "Alice's answer");
        await pending;
        assert.equal(settled.ok, true, `Alice's Hide succeeded: ${settled.error?.code ?? ""}`);
        await env.server.idle();
        assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "the rogue hides");
        const hideCards = fresh.ctx.game.messages.filter((m) => m.getFlag("furtive", "kind") === "log" && m.getFlag("furtive", "titleKey") === "FURTIVE.Chat.Event.enterStealth" && m.getFlag("furtive", "gm"));
        assert.equal(hideCards.length, 1, "one Hide: the request ran once");
      } finally {
        shutdown(env);
      }
    });
  });
}

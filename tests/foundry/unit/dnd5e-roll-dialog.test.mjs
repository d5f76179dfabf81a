/**
 * dnd5e's roll dialog on the module's own Stealth and Perception checks
 * (opposed rules): a Hide made by hand shows the system's roll configuration
 * dialog to the one who rolls (the active GM, after the Hide dialog) unless the
 * click held dnd5e's fast-forward key; the mode chosen there is the roll the
 * engine gets; closing it changes nothing; the checks the engine asks for never
 * wait on a dialog. On dnd5e 5.2 (Foundry 13) and 6.0 (Foundry 14); the fake
 * system models the dialog as dnd5e does (../systems/dnd5e.mjs `buildV2`).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DOOR, SCENE, answerHideDialog, placeable, rig, shutdown, until, waitForDialog } from "./world.mjs";
import { IDS, answerRollDialog, dnd5eWorld, gmState, moduleMessages, rollSkill, settle, tokenOn, untilState } from "./system-world.mjs";

const [GUARD_A, GUARD_B] = IDS.guards;

/** Clicks the Hide button of a token's HUD on the GM's client, with the modifier keys given. */
function clickHudHide(env, tokenId, keys = {}) {
  const hud = env.gm.ctx.canvas.hud.token;
  hud.bind(placeable(env.gm, tokenId));
  const button = hud.element.querySelector('[data-furtive-action="hide"]');
  button.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true, cancelable: true, ...keys }));
}

/** Whether the GM's client shows dnd5e's roll dialog now. */
const rollDialogOpen = (env) => env.gm.ctx.dialogs.some((d) => d.element?.querySelector(".dnd5e-roll-configuration"));

for (const generation of ["5.2", "6.0"]) {
  describe(`dnd5e ${generation}: the roll dialog on the module's own checks`, () => {
    let env;
    let guardStealth;
    before(async () => {
      env = await dnd5eWorld({ generation });
      guardStealth = env.gm.ctx.game.actors.get(IDS.guardActor).getRollData().skills.ste.total;
    });
    after(() => shutdown(env));

    it("closing the roll dialog of a Hide changes nothing: no attempt, no status, no card, no roll", async () => {
      const before = moduleMessages(env.gm).length;
      const messages = env.gm.ctx.game.messages.contents.length;
      const pending = env.gm.ctx.game.modules.get("furtive").api.hide(GUARD_A);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      await answerRollDialog(env.gm, null);
      await assert.rejects(pending, (error) => error.code === "cancelled");
      await settle(env);
      assert.ok(!gmState(env)?.hiders?.[GUARD_A], "no stealth attempt");
      assert.ok(!tokenOn(env.gm, GUARD_A).hasStatusEffect("furtive.hidden"));
      assert.equal(moduleMessages(env.gm).length, before, "no card");
      assert.equal(env.gm.ctx.game.messages.contents.length, messages, "no roll message");
    });

    it("the GM's Hide from the HUD shows dnd5e's roll dialog after the Hide dialog; disadvantage chosen there is the total the engine holds", async () => {
      // Disadvantage: two d20, 15 and 4, the lower kept; then any checks the hide asks for.
      rig(env.gm, [[20, 15], [20, 4], [20, 1], [20, 1], [20, 1], [20, 1]]);
      clickHudHide(env, GUARD_A);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      const mode = await answerRollDialog(env.gm, "disadvantage");
      // The dialog's message mode starts at the GM-private one (v13 `gmroll`, v14 `gm`): the module posts the roll to the GMs.
      assert.equal(mode, generation === "6.0" ? "gm" : "gmroll");
      const state = await untilState(env, (s) => s.hiders[GUARD_A]?.phase === "hiding", "Guard A hides");
      assert.equal(state.hiders[GUARD_A].heldTotal, 4 + guardStealth);
      assert.ok(tokenOn(env.gm, GUARD_A).hasStatusEffect("furtive.hidden"));
    });

    it("a Shift-click on Hide fast-forwards the roll (dnd5e's skipDialogNormal): no roll dialog", async () => {
      rig(env.gm, [[20, 11], [20, 1], [20, 1], [20, 1], [20, 1]]);
      clickHudHide(env, GUARD_B, { shiftKey: true });
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      const state = await untilState(env, (s) => s.hiders[GUARD_B]?.phase === "hiding", "Guard B hides");
      assert.equal(state.hiders[GUARD_B].heldTotal, 11 + guardStealth);
      assert.equal(rollDialogOpen(env), false);
    });

    it("the Perception checks the engine asks for are rolled without a dialog", async () => {
      rig(env.alice, [[20, 16]]);
      await rollSkill(env, env.alice, IDS.hiderActor, "ste");
      await untilState(env, (s) => s.hiders[IDS.hider]?.phase === "hiding", "the Sneak hides");
      let opened = false;
      const watch = (app) => (opened ||= Boolean(app.element?.querySelector?.(".dnd5e-roll-configuration")));
      env.gm.ctx.Hooks.on("renderDialogV2", watch);
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      const state = await untilState(env, (s) => IDS.guards.every((g) => Number.isFinite(s.hiders[IDS.hider].pairs[g]?.perceptionTotal)), "the guards' checks");
      env.gm.ctx.Hooks.off("renderDialogV2", watch);
      assert.equal(opened, false, "no roll dialog for the engine's checks");
      for (const guard of IDS.guards) assert.equal(state.hiders[IDS.hider].pairs[guard].perceptionTotal, 2 + env.gm.ctx.game.actors.get(IDS.guardActor).getRollData().skills.prc.total);
      await until(() => !rollDialogOpen(env), "no dialog left");
    });
  });
}

/**
 * The Token HUD's Knockout dialog (P8, ui/hud-flows.mjs knockoutWithDialog):
 * the raw damage emptied, or text that is no number (a browser empties a
 * number field holding it), is refused naming the field, before the
 * knockout d100 is rolled, as the Attack dialog refuses such a `hits`.
 * Before, it was read as 0 damage: the GM's d100 was rolled, the attempt
 * made and the target's damage recorded as 0, silently.
 *
 * A raw damage out of the engine's range (0..=100000, P8) is refused before
 * the d100 too. Before, the GM action rolled and posted the knockout d100,
 * then the engine refused the damage (`out_of_range`): a roll for an attempt
 * that never happened; and a negative one was made 0, silently (now
 * `invalid_input` naming it).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, GM, TOKENS, apiOf, clickDialogButton, hideRogue, placeable, setup, shutdown, until } from "./world.mjs";

describe("Alice's rogue surprised the guard with a blow to the head; the Knockout dialog's raw damage is emptied", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "percentile",
      users: [GM, ALICE],
      lang: { [ALICE]: "fr" },
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => [TOKENS.rogue, TOKENS.guard].includes(t._id));
      },
    });
    await hideRogue(env);
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.guard, { hitZone: "head" });
    await env.server.idle();
  });
  after(() => shutdown(env));

  for (const rawDamage of ["", "abc"]) {
    it(`raw damage ${JSON.stringify(rawDamage)}: Alice is told the field, no d100 is rolled, nothing changes`, async () => {
      const client = env.alice;
      const messages = env.gm.ctx.game.messages.size;
      placeable(client, TOKENS.guard).setTarget(true);
      const hud = client.ctx.canvas.hud.token;
      hud.bind(placeable(client, TOKENS.rogue));
      await until(() => hud.element.querySelector('[data-furtive-action="knockout"]'), "the Knockout button (P8 allows it)");
      const dialogs = client.ctx.dialogs.length;
      hud.element.querySelector('[data-furtive-action="knockout"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
      await until(() => client.ctx.dialogs.length > dialogs, "the Knockout dialog");
      const dialog = client.ctx.dialogs.at(-1);
      dialog.element.querySelector("form").elements.rawDamage.value = rawDamage;
      const notifications = client.ctx.notifications.length;
      clickDialogButton(client, dialog, "ok");
      await until(() => client.ctx.notifications.length > notifications || env.gm.ctx.game.messages.size > messages, "an answer");
      await env.server.idle();
      const told = [...client.ctx.notifications.slice(notifications)].map((n) => n.message).join(" | ");
      assert.match(told, /Données invalides.*rawDamage/, "refused in French, naming the field");
      assert.equal(env.gm.ctx.game.messages.size, messages, "no d100, no card, no line");
      assert.ok(!env.gm.ctx.game.actors.get("actorGuard000001").statuses?.has?.("unconscious"));
      placeable(client, TOKENS.guard).setTarget(false);
      hud.clear();
    });
  }
});

describe("a macro asks a knockout with a raw damage out of range: refused before the d100", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "percentile",
      users: [GM, ALICE],
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => [TOKENS.rogue, TOKENS.guard].includes(t._id));
      },
    });
    await hideRogue(env);
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.guard, { hitZone: "head" });
    await env.server.idle();
  });
  after(() => shutdown(env));

  for (const [rawDamage, code] of [[200000, "out_of_range"], [-3, "out_of_range"]]) {
    it(`raw damage ${rawDamage}: ${code} naming rawDamage, no d100 rolled, nothing posted`, async () => {
      const messages = env.gm.ctx.game.messages.size;
      await assert.rejects(apiOf(env.gm).knockout(TOKENS.rogue, TOKENS.guard, { rawDamage }), (error) => error.code === code && /rawDamage/.test(error.message));
      await env.server.idle();
      assert.equal(env.gm.ctx.game.messages.size, messages, "no knockout roll, no card");
    });
  }
});

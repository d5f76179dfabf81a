/**
 * B1, the combat tracker: a player none of whose tokens perceives the hider
 * gets no row for it (no name, no initiative, no current-turn highlight);
 * players who perceive it, and the GM, see it as usual. The rows are
 * Foundry's (`renderCombatTracker`, one `[data-combatant-id]` row per
 * combatant; fake/combat-tracker.mjs).
 *
 * The GM hides the rogue: Bob's fighter does not perceive it, Carol's archer
 * does (world.mjs). Then a combat starts (a hider keeps its state): the rogue
 * (initiative 20) acts first, then the fighter (10) and the archer (5). The
 * archer's row shows from the start, the rogue's only where it is perceived.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { TOKENS, apiOf, hideRogue, plain, setup, shutdown, startCombat } from "./world.mjs";

/** The tracker's rows on a client, by combatant id: `{name, active}`. */
function rowsOf(client) {
  const tracker = client.window.document.getElementById("combat");
  assert.ok(tracker, `${client.userId} has a combat tracker`);
  return [...tracker.querySelectorAll("[data-combatant-id]")].map((row) => ({ id: row.dataset.combatantId, text: row.textContent, active: row.classList.contains("active") }));
}

for (const version of [13, 14]) {
  describe(`Foundry ${version}: The combat tracker names a hider only to those who perceive it (B1)`, () => {
    let env;
    let combat;
    const rogueRow = () => combat.combatants.find((c) => c.tokenId === TOKENS.rogue).id;
    before(async () => {
      env = await setup({ version });
      await hideRogue(env);
      combat = await startCombat(env, [[TOKENS.rogue, 20], [TOKENS.fighter, 10], [TOKENS.archer, 5]]);
    });
    after(() => shutdown(env));

    it("Bob's tracker has no row for the rogue, no current turn during its turn, and no 'Rogue' anywhere", () => {
      assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
      assert.equal(env.gm.ctx.game.combats.get(combat.id).combatant.tokenId, TOKENS.rogue, "the rogue's turn");
      const rows = rowsOf(env.bob);
      assert.deepEqual(rows.map((r) => r.id).sort(), plain(combat.combatants.filter((c) => c.tokenId !== TOKENS.rogue).map((c) => c.id)).sort());
      assert.equal(rows.some((r) => r.active), false, "no row is highlighted during the hider's turn");
      assert.doesNotMatch(env.bob.window.document.getElementById("combat").textContent, /Rogue/);
    });

    it("Carol, whose archer perceives the rogue, and the GM still see its row and its turn", () => {
      for (const client of [env.carol, env.gm]) {
        const row = rowsOf(client).find((r) => r.id === rogueRow());
        assert.ok(row?.active, `${client.userId} sees the rogue's turn`);
      }
    });

    it("the turn passes to the fighter: Bob sees the fighter's turn, still no rogue", async () => {
      await env.gm.ctx.game.combats.get(combat.id).nextTurn();
      await env.server.idle();
      const rows = rowsOf(env.bob);
      assert.equal(rows.find((r) => r.active)?.text.includes("Fighter"), true);
      assert.equal(rows.some((r) => r.id === rogueRow()), false);
    });

    it("the rogue is revealed: Bob's tracker lists it again", async () => {
      await apiOf(env.gm).reveal(TOKENS.rogue);
      await env.server.idle();
      assert.equal(rowsOf(env.bob).some((r) => r.id === rogueRow()), true);
    });
  });
}

/**
 * Each action through the public API and the HUD, with the real engine:
 * hide (the dialog's P2 toggles and free modifier), reveal, point out
 * (opposed), knockout offered only when P8 allows it, defend refused/allowed
 * with the engine's explanation, `api.canDefend`, `furtive.preDefend`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { readsInFlight } from "../node/harness.mjs";
import { ALICE, BOB, CAROL, DAVE, GM, SCENE, TOKENS, answerHideDialog, apiOf, clickDialogButton, hideRogue, hideRogueOpposed, messagesOf, placeable, plain, rig, rollsIn, setup, shutdown, startCombat, until, waitForDialog } from "./world.mjs";

describe("Hide (percentile): the GM's dialog, the roll, the result", () => {
  let env;
  let outcome;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    outcome = plain(await hideRogue(env));
  });
  after(() => shutdown(env));

  it("the dialog shows the nine P2 toggles and a free modifier", async () => {
    rig(env.gm, [[100, 50]]);
    const pending = apiOf(env.gm).hide(TOKENS.fighter);
    const dialog = await waitForDialog(env.gm, env.server);
    const values = [...dialog.element.querySelectorAll('input[name="situation"]')].map((i) => i.value);
    assert.deepEqual(values, ["sprint", "already_perceived", "dark", "no_cover", "cluttered", "very_quiet", "very_noisy", "strong_smells", "deserted"]);
    assert.ok(dialog.element.querySelector('input[name="freeValue"]'), "free modifier value");
    assert.ok(dialog.element.querySelector('input[name="freeLabel"]'), "free modifier label");
    clickDialogButton(env.gm, dialog, "cancel");
    await assert.rejects(pending, (error) => error.code === "cancelled");
    await env.server.idle();
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.fighter], undefined, "cancelling changes nothing");
  });

  it("the engine received the toggles, the free modifier and the Foundry d100", () => {
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.deepEqual(plain(hider.modifiers), { situation: ["dark"], free: [{ label: "torch", value: 27 }] });
    assert.equal(hider.d100, 83);
    assert.equal(hider.score, 221, "83 + Furtivité 61 + dark 50 + torch 27");
  });

  it("observers whose acuity sum is below the score do not perceive the rogue (P3)", () => {
    const unperceived = outcome.changes.filter((c) => c.kind === "visibility" && !c.perceived).map((c) => c.observer).sort();
    assert.deepEqual(unperceived, [TOKENS.fighter, TOKENS.guard, TOKENS.sentry].sort());
    const api = apiOf(env.bob);
    assert.equal(api.perceives(TOKENS.fighter, TOKENS.rogue), false);
    assert.equal(api.perceives(TOKENS.archer, TOKENS.rogue), true);
    assert.deepEqual(plain(api.hiddenFrom(TOKENS.sentry)), [TOKENS.rogue]);
  });

  it("the rogue gets the furtive.hidden status on every client", () => {
    for (const client of Object.values(env.clients)) {
      assert.equal(client.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true, client.userId);
    }
    assert.ok(env.gm.ctx.CONFIG.statusEffects.some((s) => s.id === "furtive.hidden" && s.name && s.img));
    assert.ok(env.gm.ctx.CONFIG.statusEffects.some((s) => s.id === "furtive.defenseless" && s.name && s.img));
  });

  it("the stealth roll is a GM-only roll; the GM gets the full card, the players who may see the rogue a line without numbers (B1)", () => {
    const gmMessages = messagesOf(env.gm);
    const roll = gmMessages.find((m) => rollsIn(m)[0]?.formula === "1d100");
    assert.ok(roll, "a 1d100 roll");
    assert.equal(rollsIn(roll)[0].total, 83);
    assert.deepEqual(roll.whisper, [GM], "whispered to the GM (gmroll)");
    const gmCard = gmMessages.find((m) => m.flags?.furtive?.kind === "log" && m.flags.furtive.gm);
    assert.ok(gmCard && gmCard.whisper.includes(GM), "GM-only explanation card");
    assert.match(gmCard.content, /221/, "the GM card carries the score");
    const publicCard = gmMessages.find((m) => m.flags?.furtive?.kind === "log" && !m.flags.furtive.gm);
    assert.ok(publicCard, "a line for players");
    assert.deepEqual([...publicCard.whisper].sort(), [ALICE, CAROL, DAVE, GM].sort(), "the owner and the players with a token that perceives the rogue");
    assert.ok(messagesOf(env.carol).some((m) => m._id === publicCard._id), "Carol (her archer perceives the rogue) receives it");
    assert.ok(!messagesOf(env.bob).some((m) => m._id === publicCard._id), "Bob (his fighter does not perceive the rogue) does not");
  });
});

describe("Hide from the Token HUD, Reveal", () => {
  for (const version of [13, 14]) {
    it(`v${version}: the GM clicks Hide in the HUD, answers the dialog; Reveal appears and ends the attempt`, async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, BOB] });
      try {
        rig(env.gm, [[100, 83]]);
        const hud = env.gm.ctx.canvas.hud.token;
        hud.bind(placeable(env.gm, TOKENS.rogue));
        const hide = hud.element.querySelector('[data-furtive-action="hide"]');
        assert.ok(hide, "Hide button in the HUD");
        assert.ok(hud.element.querySelector(".col.right").contains(hide), "in the right column");
        assert.equal(hud.element.querySelector('[data-furtive-action="reveal"]'), null, "no Reveal before hiding");
        hide.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
        answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
        await until(() => apiOf(env.gm).getState()?.hiders?.[TOKENS.rogue], "the rogue hides");
        await env.server.idle();
        assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
        hud.bind(placeable(env.gm, TOKENS.rogue));
        const reveal = hud.element.querySelector('[data-furtive-action="reveal"]');
        assert.ok(reveal, "Reveal offered to a hiding token");
        reveal.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
        await until(() => apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), "the rogue is revealed");
        await env.server.idle();
        assert.equal(env.bob.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false);
        assert.deepEqual(plain(apiOf(env.bob).hiddenFrom(TOKENS.fighter)), []);
      } finally {
        shutdown(env);
      }
    });
  }

  it("the HUD offers nothing on a token the user does not own", async () => {
    const env = await setup({ ruleset: "percentile", users: [GM, BOB] });
    try {
      const hud = env.bob.ctx.canvas.hud.token;
      hud.bind(placeable(env.bob, TOKENS.rogue));
      assert.equal(hud.element.querySelector("[data-furtive-action]"), null);
      hud.bind(placeable(env.bob, TOKENS.fighter));
      assert.ok(hud.element.querySelector('[data-furtive-action="hide"]'), "Bob may hide his own fighter");
    } finally {
      shutdown(env);
    }
  });
});

describe("Point out (opposed, O3)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    // Door closed: the east tokens (sentry, lookout) have no clear view at entry (O2).
    await hideRogueOpposed(env);
  });
  after(() => shutdown(env));

  it("the Stealth check is the preset formula rolled by Foundry: 1d20 + @skills.ste.total", () => {
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.equal(hider.heldTotal, 21, "d20 14 + Stealth 7");
    const roll = messagesOf(env.gm).find((m) => rollsIn(m)[0]?.formula === "1d20 + 7");
    assert.ok(roll, "the formula was filled from the actor's roll data");
  });

  it("observers in clear view at entry perceive; the others do not (O2)", () => {
    const api = apiOf(env.dave);
    assert.equal(api.perceives(TOKENS.fighter, TOKENS.rogue), true);
    assert.equal(api.perceives(TOKENS.sentry, TOKENS.rogue), false);
    assert.equal(api.perceives(TOKENS.lookout, TOKENS.rogue), false);
  });

  it("the HUD offers Point out to an observer who perceives a hider", () => {
    const hud = env.bob.ctx.canvas.hud.token;
    hud.bind(placeable(env.bob, TOKENS.fighter));
    assert.ok(hud.element.querySelector('[data-furtive-action="pointOut"]'));
  });

  it("Bob's fighter points the rogue out to the sentry through the socket; the sentry then perceives it", async () => {
    const result = plain(await apiOf(env.bob).pointOut(TOKENS.fighter, TOKENS.rogue, [TOKENS.sentry]));
    await env.server.idle();
    assert.equal(result.ok, true);
    assert.equal(apiOf(env.dave).perceives(TOKENS.sentry, TOKENS.rogue), true);
    assert.equal(apiOf(env.dave).perceives(TOKENS.lookout, TOKENS.rogue), false, "only the named ally");
  });

  it("an observer who does not perceive the hider cannot point it out (engine refusal)", async () => {
    await assert.rejects(apiOf(env.dave).pointOut(TOKENS.lookout, TOKENS.rogue, [TOKENS.sentry]), (error) => error.code === "observer_does_not_perceive");
  });
});

describe("Attack, knockout, defend (percentile, P6-P8)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  async function hudButtons(client, tokenId, targetId) {
    const hider = placeable(client, tokenId);
    placeable(client, targetId).setTarget(true);
    const hud = client.ctx.canvas.hud.token;
    hud.bind(hider);
    // The HUD's buttons are rendered from a template, read from the disk.
    do {
      await env.server.idle();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } while (readsInFlight() > 0);
    await env.server.idle();
    const actions = [...hud.element.querySelectorAll("[data-furtive-action]")].map((b) => b.dataset.furtiveAction);
    placeable(client, targetId).setTarget(false);
    return actions;
  }

  it("no knockout before a surprise attack to the head", async () => {
    const actions = await hudButtons(env.alice, TOKENS.rogue, TOKENS.fighter);
    assert.ok(actions.includes("attack"));
    assert.ok(!actions.includes("knockout"));
    const answer = plain(await apiOf(env.alice).canKnockout(TOKENS.rogue, TOKENS.fighter));
    assert.equal(answer.allowed, false);
  });

  it("a surprise attack to the trunk: defenseless, but no knockout (P7)", async () => {
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.guard, { hitZone: "trunk" });
    await env.server.idle();
    assert.equal(env.bob.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.guard).hasStatusEffect("furtive.defenseless"), true);
    const actions = await hudButtons(env.alice, TOKENS.rogue, TOKENS.guard);
    assert.ok(!actions.includes("knockout"));
  });

  it("a surprise attack to the head of the fighter: the fighter is defenseless and the HUD offers Knockout", async () => {
    const cardsBefore = messagesOf(env.gm).length;
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "head" });
    await env.server.idle();
    for (const client of Object.values(env.clients)) {
      assert.equal(client.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).hasStatusEffect("furtive.defenseless"), true, client.userId);
    }
    // One GM card for the attack: the defenseless notice (P6) is in it, with every comparison.
    const gmCards = messagesOf(env.gm).slice(cardsBefore).filter((m) => m.flags?.furtive?.gm);
    assert.equal(gmCards.length, 1, `GM cards for the attack: ${gmCards.map((m) => m.flags.furtive.kind)}`);
    const [card] = gmCards;
    assert.deepEqual(card.flags.furtive.defenseless, [TOKENS.fighter], "the GM's action card names the defenseless target");
    assert.match(card.content, /Fighter is defenseless against Rogue/);
    assert.ok(card.flags.furtive.entries.some((e) => e.clause === "P6"), "with the engine's P6 explanations");
    assert.deepEqual(card.whisper, [GM]);
    const actions = await hudButtons(env.alice, TOKENS.rogue, TOKENS.fighter);
    assert.ok(actions.includes("knockout"), `HUD actions: ${actions}`);
  });

  it("the target may not defend itself: refused with the engine's explanation", async () => {
    const result = plain(await apiOf(env.bob).defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "dodge"));
    assert.equal(result.allowed, false);
    assert.equal(result.decision.clause, "P6");
    assert.match(result.decision.en, /defenseless/);
    // Prefixed like every other refusal the module shows (net/requests.mjs notifyRefusal: "Furtive: ...").
    const shown = env.bob.ctx.notifications.filter((n) => n.type === "warning" && n.message.includes(result.decision.en)).map((n) => n.message);
    assert.deepEqual(plain(shown), [`Furtive: ${result.decision.en}`], "the explanation is shown, prefixed");
    await env.server.idle();
    assert.ok(messagesOf(env.bob).some((m) => m.content.includes(result.decision.en)), "and posted");
  });

  it("an ally who does not perceive the attacker may not defend the target; one who does may", async () => {
    const refused = plain(await apiOf(env.gm).canDefend(TOKENS.guard, TOKENS.fighter, TOKENS.rogue));
    assert.equal(refused.allowed, false);
    assert.match(refused.en, /does not perceive/);
    const allowed = plain(await apiOf(env.carol).canDefend(TOKENS.archer, TOKENS.fighter, TOKENS.rogue));
    assert.equal(allowed.allowed, true);
    rig(env.carol, [[100, 42]]);
    const result = plain(await apiOf(env.carol).defend(TOKENS.archer, TOKENS.fighter, TOKENS.rogue, "parry"));
    assert.equal(result.allowed, true);
    assert.equal(result.total, 42, "the parry formula (1d100) rolled on Carol's client");
  });

  it("furtive.preDefend can cancel an allowed defense; no roll is made", async () => {
    let seen = null;
    const id = env.carol.ctx.Hooks.on("furtive.preDefend", (context) => {
      seen = { defense: context.defense, formula: context.formula, defender: context.defender.id };
      return false;
    });
    const before = env.carol.ctx.game.messages.size;
    const result = plain(await apiOf(env.carol).defend(TOKENS.archer, TOKENS.fighter, TOKENS.rogue, "dodge"));
    env.carol.ctx.Hooks.off("furtive.preDefend", id);
    await env.server.idle();
    assert.deepEqual(seen, { defense: "dodge", formula: "1d100", defender: TOKENS.archer });
    assert.equal(result.cancelled, true);
    assert.equal(result.total, undefined);
    assert.equal(env.carol.ctx.game.messages.size, before, "no roll message");
  });

  it("the knockout: GM-only d100 against the base Furtivité, unconscious on success", async () => {
    rig(env.gm, [[100, 12]]);
    const result = plain(await apiOf(env.alice).knockout(TOKENS.rogue, TOKENS.fighter, { rawDamage: 9 }));
    await env.server.idle();
    assert.deepEqual(result, { allowed: true, knockedOut: true }, "the player gets no numbers");
    assert.equal(env.bob.ctx.game.actors.get("actorFighter0001").statuses.has("unconscious"), true);
  });

  it("the defenseless status ends at the end of the attacker's turn (P6)", async () => {
    const gm = env.gm.ctx;
    const combat = await startCombat(env);
    assert.equal(env.bob.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).hasStatusEffect("furtive.defenseless"), true, "still defenseless during the rogue's turn");
    await gm.game.combats.get(combat.id).nextTurn();
    await env.server.idle();
    assert.equal(env.bob.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter).hasStatusEffect("furtive.defenseless"), false);
  });
});

describe("Knockout refused by a helmet (P8)", () => {
  it("the HUD does not offer Knockout against a target wearing a helmet", async () => {
    const env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    try {
      await env.gm.ctx.game.actors.get("actorFighter0001").createEmbeddedDocuments("Item", [{ name: "Iron helmet", type: "equipment", system: { equipped: true } }]);
      await env.server.idle();
      await hideRogue(env);
      await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "head" });
      await env.server.idle();
      const answer = plain(await apiOf(env.alice).canKnockout(TOKENS.rogue, TOKENS.fighter));
      assert.equal(answer.allowed, false);
      assert.match(answer.en, /helmet/);
    } finally {
      shutdown(env);
    }
  });
});

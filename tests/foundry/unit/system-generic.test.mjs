/**
 * Generic systems (no dnd5e): roll messages recognised by the match settings
 * (a chat flag, or a formula filled with the speaker's roll data) drive the
 * engine. Worlds of world-data.mjs with the system id
 * "worldbuilding".
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { settle } from "./system-world.mjs";
import { DOOR, SCENE, TOKENS, answerHideDialog, apiOf, clickDialogButton, plain, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** The GM's stored state (plain data). */
function gmState(env) {
  return plain(apiOf(env.gm).getState());
}

/** The module's own messages a client holds, as plain data. */
function moduleMessages(client) {
  return client.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.kind).map((m) => plain(m._source));
}

/** Posts a roll to chat as a token, like a generic system's sheet would. */
async function postRoll(client, tokenId, formula, flags = {}) {
  const token = client.ctx.game.scenes.get(SCENE).tokens.get(tokenId);
  const roll = new client.ctx.Roll(formula, token.actor.getRollData());
  await roll.evaluate();
  await roll.toMessage({ speaker: client.ctx.ChatMessage.getSpeaker({ token }), flags });
}

/** Targets tokens on a client. */
function target(client, tokenIds) {
  for (const t of [...client.ctx.game.user.targets]) t.setTarget(false, { releaseOthers: false });
  for (const id of tokenIds) client.ctx.canvas.tokens.get(id).setTarget(true, { releaseOthers: false });
}

describe("generic system, percentile: a flagged d100 Stealth roll and a flagged attack roll", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", settings: { systemStealthMatch: "flags.mysystem.check=stealth", systemAttackMatch: "flags.mysystem.attack=true" } });
  });
  after(() => shutdown(env));

  it("Alice's Stealth roll (d100 83) opens the GM's Hide dialog for the situation (P2), then hides with that d100 (P1)", async () => {
    rig(env.alice, [[100, 83]]);
    await postRoll(env.alice, TOKENS.rogue, "1d100", { mysystem: { check: "stealth" } });
    const dialog = await waitForDialog(env.gm, env.server);
    assert.match(dialog.element.textContent, /Alice/, "the GM sees who rolled");
    answerHideDialog(env.gm, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    await until(() => gmState(env)?.hiders?.[TOKENS.rogue]?.phase === "hiding", "the rogue hides");
    await settle(env);
    const hider = gmState(env).hiders[TOKENS.rogue];
    assert.equal(hider.d100, 83);
    assert.equal(hider.score, 221);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
    assert.equal(moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "roll").length, 0, "nothing rolled again");
  });

  it("a flagged attack roll on two targets is one attack: P6 surprise on each, the hit zone from the GM's dialog (P7)", async () => {
    target(env.alice, [TOKENS.fighter, TOKENS.sentry]);
    await postRoll(env.alice, TOKENS.rogue, "1d20", { mysystem: { attack: true } });
    const dialog = await waitForDialog(env.gm, env.server);
    dialog.element.querySelector("form").elements.hitZone.value = "head";
    clickDialogButton(env.gm, dialog, "ok");
    await until(() => (gmState(env)?.surprises ?? []).length === 2, "two surprises");
    await settle(env);
    const surprises = gmState(env).surprises;
    assert.deepEqual(surprises.map((s) => s.target).sort(), [TOKENS.fighter, TOKENS.sentry].sort());
    assert.ok(surprises.every((s) => s.attacker === TOKENS.rogue && s.firstHitZone === "head"));
  });

  it("a roll matching nothing changes nothing", async () => {
    const before = JSON.stringify(gmState(env));
    await postRoll(env.alice, TOKENS.rogue, "1d100", { mysystem: { check: "climb" } });
    await settle(env);
    assert.equal(JSON.stringify(gmState(env)), before);
  });
});

describe("generic system, percentile: a flagged area effect (no roll) is one attack on the user's targets", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", settings: { systemStealthMatch: "flags.mysystem.check=stealth", systemAttackMatch: "flags.mysystem.attack=true", systemAreaMatch: "flags.mysystem.area=true" } });
    rig(env.alice, [[100, 83]]);
    await postRoll(env.alice, TOKENS.rogue, "1d100", { mysystem: { check: "stealth" } });
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"] });
    await until(() => gmState(env)?.hiders?.[TOKENS.rogue]?.phase === "hiding", "the rogue hides");
    await settle(env);
  });
  after(() => shutdown(env));

  it("Alice's area message on two targets: a P6 surprise on each, one GM card", async () => {
    const before = new Set(moduleMessages(env.gm).map((m) => m._id));
    target(env.alice, [TOKENS.fighter, TOKENS.sentry]);
    const token = env.alice.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
    await env.alice.ctx.ChatMessage.create({ content: "Fire storm", speaker: env.alice.ctx.ChatMessage.getSpeaker({ token }), flags: { mysystem: { area: true } } });
    const dialog = await waitForDialog(env.gm, env.server);
    clickDialogButton(env.gm, dialog, "ok");
    await until(() => (gmState(env)?.surprises ?? []).length === 2, "two surprises");
    await settle(env);
    const surprises = gmState(env).surprises;
    assert.deepEqual(surprises.map((s) => s.target).sort(), [TOKENS.fighter, TOKENS.sentry].sort());
    assert.ok(surprises.every((s) => s.attacker === TOKENS.rogue));
    const cards = moduleMessages(env.gm).filter((m) => !before.has(m._id) && m.flags.furtive.kind === "log" && m.flags.furtive.gm);
    assert.equal(cards.length, 1);
  });

  it("a roll flagged both as an attack and as an area effect counts once: one dialog, one more attack on the fighter's surprise, one GM card", async () => {
    const before = new Set(moduleMessages(env.gm).map((m) => m._id));
    const attacks = () => gmState(env).surprises.find((s) => s.target === TOKENS.fighter)?.attacks;
    assert.equal(attacks(), 1);
    target(env.alice, [TOKENS.fighter]);
    await postRoll(env.alice, TOKENS.rogue, "1d20", { mysystem: { attack: true, area: true } });
    const dialog = await waitForDialog(env.gm, env.server);
    clickDialogButton(env.gm, dialog, "ok");
    await until(() => attacks() > 1, "the second attack on the fighter");
    await settle(env);
    assert.equal(env.gm.ctx.dialogs.length, 0, "no second Attack dialog");
    assert.equal(attacks(), 2);
    const cards = moduleMessages(env.gm).filter((m) => !before.has(m._id) && m.flags.furtive.kind === "log" && m.flags.furtive.gm);
    assert.equal(cards.length, 1);
  });
});

describe("generic system, opposed: a Stealth roll matched by formula, O10 as a GM-only note, HP loss as O11", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      settings: { systemStealthMatch: "1d20 + @skills.ste.total", systemAttackMatch: "flags.mysystem.attack=true" },
      world: (w) => {
        w.system = { id: "worldbuilding", version: "0.8.2" };
        w.actors.find((a) => a._id === "actorRogue000001").system.attributes.hp = { value: 10, max: 10 };
      },
    });
  });
  after(() => shutdown(env));

  it("the module's own Stealth roll (same formula) is not taken for a sheet roll: one hide, not two", async () => {
    rig(env.gm, [[20, 9]]);
    const pending = apiOf(env.gm).hide(TOKENS.guard);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await settle(env);
    const hides = moduleMessages(env.gm).filter((m) => m.flags.furtive.titleKey === "FURTIVE.Chat.Event.enterStealth" && m.flags.furtive.gm);
    assert.equal(hides.length, 1);
    assert.equal(gmState(env).hiders[TOKENS.guard].heldTotal, 9, "the guard has no Stealth bonus");
  });

  it("Alice's roll of the Stealth formula (d20 14 + 7) starts the attempt with its total (O1)", async () => {
    rig(env.alice, [[20, 14]]);
    await postRoll(env.alice, TOKENS.rogue, "1d20 + @skills.ste.total");
    await until(() => gmState(env)?.hiders?.[TOKENS.rogue]?.phase === "hiding", "the rogue hides");
    await settle(env);
    assert.equal(gmState(env).hiders[TOKENS.rogue].heldTotal, 21);
    // Secrecy: a Stealth roll Furtive uses is a GM roll (roller and GMs), whatever the roller's public roll mode
    // (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html#applyRollMode).
    const rollsOf = (client) => client.ctx.game.messages.contents.filter((m) => !m.flags?.furtive?.kind && m._source.rolls?.length && m._source.author === env.alice.userId);
    assert.equal(rollsOf(env.gm).length, 1, "the GM reads the roll");
    assert.equal(rollsOf(env.alice).length, 1, "the roller reads the roll");
    const whisper = plain(rollsOf(env.gm)[0]._source.whisper);
    assert.ok(whisper.length > 0 && whisper.every((id) => env.gm.ctx.game.users.get(id)?.isGM), "whispered to the GMs only");
    assert.equal(rollsOf(env.gm)[0]._source.blind, false, "not blind: the roller reads it");
    // Foundry delivers a private roll to every client, shown to the others as a "privately rolled some
    // dice" line (docs/foundry.md, "Threat model"); the module hides that line (chat-secrecy.mjs).
    const id = rollsOf(env.gm)[0].id;
    for (const player of [env.bob, env.carol, env.dave]) {
      const entry = player.window.document.querySelector(`#chat-log [data-message-id="${id}"]`);
      assert.ok(!entry || entry.hidden, `${player.userId}'s chat shows no line for the roll`);
      assert.ok(!entry || !entry.textContent.includes("21"), `${player.userId}'s chat never shows the total`);
    }
  });

  it("Dave's sentry, who does not perceive the rogue, attacks it: the GM's card says disadvantage (O10); no player gets the note", async () => {
    assert.equal(apiOf(env.dave).perceives(TOKENS.sentry, TOKENS.rogue), false);
    target(env.dave, [TOKENS.rogue]);
    await postRoll(env.dave, TOKENS.sentry, "1d20", { mysystem: { attack: true } });
    await until(() => moduleMessages(env.gm).some((m) => m.flags.furtive.gm && m.flags.furtive.entries?.some((e) => e.clause === "O10")), "the O10 note");
    await settle(env);
    const card = moduleMessages(env.gm).find((m) => m.flags.furtive.gm && m.flags.furtive.entries?.some((e) => e.clause === "O10"));
    assert.match(card.flags.furtive.entries.find((e) => e.clause === "O10").en, /disadvantage/);
    assert.deepEqual(card.whisper, [env.gm.userId]);
    for (const player of [env.alice, env.bob, env.carol, env.dave]) {
      assert.ok(!moduleMessages(player).some((m) => JSON.stringify(m).includes("O10")), `${player.userId} gets no O10 note`);
    }
    for (const line of moduleMessages(env.dave)) assert.doesNotMatch(JSON.stringify(line), /Rogue/, "Dave's tokens do not perceive the rogue");
  });

  it("the rogue loses HP: damage from its last attacker, the sentry (O11)", async () => {
    await env.alice.ctx.game.actors.get("actorRogue000001").update({ "system.attributes.hp.value": 6 });
    await until(() => gmState(env).hiders[TOKENS.rogue].penalties.some((p) => p.clause === "O11"), "the O11 penalty");
    const penalty = gmState(env).hiders[TOKENS.rogue].penalties.find((p) => p.clause === "O11");
    assert.equal(penalty.amount, 5);
    assert.equal(penalty.scope.attacker, TOKENS.sentry);
  });

  it("healing is not damage", async () => {
    await env.alice.ctx.game.actors.get("actorRogue000001").update({ "system.attributes.hp.value": 9 });
    await settle(env);
    assert.equal(gmState(env).hiders[TOKENS.rogue].penalties.filter((p) => p.clause === "O11").length, 1);
  });

  it("the hiding rogue attacks the sentry; the GM's Attack dialog with hits empty or not a number is refused, naming the field; nothing changes", async () => {
    for (const hits of ["", "abc"]) {
      const before = JSON.stringify(gmState(env));
      const warnings = env.gm.ctx.notifications.length;
      target(env.alice, [TOKENS.sentry]);
      await postRoll(env.alice, TOKENS.rogue, "1d20", { mysystem: { attack: true } });
      const dialog = await waitForDialog(env.gm, env.server);
      dialog.element.querySelector("form").elements.hits.value = hits;
      clickDialogButton(env.gm, dialog, "ok");
      await until(() => env.gm.ctx.notifications.length > warnings, "the GM's warning");
      await settle(env);
      const warning = env.gm.ctx.notifications.slice(warnings).map((n) => n.message).join(" | ");
      assert.match(warning, /hits/, `hits ${JSON.stringify(hits)}: the warning names the field`);
      assert.equal(JSON.stringify(gmState(env)), before, `hits ${JSON.stringify(hits)}: nothing changes`);
    }
  });
});

describe("generic system, percentile: a Stealth roll without exactly one d100 changes nothing (P1)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", settings: { systemStealthMatch: "flags.mysystem.check=stealth" } });
  });
  after(() => shutdown(env));

  for (const formula of ["2d100", "1d100 + 1d100"]) {
    it(`Alice's flagged ${formula} (30 and 40) is no d100 roll: no Hide dialog, no attempt, the GM is told`, async () => {
      const warnings = env.gm.ctx.notifications.length;
      const dialogs = env.gm.ctx.dialogs.length;
      rig(env.alice, [[100, 30], [100, 40]]);
      await postRoll(env.alice, TOKENS.rogue, formula, { mysystem: { check: "stealth" } });
      await settle(env);
      await settle(env);
      assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog");
      assert.ok(!gmState(env)?.hiders?.[TOKENS.rogue], "no stealth attempt");
      assert.ok(env.gm.ctx.notifications.slice(warnings).some((n) => /d100/.test(n.message)), JSON.stringify(env.gm.ctx.notifications));
    });
  }
});

describe("generic system, opposed: a Perception roll with nothing pending searches only the hiders in the observer's clear view (O4)", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      settings: { systemStealthMatch: "1d20 + @skills.ste.total", systemPerceptionMatch: "flags.mysystem.perception=true" },
      world: (w) => {
        w.system = { id: "worldbuilding", version: "0.8.2" };
      },
    });
    rig(env.gm, [[20, 1], [20, 1], [20, 1], [20, 1], [20, 1]]);
    rig(env.alice, [[20, 14]]);
    await postRoll(env.alice, TOKENS.rogue, "1d20 + @skills.ste.total");
    await until(() => gmState(env)?.hiders?.[TOKENS.rogue]?.phase === "hiding", "the rogue hides");
    await settle(env);
  });
  after(() => shutdown(env));

  it("the sentry, behind the closed door, searches with a 30: the rogue is not found (no clear view, O4)", async () => {
    assert.equal(gmState(env).hiders[TOKENS.rogue].pairs[TOKENS.sentry].clearView, false);
    await postRoll(env.dave, TOKENS.sentry, "30", { mysystem: { perception: true } });
    await settle(env);
    const pair = gmState(env).hiders[TOKENS.rogue].pairs[TOKENS.sentry];
    assert.equal(pair.perceived, false, "no search through a wall");
    assert.equal(pair.perceptionTotal, null, "no Perception total sent for it");
    assert.equal(apiOf(env.dave).perceives(TOKENS.sentry, TOKENS.rogue), false);
  });

  it("the door opens, the sentry's and the lookout's checks fail; the sentry's search of 30 reaches the engine, which keeps the stored result (O4)", async () => {
    rig(env.gm, [[20, 1], [20, 1]]);
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await settle(env);
    const before = gmState(env).hiders[TOKENS.rogue].pairs[TOKENS.sentry];
    assert.equal(before.clearView, true);
    assert.equal(before.perceived, false, "its check failed");
    assert.equal(before.checkPending, false, "nothing pending: the roll is a search");
    await postRoll(env.dave, TOKENS.sentry, "30", { mysystem: { perception: true } });
    // The search is sent for the hider in clear view: the engine answers with its O4 reading (a stored result is
    // never rolled again in this attempt: the engine requests a check as soon as a pair gains clear view).
    const kept = () =>
      moduleMessages(env.gm).some((m) => m.flags.furtive.gm && m.flags.furtive.entries?.some((e) => e.clause === "O4" && /Sentry/.test(e.en) && /30 is ignored/.test(e.en)));
    await until(kept, "the engine's O4 answer to the search");
    const after = gmState(env).hiders[TOKENS.rogue].pairs[TOKENS.sentry];
    assert.equal(after.perceptionTotal, 1, "the stored result is kept");
    assert.equal(after.perceived, false);
  });
});

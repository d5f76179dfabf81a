/**
 * Sheet rolls, attacks and damage from the dnd5e system drive the engine
 * for each supported generation of dnd5e on the Foundry
 * it runs on: 4.4 and 5.2 (Foundry 13), 5.3 and 6.0 (Foundry 14). The system is ../systems/dnd5e.mjs
 * (written from the dnd5e source); the actors are SRD monsters from the
 * shared fixtures. The world is in system-world.mjs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, DOOR, SCENE, answerHideDialog, clickDialogButton, plain, rig, rollsIn, shutdown, until, waitForDialog } from "./world.mjs";
import { IDS, actorOn, answerRollDialog, clickCardButton, dnd5eWorld, gmState, grantAdvantage, moduleMessages, rollAttack, rollSkill, settle, target, tokenOn, untilState } from "./system-world.mjs";

const HIDER = IDS.hider;
const OBSERVER = IDS.observer;
const [GUARD_A, GUARD_B, GUARD_C] = IDS.guards;

/** The skill total the system derives for an actor (d20 excluded). */
function skillTotal(client, actorId, skill) {
  return client.ctx.game.actors.get(actorId).getRollData().skills[skill].total;
}

/** Alice rolls Stealth from the Goblin's sheet with a d20 of `face`; resolves with the GM's state once the engine holds it. */
async function aliceHides(env, face) {
  // The GM card of the hide is posted after the state is saved, once its
  // template is read: waiting for the state, then for a few quiet rounds
  // (`settle`), let a loaded machine post it after a test had started
  // counting its own cards. Wait for the card itself.
  const hideCards = () => moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm && m.flags.furtive.titleKey === "FURTIVE.Chat.Event.enterStealth").length;
  const cardsBefore = hideCards();
  rig(env.alice, [[20, face]]);
  await rollSkill(env, env.alice, IDS.hiderActor, "ste");
  const state = await untilState(env, (s) => s.hiders[HIDER]?.phase === "hiding", "the hider hides");
  await until(() => hideCards() > cardsBefore, "the hide's GM card");
  return state;
}

/** The opposed attempt of a hider in the state (its fields are the hider's: heldTotal, penalties). */
function attemptOf(state, hiderId) {
  return state.hiders[hiderId];
}

describe("the SRD actors are derived as dnd5e derives them (SOURCES.md table)", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "4.4" });
  });
  after(() => shutdown(env));

  it("Goblin Warrior Stealth +6, Spy Perception +6, Guard Perception +2", () => {
    assert.equal(skillTotal(env.gm, IDS.hiderActor, "ste"), 6);
    assert.equal(skillTotal(env.gm, IDS.observerActor, "prc"), 6);
    assert.equal(skillTotal(env.gm, IDS.guardActor, "prc"), 2);
  });
});

for (const generation of ["4.4", "5.2", "5.3", "6.0"]) {
  describe(`dnd5e ${generation}: a Stealth roll from the sheet hides, a Perception roll answers the check`, () => {
    let env;
    let stealth;
    before(async () => {
      env = await dnd5eWorld({ generation });
      stealth = skillTotal(env.gm, IDS.hiderActor, "ste");
    });
    after(() => shutdown(env));

    it("Alice's Stealth roll (d20 15) starts the attempt with its total (O1), without a second roll or dialog", async () => {
      const state = await aliceHides(env, 15);
      assert.equal(attemptOf(state, HIDER).heldTotal, 15 + stealth);
      assert.equal(env.gm.ctx.dialogs.length, 0, "no Hide dialog under opposed rules");
      assert.equal(moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "roll").length, 0, "the sheet roll is the roll");
      assert.ok(tokenOn(env.gm, HIDER).hasStatusEffect("furtive.hidden"));
      assert.equal(env.bob.ctx.game.modules.get("furtive").api.perceives(OBSERVER, HIDER), false);
    });

    it("the door opens: the Guards' checks are rolled by the GM, the Lookout's is offered to Bob (B4)", async () => {
      // Guards: d20 2 + 2 = 4, below the held total.
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      const state = await untilState(env, (s) => IDS.guards.every((g) => s.hiders[HIDER].pairs[g]?.perceptionTotal !== undefined && s.hiders[HIDER].pairs[g]?.perceptionTotal !== null), "the guards' checks");
      for (const guard of IDS.guards) assert.equal(state.hiders[HIDER].pairs[guard].perceived, false);
      assert.equal(state.hiders[HIDER].pairs[OBSERVER].checkPending, true, "Bob's check waits for his roll");
      assert.equal(state.hiders[HIDER].pairs[OBSERVER].perceived, false);
      const offers = moduleMessages(env.bob).filter((m) => m.flags.furtive.kind === "perceptionOffer");
      assert.equal(offers.length, 1);
      assert.equal(offers[0].flags.furtive.observer, OBSERVER);
    });

    it("secrecy: nothing Bob received from Furtive names or counts the hider", () => {
      for (const message of moduleMessages(env.bob)) {
        assert.doesNotMatch(JSON.stringify(message), /Sneak|Goblin/, "no player-facing line names the hider");
        assert.notEqual(message.flags.furtive.kind, "perceptionRolls", "the GM's rolls stay with the GM");
      }
      assert.ok(!env.bob.ctx.notifications.some((n) => /Sneak|Goblin/.test(n.message)));
    });

    it("Bob rolls from the offer (d20 17): the check is answered and he perceives the hider (O4)", async () => {
      const observerBonus = skillTotal(env.bob, IDS.observerActor, "prc");
      rig(env.bob, [[20, 17]]);
      // A plain click: dnd5e's roll dialog opens for Bob, as from his sheet; he rolls normally.
      clickCardButton(env.bob, "sheetPerception");
      clickDialogButton(env.bob, await waitForDialog(env.bob, env.server), "normal");
      const state = await untilState(env, (s) => s.hiders[HIDER].pairs[OBSERVER]?.checkPending === false, "Bob's check answered");
      const pair = state.hiders[HIDER].pairs[OBSERVER];
      assert.equal(pair.perceptionTotal, 17 + observerBonus);
      assert.equal(pair.perceived, 17 + observerBonus >= attemptOf(state, HIDER).heldTotal);
      const roll = env.gm.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.skillId === "prc");
      assert.ok(roll, "a dnd5e Perception roll message");
      assert.equal(roll._source.author, BOB);
    });
  });
}

for (const generation of ["4.4", "5.2", "5.3", "6.0"]) {
  describe(`dnd5e ${generation}: attacks and damage`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation, settings: { systemAttackNoise: "noisy" } });
      await aliceHides(env, 18);
    });
    after(() => shutdown(env));

    it("an attack from hiding with 3 targets is one attack: one -5 (O8) and 3 checks (O9) in one GM roll message", async () => {
      const before = new Set(moduleMessages(env.gm).map((m) => m._id));
      target(env.alice, IDS.guards);
      rig(env.gm, [[20, 3], [20, 3], [20, 3]]);
      rig(env.alice, [[20, 11]]);
      await rollAttack(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.bow);
      const state = await untilState(env, (s) => attemptOf(s, HIDER).penalties.length > 0 && IDS.guards.every((g) => s.hiders[HIDER].pairs[g]?.perceptionTotal != null), "the attack");
      const penalties = attemptOf(state, HIDER).penalties;
      assert.equal(penalties.length, 1);
      assert.equal(penalties[0].amount, 5);
      assert.equal(penalties[0].clause, "O8");
      const added = moduleMessages(env.gm).filter((m) => !before.has(m._id));
      const checks = added.filter((m) => m.flags.furtive.kind === "perceptionRolls");
      assert.equal(checks.length, 1, "one GM message for the three checks");
      assert.equal(rollsIn(checks[0]).length, 3);
      const cards = added.filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm);
      assert.equal(cards.length, 1, `one GM card for the action: ${JSON.stringify(cards.map((c) => [c.flags.furtive.titleKey, c.flags.furtive.entries.map((e) => e.en)]))}`);
      assert.equal(cards[0].flags.furtive.titleKey, "FURTIVE.Chat.Event.attack");
      assert.equal(cards[0].flags.furtive.entries.filter((e) => e.clause === "O9").length, 3);
    });

    it("a Guard that does not perceive the hider attacks it with disadvantage (O10), set by the GM's engine", async () => {
      target(env.gm, [HIDER]);
      rig(env.gm, [[20, 16], [20, 4]]);
      const guard = tokenOn(env.gm, GUARD_A).actor;
      const roll = await rollAttack(env, env.gm, guard, IDS.spear);
      assert.equal(roll.hasDisadvantage, true);
      const results = roll.dice[0].results;
      assert.equal(results.length, 2);
      assert.deepEqual(plain(results.filter((r) => r.active).map((r) => r.result)), [4], "the lower d20 is kept");
      await settle(env);
      const card = moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm).at(-1);
      assert.ok(card.flags.furtive.entries.some((e) => e.clause === "O10"), "the GM card states O10");
    });

    it("HP lost by the hider is damage from its last attacker: an O11 penalty against the Guard's allies", async () => {
      await actorOn(env.gm, IDS.hiderActor).applyDamage(3);
      const state = await untilState(env, (s) => attemptOf(s, HIDER).penalties.some((p) => p.clause === "O11"), "the O11 penalty");
      const penalty = attemptOf(state, HIDER).penalties.find((p) => p.clause === "O11");
      assert.equal(penalty.amount, 5);
      assert.equal(penalty.scope.kind, "alliesOf");
      assert.equal(penalty.scope.attacker, GUARD_A);
    });

    it("Bob's Lookout, who does not perceive the hider, attacks it: his own client rolls with disadvantage from the published lookup", async () => {
      assert.equal(env.bob.ctx.game.modules.get("furtive").api.perceives(OBSERVER, HIDER), false);
      target(env.bob, [HIDER]);
      rig(env.bob, [[20, 9], [20, 14]]);
      const roll = await rollAttack(env, env.bob, actorOn(env.bob, IDS.observerActor), IDS.longbow);
      assert.equal(roll.hasDisadvantage, true);
      await settle(env);
      const card = moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm).at(-1);
      assert.ok(card.flags.furtive.entries.some((e) => e.clause === "O10"));
      assert.ok(card.flags.furtive.entries.some((e) => e.clause === "O10" && /rolled with disadvantage/.test(e.en)), "the card reads the roll's disadvantage");
    });

    it("Bob Alt-clicks the Lookout's attack on the hider it does not perceive: the GM card reads the roll, not the roller's claim (O10)", async () => {
      target(env.bob, [HIDER]);
      rig(env.bob, [[20, 9], [20, 14]]);
      const item = actorOn(env.bob, IDS.observerActor).items.get(IDS.longbow);
      // The sheet's click with Alt held (dnd5e's advantage key): advantage and the imposed disadvantage cancel.
      const event = { altKey: true, ctrlKey: false, metaKey: false, shiftKey: false };
      const roll = (await item.system.activities.contents[0].rollAttack({ event }, { configure: false }, {}))[0];
      assert.equal(roll.hasDisadvantage, false, "the roll was not made with disadvantage");
      await settle(env);
      const card = moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm).at(-1);
      const lines = card.flags.furtive.entries.filter((e) => e.clause === "O10").map((e) => e.en);
      assert.ok(!lines.some((line) => /rolled with disadvantage/.test(line)), JSON.stringify(lines));
      assert.ok(lines.some((line) => /without disadvantage/.test(line)), JSON.stringify(lines));
    });

    it("Bob's client forges `area: true` into the stamp of a Longbow attack on the hider: the GM reads the item, and O10 still applies", async () => {
      const hooks = env.bob.ctx.Hooks;
      // A malicious listener after Furtive's stamp: the attack claims to be an area effect (O10 would not apply).
      const id = hooks.on("preCreateChatMessage", (message) => {
        if (message.flags?.furtive?.systemRoll) message.updateSource({ flags: { furtive: { systemRoll: { area: true } } } });
      });
      target(env.bob, [HIDER]);
      rig(env.bob, [[20, 9], [20, 14]]);
      const before = new Set(moduleMessages(env.gm).map((m) => m._id));
      await rollAttack(env, env.bob, actorOn(env.bob, IDS.observerActor), IDS.longbow);
      hooks.off("preCreateChatMessage", id);
      await settle(env);
      const roll = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.dnd5e?.roll?.type === "attack").at(-1);
      assert.equal(roll.flags.furtive.systemRoll.area, true, "the forged stamp reached the GM");
      const card = moduleMessages(env.gm).filter((m) => !before.has(m._id) && m.flags.furtive.kind === "log" && m.flags.furtive.gm).at(-1);
      assert.ok(card, "a GM card for the attack");
      assert.ok(card.flags.furtive.entries.some((e) => e.clause === "O10"), JSON.stringify(card.flags.furtive.entries));
    });

    it("an attack between tokens that are not hiding is rolled normally and makes no Furtive card", async () => {
      const before = new Set(moduleMessages(env.gm).map((m) => m._id));
      target(env.gm, [OBSERVER]);
      rig(env.gm, [[20, 12]]);
      const roll = await rollAttack(env, env.gm, tokenOn(env.gm, GUARD_C).actor, IDS.spear);
      assert.equal(roll.hasDisadvantage, false);
      assert.equal(roll.dice[0].results.length, 1);
      await settle(env);
      assert.equal(moduleMessages(env.gm).filter((m) => !before.has(m._id) && m.flags.furtive.kind === "log").length, 0);
    });

    it("an attack with advantage on a hider the attacker does not perceive is rolled normally: both cancel (O10)", async () => {
      target(env.gm, [HIDER]);
      rig(env.gm, [[20, 5]]);
      const guard = tokenOn(env.gm, GUARD_B).actor;
      // Another module, whose pre hook runs before Furtive's, grants advantage.
      grantAdvantage(env.gm);
      const roll = await rollAttack(env, env.gm, guard, IDS.spear);
      assert.equal(roll.hasAdvantage, false);
      assert.equal(roll.hasDisadvantage, false);
      assert.equal(roll.dice[0].results.length, 1);
    });
  });
}

describe("dnd5e 5.3: a Perception roll from the sheet with no check pending is an active search", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "5.3" });
    await aliceHides(env, 15);
  });
  after(() => shutdown(env));

  it("Bob's roll (d20 19): the Sneak is not in his Lookout's clear view, so the search sends nothing (O4 needs clear view, docs/rules.md)", async () => {
    assert.equal(gmState(env).hiders[HIDER].pairs[OBSERVER].clearView, false, "no clear view");
    target(env.bob, [GUARD_A]);
    rig(env.bob, [[20, 19]]);
    await rollSkill(env, env.bob, IDS.observerActor, "prc");
    await until(() => env.gm.ctx.game.messages.contents.some((m) => m.flags?.dnd5e?.roll?.skillId === "prc"), "the roll reaches the GM");
    await settle(env);
    const pair = gmState(env).hiders[HIDER].pairs[OBSERVER];
    assert.equal(pair.perceptionTotal, null, "nothing stored");
    assert.equal(pair.perceived, false);
    assert.ok(!moduleMessages(env.gm).some((m) => m.flags.furtive.titleKey === "FURTIVE.System.Search"), "no search card");
  });

  it("the roll message names the acting token only: targets ride on attack rolls alone", () => {
    const roll = env.gm.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.skillId === "prc");
    assert.equal(roll.flags.furtive.systemRoll.tokenId, OBSERVER);
    assert.equal(roll.flags.furtive.systemRoll.targets.length, 0);
  });
});

describe("dnd5e 4.4: an attack from hiding asks the GM (noise, aim); aimed at another space it misses (O10)", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "4.4" });
    await aliceHides(env, 15);
    // Guard A hides too, east of the closed door: the hider does not perceive it.
    rig(env.gm, [[20, 12]]);
    const pending = env.gm.ctx.game.modules.get("furtive").api.hide(GUARD_A);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    // Then dnd5e's roll dialog for the Stealth check (a Hide made by hand).
    await answerRollDialog(env.gm, "normal");
    await pending;
    await settle(env);
  });
  after(() => shutdown(env));

  it("the GM's Attack dialog opens; unticking the aim makes the GM card say the attack misses", async () => {
    assert.equal(env.alice.ctx.game.modules.get("furtive").api.perceives(HIDER, GUARD_A), false);
    target(env.alice, [GUARD_A]);
    rig(env.alice, [[20, 8], [20, 13]]);
    rig(env.gm, [[20, 1]]);
    const roll = await rollAttack(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.bow);
    assert.equal(roll.hasDisadvantage, true, "the published lookup: Sneak does not perceive Guard A");
    const dialog = await waitForDialog(env.gm, env.server);
    const form = dialog.element.querySelector("form");
    form.elements.noisy.checked = false;
    form.elements.aimedAtSpace.checked = false;
    clickDialogButton(env.gm, dialog, "ok");
    const state = await untilState(env, (s) => s.hiders[HIDER].pairs[GUARD_A]?.perceptionTotal != null, "Guard A's O9 check");
    assert.equal(state.hiders[HIDER].penalties.length, 0, "a silent attack costs nothing (O8)");
    const card = moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm).at(-1);
    const o10 = card.flags.furtive.entries.filter((e) => e.clause === "O10");
    assert.ok(o10.some((e) => /miss/i.test(e.en)), JSON.stringify(o10));
  });
});

describe("dnd5e 5.2: a Stealth roll message without a numeric total changes nothing", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "5.2" });
  });
  after(() => shutdown(env));

  it("Alice posts a Stealth roll whose total is not a number: the Sneak does not hide, no roll is made in its place, the GM is told", async () => {
    const hider = actorOn(env.alice, IDS.hiderActor);
    // What a macro can post: dnd5e's Stealth flags, a d20 term, a total that is no number.
    await env.alice.ctx.ChatMessage.create({
      speaker: { scene: SCENE, actor: hider.id, token: HIDER, alias: "Sneak" },
      flags: { dnd5e: { roll: { type: "skill", skillId: "ste" } } },
      rolls: [{ class: "Roll", formula: "1d20 + 6", options: {}, terms: [{ class: "Die", number: 1, faces: 20, results: [{ result: 15, active: true }] }, "+", 6], total: "lots", evaluated: true }],
    });
    await settle(env);
    await settle(env);
    assert.ok(!gmState(env)?.hiders?.[HIDER], "no stealth attempt");
    assert.ok(!tokenOn(env.gm, HIDER).hasStatusEffect("furtive.hidden"));
    assert.equal(moduleMessages(env.gm).filter((m) => m.flags.furtive.kind === "roll").length, 0, "no Stealth roll in its place");
    assert.ok(env.gm.ctx.notifications.some((n) => /Sneak/.test(n.message) && /total/i.test(n.message)), JSON.stringify(env.gm.ctx.notifications));
  });
});

describe("dnd5e 4.4: a self roll is the roller's alone, even when Foundry shows it to the GM", () => {
  let env;
  before(async () => {
    // Alice may not send private messages: Foundry shows her whispers to the GMs too.
    env = await dnd5eWorld({ generation: "4.4", edit: (w) => (w.users.find((u) => u._id === ALICE).permissions = { MESSAGE_WHISPER: false }) });
  });
  after(() => shutdown(env));

  it("Alice's Stealth self roll reaches the GM's client but starts no stealth attempt", async () => {
    rig(env.alice, [[20, 15]]);
    await actorOn(env.alice, IDS.hiderActor).rollSkill({ skill: "ste" }, { configure: false }, { rollMode: "selfroll" });
    await settle(env);
    await settle(env);
    const roll = env.gm.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.skillId === "ste");
    assert.ok(roll, "the GM's client received the self roll");
    assert.deepEqual(plain(roll._source.whisper), [ALICE]);
    assert.ok(!gmState(env)?.hiders?.[HIDER], "no stealth attempt");
  });
});

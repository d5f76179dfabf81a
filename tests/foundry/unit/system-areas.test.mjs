/**
 * Area effects from the dnd5e system: a spell with no attack
 * roll (Fireball: a saving throw in a sphere) that hits several creatures is
 * ONE engine attack with its list of targets and `area: true` (O8: one -5
 * for the attacker; O9: each target that does not perceive it checks). The
 * creatures hit are the caster's user's targets when the usage card is
 * posted. A spell with an attack roll AND an area counts once, through its
 * attack roll. For each supported generation of ../systems/dnd5e.mjs: the
 * usage card (`Activity#use`) is flagged `messageType: "usage"` up to 5.2 and
 * is a ChatMessage of `type: "usage"` from 5.3. The world is in system-world.mjs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { DOOR, SCENE, answerHideDialog, rig, shutdown, until, waitForDialog } from "./world.mjs";
import { IDS, actorOn, castSpell, answerRollDialog, clickCardButton, dnd5eWorld, gmState, moduleMessages, rollAttack, rollSkill, settle, target, untilState } from "./system-world.mjs";

const HIDER = IDS.hider;
const OBSERVER = IDS.observer;
const [GUARD_A, GUARD_B] = IDS.guards;

/** The GM cards (`flags.furtive.gm` log cards) added since a set of message ids. */
function newCards(env, before) {
  return moduleMessages(env.gm).filter((m) => !before.has(m._id) && m.flags.furtive.kind === "log" && m.flags.furtive.gm);
}

/** The ids of the module's messages the GM holds now. */
function messageIds(env) {
  return new Set(moduleMessages(env.gm).map((m) => m._id));
}

/** The usage card of an item: `type: "usage"` (5.3+) or `flags.dnd5e.messageType: "usage"`. */
const usageCardOf = (env, itemId) => env.gm.ctx.game.messages.contents.filter((m) => (m.type === "usage" || m.flags?.dnd5e?.messageType === "usage") && m.flags?.dnd5e?.item?.id === itemId).at(-1);

for (const generation of ["4.4", "5.2", "5.3", "6.0"]) {
  describe(`dnd5e ${generation}: an area spell on several creatures is one attack`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation, settings: { systemAttackNoise: "noisy" } });
      // Alice's Sneak hides (d20 18).
      rig(env.alice, [[20, 18]]);
      await rollSkill(env, env.alice, IDS.hiderActor, "ste");
      await untilState(env, (s) => s.hiders[HIDER]?.phase === "hiding", "the Sneak hides");
      // The door opens: the Guards fail their checks (d20 2), Bob's Lookout rolls 20 and perceives the Sneak.
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      await untilState(env, (s) => s.hiders[HIDER].pairs[OBSERVER]?.checkPending === true, "the Lookout's check offered");
      rig(env.bob, [[20, 20]]);
      clickCardButton(env.bob, "sheetPerception", { shiftKey: true });
      await untilState(env, (s) => s.hiders[HIDER].pairs[OBSERVER]?.perceived === true, "the Lookout perceives the Sneak");
      // Guard A hides too (GM's Hide, d20 12).
      rig(env.gm, [[20, 12], [20, 1], [20, 1], [20, 1], [20, 1]]);
      const pending = env.gm.ctx.game.modules.get("furtive").api.hide(GUARD_A);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
      // Then dnd5e's roll dialog for the Stealth check (a Hide made by hand).
      await answerRollDialog(env.gm, "normal");
      await pending;
      await settle(env);
    });
    after(() => shutdown(env));

    it("a Fireball on Guard A (hiding), Guard B and the Lookout: one O8 penalty, O9 checks for the two that do not perceive the Sneak, one GM card", async () => {
      const state = gmState(env);
      assert.equal(state.hiders[GUARD_A].phase, "hiding", "one target is hiding");
      assert.equal(state.hiders[HIDER].pairs[OBSERVER].perceived, true, "the Lookout perceives the caster");
      assert.equal(state.hiders[HIDER].pairs[GUARD_B].perceived, false, "Guard B does not");
      assert.equal(state.hiders[HIDER].penalties.length, 0);
      const before = messageIds(env);
      target(env.alice, [GUARD_A, GUARD_B, OBSERVER]);
      rig(env.gm, [[20, 3], [20, 3], [20, 3]]);
      await castSpell(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.fireball);
      const after = await untilState(env, (s) => s.hiders[HIDER].penalties.length > 0, "the Fireball's penalty");
      const penalties = after.hiders[HIDER].penalties;
      assert.equal(penalties.length, 1, JSON.stringify(penalties));
      assert.equal(penalties[0].clause, "O8");
      assert.equal(penalties[0].amount, 5);
      const cards = newCards(env, before);
      assert.equal(cards.length, 1, JSON.stringify(cards.map((c) => c.flags.furtive.entries.map((e) => e.en))));
      assert.equal(cards[0].flags.furtive.titleKey, "FURTIVE.Chat.Event.attack");
      const checked = [GUARD_A, GUARD_B, OBSERVER].filter((id) => after.hiders[HIDER].pairs[id]?.perceptionTotal !== state.hiders[HIDER].pairs[id]?.perceptionTotal);
      assert.deepEqual(checked.sort(), [GUARD_A, GUARD_B].sort(), "O9: a check for each target that did not perceive the caster");
      assert.equal(cards[0].flags.furtive.entries.filter((e) => e.clause === "O9").length >= 2, true);
      const usage = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.areaUse).at(-1);
      assert.deepEqual([...usage.flags.furtive.areaUse.targets].sort(), [GUARD_A, GUARD_B, OBSERVER].sort(), "the user's targets ride on the usage card");
    });

    it("a spell with an attack roll and an area (Flame Ray) counts once: one more O8 penalty, one GM card", async () => {
      const penaltiesBefore = gmState(env).hiders[HIDER].penalties.length;
      const before = messageIds(env);
      target(env.alice, [GUARD_B]);
      rig(env.alice, [[20, 11]]);
      rig(env.gm, [[20, 3], [20, 3]]);
      const actor = actorOn(env.alice, IDS.hiderActor);
      // The attack rolls after the card on its own.
      await castSpell(env, env.alice, actor, IDS.flameRay);
      await until(() => env.gm.ctx.game.messages.contents.some((m) => m.flags?.dnd5e?.roll?.type === "attack" && !before.has(m.id) && m.speaker?.actor === IDS.hiderActor), "the Flame Ray attack roll");
      await settle(env);
      assert.equal(gmState(env).hiders[HIDER].penalties.length, penaltiesBefore + 1);
      assert.equal(newCards(env, before).length, 1);
      const card = usageCardOf(env, IDS.flameRay);
      assert.ok(card, "the Flame Ray usage card");
      assert.equal(card.flags.furtive?.areaUse, undefined, "the targets ride on an area use's card only");
    });

    it("a Fireball with no target, or on the caster alone, does nothing", async () => {
      const stateBefore = JSON.stringify(gmState(env));
      const before = messageIds(env);
      target(env.alice, []);
      await castSpell(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.fireball);
      target(env.alice, [HIDER]);
      await castSpell(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.fireball);
      await settle(env);
      await settle(env);
      assert.equal(newCards(env, before).length, 0);
      assert.equal(JSON.stringify(gmState(env)), stateBefore);
    });

    it("Bob forges a usage card of the Sneak's Fireball with a stamp: he does not own the Sneak, nothing happens", async () => {
      const stateBefore = JSON.stringify(gmState(env));
      const before = messageIds(env);
      const hider = actorOn(env.bob, IDS.hiderActor);
      const item = hider.items.get(IDS.fireball);
      const typed = Number(generation) >= 5.3;
      const dnd5e = { activity: { type: "save", id: "fireballSave0001", uuid: `${item.uuid}.Activity.fireballSave0001` }, item: { type: "spell", id: IDS.fireball, uuid: item.uuid }, targets: [], ...(typed ? {} : { messageType: "usage", use: { effects: [] } }) };
      target(env.bob, [GUARD_B]);
      await env.bob.ctx.ChatMessage.create({
        ...(typed ? { type: "usage" } : {}),
        content: "<div>Fireball</div>",
        speaker: { scene: SCENE, actor: IDS.hiderActor, token: HIDER, alias: "Sneak" },
        flags: { dnd5e, furtive: { areaUse: { sceneId: SCENE, tokenId: HIDER, targets: [GUARD_B] } } },
      });
      await settle(env);
      await settle(env);
      const forged = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.areaUse).at(-1);
      assert.equal(forged.flags.furtive.areaUse.tokenId, HIDER, "the forged stamp reached the GM");
      assert.equal(newCards(env, before).length, 0);
      assert.equal(JSON.stringify(gmState(env)), stateBefore);
    });
  });
}

for (const generation of ["4.4", "5.3"]) {
  describe(`dnd5e ${generation}, percentile: a Fireball from hiding surprises each target (P6)`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation, ruleset: "percentile", settings: { systemAttackNoise: "noisy" } });
      // The GM hides the Sneak (d100 90).
      rig(env.gm, [[100, 90]]);
      const pending = env.gm.ctx.game.modules.get("furtive").api.hide(HIDER);
      answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), {});
      await pending;
      await untilState(env, (s) => s.hiders[HIDER]?.phase === "hiding", "the Sneak hides");
    });
    after(() => shutdown(env));

    it("Alice's Fireball on the three Guards: a surprise on each, one GM card", async () => {
      const before = messageIds(env);
      target(env.alice, IDS.guards);
      await castSpell(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.fireball);
      const state = await untilState(env, (s) => (s.surprises ?? []).length === 3, "three surprises");
      assert.deepEqual(state.surprises.map((s) => s.target).sort(), [...IDS.guards].sort());
      assert.ok(state.surprises.every((s) => s.attacker === HIDER && s.attacks === 1));
      assert.equal(newCards(env, before).length, 1);
    });
  });
}

/**
 * B1, chat. The system's cards of a hider (its attack roll, its usage card)
 * and a card whose target tray names it reach only the GMs and the players
 * who may see it named (its owner, the players whose tokens perceive it):
 * whispered at creation. Foundry still delivers a whispered roll to every
 * client as a "privately rolled some dice" line (fake/server.mjs); the
 * module hides that line for a card of an unseen token. The GM's own secret
 * rolls leave no such line for other players unless the world setting
 * `secretRollNotice` is on. Such a roll makes no sound on other clients
 * either (`ChatMessageData#sound` plays where the message is received).
 *
 * dnd5e 4.4 on Foundry 13 and 6.0 on 14 (system-world.mjs): Alice's Sneak hides west of the closed
 * door; Bob's Lookout (east) does not perceive it; the Guards are the GM's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, DOOR, GM, SCENE, rig, shutdown, until } from "./world.mjs";
import { GENERATIONS, IDS, actorOn, castSpell, clickCardButton, dnd5eWorld, rollAttack, rollSkill, settle, target, tokenOn, untilState } from "./system-world.mjs";

const HIDER = IDS.hider;

/** Alice's Sneak hides (Stealth d20 18). */
async function aliceHides(env) {
  rig(env.alice, [[20, 18]]);
  await rollSkill(env, env.alice, IDS.hiderActor, "ste");
  await untilState(env, (s) => s.hiders[HIDER]?.phase === "hiding", "the Sneak hides");
}

/** The rendered entry of a message in a client's chat log, or null. */
const entryOf = (client, id) => client.window.document.querySelector(`#chat-log [data-message-id="${id}"]`);
/** Whether a client's chat log shows the entry (rendered and not hidden). */
const shown = (client, id) => {
  const entry = entryOf(client, id);
  return Boolean(entry && !entry.hidden && entry.style.display !== "none");
};
/** The text of every entry a client's chat log shows. */
const shownText = (client) => [...client.window.document.querySelectorAll("#chat-log [data-message-id]")].filter((entry) => shown(client, entry.dataset.messageId)).map((entry) => entry.textContent).join("\n");
/** Whether a client played a message's sound (fake/client.mjs logs `ChatMessageData#sound` on receipt). */
const heard = (client, id) => client.ctx.sounds.some((sound) => sound.messageId === id);
/** Every string the server sent a user that mentions a message id. */
const sentAbout = (env, userId, id) => env.server.received(userId).filter((json) => json.includes(id));

for (const generation of ["4.4", "6.0"]) {
  describe(`dnd5e ${generation} (Foundry ${GENERATIONS[generation].foundry}): the system's cards of a hider reach only those who may see it named (B1)`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation });
      await aliceHides(env);
      assert.equal(env.bob.ctx.game.modules.get("furtive").api.perceives(IDS.observer, HIDER), false);
    });
    after(() => shutdown(env));

    it("the Sneak's attack roll is whispered to the GM and Alice; Bob's chat shows nothing of it", async () => {
      target(env.alice, [IDS.guards[0]]);
      rig(env.alice, [[20, 11]]);
      rig(env.gm, [[20, 2]]);
      await rollAttack(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.bow);
      await settle(env);
      const roll = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.dnd5e?.roll?.type === "attack").at(-1);
      assert.deepEqual([...roll.whisper].sort(), [GM, ALICE].sort());
      assert.equal(shown(env.alice, roll.id), true, "Alice reads her roll");
      assert.equal(shown(env.bob, roll.id), false, "no line for Bob, not even 'privately rolled some dice'");
      assert.doesNotMatch(shownText(env.bob), /Sneak|Goblin|privately rolled/);
      assert.equal(heard(env.bob, roll.id), false, "Bob's client plays no dice sound for it");
    });

    it("Alice's Stealth roll, which started the hide, left Bob no line either", () => {
      const stealth = env.gm.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.type === "skill" && m.flags.dnd5e.roll.skillId === "ste");
      assert.ok(stealth, "the Stealth roll");
      assert.equal(shown(env.alice, stealth.id), true);
      assert.equal(shown(env.bob, stealth.id), false);
      assert.equal(heard(env.bob, stealth.id), false, "no dice sound on Bob's client");
    });

    it("the Sneak's usage card (Fireball) never reaches Bob's client", async () => {
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await castSpell(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.fireball);
      await settle(env);
      const usage = env.gm.ctx.game.messages.contents.filter((m) => m.type === "usage" || m.flags?.dnd5e?.messageType === "usage").at(-1);
      assert.ok(usage, "the usage card");
      assert.deepEqual(sentAbout(env, BOB, usage.id), [], "Bob's client was sent nothing about it");
    });

    it("a Guard's attack on the Sneak (its target tray names it) is whispered away from Bob", async () => {
      target(env.gm, [HIDER]);
      rig(env.gm, [[20, 16], [20, 4]]);
      await rollAttack(env, env.gm, tokenOn(env.gm, IDS.guards[0]).actor, IDS.spear);
      await settle(env);
      const roll = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.dnd5e?.roll?.type === "attack").at(-1);
      assert.deepEqual(plainIds(roll.flags.dnd5e.targets), [tokenOn(env.gm, HIDER).actor.uuid], "the tray names the Sneak");
      assert.deepEqual([...roll.whisper].sort(), [GM, ALICE].sort());
      assert.equal(shown(env.bob, roll.id), false);
      assert.equal(heard(env.bob, roll.id), false);
    });

    it("an attack between tokens that are not hiding stays public", async () => {
      target(env.gm, [IDS.observer]);
      rig(env.gm, [[20, 12]]);
      await rollAttack(env, env.gm, tokenOn(env.gm, IDS.guards[2]).actor, IDS.spear);
      await settle(env);
      const roll = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.dnd5e?.roll?.type === "attack").at(-1);
      assert.deepEqual([...roll.whisper], []);
      assert.equal(shown(env.bob, roll.id), true);
      assert.equal(heard(env.bob, roll.id), true, "a public roll sounds on every client");
    });
  });
}

/** The uuids of dnd5e target descriptors, as plain strings. */
function plainIds(targets) {
  return [...targets].map((t) => String(t.uuid));
}

for (const [generation, notice] of [["4.4", false], ["4.4", true], ["6.0", false]]) {
  describe(`dnd5e ${generation}: the GM's secret rolls, secretRollNotice ${notice ? "on" : "off (the default)"}`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation, settings: notice ? { secretRollNotice: true } : {} });
      await aliceHides(env);
    });
    after(() => shutdown(env));

    it(`the Guards' Perception checks when the door opens: ${notice ? "Bob sees the GM's 'privately rolled some dice' line" : "nothing of them reaches Bob's client"}`, async () => {
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      await until(() => env.gm.ctx.game.messages.contents.some((m) => m.flags?.furtive?.kind === "perceptionRolls"), "the GM's checks");
      await settle(env);
      const checks = env.gm.ctx.game.messages.contents.find((m) => m.flags?.furtive?.kind === "perceptionRolls");
      if (notice) {
        assert.equal(checks.rolls.length, 3, "a Foundry roll message");
        assert.equal(shown(env.bob, checks.id), true);
        assert.match(entryOf(env.bob, checks.id).textContent, /Gamemaster privately rolled some dice/);
      } else {
        assert.equal(checks.rolls.length, 0, "a card, not a roll message");
        assert.equal(checks.flags.furtive.rolls.length, 3, "the rolls, for the GMs");
        assert.deepEqual(sentAbout(env, BOB, checks.id), [], "Bob's client was sent nothing about them");
      }
    });

    it("Bob's Perception roll answering the check offered to him is a GM roll: Alice's chat shows no line for it and plays no sound", async () => {
      rig(env.bob, [[20, 3]]);
      clickCardButton(env.bob, "sheetPerception", { shiftKey: true });
      const mine = () => env.gm.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.skillId === "prc" && m._source.author === BOB);
      await until(() => mine(), "Bob's roll at the GM");
      await settle(env);
      const roll = mine();
      assert.ok([...roll.whisper].includes(GM), "whispered to the GM");
      assert.equal(shown(env.bob, roll.id), true, "Bob reads his roll");
      assert.equal(shown(env.alice, roll.id), false, "no line on Alice's client: no 'a check happened'");
      assert.equal(heard(env.alice, roll.id), false);
    });

    it(`a GM's private roll from a Guard's sheet: Bob's chat ${notice ? "shows" : "does not show"} the placeholder line`, async () => {
      // The GM's chat mode: private to the GMs (v13 `core.rollMode` "gmroll", v14 `core.messageMode` "gm").
      const v14 = GENERATIONS[generation].foundry >= 14;
      await env.gm.ctx.game.settings.set("core", v14 ? "messageMode" : "rollMode", v14 ? "gm" : "gmroll");
      rig(env.gm, [[20, 5]]);
      await rollSkill(env, env.gm, IDS.guardActor, "prc");
      await settle(env);
      const roll = env.gm.ctx.game.messages.contents.filter((m) => m.flags?.dnd5e?.roll?.type === "skill" && m.author?.isGM).at(-1);
      assert.ok(roll, "the GM's roll");
      assert.equal(shown(env.bob, roll.id), notice);
      assert.equal(heard(env.bob, roll.id), notice, `Bob's client ${notice ? "plays" : "does not play"} its dice sound`);
    });
  });
}

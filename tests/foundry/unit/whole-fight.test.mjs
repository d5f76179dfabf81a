/**
 * A whole fight, end to end, on every pairing a GM can run: dnd5e 4.4 and 5.2 on Foundry 13,
 * dnd5e 5.3 and 6.0 on Foundry 14 (the fake system of ../systems/dnd5e.mjs,
 * SRD actors from the shared fixtures as system-world.mjs picks them), and a
 * system with no roll API on Foundry 14, read through the generic preset's
 * attribute paths (the opposed ruleset; its sheet rolls recognised by a flag,
 * system-world.mjs `GENERIC_SETTINGS`), a busy dark scene
 * (darkness 1, no global light, 27 more tokens, two lights already placed
 * away from the action), two GMs and two players. The world's settings are
 * the dnd5e preset's (world-data.mjs writes some; what sees in darkness, B5,
 * is added here); attacks are noisy (`systemAttackNoise`: no Attack dialog
 * for the GM). Nobody clicks a Furtive button: players roll from their
 * sheets, the system's attacks and damage flow in, a torch is lit, combat
 * starts, turns change, a token moves, a door opens. Mid-fight the second GM
 * joins and the first leaves; the second continues exactly where the first
 * stopped, then undoes the last action from its card.
 *
 * After each action: one GM card for that action, at most one Scene update,
 * one save (one record message), at most one public line; nothing a player's
 * client holds from Furtive (messages, notifications, dialogs) names a token
 * none of that player's tokens perceives; no hider is lost.
 *
 * Layout (grid 100 px = 5 ft; world-data.mjs's wall at x = 500 with its door
 * closed between y 350 and 650): west, Alice's Sneak (Goblin or Goblin
 * Warrior, darkvision 60) at (200,400) and three NPC Guards (Wardens One to
 * Three) within 15 ft of it; east, Bob's Lookout (Scout or Spy) and Guards A-C; the crowd (24 Guards) east of
 * the wall and in the far west.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { readFileSync } from "node:fs";

import { PRESETS } from "../../../foundry-module/scripts/systems/presets.mjs";
import { startClient } from "../node/harness.mjs";
import { dnd5eSystem } from "../systems/dnd5e.mjs";
import { DOOR, GM, SCENE, apiOf, plain, ready, rig, shutdown, until } from "./world.mjs";
/** The module's English strings (lang/en.json): a card's title key resolves there. */
const ENGLISH = JSON.parse(readFileSync(new URL("../../../foundry-module/lang/en.json", import.meta.url), "utf8"));

import { GENERATIONS, IDS, actorOn, blindsightPath, damageActor, dnd5eWorld, isSkillRoll, moduleMessages, rollAttack, rollSkill, settle, skillBonus, systemOf, target, tokenOn } from "./system-world.mjs";

const GM2 = "gmUser0000000002";
const SNEAK = IDS.hider;
const LOOKOUT = IDS.observer;
const WEST = ["tokenGuardW10001", "tokenGuardW20001", "tokenGuardW30001"];
const CROWD = Array.from({ length: 24 }, (_, i) => `tokenCrowd${String(i).padStart(2, "0")}0001`);

/** Token names by id, for the secrecy scan (each name is a whole word no other name contains). */
const NAMES = new Map();

function busyDarkScene(world) {
  world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });
  const scene = world.scenes[0];
  scene.environment = { darknessLevel: 1, globalLight: { enabled: false } };
  const base = scene.tokens[0];
  const npc = (id, name, x, y) => ({ ...structuredClone(base), _id: id, name, actorId: IDS.guardActor, actorLink: false, x, y, disposition: -1 });
  scene.tokens.push(npc(WEST[0], "Warden One", 300, 600), npc(WEST[1], "Warden Two", 100, 500), npc(WEST[2], "Warden Three", 300, 200));
  // The crowd: 20 east of the wall, 4 in the far west corner (dark, 40+ ft from the Sneak).
  CROWD.forEach((id, i) => {
    const [x, y] = i < 20 ? [600 + (i % 4) * 100, 100 + Math.floor(i / 4) * 200] : [0 + (i % 2) * 100, 0 + Math.floor((i - 20) / 2) * 100];
    scene.tokens.push(npc(id, `Crowd${String.fromCharCode(65 + i)}`, x, y));
  });
  // Sight without light reaches nobody (range 0): darkness conceals unless darkvision.
  for (const token of scene.tokens) token.sight = { enabled: true, range: 0 };
  scene.lights = [
    { _id: "lightBrazierE001", x: 950, y: 950, config: { dim: 10, bright: 5 }, hidden: false },
    { _id: "lightBrazierW001", x: 50, y: 950, config: { dim: 10, bright: 5 }, hidden: false },
  ];
  for (const token of scene.tokens) NAMES.set(token._id, token.name);
}

const sceneOf = (client) => client.ctx.game.scenes.get(SCENE);
const hidersOf = (client) => apiOf(client).getState()?.hiders ?? {};

for (const generation of ["4.4", "5.2", "5.3", "6.0", "generic"]) {
  const { foundry: foundryVersion } = GENERATIONS[generation];
  const system = generation === "generic" ? "the generic preset" : `dnd5e ${generation}`;
  describe(`A whole fight: ${system} on Foundry ${foundryVersion}, a busy dark scene, two GMs, no Furtive button clicked`, () => {
    let env;
    let gm; // the active GM's client

    before(async () => {
      env = await dnd5eWorld({ generation, settings: { systemAttackNoise: "noisy", ...(generation === "generic" ? {} : { darkvisionPath: PRESETS.dnd5e.darkvisionPath }) }, edit: busyDarkScene });
      gm = env.gm;
    });
    after(() => shutdown(env));

    /**
     * Runs one user action and checks what it left: one GM card, ≤ 1 Scene
     * update, one record message, ≤ 1 public line, secrecy, nothing lost.
     * Returns the action's GM card and its new messages on the GM.
     */
    async function action(label, run) {
      const hooks = gm.ctx.Hooks;
      const counts = { sceneUpdates: 0, records: 0 };
      const beforeIds = new Set(gm.ctx.game.messages.contents.map((m) => m.id));
      const onScene = () => (counts.sceneUpdates += 1);
      const onMessage = (message) => ["state", "stateDelta"].includes(message.getFlag("furtive", "kind")) && (counts.records += 1);
      const ids = [hooks.on("updateScene", onScene), hooks.on("createChatMessage", onMessage)];
      const hidersBefore = Object.keys(hidersOf(gm));
      await run();
      await settle(env);
      await settle(env);
      hooks.off("updateScene", ids[0]);
      hooks.off("createChatMessage", ids[1]);
      const added = gm.ctx.game.messages.contents.filter((m) => !beforeIds.has(m.id)).map((m) => plain(m._source));
      const furtive = added.filter((m) => m.flags?.furtive?.kind);
      const cards = furtive.filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm);
      const publicLines = furtive.filter((m) => m.flags.furtive.kind === "log" && !m.flags.furtive.gm);
      const describe_ = JSON.stringify(furtive.filter((m) => !["state", "stateDelta"].includes(m.flags.furtive.kind)).map((m) => [m.flags.furtive.kind, m.flags.furtive.titleKey, (m.flags.furtive.entries ?? []).map((e) => e.en)]));
      assert.equal(cards.length, 1, `${label}: one GM card for the action: ${describe_}`);
      // The card's title names what it is about: a title with a {name} gets a name (a door's card read "Who sees ").
      const title = String(cards[0].flags.furtive.titleKey ?? "").split(".").reduce((node, key) => node?.[key], ENGLISH);
      assert.equal(typeof title, "string", `${label}: the card's title ${cards[0].flags.furtive.titleKey} is in lang/en.json`);
      if (title.includes("{name}")) assert.ok(cards[0].flags.furtive.titleData?.name, `${label}: the title "${title}" gets a name`);
      assert.ok(publicLines.length <= 1, `${label}: at most one public line: ${describe_}`);
      assert.ok(counts.sceneUpdates <= 1, `${label}: at most one Scene update (${counts.sceneUpdates})`);
      assert.equal(counts.records, 1, `${label}: one save (record messages: ${counts.records})`);
      for (const id of hidersBefore) assert.ok(hidersOf(gm)[id], `${label}: hider ${NAMES.get(id)} is kept`);
      assertNothingLost(label);
      assertSecrecy(label);
      return { card: cards[0], added };
    }

    /** Every hider of the GM's state wears furtive.hidden, and each player's lookup agrees with the engine on their tokens. */
    function assertNothingLost(label) {
      const hiders = hidersOf(gm);
      for (const [id, hider] of Object.entries(hiders)) {
        if (hider.phase !== "hiding") continue;
        assert.ok(tokenOn(gm, id).hasStatusEffect("furtive.hidden"), `${label}: ${NAMES.get(id)} still wears furtive.hidden`);
        for (const player of [env.alice, env.bob]) {
          for (const [observer, pair] of Object.entries(hider.pairs)) {
            if (!tokenOn(player, observer)?.isOwner) continue;
            assert.equal(apiOf(player).perceives(observer, id), pair.perceived, `${label}: ${player.userId}'s lookup for ${NAMES.get(observer)} -> ${NAMES.get(id)}`);
          }
        }
      }
    }

    /** No player-facing Furtive message, notification or dialog names a token none of the player's tokens perceives. */
    function assertSecrecy(label) {
      for (const player of [env.alice, env.bob]) {
        const own = sceneOf(player).tokens.contents.filter((t) => t.isOwner).map((t) => t.id);
        const unseen = [...NAMES.keys()].filter((id) => !own.includes(id) && !own.some((o) => apiOf(player).perceives(o, id)));
        const texts = [
          ...moduleMessages(player).map((m) => JSON.stringify(m)),
          ...player.ctx.notifications.map((n) => n.message),
          ...player.ctx.dialogs.map((d) => d.element?.textContent ?? ""),
        ];
        for (const id of unseen) {
          const name = new RegExp(`\\b${NAMES.get(id)}\\b`);
          for (const text of texts) assert.doesNotMatch(text, name, `${label}: ${player.userId} is told about ${NAMES.get(id)}, which none of their tokens perceives`);
          for (const text of texts) assert.ok(!text.includes(id), `${label}: ${player.userId} gets the id of ${NAMES.get(id)}`);
        }
      }
    }

    it("the busy scene: 32 tokens, no stealth yet", () => {
      assert.equal(Object.keys(hidersOf(gm)).length, 0);
      assert.equal(sceneOf(gm).tokens.size, 5 + WEST.length + CROWD.length);
    });

    it("Alice rolls Stealth from the Goblin's sheet (d20 14): hidden with the total (O1), no roll or dialog of Furtive's", async () => {
      const bonus = skillBonus(env, env.gm, IDS.hiderActor, "ste");
      await action("Alice's Stealth roll", async () => {
        rig(env.alice, [[20, 14]]);
        await rollSkill(env, env.alice, IDS.hiderActor, "ste");
        await until(() => hidersOf(gm)[SNEAK]?.phase === "hiding", "the Sneak hides");
      });
      const sneak = hidersOf(gm)[SNEAK];
      assert.equal(sneak.heldTotal, 14 + bonus);
      for (const id of [...WEST, LOOKOUT]) assert.equal(sneak.pairs[id]?.perceived ?? false, false, `${NAMES.get(id)} does not perceive the Sneak in the dark`);
      assert.equal(gm.ctx.dialogs.length, 0);
      assert.equal(apiOf(env.bob).perceives(LOOKOUT, SNEAK), false, "Bob's lookup hides the Sneak: the secrecy scan looks for it in what Bob holds");
    });

    it("Bob rolls Stealth from the Lookout's sheet (d20 12): the Lookout hides too", async () => {
      await action("Bob's Stealth roll", async () => {
        rig(env.bob, [[20, 12]]);
        await rollSkill(env, env.bob, IDS.observerActor, "ste");
        await until(() => hidersOf(gm)[LOOKOUT]?.phase === "hiding", "the Lookout hides");
      });
      assert.equal(hidersOf(gm)[SNEAK].phase, "hiding");
    });

    it("a torch is lit at the Sneak: the Wardens get clear view and make their O4 checks, the GM's rolls in one message", async () => {
      const { added } = await action("the torch", async () => {
        rig(gm, Array.from({ length: 40 }, () => [20, 2]));
        await sceneOf(gm).createEmbeddedDocuments("AmbientLight", [{ _id: "lightTorch000001", x: 250, y: 450, config: { dim: 10, bright: 5 } }]);
        await until(() => WEST.every((w) => hidersOf(gm)[SNEAK].pairs[w]?.perceptionTotal != null), "the Wardens' O4 checks");
      });
      const pairs = hidersOf(gm)[SNEAK].pairs;
      for (const w of WEST) {
        assert.equal(pairs[w].clearView, true, `${NAMES.get(w)} has the lit Sneak in clear view`);
        assert.equal(pairs[w].perceived, false, `${NAMES.get(w)} failed (d20 2 + 2)`);
      }
      assert.equal(pairs[LOOKOUT].clearView, false, "the wall still blocks the east");
      assert.ok(added.filter((m) => m.flags?.furtive?.kind === "perceptionRolls").length <= 1);
    });

    it("Bob rolls Perception from the Lookout's sheet (d20 3): the Sneak is behind the wall, so the search sends nothing (O4 needs clear view); it stays hidden from him", async () => {
      rig(env.bob, [[20, 3]]);
      await rollSkill(env, env.bob, IDS.observerActor, "prc");
      await until(() => gm.ctx.game.messages.contents.some((m) => isSkillRoll(env, m, "prc")), "the roll reaches the GM");
      await settle(env);
      await settle(env);
      assert.equal(hidersOf(gm)[SNEAK].pairs[LOOKOUT].perceptionTotal, null, "no search through the wall");
      assert.equal(hidersOf(gm)[SNEAK].pairs[LOOKOUT].perceived, false);
      assert.equal(apiOf(env.bob).perceives(LOOKOUT, SNEAK), false, "for the rest of the fight the secrecy scan looks for the Sneak in what Bob holds");
    });

    it("combat starts: both hiders keep their state (O1)", async () => {
      const beforeState = plain(hidersOf(gm));
      const combat = await gm.ctx.Combat.create({ scene: SCENE, active: true, round: 0, turn: 0 });
      await combat.createEmbeddedDocuments("Combatant", [
        { tokenId: SNEAK, sceneId: SCENE, actorId: IDS.hiderActor, initiative: 15 },
        { tokenId: WEST[0], sceneId: SCENE, actorId: IDS.guardActor, initiative: 12 },
        { tokenId: LOOKOUT, sceneId: SCENE, actorId: IDS.observerActor, initiative: 8 },
      ]);
      await settle(env);
      await action("combat start", async () => {
        await gm.ctx.game.combats.get(combat.id).startCombat();
      });
      const afterState = plain(hidersOf(gm));
      for (const id of [SNEAK, LOOKOUT]) {
        assert.equal(afterState[id].phase, "hiding");
        assert.equal(afterState[id].heldTotal, beforeState[id].heldTotal);
        assert.deepEqual(afterState[id].pairs, beforeState[id].pairs);
      }
    });

    it("the Sneak shoots the three Wardens: one O8 penalty, three O9 checks, one card", async () => {
      const { card } = await action("the 3-target attack", async () => {
        target(env.alice, WEST);
        rig(gm, [[20, 3], [20, 3], [20, 3]]);
        rig(env.alice, [[20, 11]]);
        await rollAttack(env, env.alice, actorOn(env.alice, IDS.hiderActor), IDS.bow);
        await until(() => hidersOf(gm)[SNEAK].penalties.length > 0, "the O8 penalty");
      });
      const penalties = hidersOf(gm)[SNEAK].penalties;
      assert.equal(penalties.length, 1);
      assert.equal(penalties[0].clause, "O8");
      assert.equal(card.flags.furtive.entries.filter((e) => e.clause === "O9").length, 3);
    });

    it("Warden One, who does not perceive the Sneak, attacks it: disadvantage (O10) and the card says so", async () => {
      assert.equal(hidersOf(gm)[SNEAK].pairs[WEST[0]].perceived, false);
      let roll;
      const { card } = await action("the O10 attack", async () => {
        target(gm, [SNEAK]);
        rig(gm, [[20, 16], [20, 4]]);
        roll = await rollAttack(env, gm, tokenOn(gm, WEST[0]).actor, IDS.spear);
      });
      // dnd5e imposes the disadvantage in its attack pre hook; a system with no such hook is told on the card.
      if (generation !== "generic") assert.equal(roll.hasDisadvantage, true);
      assert.ok(card.flags.furtive.entries.some((e) => e.clause === "O10"));
    });

    let handedOver;
    it("the second GM joins and the first leaves: the second has exactly the state the first left", async () => {
      handedOver = plain(apiOf(gm).getState());
      const second = await startClient({ server: env.server, userId: GM2, version: foundryVersion, system: systemOf(generation) });
      env.clients[GM2] = second;
      await apiOf(second).engineReady;
      await ready(second);
      await settle(env);
      assert.equal(apiOf(second).isActiveGM(), false, "the first GM is still the active one");
      env.gm.ctx.disconnect();
      env.gm.window.close();
      delete env.clients[GM];
      await env.server.idle();
      await until(() => apiOf(second).isActiveGM(), "the second GM becomes active");
      gm = second;
      await until(() => apiOf(second).getState(), "the second GM's state");
      const { revision: _a, ...now } = plain(apiOf(second).getState());
      const { revision: _b, ...then } = handedOver;
      assert.deepEqual(now, then, "the engine state is the one the first GM left");
    });

    it("the Sneak takes 3 damage (from Warden One's attack): an O11 penalty", async () => {
      await action("damage", async () => {
        await damageActor(env, actorOn(gm, IDS.hiderActor), 3);
        await until(() => hidersOf(gm)[SNEAK].penalties.some((p) => p.clause === "O11"), "the O11 penalty");
      });
    });

    it("a reinforcement is dropped west of the wall, in the torchlight's view of the Sneak", async () => {
      await action("a new token", async () => {
        rig(gm, Array.from({ length: 10 }, () => [20, 2]));
        const base = plain(sceneOf(gm).tokens.get(WEST[0])._source);
        await sceneOf(gm).createEmbeddedDocuments("Token", [{ ...base, _id: undefined, name: "Reinforcement", x: 400, y: 300 }]);
        await until(() => {
          const token = sceneOf(gm).tokens.find((t) => t.name === "Reinforcement");
          return token && hidersOf(gm)[SNEAK].pairs[token.id]?.perceptionTotal != null;
        }, "its O4 check");
      });
    });

    it("the GM gives the Guard actor blindsight 10 ft on its sheet: every Guard token's creature changes in one save", async () => {
      await action("an actor edit", async () => {
        await actorOn(gm, IDS.guardActor).update({ [blindsightPath(env)]: 10 });
        await settle(env);
        await until(() => apiOf(gm).getState().creatures[WEST[0]].enhancedSenses.length > 0, "the Guards' blindsight");
      });
    });

    it("the turn changes", async () => {
      await action("next turn", async () => {
        await gm.ctx.game.combats.contents[0].nextTurn();
      });
    });

    it("the Sneak moves out of the torchlight into the dark: the Wardens lose clear view, but for the one within its blindsight", async () => {
      await action("a move", async () => {
        rig(gm, Array.from({ length: 10 }, () => [20, 2]));
        // (0,500): 11 ft from the torch's 10 ft of dim light, facing the door.
        await tokenOn(env.alice, SNEAK).update({ x: 0, y: 500 });
      });
      for (const w of [WEST[0], WEST[2]]) assert.equal(hidersOf(gm)[SNEAK].pairs[w].clearView, false, `${NAMES.get(w)}: the Sneak is in the dark, beyond its blindsight`);
      assert.equal(hidersOf(gm)[SNEAK].pairs[WEST[1]].clearView, true, "Warden Two, 5 ft away, has it within its 10 ft of blindsight (B5)");
    });

    let doorCard;
    let beforeDoor;
    it("the door opens: the Sneak's darkvision reaches the hiding Lookout through it; its O4 check is offered to Alice", async () => {
      beforeDoor = plain(apiOf(gm).getState());
      const { card } = await action("the door", async () => {
        rig(gm, Array.from({ length: 60 }, () => [20, 2]));
        await sceneOf(gm).walls.get(DOOR).update({ ds: 1 });
      });
      doorCard = card;
      const offers = moduleMessages(env.alice).filter((m) => m.flags.furtive.kind === "perceptionOffer");
      assert.equal(offers.at(-1)?.flags.furtive.observer, SNEAK, "Alice is offered her Sneak's check (B4), without naming what it is for");
      const pair = hidersOf(gm)[LOOKOUT].pairs[SNEAK];
      assert.equal(pair.clearView, true, "darkvision 60 ft, 40 ft away, through the open door");
      for (const id of [IDS.guards[0], CROWD[0]]) assert.equal(hidersOf(gm)[SNEAK].pairs[id]?.clearView ?? false, false, `${NAMES.get(id)}: the Sneak is in the dark`);
    });

    it("the second GM undoes the door's action from its card: the state before the door is back", async () => {
      assert.ok(doorCard, "the door's card");
      const item = gm.window.document.querySelector(`#chat-log li[data-message-id="${doorCard._id}"]`);
      const button = item?.querySelector('[data-furtive-action="undo"]');
      assert.ok(button, "the door card with its undo button is in the second GM's chat log");
      button.dispatchEvent(new gm.window.MouseEvent("click", { bubbles: true, cancelable: true }));
      await settle(env);
      await settle(env);
      const { revision: _a, ...now } = plain(apiOf(gm).getState());
      const { revision: _b, ...then } = beforeDoor;
      assert.deepEqual(now, then, "the engine state is the one before the door");
      assertNothingLost("undo");
      assertSecrecy("undo");
    });

    it("after the undo, the Lookout steps aside: the open door's view is tested again and the Sneak's check is offered to Alice again", async () => {
      const offers = () => moduleMessages(env.alice).filter((m) => m.flags.furtive.kind === "perceptionOffer").length;
      const before = offers();
      await action("the Lookout's step", async () => {
        await tokenOn(env.bob, LOOKOUT).update({ x: 800, y: 500 });
        await until(() => hidersOf(gm)[LOOKOUT].pairs[SNEAK]?.checkPending === true, "the Sneak's check pending again");
      });
      assert.equal(hidersOf(gm)[LOOKOUT].pairs[SNEAK].clearView, true);
      assert.equal(offers(), before + 1);
    });

    it("Alice rolls Perception from the Sneak's sheet (d20 18): it answers the pending check (O4)", async () => {
      const bonus = skillBonus(env, env.alice, IDS.hiderActor, "prc");
      await action("Alice's Perception roll", async () => {
        rig(env.alice, [[20, 18]]);
        await rollSkill(env, env.alice, IDS.hiderActor, "prc");
        await until(() => hidersOf(gm)[LOOKOUT].pairs[SNEAK]?.checkPending === false, "the check answered");
      });
      const pair = hidersOf(gm)[LOOKOUT].pairs[SNEAK];
      assert.equal(pair.perceptionTotal, 18 + bonus);
      assert.equal(apiOf(env.alice).perceives(SNEAK, LOOKOUT), pair.perceived);
    });
  });
}

for (const generation of ["4.4", "5.3"]) {
  const { foundry: foundryVersion } = GENERATIONS[generation];
  describe(`dnd5e ${generation} on Foundry ${foundryVersion}: a check offered to a player before the GM hand-over is answered from the sheet after it`, () => {
    let env;
    let second;
    let beforeDoor;
    before(async () => {
      env = await dnd5eWorld({ generation, settings: { systemAttackNoise: "noisy", darkvisionPath: PRESETS.dnd5e.darkvisionPath }, edit: busyDarkScene });
      rig(env.alice, [[20, 14]]);
      await rollSkill(env, env.alice, IDS.hiderActor, "ste");
      await until(() => hidersOf(env.gm)[SNEAK]?.phase === "hiding", "the Sneak hides");
      rig(env.gm, Array.from({ length: 40 }, () => [20, 2]));
      await sceneOf(env.gm).createEmbeddedDocuments("AmbientLight", [{ _id: "lightTorch000001", x: 250, y: 450, config: { dim: 10, bright: 5 } }]);
      await settle(env);
      beforeDoor = plain(apiOf(env.gm).getState());
      rig(env.gm, Array.from({ length: 40 }, () => [20, 2]));
      await sceneOf(env.gm).walls.get(DOOR).update({ ds: 1 });
      await until(() => hidersOf(env.gm)[SNEAK].pairs[LOOKOUT]?.checkPending === true, "the Lookout's check offered to Bob");
      await settle(env);
    });
    after(() => shutdown(env));

    it("the first GM leaves with Bob's check pending; Bob rolls Perception from the sheet (d20 17); the second GM applies it", async () => {
      second = await startClient({ server: env.server, userId: GM2, version: foundryVersion, system: dnd5eSystem({ generation }) });
      env.clients[GM2] = second;
      await apiOf(second).engineReady;
      await ready(second);
      await settle(env);
      const handedOver = plain(apiOf(env.gm).getState());
      env.gm.ctx.disconnect();
      env.gm.window.close();
      delete env.clients[GM];
      await env.server.idle();
      await until(() => apiOf(second).isActiveGM(), "the second GM becomes active");
      const { revision: _a, ...now } = plain(apiOf(second).getState());
      const { revision: _b, ...then } = handedOver;
      assert.deepEqual(now, then);
      const bonus = actorOn(second, IDS.observerActor).getRollData().skills.prc.total;
      rig(env.bob, [[20, 17]]);
      await rollSkill(env, env.bob, IDS.observerActor, "prc");
      await until(() => hidersOf(second)[SNEAK].pairs[LOOKOUT]?.checkPending === false, "Bob's check answered by the second GM");
      await settle(env);
      const pair = hidersOf(second)[SNEAK].pairs[LOOKOUT];
      assert.equal(pair.perceptionTotal, 17 + bonus);
      assert.equal(apiOf(env.bob).perceives(LOOKOUT, SNEAK), pair.perceived);
      const cards = moduleMessages(second).filter((m) => m.flags.furtive.kind === "log" && m.flags.furtive.gm && m.author === GM2);
      assert.equal(cards.length, 1, "one card, the second GM's");
    });

    it("the second GM undoes Bob's answer, then the door (the first GM's action, now the last): the state before the door", async () => {
      const lastCard = (author) => second.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.kind === "log" && m.flags.furtive.gm && m.flags.furtive.actionId && m.author?.id === author).at(-1);
      const click = async (message) => {
        const button = second.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"] [data-furtive-action="undo"]`);
        assert.ok(button, `the undo button of ${message.id} (${message.author?.name}; log items: ${second.window.document.querySelectorAll("#chat-log li").length}, messages: ${second.ctx.game.messages.size}, this one in the log: ${Boolean(second.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"]`))})`);
        button.dispatchEvent(new second.window.MouseEvent("click", { bubbles: true, cancelable: true }));
        await settle(env);
        await settle(env);
      };
      await click(lastCard(GM2));
      assert.equal(hidersOf(second)[SNEAK].pairs[LOOKOUT].checkPending, true, "Bob's answer is undone: the check waits again");
      const doorCard = lastCard(GM);
      assert.equal(doorCard.flags.furtive.titleKey, "FURTIVE.Chat.Event.wallsChanged", "a door's card says walls and doors changed who sees whom");
      await click(doorCard);
      const { revision: _a, ...now } = plain(apiOf(second).getState());
      const { revision: _b, ...then } = beforeDoor;
      assert.deepEqual(now, then);
      assert.equal(second.ctx.notifications.filter((n) => n.type !== "info").length, 0, JSON.stringify(second.ctx.notifications));
    });
  });
}

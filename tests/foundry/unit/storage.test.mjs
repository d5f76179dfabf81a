/**
 * Saving and undoing an action:
 *
 * - An action's save costs what it changed: a move on the GM takes no full
 *   snapshot and no full `hiddenFrom()` of the session; the Scene update is
 *   built from the effects' `hiddenFrom` changes (npm
 *   `Session.hiddenFromChanges`) and names only the observers they touch.
 * - One GM card per action, with a button that undoes the scene's last action
 *   (its engine state, statuses and published lookup go back to before it,
 *   in one transaction: one record message, at most one Scene update); an
 *   older action's card is refused (`not_last_action`).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import path from "node:path";
import { pathToFileURL } from "node:url";

import { moduleDir, startClient } from "../node/harness.mjs";
import { ALICE, BOB, GM, SCENE, TOKENS, answerHideDialog, clickCard, apiOf, hideRogue, plain, ready, rig, setup, shutdown, waitForDialog } from "./world.mjs";

/** The GM-only record messages of the scene on a client (base and deltas). */
const records = (client) => client.ctx.game.messages.filter((m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")) && m.getFlag("furtive", "sceneId") === SCENE);

/** The GM card of the last action. */
const lastGMCard = (client) => client.ctx.game.messages.filter((m) => m.getFlag("furtive", "kind") === "log" && m.getFlag("furtive", "gm")).at(-1);

describe("A move on the GM costs what it changed (opposed)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, ALICE, BOB] });
    for (const id of [TOKENS.rogue, TOKENS.archer]) {
      rig(env.gm, [[20, 19]]);
      await apiOf(env.gm).hide(id, { dialog: false, moved: true });
      await env.server.idle();
    }
  });
  after(() => shutdown(env));

  it("no full snapshot, no full hiddenFrom; the Scene update names only the observers the effects changed", async () => {
    const gm = env.gm.ctx;
    // The engine's Session class as the GM client loaded it (the same module instance).
    const { Session } = await env.gm.loader.import(pathToFileURL(path.join(moduleDir, "engine/browser.js")).href);
    const calls = { snapshot: 0, hiddenFrom: 0, applyAll: 0 };
    const originals = {};
    for (const name of Object.keys(calls)) {
      originals[name] = Session.prototype[name];
      Session.prototype[name] = function (...args) {
        calls[name] += 1;
        return originals[name].apply(this, args);
      };
    }
    const patched = [];
    const onUpdate = (scene, changed) => patched.push(Object.keys(changed.flags?.furtive?.hiddenFrom ?? {}));
    gm.Hooks.on("updateScene", onUpdate);
    try {
      // The sentry walks west of the wall: in clear view of both hiders now, it
      // makes its Perception checks (rigged natural 20s, O4).
      rig(env.gm, Array.from({ length: 20 }, () => [20, 20]));
      await gm.game.scenes.get(SCENE).tokens.get(TOKENS.sentry).update({ x: 400 });
      await env.server.idle();
    } finally {
      for (const name of Object.keys(calls)) Session.prototype[name] = originals[name];
      gm.Hooks.off?.("updateScene", onUpdate);
    }
    assert.ok(calls.applyAll >= 1, "the move was applied");
    assert.deepEqual({ ...calls, applyAll: 0 }, { snapshot: 0, hiddenFrom: 0, applyAll: 0 }, "the move read no whole state");
    assert.deepEqual(patched, [[TOKENS.sentry]], "one Scene update, naming only the moved observer");
    // Every client's lookup agrees with the GM's engine after the patch.
    const state = apiOf(env.gm).getState();
    assert.ok([TOKENS.rogue, TOKENS.archer].some((hider) => state.hiders[hider].pairs[TOKENS.sentry].perceived), "the sentry's check found a hider");
    for (const hider of [TOKENS.rogue, TOKENS.archer]) {
      assert.equal(apiOf(env.bob).perceives(TOKENS.sentry, hider), state.hiders[hider].pairs[TOKENS.sentry].perceived, `Bob's lookup: sentry -> ${hider}`);
      assert.equal(apiOf(env.alice).perceives(TOKENS.fighter, hider), state.hiders[hider].pairs[TOKENS.fighter].perceived, `Alice's lookup: fighter -> ${hider}`);
    }
  });
});

describe("Finding a scene's record reads that scene's messages, not the chat log", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, ALICE, BOB] });
    rig(env.gm, [[20, 19]]);
    await apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, moved: true });
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("an action does not walk a long chat log, and its save is found again", async () => {
    const gm = env.gm.ctx;
    // A busy table: 300 ordinary chat messages from a player.
    for (let i = 0; i < 300; i += 1) await env.bob.ctx.ChatMessage.create({ content: `<p>table talk ${i}</p>` });
    await env.server.idle();
    const messages = gm.game.messages;
    let walks = 0;
    const count = (name, original) => Object.defineProperty(messages, name, { configurable: true, value: function (...args) { walks += 1; return original.apply(this, args); } });
    count(Symbol.iterator, messages[Symbol.iterator]);
    count("values", messages.values);
    count("entries", messages.entries);
    const contents = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(messages), "contents");
    Object.defineProperty(messages, "contents", { configurable: true, get() { walks += 1; return contents.get.call(this); } });
    try {
      // The archer hides: one action, one record write.
      rig(env.gm, [[20, 18]]);
      await apiOf(env.gm).hide(TOKENS.archer, { dialog: false, moved: true });
      await env.server.idle();
    } finally {
      for (const name of [Symbol.iterator, "values", "entries", "contents"]) delete messages[name];
    }
    assert.equal(walks, 0, "the action never walked the 300-message chat log");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.archer], "the archer hides");
    // The store finds the save again through its index.
    const { loadRecord } = await env.gm.loader.import(pathToFileURL(path.join(moduleDir, "scripts/storage/store.mjs")).href);
    const record = loadRecord(gm.game.scenes.get(SCENE));
    assert.ok(record, "the record is found");
    const events = record.deltas.at(-1).batches.flat();
    assert.ok(events.some((e) => e.type === "enterStealth" && e.hider === TOKENS.archer), "the last saved action is the archer's Hide");
  });
});

describe("Undo the last action from its GM card (percentile)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("each action leaves one GM card, with an undo button", () => {
    const card = lastGMCard(env.gm);
    assert.ok(card.getFlag("furtive", "actionId"), "the card names its action");
    assert.match(card.content, /data-furtive-action="undo"/);
    assert.deepEqual([...card.whisper], [GM]);
  });

  it("undoing an older action is refused; undoing the last one restores state, statuses and lookup in one transaction", async () => {
    const rogueCard = lastGMCard(env.gm);
    const stateAfterRogue = plain(apiOf(env.gm).getState());
    const flagsAfterRogue = plain(env.server.world.scenes.find((s) => s._id === SCENE).flags.furtive);
    // The fighter hides too (d100 10 + dark 50).
    rig(env.gm, [[100, 10]]);
    const pending = apiOf(env.gm).hide(TOKENS.fighter);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"] });
    await pending;
    await env.server.idle();
    const fighterCard = lastGMCard(env.gm);
    assert.notEqual(fighterCard.id, rogueCard.id);
    const fighterToken = () => env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.fighter);
    assert.equal(fighterToken().hasStatusEffect("furtive.hidden"), true);

    // The rogue's card is not the last action any more.
    const warnings = env.gm.ctx.notifications.length;
    clickCard(env.gm, rogueCard, "undo");
    await env.server.idle();
    assert.ok(env.gm.ctx.notifications.slice(warnings).some((n) => /last Furtive action/.test(n.message)), "told that only the last action can be undone");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.fighter], "nothing was undone");

    // Undo the fighter's Hide: one record write (its delta deleted), at most one Scene update.
    let sceneUpdates = 0;
    let recordsWritten = 0;
    const onScene = () => (sceneUpdates += 1);
    const onRecord = (m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")) && (recordsWritten += 1);
    env.gm.ctx.Hooks.on("updateScene", onScene);
    env.gm.ctx.Hooks.on("createChatMessage", onRecord);
    env.gm.ctx.Hooks.on("deleteChatMessage", onRecord);
    clickCard(env.gm, fighterCard, "undo");
    await env.server.idle();
    env.gm.ctx.Hooks.off?.("updateScene", onScene);
    env.gm.ctx.Hooks.off?.("createChatMessage", onRecord);
    env.gm.ctx.Hooks.off?.("deleteChatMessage", onRecord);
    const { revision: _a, ...restored } = plain(apiOf(env.gm).getState());
    const { revision: _b, ...expected } = stateAfterRogue;
    assert.deepEqual(restored, expected, "the engine state is the one after the rogue's Hide");
    assert.equal(recordsWritten, 1, "one record write");
    assert.ok(sceneUpdates <= 1, `Scene updates: ${sceneUpdates}`);
    assert.equal(fighterToken().hasStatusEffect("furtive.hidden"), false, "the fighter's hidden status is off again");
    assert.deepEqual(plain(env.server.world.scenes.find((s) => s._id === SCENE).flags.furtive), flagsAfterRogue, "the published lookup is the one after the rogue's Hide");
    assert.equal(apiOf(env.alice).perceives(TOKENS.rogue, TOKENS.fighter), true, "Alice's rogue perceives the fighter again");
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "the rogue is still hidden from Bob's fighter");

    // Now the rogue's Hide is the last action: it can be undone too.
    clickCard(env.gm, rogueCard, "undo");
    await env.server.idle();
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue], undefined);
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), true);
    // The record is one base holding the state before both actions.
    assert.equal(records(env.gm).length, 1);
    assert.equal(env.gm.ctx.game.messages.filter((m) => m.getFlag("furtive", "kind") === "undone").length, 2, "the GM is told after each undo");
  });
});

describe("An undo whose record write fails changes nothing (percentile)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the GM's live state stays as stored, the GM is told, and the undo can be made again", async () => {
    const gm = env.gm.ctx;
    const card = lastGMCard(env.gm);
    const before = plain(apiOf(env.gm).getState());
    const storedBefore = records(env.gm).map((m) => m.id);
    // The next record write (ChatMessage.create of a state record) is rejected once, like a server refusal.
    const create = gm.ChatMessage.create;
    let failed = 0;
    gm.ChatMessage.create = async function (data, options) {
      if (!failed && ["state", "stateDelta"].includes(data?.flags?.furtive?.kind)) {
        failed += 1;
        throw new Error("the server refused the write");
      }
      return create.call(this, data, options);
    };
    const warnings = gm.notifications.length;
    try {
      clickCard(env.gm, card, "undo");
      await env.server.idle();
    } finally {
      gm.ChatMessage.create = create;
    }
    assert.equal(failed, 1, "the undo tried to write the record");
    assert.deepEqual(plain(apiOf(env.gm).getState()), before, "the GM's live state is the stored one, not the undone one");
    assert.deepEqual(records(env.gm).map((m) => m.id), storedBefore, "the stored record is unchanged");
    assert.ok(gm.notifications.slice(warnings).some((n) => /could not be saved/.test(n.message)), "the GM is told the undo was not saved");
    assert.equal(gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true, "the rogue is still hidden");

    // The same undo, made again, works.
    clickCard(env.gm, card, "undo");
    await env.server.idle();
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue], undefined, "the undo went through the second time");
  });
});

describe("Only the active GM writes the state: a player's call is refused with a stable code", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("transact, undoAction, saveDelta, saveBase and dropLastDelta reject with not_active_gm, and the record is unchanged", async () => {
    const load = (file) => env.alice.loader.import(pathToFileURL(path.join(moduleDir, "scripts", file)).href);
    const { transact } = await load("gm/transaction.mjs");
    const { undoAction } = await load("gm/undo.mjs");
    const store = await load("storage/store.mjs");
    const { FurtiveError } = await load("errors.mjs");
    const scene = env.alice.ctx.game.scenes.get(SCENE);
    const storedBefore = records(env.gm).map((m) => m.id);
    const calls = {
      transact: () => transact(scene, []),
      undoAction: () => undoAction(scene, "someAction"),
      saveDelta: () => store.saveDelta(scene, { base: "base", seq: 1 }, { events: [] }),
      saveBase: () => store.saveBase(scene, { state: {}, pending: [], generation: 1 }),
      dropLastDelta: () => store.dropLastDelta(scene),
    };
    for (const [name, call] of Object.entries(calls)) {
      await assert.rejects(call, (error) => error instanceof FurtiveError && error.code === "not_active_gm" && /active GM/.test(error.localized()), name);
    }
    await env.server.idle();
    assert.deepEqual(records(env.gm).map((m) => m.id), storedBefore, "no record written");
  });
});

describe("The record survives many actions: deltas, compaction, a settings change, a new GM (opposed)", () => {
  it("a GM in a new browser reads the same state as the live session, after compactions", async () => {
    const env = await setup({ ruleset: "opposed", version: 14, users: [GM, ALICE, BOB] });
    try {
      const gm = env.gm.ctx;
      const scene = () => env.gm.ctx.game.scenes.get(SCENE);
      const generations = new Set();
      const onRecord = (m) => m.getFlag("furtive", "kind") === "state" && generations.add(m.getFlag("furtive", "generation"));
      gm.Hooks.on("createChatMessage", onRecord);
      for (const id of [TOKENS.rogue, TOKENS.archer, TOKENS.guard]) {
        rig(env.gm, [[20, 19]]);
        await apiOf(env.gm).hide(id, { dialog: false, moved: true });
        await env.server.idle();
      }
      rig(env.gm, Array.from({ length: 400 }, (_, i) => [20, 1 + (i % 20)]));
      for (let step = 0; step < 24; step += 1) {
        const id = [TOKENS.sentry, TOKENS.lookout, TOKENS.fighter][step % 3];
        await scene().tokens.get(id).update({ x: 100 + ((step * 137) % 800), y: 100 + ((step * 251) % 800) });
        await env.server.idle();
        if (step === 6) await scene().walls.get("wallDoor00000001").update({ ds: 1 });
        // A rule setting changes between two saved actions (the engine settings are stored with each).
        if (step === 12) await gm.game.settings.set("furtive", "showNumbers", true);
        await env.server.idle();
      }
      gm.Hooks.off?.("createChatMessage", onRecord);
      assert.ok(generations.size >= 2, `the deltas were compacted into a new base (generations ${[...generations]})`);
      const messages = records(env.gm);
      assert.equal(messages.filter((m) => m.getFlag("furtive", "kind") === "state").length, 1, "one base");
      const live = plain(apiOf(env.gm).getState());
      env.gm.ctx.disconnect();
      env.gm.window.close();
      await env.server.idle();
      const fresh = await startClient({ server: env.server, userId: GM, version: 14 });
      env.clients[GM] = fresh;
      env.gm = fresh;
      await apiOf(fresh).engineReady;
      await ready(fresh);
      await env.server.idle();
      const { revision: _a, ...read } = plain(apiOf(fresh).getState());
      const { revision: _b, ...expected } = live;
      assert.deepEqual(read, expected, "the base with its deltas applied again is the live state");
    } finally {
      shutdown(env);
    }
  });
});

describe("One GM card per action: the P4 new roll and the O4 checks to roll are on it", () => {
  it("percentile: new modifiers (P4) put the new-roll button on the action's card; it rolls", async () => {
    const env = await setup({ ruleset: "percentile", users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const before = env.gm.ctx.game.messages.size;
      await apiOf(env.gm).changeModifiers(TOKENS.rogue, { situation: [], free: [] });
      await env.server.idle();
      const created = env.gm.ctx.game.messages.contents.slice(before).filter((m) => !["state", "stateDelta"].includes(m.getFlag("furtive", "kind")));
      const gmCards = created.filter((m) => m.whisper.length && m.whisper.every((id) => id === GM));
      assert.equal(gmCards.length, 1, `GM messages for the action: ${gmCards.map((m) => m.getFlag("furtive", "kind"))}`);
      const [card] = gmCards;
      assert.deepEqual(plain(card.getFlag("furtive", "rerolls")), [TOKENS.rogue]);
      assert.ok(card.getFlag("furtive", "entries").some((e) => e.clause === "P4"), "with the P4 comparison");
      rig(env.gm, [[100, 40]]);
      let recordWrites = 0;
      const onRecord = (m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")) && (recordWrites += 1);
      env.gm.ctx.Hooks.on("createChatMessage", onRecord);
      clickCard(env.gm, card, "reroll");
      await env.server.idle();
      env.gm.ctx.Hooks.off?.("createChatMessage", onRecord);
      const rogue = apiOf(env.gm).getState().hiders[TOKENS.rogue];
      assert.equal(rogue.d100, 40, "the new stealth roll was made");
      assert.equal(recordWrites, 1, "one save: the roll and the answered request together");
      const newest = JSON.parse(records(env.gm).at(-1).getFlag("furtive", "raw"));
      assert.deepEqual(plain(newest.delta?.pending ?? newest.pending), [], "no new roll is pending any more");
    } finally {
      shutdown(env);
    }
  });

  it("opposed, automatic checks off: the door's card carries one button per O4 check; a click rolls it", async () => {
    const env = await setup({ ruleset: "opposed", users: [GM, ALICE], settings: { autoPerception: false } });
    try {
      rig(env.gm, [[20, 19]]);
      await apiOf(env.gm).hide(TOKENS.rogue, { dialog: false, moved: true });
      await env.server.idle();
      const before = env.gm.ctx.game.messages.size;
      await env.gm.ctx.game.scenes.get(SCENE).walls.get("wallDoor00000001").update({ ds: 1 });
      await env.server.idle();
      const created = env.gm.ctx.game.messages.contents.slice(before).filter((m) => !["state", "stateDelta"].includes(m.getFlag("furtive", "kind")));
      const gmCards = created.filter((m) => m.whisper.length && m.whisper.every((id) => id === GM));
      assert.equal(gmCards.length, 1, "one GM card for the door");
      const checks = plain(gmCards[0].getFlag("furtive", "checks"));
      // The engine asks for both east observers' checks against the rogue in one request: each is its own button.
      assert.deepEqual(checks.map((c) => [c.hider, c.observer]).sort(), [[TOKENS.rogue, TOKENS.lookout], [TOKENS.rogue, TOKENS.sentry]].sort(), "the checks to roll are on it, one per observer");
      const item = env.gm.window.document.querySelector(`#chat-log li[data-message-id="${gmCards[0].id}"]`);
      for (const check of checks) {
        const one = item.querySelector(`[data-furtive-action="perception"][data-hider="${check.hider}"][data-observer="${check.observer}"]`);
        assert.ok(one, `a button for ${check.observer}`);
        assert.match(one.textContent, /\(O4\)/, "the button cites the request's clause");
      }
      const button = item.querySelector(`[data-furtive-action="perception"][data-observer="${checks[0].observer}"]`);
      rig(env.gm, [[20, 20]]);
      button.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true, cancelable: true }));
      await env.server.idle();
      const pair = apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs[checks[0].observer];
      assert.notEqual(pair.perceptionTotal, null, "the check was rolled and applied");
    } finally {
      shutdown(env);
    }
  });
});

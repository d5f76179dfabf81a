/**
 * Worlds for the tests: one GM and players, a scene with tokens, both
 * rulesets. Numbers are chosen so every hidden number is distinctive (scanned
 * for in what players receive).
 *
 * percentile (generic preset, Simple Worldbuilding-style paths):
 *   rogue (Alice)     Furtivité 61; hides with d100 83 + dark +50 + free +27 = score 221
 *   fighter (Bob)     acuities 50+60+40 = 150  -> does not perceive the rogue (221 > 150)
 *   archer (Carol)    acuities 100+90+70 = 260 -> perceives the rogue (221 <= 260)
 *   sentry (Dave)     acuities 40+30+20 = 90   -> does not perceive
 *   lookout (Dave)    acuities 120+100+90 = 310 -> perceives (Dave sees the rogue, B2)
 *   guard (GM, NPC)   acuities 70+50+30 = 150, unlinked -> does not perceive
 *
 * opposed (dnd5e preset): Stealth 1d20 + skills.ste.total, Perception 1d20 + skills.prc.total.
 */
import assert from "node:assert/strict";

import { startWorld } from "../node/harness.mjs";

export { ALICE, BOB, CAROL, DAVE, DOOR, GM, SCENE, TOKENS, USERS, makeWorld } from "../fixtures/world-data.mjs";
import { ALICE, BOB, CAROL, DAVE, GM, SCENE, TOKENS, makeWorld } from "../fixtures/world-data.mjs";

/**
 * Dice the GM's client will roll, in order: `rig(client, [[100, 83], [20, 15]])`.
 * Each entry is `[faces, result]`; `CONFIG.Dice.randomUniform` returns the
 * matching uniform. Rolls beyond the list get 0.5 and are recorded in `extra`.
 */
export function rig(client, dice) {
  const queue = [...dice];
  const state = { extra: 0, queue };
  client.ctx.CONFIG.Dice.randomUniform = () => {
    const next = queue.shift();
    if (!next) {
      state.extra += 1;
      return 0.5;
    }
    const [faces, result] = next;
    return (result - 0.5) / faces;
  };
  return state;
}

/**
 * Starts the world with the GM and the four players, the real module and the
 * real wasm, and waits until every client's engine is ready.
 */
export async function setup({ ruleset = "percentile", version = 13, libWrapper = false, settings = {}, lang = {}, users = [GM, ALICE, BOB, CAROL, DAVE], world: edit, system, socketsClosed } = {}) {
  const world = makeWorld({ ruleset, settings });
  edit?.(world);
  const { server, clients } = await startWorld({ world, version, libWrapper, system, socketsClosed, clients: users.map((userId) => ({ userId, lang: lang[userId] ?? "en" })) });
  for (const client of Object.values(clients)) {
    const api = client.ctx.game.modules.get("furtive").api;
    if (!api) throw new Error(`furtive api missing on ${client.userId}`);
    await api.engineReady;
    await ready(client);
  }
  await server.idle();
  return { server, clients, gm: clients[GM], alice: clients[ALICE], bob: clients[BOB], carol: clients[CAROL], dave: clients[DAVE], world };
}

/**
 * Waits for a client's `furtive.ready` (its `ready` handler done: the API,
 * both languages, the moved states); fails after 30 s.
 * @param {{furtiveReady: Promise<void> | null, userId: string}} client a client of `startClient`
 */
export async function ready(client) {
  if (!client.furtiveReady) throw new Error(`furtive is not loaded on ${client.userId}`);
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`furtive.ready never fired on ${client.userId}`)), 30_000);
  });
  try {
    await Promise.race([client.furtiveReady, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The open DialogV2 of a client (the last rendered), or null. */
export function openDialog(client) {
  return client.ctx.dialogs.at(-1) ?? null;
}

/** Waits until a client has an open dialog. */
export async function waitForDialog(client, server) {
  for (let i = 0; i < 2000; i += 1) {
    const dialog = openDialog(client);
    if (dialog) return dialog;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`no dialog opened on ${client.userId}`);
}

/** Clicks a button of a dialog like a user (a real click event on the button). */
export function clickDialogButton(client, dialog, action) {
  const button = dialog.element.querySelector(`button[data-action="${action}"]`);
  if (!button) throw new Error(`dialog has no button ${action}`);
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true, cancelable: true }));
}

/** Answers the Hide dialog: situation toggles, free modifier, then the Hide button. */
export function answerHideDialog(client, dialog, { situation = [], freeLabel = "", freeValue = 0, moved, precautions } = {}) {
  const form = dialog.element.querySelector("form");
  for (const input of form.querySelectorAll('input[name="situation"]')) input.checked = situation.includes(input.value);
  if (form.elements.freeLabel) form.elements.freeLabel.value = freeLabel;
  if (form.elements.freeValue) form.elements.freeValue.value = String(freeValue);
  if (moved !== undefined && form.elements.moved) form.elements.moved.checked = moved;
  if (precautions) for (const input of form.querySelectorAll('input[name="precautions"]')) input.checked = precautions.includes(input.value);
  clickDialogButton(client, dialog, "ok");
}

/** A token placeable on a client's canvas. */
export function placeable(client, tokenId) {
  return client.ctx.canvas.tokens.get(tokenId);
}

/** Runs one frame on the client and returns whether the token is drawn visible. */
export function visibleOn(client, tokenId) {
  client.ctx.frame();
  return placeable(client, tokenId).visible;
}

/** Ends all clients. */
export function shutdown(env) {
  for (const client of Object.values(env.clients)) {
    client.ctx.disconnect();
    client.window.close();
  }
}

/** A value from another realm as plain JSON data (for deepEqual across realms). */
export function plain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The furtive API of a client. */
export function apiOf(client) {
  return client.ctx.game.modules.get("furtive").api;
}

/**
 * The rolls a message holds, as data: a Foundry roll message's `rolls`, else
 * the `flags.furtive.rolls` of a GM card (the module's secret rolls while the
 * `secretRollNotice` setting is off, foundry-module rolls.mjs).
 */
export function rollsIn(message) {
  const rolls = message.rolls ?? message._source?.rolls;
  if (rolls?.length) return [...rolls];
  return [...(message.flags?.furtive?.rolls ?? [])];
}

/** Every chat message a client holds, as plain data. */
export function messagesOf(client) {
  return client.ctx.game.messages.contents.map((m) => plain(m._source));
}

/** Waits until `predicate()` is true, letting the world run. */
export async function until(predicate, what = "condition") {
  for (let i = 0; i < 5000; i += 1) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Hides the rogue as the GM: dark + free "torch" +27, d100 83 -> score 221. */
export async function hideRogue(env) {
  rig(env.gm, [[100, 83]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
  const outcome = await pending;
  await env.server.idle();
  return outcome;
}

/** Hides the rogue as the GM under the opposed rules: Stealth 1d20 rigged to 14, having moved. */
export async function hideRogueOpposed(env) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  const outcome = await pending;
  await env.server.idle();
  return outcome;
}

/**
 * Starts a combat on the test scene as the GM, its combatants in initiative
 * order: `[[tokenId, initiative], ...]` (default: the rogue 20, the fighter
 * 10; each combatant's actor is its token's). Returns the GM's Combat.
 */
export async function startCombat(env, combatants = [[TOKENS.rogue, 20], [TOKENS.fighter, 10]]) {
  const gm = env.gm.ctx;
  const scene = gm.game.scenes.get(SCENE);
  const combat = await gm.Combat.create({ scene: SCENE, active: true, round: 0, turn: 0 });
  await combat.createEmbeddedDocuments(
    "Combatant",
    combatants.map(([tokenId, initiative]) => ({ tokenId, sceneId: SCENE, actorId: scene.tokens.get(tokenId).actorId, initiative })),
  );
  await gm.game.combats.get(combat.id).startCombat();
  await env.server.idle();
  return gm.game.combats.get(combat.id);
}

/** Clicks a button of a rendered chat card in a client's chat log, like a user. */
export function clickCard(client, message, action) {
  const item = client.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"]`);
  assert.ok(item, `the card ${message.id} is in the chat log`);
  const button = item.querySelector(`[data-furtive-action="${action}"]`);
  assert.ok(button, `the card has a ${action} button`);
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true, cancelable: true }));
}

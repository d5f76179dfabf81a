/**
 * Attacks and damage from the game system.
 *
 * - An attack roll by a token with the user's targets becomes ONE engine
 *   `attack` with its list of `targets` (O8: an area effect or several
 *   targets is one instance, one -5; O9: each target that does not perceive
 *   the attacker checks; percentile P6/P7: each target its surprise). dnd5e:
 *   its attack roll messages (systems/dnd5e.mjs); generic systems: a roll
 *   message matching the attack setting (systems/automation-settings.mjs).
 * - O10, attacking a hider the attacker does not perceive: the engine's
 *   `attackHidden` answer is written in the action's GM card (generic
 *   systems: that note is the whole automation). dnd5e: the attack roll gets
 *   disadvantage on the roller's client, in dnd5e's pre-roll hook (see
 *   {@link decideDisadvantage}); a miss (aimed at another space, from the
 *   GM's Attack dialog) is stated in the GM card, since dnd5e has no miss flag.
 * - Damage: HP lost by a hider (dnd5e `dnd5e.damageActor`, else an
 *   `updateActor` decrease of the configured HP path) is `damageTaken` with
 *   the attacker of the last attack on it, one damaging hit per HP loss (O11).
 *
 * Every step runs on the active GM through gm/transaction.mjs `transact`: one
 * transaction, one GM card per action.
 *
 * Foundry API: hooks `updateActor(actor, changed, options, userId)` (all
 * clients) and `preUpdateActor(actor, changed, options, userId)` (the
 * initiating client; its `options` reach every client's `updateActor`)
 * (https://foundryvtt.com/api/functions/hookEvents.updateDocument.html,
 * https://foundryvtt.com/api/functions/hookEvents.preUpdateDocument.html);
 * `game.user.targets` (https://foundryvtt.com/api/v12/classes/client.UserTargets.html).
 */

import { MODULE_ID, SCENE_FLAGS } from "../constants.mjs";
import { attackDialog, hitsOf } from "../ui/dialogs.mjs";
import { dnd5eGeneration, registerDnd5eAttackHooks } from "./dnd5e.mjs";
import { FurtiveError } from "../errors.mjs";
import { bilingual, t } from "../i18n.mjs";
import { sceneState } from "../gm/scene-state.mjs";
import { reportRefusal, transact } from "../gm/transaction.mjs";
import { readSettings } from "../settings.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { readSystemSettings } from "./automation-settings.mjs";

/** @typedef {import("../types.mjs").LogEntry} LogEntry */

/** Active GM: target token id -> the last attack on it (O11's attacker). */
const lastAttack = /** @type {Map<string, {attackerId: string, sceneId: string}>} */ (new Map());

/**
 * The attacker of the last attack on a token, or null.
 * @param {string} targetId
 */
export function lastAttackerOf(targetId) {
  return lastAttack.get(targetId)?.attackerId ?? null;
}

/**
 * The last attack on a token as the GM cards of attacks record it
 * (`flags.furtive.attack = {attacker, targets}`, written by an active GM):
 * what a GM that became active after the attack knows of it (the
 * hand-over; the map above is one GM's memory). Read from the newest
 * message back, up to the last attack on the token.
 * @param {string} sceneId
 * @param {string} targetId
 * @returns {{attackerId: string, sceneId: string} | null}
 */
function lastAttackFromCards(sceneId, targetId) {
  const messages = game.messages?.contents ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    const flags = /** @type {any} */ (message).flags?.[MODULE_ID];
    if (flags?.kind !== "log" || !flags.gm || flags.sceneId !== sceneId || !flags.attack) continue;
    // Only a GM's card counts: a player may create a message with any flags
    // (`ChatMessage#author`, https://foundryvtt.com/api/v12/classes/client.ChatMessage.html).
    if (!(/** @type {any} */ (message).author?.isGM)) continue;
    const { attacker, targets } = flags.attack;
    if (typeof attacker === "string" && Array.isArray(targets) && targets.includes(targetId)) return { attackerId: attacker, sceneId };
  }
  return null;
}

/**
 * The token that speaks for an actor on the viewed scene: its own token
 * (synthetic actor), else a controlled token of it, else the first linked
 * token of it there.
 * @param {Actor | null} actor
 * @returns {TokenDocument | null}
 */
export function tokenOfActor(actor) {
  const scene = canvas?.scene;
  if (!actor || !scene) return null;
  const synthetic = /** @type {any} */ (actor).token;
  if (synthetic) return synthetic;
  const controlled = canvas.tokens?.controlled?.map((t) => t.document).find((d) => d.actorId === actor.id);
  return controlled ?? scene.tokens.find((d) => d.actorLink && d.actorId === actor.id) ?? null;
}

/**
 * The ids of the tokens this user targets on a scene (`game.user.targets`).
 * @param {Scene} scene
 * @returns {string[]}
 */
export function userTargetIds(scene) {
  const targets = [...(game.user?.targets ?? [])].map((token) => token.document).filter((d) => d?.parent?.id === scene.id);
  return [...new Set(targets.map((d) => /** @type {string} */ (d.id)))];
}

/** Roller side: the O10 answer of the last dnd5e attack pre hook, for the message it creates. */
let attackNote = /** @type {{actorId: string | null, tokenId: string | null, disadvantage: boolean, area: boolean} | null} */ (null);

/**
 * Roller side: the O10 note of the attack being rolled by this actor, once.
 * @param {string | null} actorId
 */
export function takeAttackNote(actorId) {
  const note = attackNote;
  attackNote = null;
  return note && note.actorId === actorId ? note : null;
}

/**
 * Roller side, in dnd5e's attack pre hook (synchronous): whether the attack
 * is rolled with disadvantage (O10). The rule is the engine's:
 * - on the active GM (the usual case: the GM rolls for NPCs), the engine's
 *   `attackHidden` query answers for each target that is hiding;
 * - on any other client, the engine's published lookup answers
 *   (`flags.furtive.hiddenFrom`: the hiders the attacker's token does not
 *   perceive, the same number-free data every client draws tokens from);
 *   the GM's card then states the engine's own answer (handleAttack).
 * Opposed ruleset only (O10); an area effect is never affected.
 * @param {import("./dnd5e.mjs").AttackHookContext} context
 */
export function decideDisadvantage({ actor, tokenId, area }) {
  const scene = canvas?.scene;
  const attacker = (tokenId ? scene?.tokens.get(tokenId) : null) ?? tokenOfActor(actor);
  attackNote = { actorId: actor?.id ?? null, tokenId: attacker?.id ?? null, disadvantage: false, area };
  if (!readSystemSettings().attacks || area || !scene || !attacker) return false;
  if (readSettings().ruleset !== "opposed") return false;
  const targets = userTargetIds(scene).filter((id) => id !== attacker.id);
  let disadvantage = false;
  if (isActiveGM()) {
    // The engine is asked only when a target is hiding (no session is built for a scene without stealth).
    const stored = sceneState(scene)?.state;
    const hiding = targets.filter((target) => stored?.hiders[target]?.phase === "hiding");
    try {
      if (hiding.length) {
        const { state, session } = sceneState(scene, "open");
        disadvantage = Boolean(state.creatures[/** @type {string} */ (attacker.id)]) && hiding.some((target) => session.attackHidden({ attacker: /** @type {string} */ (attacker.id), target, aimedAtSpace: true, area: false }).mode === "disadvantage");
      }
    } catch (error) {
      if (!(error instanceof FurtiveError)) throw error;
    }
  } else {
    const hiddenFrom = /** @type {Record<string, string[]>} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom) ?? {});
    const hidden = new Set((hiddenFrom[/** @type {string} */ (attacker.id)] ?? []).map(String));
    disadvantage = targets.some((target) => hidden.has(target));
  }
  attackNote.disadvantage = disadvantage;
  return disadvantage;
}

/**
 * @typedef {object} SystemAttack
 * @property {TokenDocument} attacker
 * @property {string[]} targetIds token ids, the attacker excluded
 * @property {boolean} area       the system says it is an area effect
 * @property {boolean | null} disadvantage the roll was made with disadvantage (dnd5e: the roll's own mode), null when unknown
 * @property {string} author      the user who rolled (name)
 */

/**
 * Active GM: an attack roll from the system becomes one engine attack (one
 * transaction, one GM card). Opposed: the O10 answer for each hiding target
 * joins the card; percentile: P6 surprises, P7 hit zone from the GM's dialog.
 * @param {Scene} scene
 * @param {SystemAttack} attack
 */
export async function handleAttack(scene, { attacker, targetIds, area, disadvantage, author }) {
  const settings = readSettings();
  const system = readSystemSettings();
  const attackerId = /** @type {string} */ (attacker.id);
  const targets = [...new Set(targetIds)].filter((id) => id !== attackerId && scene.tokens.get(id));
  if (!targets.length) return null;
  for (const target of targets) lastAttack.set(target, { attackerId, sceneId: /** @type {string} */ (scene.id) });
  // Nothing for the engine when no token of the attack is in a stealth attempt (no card for every attack of the game).
  const stored = sceneState(scene)?.state;
  if (!stored || (!stored.hiders[attackerId] && !targets.some((id) => stored.hiders[id]))) return null;
  const state = sceneState(scene, "open").state;
  const known = targets.filter((id) => state.creatures[id]);
  if (!known.length || !state.creatures[attackerId]) return null;
  const hiding = state.hiders[attackerId]?.phase === "hiding";
  let noisy = system.attackNoise === "noisy";
  let hits = 1;
  let aimedAtSpace = true;
  /** @type {string | null} */
  let hitZone = null;
  if (system.attackNoise === "ask" && hiding) {
    // O8 / P7: only the GM knows whether it was noisy or where it aims at.
    const names = known.map((id) => scene.tokens.get(id)?.name ?? "").join(", ");
    const values = /** @type {any} */ (await attackDialog({ attackerName: attacker.name ?? "", targetName: names, ruleset: settings.ruleset }));
    // Dismissed: the GM leaves this attack out of the stealth rules, as a cancelled Hide changes nothing.
    if (!values) return null;
    noisy = Boolean(values.noisy);
    hits = values.hits === undefined ? 1 : hitsOf(values.hits);
    area = area || Boolean(values.area);
    aimedAtSpace = values.aimedAtSpace === undefined ? true : Boolean(values.aimedAtSpace);
    hitZone = values.hitZone || null;
  }
  /** @type {LogEntry[]} */
  const notes = [];
  if (settings.ruleset === "opposed") {
    const { session } = sceneState(scene, "open");
    for (const target of known) {
      if (state.hiders[target]?.phase !== "hiding") continue;
      const answer = session.attackHidden({ attacker: attackerId, target, aimedAtSpace, area });
      if (answer.mode === "normal") continue;
      notes.push(/** @type {LogEntry} */ ({ clause: answer.clause, audience: "gm", en: answer.en, fr: answer.fr }));
      const name = scene.tokens.get(target)?.name ?? "";
      if (answer.mode === "miss") notes.push(gmNote(answer.clause, bilingual("FURTIVE.System.Miss", { attacker: attacker.name ?? "", target: name })));
      else if (disadvantage === false) notes.push(gmNote(answer.clause, bilingual("FURTIVE.System.DisadvantageMissing", { attacker: attacker.name ?? "", target: name, user: author })));
      else if (disadvantage === true) notes.push(gmNote(answer.clause, bilingual("FURTIVE.System.DisadvantageApplied", { attacker: attacker.name ?? "" })));
    }
  }
  /** @type {Record<string, any>} */
  const event = { type: "attack", attacker: attackerId, targets: known, noisy, hits, area };
  if (hitZone) event.hitZone = hitZone;
  // The card records the attack: a GM that becomes active later finds O11's attacker there.
  const cardFlags = { attack: { attacker: attackerId, targets: known } };
  return transact(scene, [/** @type {any} */ (event)], { notes, titleKey: "FURTIVE.Chat.Event.attack", titleData: { name: attacker.name ?? "" }, cardFlags });
}

/**
 * A GM-only note in both languages (i18n.mjs `bilingual`: from the lang files, whatever the poster's language).
 * @param {string} clause
 * @param {{en: string, fr: string}} text
 * @returns {LogEntry}
 */
function gmNote(clause, text) {
  return /** @type {LogEntry} */ ({ clause, audience: "gm", en: text.en, fr: text.fr });
}

/**
 * Active GM: an actor lost HP. Each of its tokens that is hiding gets
 * `damageTaken` from the attacker of the last attack on it (O11), one hit;
 * one transaction per scene. The scenes looked at: the token's own (an
 * unlinked token's actor), else the viewed scene and the scenes of recorded
 * attacks, so the GM need not view the scene. Damage with no known attacker
 * is told to the GM (nothing is sent: O11 needs the attacker's side).
 * @param {Actor} actor
 */
export async function onHpLost(actor) {
  if (!isActiveGM() || !readSystemSettings().damage) return;
  const synthetic = /** @type {any} */ (actor).token;
  const sceneIds = synthetic ? [synthetic.parent?.id] : [canvas?.scene?.id, ...[...lastAttack.values()].map((a) => a.sceneId)];
  for (const sceneId of new Set(sceneIds.filter(Boolean))) {
    const scene = game.scenes.get(sceneId);
    const state = scene ? sceneState(scene)?.state : null;
    if (!scene || !state) continue;
    /** @type {any[]} */
    const events = [];
    // The hiders of the scene (few), not its tokens: the cost follows the hiders.
    for (const [id, hider] of Object.entries(state.hiders)) {
      if (hider.phase !== "hiding") continue;
      const token = scene.tokens.get(id);
      if (!token || (synthetic ? token.id !== synthetic.id : !(token.actorLink && token.actorId === actor.id))) continue;
      const attacker = lastAttack.get(id) ?? lastAttackFromCards(/** @type {string} */ (scene.id), id);
      if (!attacker || attacker.sceneId !== scene.id || !state.creatures[attacker.attackerId]) {
        ui.notifications?.warn(t("FURTIVE.System.DamageNoAttacker", { name: token.name ?? "" }));
        continue;
      }
      events.push({ type: "damageTaken", target: id, attacker: attacker.attackerId, hits: 1 });
    }
    if (events.length) await transact(scene, events, { lenient: true }).catch(reportRefusal);
  }
}

/**
 * dnd5e `dnd5e.damageActor(actor, changes: {hp, temp, total}, update, userId)`:
 * raised on every client whenever HP goes down, by any means
 * (docs/dnd5e-automation.md §4).
 * @param {Actor} actor
 * @param {{hp?: number, temp?: number, total?: number}} changes
 */
function onDnd5eDamage(actor, changes) {
  const lost = Number(changes?.total ?? changes?.hp ?? 0);
  if (lost < 0) void onHpLost(actor);
}

/**
 * Generic systems, initiating client: the HP value before the update goes
 * into the update's options, which every client's `updateActor` receives.
 * @param {Actor} actor
 * @param {Record<string, any>} changed
 * @param {Record<string, any>} options
 */
function onPreUpdateActor(actor, changed, options) {
  const path = readSystemSettings().hpPath;
  if (!path || !foundry.utils.hasProperty(changed, path)) return;
  const before = Number(foundry.utils.getProperty(actor, path));
  if (Number.isFinite(before)) options[MODULE_ID] = { ...(options[MODULE_ID] ?? {}), hpBefore: before };
}

/**
 * Generic systems, every client: an HP decrease (configured path) on the active GM.
 * @param {Actor} actor
 * @param {Record<string, any>} changed
 * @param {Record<string, any>} options
 */
function onUpdateActor(actor, changed, options) {
  const path = readSystemSettings().hpPath;
  if (!isActiveGM() || !path || !foundry.utils.hasProperty(changed, path)) return;
  const after = Number(foundry.utils.getProperty(changed, path));
  const before = Number(options?.[MODULE_ID]?.hpBefore);
  if (Number.isFinite(after) && Number.isFinite(before) && after < before) void onHpLost(actor);
}

/**
 * Registers the attack and damage hooks: dnd5e's attack pre hook of the
 * running version (O10 disadvantage) and `dnd5e.damageActor`, or the
 * generic `preUpdateActor` / `updateActor` pair for other systems.
 */
export function registerSystemAttackHooks() {
  if (dnd5eGeneration()) {
    registerDnd5eAttackHooks(decideDisadvantage);
    Hooks.on("dnd5e.damageActor", onDnd5eDamage);
    return;
  }
  Hooks.on("preUpdateActor", onPreUpdateActor);
  Hooks.on("updateActor", onUpdateActor);
}


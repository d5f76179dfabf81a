/**
 * Worlds for the game-system tests: the dnd5e-shaped system of
 * ../systems/dnd5e.mjs with SRD actors read from the shared fixtures
 * (../shared/fixtures beside the repository, or FURTIVE_FIXTURES), and
 * helpers to roll from the sheet and click the module's cards.
 *
 * Layout (grid 100 px = 5 ft, the door of world-data.mjs closed): the hider
 * (Alice's Goblin) at (200,400) west of the wall; Bob's observer at
 * (800,400) and three unlinked NPC Guards at (700,300), (700,600),
 * (800,800), east: none has clear view of the hider until the door opens.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { readsInFlight } from "../node/harness.mjs";
import { PRESETS } from "../../../foundry-module/scripts/systems/presets.mjs";
import { dnd5eSystem, srdActor } from "../systems/dnd5e.mjs";
import { ALICE, BOB, GM, SCENE, clickDialogButton, setup, until } from "./world.mjs";

const REPO = new URL("../../../", import.meta.url);
const FIXTURES = process.env.FURTIVE_FIXTURES ? pathToFileURL(`${process.env.FURTIVE_FIXTURES.replace(/\/$/, "")}/`) : new URL("../shared/fixtures/", REPO);

/** An SRD actor document from a fixture file, by name. */
export function fixtureActor(file, name) {
  const actors = JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8"));
  const actor = actors.find((a) => a.name === name);
  if (!actor) throw new Error(`no ${name} in ${file}`);
  return actor;
}

export const IDS = {
  hiderActor: "actorHider000001",
  observerActor: "actorObserver001",
  guardActor: "actorGuard000001",
  hider: "tokenHider000001",
  observer: "tokenObserver001",
  guards: ["tokenGuardA00001", "tokenGuardB00001", "tokenGuardC00001"],
  bow: "itemShortbow0001",
  spear: "itemSpear0000001",
  longbow: "itemLongbow00001",
  fireball: "itemFireball0001",
  flameRay: "itemFlameRay0001",
};

/**
 * The hider's spells, one activity each (`system.activities[id] = {_id, type,
 * target: {template}}`, release-4.4.4 and release-5.3.3
 * module/data/shared/target-field.mjs): Fireball (a Dexterity save in a 20 ft
 * sphere, no attack roll) and Flame Ray (a made-up spell with an attack roll AND a
 * line area).
 */
function spells() {
  const spell = (id, name, system) => ({ _id: id, name, type: "spell", system, effects: [], flags: {} });
  const activity = (id, type, template) => ({ [id]: { _id: id, type, target: { template: { type: template, size: "20", units: "ft" }, affects: { type: "creature" } } } });
  return [spell(IDS.fireball, "Fireball", { activities: activity("fireballSave0001", "save", "sphere") }), spell(IDS.flameRay, "Flame Ray", { activities: activity("flameRayAttack01", "attack", "line") })];
}

/**
 * The supported pairings a GM can run (`system.json` compatibility per tag,
 * docs/dnd5e-automation.md): each fake generation's dnd5e version and the
 * Foundry generation of the world.
 */
export const GENERATIONS = {
  4.4: { version: "4.4.4", foundry: 13 },
  5.2: { version: "5.2.5", foundry: 13 },
  5.3: { version: "5.3.3", foundry: 14 },
  "6.0": { version: "6.0.0", foundry: 14 },
  // A system without a roll API, read through the generic preset's attribute paths.
  generic: { version: null, foundry: 14 },
};

/** The system script of a generation for `createClient({system})` (none for the generic system). */
export function systemOf(generation) {
  return generation === "generic" ? undefined : dnd5eSystem({ generation });
}

/**
 * The generic system's actors: Simple Worldbuilding-style attributes
 * (`system.attributes.<key>.value`, the generic preset of
 * foundry-module/scripts/systems/presets.mjs), with the SRD 5.2 creatures'
 * Stealth, Perception, darkvision and HP.
 */
function genericActors() {
  const actor = (id, name, ownership, { stealth, perception, darkvision = 0, hp }, items) => ({
    _id: id,
    name,
    type: "character",
    ownership,
    system: { attributes: { stealth: { value: stealth }, perception: { value: perception }, attack: { value: 4 }, senses: { darkvision, blindsight: 0 }, hp: { value: hp, max: hp } } },
    items,
    effects: [],
    flags: {},
  });
  const weapon = (id, name) => ({ _id: id, name, type: "weapon", system: {}, effects: [], flags: {} });
  return [
    actor(IDS.hiderActor, "Goblin Warrior", { default: 0, [ALICE]: 3 }, { stealth: 6, perception: -1, darkvision: 60, hp: 7 }, [weapon(IDS.bow, "Shortbow")]),
    actor(IDS.observerActor, "Spy", { default: 0, [BOB]: 3 }, { stealth: 6, perception: 6, hp: 16 }, [weapon(IDS.longbow, "Longbow")]),
    actor(IDS.guardActor, "Guard", { default: 0 }, { stealth: 1, perception: 2, hp: 11 }, [weapon(IDS.spear, "Spear")]),
  ];
}

/**
 * The settings of a generic world: the generic preset's attribute paths with
 * the opposed ruleset, and how its sheet rolls are recognised (a flag on the
 * roll message, `systemStealthMatch` etc., systems/automation-settings.mjs).
 */
const GENERIC_SETTINGS = {
  preset: "generic",
  stealthFormula: "1d20 + @attributes.stealth.value",
  perceptionFormula: "1d20 + @attributes.perception.value",
  enhancedSenses: "blindsight=system.attributes.senses.blindsight:targeting",
  // What sees in darkness (B5), as the dnd5e preset lists darkvision and blindsight.
  darkvisionPath: "system.attributes.senses.darkvision, system.attributes.senses.blindsight",
  systemStealthMatch: "flags.generic.roll=stealth",
  systemPerceptionMatch: "flags.generic.roll=perception",
  systemAttackMatch: "flags.generic.roll=attack",
};

/**
 * SRD 5.2 (Goblin Warrior, Spy, Guard), served in the generation's data shape.
 * @param {"4.4" | "5.2" | "5.3" | "6.0"} generation
 */
function actorsFor(generation) {
  const file = "dnd5e-srd52-monsters.json";
  const weapon = (id, name, actionType) => ({ _id: id, name, type: "weapon", system: { actionType }, effects: [], flags: {} });
  return [
    srdActor(fixtureActor(file, "Goblin Warrior"), { id: IDS.hiderActor, ownership: { default: 0, [ALICE]: 3 }, hp: 7, items: [weapon(IDS.bow, "Shortbow", "rwak"), ...spells()], generation }),
    srdActor(fixtureActor(file, "Spy"), { id: IDS.observerActor, ownership: { default: 0, [BOB]: 3 }, hp: 16, items: [weapon(IDS.longbow, "Longbow", "rwak")], generation }),
    srdActor(fixtureActor(file, "Guard"), { id: IDS.guardActor, ownership: { default: 0 }, hp: 11, items: [weapon(IDS.spear, "Spear", "mwak")], generation }),
  ];
}

/**
 * Starts a dnd5e world of one hook generation: GM, Alice, Bob. Every client
 * also runs `ADVANTAGE_MODULE`, a module loaded before Furtive that grants
 * advantage to the next attack when a test asks for it.
 * @param {{generation: "4.4" | "5.2" | "5.3" | "6.0", ruleset?: "opposed" | "percentile", settings?: Record<string, unknown>, edit?: (world: any) => void}} options
 *   `edit` changes the world data further (users, for one)
 */
export async function dnd5eWorld({ generation, ruleset = "opposed", settings = {}, edit, lang = {} }) {
  const { version, foundry } = GENERATIONS[generation];
  const generic = generation === "generic";
  const env = await setup({
    ruleset,
    lang,
    version: foundry,
    users: [GM, ALICE, BOB],
    system: generic
      ? undefined
      : (ctx) => {
          dnd5eSystem({ generation })(ctx);
          ADVANTAGE_MODULE(ctx);
        },
    // dnd5e: the preset's enhanced senses, which read 5.3's `senses.ranges` and the older `senses`.
    settings: { systemOfferChecks: true, ...(generic ? GENERIC_SETTINGS : { enhancedSenses: PRESETS.dnd5e.enhancedSenses }), ...settings },
    world: (w) => {
      w.system = generic ? { id: "worldbuilding", version: "0.8.2" } : { id: "dnd5e", version };
      w.actors = generic ? genericActors() : actorsFor(generation);
      const scene = w.scenes[0];
      const token = (id, name, actorId, x, y, { link = true, disposition = 1 } = {}) => ({ _id: id, name, actorId, actorLink: link, x, y, width: 1, height: 1, disposition, hidden: false, sight: { enabled: true, range: 60 }, detectionModes: [], delta: { effects: [] }, flags: {} });
      scene.tokens = [
        token(IDS.hider, "Sneak", IDS.hiderActor, 200, 400),
        token(IDS.observer, "Lookout", IDS.observerActor, 800, 400),
        token(IDS.guards[0], "Guard A", IDS.guardActor, 700, 300, { link: false, disposition: -1 }),
        token(IDS.guards[1], "Guard B", IDS.guardActor, 700, 600, { link: false, disposition: -1 }),
        token(IDS.guards[2], "Guard C", IDS.guardActor, 800, 800, { link: false, disposition: -1 }),
      ];
      edit?.(w);
    },
  });
  return { ...env, generation };
}

/**
 * Another module's attack pre hook, registered before Furtive's (modules
 * that grant advantage, such as the Help action, set it there): after
 * `grantAdvantage(client)`, that client's next attack roll has advantage
 * (`config.rolls[0].options.advantage`).
 */
function ADVANTAGE_MODULE(ctx) {
  ctx.Hooks.on("dnd5e.preRollAttackV2", (config) => {
    if (!ctx.global.advantageNext) return;
    ctx.global.advantageNext = false;
    config.rolls[0].options.advantage = true;
  });
}

/** The next attack rolled on a client has advantage (see ADVANTAGE_MODULE). */
export function grantAdvantage(client) {
  client.ctx.global.advantageNext = true;
}

/** The GM's stored state of the scene (plain data). */
export function gmState(env) {
  const state = env.gm.ctx.game.modules.get("furtive").api.getState();
  return state ? JSON.parse(JSON.stringify(state)) : null;
}

/** A client's actor (base) by id. */
export function actorOn(client, actorId) {
  return client.ctx.game.actors.get(actorId);
}

/** A client's token document by id. */
export function tokenOn(client, tokenId) {
  return client.ctx.game.scenes.get(SCENE).tokens.get(tokenId);
}

/**
 * Rolls a skill from the sheet, Shift held: dnd5e `Actor5e#rollSkill({skill, event})` (4.1 to
 * 6.0); the generic system, a roll of the attribute posted with its flag.
 */
export async function rollSkill(env, client, actorId, skill) {
  const actor = actorOn(client, actorId);
  // A Shift-click on the sheet: dnd5e's fast-forward key (skipDialogNormal), no roll dialog.
  if (env.generation !== "generic") return actor.rollSkill({ skill, event: new client.window.MouseEvent("click", { shiftKey: true }) });
  const key = skill === "ste" ? "stealth" : "perception";
  const roll = await new client.ctx.Roll(`1d20 + @attributes.${key}.value`, actor.getRollData()).evaluate();
  await roll.toMessage({ speaker: client.ctx.ChatMessage.getSpeaker({ actor }), flags: { generic: { roll: key } } });
  return [roll];
}

/** Rolls an attack from the sheet: the item's attack activity (dnd5e), a flagged roll (generic). Returns the roll. */
export async function rollAttack(env, client, actor, itemId) {
  if (env.generation === "generic") {
    const roll = await new client.ctx.Roll("1d20 + @attributes.attack.value", actor.getRollData()).evaluate();
    await roll.toMessage({ speaker: client.ctx.ChatMessage.getSpeaker({ actor: actor.token ? null : actor, token: actor.token ?? null }), flags: { generic: { roll: "attack", item: itemId } } });
    return roll;
  }
  const item = actor.items.get(itemId);
  const rolls = await item.system.activities.contents[0].rollAttack({}, { configure: false }, {});
  return rolls?.[0] ?? null;
}

/** A sheet skill's bonus (the d20 excluded): dnd5e's derived total, the generic attribute. */
export function skillBonus(env, client, actorId, skill) {
  const data = actorOn(client, actorId).getRollData();
  if (env.generation === "generic") return data.attributes[skill === "ste" ? "stealth" : "perception"].value;
  return data.skills[skill].total;
}

/** Whether a message is a sheet roll of that skill. */
export function isSkillRoll(env, message, skill) {
  if (env.generation === "generic") return message.flags?.generic?.roll === (skill === "ste" ? "stealth" : "perception");
  return message.flags?.dnd5e?.roll?.skillId === skill;
}

/** An actor loses HP: dnd5e `Actor5e#applyDamage`, the generic system an update of its HP. */
export async function damageActor(env, actor, amount) {
  if (env.generation !== "generic") return actor.applyDamage(amount);
  return actor.update({ "system.attributes.hp.value": actor.system.attributes.hp.value - amount });
}

/** Where an actor's blindsight is: dnd5e 5.3+ `senses.ranges`, before it `senses`; the generic preset's path. */
export function blindsightPath(env) {
  if (env.generation === "generic") return "system.attributes.senses.blindsight";
  return Number(env.generation) >= 5.3 ? "system.attributes.senses.ranges.blindsight" : "system.attributes.senses.blindsight";
}

/**
 * Casts a spell from the sheet, Shift held: the spell's activity `use` (an attack activity
 * rolls its attack on its own after the card, with the click, so without its roll dialog).
 */
export async function castSpell(env, client, actor, itemId) {
  const item = actor.items.get(itemId);
  return item.system.activities.contents[0].use({ event: new client.window.MouseEvent("click", { shiftKey: true }) }, { configure: false }, {});
}

/** Targets tokens on a client (`Token#setTarget`), releasing the others. */
export function target(client, tokenIds) {
  const tokens = client.ctx.canvas.tokens;
  for (const t of [...client.ctx.game.user.targets]) t.setTarget(false, { releaseOthers: false });
  for (const id of tokenIds) tokens.get(id).setTarget(true, { releaseOthers: false });
}

/**
 * Lets the world settle: the server idle, no file read in flight and no new
 * chat message on any client for a few rounds (a card is posted after a
 * template file is read, which the server does not see).
 */
export async function settle(env) {
  const count = () => Object.values(env.clients).reduce((sum, client) => sum + client.ctx.game.messages.size, 0);
  let last = -1;
  let quiet = 0;
  while (quiet < 3) {
    await env.server.idle();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = count();
    quiet = now === last && readsInFlight() === 0 ? quiet + 1 : 0;
    last = now;
  }
}

/** Waits for the GM's state to satisfy a predicate, then for the world to settle. */
export async function untilState(env, predicate, what) {
  await until(() => {
    const state = gmState(env);
    return Boolean(state && predicate(state));
  }, what);
  await settle(env);
  return gmState(env);
}

/** The module's own messages a client holds (`flags.furtive.kind`), as plain data. */
export function moduleMessages(client) {
  return client.ctx.game.messages.contents.filter((m) => m.flags?.furtive?.kind).map((m) => JSON.parse(JSON.stringify(m._source)));
}

/** Clicks a button of a rendered chat card on a client, with the modifier keys given (`{shiftKey: true}`). */
export function clickCardButton(client, action, keys = {}) {
  const buttons = client.window.document.querySelectorAll(`#chat-log [data-furtive-action="${action}"]`);
  const button = buttons[buttons.length - 1];
  if (!button) throw new Error(`no ${action} button in ${client.userId}'s chat log`);
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true, cancelable: true, ...keys }));
}

/**
 * Answers dnd5e's roll configuration dialog on a client (the fake system's, ../systems/dnd5e.mjs):
 * `action` "advantage", "normal" or "disadvantage", or null to close it without rolling.
 * @returns {Promise<string | null>} the message mode the dialog shows
 */
export async function answerRollDialog(client, action) {
  let dialog = null;
  await until(() => (dialog = client.ctx.dialogs.find((d) => d.element?.querySelector(".dnd5e-roll-configuration"))), `dnd5e's roll dialog on ${client.userId}`);
  const mode = dialog.element.querySelector(".roll-mode")?.textContent ?? null;
  if (action === null) await dialog.close();
  else clickDialogButton(client, dialog, action);
  return mode;
}

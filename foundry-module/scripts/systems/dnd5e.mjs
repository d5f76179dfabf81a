/**
 * The dnd5e system as Furtive reads it (docs/dnd5e-automation.md): which
 * dnd5e it is, what a dnd5e roll message is, how to impose disadvantage on an
 * attack (O10), and how to roll a Perception check from the sheet. No rule is
 * decided here: the O10 answer comes from the caller (systems/attacks.mjs),
 * and every roll goes to the active GM as a chat message.
 *
 * Supported: dnd5e 4.4 and 5.0 to 5.3 on Foundry 13, 5.3 and 6.x on Foundry 14
 * (`system.json` compatibility at release-4.4.4, release-5.2.5, release-5.3.3
 * and the 6.0 branch, docs/dnd5e-automation.md). From 4.1 to 6.0 they share the
 * forms the module uses: `Actor5e#rollSkill({skill}, dialog, message)`, the
 * `dnd5e.preRollAttackV2(config, dialog, message)` hook (5.0+ also calls it
 * under the plain name, release-5.0.4 module/dice/basic-roll.mjs L147-149), the
 * roll messages' `flags.dnd5e = {messageType: "roll", roll: {type, skillId}}`;
 * the usage card changed in 5.3 ({@link dnd5eIsUsageCard}). A dnd5e older than
 * 4.1 is read as any other system.
 *
 * Foundry API: `foundry.utils.isNewerVersion(v1, v0)`
 * (https://foundryvtt.com/api/functions/foundry.utils.isNewerVersion.html), `Hooks.on`.
 */

/** @typedef {"4.1"} Dnd5eGeneration */

/**
 * The dnd5e generation of the running system: "4.1" for dnd5e 4.1 and later,
 * null when the system is not dnd5e or is older.
 * @returns {Dnd5eGeneration | null}
 */
export function dnd5eGeneration() {
  if (game.system?.id !== "dnd5e") return null;
  return foundry.utils.isNewerVersion(String(game.system.version ?? "0"), "4.0.99") ? "4.1" : null;
}

/**
 * The running dnd5e's version when it is older than the oldest Furtive
 * supports (4.4; docs/dnd5e-automation.md, "Supported versions"), else null
 * (not dnd5e, or supported). dnd5e 4.1 to 4.3 share 4.4's forms; before 4.1
 * the module reads dnd5e as any other system.
 * @returns {string | null}
 */
export function unsupportedDnd5eVersion() {
  if (game.system?.id !== "dnd5e") return null;
  const version = String(game.system.version ?? "0");
  return foundry.utils.isNewerVersion(version, "4.3.99") ? null : version;
}

/**
 * dnd5e's skill id for a Furtive roll type (`CONFIG.DND5E.skills` keys).
 * @type {Record<string, "stealth" | "perception">}
 */
const SKILLS = { ste: "stealth", prc: "perception" };

/**
 * What a dnd5e chat message is, from its flags (docs/dnd5e-automation.md §6,
 * the same `flags.dnd5e.roll = {type, skillId}` from 4.1 to 6.0:
 * module/documents/actor/actor.mjs `#rollSkillTool`, activity/attack.mjs
 * `rollAttack` at each tag): `stealth` / `perception` for a Stealth or
 * Perception skill roll, `attack` for an attack roll, else null.
 * @param {ChatMessage} message
 * @returns {"stealth" | "perception" | "attack" | null}
 */
export function dnd5eRollType(message) {
  const roll = /** @type {any} */ (message.flags)?.dnd5e?.roll;
  if (!roll || typeof roll !== "object") return null;
  if (roll.type === "skill") return SKILLS[String(roll.skillId)] ?? null;
  if (roll.type === "attack") return "attack";
  return null;
}

/**
 * Whether a dnd5e roll (a message's roll, as the GM received it) was rolled
 * with disadvantage: `D20Roll#options.advantageMode` is
 * `D20Roll.ADV_MODE.DISADVANTAGE` (-1), the mode the roll was actually made
 * in after the roller's dialog or modifier keys (`D20Roll.applyKeybindings`,
 * release-4.4.4 and release-5.3.3 module/dice/d20-roll.mjs; docs/dnd5e-automation.md §2).
 * Null when the roll carries no mode.
 * Foundry API: `Roll#options` is saved with the roll (`Roll#toJSON`,
 * https://foundryvtt.com/api/classes/foundry.dice.Roll.html).
 * @param {any} roll
 * @returns {boolean | null}
 */
export function dnd5eRolledWithDisadvantage(roll) {
  const mode = roll?.options?.advantageMode;
  if (typeof mode !== "number" || !Number.isFinite(mode)) return null;
  return mode === -1;
}

/**
 * Whether an activity covers an area (O8, O10: an area effect counts once and
 * is not rolled with disadvantage): `activity.target.template.type` is a key
 * of `CONFIG.DND5E.areaTargetTypes` (module/data/shared/target-field.mjs at
 * release-4.4.4 and release-5.3.3; docs/dnd5e-automation.md §3).
 * @param {any} source the activity
 */
export function isAreaAttack(source) {
  if (!source) return false;
  const type = source.target?.template?.type;
  const areas = /** @type {any} */ (CONFIG).DND5E?.areaTargetTypes ?? {};
  return Boolean(type && type in areas);
}

/**
 * Whether a dnd5e attack roll message comes from an area effect, read from
 * the attacking actor's own item (not from anything the roller's client
 * wrote): `flags.dnd5e.item.id` and `flags.dnd5e.activity.id` (the activity's
 * `messageFlags`, docs/dnd5e-automation.md §2), then {@link isAreaAttack}.
 * False when the item or activity is gone.
 * @param {ChatMessage} message
 * @param {Actor | null} actor the acting token's actor
 */
export function dnd5eAttackArea(message, actor) {
  const flags = /** @type {any} */ (message.flags)?.dnd5e ?? {};
  const items = /** @type {any} */ (actor)?.items;
  if (!items) return false;
  const item = items.get(String(flags.item?.id ?? ""));
  return isAreaAttack(item?.system?.activities?.get?.(String(flags.activity?.id ?? "")) ?? null);
}

/**
 * Whether a dnd5e chat message is a usage card (an activity used): up to 5.2
 * `flags.dnd5e.messageType === "usage"` (release-4.4.4
 * module/documents/activity/mixin.mjs L236, release-5.2.5 L203-204); from 5.3
 * a ChatMessage of `type: "usage"` whose flags carry no `messageType`
 * (release-5.3.3 mixin.mjs L787-800; module/migration.mjs L750-752 moves the
 * older cards to the type). Either form is a usage card, so a world moved to
 * 5.3 reads its old cards too.
 * @param {ChatMessage} message
 */
export function dnd5eIsUsageCard(message) {
  if (/** @type {any} */ (message).type === "usage") return true;
  const flags = /** @type {any} */ (message.flags)?.dnd5e;
  return Boolean(flags && typeof flags === "object" && flags.messageType === "usage");
}

/**
 * Whether a dnd5e usage card is an area effect that is an attack with no
 * attack roll of its own (O8: the area counts once; one with an attack roll
 * counts through its attack roll message, {@link dnd5eAttackArea}), read from
 * the acting actor's own item, not from anything the roller's client wrote:
 * the activity `flags.dnd5e.activity.id` of the item `flags.dnd5e.item.id`
 * (the activity's `messageFlags` in every version, release-5.3.3
 * module/documents/activity/mixin.mjs L136-142) is a `save` or `damage`
 * activity whose `target.template.type` is an area type ({@link isAreaAttack});
 * an `attack` activity rolls its attack on its own after the card
 * (release-4.4.4 module/documents/activity/attack.mjs L64-66).
 * A utility or healing use (Fog Cloud, Mass Cure Wounds) is no attack. False
 * when the item or activity is gone (a used-up consumable).
 * @param {ChatMessage} message
 * @param {Actor | null} actor the acting token's actor
 */
export function dnd5eAreaUse(message, actor) {
  if (!dnd5eIsUsageCard(message)) return false;
  const flags = /** @type {any} */ (message.flags)?.dnd5e;
  const items = /** @type {any} */ (actor)?.items;
  if (!items) return false;
  const item = items.get(String(flags?.item?.id ?? ""));
  const activity = item?.system?.activities?.get?.(String(flags?.activity?.id ?? ""));
  return Boolean(activity && (activity.type === "save" || activity.type === "damage") && isAreaAttack(activity));
}

/**
 * @typedef {object} AttackHookContext
 * @property {Actor | null} actor      the attacking actor
 * @property {string | null} tokenId   the speaker token id, when the message data names one
 * @property {boolean} area
 * @property {boolean} advantage       the roll already has advantage
 */

/**
 * Registers the dnd5e attack pre hook on this client (the roll hooks fire
 * only on the roller's client). `decide` returns whether the attack must be
 * rolled with disadvantage (O10, decided by the caller), and the hook sets
 * `config.rolls[0].options.disadvantage` in `dnd5e.preRollAttackV2(config,
 * dialog, message)` (4.1 to 6.0: release-4.4.4 module/dice/basic-roll.mjs
 * L147-148, release-5.3.3 L103, c83a613dd L103; docs/dnd5e-automation.md §2);
 * advantage and disadvantage then cancel (`D20Roll.applyKeybindings`). Only
 * the V2 name: 5.0+ calls the plain name too, with the same arguments, and a
 * listener on both would run twice. Listeners return undefined: `false` would
 * cancel the roll (`Hooks.call`).
 * @param {(context: AttackHookContext) => boolean} decide
 */
export function registerDnd5eAttackHooks(decide) {
  if (!dnd5eGeneration()) return;
  Hooks.on("dnd5e.preRollAttackV2", (/** @type {any} */ config, /** @type {any} */ _dialog, /** @type {any} */ message) => {
    const activity = config?.subject ?? null;
    config.rolls ??= [{}];
    config.rolls[0] ??= {};
    const options = (config.rolls[0].options ??= {});
    const advantage = Boolean(options.advantage || config.advantage);
    if (!decide({ actor: activity?.actor ?? null, tokenId: message?.data?.speaker?.token ?? null, area: isAreaAttack(activity), advantage })) return;
    options.disadvantage = true;
  });
}

/**
 * Rolls a Perception check from the actor's sheet (B4: dnd5e's own roll, so
 * its dialog, roll modes and 3D dice work as usual):
 * `actor.rollSkill({skill: "prc", event})` (4.1 to 6.0, release-5.3.3
 * module/documents/actor/actor.mjs L1209).
 * @param {Actor} actor
 * @param {Event} [event] the click, for dnd5e's fast-forward keys
 * @returns {Promise<unknown>}
 */
export function rollDnd5ePerception(actor, event) {
  return /** @type {any} */ (actor).rollSkill({ skill: "prc", event });
}

/**
 * A dnd5e sense range in the scene's units. dnd5e states senses in the
 * actor's `system.attributes.senses.units` (derived to the world's default
 * length unit when unset, release-5.3.3 module/data/actor/npc.mjs L407; the
 * ranges themselves under `senses.ranges` from 5.3, module/data/shared/senses-field.mjs)
 * and converts lengths with `CONFIG.DND5E.movementUnits[unit].conversion`, feet
 * per unit (`ft` 1, `m` 10/3: "D&D uses a simplified 5ft -> 1.5m conversion",
 * release-5.3.3 module/config.mjs `DND5E.movementUnits`, the same table in
 * release-4.4.4). So darkvision 18 m on a grid in feet is 60 ft. Unchanged when
 * either unit is unknown; rounded to 0.01 like the module's distances.
 * @param {Actor | null} actor
 * @param {number} range in the actor's sense units
 * @param {string | undefined} units the scene's (`Scene#grid.units`)
 * @returns {number}
 */
export function dnd5eSenseInUnits(actor, range, units) {
  const from = /** @type {any} */ (actor)?.system?.attributes?.senses?.units;
  const table = /** @type {any} */ (CONFIG).DND5E?.movementUnits ?? {};
  const a = Number(table[from]?.conversion);
  const b = Number(table[String(units ?? "")]?.conversion);
  if (!from || from === units || !(a > 0) || !(b > 0) || !Number.isFinite(range)) return range;
  return Math.round(((range * a) / b) * 100) / 100;
}

/**
 * The dnd5e system as Furtive reads it (docs/dnd5e-automation.md): which
 * hook shapes the running version has, what a dnd5e roll message is, how to
 * impose disadvantage on an attack (O10), and how to roll a Perception check
 * from the sheet. No rule is decided here: the O10 answer comes from the
 * caller (systems/attacks.mjs), and every roll goes to the active GM as a chat
 * message.
 *
 * Versions (`game.system.version`, docs/dnd5e-automation.md table):
 * - `"3"` (3.x): `dnd5e.preRollAttack(item, rollConfig)`, `Actor5e#rollSkill(skillId, options)`;
 * - `"4.0"` (4.0.x hybrid): skills as 3.x, `dnd5e.preRollAttackV2(config, dialog, message)`;
 * - `"4.1"` (4.1 to 4.4): `Actor5e#rollSkill({skill}, dialog, message)`, `dnd5e.preRollAttackV2`.
 * Only the hooks of the running version are registered (the deprecated 3.x
 * names log warnings in 4.x, and a `dnd5e.rollAttack` listener breaks 4.0.0).
 *
 * Foundry API: `foundry.utils.isNewerVersion(v1, v0)`
 * (https://foundryvtt.com/api/functions/foundry.utils.isNewerVersion.html), `Hooks.on`.
 */

/** @typedef {"3" | "4.0" | "4.1"} Dnd5eGeneration */

/**
 * The dnd5e hook generation of the running system, or null when the system is not dnd5e.
 * @returns {Dnd5eGeneration | null}
 */
export function dnd5eGeneration() {
  if (game.system?.id !== "dnd5e") return null;
  const version = String(game.system.version ?? "0");
  const newer = (/** @type {string} */ than) => foundry.utils.isNewerVersion(version, than);
  if (newer("4.0.99")) return "4.1";
  if (newer("3.99.99")) return "4.0";
  return "3";
}

/**
 * dnd5e's skill id for a Furtive roll type (`CONFIG.DND5E.skills` keys).
 * @type {Record<string, "stealth" | "perception">}
 */
const SKILLS = { ste: "stealth", prc: "perception" };

/**
 * What a dnd5e chat message is, from its flags (docs/dnd5e-automation.md §6,
 * same reading for 3.x and 4.x): `stealth` / `perception` for a Stealth or
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
 * in after the roller's dialog or modifier keys (3.x
 * `D20Roll.determineAdvantageMode`, 4.1+ `D20Roll.applyKeybindings`;
 * docs/dnd5e-automation.md §2). Null when the roll carries no mode.
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
 * Whether an attack item (3.x) or activity (4.x) covers an area (O8, O10:
 * an area effect counts once and is not rolled with disadvantage).
 * 3.x: `Item5e#hasAreaTarget`; 4.x: `activity.target.template.type` is a key
 * of `CONFIG.DND5E.areaTargetTypes` (docs/dnd5e-automation.md §3).
 * @param {any} source the Item5e (3.x) or the AttackActivity (4.x)
 */
export function isAreaAttack(source) {
  if (!source) return false;
  if (typeof source.hasAreaTarget === "boolean") return source.hasAreaTarget;
  const type = source.target?.template?.type;
  const areas = /** @type {any} */ (CONFIG).DND5E?.areaTargetTypes ?? {};
  return Boolean(type && type in areas);
}

/**
 * Whether a dnd5e attack roll message comes from an area effect, read from
 * the attacking actor's own item (not from anything the roller's client
 * wrote): 3.x `flags.dnd5e.roll.itemId` (Item5e#rollAttack's message flags);
 * 4.x `flags.dnd5e.item.id` and `flags.dnd5e.activity.id` (the activity's
 * `messageFlags`, docs/dnd5e-automation.md §2), then {@link isAreaAttack}.
 * False when the item or activity is gone.
 * @param {ChatMessage} message
 * @param {Actor | null} actor the acting token's actor
 */
export function dnd5eAttackArea(message, actor) {
  const flags = /** @type {any} */ (message.flags)?.dnd5e ?? {};
  const items = /** @type {any} */ (actor)?.items;
  if (!items) return false;
  if (dnd5eGeneration() === "3") return isAreaAttack(items.get(String(flags.roll?.itemId ?? "")) ?? null);
  const item = items.get(String(flags.item?.id ?? ""));
  return isAreaAttack(item?.system?.activities?.get?.(String(flags.activity?.id ?? "")) ?? null);
}

/**
 * Whether a dnd5e chat message is a usage card (an item or activity used),
 * from its flags: 3.x `flags.dnd5e.use = {type, itemId, itemUuid}`
 * (release-3.3.1 module/documents/item.mjs L936-940, `Item5e#use` into
 * `displayCard`); 4.x `flags.dnd5e.messageType === "usage"` (release-4.0.4
 * module/documents/activity/mixin.mjs L195, release-4.4.4 L236). 4.x usage
 * cards carry `use` too, so the test goes by generation.
 * @param {ChatMessage} message
 */
export function dnd5eIsUsageCard(message) {
  const flags = /** @type {any} */ (message.flags)?.dnd5e;
  if (!flags || typeof flags !== "object") return false;
  if (dnd5eGeneration() === "3") return Boolean(flags.use && typeof flags.use === "object" && flags.use.itemId);
  return flags.messageType === "usage";
}

/**
 * Whether a dnd5e usage card is an area effect that is an attack with no
 * attack roll of its own (O8: the area counts once; one with an attack roll
 * counts through its attack roll message, {@link dnd5eAttackArea}), read from
 * the acting actor's own item, not from anything the roller's client wrote:
 * - 3.x: the item `flags.dnd5e.use.itemId` has `hasAreaTarget`, no
 *   `hasAttack`, and `hasSave` or `hasDamage` (release-3.3.1
 *   module/data/item/templates/action.mjs L208-230, activated-effect.mjs L323);
 * - 4.x: the activity `flags.dnd5e.activity.id` of the item
 *   `flags.dnd5e.item.id` is a `save` or `damage` activity whose
 *   `target.template.type` is an area type ({@link isAreaAttack}); an `attack`
 *   activity rolls its attack (4.1+ on its own after the card,
 *   release-4.4.4 module/documents/activity/attack.mjs L64-66).
 * A utility or healing use (Fog Cloud, Mass Cure Wounds) is no attack. False
 * when the item or activity is gone (a used-up consumable).
 * @param {ChatMessage} message
 * @param {Actor | null} actor the acting token's actor
 */
export function dnd5eAreaUse(message, actor) {
  if (!dnd5eIsUsageCard(message)) return false;
  const flags = /** @type {any} */ (message.flags).dnd5e;
  const items = /** @type {any} */ (actor)?.items;
  if (!items) return false;
  if (dnd5eGeneration() === "3") {
    const item = items.get(String(flags.use.itemId));
    return Boolean(item && item.hasAreaTarget && !item.hasAttack && (item.hasSave || item.hasDamage));
  }
  const item = items.get(String(flags.item?.id ?? ""));
  const activity = item?.system?.activities?.get?.(String(flags.activity?.id ?? ""));
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
 * Registers the dnd5e attack pre hooks of the running version on this
 * client (the roll hooks fire only on the roller's client). `decide` returns
 * whether the attack must be rolled with disadvantage (O10, decided by the
 * caller), and the hook sets it the way the version expects
 * (docs/dnd5e-automation.md §2):
 * - 3.x `dnd5e.preRollAttack(item, rollConfig)`: `rollConfig.disadvantage`;
 *   advantage wins there, so advantage and disadvantage cancel to a normal roll;
 * - 4.x `dnd5e.preRollAttackV2(config, dialog, message)`:
 *   `config.rolls[0].options.disadvantage` (4.0.x converts it, 4.1+ reads it;
 *   4.0.x gives advantage precedence too, so both are cleared there).
 * Listeners return undefined: `false` would cancel the roll (`Hooks.call`).
 * @param {(context: AttackHookContext) => boolean} decide
 */
export function registerDnd5eAttackHooks(decide) {
  const generation = dnd5eGeneration();
  if (!generation) return;
  if (generation === "3") {
    Hooks.on("dnd5e.preRollAttack", (/** @type {any} */ item, /** @type {any} */ config) => {
      const speaker = config?.messageData?.speaker ?? {};
      const advantage = Boolean(config?.advantage);
      if (!decide({ actor: item?.actor ?? config?.actor ?? null, tokenId: speaker.token ?? null, area: isAreaAttack(item), advantage })) return;
      if (advantage) config.advantage = false;
      else config.disadvantage = true;
    });
    return;
  }
  Hooks.on("dnd5e.preRollAttackV2", (/** @type {any} */ config, /** @type {any} */ _dialog, /** @type {any} */ message) => {
    const activity = config?.subject ?? null;
    config.rolls ??= [{}];
    config.rolls[0] ??= {};
    const options = (config.rolls[0].options ??= {});
    const advantage = Boolean(options.advantage || config.advantage);
    if (!decide({ actor: activity?.actor ?? null, tokenId: message?.data?.speaker?.token ?? null, area: isAreaAttack(activity), advantage })) return;
    if (generation === "4.0" && advantage) {
      options.advantage = false;
      config.advantage = false;
    } else {
      // 4.1+ cancels advantage and disadvantage itself (D20Roll.applyKeybindings).
      options.disadvantage = true;
    }
  });
}

/**
 * Rolls a Perception check from the actor's sheet (B4: dnd5e's own roll, so
 * its dialog, roll modes and 3D dice work as usual):
 * 3.x / 4.0.x `actor.rollSkill("prc", {event})`, 4.1+ `actor.rollSkill({skill: "prc", event})`.
 * @param {Actor} actor
 * @param {Event} [event] the click, for dnd5e's fast-forward keys
 * @returns {Promise<unknown>}
 */
export function rollDnd5ePerception(actor, event) {
  const sheet = /** @type {any} */ (actor);
  if (dnd5eGeneration() === "4.1") return sheet.rollSkill({ skill: "prc", event });
  return sheet.rollSkill("prc", { event });
}

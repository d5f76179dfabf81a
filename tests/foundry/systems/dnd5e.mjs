/**
 * A small dnd5e-shaped game system for the fake Foundry: the skill rolls,
 * attack rolls, damage application and HP hooks that Furtive listens to,
 * with the hook names, argument shapes, message flags and roll data of the
 * real system at three points of its history. Written from the dnd5e
 * source (github.com/foundryvtt/dnd5e), read per tag, as summarised in
 * docs/dnd5e-automation.md:
 *
 * - `"3"` (release-3.3.1): `Actor5e#rollSkill(skillId, options)` raises
 *   `dnd5e.preRollSkill(actor, rollData, skillId)` / `dnd5e.rollSkill(actor,
 *   roll, skillId)` (module/documents/actor/actor.mjs ~L1320-1392);
 *   `Item5e#rollAttack(options)` raises `dnd5e.preRollAttack(item,
 *   rollConfig)` / `dnd5e.rollAttack(item, roll, ammoUpdate)` (module/documents/item.mjs
 *   L1543-1654); `d20Roll` expands `messageData` and creates the message
 *   (module/dice/dice.mjs); advantage wins over disadvantage
 *   (module/dice/d20-roll.mjs L47-53).
 * - `"4.0"` (release-4.0.4): skills as 3.x; `AttackActivity#rollAttack(config,
 *   dialog, message)` raises `dnd5e.preRollAttackV2(config, dialog, message)`,
 *   converts to the 3.x roll (`rolls[0].options.advantage/disadvantage`,
 *   advantage wins) and raises `dnd5e.rollAttackV2([roll], {subject, ammoUpdate})`.
 * - `"4.1"` (release-4.1.0 to 4.4.4): `Actor5e#rollSkill({skill}, dialog,
 *   message)` raises `dnd5e.preRollSkillV2`, `preRollAbilityCheckV2`,
 *   `preRollD20TestV2`, `preRollV2` (each `(config, dialog, message)`) and
 *   `dnd5e.rollSkillV2(rolls, {skill, subject})`; attacks raise
 *   `preRollAttackV2`, `preRollD20TestV2`, `preRollV2`; advantage and
 *   disadvantage together cancel (`D20Roll.applyKeybindings`).
 * - every version: `Actor5e#applyDamage` (`dnd5e.preApplyDamage`,
 *   `actor.update`, `dnd5e.applyDamage`); `_preUpdate` stores the previous HP
 *   in `options.dnd5e.hp` and `_onUpdate` raises `dnd5e.damageActor(actor,
 *   {hp, temp, total}, update, userId)` on every client when HP went down
 *   (release-4.4.4 actor.mjs L606-630, L3344-3383; same in 3.3.1).
 * - derived data as `prepareDerivedData` computes it: ability `mod`,
 *   proficiency from CR (`floor((max(cr, 1) + 7) / 4)`), skill `total` =
 *   ability mod + floor(value x proficiency), `passive` = 10 + total.
 * - targets: `game.user.targets` as `{name, img, uuid (the ACTOR's uuid), ac}`,
 *   keyed by actor uuid, only actors with a numeric AC
 *   (`Item5e#_formatAttackTargets`, `getTargetDescriptors`).
 *
 * The real system shows dialogs unless fast-forwarded; this one always
 * fast-forwards. Real dnd5e keeps `_preUpdate`/`_onUpdate` in document
 * methods; the fake's documents have no such seam, so this system uses the
 * `preUpdateActor`/`updateActor` hooks, registered before any module's.
 *
 * Plain ESM, no Node imports.
 */

/**
 * @param {{generation: "3" | "4.0" | "4.1"}} options
 * @returns {(ctx: any) => void} the system script for `createClient({system})`
 */
export function dnd5eSystem({ generation }) {
  return (ctx) => {
    const { Actor, Item, ChatMessage, Hooks, utils } = ctx;
    const CONFIG = ctx.CONFIG;
    CONFIG.DND5E = {
      skills: { ste: { label: "Stealth", ability: "dex" }, prc: { label: "Perception", ability: "wis" }, acr: { label: "Acrobatics", ability: "dex" }, ath: { label: "Athletics", ability: "str" } },
      areaTargetTypes: Object.fromEntries(["circle", "cone", "cube", "cylinder", "line", "radius", "sphere", "square", "wall"].map((id) => [id, { label: id, template: id }])),
    };

    // ------------------------------------------------------------ derived data
    const abilityMod = (value) => Math.floor((Number(value ?? 10) - 10) / 2);
    const proficiency = (system) => Math.floor((Math.max(Number(system.details?.cr ?? 0), Number(system.details?.level ?? 0), 1) + 7) / 4);
    /** `prepareDerivedData`, on a copy of the source data (what `getRollData()` returns). */
    function derived(system) {
      const data = utils.deepClone(system ?? {});
      const prof = proficiency(data);
      data.attributes ??= {};
      data.attributes.prof = prof;
      data.prof = prof;
      for (const ability of Object.values(data.abilities ?? {})) ability.mod = abilityMod(ability.value);
      for (const [id, skill] of Object.entries(data.skills ?? {})) {
        const mod = data.abilities?.[skill.ability ?? CONFIG.DND5E.skills[id]?.ability]?.mod ?? 0;
        skill.mod = mod;
        skill.prof = Math.floor(Number(skill.value ?? 0) * prof);
        skill.total = mod + skill.prof;
        skill.passive = 10 + skill.total;
      }
      return data;
    }
    Actor.prototype.getRollData = function () {
      return derived(this.system);
    };
    Object.defineProperty(Item.prototype, "actor", {
      configurable: true,
      get() {
        return this.parent instanceof Actor ? this.parent : null;
      },
    });

    // ------------------------------------------------------------ D20Roll
    const ADV_MODE = { NORMAL: 0, ADVANTAGE: 1, DISADVANTAGE: -1 };
    class D20Roll extends ctx.Roll {
      static ADV_MODE = ADV_MODE;
      /** `options.advantageMode`: two d20, the higher (1) or lower (-1) kept. */
      async evaluate(options = {}) {
        const mode = Number(this.options.advantageMode ?? 0);
        const die = this.dice[0];
        if (mode && die) {
          const roll = die.roll.bind(die);
          die.roll = () => {
            roll();
            roll();
            const [a, b] = die.results.slice(-2);
            const dropped = (mode > 0 ? a.result >= b.result : a.result <= b.result) ? b : a;
            dropped.active = false;
            dropped.discarded = true;
            return die.total;
          };
        }
        return super.evaluate(options);
      }
      get d20() {
        return this.dice[0];
      }
      get hasAdvantage() {
        return Number(this.options.advantageMode) === ADV_MODE.ADVANTAGE;
      }
      get hasDisadvantage() {
        return Number(this.options.advantageMode) === ADV_MODE.DISADVANTAGE;
      }
    }
    CONFIG.Dice.D20Roll = D20Roll;
    ctx.global.dnd5e = { dice: { D20Roll } };

    /**
     * 3.x `d20Roll(config)` (module/dice/dice.mjs): `D20Roll.determineAdvantageMode`
     * (release-3.3.1 module/dice/d20-roll.mjs L47-53): advantage or the Alt key
     * wins, else disadvantage or Ctrl/Meta; the message from the expanded `messageData`.
     */
    async function d20Roll({ parts = [], data = {}, advantage, disadvantage, event, flavor, chatMessage = true, messageData = {}, rollMode } = {}) {
      const advantageMode = advantage || event?.altKey ? ADV_MODE.ADVANTAGE : disadvantage || event?.ctrlKey || event?.metaKey ? ADV_MODE.DISADVANTAGE : ADV_MODE.NORMAL;
      const roll = new D20Roll(["1d20", ...parts].join(" + "), data, { flavor, advantageMode });
      await roll.evaluate();
      if (chatMessage) await roll.toMessage(utils.expandObject(messageData), { rollMode });
      return roll;
    }

    /** 4.1+ `D20Roll.build`: pre hooks per name, one roll, the message, then the caller's post hook. */
    async function buildV2(config, dialog, message, { version42 = true } = {}) {
      for (const name of config.hookNames) {
        const hook = `dnd5e.preRoll${name ? name[0].toUpperCase() + name.slice(1) : ""}V2`;
        if (Hooks.call(hook, config, dialog, message) === false) return null;
      }
      const base = config.rolls?.[0] ?? {};
      const options = base.options ?? {};
      // `applyKeybindings`: config.advantage/disadvantage count from 4.2 on; both together cancel.
      // The keys of the click (`areKeysPressed` with the default keybindings,
      // release-4.4.4 module/settings.mjs: Alt advantage, Ctrl/Meta disadvantage) count too.
      const keys = { advantage: Boolean(config.event?.altKey), disadvantage: Boolean(config.event?.ctrlKey || config.event?.metaKey) };
      const advantage = Boolean(options.advantage || (version42 && config.advantage) || keys.advantage);
      const disadvantage = Boolean(options.disadvantage || (version42 && config.disadvantage) || keys.disadvantage);
      const advantageMode = advantage && !disadvantage ? ADV_MODE.ADVANTAGE : disadvantage && !advantage ? ADV_MODE.DISADVANTAGE : ADV_MODE.NORMAL;
      const roll = new D20Roll(["1d20", ...(base.parts ?? [])].join(" + "), base.data ?? {}, { ...options, advantageMode });
      const rolls = [roll];
      for (const name of config.hookNames) {
        Hooks.call(`dnd5e.post${name ? name[0].toUpperCase() + name.slice(1) : ""}RollConfiguration`, rolls, config, dialog, message);
      }
      await roll.evaluate();
      if (message.create !== false) await roll.toMessage(message.data ?? {}, { rollMode: message.rollMode });
      return rolls;
    }

    /** 4.1+: the caller's first roll config merged into the system's own roll, the others after it. */
    function firstRollMerged(own, rolls = []) {
      const [first, ...rest] = rolls ?? [];
      return [first ? utils.mergeObject(own, first) : own, ...rest];
    }

    // ------------------------------------------------------------ skills
    function skillParts(actor, skillId) {
      const data = actor.getRollData();
      const skill = data.skills?.[skillId] ?? {};
      return { parts: ["@mod", "@prof"], data: { ...data, mod: skill.mod ?? 0, prof: skill.prof ?? 0 } };
    }
    if (generation === "4.1") {
      Actor.prototype.rollSkill = async function (config = {}, dialog = {}, message = {}) {
        if (typeof config === "string") config = { skill: config, ...dialog };
        const skill = config.skill;
        const { parts, data } = skillParts(this, skill);
        const mode = Number(this.system.skills?.[skill]?.roll?.mode ?? 0);
        // The skill's roll mode as `config.advantage/disadvantage`; the caller's
        // first roll merged into the skill's own, the others appended
        // (release-4.4.4 actor.mjs `#rollSkillTool`: `mergeConfigs(..., config.rolls?.shift())`).
        const rollConfig = utils.mergeObject({ ability: this.system.skills?.[skill]?.ability, advantage: mode > 0, disadvantage: mode < 0 }, config);
        rollConfig.hookNames = [...(config.hookNames ?? []), "skill", "abilityCheck", "d20Test", ""];
        rollConfig.rolls = firstRollMerged({ parts, data, options: {} }, config.rolls);
        rollConfig.subject = this;
        const messageConfig = utils.mergeObject({ create: true, data: { flags: { dnd5e: { messageType: "roll", roll: { skillId: skill, type: "skill" } } }, speaker: ChatMessage.getSpeaker({ actor: this }) } }, message);
        const rolls = await buildV2(rollConfig, dialog, messageConfig);
        if (rolls) Hooks.callAll("dnd5e.rollSkillV2", rolls, { skill, subject: this });
        return rolls;
      };
    } else {
      Actor.prototype.rollSkill = async function (skillId, options = {}) {
        const { parts, data } = skillParts(this, skillId);
        const rollData = utils.mergeObject(
          {
            data,
            title: `Skill: ${this.name}`,
            flavor: `${CONFIG.DND5E.skills[skillId]?.label ?? ""} Skill Check`,
            chooseModifier: true,
            messageData: { speaker: options.speaker || ChatMessage.getSpeaker({ actor: this }), "flags.dnd5e.roll": { type: "skill", skillId } },
          },
          options,
        );
        rollData.parts = parts.concat(options.parts ?? []);
        if (Hooks.call("dnd5e.preRollSkill", this, rollData, skillId) === false) return null;
        const roll = await d20Roll(rollData);
        if (roll) Hooks.callAll("dnd5e.rollSkill", this, roll, skillId);
        return roll;
      };
    }

    // ------------------------------------------------------------ attacks
    /** `game.user.targets` as dnd5e stores them: actor uuids, deduplicated, numeric AC only. */
    function targetDescriptors() {
      const targets = new Map();
      for (const token of ctx.game.user.targets) {
        const actor = token.document?.actor ?? token.actor;
        const ac = actor?.system?.attributes?.ac?.value;
        if (!actor || !Number.isFinite(Number(ac))) continue;
        targets.set(actor.uuid, { name: token.document?.name ?? actor.name, img: "", uuid: actor.uuid, ac: Number(ac) });
      }
      return [...targets.values()];
    }
    function attackParts(actor) {
      const data = actor.getRollData();
      return { parts: ["@mod", "@prof"], data: { ...data, mod: data.abilities?.dex?.mod ?? 0, prof: data.prof } };
    }
    if (generation === "3") {
      Object.defineProperty(Item.prototype, "hasAreaTarget", {
        configurable: true,
        get() {
          return Boolean(this.system?.target?.type in CONFIG.DND5E.areaTargetTypes);
        },
      });
      // `Item5e#hasAttack` / `hasSave` / `hasDamage` (release-3.3.1 module/data/item/templates/action.mjs L208-230).
      const itemFlag = (name, test) =>
        Object.defineProperty(Item.prototype, name, {
          configurable: true,
          get() {
            const system = this.system ?? {};
            return Boolean(system.actionType) && test(system);
          },
        });
      itemFlag("hasAttack", (system) => ["mwak", "rwak", "msak", "rsak"].includes(system.actionType));
      itemFlag("hasSave", (system) => Boolean(system.save?.ability && system.save?.scaling));
      itemFlag("hasDamage", (system) => (system.damage?.parts ?? []).length > 0);
      /**
       * `Item5e#use(config, options)` (release-3.3.1 module/documents/item.mjs L926-1055):
       * `dnd5e.preUseItem(item, config, options)`, then `displayCard` (L1424-1488) creates
       * the usage card: speaker `getSpeaker({actor, token: actor.token})`, flags
       * `{core: {canPopout: true}, dnd5e: {use: {type, itemId, itemUuid}}}`, no roll;
       * then `dnd5e.useItem(item, config, options, templates, effects, summoned)`.
       * The template preview (`AbilityTemplate#drawPreview`, a canvas placement by
       * the user) is not modelled: `templates` is null.
       */
      Item.prototype.use = async function (config = {}, options = {}) {
        options = utils.mergeObject({ configureDialog: true, createMessage: true, flags: { dnd5e: { use: { type: this.type, itemId: this.id, itemUuid: this.uuid } } } }, options);
        if (Hooks.call("dnd5e.preUseItem", this, config, options) === false) return null;
        const chatData = { content: `<div class="dnd5e chat-card item-card">${this.name}</div>`, speaker: ChatMessage.getSpeaker({ actor: this.actor, token: this.actor?.token ?? null }), flags: utils.mergeObject({ core: { canPopout: true } }, options.flags) };
        const card = options.createMessage !== false ? await ChatMessage.create(chatData) : chatData;
        Hooks.callAll("dnd5e.useItem", this, config, options, null, [], null);
        return card;
      };
      Item.prototype.rollAttack = async function (options = {}) {
        const actor = this.actor;
        const { parts, data } = attackParts(actor);
        const targets = targetDescriptors();
        const rollConfig = utils.mergeObject(
          {
            actor,
            data,
            critical: 20,
            title: `${this.name} - Attack Roll`,
            flavor: `${this.name} - Attack Roll`,
            targetValue: targets.length === 1 ? targets[0].ac : undefined,
            messageData: { "flags.dnd5e": { targets, roll: { type: "attack", itemId: this.id, itemUuid: this.uuid } }, speaker: ChatMessage.getSpeaker({ actor }) },
          },
          options,
        );
        rollConfig.parts = parts.concat(options.parts ?? []);
        if (Hooks.call("dnd5e.preRollAttack", this, rollConfig) === false) return null;
        const roll = await d20Roll(rollConfig);
        if (!roll) return null;
        Hooks.callAll("dnd5e.rollAttack", this, roll, []);
        return roll;
      };
    } else {
      /**
       * An activity (`ActivityMixin`, module/documents/activity/mixin.mjs): its
       * `use(usage, dialog, message)` (release-4.0.4 L171-274, release-4.1.0
       * L187-303, release-4.4.4 L208-329) raises `dnd5e.preUseActivity(activity,
       * usageConfig, dialogConfig, messageConfig)` (`Hooks.call`), creates the usage
       * card (`_createUsageMessage`: speaker `getSpeaker({actor})`, flags
       * `{core: {canPopout: true}, dnd5e: {...messageFlags, messageType: "usage",
       * use: {effects}}}`, no roll), then `dnd5e.postUseActivity(activity,
       * usageConfig, results)` with `results = {effects, templates, updates,
       * message}`: `Hooks.callAll` in 4.0.x; `Hooks.call` in 4.1+, where `false`
       * stops `_triggerSubsequentActions` (attack: `rollAttack`, damage:
       * `rollDamage`, save: nothing; release-4.4.4 activity/attack.mjs L64,
       * damage.mjs L52; the fake models the attack's only). Templates (placed by the user on the canvas) are not
       * modelled: `results.templates` is empty.
       */
      class Activity {
        /**
         * @param {any} item
         * @param {{_id: string, type: string, target?: {template?: {type?: string}}}} data
         *   the activity's source (`item.system.activities[id]`, module/data/shared/target-field.mjs)
         */
        constructor(item, data) {
          this.item = item;
          this.type = data.type;
          this.id = data._id;
          this.target = { template: { type: data.target?.template?.type ?? "" } };
        }
        get actor() {
          return this.item.actor;
        }
        get uuid() {
          return `${this.item.uuid}.Activity.${this.id}`;
        }
        /** `messageFlags` (release-4.4.4 mixin.mjs L108-114). */
        get messageFlags() {
          return { activity: { type: this.type, id: this.id, uuid: this.uuid }, item: { type: this.item.type, id: this.item.id, uuid: this.item.uuid }, targets: targetDescriptors() };
        }
        async use(usage = {}, dialog = {}, message = {}) {
          const usageConfig = utils.mergeObject({}, usage);
          const dialogConfig = utils.mergeObject({ configure: true }, dialog);
          const messageConfig = utils.mergeObject({ create: true, data: { flags: { dnd5e: { ...this.messageFlags, messageType: "usage", use: { effects: [] } } } } }, message);
          if (Hooks.call("dnd5e.preUseActivity", this, usageConfig, dialogConfig, messageConfig) === false) return undefined;
          const results = { effects: [], templates: [], updates: {} };
          const data = utils.mergeObject({ content: `<div class="dnd5e2 chat-card activity-card">${this.item.name}</div>`, speaker: ChatMessage.getSpeaker({ actor: this.actor }), flags: { core: { canPopout: true } } }, messageConfig.data);
          results.message = messageConfig.create === false ? data : await ChatMessage.create(data);
          if (generation === "4.0") {
            Hooks.callAll("dnd5e.postUseActivity", this, usageConfig, results);
            return results;
          }
          if (Hooks.call("dnd5e.postUseActivity", this, usageConfig, results) === false) return results;
          // Not awaited, as in dnd5e: the follow-up roll runs on after `use` resolves.
          this._triggerSubsequentActions(usageConfig, results);
          return results;
        }
        async _triggerSubsequentActions() {}
      }

      /** The item's attack activity (from a 3.x-shaped `actionType`, one per item). */
      class AttackActivity extends Activity {
        constructor(item, data) {
          const system = item._source.system ?? {};
          super(item, data ?? { _id: "attackActivity01", type: "attack", target: { template: { type: system.target?.type ?? "" } } });
          this.attack = { type: { value: system.actionType === "mwak" ? "melee" : "ranged", classification: "weapon" } };
        }
        /** 4.1+: the attack rolls after the usage card (release-4.4.4 activity/attack.mjs L64-66). */
        async _triggerSubsequentActions(config, results) {
          this.rollAttack({ event: config.event }, {}, { data: { "flags.dnd5e.originatingMessage": results.message?.id } });
        }
        async rollAttack(config = {}, dialog = {}, message = {}) {
          const targets = targetDescriptors();
          const { parts, data } = attackParts(this.actor);
          // The attack's own roll first. 4.0.x appends the caller's `config.rolls`
          // (release-4.0.4 activity/attack.mjs: `[{...}].concat(config.rolls ?? [])`);
          // 4.1+ merges the caller's first roll into it and appends the others
          // (release-4.1.0 `config.rolls?.shift()` into `_buildAttackConfig`, 4.4.4 `mergeConfigs`).
          const own = { parts, data, options: { criticalSuccess: 20, target: targets.length === 1 ? targets[0].ac : undefined } };
          const rollConfig = utils.mergeObject({}, config);
          rollConfig.hookNames = [...(config.hookNames ?? []), "attack", "d20Test", ""];
          rollConfig.rolls = generation === "4.0" ? [own].concat(config.rolls ?? []) : firstRollMerged(own, config.rolls);
          rollConfig.subject = this;
          const messageConfig = utils.mergeObject(
            {
              create: true,
              data: {
                flags: { dnd5e: { activity: { type: "attack", id: this.id, uuid: this.uuid }, item: { type: this.item.type, id: this.item.id, uuid: this.item.uuid }, targets, messageType: "roll", roll: { type: "attack" } } },
                speaker: ChatMessage.getSpeaker({ actor: this.actor }),
              },
            },
            message,
          );
          let rolls;
          if (generation === "4.0") {
            // 4.0.x: the V2 pre hook only, then the 3.x roll (advantage wins).
            if (Hooks.call("dnd5e.preRollAttackV2", rollConfig, dialog, messageConfig) === false) return null;
            const options = rollConfig.rolls[0].options ?? {};
            const roll = await d20Roll({ parts: rollConfig.rolls[0].parts, data: rollConfig.rolls[0].data, advantage: options.advantage, disadvantage: options.disadvantage, event: rollConfig.event, messageData: messageConfig.data, rollMode: messageConfig.rollMode });
            rolls = [roll];
          } else {
            rolls = await buildV2(rollConfig, dialog, messageConfig);
            if (!rolls) return null;
          }
          Hooks.callAll("dnd5e.rollAttackV2", rolls, { subject: this, ammoUpdate: null });
          return rolls;
        }
      }
      Object.defineProperty(Item.prototype, "system", {
        configurable: true,
        get() {
          const system = this._source.system ?? (this._source.system = {});
          if (system.actionType && !system.activities) {
            const activity = new AttackActivity(this);
            Object.defineProperty(system, "activities", { enumerable: false, configurable: true, value: { get: (id) => (id === activity.id ? activity : undefined), contents: [activity] } });
          } else if (system.activities && typeof system.activities.get !== "function") {
            // 4.x source: `system.activities` = {[id]: {_id, type, target, ...}}, served as a collection of activities.
            const source = system.activities;
            const activities = Object.values(source).map((data) => (data.type === "attack" ? new AttackActivity(this, data) : new Activity(this, data)));
            Object.defineProperty(system, "activities", { enumerable: true, configurable: true, value: { get: (id) => activities.find((a) => a.id === id), contents: activities, toJSON: () => source } });
          }
          return system;
        },
      });
    }

    // ------------------------------------------------------------ damage
    Actor.prototype.applyDamage = async function (amount, options = {}) {
      const hp = this.system.attributes.hp;
      const temp = Math.max(0, Number(hp.temp ?? 0));
      const deltaTemp = amount > 0 ? Math.min(temp, amount) : 0;
      const updates = {
        "system.attributes.hp.temp": temp - deltaTemp,
        "system.attributes.hp.value": Math.max(0, Math.min(Number(hp.max ?? hp.value), Number(hp.value) - (amount - deltaTemp))),
      };
      if (Hooks.call("dnd5e.preApplyDamage", this, amount, updates, options) === false) return this;
      await this.update(updates);
      Hooks.callAll("dnd5e.applyDamage", this, amount, options);
      return this;
    };
    // `_preUpdate`: the previous HP into the update options.
    Hooks.on("preUpdateActor", (actor, changed, options) => {
      if (actor.system?.attributes?.hp) utils.setProperty(options, "dnd5e.hp", { ...actor.system.attributes.hp });
    });
    // `_onUpdate`: on every client, `dnd5e.damageActor` / `dnd5e.healActor` when HP changed.
    Hooks.on("updateActor", (actor, data, options, userId) => {
      const before = options.dnd5e?.hp;
      if (!data.system?.attributes?.hp || !before || options.isRest) return;
      const now = actor.system.attributes.hp;
      const changes = { hp: now.value - before.value, temp: (now.temp ?? 0) - (before.temp ?? 0) };
      changes.total = changes.hp + changes.temp;
      if (Number.isInteger(changes.total) && changes.total !== 0) Hooks.callAll(`dnd5e.${changes.total > 0 ? "heal" : "damage"}Actor`, actor, changes, data, userId);
    });
  };
}

/**
 * An SRD actor from the shared fixtures as 3.x/4.x data: the 5.2 senses
 * (`{ranges: {...}, units: null}`) flattened, `null` -> 0 and units "ft"
 * (what 4.x derivation does, docs/dnd5e-automation.md §5), plus the HP and
 * AC a test gives (the fixtures drop them).
 * @param {any} actor the fixture document
 * @param {{id: string, ownership: object, hp?: number, ac?: number, items?: object[]}} extra
 */
export function srdActor(actor, { id, ownership, hp = 10, ac = 12, items = [] }) {
  const system = JSON.parse(JSON.stringify(actor.system));
  const senses = system.attributes?.senses ?? {};
  if (senses.ranges) {
    const flat = Object.fromEntries(Object.entries(senses.ranges).map(([key, value]) => [key, value ?? 0]));
    system.attributes.senses = { ...flat, units: senses.units ?? "ft", special: senses.special ?? "" };
  }
  system.attributes.hp = { value: hp, max: hp, temp: 0, tempmax: 0 };
  system.attributes.ac = { value: ac };
  return { _id: id, name: actor.name, type: actor.type ?? "npc", ownership, system, items, effects: [], flags: {} };
}

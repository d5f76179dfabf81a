/**
 * A small dnd5e-shaped game system for the fake Foundry: the skill rolls,
 * attack rolls, usage cards, damage application and HP hooks that Furtive
 * listens to, with the hook names, argument shapes, message flags and roll
 * data of the real system at four points of its history, each on the Foundry
 * generation it runs on (`system.json` `compatibility` at each tag). Written
 * from the dnd5e source (github.com/foundryvtt/dnd5e), read per tag, as
 * summarised in docs/dnd5e-automation.md:
 *
 * - `"4.4"` (release-4.4.4, Foundry 12.331+, verified 13): `Actor5e#rollSkill({skill},
 *   dialog, message)` raises `dnd5e.preRollSkillV2`, `preRollAbilityCheckV2`,
 *   `preRollD20TestV2`, `preRollV2` (each `(config, dialog, message)`,
 *   module/dice/basic-roll.mjs L147-148) and `dnd5e.rollSkillV2(rolls, {skill,
 *   subject})`; attacks raise `preRollAttackV2`, `preRollD20TestV2`, `preRollV2`,
 *   then `dnd5e.rollAttackV2`; advantage and disadvantage together cancel
 *   (`D20Roll.applyKeybindings`); usage cards carry `flags.dnd5e.messageType: "usage"`
 *   (module/documents/activity/mixin.mjs L236).
 * - `"5.2"` (release-5.2.5, Foundry 13.347+, verified 13): every pre hook under both
 *   names, `dnd5e.preRoll<Name>` then `dnd5e.preRoll<Name>V2` (release-5.0.4
 *   basic-roll.mjs L147-149); post hooks `dnd5e.rollSkill` and `dnd5e.rollSkillV2`
 *   with `(rolls, {ability, skill, subject})` (release-5.3.3 actor.mjs L1340-1353; the
 *   3.x `rollSkill(actor, roll, skillId)` form is gone), `dnd5e.rollAttack` and
 *   `rollAttackV2` (release-5.0.4 activity/attack.mjs L219-220); from 5.1 armour with
 *   the `stealthDisadvantage` property sets `skills.ste.roll.mode` to -1
 *   (release-5.1.0 module/data/actor/templates/attributes.mjs L179-180); usage
 *   cards as 4.4 (release-5.2.5 mixin.mjs L203-204).
 * - `"5.3"` (release-5.3.3, Foundry 13.347+, verified 14): as 5.2, and the usage
 *   card is a ChatMessage of `type: "usage"` whose `flags.dnd5e` is the activity's
 *   `messageFlags` `{activity, item, targets}`, no `messageType` (mixin.mjs L200-205,
 *   L787-800; module/migration.mjs L750-752); senses under
 *   `attributes.senses.ranges` (module/data/shared/senses-field.mjs); on Foundry 14
 *   the roll message takes the `core.messageMode` setting (module/dice/basic-roll.mjs L441).
 * - `"6.0"` (branch `6.0-deprecations`, commit c83a613dd, version 6.0.0, Foundry
 *   14.359+: no 6.x release tag exists in the fetched repository): as 5.3 on
 *   Foundry 14 only (`ChatMessage.applyMode`, `core.messageMode`, 5ae1aa9d7).
 * - every version: `Actor5e#applyDamage` (`dnd5e.preApplyDamage`,
 *   `actor.update`, `dnd5e.applyDamage`); `_preUpdate` stores the previous HP
 *   in `options.dnd5e.hp` and `_onUpdate` raises `dnd5e.damageActor(actor,
 *   {hp, temp, total}, update, userId)` on every client when HP went down
 *   (release-4.4.4 actor.mjs L606-630, L3344-3383).
 * - Reliable Talent: `flags.dnd5e.reliableTalent` with proficiency sets the d20's
 *   minimum to 10 (release-5.3.3 actor.mjs `#rollSkillTool`, module/dice/d20-roll.mjs L223-231).
 * - derived data as `prepareDerivedData` computes it: ability `mod`,
 *   proficiency from CR (`floor((max(cr, 1) + 7) / 4)`), skill `total` =
 *   ability mod + floor(value x proficiency), `passive` = 10 + total.
 * - targets: `game.user.targets` as `{name, img, uuid (the ACTOR's uuid), ac}`,
 *   keyed by actor uuid, only actors with a numeric AC (`getTargetDescriptors`).
 *
 * - the roll configuration dialog of `D20Roll.build` (skills, attacks): shown unless
 *   `dialog.configure` is false or the click held a fast-forward key (see `buildV2`);
 *   an activity's usage dialog is not modelled (always fast-forwarded).
 *
 * Real dnd5e keeps `_preUpdate`/`_onUpdate` in document
 * methods; the fake's documents have no such seam, so this system uses the
 * `preUpdateActor`/`updateActor` hooks, registered before any module's.
 *
 * Plain ESM, no Node imports.
 */

/**
 * @param {{generation: "4.4" | "5.2" | "5.3" | "6.0"}} options
 * @returns {(ctx: any) => void} the system script for `createClient({system})`
 */
export function dnd5eSystem({ generation }) {
  const version = Number(generation);
  if (![4.4, 5.2, 5.3, 6].includes(version)) throw new Error(`no fake dnd5e generation ${generation}`);
  /** 5.0+: pre hooks under both names, `rollSkill` / `rollAttack` post hooks. */
  const v5 = version >= 5;
  /** 5.1+: armour with stealth disadvantage. */
  const armourStealth = version >= 5.1;
  /** 5.3+: usage cards of `type: "usage"`. */
  const typedUsage = version >= 5.3;
  return (ctx) => {
    const { Actor, Item, ChatMessage, Hooks, utils } = ctx;
    const CONFIG = ctx.CONFIG;
    CONFIG.DND5E = {
      skills: { ste: { label: "Stealth", ability: "dex" }, prc: { label: "Perception", ability: "wis" }, acr: { label: "Acrobatics", ability: "dex" }, ath: { label: "Athletics", ability: "str" } },
      areaTargetTypes: Object.fromEntries(["circle", "cone", "cube", "cylinder", "line", "radius", "sphere", "square", "wall"].map((id) => [id, { label: id, template: id }])),
      // Feet per unit, "D&D uses a simplified 5ft -> 1.5m conversion" (release-4.4.4 and
      // release-5.3.3 module/config.mjs `DND5E.movementUnits`; labels left out).
      movementUnits: { ft: { conversion: 1 }, mi: { conversion: 5_280 }, m: { conversion: 10 / 3 }, km: { conversion: 10_000 / 3 } },
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
      /**
       * `options.advantageMode`: two d20, the higher (1) or lower (-1) kept;
       * `options.reliableTalent`: the kept d20 counts at least 10 (release-5.3.3
       * module/dice/d20-roll.mjs L223-231, `applyRange({minimum})`).
       */
      async evaluate(options = {}) {
        const mode = Number(this.options.advantageMode ?? 0);
        const reliable = Boolean(this.options.reliableTalent);
        const die = this.dice[0];
        if ((mode || reliable) && die) {
          const roll = die.roll.bind(die);
          die.roll = () => {
            roll();
            if (mode) {
              roll();
              const [a, b] = die.results.slice(-2);
              const dropped = (mode > 0 ? a.result >= b.result : a.result <= b.result) ? b : a;
              dropped.active = false;
              dropped.discarded = true;
            }
            if (reliable) for (const result of die.results) if (result.active && result.result < 10) result.result = 10;
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
     * 4.1+ `D20Roll.build`: pre hooks per name, the keybindings, the roll configuration
     * dialog unless fast-forwarded, one roll, the message, then the caller's post hook.
     */
    async function buildV2(config, dialog, message) {
      for (const name of config.hookNames) {
        const hook = `dnd5e.preRoll${name ? name[0].toUpperCase() + name.slice(1) : ""}`;
        // 5.0+: the plain name, then the V2 one (release-5.0.4 module/dice/basic-roll.mjs L147-149).
        if (v5 && Hooks.call(hook, config, dialog, message) === false) return null;
        if (Hooks.call(`${hook}V2`, config, dialog, message) === false) return null;
      }
      const base = config.rolls?.[0] ?? {};
      const options = base.options ?? {};
      // `applyKeybindings` (release-4.4.4 module/dice/d20-roll.mjs L111-119, release-5.3.3 L81-101):
      // the keys of the click (`areKeysPressed` with dnd5e's default keybindings, release-5.3.3
      // module/settings.mjs L21-34: Shift skipDialogNormal, Alt skipDialogAdvantage, Ctrl/Meta
      // skipDialogDisadvantage) skip the dialog, `dialog.configure ??= !anyKey`; config.advantage
      // and disadvantage count (4.2+), and both together cancel.
      const keys = { normal: Boolean(config.event?.shiftKey), advantage: Boolean(config.event?.altKey), disadvantage: Boolean(config.event?.ctrlKey || config.event?.metaKey) };
      dialog.configure ??= !Object.values(keys).some(Boolean);
      const advantage = Boolean(options.advantage || config.advantage || keys.advantage);
      const disadvantage = Boolean(options.disadvantage || config.disadvantage || keys.disadvantage);
      let advantageMode = advantage && !disadvantage ? ADV_MODE.ADVANTAGE : disadvantage && !advantage ? ADV_MODE.DISADVANTAGE : ADV_MODE.NORMAL;
      if (dialog.configure !== false) {
        // `RollConfigurationDialog.configure` (release-5.3.3 module/applications/dice/roll-configuration-dialog.mjs
        // L416-421, `D20RollConfigurationDialog` d20-configuration-dialog.mjs L32-71): buttons Advantage, Normal,
        // Disadvantage, the one of the roll's mode the default; the clicked one sets the mode; closed
        // without one, no rolls (`_onClose` L401-402) and `build` returns none.
        const defaultAction = advantageMode === ADV_MODE.ADVANTAGE ? "advantage" : advantageMode === ADV_MODE.DISADVANTAGE ? "disadvantage" : "normal";
        const action = await ctx.global.foundry.applications.api.DialogV2.wait({
          window: { title: dialog.options?.window?.title ?? "Roll" },
          classes: ["dnd5e2", "roll-configuration"],
          content: `<p class="dnd5e-roll-configuration">${message.rollMode ? `<span class="roll-mode">${message.rollMode}</span>` : ""}</p>`,
          buttons: ["advantage", "normal", "disadvantage"].map((action) => ({ action, label: action, default: action === defaultAction })),
        });
        if (!action) return null;
        advantageMode = action === "advantage" ? ADV_MODE.ADVANTAGE : action === "disadvantage" ? ADV_MODE.DISADVANTAGE : ADV_MODE.NORMAL;
      }
      const roll = new D20Roll(["1d20", ...(base.parts ?? [])].join(" + "), base.data ?? {}, { ...options, advantageMode, ...(config.reliableTalent ? { reliableTalent: true } : {}) });
      const rolls = [roll];
      for (const name of config.hookNames) {
        Hooks.call(`dnd5e.post${name ? name[0].toUpperCase() + name.slice(1) : ""}RollConfiguration`, rolls, config, dialog, message);
      }
      await roll.evaluate();
      // `buildPost`: no message when `message.create` is false (release-4.4.4 basic-roll.mjs L215-220).
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
    /**
     * 5.1+: the armour the actor wears with the `stealthDisadvantage` property makes
     * its Stealth mode -1 (release-5.1.0 module/data/actor/templates/attributes.mjs L179-180:
     * `armors[0]?.system.properties.has("stealthDisadvantage")`); the fake's armour is an
     * equipped item of type "equipment" with that property.
     */
    function skillMode(actor, skill) {
      const mode = Number(actor.system.skills?.[skill]?.roll?.mode ?? 0);
      if (!armourStealth || skill !== "ste") return mode;
      const armour = actor.items?.find?.((item) => item.type === "equipment" && item.system?.equipped && (item.system?.properties ?? []).includes("stealthDisadvantage"));
      return armour ? Math.min(mode, -1) : mode;
    }
    /**
     * `Actor5e#rollSkill(config, dialog, message)` (4.1 to 6.0: release-4.4.4 actor.mjs L1094,
     * release-5.3.3 L1209, c83a613dd L1167; `#rollSkillTool`): the skill's roll mode as
     * `config.advantage/disadvantage`, Reliable Talent, the caller's first roll merged into the
     * skill's own and the others appended (`mergeConfigs(..., config.rolls?.shift())`).
     */
    Actor.prototype.rollSkill = async function (config = {}, dialog = {}, message = {}) {
      const skill = config.skill;
      const { parts, data } = skillParts(this, skill);
      const mode = skillMode(this, skill);
      const proficient = Number(this.system.skills?.[skill]?.value ?? 0) >= 1;
      const rollConfig = utils.mergeObject({ ability: this.system.skills?.[skill]?.ability, advantage: mode > 0, disadvantage: mode < 0, reliableTalent: proficient && Boolean(this.flags?.dnd5e?.reliableTalent) }, config);
      rollConfig.hookNames = [...(config.hookNames ?? []), "skill", "abilityCheck", "d20Test", ""];
      rollConfig.rolls = firstRollMerged({ parts, data, options: {} }, config.rolls);
      rollConfig.subject = this;
      const messageConfig = utils.mergeObject({ create: true, data: { flags: { dnd5e: { messageType: "roll", roll: { skillId: skill, type: "skill" } } }, speaker: ChatMessage.getSpeaker({ actor: this }) } }, message);
      const rolls = await buildV2(rollConfig, dialog, messageConfig);
      if (!rolls) return null;
      if (v5) Hooks.callAll("dnd5e.rollSkill", rolls, { ability: rollConfig.ability, skill, subject: this });
      Hooks.callAll("dnd5e.rollSkillV2", rolls, v5 ? { ability: rollConfig.ability, skill, subject: this } : { skill, subject: this });
      return rolls;
    };

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
    {
      /**
       * An activity (`ActivityMixin`, module/documents/activity/mixin.mjs): its
       * `use(usage, dialog, message)` (release-4.4.4 L208-329, release-5.3.3
       * L190-300) raises `dnd5e.preUseActivity(activity, usageConfig, dialogConfig,
       * messageConfig)` (`Hooks.call`), creates the usage card (`_createUsageMessage`:
       * speaker `getSpeaker({actor})`, no roll; flags `{core: {canPopout: true}, dnd5e:
       * {...messageFlags, messageType: "usage", use: {effects}}}` up to 5.2, and from 5.3
       * `type: "usage"` with `flags.dnd5e` = `messageFlags` and `system.effects`
       * (release-5.3.3 L200-205, L787-800)), then `dnd5e.postUseActivity(activity,
       * usageConfig, results)` with `results = {effects, templates, updates, message}`
       * (`Hooks.call`: `false` stops `_triggerSubsequentActions`: attack: `rollAttack`,
       * damage: `rollDamage`, save: nothing; release-4.4.4 activity/attack.mjs L64,
       * damage.mjs L52; the fake models the attack's only). Templates (placed by the
       * user on the canvas) are not modelled: `results.templates` is empty.
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
          const card = typedUsage ? { flags: { dnd5e: this.messageFlags }, system: { effects: [] } } : { flags: { dnd5e: { ...this.messageFlags, messageType: "usage", use: { effects: [] } } } };
          const messageConfig = utils.mergeObject({ create: true, data: card }, message);
          if (Hooks.call("dnd5e.preUseActivity", this, usageConfig, dialogConfig, messageConfig) === false) return undefined;
          const results = { effects: [], templates: [], updates: {} };
          const data = utils.mergeObject({ content: `<div class="dnd5e2 chat-card activity-card">${this.item.name}</div>`, speaker: ChatMessage.getSpeaker({ actor: this.actor }), flags: { core: { canPopout: true } }, ...(typedUsage ? { type: "usage" } : {}) }, messageConfig.data);
          results.message = messageConfig.create === false ? data : await ChatMessage.create(data);
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
        /** The attack rolls after the usage card (release-4.4.4 activity/attack.mjs L64-66). */
        async _triggerSubsequentActions(config, results) {
          this.rollAttack({ event: config.event }, {}, { data: { "flags.dnd5e.originatingMessage": results.message?.id } });
        }
        async rollAttack(config = {}, dialog = {}, message = {}) {
          const targets = targetDescriptors();
          const { parts, data } = attackParts(this.actor);
          // The attack's own roll first, the caller's first roll merged into it and the others
          // appended (release-4.4.4 activity/attack.mjs `mergeConfigs(..., config.rolls?.shift())`, same in 5.x).
          const own = { parts, data, options: { criticalSuccess: 20, target: targets.length === 1 ? targets[0].ac : undefined } };
          const rollConfig = utils.mergeObject({}, config);
          rollConfig.hookNames = [...(config.hookNames ?? []), "attack", "d20Test", ""];
          rollConfig.rolls = firstRollMerged(own, config.rolls);
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
          const rolls = await buildV2(rollConfig, dialog, messageConfig);
          if (!rolls) return null;
          // 5.0+: `dnd5e.rollAttack` too, same arguments (release-5.0.4 activity/attack.mjs L219-220).
          if (v5) Hooks.callAll("dnd5e.rollAttack", rolls, { subject: this, ammoUpdate: null });
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
 * An SRD actor from the shared fixtures as the given generation stores it,
 * plus the HP and AC a test gives (the fixtures drop them). Senses: 5.3+
 * `{ranges: {...}, units, special}` (release-5.3.3 module/data/shared/senses-field.mjs),
 * earlier flat `{darkvision, ..., units, special}`, `null` -> 0; `units: null`
 * is served as the derived "ft" (`defaultUnits("length")`, release-5.3.3
 * module/data/actor/npc.mjs L407), the fake's actors having no derivation step.
 * @param {any} actor the fixture document
 * @param {{id: string, ownership: object, hp?: number, ac?: number, items?: object[], generation?: string}} extra
 */
export function srdActor(actor, { id, ownership, hp = 10, ac = 12, items = [], generation = "4.4" }) {
  const system = JSON.parse(JSON.stringify(actor.system));
  const senses = system.attributes?.senses ?? {};
  const ranges = senses.ranges ?? Object.fromEntries(["darkvision", "blindsight", "tremorsense", "truesight"].map((key) => [key, senses[key] ?? null]));
  if (Number(generation) >= 5.3) system.attributes.senses = { ranges: { ...ranges }, units: senses.units ?? "ft", special: senses.special ?? "" };
  else system.attributes.senses = { ...Object.fromEntries(Object.entries(ranges).map(([key, value]) => [key, value ?? 0])), units: senses.units ?? "ft", special: senses.special ?? "" };
  system.attributes.hp = { value: hp, max: hp, temp: 0, tempmax: 0 };
  system.attributes.ac = { value: ac };
  return { _id: id, name: actor.name, type: actor.type ?? "npc", ownership, system, items, effects: [], flags: {} };
}

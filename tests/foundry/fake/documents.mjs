/**
 * Client-side documents (v13/v14 `ClientDocumentMixin` subset): each client
 * holds its own instances built from the source the server sent, and changes
 * them only when the server broadcasts a change (never optimistically).
 *
 * Documented behavior reproduced:
 * - fields are readable as properties (`token.x`, `actor.system`, `doc.flags`);
 * - `getFlag(scope, key)`, `setFlag(scope, key, value)` (= `update({"flags.scope.key": value})`,
 *   objects are MERGED into the stored flag like any update), `unsetFlag` (`-=key`);
 * - `update(changes, options)`: `preUpdate<Name>` hook on the requesting client
 *   (returning false cancels), then the server; `update<Name>(doc, changed, options, userId)`
 *   on every client after the change; an update that changes nothing fires nothing (no public page
 *   states this; the fake's reading);
 * - `create`/`delete` likewise with `preCreate`/`create`, `preDelete`/`delete`;
 * - `testUserPermission(user, level, {exact})`, `getUserLevel(user)`, `isOwner`;
 *   a token's ownership is its actor's; a GM owns everything;
 * - `Actor#toggleStatusEffect(id, {active, overlay})` creates/deletes an
 *   ActiveEffect with `statuses: [id]` from `CONFIG.statusEffects`; `actor.statuses`
 *   is the Set of statuses of its enabled effects; an unlinked token's actor is
 *   synthetic and keeps its effects in the token's `delta`;
 * - `TokenDocument#hasStatusEffect(id)`;
 * - `Actor#getRollData()` returns `actor.system`.
 */
import { Collection, ForcedDeletion, deepClone, getProperty, legacyDeletionsToOperators, mergeObject } from "./utils.mjs";

export const LEVELS = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 };

export function createDocuments(ctx) {
  const levelValue = (permission) => (typeof permission === "number" ? permission : LEVELS[permission] ?? 0);

  class ClientDocument {
    static documentName = "Document";
    static embedded = {};

    constructor(source, { parent = null, parentRef = null } = {}) {
      this._source = source;
      this.parent = parent;
      this._parentRef = parentRef;
      this._exposeFields();
      this._buildEmbedded();
    }

    get documentName() {
      return this.constructor.documentName;
    }
    get id() {
      return this._source._id;
    }
    get _id() {
      return this._source._id;
    }
    get uuid() {
      return this.parent ? `${this.parent.uuid}.${this.documentName}.${this.id}` : `${this.documentName}.${this.id}`;
    }

    /**
     * Source fields readable as properties. Like DataModel schema fields they
     * are accessors on the class prototype (not on each instance), so
     * documents keep fast property access.
     */
    _exposeFields() {
      const proto = Object.getPrototypeOf(this);
      for (const key of Object.keys(this._source)) {
        if (key === "_id" || key in this) continue;
        if (Object.values(this.constructor.embedded).includes(key)) continue;
        Object.defineProperty(proto, key, {
          configurable: true,
          enumerable: false,
          get() {
            return this._source[key];
          },
        });
      }
    }

    _buildEmbedded() {
      for (const [type, key] of Object.entries(this.constructor.embedded)) {
        const collection = new Collection();
        for (const child of this._source[key] ?? []) {
          collection.set(child._id, ctx.instantiate(type, child, this, this._embeddedRef()));
        }
        Object.defineProperty(this, key, { configurable: true, enumerable: true, value: collection });
      }
    }

    _embeddedRef() {
      return { type: this.documentName, id: this.id };
    }

    get flags() {
      return this._source.flags ?? {};
    }

    getFlag(scope, key) {
      return getProperty(this.flags?.[scope], key);
    }

    async setFlag(scope, key, value) {
      return this.update({ [`flags.${scope}.${key}`]: value });
    }

    async unsetFlag(scope, key) {
      const parts = key.split(".");
      const last = parts.pop();
      // v14: a ForcedDeletion operator; v13: the `-=key` form (utils.mjs, operators).
      if (ctx.version >= 14) return this.update({ [["flags", scope, ...parts, last].join(".")]: ForcedDeletion.create() });
      const path = ["flags", scope, ...parts, `-=${last}`].join(".");
      return this.update({ [path]: null });
    }

    getUserLevel(user = ctx.game.user) {
      if (user?.isGM) return LEVELS.OWNER;
      const ownership = this.ownership ?? {};
      return ownership[user?.id] ?? ownership.default ?? LEVELS.NONE;
    }

    testUserPermission(user, permission, { exact = false } = {}) {
      const level = this.getUserLevel(user);
      const target = levelValue(permission);
      return exact ? level === target : level >= target;
    }

    get isOwner() {
      return this.testUserPermission(ctx.game.user, "OWNER");
    }

    get permission() {
      return this.getUserLevel(ctx.game.user);
    }

    canUserModify(user, action = "update") {
      if (user?.isGM) return true;
      return this.testUserPermission(user, "OWNER");
    }

    /**
     * `DataModel#updateSource(changes)`: changes the document's source in
     * place, without a database update; the documented way for a
     * `preCreate<Name>` listener to change the pending document
     * (https://foundryvtt.com/api/classes/foundry.abstract.DataModel.html#updateSource,
     * https://foundryvtt.com/api/functions/hookEvents.preCreateDocument.html).
     */
    updateSource(changes = {}) {
      const expanded = ctx.utils.expandObject(deepClone(changes));
      mergeObject(this._source, expanded);
      return expanded;
    }

    toObject() {
      return deepClone(this._source);
    }
    toJSON() {
      return deepClone(this._source);
    }

    async update(changes = {}, options = {}) {
      const expanded = ctx.utils.expandObject(deepClone(changes));
      delete expanded._id;
      if (ctx.version >= 14) legacyDeletionsToOperators(expanded, (message) => ctx.deprecations.push(message));
      const allowed = ctx.Hooks.call(`preUpdate${this.documentName}`, this, expanded, options, ctx.game.user.id);
      if (allowed === false) return undefined;
      await ctx.request({ op: "modify", action: "update", type: this.documentName, parent: this._parentRef, updates: [{ _id: this.id, ...expanded }], options });
      return this;
    }

    async delete(options = {}) {
      const allowed = ctx.Hooks.call(`preDelete${this.documentName}`, this, options, ctx.game.user.id);
      if (allowed === false) return undefined;
      await ctx.request({ op: "modify", action: "delete", type: this.documentName, parent: this._parentRef, ids: [this.id], options });
      return this;
    }

    async createEmbeddedDocuments(type, data, options = {}) {
      return ctx.createDocuments(type, data, { ...options, parent: this, parentRef: this._embeddedRef() });
    }

    /**
     * `updateEmbeddedDocuments` / `deleteEmbeddedDocuments` run the same
     * workflow as `Document.updateDocuments` / `deleteDocuments`: the
     * `preUpdate<Name>` / `preDelete<Name>` hooks fire on the requesting client for
     * each document, and one returning false leaves that document out
     * (https://foundryvtt.com/api/functions/hookEvents.preUpdateDocument.html,
     * https://foundryvtt.com/api/functions/hookEvents.preDeleteDocument.html).
     */
    async updateEmbeddedDocuments(type, updates, options = {}) {
      const key = this.constructor.embedded[type];
      const kept = updates.filter((update) => {
        const doc = this[key]?.get(update._id);
        return !doc || ctx.Hooks.call(`preUpdate${type}`, doc, update, options, ctx.game.user.id) !== false;
      });
      if (!kept.length) return [];
      if (ctx.version >= 14) kept.forEach((update, i) => (kept[i] = legacyDeletionsToOperators(ctx.utils.expandObject(deepClone(update)), (message) => ctx.deprecations.push(message))));
      const result = await ctx.request({ op: "modify", action: "update", type, parent: this._embeddedRef(), updates: kept, options });
      return result.map((r) => this[key].get(r._id));
    }

    async deleteEmbeddedDocuments(type, ids, options = {}) {
      const key = this.constructor.embedded[type];
      const kept = ids.filter((id) => {
        const doc = this[key]?.get(id);
        return !doc || ctx.Hooks.call(`preDelete${type}`, doc, options, ctx.game.user.id) !== false;
      });
      if (!kept.length) return [];
      await ctx.request({ op: "modify", action: "delete", type, parent: this._embeddedRef(), ids: kept, options });
      return kept;
    }

    getEmbeddedDocument(type, id) {
      return this[this.constructor.embedded[type]]?.get(id);
    }

    static async create(data, options = {}) {
      const [created] = await ctx.createDocuments(this.documentName, [data], options);
      return created;
    }

    static async createDocuments(data, options = {}) {
      return ctx.createDocuments(this.documentName, data, options);
    }

    /** Called after the server broadcast an update of this document. */
    _applyUpdate(changed) {
      mergeObject(this._source, changed, { performDeletions: true, forcedReplacement: true, applyOperators: ctx.version >= 14 });
      this._exposeFields();
      this._prepare?.();
    }
  }

  class User extends ClientDocument {
    static documentName = "User";
    get isGM() {
      return (this._source.role ?? 0) >= 3;
    }
    get active() {
      return ctx.activeUsers.has(this.id);
    }
    get character() {
      return this._source.character ? ctx.game.actors.get(this._source.character) ?? null : null;
    }
    hasRole(role, { exact = false } = {}) {
      const value = typeof role === "number" ? role : { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 }[role];
      return exact ? this.role === value : this.role >= value;
    }
    can(action) {
      if (this.isGM) return true;
      // A user's own override first (`UserData#permissions`), then the player defaults.
      const own = this._source.permissions?.[action];
      if (typeof own === "boolean") return own;
      return ["TOKEN_CREATE", "MESSAGE_WHISPER", "DICE_ROLL"].includes(action) === false ? false : true;
    }
    getUserLevel(user) {
      return user?.isGM || user?.id === this.id ? LEVELS.OWNER : LEVELS.LIMITED;
    }
    /**
     * The scene this user's client views, as it reported (null when not connected):
     * "Track the ID of the Scene that is currently being viewed by the User"
     * (https://foundryvtt.com/api/v14/classes/foundry.documents.User.html, v13 likewise).
     */
    get viewedScene() {
      return ctx.viewedScenes.get(this.id) ?? null;
    }
    /**
     * `User#broadcastActivity(activityData)`: this client reports its activity; the fake
     * relays `sceneId` only (`ActivityData`, https://foundryvtt.com/api/v13/interfaces/foundry.types.ActivityData.html).
     * @param {{sceneId?: string | null}} activityData
     */
    broadcastActivity(activityData = {}) {
      if (this.id !== ctx.game.userId || !("sceneId" in activityData)) return;
      ctx.viewedScenes.set(this.id, activityData.sceneId ?? null);
      ctx.sendActivity({ sceneId: activityData.sceneId ?? null });
    }
    /**
     * v13 `User#query(queryName, queryData, {timeout})`: runs `CONFIG.queries[queryName]` on
     * this user's client and resolves with its result; rejects when this user is not active
     * or the handler throws (wiki "Sockets", https://foundryvtt.com/api/variables/CONFIG.queries.html).
     */
    async query(queryName, queryData, { timeout } = {}) {
      const answer = ctx.request({ op: "query", userId: this.id, queryName, queryData, timeout });
      if (!timeout) return answer;
      // `timeout` (ms): the query rejects when the user does not answer in time.
      let timer;
      const expired = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The query "${queryName}" timed out`)), timeout);
      });
      return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
    }
  }

  class Item extends ClientDocument {
    static documentName = "Item";
  }

  class ActiveEffect extends ClientDocument {
    static documentName = "ActiveEffect";
    get statuses() {
      return new Set(this._source.statuses ?? []);
    }
    get disabled() {
      return Boolean(this._source.disabled);
    }
    get active() {
      return !this.disabled;
    }
  }

  class Actor extends ClientDocument {
    static documentName = "Actor";
    static embedded = { Item: "items", ActiveEffect: "effects" };

    /** `token`: set for the synthetic actor of an unlinked token. */
    constructor(source, options = {}) {
      super(source, options);
      this.token = options.token ?? null;
      this._prepare();
    }

    get isToken() {
      return Boolean(this.token);
    }

    _prepare() {
      this.statuses = new Set();
      for (const effect of this.effects) if (effect.active) for (const status of effect.statuses) this.statuses.add(status);
    }

    _embeddedRef() {
      if (this.token) return { type: "Actor", id: this.id, tokenId: this.token.id, sceneId: this.token.parent?.id };
      return { type: "Actor", id: this.id };
    }

    getRollData() {
      return this.system;
    }

    getActiveTokens() {
      if (!ctx.canvas?.ready) return [];
      return ctx.canvas.tokens.placeables.filter((t) => (this.token ? t.document === this.token : t.document.actorLink && t.document.actorId === this.id));
    }

    get ownership() {
      return this._source.ownership ?? {};
    }

    get hasPlayerOwner() {
      return ctx.game.users.some((u) => !u.isGM && this.testUserPermission(u, "OWNER"));
    }

    async toggleStatusEffect(statusId, { active, overlay = false } = {}) {
      // v14: looked up by id in the record (foundryvtt/foundryvtt#13122: "a direct lookup"); v13: in the array.
      const status = ctx.version >= 14 ? ctx.CONFIG.statusEffects?.[statusId] : ctx.CONFIG.statusEffects.find((e) => e.id === statusId);
      if (!status) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
      const existing = this.effects.filter((e) => e.statuses.has(statusId));
      const state = active ?? !existing.length;
      if (!state) {
        if (!existing.length) return undefined;
        await this.deleteEmbeddedDocuments(
          "ActiveEffect",
          existing.map((e) => e.id),
        );
        return false;
      }
      if (existing.length) return overlay ? true : undefined;
      const [effect] = await this.createEmbeddedDocuments("ActiveEffect", [
        { name: ctx.game.i18n.localize(status.name ?? status.label ?? statusId), img: status.img ?? status.icon, statuses: [statusId], disabled: false, flags: overlay ? { core: { overlay: true } } : {} },
      ]);
      return effect;
    }
  }

  class TokenDocument extends ClientDocument {
    static documentName = "Token";

    constructor(source, options) {
      super(source, options);
      this._synthetic = null;
    }

    get name() {
      return this._source.name ?? this.baseActor?.name ?? "";
    }

    get baseActor() {
      return ctx.game.actors.get(this._source.actorId) ?? null;
    }

    get actor() {
      const base = this.baseActor;
      if (!base) return null;
      if (this._source.actorLink) return base;
      // Synthetic actor: the base data with the token's delta (its effects).
      const deltaEffects = this._source.delta?.effects ?? [];
      if (!this._synthetic || this._syntheticEpoch !== ctx.syntheticEpoch) {
        const source = { ...deepClone(base._source), effects: deepClone(deltaEffects) };
        if (this._source.delta?.system) source.system = mergeObject(source.system ?? {}, deepClone(this._source.delta.system), { inplace: false });
        this._synthetic = new Actor(source, { parent: this, token: this });
        this._syntheticEpoch = ctx.syntheticEpoch;
      }
      return this._synthetic;
    }

    get ownership() {
      return this.baseActor?.ownership ?? {};
    }

    getUserLevel(user = ctx.game.user) {
      if (user?.isGM) return LEVELS.OWNER;
      return this.baseActor?.getUserLevel(user) ?? LEVELS.NONE;
    }

    hasStatusEffect(statusId) {
      return Boolean(this.actor?.statuses.has(statusId));
    }

    get object() {
      return ctx.canvas?.tokens?.get(this.id) ?? null;
    }

    get isLinked() {
      return Boolean(this._source.actorLink);
    }

    /**
     * v13: an array of `TokenDetectionMode {id, enabled, range}`; v14: a record by id of
     * `{enabled, range}` (`TypedObjectField`, foundryvtt/foundryvtt#12976;
     * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.TokenData.html). The
     * fake's worlds are written as arrays; v14 serves them as the record (what v14's data
     * migration of stored tokens is taken to give).
     */
    get detectionModes() {
      const source = this._source.detectionModes ?? [];
      if (ctx.version < 14 || !Array.isArray(source)) return source;
      return Object.fromEntries(source.map(({ id, ...mode }) => [id, mode]));
    }

    /** v14: the Level the token is on (`TokenData#level`, a Level id; v14 TokenData page). */
    get level() {
      return ctx.version >= 14 ? (this._source.level ?? null) : undefined;
    }

    /**
     * v14 `TokenDocument#getVisibilityTestPoints()`: the points a visibility test
     * tries, the centre of every grid space of the token's shape (foundryvtt/foundryvtt#13633
     * "Test all grid space center points of a token's shape", renamed by #13834), at
     * the token's elevation (`ElevatedPoint`). Square grids only here.
     */
    getVisibilityTestPoints() {
      const size = this.parent?.grid?.size ?? 100;
      const points = [];
      for (let i = 0; i < (this._source.width ?? 1); i += 1) {
        for (let j = 0; j < (this._source.height ?? 1); j += 1) points.push({ x: (this._source.x ?? 0) + (i + 0.5) * size, y: (this._source.y ?? 0) + (j + 0.5) * size, elevation: this.elevation });
      }
      return points;
    }

    get sight() {
      return this._source.sight ?? { enabled: false, range: 0 };
    }

    /** `TokenData#light` (`LightData`): a token carries no light unless `dim` or `bright` is above 0. */
    get light() {
      return { dim: 0, bright: 0, negative: false, ...(this._source.light ?? {}) };
    }

    get elevation() {
      return this._source.elevation ?? 0;
    }

    get hidden() {
      return Boolean(this._source.hidden);
    }
  }

  class WallDocument extends ClientDocument {
    static documentName = "Wall";
  }

  /** `AmbientLightDocument` (`AmbientLightData`: `x`, `y`, `elevation`, `walls`, `vision`, `hidden`, `config: LightData`). */
  class AmbientLightDocument extends ClientDocument {
    static documentName = "AmbientLight";
    get config() {
      return this._source.config ?? {};
    }
    get hidden() {
      return Boolean(this._source.hidden);
    }
  }

  /** `SceneEnvironmentData` defaults (v12+): darkness level 0, global light off, active at every darkness level. */
  const ENVIRONMENT_DEFAULTS = { darknessLevel: 0, globalLight: { enabled: false, darkness: { min: 0, max: 1 } } };

  class Scene extends ClientDocument {
    static documentName = "Scene";
    static embedded = { Token: "tokens", Wall: "walls", AmbientLight: "lights" };
    /**
     * `Scene#environment` (`SceneEnvironmentData`, https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.SceneEnvironmentData.html:
     * `darknessLevel` 0 midday to 1 midnight, `globalLight: GlobalLightData` with `enabled` and
     * `darkness = {min, max}`), the schema defaults filled in.
     */
    get environment() {
      const source = this._source.environment ?? {};
      return {
        ...ENVIRONMENT_DEFAULTS,
        ...source,
        globalLight: { ...ENVIRONMENT_DEFAULTS.globalLight, ...(source.globalLight ?? {}), darkness: { ...ENVIRONMENT_DEFAULTS.globalLight.darkness, ...(source.globalLight?.darkness ?? {}) } },
      };
    }
    get isView() {
      return ctx.game.scenes?.viewed === this;
    }
    get grid() {
      return this._source.grid ?? { size: 100, distance: 5, units: "ft" };
    }
    /**
     * v14 Scene Levels: the scene's Level documents (`{_id, name, elevation: {bottom, top}}`,
     * https://foundryvtt.com/api/interfaces/foundry.documents.types.LevelData.html), read-only here.
     */
    get levels() {
      if (ctx.version < 14) return undefined;
      return new Collection((this._source.levels ?? []).map((level) => [level._id, { ...level, id: level._id }]));
    }
  }

  class JournalEntry extends ClientDocument {
    static documentName = "JournalEntry";
    get visible() {
      return this.testUserPermission(ctx.game.user, "OBSERVER");
    }
  }

  class Combatant extends ClientDocument {
    static documentName = "Combatant";
    get token() {
      const scene = ctx.game.scenes.get(this._source.sceneId ?? this.parent?._source.scene);
      return scene?.tokens.get(this._source.tokenId) ?? null;
    }
    get actor() {
      return this.token?.actor ?? ctx.game.actors.get(this._source.actorId) ?? null;
    }
    get name() {
      return this._source.name ?? this.token?.name ?? this.actor?.name ?? "";
    }
    get isOwner() {
      return this.token?.isOwner ?? false;
    }
    /** Shown in a player's tracker: not hidden ("Is this Combatant currently hidden?", CombatantData), or their own. */
    get visible() {
      return ctx.game.user.isGM || this.isOwner || !this._source.hidden;
    }
  }

  class Combat extends ClientDocument {
    static documentName = "Combat";
    static embedded = { Combatant: "combatants" };

    get turns() {
      return [...this.combatants.contents].sort((a, b) => (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || String(a.id).localeCompare(String(b.id)));
    }
    get combatant() {
      return this.started ? this.turns[this._source.turn ?? 0] ?? null : null;
    }
    get nextCombatant() {
      const turns = this.turns;
      return turns[((this._source.turn ?? 0) + 1) % turns.length] ?? null;
    }
    get started() {
      return (this._source.round ?? 0) > 0;
    }
    get scene() {
      return ctx.game.scenes.get(this._source.scene) ?? null;
    }
    get isActive() {
      return Boolean(this._source.active);
    }
    _historyData() {
      const combatant = this.combatant;
      return { round: this._source.round ?? 0, turn: this._source.turn ?? null, tokenId: combatant?.tokenId ?? null, combatantId: combatant?.id ?? null };
    }

    async startCombat() {
      const updateData = { round: 1, turn: 0 };
      ctx.Hooks.callAll("combatStart", this, updateData);
      return this.update(updateData);
    }

    /**
     * `updateOptions` of the `combatTurn` / `combatRound` hooks: `{advanceTime, direction}` in v12
     * (https://foundryvtt.com/api/v12/functions/hookEvents.combatTurn.html) AND v13
     * (https://foundryvtt.com/api/functions/hookEvents.combatTurn.html, the v13 pages); v14 has
     * `{direction, worldTime: {delta}}` (https://foundryvtt.com/api/v14/functions/hookEvents.combatRound.html).
     */
    _turnOptions(direction, seconds) {
      return ctx.version >= 14 ? { direction, worldTime: { delta: seconds } } : { advanceTime: seconds, direction };
    }

    async nextTurn() {
      const turns = this.turns;
      let turn = (this._source.turn ?? 0) + 1;
      let round = this._source.round ?? 0;
      if (turn >= turns.length) return this.nextRound();
      const updateData = { round, turn };
      const updateOptions = this._turnOptions(1, 0);
      ctx.Hooks.callAll("combatTurn", this, updateData, updateOptions);
      return this.update(updateData, updateOptions);
    }

    async nextRound() {
      const updateData = { round: (this._source.round ?? 0) + 1, turn: 0 };
      const updateOptions = this._turnOptions(1, 6);
      ctx.Hooks.callAll("combatRound", this, updateData, updateOptions);
      return this.update(updateData, updateOptions);
    }

    async previousTurn() {
      const turn = Math.max(0, (this._source.turn ?? 0) - 1);
      const updateData = { round: this._source.round, turn };
      const updateOptions = this._turnOptions(-1, 0);
      ctx.Hooks.callAll("combatTurn", this, updateData, updateOptions);
      return this.update(updateData, updateOptions);
    }

    async endCombat() {
      return this.delete();
    }
  }

  class ChatMessage extends ClientDocument {
    static documentName = "ChatMessage";

    get rolls() {
      return (this._source.rolls ?? []).map((r) => ctx.Roll.fromData(typeof r === "string" ? JSON.parse(r) : r));
    }
    get whisper() {
      return this._source.whisper ?? [];
    }
    get author() {
      return ctx.game.users.get(this._source.author) ?? null;
    }
    get isAuthor() {
      return this._source.author === ctx.game.user.id;
    }
    /**
     * "Return whether the ChatMessage is visible to the current User. Messages may not be visible if
     * they are private whispers"; a private roll is visible to everyone, its content only to its
     * author and recipients, a blind roll's to the GMs (`isContentVisible`: "For certain dice rolls,
     * for example, the message itself may be visible while the content of that message is not",
     * https://foundryvtt.com/api/v10/classes/client.ChatMessage.html; `blind`, "Is this message sent
     * blindly where the creating User cannot see it?", ChatMessageData).
     */
    get visible() {
      if (!this.whisper.length || this.isRoll) return true;
      return this.isAuthor || this.whisper.includes(ctx.game.user.id);
    }
    get isContentVisible() {
      if (!this.whisper.length) return true;
      if (this._source.blind) return ctx.game.user.isGM;
      return this.isAuthor || this.whisper.includes(ctx.game.user.id);
    }
    get isRoll() {
      return (this._source.rolls ?? []).length > 0;
    }

    /** `ChatMessage.getSpeaker({scene, actor, token, alias})`. */
    static getSpeaker({ scene, actor, token, alias } = {}) {
      const tokenDoc = token?.document ?? token ?? null;
      return {
        scene: (scene ?? tokenDoc?.parent ?? ctx.game.scenes.viewed)?.id ?? null,
        actor: (actor ?? tokenDoc?.actor)?.id ?? null,
        token: tokenDoc?.id ?? null,
        alias: alias ?? tokenDoc?.name ?? actor?.name ?? ctx.game.user.name,
      };
    }

    /** `ChatMessage.getWhisperRecipients(name)`: "GM"/"gm" -> GM users, "players" -> players, else by user name. */
    static getWhisperRecipients(name) {
      const lower = String(name).toLowerCase();
      if (lower === "gm") return ctx.game.users.filter((u) => u.isGM);
      if (lower === "players") return ctx.game.users.filter((u) => !u.isGM);
      const byName = ctx.game.users.filter((u) => u.name === name);
      if (byName.length) return byName;
      const actor = ctx.game.actors.find((a) => a.name === name);
      return actor ? ctx.game.users.filter((u) => !u.isGM && actor.testUserPermission(u, "OWNER")) : [];
    }

    /**
     * `ChatMessage.applyRollMode(data, rollMode)` (CONST.DICE_ROLL_MODES): "gmroll" and "blindroll" whisper
     * to the GMs (blind hides it from the roller too), "selfroll" to the user
     * (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html#applyRollMode).
     */
    static applyRollMode(data, rollMode) {
      // v14: deprecated for `applyMode`, to which it hands the mode (a v13 name mapped to its v14 one).
      if (ctx.version >= 14) {
        ctx.deprecations.push("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode");
        return ChatMessage.applyMode(data, ChatMessage._v14Mode(rollMode));
      }
      const modes = ctx.CONST.DICE_ROLL_MODES;
      if (rollMode === "roll") rollMode = ctx.game.settings.get("core", "rollMode");
      if ([modes.PRIVATE, modes.BLIND].includes(rollMode)) data.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
      else if (rollMode === modes.SELF) data.whisper = [ctx.game.user.id];
      else if (rollMode === modes.PUBLIC) data.whisper = [];
      data.blind = rollMode === modes.BLIND;
      return data;
    }

    /**
     * v14 `ChatMessage.applyMode(data, mode)`: the mode's `handler` from
     * `CONFIG.ChatMessage.modes` (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html);
     * an unknown mode changes nothing. Absent before 14.
     */
    static applyMode(data, mode) {
      if (ctx.version < 14) throw new TypeError("ChatMessage.applyMode is not a function");
      ctx.CONFIG.ChatMessage.modes[ChatMessage._v14Mode(mode)]?.handler(data);
      return data;
    }

    /** A mode name as v14 knows it: "roll" is the user's current mode; v13 names map to theirs. */
    static _v14Mode(mode) {
      if (!mode || mode === "roll") mode = ctx.game.settings.get("core", "messageMode");
      return { publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" }[mode] ?? mode;
    }

    static async create(data, options = {}) {
      const copy = { ...data };
      if (options.rollMode && ctx.version >= 14) ChatMessage.applyMode(copy, options.rollMode);
      else if (options.rollMode) ChatMessage.applyRollMode(copy, options.rollMode);
      if (Array.isArray(copy.whisper)) copy.whisper = copy.whisper.map((w) => (typeof w === "string" ? w : w.id));
      if (copy.rolls) copy.rolls = copy.rolls.map((r) => (typeof r === "string" ? JSON.parse(r) : typeof r.toJSON === "function" ? r.toJSON() : r));
      return super.create(copy, options);
    }
  }

  return { ClientDocument, User, Item, ActiveEffect, Actor, TokenDocument, WallDocument, AmbientLightDocument, Scene, JournalEntry, Combatant, Combat, ChatMessage };
}

/**
 * One fake Foundry client (one browser tab of one user). `createClient`
 * installs the Foundry globals (`game`, `canvas`, `CONFIG`, `CONST`, `Hooks`,
 * `ui`, `foundry`, `Roll`, `ChatMessage`, ... and optionally `libWrapper`) on
 * the given global object, which must be the realm the module runs in (an
 * iframe window in the browser, a jsdom window context in Node). Plain ESM:
 * no Node-only imports.
 *
 * Boot order (hookEvents docs): module scripts evaluated, `init`, translations
 * loaded, `i18nInit`, `setup`, canvas drawn (`canvasInit`, `canvasReady`), `ready`.
 */
import { createCanvasClasses, DOOR_STATES, WALL_SENSE } from "./canvas.mjs";
import { createApplications } from "./applications.mjs";
import { createCombatTracker } from "./combat-tracker.mjs";
import { createDialogV2 } from "./dialog.mjs";
import { createDice } from "./dice.mjs";
import { createDocuments, LEVELS } from "./documents.mjs";
import { createHooks } from "./hooks.mjs";
import { Localization } from "./i18n.mjs";
import { createLibWrapper } from "./libwrapper.mjs";
import { Collection, ForcedDeletion, DataFieldOperator, deepClone, reconstructOperators, utils } from "./utils.mjs";

/**
 * `CONST`. `SETTING_SCOPES` has CLIENT, USER and WORLD in v13 and v14
 * (https://foundryvtt.com/api/variables/CONST.SETTING_SCOPES.html).
 */
function makeConst() {
  return Object.freeze({ ...BASE_CONST, SETTING_SCOPES: Object.freeze({ CLIENT: "client", WORLD: "world", USER: "user" }) });
}

const BASE_CONST = Object.freeze({
  DOCUMENT_OWNERSHIP_LEVELS: Object.freeze({ INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 }),
  USER_ROLES: Object.freeze({ NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 }),
  DICE_ROLL_MODES: Object.freeze({ PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" }),
  TOKEN_DISPOSITIONS: Object.freeze({ SECRET: -2, HOSTILE: -1, NEUTRAL: 0, FRIENDLY: 1 }),
  WALL_SENSE_TYPES: Object.freeze({ ...WALL_SENSE }),
  WALL_DOOR_TYPES: Object.freeze({ NONE: 0, DOOR: 1, SECRET: 2 }),
  WALL_DOOR_STATES: Object.freeze({ ...DOOR_STATES }),
  CHAT_MESSAGE_STYLES: Object.freeze({ OTHER: 0, OOC: 1, IC: 2, EMOTE: 3 }),
});

/**
 * v14 `CONFIG.statusEffects`: a record by id "with backwards compatibility"
 * (foundryvtt/foundryvtt#13122, https://foundryvtt.com/api/v14/variables/CONFIG.statusEffects.html):
 * the array-style reads and `push` that v13 code uses keep working (dnd5e
 * release-5.3.3 calls `CONFIG.statusEffects.find`, `.map`, `.forEach` and `.push`
 * on v14: dnd5e.mjs `_configureStatusEffects`, module/utils.mjs L1150,
 * module/documents/active-effect.mjs L752), and an array assigned to it becomes
 * the record (dnd5e 5.3.3 assigns one, then reads `CONFIG.statusEffects[id]`,
 * active-effect.mjs L992-994). The methods are not own properties: `Object.values`
 * and `Object.entries` list the effects only. A plain object assigned instead
 * (what pf2e does, mclemente/healthEstimate#337) has no array methods.
 */
const STATUS_RECORD_METHODS = Object.create(Object.prototype, {
  find: { value(fn) { return Object.values(this).find(fn); } },
  findIndex: { value(fn) { return Object.values(this).findIndex(fn); } },
  some: { value(fn) { return Object.values(this).some(fn); } },
  every: { value(fn) { return Object.values(this).every(fn); } },
  filter: { value(fn) { return Object.values(this).filter(fn); } },
  map: { value(fn) { return Object.values(this).map(fn); } },
  forEach: { value(fn) { Object.values(this).forEach(fn); } },
  push: { value(...entries) { for (const entry of entries) this[entry.id] = entry; return Object.keys(this).length; } },
  length: { get() { return Object.keys(this).length; } },
  [Symbol.iterator]: { value() { return Object.values(this)[Symbol.iterator](); } },
});
function statusEffectRecord(entries) {
  const record = Object.create(STATUS_RECORD_METHODS);
  for (const entry of entries) record[entry.id] = entry;
  return record;
}

const DEFAULT_STATUS_EFFECTS = [
  { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
  { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
  { id: "sleep", name: "EFFECT.StatusAsleep", img: "icons/svg/sleep.svg" },
  { id: "stun", name: "EFFECT.StatusStunned", img: "icons/svg/daze.svg" },
  { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
  { id: "blind", name: "EFFECT.StatusBlind", img: "icons/svg/blind.svg" },
  { id: "invisible", name: "EFFECT.StatusInvisible", img: "icons/svg/invisible.svg" },
  { id: "fly", name: "EFFECT.StatusFlying", img: "icons/svg/wing.svg" },
];

/**
 * @param {object} options
 * @param {object} options.global        the realm's global object (window)
 * @param {object} options.server        a FakeServer (or anything with `connect(userId, deliver)`)
 * @param {string} options.userId
 * @param {number} [options.version]  the Foundry generation: 13 or 14 (above 14: a v14 client, for
 *   the module's refusal of a newer Foundry); the fake models no older one
 * @param {(ctx: object) => void} [options.system]  the game system's script, evaluated before
 *   the modules' scripts (systems load first): registers its own hooks (e.g. replaces
 *   `CONFIG.statusEffects` at `ready`, registers a detection mode at `setup`)
 * @param {string} [options.lang]         "en" or "fr"
 * @param {boolean} [options.libWrapper]  install the lib-wrapper module
 * @param {(url: string) => Promise<any>} options.fetchJson  reads a JSON file (lang files)
 * @param {(id: string) => string} options.packageBase  URL of a package's folder, ending in "/" (Foundry serves `modules/<id>/`)
 * @param {(fn: Function) => void} [options.scheduleFrame]  how frames are scheduled (default setTimeout 0)
 */
export function createClient(options) {
  const { global, server, userId, version = 13, lang = "en", fetchJson, packageBase } = options;
  if (!(version >= 13)) throw new Error(`the fake models Foundry 13 and 14, not ${version}`);
  const CONST = makeConst();
  const ctx = {
    global,
    version,
    CONST,
    utils,
    warnings: [],
    // Compatibility warnings Foundry would log (`foundry.utils.logCompatibilityWarning`): a v14 `-=key` deletion.
    deprecations: [],
    errors: [],
    sounds: [],
    notifications: [],
    dialogs: [],
    frames: [],
    nextAppId: 1,
    activeUsers: new Set(),
    pendingRequests: new Map(),
    /** Each user's `User#viewedScene`, as their clients report it (server.mjs, user activity). */
    viewedScenes: new Map(),
    nextRequest: 1,
    frameScheduled: false,
    syntheticEpoch: 0,
  };
  ctx.Hooks = createHooks({
    onError: (location, error, { msg }) => {
      ctx.errors.push({ location, error, msg });
    },
  });

  // ------------------------------------------------------------- transport
  const connection = server.connect(userId, (json) => receive(json));
  const world = JSON.parse(connection.snapshot);
  ctx.request = (message) =>
    new Promise((resolve, reject) => {
      const requestId = `${userId}-${ctx.nextRequest++}`;
      ctx.pendingRequests.set(requestId, { resolve, reject });
      connection.send(JSON.stringify({ ...message, requestId }));
    });

  /** Reports this client's activity (`User#broadcastActivity`): the scene it views. */
  ctx.sendActivity = (activity) => connection.send(JSON.stringify({ op: "activity", sceneId: activity.sceneId }));

  // --------------------------------------------------------------- classes
  const docs = createDocuments(ctx);
  const dice = createDice(ctx);
  const canvasClasses = createCanvasClasses(ctx);
  const DialogV2 = createDialogV2(ctx);
  ctx.utils = utils;
  const apps = createApplications(ctx);
  ctx.openSettingsMenu = apps.openSettingsMenu;
  Object.assign(ctx, docs, { Roll: dice.Roll });
  const CLASSES = { User: docs.User, Actor: docs.Actor, Item: docs.Item, ActiveEffect: docs.ActiveEffect, Scene: docs.Scene, Token: docs.TokenDocument, Wall: docs.WallDocument, AmbientLight: docs.AmbientLightDocument, JournalEntry: docs.JournalEntry, ChatMessage: docs.ChatMessage, Combat: docs.Combat, Combatant: docs.Combatant };
  ctx.instantiate = (type, source, parent, parentRef) => new CLASSES[type](source, { parent, parentRef });

  ctx.createDocuments = async (type, data, { parent = null, parentRef = null, ...options } = {}) => {
    const prepared = [];
    for (const raw of data) {
      const item = deepClone(raw);
      const preview = ctx.instantiate(type, deepClone(item), parent, parentRef);
      if (ctx.Hooks.call(`preCreate${type}`, preview, item, options, ctx.game.user.id) === false) continue;
      // What is created is the pending document, with any `updateSource` a listener made.
      prepared.push(preview.toObject());
    }
    if (!prepared.length) return [];
    const ids = await ctx.request({ op: "modify", action: "create", type, parent: parentRef, data: prepared, options });
    return ids.map((created) => findDocument(type, parentRef, created._id));
  };

  // ------------------------------------------------------------ world data
  const game = {
    ready: false,
    // Builds a GM can run the supported dnd5e on: 13.347 (dnd5e 5.1+'s minimum, system.json
    // at release-5.1.10) and 14.360 (verified by Vision 5e 3.1.0, dev7355608/vision-5e module.json).
    release: { generation: version, build: version === 13 ? 347 : 360 },
    version: version === 13 ? "13.347" : `${version}.360`,
    system: { id: world.data.system?.id ?? "worldbuilding", version: world.data.system?.version ?? "1.0.0" },
    world: { id: world.data.id ?? "fake-world" },
    userId,
    paused: false,
    users: new Collection(),
    actors: new Collection(),
    scenes: new Collection(),
    journal: new Collection(),
    messages: new Collection(),
    combats: new Collection(),
    i18n: new Localization(lang),
  };
  ctx.game = game;
  for (const id of world.activeUsers) ctx.activeUsers.add(id);
  Object.defineProperty(game.users, "activeGM", {
    get() {
      // The designated GM: an active Gamemaster before an Assistant, then by id.
      const gms = this.filter((u) => u.active && u.isGM).sort((a, b) => b.role - a.role || a.id.localeCompare(b.id));
      return gms[0] ?? null;
    },
  });
  Object.defineProperty(game.users, "current", { get: () => game.users.get(userId) ?? null });
  Object.defineProperty(game.users, "players", { get: () => game.users.filter((u) => !u.isGM) });
  Object.defineProperty(game, "user", { get: () => game.users.get(userId) });
  Object.defineProperty(game.scenes, "active", { get: () => game.scenes.find((s) => s._source.active) ?? null });
  Object.defineProperty(game.scenes, "viewed", { get: () => game.scenes.get(ctx.viewedSceneId) ?? null });
  Object.defineProperty(game.scenes, "current", { get: () => game.scenes.get(ctx.viewedSceneId) ?? null });
  Object.defineProperty(game, "combat", {
    get: () => game.combats.find((c) => c._source.active && (!c._source.scene || c._source.scene === ctx.viewedSceneId)) ?? game.combats.find((c) => !c._source.scene || c._source.scene === ctx.viewedSceneId) ?? null,
  });
  const TOP = { User: game.users, Actor: game.actors, Scene: game.scenes, JournalEntry: game.journal, ChatMessage: game.messages, Combat: game.combats };
  const SOURCE_KEYS = { User: "users", Actor: "actors", Scene: "scenes", JournalEntry: "journal", ChatMessage: "messages", Combat: "combats" };
  for (const [type, key] of Object.entries(SOURCE_KEYS)) {
    for (const source of world.data[key] ?? []) TOP[type].set(source._id, ctx.instantiate(type, source, null, null));
  }
  // `User#targets`: the tokens this user targets (a Set of Token placeables).
  game.users.get(userId).targets = new Set();
  ctx.viewedSceneId = (world.data.scenes.find((s) => s.active) ?? world.data.scenes[0])?._id ?? null;
  // This client views that scene and says so (user activity, server.mjs); it learns the others'.
  for (const [id, sceneId] of Object.entries(world.viewedScenes ?? {})) ctx.viewedScenes.set(id, sceneId);
  ctx.viewedScenes.set(userId, ctx.viewedSceneId);
  ctx.sendActivity({ sceneId: ctx.viewedSceneId });

  // --------------------------------------------------------------- modules
  game.modules = new Collection();
  const moduleManifests = [...(world.modules ?? [])];
  // libWrapper 1.13.5 declares v14 compatibility (ruipin/fvtt-lib-wrapper CHANGELOG, 2026-05-03).
  if (options.libWrapper) moduleManifests.push({ id: "lib-wrapper", title: "libWrapper", version: version >= 14 ? "1.13.5.1" : "1.12.15", esmodules: [] });
  for (const manifest of moduleManifests) game.modules.set(manifest.id, { ...deepClone(manifest), active: true, base: packageBase(manifest.id) });

  // -------------------------------------------------------------- settings
  const clientStorage = new Map();
  const worldValues = new Map();
  const userValues = new Map();
  for (const s of world.data.settings ?? []) (s.user ? userValues : worldValues).set(s.key, s.value);
  const registered = new Map();
  const cast = (config, value) => {
    if (value === undefined || value === null) return value;
    if (config.type === Number) return Number(value);
    if (config.type === Boolean) return Boolean(value);
    if (config.type === String) return String(value);
    return value;
  };
  game.settings = {
    settings: registered,
    storage: new Map([["client", clientStorage], ["world", worldValues]]),
    register(namespace, key, config) {
      if (!namespace || !key) throw new Error("You must specify both namespace and key portions of the setting");
      const id = `${namespace}.${key}`;
      registered.set(id, { ...config, namespace, key, id, scope: config.scope ?? "client" });
    },
    menus: new Map(),
    registerMenu: apps.registerMenu,
    get(namespace, key) {
      const id = `${namespace}.${key}`;
      const config = registered.get(id);
      if (!config) throw new Error(`"${id}" is not a registered game setting`);
      const store = config.scope === "client" ? clientStorage : config.scope === "user" ? userValues : worldValues;
      if (!store.has(id)) return deepClone(config.default);
      return cast(config, JSON.parse(store.get(id)));
    },
    async set(namespace, key, value) {
      const id = `${namespace}.${key}`;
      const config = registered.get(id);
      if (!config) throw new Error(`"${id}" is not a registered game setting`);
      // Independent review (public docs only): the stored text of the wiki "Settings" page that this review could read
      // does not state this rule, and no API page does; it is kept as the conservative reading.
      // World settings cannot be written before `ready` (community wiki "Settings",
      // https://foundryvtt.wiki/en/development/api/settings: the world's Setting documents
      // are not available to write until the game is ready).
      if (config.scope === "world" && !game.ready) throw new Error(`Cannot set the world setting "${id}" before the game is ready`);
      const json = JSON.stringify(cast(config, value));
      if (config.scope === "client") {
        clientStorage.set(id, json);
        config.onChange?.(game.settings.get(namespace, key), {}, userId);
        return value;
      }
      await ctx.request({ op: "setting", key: id, value: json, scope: config.scope });
      return game.settings.get(namespace, key);
    },
  };
  // v14: `core.messageMode` replaces `core.rollMode` (dnd5e release-5.3.3 module/dice/basic-roll.mjs L441
  // reads "rollMode" below 14, "messageMode" from 14; dnd5e 6.0, c83a613dd, reads only "messageMode").
  if (version >= 14) game.settings.register("core", "messageMode", { scope: "client", config: true, type: String, default: "public" });
  else game.settings.register("core", "rollMode", { scope: "client", config: true, type: String, default: "publicroll" });
  game.settings.register("core", "language", { scope: "client", config: true, type: String, default: lang });

  // ---------------------------------------------------------------- socket
  // `game.socket.on(event, fn)`: Foundry's server relays a package event to every other
  // client and calls each listener with the emitted arguments followed by the id of the user
  // who emitted it (community wiki "Sockets", https://foundryvtt.wiki/en/development/api/sockets).
  // The sender id comes from the server's session, not from the payload.
  // Independent review (public docs only): the wiki text this review could read shows the emit/listen pattern and
  // "emitted to every client" but not the trailing sender id; no API page documents the listener's
  // arguments. Kept as the fake's reading; unverified.
  const socketListeners = new Map();
  game.socket = {
    emit(event, ...args) {
      // A trailing acknowledgement function is dropped and never called: whether Foundry's server
      // acknowledges package events is not documented (no public page found).
      if (typeof args.at(-1) === "function") args.pop();
      connection.send(JSON.stringify({ op: "socket", event, args }));
      return game.socket;
    },
    on(event, fn) {
      if (!socketListeners.has(event)) socketListeners.set(event, []);
      socketListeners.get(event).push(fn);
      return game.socket;
    },
    off(event, fn) {
      socketListeners.set(
        event,
        (socketListeners.get(event) ?? []).filter((f) => f !== fn),
      );
      return game.socket;
    },
  };

  // ---------------------------------------------------------------- CONFIG
  const detectionModes = {
    lightPerception: new canvasClasses.DetectionModeLightPerception({ id: "lightPerception", label: "DETECTION.LightPerception" }),
    basicSight: new canvasClasses.DetectionModeDarkvision({ id: "basicSight", label: "DETECTION.BasicSight" }),
    seeInvisibility: new canvasClasses.DetectionModeInvisibility({ id: "seeInvisibility", label: "DETECTION.SeeInvisibility" }),
    // The "Sense" modes are not sight modes (type OTHER = 3): blindness does not suppress them
    // (DetectionModeInvisibility v11 page "The "See" version needs sight and is affected by
    // blindness"; foundryvtt/foundryvtt#8001 for See All). Their exact type value has no v12/v13
    // page here; OTHER is the reading.
    senseInvisibility: new canvasClasses.DetectionModeInvisibility({ id: "senseInvisibility", label: "DETECTION.SenseInvisibility", type: 3, walls: false, angle: false }),
    feelTremor: new canvasClasses.DetectionModeTremor({ id: "feelTremor", label: "DETECTION.FeelTremor", type: 2, walls: false, angle: false }),
    seeAll: new canvasClasses.DetectionModeAll({ id: "seeAll", label: "DETECTION.SeeAll" }),
    senseAll: new canvasClasses.DetectionModeAll({ id: "senseAll", label: "DETECTION.SenseAll", type: 3, walls: false, angle: false }),
  };
  const CONFIG = {
    // v13: an array of StatusEffectConfig (https://foundryvtt.com/api/variables/CONFIG.statusEffects.html);
    // v14: a record by id that keeps array-style access (STATUS_RECORD_METHODS above).
    statusEffects: version >= 14 ? statusEffectRecord(deepClone(DEFAULT_STATUS_EFFECTS)) : deepClone(DEFAULT_STATUS_EFFECTS),
    specialStatusEffects: { DEFEATED: "dead", INVISIBLE: "invisible", BLIND: "blind", BURROW: "burrow", HOVER: "hover", FLY: "fly" },
    // The dice sound systems put on roll messages (`sound: CONFIG.sounds.dice`, usage; the fake's Roll#toMessage does too).
    sounds: { dice: "sounds/dice.wav" },
    Canvas: {
      detectionModes,
      polygonBackends: { sight: canvasClasses.ClockwiseSweepPolygon, light: canvasClasses.ClockwiseSweepPolygon, sound: canvasClasses.ClockwiseSweepPolygon, move: canvasClasses.ClockwiseSweepPolygon },
    },
    Dice: { randomUniform: Math.random, rolls: [dice.Roll], terms: { d: dice.Die } },
    Token: { documentClass: docs.TokenDocument, objectClass: canvasClasses.Token, hudClass: canvasClasses.TokenHUD, rulerClass: canvasClasses.TokenRuler },
    Actor: { documentClass: docs.Actor },
    // `batchSize`: how many messages the chat log renders at a time (https://foundryvtt.com/api/variables/CONFIG.ChatMessage.html).
    ChatMessage: { documentClass: docs.ChatMessage, batchSize: 100 },
    Combat: { documentClass: docs.Combat },
    queries: {},
  };
  if (version >= 14) {
    let statusEffects = CONFIG.statusEffects;
    Object.defineProperty(CONFIG, "statusEffects", {
      enumerable: true,
      get: () => statusEffects,
      set: (value) => (statusEffects = Array.isArray(value) ? statusEffectRecord(value) : value),
    });
    // Message modes (https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html: `modes`,
    // "Supported chat message visibility modes", each `{handler(data), icon, label}`), replacing
    // v13's roll modes publicroll/gmroll/blindroll/selfroll; "ic" counts as public for a roll (dnd5e
    // release-5.3.3 module/dice/basic-roll.mjs `getMessageMode`). The handlers set `whisper`/`blind`
    // as v13's roll modes did; the labels and icons are the fake's own.
    const gms = () => ctx.game.users.filter((u) => u.isGM).map((u) => u.id);
    CONFIG.ChatMessage.modes = {
      public: { label: "CHAT.MODES.Public", icon: "fa-solid fa-globe", handler: (data) => Object.assign(data, { whisper: [], blind: false }) },
      gm: { label: "CHAT.MODES.GM", icon: "fa-solid fa-user-secret", handler: (data) => Object.assign(data, { whisper: gms(), blind: false }) },
      blind: { label: "CHAT.MODES.Blind", icon: "fa-solid fa-eye-slash", handler: (data) => Object.assign(data, { whisper: gms(), blind: true }) },
      self: { label: "CHAT.MODES.Self", icon: "fa-solid fa-user", handler: (data) => Object.assign(data, { whisper: [ctx.game.user.id], blind: false }) },
      ic: { label: "CHAT.MODES.IC", icon: "fa-solid fa-comment", handler: (data) => Object.assign(data, { whisper: [], blind: false }) },
    };
  }
  ctx.CONFIG = CONFIG;

  // ------------------------------------------------------------------ ui
  const notify = (type) => (message, opts = {}) => {
    const entry = { type, message: String(message), options: opts };
    ctx.notifications.push(entry);
    const doc = global.document;
    const list = doc.getElementById("notifications");
    if (list) {
      const li = doc.createElement("li");
      li.className = `notification ${type}`;
      li.textContent = entry.message;
      list.append(li);
    }
    return entry;
  };
  const ui = {
    notifications: { info: notify("info"), warn: notify("warning"), error: notify("error"), success: notify("success"), notify: (message, type = "info", opts) => notify(type)(message, opts) },
    chat: { element: null },
    combat: null,
    windows: {},
  };

  // ---------------------------------------------------------------- canvas
  const canvas = {
    ready: false,
    scene: null,
    tokens: new canvasClasses.TokenLayer("tokens"),
    walls: new canvasClasses.PlaceablesLayer("walls"),
    perception: new canvasClasses.PerceptionManager(),
    visibility: new canvasClasses.CanvasVisibility(),
    effects: new canvasClasses.EffectsCanvasGroup(),
    hud: { token: new canvasClasses.TokenHUD() },
    /** Identity transform: the fake canvas is drawn at scale 1 from the page origin. */
    clientCoordinatesFromCanvas: (point) => ({ x: point.x, y: point.y }),
    grid: null,
    dimensions: null,
  };
  ctx.canvas = canvas;
  // v14 Scene Levels: `canvas.level` is the Level the user views (`SceneViewOptions#level`,
  // https://foundryvtt.com/api/interfaces/foundry.documents.types.SceneViewOptions.html; PF2e Visioner
  // reads `canvas.level.id`); `ctx.viewLevel(id)` switches it (the fake's seam), else the first level.
  if (version >= 14) {
    ctx.viewedLevelId = null;
    Object.defineProperty(canvas, "level", { get: () => canvas.scene?.levels?.get(ctx.viewedLevelId) ?? canvas.scene?.levels?.contents[0] ?? null });
    ctx.viewLevel = (id) => {
      ctx.viewedLevelId = id;
      canvas.perception.update({ initializeVision: true, initializeLighting: true });
    };
  }

  function drawCanvas() {
    const scene = game.scenes.viewed;
    canvas.scene = scene;
    if (!scene) return;
    canvas.grid = new canvasClasses.GridConfig(scene);
    const width = scene._source.width ?? 4000;
    const height = scene._source.height ?? 3000;
    canvas.dimensions = { size: canvas.grid.size, distance: canvas.grid.distance, distancePixels: canvas.grid.size / canvas.grid.distance, width, height, sceneRect: { x: 0, y: 0, width, height } };
    ctx.Hooks.callAll("canvasInit", canvas);
    canvas.tokens.objects.clear();
    // Token placeables are instances of CONFIG.Token.objectClass, which a system may
    // replace with a subclass (https://foundryvtt.com/api/variables/CONFIG.Token.html).
    canvas.walls.objects.clear();
    for (const token of scene.tokens) canvas.tokens.objects.set(token.id, new (CONFIG.Token.objectClass ?? canvasClasses.Token)(token));
    for (const wall of scene.walls) canvas.walls.objects.set(wall.id, new canvasClasses.Wall(wall));
    // Light and darkness sources: the scene's AmbientLight documents and the lights tokens carry,
    // kept in step with their documents (syncLightSource on create/update/delete).
    canvas.effects.lightSources.clear();
    canvas.effects.darknessSources.clear();
    for (const light of scene.lights) syncLightSource("AmbientLight", light);
    for (const token of canvas.tokens.placeables) token.initializeLightSource();
    initializeVision();
    for (const token of canvas.tokens.placeables) token.visible = token.isVisible;
    canvas.ready = true;
    ctx.Hooks.callAll("canvasReady", canvas);
  }

  /**
   * Vision sources of this user (see canvas.mjs header). That a player sees through every token they
   * observe only while controlling none matches the public Shared Vision module docs ("By default,
   * you can do this in Foundry by giving every player observer permissions, but in that case tokens
   * will only share vision if the player has no tokens selected",
   * https://materialfoundry.github.io/SharedVision); no core API page states it.
   */
  function initializeVision() {
    canvas.effects.visionSources.clear();
    const controlled = canvas.tokens.controlled;
    for (const token of canvas.tokens.placeables) {
      token.vision = null;
      if (!token.hasSight || !token.observer) continue;
      const active = controlled.length ? token.controlled : !game.user.isGM;
      if (!active) continue;
      token.vision = new canvasClasses.PointVisionSource(token);
      canvas.effects.visionSources.set(token.sourceId, token.vision);
    }
  }

  /**
   * The light (or darkness) source of an AmbientLight document or of a token's `light`, after a
   * change; `document` null removes it. Only for the viewed scene.
   */
  function syncLightSource(type, document, id = document?.id) {
    canvas.effects._syncSource(`${type}.${id}`, document, { token: type === "Token" });
  }

  ctx.scheduleFrame = () => {
    if (ctx.frameScheduled) return;
    ctx.frameScheduled = true;
    (options.scheduleFrame ?? ((fn) => setTimeout(fn, 0)))(() => ctx.frame());
  };

  /** Applies pending render flags, like one rendered frame. */
  ctx.frame = () => {
    ctx.frameScheduled = false;
    if (!canvas.ready) return;
    const flags = canvas.perception.pending;
    canvas.perception.pending = {};
    if (flags.initializeVision) initializeVision();
    const all = flags.initializeVision || flags.refreshVision || flags.refreshVisibility;
    for (const token of canvas.tokens.placeables) {
      if (all || token.renderFlags.has("refreshVisibility") || token.renderFlags.has("refreshPosition")) token.visible = token.isVisible;
      // `Token#_refreshState` sets the ruler's `visible` from its `isVisible` (canvas.mjs TokenRuler).
      if (token.ruler && (all || token.renderFlags.has("refreshState"))) token.ruler.visible = token.ruler.isVisible;
      token.renderFlags.clear();
    }
    ctx.frames.push({
      flags,
      visible: Object.fromEntries(canvas.tokens.placeables.map((t) => [t.id, t.visible])),
      rulers: Object.fromEntries(canvas.tokens.placeables.filter((t) => t.ruler?.visible).map((t) => [t.id, t.ruler.path])),
      lights: [...canvas.effects.lightSources.keys(), ...canvas.effects.darknessSources.keys()],
      sceneFlags: deepClone(canvas.scene?._source.flags ?? {}),
    });
    ctx.Hooks.callAll("fake.frame", canvas);
  };

  // ------------------------------------------------- applying server changes
  function findParent(parentRef) {
    if (!parentRef) return null;
    if (parentRef.tokenId) {
      const scene = game.scenes.get(parentRef.sceneId) ?? game.scenes.find((s) => s.tokens.has(parentRef.tokenId));
      return scene?.tokens.get(parentRef.tokenId)?.actor ?? null;
    }
    return TOP[parentRef.type]?.get(parentRef.id) ?? null;
  }

  function collectionOf(type, parentRef) {
    if (!parentRef) return TOP[type];
    const parent = findParent(parentRef);
    return parent?.[parent.constructor.embedded[type]] ?? null;
  }

  function findDocument(type, parentRef, id) {
    return collectionOf(type, parentRef)?.get(id) ?? null;
  }

  /** The source array behind an embedded collection (kept in sync with the server's). */
  function sourceListOf(type, parentRef) {
    if (!parentRef) return null;
    if (parentRef.tokenId) {
      const scene = game.scenes.get(parentRef.sceneId) ?? game.scenes.find((s) => s.tokens.has(parentRef.tokenId));
      const token = scene.tokens.get(parentRef.tokenId);
      token._source.delta ??= {};
      token._source.delta.effects ??= [];
      return token._source.delta.effects;
    }
    const parent = TOP[parentRef.type].get(parentRef.id);
    const key = parent.constructor.embedded[type];
    parent._source[key] ??= [];
    return parent._source[key];
  }

  function afterTokenChange(token, changed) {
    const placeable = canvas.tokens.get(token.id);
    if (!placeable) return;
    if ("x" in changed || "y" in changed || "width" in changed || "height" in changed) {
      placeable.renderFlagsSet({ refreshPosition: true, refreshVisibility: true });
      if (placeable.vision) canvas.perception.update({ initializeVision: true });
    }
    if ("hidden" in changed || "sight" in changed || "detectionModes" in changed) canvas.perception.update({ initializeVision: true });
  }

  function afterEffectChange(parentRef, effectSource) {
    const statuses = effectSource?.statuses ?? [];
    const special = [CONFIG.specialStatusEffects.INVISIBLE, CONFIG.specialStatusEffects.BLIND];
    if (statuses.some((s) => special.includes(s))) canvas.perception.update({ initializeVision: true });
  }

  function applyModify(message) {
    applyModifyInner(message);
    // The tracker shows the viewed combat: rendered again after it or its combatants change (combat-tracker.mjs).
    if ((message.type === "Combat" || message.type === "Combatant") && ui.combat?.rendered) void ui.combat.render();
  }

  function applyModifyInner(message) {
    const { action, type, parent: parentRef, result, options: opts, userId: author } = message;
    if (["Actor", "Token", "ActiveEffect", "Item"].includes(type)) ctx.syntheticEpoch += 1;
    const collection = collectionOf(type, parentRef);
    if (!collection) return;
    const parentDoc = findParent(parentRef);
    if (action === "create") {
      for (const source of result) {
        const list = sourceListOf(type, parentRef);
        if (list) list.push(source);
        const doc = ctx.instantiate(type, list ? list.at(-1) : source, parentDoc, parentRef);
        collection.set(doc.id, doc);
        if (parentDoc?._prepare) parentDoc._prepare();
        if (type === "Token" && parentRef?.id === ctx.viewedSceneId && canvas.ready) {
          const placeable = new (CONFIG.Token.objectClass ?? canvasClasses.Token)(doc);
          canvas.tokens.objects.set(doc.id, placeable);
          canvas.perception.update({ initializeVision: true });
        }
        if (type === "Wall" && parentRef?.id === ctx.viewedSceneId && canvas.ready) {
          canvas.walls.objects.set(doc.id, new canvasClasses.Wall(doc));
          canvas.perception.update({ initializeVision: true });
        }
        if ((type === "AmbientLight" || type === "Token") && parentRef?.id === ctx.viewedSceneId && canvas.ready) {
          if (type === "Token") canvas.tokens.get(doc.id)?.initializeLightSource();
          else syncLightSource(type, doc);
          canvas.perception.update({ initializeLighting: true, refreshVision: true });
        }
        if (type === "ActiveEffect") afterEffectChange(parentRef, source);
        ctx.Hooks.callAll(`create${type}`, doc, opts, author);
      }
    } else if (action === "update") {
      for (const changed of result) {
        const doc = collection.get(changed._id);
        if (!doc) continue;
        const prior = type === "Combat" ? doc._historyData() : null;
        // v14: operators arrive serialized and are rebuilt (`reconstructOperator`, utils.mjs).
        if (version >= 14) reconstructOperators(changed);
        const { _id, ...diff } = changed;
        const from = type === "Token" && ("x" in diff || "y" in diff) ? { x: doc._source.x, y: doc._source.y } : null;
        doc._applyUpdate(diff);
        // The token's ruler shows the movement (canvas.mjs TokenRuler).
        if (from && parentRef?.id === ctx.viewedSceneId) {
          const moved = canvas.tokens.get(doc.id);
          moved?.ruler?._record(from, { x: doc._source.x, y: doc._source.y });
          moved?.renderFlags.set({ refreshState: true });
        }
        if (parentDoc?._prepare) parentDoc._prepare();
        if (type === "Token") afterTokenChange(doc, diff);
        if ((type === "AmbientLight" || type === "Token") && parentRef?.id === ctx.viewedSceneId && canvas.ready) {
          if (type === "Token") canvas.tokens.get(doc.id)?.initializeLightSource();
          else syncLightSource(type, doc);
          if (type === "AmbientLight" || "light" in diff) canvas.perception.update({ initializeLighting: true, refreshVision: true });
        }
        if (type === "Scene" && doc.id === ctx.viewedSceneId && "environment" in diff) canvas.perception.update({ initializeLighting: true, refreshVision: true });
        if (type === "Wall") canvas.perception.update({ initializeVision: true, initializeLighting: true });
        ctx.Hooks.callAll(`update${type}`, doc, changed, opts, author);
        if (type === "Combat" && ("turn" in diff || "round" in diff)) {
          ctx.Hooks.callAll("combatTurnChange", doc, prior, doc._historyData());
        }
      }
    } else if (action === "delete") {
      for (const id of result) {
        const doc = collection.get(id);
        if (!doc) continue;
        collection.delete(id);
        const list = sourceListOf(type, parentRef);
        const index = list ? list.findIndex((s) => s._id === id) : -1;
        if (index >= 0) list.splice(index, 1);
        if (parentDoc?._prepare) parentDoc._prepare();
        if (type === "Token" && canvas.tokens.get(id)) {
          if (canvas.hud.token.object?.id === id) canvas.hud.token.clear();
          canvas.tokens.objects.delete(id);
          canvas.perception.update({ initializeVision: true });
        }
        if (type === "Wall" && canvas.walls.get(id)) {
          canvas.walls.objects.delete(id);
          canvas.perception.update({ initializeVision: true });
        }
        if ((type === "AmbientLight" || type === "Token") && parentRef?.id === ctx.viewedSceneId && canvas.ready) {
          syncLightSource(type, null, id);
          canvas.perception.update({ initializeLighting: true, refreshVision: true });
        }
        if (type === "ActiveEffect") afterEffectChange(parentRef, doc._source);
        ctx.Hooks.callAll(`delete${type}`, doc, opts, author);
      }
    }
  }

  function receive(json) {
    const message = JSON.parse(json);
    switch (message.op) {
      case "response": {
        const pending = ctx.pendingRequests.get(message.requestId);
        if (!pending) return;
        ctx.pendingRequests.delete(message.requestId);
        if (message.error) pending.reject(new Error(message.error));
        else pending.resolve(message.result);
        return;
      }
      case "modify":
        return applyModify(message);
      case "setting": {
        const store = message.scope === "user" ? userValues : worldValues;
        store.set(message.key, message.value);
        const config = registered.get(message.key);
        if (config?.onChange) {
          try {
            config.onChange(game.settings.get(config.namespace, config.key), {}, message.userId);
          } catch (error) {
            ctx.errors.push({ location: "Setting#onChange", error });
          }
        }
        return;
      }
      case "socket":
        for (const fn of socketListeners.get(message.event) ?? []) {
          try {
            fn(...message.args, message.userId);
          } catch (error) {
            ctx.errors.push({ location: "socket", error });
          }
        }
        return;
      case "query": {
        // The target side of `User#query`: the registered handler answers.
        const handler = CONFIG.queries?.[message.queryName];
        const send = (result, error) => connection.send(JSON.stringify({ op: "queryResult", queryId: message.queryId, result, error }));
        if (typeof handler !== "function") return send(undefined, `No query handler "${message.queryName}"`);
        Promise.resolve()
          .then(() => handler(message.queryData, { timeout: message.timeout ?? undefined }))
          .then((result) => send(result === undefined ? null : JSON.parse(JSON.stringify(result))))
          .catch((error) => send(undefined, String(error?.message ?? error)));
        return;
      }
      case "activity":
        ctx.viewedScenes.set(message.userId, message.sceneId);
        return;
      case "userActivity": {
        if (message.active) ctx.activeUsers.add(message.userId);
        else ctx.activeUsers.delete(message.userId);
        const user = game.users.get(message.userId);
        if (user) ctx.Hooks.callAll("userConnected", user, message.active);
        return;
      }
      default:
        return;
    }
  }

  // ------------------------------------------------------------ chat log
  /**
   * Renders a visible chat message into `#chat-log` and fires the render hook
   * `renderChatMessageHTML(message, html: HTMLElement, data)` (v13, v14:
   * https://foundryvtt.com/api/functions/hookEvents.renderChatMessageHTML.html).
   * A blind roll's content and dice are hidden from non-GM users ("???"). The
   * message's `flavor` is rendered as stored (HTML), in a `.flavor-text`
   * element; where core puts it is not in the public docs, so this placement
   * is the fake's own and the module must not rely on it. Likewise each
   * roll's own flavor (`Roll#options.flavor`, which `Roll#render` includes:
   * https://foundryvtt.com/api/classes/foundry.dice.Roll.html#render), shown
   * as text in a `.dice-flavor` element of its roll: the fake's placement.
   */
  function renderChatMessage(message) {
    const doc = global.document;
    const log = doc.getElementById("chat-log");
    if (!log || !message.visible) return;
    const li = doc.createElement("li");
    li.className = `chat-message message${message.whisper.length ? " whisper" : ""}${message._source.blind ? " blind" : ""}`;
    li.dataset.messageId = message.id;
    // Another user's private roll: the placeholder line (server.mjs header), under the speaker's name.
    if (!message.isContentVisible && !message.isAuthor) {
      const sender = utils.escapeHTML(message._source.speaker?.alias ?? message.author?.name ?? "");
      li.innerHTML = `<header class="message-header"><h4 class="message-sender">${sender}</h4></header><div class="message-content"><p class="private-roll">${utils.escapeHTML(message.author?.name ?? "")} privately rolled some dice</p></div>`;
      log.append(li);
      const data = { message: message.toObject(), user: game.user, author: message.author, isWhisper: true };
      ctx.Hooks.callAll("renderChatMessageHTML", message, li, data);
      return;
    }
    // v14 bug foundryvtt/foundryvtt#14258 ("Rolling with the 'Private to Gamemasters'
    // mode hides result from rolling player"; closed, the fixing build not stated): the
    // fake shows a player's own whispered message hidden when they are not among its recipients.
    const ownHidden = version >= 14 && message.isAuthor && !game.user.isGM && message.whisper.length > 0 && !message.whisper.includes(game.user.id);
    const hidden = (message._source.blind && !game.user.isGM) || ownHidden;
    const rolls = hidden ? "" : message.rolls.map((r) => `<div class="dice-roll">${r.options?.flavor ? `<div class="dice-flavor">${utils.escapeHTML(String(r.options.flavor))}</div>` : ""}<div class="dice-formula">${r.formula}</div><h4 class="dice-total">${r.total}</h4></div>`).join("");
    const flavor = message._source.flavor ? `<span class="flavor-text">${message._source.flavor}</span>` : "";
    li.innerHTML = `<header class="message-header"><h4 class="message-sender">${utils.escapeHTML(message._source.speaker?.alias ?? message.author?.name ?? "")}</h4></header><div class="message-content">${flavor}${hidden ? "???" : message._source.content ?? ""}${rolls}</div>`;
    log.append(li);
    const data = { message: message.toObject(), user: game.user, author: message.author, isWhisper: message.whisper.length > 0 };
    ctx.Hooks.callAll("renderChatMessageHTML", message, li, data);
  }
  ctx.Hooks.on("createChatMessage", (message) => {
    // "The URL of an audio file which plays when this message is received" (`ChatMessageData#sound`,
    // https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.ChatMessageData.html): every
    // client that receives the message, a private roll's placeholder included, logs it in `ctx.sounds`.
    if (message._source.sound) ctx.sounds.push({ messageId: message.id, src: message._source.sound });
    renderChatMessage(message);
  });

  // ------------------------------------------------------------- templates
  /** `renderTemplate(path, data)`: fetches `modules/<id>/...` from the package folder, compiles with Handlebars. */
  const templateCache = new Map();
  async function renderTemplate(path, data = {}) {
    const match = /^modules\/([^/]+)\/(.+)$/.exec(path);
    if (!match) throw new Error(`renderTemplate: unsupported path ${path}`);
    const url = new URL(match[2], packageBase(match[1])).href;
    if (!templateCache.has(url)) {
      const response = await global.fetch(url);
      if (!response.ok) throw new Error(`Failed to render template part "${path}": ${response.status}`);
      templateCache.set(url, global.Handlebars.compile(await response.text()));
    }
    return templateCache.get(url)(data, { allowProtoMethodsByDefault: true, allowProtoPropertiesByDefault: true });
  }
  ctx.renderTemplate = renderTemplate;

  // -------------------------------------------------------------- globals
  const foundryNamespace = {
    utils,
    // ApplicationV2 and HandlebarsApplicationMixin (foundry.applications.api); FormDataExtended
    // (foundry.applications.ux).
    applications: { api: { DialogV2, ApplicationV2: apps.ApplicationV2, HandlebarsApplicationMixin: apps.HandlebarsApplicationMixin }, hud: { TokenHUD: canvasClasses.TokenHUD }, handlebars: { renderTemplate }, ux: { FormDataExtended: apps.FormDataExtended } },
    dice: { Roll: dice.Roll, terms: { Die: dice.Die } },
    // v14 (https://foundryvtt.com/api/modules/foundry.data.operators.html); utils.mjs.
    data: { operators: { DataFieldOperator, ForcedDeletion } },
    canvas: {
      perception: { DetectionMode: canvasClasses.DetectionMode, DetectionModeLightPerception: canvasClasses.DetectionModeLightPerception, DetectionModeDarkvision: canvasClasses.DetectionModeDarkvision, DetectionModeInvisibility: canvasClasses.DetectionModeInvisibility, DetectionModeTremor: canvasClasses.DetectionModeTremor, DetectionModeAll: canvasClasses.DetectionModeAll },
      placeables: { Token: canvasClasses.Token, Wall: canvasClasses.Wall },
      geometry: { ClockwiseSweepPolygon: canvasClasses.ClockwiseSweepPolygon },
    },
    documents: { Actor: docs.Actor, TokenDocument: docs.TokenDocument, ChatMessage: docs.ChatMessage, Combat: docs.Combat, Scene: docs.Scene, User: docs.User, ActiveEffect: docs.ActiveEffect },
    helpers: {},
  };
  if (version < 14) delete foundryNamespace.data;
  const globals = {
    CONST,
    CONFIG,
    Hooks: ctx.Hooks,
    game,
    canvas,
    ui,
    foundry: foundryNamespace,
    Roll: dice.Roll,
    ChatMessage: docs.ChatMessage,
    Actor: docs.Actor,
    TokenDocument: docs.TokenDocument,
    Scene: docs.Scene,
    User: docs.User,
    Combat: docs.Combat,
    ActiveEffect: docs.ActiveEffect,
    JournalEntry: docs.JournalEntry,
    Token: canvasClasses.Token,
    TokenHUD: canvasClasses.TokenHUD,
    DetectionMode: canvasClasses.DetectionMode,
    ClockwiseSweepPolygon: canvasClasses.ClockwiseSweepPolygon,
  };
  // v14: `_del`, "a singleton ForcedDeletion operator instance" (global since 14.356, MetaMorphic-Digital/draw-steel#1747;
  // dnd5e release-5.3.3 module/documents/item.mjs L960 writes it).
  if (version >= 14) globals._del = ForcedDeletion.create();
  Object.assign(global, globals);
  let initStarted = false;
  ctx.Hooks.once("init", () => {
    initStarted = true;
  });
  if (options.libWrapper) global.libWrapper = createLibWrapper(global, () => initStarted);
  ctx.Hooks.once("init", () => {
    if (global.libWrapper) ctx.Hooks.callAll("libWrapper.Ready", global.libWrapper);
  });

  // ----------------------------------------------------------------- boot
  ctx.boot = async (loadModules, { beforeCanvas } = {}) => {
    const doc = global.document;
    if (doc && !doc.getElementById("hud")) {
      const hud = doc.createElement("div");
      hud.id = "hud";
      const notifications = doc.createElement("ol");
      notifications.id = "notifications";
      const chat = doc.createElement("ol");
      chat.id = "chat-log";
      doc.body.append(hud, notifications, chat);
    }
    options.system?.(ctx);
    await loadModules();
    ctx.Hooks.callAll("init");
    await game.i18n.initialize(
      [...game.modules.values()].filter((m) => m.languages).map((m) => ({ id: m.id, languages: m.languages, base: m.base })),
      fetchJson,
    );
    ctx.Hooks.callAll("i18nInit");
    ctx.Hooks.callAll("setup");
    if (beforeCanvas) await beforeCanvas(ctx);
    // The sidebar's ChatLog renders the latest batch of messages this user may
    // see, each through the render hook that "fires for each ChatMessage which
    // is rendered for addition to the ChatLog" (hookEvents.renderChatMessage,
    // https://foundryvtt.com/api/functions/hookEvents.renderChatMessage.html; v13 renderChatMessageHTML):
    // a client that joins sees the earlier messages and their buttons.
    for (const message of game.messages.contents.filter((m) => m.visible).slice(-ctx.CONFIG.ChatMessage.batchSize)) renderChatMessage(message);
    drawCanvas();
    // The sidebar's combat tracker (combat-tracker.mjs).
    if (doc) {
      ui.combat = new (createCombatTracker(ctx, apps.ApplicationV2))();
      await ui.combat.render({ force: true });
    }
    game.ready = true;
    ctx.Hooks.callAll("ready");
  };

  ctx.disconnect = () => connection.disconnect();
  ctx.LEVELS = LEVELS;
  return ctx;
}

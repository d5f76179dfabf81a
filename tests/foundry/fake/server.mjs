/**
 * The fake Foundry server: one world shared by several clients (one GM, some
 * players), each connected through a JSON-string transport like the real
 * websocket. Plain ESM: runs in Node (main realm) and in the browser (top page).
 *
 * Modeled from the public docs and the community wiki:
 * - Document operations (create/update/delete) are requested by a client, checked
 *   against the requesting user's permission (CONST.DOCUMENT_OWNERSHIP_LEVELS),
 *   applied to the world source with `mergeObject` semantics (arrays replaced,
 *   `-=key` deletes; `==key` replaces wholesale in v13), diffed (an update that
 *   changes nothing is dropped and fires no hook), then broadcast to every
 *   client, the requester included; the requester's promise resolves after it
 *   applied the change.
 * - Which client receives what: every world document goes to every client
 *   regardless of ownership (players' clients hold journal entries they cannot
 *   open: foundryvtt/foundryvtt#8335), except whispered chat messages (author and
 *   whisper recipients only (the module's reading, which no public page states;
 *   the pages say who may SEE a whisper, not which machines receive it, see
 *   docs/foundry.md "Fragile reading"); and the GMs too when the author lacks the
 *   MESSAGE_WHISPER permission, "Gamemasters will be able to see the content of
 *   the message even if they were not a recipient",
 *   https://foundryvtt.com/api/v11/enums/foundry.CONST.CHAT_MESSAGE_TYPES.html;
 *   a user's permission overrides are `UserData#permissions`) and `user`-scope
 *   settings (that user only). A whispered message holding rolls is the
 *   exception: it reaches every client, whole, and the others show it as a
 *   placeholder ("the message itself may be visible while the content of that
 *   message is not", `ChatMessage#isContentVisible`,
 *   https://foundryvtt.com/api/v10/classes/client.ChatMessage.html; players see
 *   "<name> privately rolled some dice", FoundryVTT-BetterRolls5e#279; their
 *   clients hold the roll: the dice count, Foundry_WoD20#803, and the
 *   successes a system renders from it, twilight2000-foundry-vtt#92; modules
 *   hide the placeholder on render, Hide GM Rolls,
 *   https://github.com/sPOiDar/fvtt-module-hide-gm-rolls).
 * - `game.socket.emit("module.<id>", ...)` reaches every OTHER connected client,
 *   never the sender, with the sender's user id appended to the listener's
 *   arguments, and only for packages whose manifest had `socket: true` when the
 *   WORLD WAS LAUNCHED (independent review: the wiki text this review could read says a
 *   package "must request a socket namespace from the server" with `socket: true`, but not when
 *   the namespace opens; the relaunch rule and the trailing sender id are unverified here): the
 *   socket namespace is opened at launch, so a module
 *   enabled (or given `socket: true`) later gets no relay until the world is
 *   relaunched; reloading a browser is not enough (community wiki "Sockets",
 *   https://foundryvtt.wiki/en/development/api/sockets).
 * - v13 queries: `User#query(name, data, {timeout})` runs `CONFIG.queries[name](data, {timeout})`
 *   on that user's client and resolves with its return value
 *   (https://foundryvtt.com/api/variables/CONFIG.queries.html; wiki "Sockets", queries).
 *   They travel on core's own socket, so they need no package socket.
 * - User activity: each client reports the scene it views (`ActivityData#sceneId`,
 *   "The ID of the scene that the user is viewing",
 *   https://foundryvtt.com/api/v13/interfaces/foundry.types.ActivityData.html) and every client
 *   keeps it as that user's `User#viewedScene` ("Track the ID of the Scene that is currently
 *   being viewed by the User", https://foundryvtt.com/api/v14/classes/foundry.documents.User.html).
 *   The server relays what the client reports; no page says it checks the scene.
 * Every string delivered to a user is logged in `received(userId)` so tests can
 * scan exactly what a player's client was sent.
 */
import { deepClone, diffObject, mergeObject, randomID } from "./utils.mjs";

export const OWNERSHIP = Object.freeze({ INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 });
export const ROLES = Object.freeze({ NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 });

const TOP_LEVEL = { User: "users", Actor: "actors", Scene: "scenes", JournalEntry: "journal", ChatMessage: "messages", Combat: "combats" };
const EMBEDDED = {
  Token: ["Scene", "tokens"],
  Wall: ["Scene", "walls"],
  AmbientLight: ["Scene", "lights"],
  Item: ["Actor", "items"],
  ActiveEffect: ["Actor", "effects"],
  Combatant: ["Combat", "combatants"],
};

export class PermissionError extends Error {}

export class FakeServer {
  /**
   * @param {object} world  world source data (see README: users, actors, scenes, journal, messages, combats, settings)
   * @param {{version?: number, modules?: object[], schedule?: (fn: Function) => void}} options the Foundry generation (13, 14)
   *   `modules`: package manifests (module.json objects) active in the world.
   */
  constructor(world, { version = 13, modules = [], schedule, socketsClosed = [] } = {}) {
    this.version = version;
    this.world = deepClone(world);
    for (const key of Object.values(TOP_LEVEL)) this.world[key] ??= [];
    this.world.settings ??= [];
    for (const scene of this.world.scenes) {
      scene.tokens ??= [];
      scene.walls ??= [];
      scene.lights ??= [];
      scene.flags ??= {};
    }
    this.modules = modules;
    /** Packages whose socket namespace was opened at launch (`socketsClosed`: enabled since, not relaunched). */
    this.socketPackages = new Set(modules.filter((m) => m.socket === true && !socketsClosed.includes(m.id)).map((m) => m.id));
    this.queries = new Map();
    this.nextQuery = 1;
    /** @type {Map<string, string | null>} the scene each user's client last reported viewing */
    this.viewed = new Map();
    this.schedule = schedule ?? ((fn) => setTimeout(fn, 0));
    /** @type {Map<number, {userId: string, deliver: (json: string) => void}>} */
    this.connections = new Map();
    this.nextConnection = 1;
    /** @type {Map<string, string[]>} every string delivered, by user id */
    this.log = new Map();
    this.pending = 0;
    this.queue = [];
  }

  // ---------------------------------------------------------------- transport

  /** Connects a client for `userId`; returns `{send, disconnect, snapshot}`. */
  connect(userId, deliver) {
    const user = this.world.users.find((u) => u._id === userId);
    if (!user) throw new Error(`No user ${userId}`);
    const id = this.nextConnection++;
    this.connections.set(id, { userId, deliver });
    this.broadcastActivity(userId);
    const snapshot = JSON.stringify({ op: "world", userId, version: this.version, data: this.snapshotFor(userId), modules: this.modules, activeUsers: this.activeUserIds(), viewedScenes: Object.fromEntries(this.viewed) });
    this.record(userId, snapshot);
    return {
      snapshot,
      send: (json) => this.receive(id, json),
      disconnect: () => {
        this.connections.delete(id);
        this.broadcastActivity(userId);
      },
    };
  }

  activeUserIds() {
    return [...new Set([...this.connections.values()].map((c) => c.userId))];
  }

  broadcastActivity(userId) {
    const active = this.activeUserIds().includes(userId);
    if (!active) this.viewed.delete(userId);
    this.broadcast({ op: "userActivity", userId, active }, () => true);
  }

  /** `User#broadcastActivity`: a client reports the scene it views; every client learns it. */
  relayActivity(userId, message) {
    if (!("sceneId" in message)) return;
    const sceneId = typeof message.sceneId === "string" ? message.sceneId : null;
    this.viewed.set(userId, sceneId);
    this.broadcast({ op: "activity", userId, sceneId }, () => true);
  }

  record(userId, json) {
    if (!this.log.has(userId)) this.log.set(userId, []);
    this.log.get(userId).push(json);
  }

  /** Every JSON string this user's clients were sent. */
  received(userId) {
    return this.log.get(userId) ?? [];
  }

  /** Sends `message` to every connection whose user passes `filter`, asynchronously. */
  broadcast(message, filter, { except } = {}) {
    const json = JSON.stringify(message);
    for (const [id, connection] of this.connections) {
      if (id === except) continue;
      if (!filter(connection.userId)) continue;
      this.enqueue(() => {
        this.record(connection.userId, json);
        connection.deliver(json);
      });
    }
  }

  enqueue(fn) {
    this.pending += 1;
    this.schedule(() => {
      this.pending -= 1;
      fn();
    });
  }

  reply(connectionId, message) {
    const connection = this.connections.get(connectionId);
    if (!connection) return;
    const json = JSON.stringify(message);
    this.enqueue(() => {
      this.record(connection.userId, json);
      connection.deliver(json);
    });
  }

  receive(connectionId, json) {
    const connection = this.connections.get(connectionId);
    if (!connection) return;
    const message = JSON.parse(json);
    this.pending += 1;
    this.schedule(() => {
      this.pending -= 1;
      try {
        this.handle(connectionId, connection.userId, message);
      } catch (error) {
        if (message.requestId) this.reply(connectionId, { op: "response", requestId: message.requestId, error: error.message });
      }
    });
  }

  handle(connectionId, userId, message) {
    switch (message.op) {
      case "modify":
        return this.modify(connectionId, userId, message);
      case "setting":
        return this.setSetting(connectionId, userId, message);
      case "socket":
        return this.relaySocket(connectionId, userId, message);
      case "query":
        return this.routeQuery(connectionId, userId, message);
      case "queryResult":
        return this.answerQuery(message);
      case "activity":
        return this.relayActivity(userId, message);
      default:
        throw new Error(`Unknown operation ${message.op}`);
    }
  }

  // ------------------------------------------------------------- permissions

  user(userId) {
    return this.world.users.find((u) => u._id === userId);
  }

  isGM(userId) {
    return (this.user(userId)?.role ?? 0) >= ROLES.ASSISTANT;
  }

  /** The ownership level of `userId` on an actor-like source (`ownership` map). */
  ownershipLevel(userId, source) {
    if (this.isGM(userId)) return OWNERSHIP.OWNER;
    if (!source?.ownership) return OWNERSHIP.NONE;
    return source.ownership[userId] ?? source.ownership.default ?? OWNERSHIP.NONE;
  }

  /** A token's ownership comes from its actor (TokenDocument#getUserLevel). */
  tokenLevel(userId, token) {
    if (this.isGM(userId)) return OWNERSHIP.OWNER;
    const actor = this.world.actors.find((a) => a._id === token.actorId);
    return this.ownershipLevel(userId, actor);
  }

  levelFor(userId, type, source, parentSource, parentRef) {
    if (this.isGM(userId)) return OWNERSHIP.OWNER;
    switch (type) {
      case "Actor":
      case "JournalEntry":
        return this.ownershipLevel(userId, source);
      case "Token":
        return this.tokenLevel(userId, source);
      case "Item":
      case "ActiveEffect":
        if (parentRef?.tokenId) return this.tokenLevel(userId, this.findToken(parentRef.sceneId, parentRef.tokenId));
        return this.ownershipLevel(userId, parentSource);
      case "ChatMessage":
        return source?.author === userId ? OWNERSHIP.OWNER : OWNERSHIP.NONE;
      case "User":
        return source?._id === userId ? OWNERSHIP.OWNER : OWNERSHIP.NONE;
      default:
        return OWNERSHIP.NONE;
    }
  }

  findToken(sceneId, tokenId) {
    const scenes = sceneId ? this.world.scenes.filter((s) => s._id === sceneId) : this.world.scenes;
    for (const scene of scenes) {
      const token = scene.tokens.find((t) => t._id === tokenId);
      if (token) return token;
    }
    return undefined;
  }

  // ------------------------------------------------------------- collections

  /** The source array for `type` under `parent` (`{type, id, tokenId?, sceneId?}`). */
  collection(type, parent) {
    if (TOP_LEVEL[type]) return { list: this.world[TOP_LEVEL[type]], parentSource: null };
    const spec = EMBEDDED[type];
    if (!spec || !parent) throw new Error(`${type} needs a parent`);
    if (type === "ActiveEffect" && parent.tokenId) {
      // An unlinked token's synthetic actor keeps its effects in the token delta.
      const token = this.findToken(parent.sceneId, parent.tokenId);
      if (!token) throw new Error(`No token ${parent.tokenId}`);
      token.delta ??= {};
      token.delta.effects ??= [];
      return { list: token.delta.effects, parentSource: token };
    }
    const parentList = this.world[TOP_LEVEL[spec[0]]];
    const parentSource = parentList.find((p) => p._id === parent.id);
    if (!parentSource) throw new Error(`No ${spec[0]} ${parent.id}`);
    parentSource[spec[1]] ??= [];
    return { list: parentSource[spec[1]], parentSource };
  }

  canCreate(userId, type, data, parentSource, parent) {
    if (this.isGM(userId)) return true;
    if (type === "ChatMessage") return true;
    if (type === "ActiveEffect" || type === "Item") return this.levelFor(userId, type, data, parentSource, parent) >= OWNERSHIP.OWNER;
    return false;
  }

  canUpdate(userId, type, source, changes, parentSource, parent) {
    if (this.isGM(userId)) return true;
    if (type === "Wall") {
      // Players may open and close unlocked doors (wall ds changes only).
      const keys = Object.keys(changes).filter((k) => k !== "_id");
      return keys.length === 1 && keys[0] === "ds" && source.door > 0 && source.ds !== 2 && changes.ds !== 2;
    }
    if (type === "Combat") {
      const keys = Object.keys(changes).filter((k) => k !== "_id");
      const current = this.currentCombatant(source);
      if (!current || !keys.every((k) => k === "turn" || k === "round")) return false;
      const token = this.findToken(current.sceneId ?? source.scene, current.tokenId);
      return Boolean(token) && this.tokenLevel(userId, token) >= OWNERSHIP.OWNER;
    }
    return this.levelFor(userId, type, source, parentSource, parent) >= OWNERSHIP.OWNER;
  }

  canDelete(userId, type, source, parentSource, parent) {
    if (this.isGM(userId)) return true;
    if (type === "ActiveEffect" || type === "Item" || type === "ChatMessage") return this.levelFor(userId, type, source, parentSource, parent) >= OWNERSHIP.OWNER;
    return false;
  }

  currentCombatant(combat) {
    const turns = [...(combat.combatants ?? [])].sort((a, b) => (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || String(a._id).localeCompare(String(b._id)));
    return turns[combat.turn ?? 0] ?? null;
  }

  /** Who receives a broadcast about this document. */
  audience(type, source) {
    // A private roll (whispered, with rolls) reaches every client as a placeholder (header comment).
    if (type === "ChatMessage" && Array.isArray(source.whisper) && source.whisper.length && !(source.rolls?.length > 0)) {
      const allowed = new Set([source.author, ...source.whisper]);
      const author = this.user(source.author);
      const gmsToo = Boolean(author && !this.isGM(source.author) && author.permissions?.MESSAGE_WHISPER === false);
      return (userId) => allowed.has(userId) || (gmsToo && this.isGM(userId));
    }
    return () => true;
  }

  // -------------------------------------------------------------- operations

  modify(connectionId, userId, message) {
    const { action, type, parent = null, options = {}, requestId } = message;
    const { list, parentSource } = this.collection(type, parent);
    const user = this.user(userId);
    const deny = (verb, id) => {
      throw new PermissionError(`User ${user?.name ?? userId} lacks permission to ${verb} ${type} [${id ?? "new"}]`);
    };
    let result = [];
    if (action === "create") {
      for (const raw of message.data) {
        const data = deepClone(raw);
        if (!data._id || !options.keepId) data._id = data._id && options.keepId ? data._id : randomID(16);
        if (type === "ChatMessage") {
          // Schema defaults (BaseChatMessage): author is the requesting user.
          data.author = userId;
          data.whisper ??= [];
          data.blind ??= false;
          data.rolls ??= [];
          data.content ??= "";
          data.timestamp ??= Date.now();
        }
        if (!this.canCreate(userId, type, data, parentSource, parent)) deny("create", data._id);
        if (list.some((d) => d._id === data._id)) throw new Error(`${type} ${data._id} already exists`);
        list.push(data);
        result.push(data);
      }
      for (const data of result) {
        const filter = this.audience(type, data);
        this.broadcast({ op: "modify", action, type, parent, result: [data], options, userId, requestId }, filter);
      }
    } else if (action === "update") {
      for (const update of message.updates) {
        const source = list.find((d) => d._id === update._id);
        if (!source) throw new Error(`${type} ${update._id} does not exist`);
        const { _id, ...changes } = update;
        if (!this.canUpdate(userId, type, source, changes, parentSource, parent)) deny("update", _id);
        const diff = options.diff === false ? changes : diffObject(source, changes);
        if (!Object.keys(diff).length) continue;
        mergeObject(source, diff, { performDeletions: true, forcedReplacement: true, applyOperators: this.version >= 14 });
        result.push({ _id, ...diff });
      }
      if (result.length) this.broadcast({ op: "modify", action, type, parent, result, options, userId, requestId }, () => true);
    } else if (action === "delete") {
      for (const id of message.ids) {
        const index = list.findIndex((d) => d._id === id);
        if (index < 0) throw new Error(`${type} ${id} does not exist`);
        if (!this.canDelete(userId, type, list[index], parentSource, parent)) deny("delete", id);
        const [removed] = list.splice(index, 1);
        result.push(removed._id);
        const filter = this.audience(type, removed);
        this.broadcast({ op: "modify", action, type, parent, result: [removed._id], options, userId, requestId }, filter);
      }
    } else {
      throw new Error(`Unknown action ${action}`);
    }
    this.reply(connectionId, { op: "response", requestId, result });
  }

  setSetting(connectionId, userId, message) {
    const { key, value, scope, requestId } = message;
    if (scope === "world" && !this.isGM(userId)) {
      throw new PermissionError(`User ${this.user(userId)?.name} lacks permission to modify the world setting ${key}`);
    }
    const user = scope === "user" ? userId : null;
    const existing = this.world.settings.find((s) => s.key === key && (s.user ?? null) === user);
    if (existing) existing.value = value;
    else this.world.settings.push({ _id: randomID(16), key, value, user });
    const filter = scope === "user" ? (id) => id === userId : () => true;
    this.broadcast({ op: "setting", key, value, scope, user, userId, requestId }, filter);
    this.reply(connectionId, { op: "response", requestId, result: value });
  }

  relaySocket(connectionId, userId, message) {
    const [kind, id] = String(message.event).split(".");
    const known = (kind === "module" && this.socketPackages.has(id)) || (kind === "system" && this.world.system?.id === id);
    if (!known) return; // the real server ignores events of packages without a socket
    this.broadcast({ op: "socket", event: message.event, args: message.args, userId }, () => true, { except: connectionId });
  }

  /** Relaunches the world: every socket-enabled package gets its namespace. */
  relaunch() {
    this.socketPackages = new Set(this.modules.filter((m) => m.socket === true).map((m) => m.id));
  }

  /** `User#query`: sends the query to the target user's first connection. */
  routeQuery(connectionId, userId, message) {
    const target = [...this.connections.entries()].find(([, c]) => c.userId === message.userId);
    if (!target) throw new Error(`User ${message.userId} is not active`);
    const queryId = `q${this.nextQuery++}`;
    this.queries.set(queryId, { connectionId, requestId: message.requestId });
    const json = JSON.stringify({ op: "query", queryId, queryName: message.queryName, queryData: message.queryData, timeout: message.timeout ?? null });
    this.enqueue(() => {
      this.record(target[1].userId, json);
      target[1].deliver(json);
    });
  }

  answerQuery(message) {
    const pending = this.queries.get(message.queryId);
    if (!pending) return;
    this.queries.delete(message.queryId);
    this.reply(pending.connectionId, { op: "response", requestId: pending.requestId, result: message.result, error: message.error });
  }

  // ----------------------------------------------------------------- helpers

  /** The world as a given user's client receives it. */
  snapshotFor(userId) {
    const data = deepClone(this.world);
    data.messages = data.messages.filter((m) => this.audience("ChatMessage", m)(userId));
    data.settings = data.settings.filter((s) => !s.user || s.user === userId);
    return data;
  }

  /** Resolves once no message is queued or being handled (a few idle turns). */
  async idle({ turns = 3, max = 10000 } = {}) {
    let quiet = 0;
    for (let i = 0; i < max; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.pending === 0) quiet += 1;
      else quiet = 0;
      if (quiet >= turns) return;
    }
    throw new Error("FakeServer.idle: the world never settled");
  }
}

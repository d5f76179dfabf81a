/**
 * The subset of Foundry VTT's client API (v13 and v14) that Furtive uses,
 * written from the public API documentation (foundryvtt.com/api), for
 * `tsc --checkJs`. Not complete, not authoritative: only what the module
 * calls, with the shapes the docs give. See docs/foundry.md for the pages.
 */

export {};

declare global {
  interface FlagDocument {
    id: string | null;
    name?: string | null;
    flags: Record<string, any>;
    getFlag(scope: string, key: string): any;
    setFlag(scope: string, key: string, value: unknown): Promise<this>;
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<this | undefined>;
    testUserPermission(user: User, permission: string | number, options?: { exact?: boolean }): boolean;
    readonly isOwner: boolean;
  }

  /** A Foundry EmbeddedCollection / WorldCollection: a Map of id -> document whose iterator yields documents. */
  interface DocumentCollection<T> {
    readonly size: number;
    get(id: string): T | undefined;
    has(id: string): boolean;
    filter(predicate: (document: T) => boolean): T[];
    find(predicate: (document: T) => boolean): T | undefined;
    some(predicate: (document: T) => boolean): boolean;
    map<U>(transform: (document: T) => U): U[];
    readonly contents: T[];
    [Symbol.iterator](): IterableIterator<T>;
  }

  class User {
    id: string | null;
    name: string | null;
    readonly isGM: boolean;
    /** Whether the user is connected. */
    readonly active: boolean;
    targets: Set<Token>;
    /** The scene this user's client views, as it reports in its activity (https://foundryvtt.com/api/v14/classes/foundry.documents.User.html). */
    readonly viewedScene: string | null;
    /** Runs `CONFIG.queries[name](data, {timeout})` on this user's client (v13 and v14; wiki "Sockets"). */
    query?(queryName: string, queryData: unknown, options?: { timeout?: number }): Promise<any>;
  }

  class Item {
    id: string | null;
    name: string | null;
    system: Record<string, any>;
  }

  class Actor implements FlagDocument {
    id: string | null;
    name: string | null;
    flags: Record<string, any>;
    system: Record<string, any>;
    items: DocumentCollection<Item>;
    getFlag(scope: string, key: string): any;
    setFlag(scope: string, key: string, value: unknown): Promise<this>;
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<this | undefined>;
    testUserPermission(user: User, permission: string | number): boolean;
    readonly isOwner: boolean;
    getRollData(): Record<string, any>;
    /** v11+: toggles a status effect from CONFIG.statusEffects on this actor. */
    toggleStatusEffect(statusId: string, options?: { active?: boolean; overlay?: boolean }): Promise<unknown>;
  }

  class TokenDocument implements FlagDocument {
    id: string | null;
    name: string | null;
    flags: Record<string, any>;
    readonly documentName: "Token";
    parent: Scene | null;
    actor: Actor | null;
    actorLink: boolean;
    /** The id of the base Actor (TokenData#actorId). */
    actorId: string | null;
    x: number;
    y: number;
    width: number;
    height: number;
    elevation: number;
    hidden: boolean;
    /** CONST.TOKEN_DISPOSITIONS: SECRET -2, HOSTILE -1, NEUTRAL 0, FRIENDLY 1. */
    disposition: number;
    object: Token | null;
    getFlag(scope: string, key: string): any;
    setFlag(scope: string, key: string, value: unknown): Promise<this>;
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<this | undefined>;
    testUserPermission(user: User, permission: string | number): boolean;
    readonly isOwner: boolean;
    hasStatusEffect(statusId: string): boolean;
  }

  class Token {
    document: TokenDocument;
    center: { x: number; y: number };
    renderFlags: { set(flags: Record<string, boolean>): void };
  }

  class Scene implements FlagDocument {
    id: string | null;
    name: string | null;
    flags: Record<string, any>;
    tokens: DocumentCollection<TokenDocument>;
    grid: { size: number; distance: number; units: string };
    getFlag(scope: string, key: string): any;
    setFlag(scope: string, key: string, value: unknown): Promise<this>;
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<this | undefined>;
    testUserPermission(user: User, permission: string | number): boolean;
    readonly isOwner: boolean;
  }

  class ChatMessage {
    id: string | null;
    flags: Record<string, any>;
    getFlag(scope: string, key: string): any;
    /** `Document#delete()`: https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html */
    delete(): Promise<unknown>;
    static create(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<ChatMessage | undefined>;
    static getSpeaker(options?: { token?: TokenDocument | null; actor?: Actor | null; alias?: string }): Record<string, unknown>;
  }

  class Combat {
    id: string | null;
    scene: Scene | null;
    round: number;
    turn: number | null;
    readonly started: boolean;
    /** The embedded Combatants (`CombatData#combatants`; `CombatantData#tokenId`). */
    combatants: { map<T>(fn: (combatant: { tokenId?: string | null }) => T): T[] };
  }

  class Roll {
    /** `options.flavor`: the roll's flavor text (`Roll` page, `RollOptions`). */
    constructor(formula: string, data?: Record<string, unknown>, options?: { flavor?: string });
    options: { flavor?: string };
    formula: string;
    total: number | undefined;
    /** Async (v13 and v14). */
    evaluate(options?: Record<string, unknown>): Promise<this>;
    toMessage(messageData?: Record<string, unknown>, options?: { rollMode?: string; create?: boolean }): Promise<unknown>;
    /** The roll's chat HTML (`Roll#render`). */
    render(options?: Record<string, unknown>): Promise<string>;
    /** The roll as data (`Roll#toJSON`, what `ChatMessage#rolls` stores). */
    toJSON(): Record<string, unknown>;
  }

  interface ClientSettings {
    register(namespace: string, key: string, data: Record<string, unknown>): void;
    /** SettingSubmenuConfig: https://foundryvtt.com/api/interfaces/foundry.types.SettingSubmenuConfig.html */
    registerMenu(namespace: string, key: string, data: { name: string; label: string; hint: string; icon: string; type: unknown; restricted: boolean }): void;
    get(namespace: string, key: string): any;
    set(namespace: string, key: string, value: unknown): Promise<unknown>;
  }

  interface Localization {
    lang: string;
    localize(key: string): string;
    format(key: string, data?: Record<string, unknown>): string;
    has(key: string, fallback?: boolean): boolean;
  }

  interface Game {
    user: User | null;
    users: DocumentCollection<User> & { activeGM: User | null };
    scenes: DocumentCollection<Scene>;
    /** The world's chat messages this user may see (`game.messages`, `Messages` collection). */
    messages: DocumentCollection<ChatMessage>;
    /** The combat shown in the tracker (`game.combat`). */
    combat: any;
    settings: ClientSettings;
    i18n: Localization;
    /** Listeners get the emitted data, then the id of the user who emitted it (wiki "Sockets"). */
    socket: { emit(channel: string, data: unknown): void; on(channel: string, handler: (data: any, senderId?: string) => void): void };
    modules: Map<string, { id: string; active: boolean; api?: unknown }>;
    /** The game system: its id and version string (https://foundryvtt.com/api/classes/foundry.packages.System.html). */
    system: { id: string; version: string };
    release: { generation: number };
    /** The core version string, e.g. "13.345". */
    version: string;
  }

  interface DetectionModeLike {
    id: string;
    _canDetect(visionSource: unknown, target: unknown): boolean;
  }

  interface StatusEffectConfig {
    id: string;
    name: string;
    img: string;
  }

  interface GridMeasurePathResult {
    distance: number;
    spaces: number;
    cost: number;
  }

  interface FoundryCanvas {
    ready: boolean;
    scene: Scene | null;
    grid: { size: number; measurePath(waypoints: { x: number; y: number }[], options?: Record<string, unknown>): GridMeasurePathResult };
    tokens: { placeables: Token[]; controlled: Token[] };
    perception: { update(flags: Record<string, boolean>): void };
    /**
     * `EffectsCanvasGroup` point tests on one `ElevatedPoint` (v13 and v14;
     * https://foundryvtt.com/api/classes/foundry.canvas.groups.EffectsCanvasGroup.html; lighting.mjs).
     */
    effects?: {
      testInsideLight?(point: { x: number; y: number; elevation?: number }): boolean;
      testInsideDarkness?(point: { x: number; y: number; elevation?: number }): boolean;
    };
    clientCoordinatesFromCanvas?(point: { x: number; y: number }): { x: number; y: number };
  }

  var game: Game;
  var canvas: FoundryCanvas;
  var ui: { notifications?: { info(message: string, options?: object): void; warn(message: string, options?: object): void; error(message: string, options?: object): void } };
  var CONFIG: {
    /** v13 an array; v14 a record by id that keeps array-style access (canvas/statuses.mjs). */
    statusEffects: StatusEffectConfig[] | Record<string, StatusEffectConfig>;
    Canvas: {
      detectionModes: Record<string, DetectionModeLike>;
      polygonBackends: {
        sight: { testCollision(origin: { x: number; y: number }, destination: { x: number; y: number }, config: { type: string; mode: "any" | "all" | "closest"; useThreshold?: boolean }): boolean | unknown };
      };
    };
  };
  var CONST: {
    DOCUMENT_OWNERSHIP_LEVELS: { INHERIT: -1; NONE: 0; LIMITED: 1; OBSERVER: 2; OWNER: 3 };
    DICE_ROLL_MODES: { PUBLIC: "publicroll"; PRIVATE: "gmroll"; BLIND: "blindroll"; SELF: "selfroll" };
    /** `{CLIENT: "client", USER: "user", WORLD: "world"}` (v13 and v14). */
    SETTING_SCOPES?: { CLIENT: "client"; USER?: "user"; WORLD: "world" };
  };
  var Hooks: {
    on(hook: string, fn: (...args: any[]) => unknown): number;
    once(hook: string, fn: (...args: any[]) => unknown): number;
    off(hook: string, id: number | ((...args: any[]) => unknown)): void;
    /** Calls every listener until one returns false; returns false then. */
    call(hook: string, ...args: unknown[]): boolean;
    callAll(hook: string, ...args: unknown[]): boolean;
  };
  var foundry: {
    utils: {
      getProperty(object: object, key: string): any;
      hasProperty(object: object, key: string): boolean;
      deepClone<T>(value: T): T;
      randomID(length?: number): string;
      /** Whether version `v1` is newer than `v0` (https://foundryvtt.com/api/functions/foundry.utils.isNewerVersion.html). */
      isNewerVersion(v1: string | number, v0: string | number): boolean;
      mergeObject<T extends object>(original: T, other: object, options?: Record<string, unknown>): T;
    };
    applications?: {
      api?: { DialogV2?: unknown };
      handlebars?: { renderTemplate?(path: string, data: object): Promise<string> };
    };
  };
  /** libWrapper, when its module is active. */
  var libWrapper: {
    register(packageId: string, target: string, fn: (...args: any[]) => unknown, type?: "WRAPPER" | "MIXED" | "OVERRIDE", options?: Record<string, unknown>): number;
  };
}

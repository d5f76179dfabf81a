/**
 * Who may see a token's name (B1): the module's own dialogs, lists and chat
 * lines name a token to a player only if one of that player's tokens perceives
 * it, or the token is one of the player's; never a token the GM hid
 * (`TokenDocument#hidden`). A GM may see every name.
 *
 * A player's tokens are those they observe (OBSERVER permission or better),
 * as for Foundry's vision sources: a player sees through every token they
 * observe while they control none (Foundry 0.7.1 release notes, "their vision
 * will now be unified with other observed tokens"; Shared Vision's README,
 * "you can do this in Foundry by giving every player observer permissions",
 * https://github.com/CDeenen/SharedVision).
 *
 * Answers from the scene's published, number-free lookup
 * (`flags.furtive.hiddenFrom`, `flags.furtive.hiders`, see canvas/visibility.mjs),
 * so any client can ask about any scene. A token that is not hiding is
 * perceived by everyone; an observer the engine does not know perceives no
 * hider (B1).
 *
 * Foundry API: `Scene#getFlag`, `Scene#tokens`, `TokenDocument#hidden`,
 * `TokenDocument#testUserPermission(user, "OBSERVER")`, `game.users`, `User#isGM`.
 */

import { MODULE_ID, SCENE_FLAGS } from "../constants.mjs";

/**
 * The scene's lookup, read from its flags (any scene, viewed or not).
 * @param {Scene} scene
 * @returns {{hiders: Set<string>, hidden: Map<string, Set<string>>}}
 */
export function sceneLookup(scene) {
  const hiders = new Set((/** @type {unknown[]} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders) ?? [])).map(String));
  const hidden = new Map();
  const entries = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom);
  if (entries && typeof entries === "object") for (const [observer, list] of Object.entries(entries)) if (Array.isArray(list)) hidden.set(observer, new Set(list.map(String)));
  return { hiders, hidden };
}

/**
 * Whether `user` may see the name of `token`.
 * @param {User} user
 * @param {TokenDocument} token
 * @param {{hiders: Set<string>, hidden: Map<string, Set<string>>}} [lookup] the scene's lookup (read once for many tokens)
 */
export function mayName(user, token, lookup) {
  if (user.isGM) return true;
  if (token.hidden) return false;
  const scene = token.parent;
  if (!scene) return false;
  const { hiders, hidden } = lookup ?? sceneLookup(scene);
  const id = String(token.id);
  if (!hiders.has(id)) return true;
  if (token.testUserPermission(user, "OBSERVER")) return true;
  return scene.tokens.some((own) => own.id !== token.id && own.testUserPermission(user, "OBSERVER") && hidden.has(String(own.id)) && !hidden.get(String(own.id))?.has(id));
}

/**
 * The tokens of a list this user may see named.
 * @template {TokenDocument} T
 * @param {User} user
 * @param {T[]} tokens all on one scene
 * @returns {T[]}
 */
export function nameable(user, tokens) {
  const scene = tokens[0]?.parent;
  if (!scene || user.isGM) return tokens;
  const lookup = sceneLookup(scene);
  return tokens.filter((token) => mayName(user, token, lookup));
}

/**
 * Who may read a chat line naming these tokens: `null` when every user may
 * (a public message), else the ids of the GMs and of the players who may see
 * every one of them named (a whisper).
 * @param {(TokenDocument | null | undefined)[]} named
 * @returns {string[] | null}
 */
export function audienceOf(named) {
  const tokens = /** @type {TokenDocument[]} */ (named.filter(Boolean));
  const scene = tokens[0]?.parent;
  if (!scene) return null;
  const lookup = sceneLookup(scene);
  const allowed = game.users.filter((user) => tokens.every((token) => mayName(user, token, lookup)));
  if (allowed.length === game.users.size) return null;
  return allowed.map((user) => /** @type {string} */ (user.id));
}

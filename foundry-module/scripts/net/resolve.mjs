/**
 * Token and scene lookup for actions: a macro or a request may name a token
 * as a Token, a TokenDocument or an id. Refusals are `BadRequest`
 * (errors.mjs, the caller's fault).
 *
 * Foundry API: `canvas.scene`, `game.scenes`, `Scene#tokens`, `Document#documentName`.
 */

import { FurtiveError } from "../errors.mjs";
/** @typedef {import("../types.mjs").Outcome} Outcome */
/** @typedef {import("../types.mjs").Decision} Decision */
/** @typedef {Token | TokenDocument | string} TokenLike a Token, a TokenDocument, or a token id (searched on the viewed scene, then every scene) */

/**
 * A value quoted in an error's detail, cut to 64 characters: a macro that
 * passed a huge string gets a readable refusal, not a notification of its size.
 * @param {unknown} value
 */
export function shortText(value) {
  const text = String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/**
 * The TokenDocument for a token-like value.
 * @param {TokenLike | null | undefined} value
 * @returns {TokenDocument | null}
 */
export function resolveToken(value) {
  if (!value) return null;
  if (typeof value === "string") {
    const here = canvas?.scene?.tokens.get(value);
    if (here) return here;
    for (const scene of game.scenes ?? []) {
      const found = scene.tokens.get(value);
      if (found) return found;
    }
    return null;
  }
  const any = /** @type {any} */ (value);
  if (any.documentName === "Token") return any;
  if (any.document?.documentName === "Token") return any.document;
  return null;
}

/**
 * @param {TokenLike | null | undefined} value
 * @param {string} field
 * @returns {TokenDocument}
 */
export function requireToken(value, field) {
  const token = resolveToken(value);
  if (!token?.parent) throw FurtiveError.of("unknown_token", `${field}: unknown token \`${shortText(typeof value === "string" ? value : (/** @type {any} */ (value)?.id ?? value))}\``);
  return token;
}

/**
 * The token of an id on a given scene (the GM side of a request: the ids
 * travel with their scene's id). Refused with `unknown_token` naming `field`
 * and quoting the id, also when the token is on another scene.
 * @param {Scene} scene
 * @param {unknown} id
 * @param {string} field
 * @returns {TokenDocument}
 */
export function requireTokenOn(scene, id, field) {
  const token = typeof id === "string" ? scene.tokens.get(id) : undefined;
  // The scene by its id: its name may be one the players are not shown (a navigation name stands in).
  if (!token) throw FurtiveError.of("unknown_token", `${field}: no token \`${shortText(id)}\` on scene \`${scene.id}\``);
  return token;
}

/**
 * The scene a macro names: a Scene, a scene id, or nothing for the viewed
 * scene (`canvas.scene`). Anything else, or an id no scene has, is refused
 * (`unknown_scene` naming `field`): a macro that passed an id or a typo
 * must not act on the viewed scene instead.
 * `Document#documentName` ("Scene"), `game.scenes.get(id)`:
 * https://foundryvtt.com/api/classes/foundry.documents.Scene.html
 * @param {Scene | string | null | undefined} value
 * @param {string} field
 * @returns {Scene}
 */
export function requireSceneLike(value, field) {
  if (value === undefined || value === null) {
    if (!canvas?.scene) throw FurtiveError.of("unknown_scene", `${field}: no scene is viewed`);
    return canvas.scene;
  }
  const scene = typeof value === "string" ? game.scenes.get(value) : /** @type {any} */ (value)?.documentName === "Scene" ? value : null;
  if (!scene) throw FurtiveError.of("unknown_scene", `${field}: unknown scene \`${typeof value === "string" ? shortText(value) : typeof value}\``);
  return /** @type {Scene} */ (scene);
}

/**
 * The scene of a token id on the GM side.
 * @param {string | undefined} sceneId
 * @returns {Scene}
 */
export function requireScene(sceneId) {
  const scene = sceneId ? game.scenes.get(sceneId) : canvas?.scene;
  if (!scene) throw FurtiveError.of("unknown_scene", `sceneId: unknown scene \`${shortText(sceneId)}\``);
  return scene;
}


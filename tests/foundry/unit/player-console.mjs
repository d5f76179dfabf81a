/**
 * What a player's browser console can send the active GM on the module's
 * request channel: any data in a `furtive.request` query
 * (`User#query(name, data, {timeout})`, https://foundryvtt.com/api/v13/classes/foundry.documents.User.html#query),
 * with its own client's `furtive.confirm` handler answering yes: the console
 * runs on that client, so the GM's identity check proves only that the
 * request is that client's own. It cannot make another user's client answer.
 */
import { plain } from "./world.mjs";

/**
 * A player's console on a client.
 * @param {{userId: string, ctx: any}} client
 */
export function playerConsole(client) {
  client.ctx.CONFIG.queries["furtive.confirm"] = () => true;
  let next = 0;
  return {
    /** A fresh request id of the form the module sends (letters and digits). */
    nextId: () => `console${(next += 1)}`,
    /**
     * Sends `data` as the query's data, as is; resolves with the GM's answer
     * as plain data, or `{thrown}` when the query itself failed.
     * @param {unknown} data
     */
    async send(data) {
      const gm = client.ctx.game.users.activeGM;
      try {
        return plain(await gm.query("furtive.request", data, { timeout: 30_000 }));
      } catch (error) {
        return { thrown: String(error?.message ?? error) };
      }
    },
    /**
     * A request in this player's own name: `{kind, payload, requestId, userId}`,
     * any of them replaced by `envelope`.
     * @param {unknown} kind
     * @param {unknown} payload
     * @param {Record<string, unknown>} [envelope]
     */
    ask(kind, payload, envelope = {}) {
      return this.send({ kind, payload, requestId: this.nextId(), userId: client.userId, ...envelope });
    },
  };
}

/**
 * What the world holds, as the server keeps it: scenes and their flags,
 * the GM-whispered state records, chat messages, settings. Two equal
 * fingerprints: nothing was written.
 * @param {{server: any}} env
 */
export function worldFingerprint(env) {
  return JSON.stringify(env.server.world);
}

/**
 * Every scene's engine state as the active GM holds it in memory.
 * @param {{gm: any}} env
 */
export function engineFingerprint(env) {
  const game = env.gm.ctx.game;
  const api = game.modules.get("furtive").api;
  return JSON.stringify(game.scenes.contents.map((scene) => [scene.id, api.getState(scene.id)]));
}

/**
 * The module socket: players' requests go to the active GM, who answers the
 * asking user. Requests carry ids only; answers carry no hidden numbers.
 *
 * Message shapes (channel `module.furtive`, module.json `socket: true`):
 * - `{type: "request", id, userId, kind, payload}` from a client;
 * - `{type: "reply", id, userId, ok: true, result}` or
 *   `{type: "reply", id, userId, ok: false, error: {code, message}}` from the active GM.
 *
 * Sender identity: the public docs (foundryvtt.com/api, community wiki
 * "Sockets") give `game.socket.on` listeners the data only, no
 * server-checked sender. The payload's `userId` is the sender's own claim, so
 * a request is never trusted as a GM's: it runs as `remote` (player-allowed
 * kinds only, ownership checked for the claimed user, GM's dialog for Hide),
 * and its reply (seen by every client) carries ok/error and public entries only.
 *
 * Foundry API: `game.socket.emit(channel, data)`, `game.socket.on(channel, fn)`
 * (a client does not receive its own emits), `game.users.activeGM`.
 */

import { SOCKET } from "./constants.mjs";
import { EngineRefusal } from "./engine.mjs";
import { isActiveGM } from "./store.mjs";

/** @typedef {(kind: string, payload: Record<string, any>, user: User, remote: boolean) => Promise<unknown>} RequestHandler */

/** Error codes whose engine message may quote a hidden number. */
const NUMERIC_CODES = new Set(["out_of_range", "invalid_input", "failed"]);

/** Answers waiting on this client, by request id. */
const waiting = /** @type {Map<string, {resolve: (value: unknown) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout>}>} */ (new Map());

/**
 * Listens on the socket. Call once, at `ready`.
 * @param {RequestHandler} handle runs a request on the active GM
 */
export function initSocket(handle) {
  game.socket.on(SOCKET, async (/** @type {any} */ message) => {
    if (message?.type === "request") {
      if (!isActiveGM()) return;
      // The claimed user: unverified (see above), so the request runs as remote.
      const user = game.users.get(message.userId);
      if (!user) return;
      try {
        const result = await handle(String(message.kind), message.payload ?? {}, user, true);
        game.socket.emit(SOCKET, { type: "reply", id: message.id, userId: user.id, ok: true, result });
      } catch (error) {
        const e = /** @type {any} */ (error);
        const code = typeof e?.code === "string" ? e.code : "failed";
        if (code === "failed") console.error("furtive | request failed", error);
        // Range and shape errors may quote a rolled value: every client sees the reply, so the code only.
        const text = NUMERIC_CODES.has(code) ? "" : String(e?.message ?? e);
        game.socket.emit(SOCKET, { type: "reply", id: message.id, userId: user.id, ok: false, error: { code, message: text } });
      }
    } else if (message?.type === "reply" && message.userId === game.user?.id) {
      const entry = waiting.get(message.id);
      if (!entry) return;
      waiting.delete(message.id);
      clearTimeout(entry.timer);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new EngineRefusal(message.error?.code ?? "failed", message.error?.message ?? ""));
    }
  });
}

/**
 * Sends a request to the active GM and waits for the answer.
 * @param {string} kind
 * @param {Record<string, any>} payload
 * @param {number} [timeoutMs] default 10 minutes (the GM may have a dialog open)
 * @returns {Promise<any>} the GM's result; rejects with EngineRefusal (`no_gm`, `timeout`, or the GM's refusal)
 */
export function socketRequest(kind, payload, timeoutMs = 600_000) {
  if (!game.users.activeGM) return Promise.reject(new EngineRefusal("no_gm", "no GM is connected"));
  const id = foundry.utils.randomID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new EngineRefusal("timeout", "the GM did not answer"));
    }, timeoutMs);
    waiting.set(id, { resolve, reject, timer });
    game.socket.emit(SOCKET, { type: "request", id, userId: game.user?.id, kind, payload });
  });
}

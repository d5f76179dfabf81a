// The effects of a `Session`'s changing call (`apply`, `applyAll`,
// `settle`) as the engine sends them, packed (furtive_core::packed: lists
// of numbers indexing a table of strings, the log after a newline), turned
// back into the plain objects of `Effects`: `{ changes, requests, log,
// revision, hiddenFrom }`, each object with its keys in the order the
// engine's JSON writes them. The log is read, and its explanations
// rendered (explain.js), when `effects.log` is first read. The effects of
// a column form (arguments.js `viewColumns`) name the ids it sent by their
// place in what was sent (`"known": n`).
//
// The format is documented in crates/furtive-core/src/packed.rs; the
// shared vectors, and tests/js/session.test.mjs against the engine's plain
// JSON, check that both sides agree.

import { KEYS, CATALOG } from "./explanations.js";
import { lazyLog } from "./explain.js";
import { furtiveError } from "./errors.js";

const KINDS = ["visibility", "status"];
const STATUSES = ["hidden", "defenseless"];
const AUDIENCES = ["gm", "public"];

/**
 * @param {string} text the engine's packed effects
 * @param {(() => string[]) | undefined} known lists the ids a column form
 *   sent (arguments.js `viewColumns`), which the head and the log name by
 *   their place (`"known": n`) instead of writing them; called at most
 *   once, and only for effects that hold a change, a request or a
 *   `hiddenFrom` entry, or when their log is read
 * @returns {any} `Effects`
 */
export function unpackEffects(text, known) {
  const cut = text.indexOf("\n");
  const head = JSON.parse(cut < 0 ? text : text.slice(0, cut));
  /** @type {string[] | undefined} */
  let sent;
  // A part's table: the ids this call sent, then the part's own strings
  // (the head's and the log's both name the sent ids below `known`).
  const table = (/** @type {string[]} */ strings) => {
    if (head.known === undefined) return strings;
    // Copied by hand, so no prototype method the caller replaced takes part.
    sent ??= known?.();
    if (sent?.length !== head.known) {
      // Never, short of a bug: both sides count the same ids sent.
      throw furtiveError(
        "engine_panicked",
        `effects: the event was applied (revision ${head.revision}), but its effects name ${head.known} ids sent and ${sent?.length ?? 0} were; this is a bug in furtive, please report it with the input (the session holds the event: its snapshot() is the state after it)`,
      );
    }
    const all = new Array(sent.length + strings.length);
    for (let i = 0; i < sent.length; i++) all[i] = sent[i];
    for (let i = 0; i < strings.length; i++) all[sent.length + i] = strings[i];
    return all;
  };
  const strings = head.changes.length + head.requests.length + head.hiddenFrom.length > 0 ? table(head.strings) : head.strings;
  const changes = [];
  const packedChanges = head.changes;
  for (let i = 0; i < packedChanges.length; ) {
    if (packedChanges[i] === 0) {
      changes.push({ kind: KINDS[0], hider: strings[packedChanges[i + 1]], observer: strings[packedChanges[i + 2]], perceived: packedChanges[i + 3] === 1 });
      i += 4;
    } else {
      const change = { kind: KINDS[1], token: strings[packedChanges[i + 1]], status: STATUSES[packedChanges[i + 2]], active: packedChanges[i + 3] === 1 };
      if (packedChanges[i + 4] >= 0) change.expires = { turnEndOf: strings[packedChanges[i + 4]] };
      changes.push(change);
      i += 5;
    }
  }
  const requests = [];
  const packedRequests = head.requests;
  for (let i = 0; i < packedRequests.length; ) {
    const kind = packedRequests[i];
    if (kind === 2) {
      // A run of Perception checks: `2, hider, clause, count, observer...`.
      const hider = strings[packedRequests[i + 1]];
      const clause = strings[packedRequests[i + 2]];
      const end = i + 4 + packedRequests[i + 3];
      for (let at = i + 4; at < end; at++) requests.push({ kind: "perceptionCheck", hider, observer: strings[packedRequests[at]], clause });
      i = end;
    } else {
      requests.push(
        kind === 0
          ? { kind: "perceptionCheck", hider: strings[packedRequests[i + 1]], observer: strings[packedRequests[i + 2]], clause: strings[packedRequests[i + 3]] }
          : { kind: "stealthRoll", hider: strings[packedRequests[i + 1]], modifiers: head.modifiers[packedRequests[i + 2]], clause: strings[packedRequests[i + 3]] },
      );
      i += 4;
    }
  }
  const hiddenFrom = [];
  const packedHidden = head.hiddenFrom;
  for (let i = 0; i < packedHidden.length; i += 3) {
    hiddenFrom.push({ observer: strings[packedHidden[i]], hider: strings[packedHidden[i + 1]], hidden: packedHidden[i + 2] === 1 });
  }
  const effects = { changes, requests, log: [], revision: head.revision, hiddenFrom };
  if (head.log > 0 && cut >= 0) {
    lazyLog(effects, () => {
      const log = JSON.parse(text.slice(cut + 1));
      return unpackLog({ strings: table(log.strings), entries: log.entries });
    });
  }
  return effects;
}

/**
 * The log entries, each with its `message` as the engine's JSON writes it
 * (`[key number, argument...]`, explain.js).
 * @param {{ strings: string[], entries: number[] }} log
 * @returns {any[]}
 */
function unpackLog({ strings, entries }) {
  let at = 0;
  const message = () => {
    const number = entries[at++];
    const count = CATALOG[KEYS[number]]?.args.length ?? 0;
    const out = new Array(count + 1);
    out[0] = number;
    for (let i = 1; i <= count; i++) out[i] = argument();
    return out;
  };
  /** @returns {unknown} */
  const argument = () => {
    switch (entries[at++]) {
      case 0:
        return strings[entries[at++]];
      case 1:
        return entries[at++];
      case 2:
        return message();
      case 3: {
        const items = new Array(entries[at++] + 1);
        items[0] = -1;
        for (let i = 1; i < items.length; i++) items[i] = argument();
        return items;
      }
      default:
        return null;
    }
  };
  const log = [];
  while (at < entries.length) {
    const entry = { clause: strings[entries[at]], audience: AUDIENCES[entries[at + 1]] };
    const hider = entries[at + 2];
    const observer = entries[at + 3];
    at += 4;
    if (hider >= 0) entry.hider = strings[hider];
    if (observer >= 0) entry.observer = strings[observer];
    entry.message = message();
    log.push(entry);
  }
  return log;
}

// Errors the JavaScript layer adds to the engine's own (see index.d.ts).

/** Codes thrown by the JavaScript layer, never by the engine. */
export const BINDING_ERROR_CODES = Object.freeze([
  "engine_not_ready",
  "engine_load_failed",
  "engine_panicked",
  "engine_poisoned",
  "session_lost",
  "session_freed",
  "not_in_this_build",
]);

/**
 * An `Error` with a `code`, the shape every furtive error has.
 * @param {string} code
 * @param {string} message
 * @param {unknown} [cause]
 */
export function furtiveError(code, message, cause) {
  const error = cause === undefined ? new Error(message) : new Error(message, { cause });
  error.code = code;
  return error;
}

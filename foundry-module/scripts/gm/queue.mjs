/**
 * The active GM's queue: every action on the scenes' state runs after the
 * one before it, so two actions never read the same state.
 */

let queue = /** @type {Promise<unknown>} */ (Promise.resolve());

/**
 * Runs tasks one after another, so two events never read the same state.
 * @template T
 * @param {() => Promise<T>} task
 * @returns {Promise<T>}
 */
export function enqueue(task) {
  const run = queue.then(task);
  queue = run.catch(() => {});
  return run;
}

// The JavaScript runner of the shared test vectors (tests/vectors/README.md).
//
// Pure ECMAScript with no Node.js import: the same file runs in Node (napi,
// wasm) and in Chromium (wasm), so every backend is driven by one
// implementation of the vector semantics. It mirrors the Rust reference
// runner, crates/furtive-core/tests/vectors.rs.

/** Each `call` of a step, as a call of the furtive API. */
const CALLS = {
  createState: (api, state, step) => api.createState(step.config),
  apply: (api, state, step) => api.apply(state, step.event),
  settle: (api, state, step) => api.settle(state, step.event, step.seed),
  rollRequests: (api, state, step) => api.rollRequests(state, step.requests, step.seed),
  perceives: (api, state, step) => api.perceives(state, step.query),
  canLocate: (api, state, step) => api.canLocate(state, step.query),
  canDefend: (api, state, step) => api.canDefend(state, step.query),
  knockout: (api, state, step) => api.knockout(state, step.query),
  canPickpocket: (api, state, step) => api.canPickpocket(state, step.query),
  attackHidden: (api, state, step) => api.attackHidden(state, step.query),
  concealedByDarkness: (api, state, step) => api.concealedByDarkness(step.query),
  alliedSides: (api, state, step) => api.alliedSides(step.query),
  parseScene: (api, state, step) => api.parseScene(step.scene),
  clearView: (api, state, step) => api.clearView(step.scene, step.query),
  clearViewMatrix: (api, state, step) => api.clearViewMatrix(step.scene, step.tokens),
};

/** The calls a vector may use. */
export const CALL_NAMES = Object.freeze(Object.keys(CALLS));

function short(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `expect` semantics: objects match when every expected key exists and
 * matches; arrays need the same length and match element-wise; scalars are
 * strictly equal. Returns the first mismatch with its path, or null.
 */
export function subsetMismatch(expected, actual, path = "$") {
  if (isObject(expected)) {
    if (!isObject(actual)) return `at ${path}: expected ${short(expected)}, actual ${short(actual)}`;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) {
        return `at ${path}.${key}: expected ${short(expected[key])}, actual: key missing (object has ${Object.keys(actual).join(", ")})`;
      }
      const mismatch = subsetMismatch(expected[key], actual[key], `${path}.${key}`);
      if (mismatch) return mismatch;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `at ${path}: expected an array of ${expected.length} element(s), actual ${short(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const mismatch = subsetMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (mismatch) return mismatch;
    }
    return null;
  }
  return expected === actual ? null : `at ${path}: expected ${short(expected)}, actual ${short(actual)}`;
}

/**
 * Checks that a result is plain JSON data as both backends must return it:
 * plain objects and arrays, strings, finite numbers, booleans, null; no Map,
 * no BigInt, no undefined, no class instance. Returns the first problem or null.
 */
export function plainDataProblem(value, path = "$") {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `at ${path}: ${value} is not finite`;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return `at ${path}: not a plain array`;
    for (let i = 0; i < value.length; i++) {
      const problem = plainDataProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value === "object") {
    if (Object.getPrototypeOf(value) !== Object.prototype) {
      return `at ${path}: not a plain object (${Object.prototype.toString.call(value)})`;
    }
    for (const key of Object.keys(value)) {
      const problem = plainDataProblem(value[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return `at ${path}: ${typeof value} is not JSON data`;
}

function errorRecord(error) {
  return { code: error?.code, message: error?.message };
}

/**
 * The same calls through the `Session` class: the session keeps the state.
 * `apply` and `settle` return what the free functions return (`{ state,
 * changes, requests, log }`, the state from `snapshot()`), so one golden
 * file serves both forms. Each call also checks what only a session has:
 * `revision`, the `hiddenFrom` patch, and that a refused call changed
 * nothing. Problems go to `problems`.
 */
function sessionCalls(api, problems) {
  const outcome = (session, effects, before) => {
    const state = session.snapshot();
    if (effects.revision !== state.revision || session.revision !== state.revision) {
      problems.push(`revision: effects say ${effects.revision}, session.revision ${session.revision}, snapshot ${state.revision}`);
    }
    // hiddenFromChanges patches the lookup built before into the one after.
    const lookup = structuredClone(before);
    for (const change of api.Session.hiddenFromChanges(effects)) {
      const list = lookup[change.observer] ?? [];
      const next = change.hidden ? [...new Set([...list, change.hider])].sort() : list.filter((id) => id !== change.hider);
      if (next.length > 0) lookup[change.observer] = next;
      else delete lookup[change.observer];
    }
    const after = session.hiddenFrom();
    const sorted = (object) => JSON.stringify(Object.keys(object).sort().map((key) => [key, object[key]]));
    if (sorted(lookup) !== sorted(after)) {
      problems.push(`hiddenFromChanges: patched ${sorted(lookup)}, actual ${sorted(after)}`);
    }
    return { state, changes: effects.changes, requests: effects.requests, log: effects.log };
  };
  const changing = (session, call) => {
    const before = session.snapshot();
    const lookup = session.hiddenFrom();
    try {
      return outcome(session, call(), lookup);
    } catch (error) {
      if (JSON.stringify(session.snapshot()) !== JSON.stringify(before)) problems.push(`a refused call changed the session (${error?.code})`);
      throw error;
    }
  };
  return {
    createState: (api, session, step) => api.Session.create(step.config),
    apply: (api, session, step) => changing(session, () => session.apply(step.event)),
    settle: (api, session, step) => changing(session, () => session.settle(step.event, step.seed)),
    rollRequests: (api, session, step) => session.rollRequests(step.requests, step.seed),
    perceives: (api, session, step) => session.perceives(step.query),
    canLocate: (api, session, step) => session.canLocate(step.query),
    canDefend: (api, session, step) => session.canDefend(step.query),
    knockout: (api, session, step) => session.knockout(step.query),
    canPickpocket: (api, session, step) => session.canPickpocket(step.query),
    attackHidden: (api, session, step) => session.attackHidden(step.query),
    concealedByDarkness: (api, session, step) => api.concealedByDarkness(step.query),
    alliedSides: (api, session, step) => api.alliedSides(step.query),
    parseScene: (api, session, step) => api.parseScene(step.scene),
    clearView: (api, session, step) => api.clearView(step.scene, step.query),
    clearViewMatrix: (api, session, step) => api.clearViewMatrix(step.scene, step.tokens),
  };
}

/**
 * A step whose call this build leaves out (`absent`, e.g. the Foundry
 * module's wasm has no seeded roller): the call must throw
 * `not_in_this_build`; the vector stops there (later steps may need its
 * result). Returns whether the step was such a call.
 */
function leftOut(absent, step, at, run, failures) {
  if (!absent.has(step.call)) return false;
  try {
    run();
    failures.push(`${at}: this build leaves ${step.call} out, but it answered`);
  } catch (error) {
    if (error?.code !== "not_in_this_build") failures.push(`${at}: expected not_in_this_build, actual ${error?.code} (${error?.message})`);
  }
  return true;
}

/**
 * Runs one vector through `Session` objects: `Session.create(config)`, then
 * each step on that session, or on `Session.load(step.state)` when the step
 * gives a state. Records the same `{ ok }` / `{ error }` list as
 * {@link runVector}.
 */
export function runVectorInSession(api, vector, absent = new Set()) {
  let stopped = false;
  const recorded = [];
  const failures = [];
  const problems = [];
  const calls = sessionCalls(api, problems);
  let current = null;
  if (vector.config !== undefined) {
    try {
      current = api.Session.create(vector.config);
    } catch (error) {
      failures.push(`config: Session.create failed with ${error?.code} (${error?.message})`);
      return { recorded, failures };
    }
  }
  vector.steps.forEach((step, index) => {
    const at = `step ${index} (${step.call}, Session)`;
    if (stopped) return;
    if (leftOut(absent, step, at, () => calls[step.call](api, current, step), failures)) {
      stopped = true;
      return;
    }
    const explicit = Object.hasOwn(step, "state");
    let value;
    let error;
    let ok = false;
    let loaded = null;
    try {
      if (explicit) loaded = api.Session.load(step.state);
      const result = calls[step.call](api, explicit ? loaded : current, step);
      if (step.call === "createState") {
        value = result.snapshot();
        if (!explicit) {
          current?.free();
          current = result;
        } else result.free();
      } else value = result;
      ok = true;
    } catch (thrown) {
      error = thrown;
    } finally {
      loaded?.free();
    }
    for (const problem of problems.splice(0)) failures.push(`${at}: ${problem}`);
    if (ok) {
      recorded.push({ ok: value });
      const problem = plainDataProblem(value);
      if (problem) failures.push(`${at}: result is not plain JSON data: ${problem}`);
    } else {
      recorded.push({ error: errorRecord(error) });
      if (!(error instanceof Error) || typeof error.code !== "string") {
        failures.push(`${at}: threw something that is not an Error with a string code: ${String(error)}`);
      }
    }
    const expectError = step.expectError;
    if (ok && Object.hasOwn(step, "expect")) {
      const mismatch = subsetMismatch(step.expect, value);
      if (mismatch) failures.push(`${at}: ${mismatch}`);
    } else if (ok && expectError !== undefined) {
      failures.push(`${at}: expected error ${expectError}, actual success`);
    } else if (!ok && expectError !== undefined) {
      if (error?.code !== expectError) failures.push(`${at}: expected error ${expectError}, actual error ${error?.code} (${error?.message})`);
    } else if (!ok) {
      failures.push(`${at}: expected success, actual error ${error?.code} (${error?.message})`);
    }
  });
  current?.free();
  return { recorded, failures, stopped };
}

/**
 * Runs one vector against `api` (the furtive module). Returns
 * `{ recorded, failures }`: one `{ ok }` / `{ error: { code, message } }` per
 * step, and the expectation failures, each naming its step.
 */
export function runVector(api, vector, absent = new Set()) {
  let stopped = false;
  const recorded = [];
  const failures = [];
  let current = null;
  if (vector.config !== undefined) {
    try {
      current = api.createState(vector.config);
    } catch (error) {
      failures.push(`config: createState failed with ${error?.code} (${error?.message}); use a \`createState\` step to test a bad config`);
      return { recorded, failures };
    }
  }
  vector.steps.forEach((step, index) => {
    const at = `step ${index} (${step.call})`;
    const call = CALLS[step.call];
    if (!call) {
      failures.push(`${at}: unknown call`);
      return;
    }
    if (stopped) return;
    if (leftOut(absent, step, at, () => call(api, current, step), failures)) {
      stopped = true;
      return;
    }
    const explicit = Object.hasOwn(step, "state");
    let value;
    let error;
    let ok = false;
    try {
      value = call(api, explicit ? step.state : current, step);
      ok = true;
    } catch (thrown) {
      error = thrown;
    }
    if (ok) {
      recorded.push({ ok: value });
      const problem = plainDataProblem(value);
      if (problem) failures.push(`${at}: result is not plain JSON data: ${problem}`);
      if (!explicit) {
        if (step.call === "createState") current = value;
        if (step.call === "apply" || step.call === "settle") current = value.state;
      }
    } else {
      recorded.push({ error: errorRecord(error) });
      if (!(error instanceof Error) || typeof error.code !== "string") {
        failures.push(`${at}: threw something that is not an Error with a string code: ${String(error)}`);
      }
    }
    const hasExpect = Object.hasOwn(step, "expect");
    const expectError = step.expectError;
    if (ok && hasExpect) {
      const mismatch = subsetMismatch(step.expect, value);
      if (mismatch) failures.push(`${at}: ${mismatch}\n      expected (subset): ${short(step.expect)}\n      actual: ${short(value)}`);
    } else if (ok && expectError !== undefined) {
      failures.push(`${at}: expected error ${expectError}, actual success: ${short(value)}`);
    } else if (!ok && expectError !== undefined) {
      if (error?.code !== expectError) failures.push(`${at}: expected error ${expectError}, actual error ${error?.code} (${error?.message})`);
    } else if (!ok) {
      failures.push(`${at}: expected success, actual error ${error?.code} (${error?.message})`);
    }
  });
  return { recorded, failures, stopped };
}

/**
 * Runs every vector; `vectors` is a list of parsed vector files; `form` is
 * `"functions"` (the free functions) or `"session"` (the `Session` class);
 * `absent`, the calls this build leaves out (see `leftOut`). Returns one
 * `{ name, knownIssue, recorded, failures, stopped }` per vector.
 */
export function runVectors(api, vectors, form = "functions", absent = []) {
  const run = form === "session" ? runVectorInSession : runVector;
  return vectors.map((vector) => ({
    name: vector.name,
    knownIssue: vector.knownIssue ?? null,
    ...run(api, vector, new Set(absent)),
  }));
}

// Type-checks the published types (npm/index.d.ts) against a use of the
// whole public API, from both entry points (`furtive/node`, `furtive/browser`)
// and the bare `furtive`. Checked with `tsc --noEmit -p tests/js` (never run):
// the runtime shapes are checked against the same fields by the vector
// goldens on both backends.

import * as bare from "furtive";
import * as nodeEntry from "furtive/node";
import * as browserEntry from "furtive/browser";
import type {
  Change,
  Clause,
  Floor,
  Token,
  TokenLight,
  ClearViewAnswer,
  ClearViewFrom,
  Lighting,
  SceneSight,
  View,
  ClearViewMatrix,
  Scene,
  Config,
  Decision,
  Effects,
  ErrorCode,
  Event,
  FurtiveError,
  HiddenAttackResult,
  HiddenFrom,
  HiddenFromChange,
  KnockoutResult,
  LogEntry,
  Outcome,
  Pair,
  Request,
  Session,
  SituationModifier,
  State,
} from "furtive";

type Api = typeof bare;
// Both entry points expose exactly the same API.
const entries: Api[] = [nodeEntry, browserEntry, bare];
const sameShape: typeof nodeEntry = browserEntry;
void sameShape;

async function scenario(api: Api): Promise<void> {
  await api.init();
  const backend: "napi" | "wasm" = api.backend;

  const config: Config = {
    ruleset: "percentile",
    settings: { showNumbersToPlayers: true },
    creatures: [
      { id: "spy", name: "Spy", side: "thieves", stealthSkill: 49, strength: 12 },
      { id: "guard", acuities: { visual: 30, auditory: 20 } },
    ],
  };
  const state: State = api.createState(config);
  const version: number = state.version;

  const event: Event = {
    type: "enterStealth",
    hider: "spy",
    roll: 37,
    modifiers: { situation: ["dark"], free: [{ label: "fog", value: 10 }] },
  };
  const outcome: Outcome = api.apply(state, event);
  const score: number | undefined = outcome.state.hiders["spy"].score;
  const pair: Pair | undefined = outcome.state.hiders["spy"].pairs["guard"];
  const perceived: boolean | undefined = pair?.perceived;
  for (const change of outcome.changes satisfies Change[]) {
    if (change.kind === "visibility") {
      const observer: string = change.observer;
      void observer;
    } else {
      const status: "hidden" | "defenseless" = change.status;
      const endsAt: string | undefined = change.expires?.turnEndOf;
      void status, endsAt;
    }
  }
  for (const request of outcome.requests satisfies Request[]) {
    if (request.kind === "stealthRoll") {
      const situation: string[] = request.modifiers.situation;
      void situation;
    } else {
      const observers: string[] = request.observers;
      // @ts-expect-error: a Perception check request names its observers, a list
      const observer: string = request.observer;
      void observers, observer;
    }
  }
  const log: LogEntry[] = outcome.log;
  const audience: "gm" | "public" | undefined = log[0]?.audience;

  const perceives: Decision = api.perceives(outcome.state, { observer: "guard", hider: "spy" });
  const locate: Decision = api.canLocate(outcome.state, { observer: "guard", hider: "spy" });
  const defend: Decision = api.canDefend(outcome.state, { defender: "guard", target: "guard", attacker: "spy" });
  const knock: KnockoutResult = api.knockout(outcome.state, { attacker: "spy", target: "guard", helmet: false, rawDamage: 12, d100: 40 });
  const knockedOut: boolean | null = knock.knockedOut;
  const pocket: Decision = api.canPickpocket(outcome.state, { hider: "spy", target: "guard", held: false, visible: true });
  const lookup: HiddenFrom = api.hiddenFrom(outcome.state);
  const hiddenFromGuard: string[] | undefined = lookup["guard"];

  const opposed: State = api.createState({ ruleset: "opposed", creatures: [{ id: "rogue" }, { id: "orc", perceptionModifier: 2 }] });
  const entered: Outcome = api.settle(opposed, { type: "enterStealth", hider: "rogue", roll: 15, moved: true, view: [{ observer: "orc", clearView: false }] }, 7);
  const attack: HiddenAttackResult = api.attackHidden(entered.state, { attacker: "orc", target: "rogue", aimedAtSpace: true });
  const mode: "normal" | "disadvantage" | "miss" = attack.mode;
  const answers: Event[] = api.rollRequests(entered.state, entered.requests, 3);
  const next: Outcome = answers.reduce<Outcome>((o, answer) => api.apply(o.state, answer), entered);

  const raw: Record<string, unknown> = {
    grid: { size: 100, distance: 5, units: "ft" },
    walls: [{ c: [150, 0, 150, 300] }],
    tokens: [{ _id: "a", x: 0, y: 100 }, { _id: "b", x: 200, y: 100 }],
  };
  const scene: Scene = api.parseScene(raw);
  const wallSight: "none" | "limited" | "normal" | "proximity" | "distance" | undefined = scene.walls[0]?.sight;
  const view: ClearViewAnswer = api.clearView(scene, { from: { tokenId: "a" }, to: { x: 250, y: 150 } });
  const blockedBy: number[] = view.blockingWalls.map((wall) => wall.index);
  const matrix: ClearViewMatrix = api.clearViewMatrix(scene);
  const placed: ClearViewMatrix = api.clearViewMatrix(raw, [{ id: "x", x: 0, y: 0 }, { id: "y", x: 0, y: 200, width: 2 }]);
  const seen: boolean | undefined = matrix.clearView[0]?.[1];
  const feet: number | undefined = placed.distance[0]?.[1];

  const codes: ErrorCode[] = api.errorCodes();
  const modifiers: { id: SituationModifier; value: number }[] = api.situationModifiers();
  void modifiers;
  try {
    api.apply(state, { type: "enterStealth", hider: "nobody", roll: 37 });
  } catch (error) {
    const furtive = error as FurtiveError;
    const code: ErrorCode = furtive.code;
    const message: string = furtive.message;
    void code, message;
  }

  void wallSight, blockedBy, seen, feet;
  void backend, version, score, perceived, audience, perceives, locate, defend, knockedOut, pocket, hiddenFromGuard, mode, next, codes;
}

// The Session class: the engine keeps the state.
function sessions(api: Api, config: Config, state: State): void {
  const session: Session = api.Session.create(config);
  const loaded: Session = api.Session.load(state);
  const effects: Effects = session.apply({ type: "enterStealth", hider: "spy", roll: 37 });
  const all: Effects = session.applyAll([{ type: "stopHiding", hider: "spy" }, { type: "combatEnd" }]);
  const settled: Effects = session.settle({ type: "combatEnd" }, 7);
  const answers: Event[] = session.rollRequests(settled.requests, 3);
  const revision: number = session.revision;
  const patch: HiddenFromChange[] = api.Session.hiddenFromChanges(effects);
  const hidden: boolean | undefined = patch[0]?.hidden;
  const lookup: HiddenFrom = session.hiddenFrom();
  const decision: Decision = session.perceives({ observer: "guard", hider: "spy" });
  const locate: Decision = session.canLocate({ observer: "guard", hider: "spy" });
  const defend: Decision = session.canDefend({ defender: "guard", target: "guard", attacker: "spy" });
  const knock: KnockoutResult = session.knockout({ attacker: "spy", target: "guard", helmet: true });
  const pocket: Decision = session.canPickpocket({ hider: "spy", target: "guard", held: false, visible: true });
  const attack: HiddenAttackResult = loaded.attackHidden({ attacker: "orc", target: "rogue" });
  const saved: State = session.snapshot();
  const changes: Change[] = all.changes;
  for (const { hider, view, removed } of effects.views) {
    const held: { observer: string; clearView: boolean; distance: number | null }[] = view;
    const gone: string[] = removed;
    void hider, held, gone;
  }
  session.free();
  loaded[Symbol.dispose]();
  // @ts-expect-error: sessions come from Session.create or Session.load
  new api.Session();
  // @ts-expect-error: revision is read-only
  session.revision = 3;
  // @ts-expect-error: an event, not a state
  session.apply(saved);
  void answers, revision, hidden, lookup, decision, locate, defend, knock, pocket, attack, changes;
}

// init() accepts what the wasm backend can load from.
async function loaders(): Promise<void> {
  await browserEntry.init();
  await browserEntry.init(new URL("https://example.invalid/furtive_wasm_bg.wasm"));
  await browserEntry.init("/modules/furtive/furtive_wasm_bg.wasm");
  await browserEntry.init(fetch("/furtive_wasm_bg.wasm"));
  await browserEntry.init(new Uint8Array([0, 97, 115, 109]));
  await browserEntry.init(await WebAssembly.compile(new Uint8Array()));
}

function sceneSights(api: Api, scene: Scene): void {
  const sight: SceneSight = api.SceneSight.parse(scene);
  const answer: ClearViewAnswer = sight.clearView({ from: { tokenId: "guard" }, to: { x: 10, y: 20 }, darkvision: 30 });
  const view: View = sight.view("guard", "spy");
  const from: ClearViewFrom = sight.clearViewFrom("guard");
  const matrix: ClearViewMatrix = sight.clearViewMatrix();
  const light: Lighting = sight.lightingAt({ x: 1, y: 2 });
  const dark: boolean = sight.lightingOf("spy").dark;
  const done: null = sight.update([
    { type: "door", wallId: "w", state: "open" },
    { type: "tokenMoved", tokenId: "spy", x: 100, y: 200 },
    { type: "darkness", darkness: 0.5 },
  ]);
  const normalized: Scene = sight.scene();
  // The normalized scene as the engine writes it: Levels floors, and each
  // token's darkvision and carried light (absent when none).
  const floors: Floor[] | undefined = normalized.floors;
  const floorElevation: number | undefined = floors?.[0]?.elevation;
  const token: Token | undefined = normalized.tokens[0];
  const darkvision: number | undefined = token?.darkvision;
  const torch: TokenLight | null | undefined = token?.light;
  const again: SceneSight = api.SceneSight.parse(normalized);
  sight.free();
  again[Symbol.dispose]();
  // @ts-expect-error: not an update type
  sight.update({ type: "teleport", tokenId: "spy" });
  // @ts-expect-error: ids are strings
  sight.view("guard", 3);
  void answer, view, from, matrix, light, dark, done, floorElevation, darkvision, torch;
}

// Wrong uses must not type-check.
function misuse(api: Api, state: State): void {
  // @ts-expect-error: an unknown event type
  api.apply(state, { type: "explode", hider: "spy" });
  // @ts-expect-error: roll is a number
  api.apply(state, { type: "enterStealth", hider: "spy", roll: "37" });
  // @ts-expect-error: a query needs both ids
  api.perceives(state, { observer: "guard" });
  // @ts-expect-error: not a ruleset
  api.createState({ ruleset: "d20" });
  // @ts-expect-error: a sight line end needs a token id, a point or a placement
  api.clearView({}, { from: { id: "a" }, to: { x: 0, y: 0 } });
  // @ts-expect-error: not an error code
  const code: ErrorCode = "on_fire";
  // Clause ids are a union: P1-P11, O1-O13, B1-B5, GM.
  const clause: Clause = api.perceives(state, { observer: "guard", hider: "spy" }).clause;
  const ids: Clause[] = ["P11", "O13", "B5", "GM"];
  // @ts-expect-error: not a clause id
  const unknown: Clause = "P12";
  void code, clause, ids, unknown;
}

void entries, scenario, sessions, sceneSights, loaders, misuse;

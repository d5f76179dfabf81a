//! The one list of what the JavaScript bindings export.
//!
//! [`for_each_export!`](crate::for_each_export) hands every export to a
//! macro the caller supplies, which says how one function or method is
//! wrapped: `furtive-node` wraps them for napi, `furtive-wasm` for
//! wasm-bindgen, and `tests/exports.rs` writes `npm/signatures.js` (the
//! arguments the JavaScript layer encodes) from the same list and fails
//! when it drifts. Adding an export here adds it to both bindings.
//!
//! Each entry is `{ rust_name, "jsName", [feature?], (arguments), "doc" }`;
//! an argument followed by `[optional]` may be left out in JavaScript (the
//! engine then reads `null`). Every argument and every result is JSON
//! text. `[feature]` names the cargo feature (`"scene"`, `"roller"`) the
//! export needs.
//!
//! - `functions`: free functions of [`crate::functions`], called with
//!   text (`functions::name::<String>(text...)`).
//! - `session_constructors`, `session_mut` (`&mut self`), `session_ref`
//!   (`&self`), `session_getters` (`u64` properties): of
//!   [`crate::session::JsonSession`].
//! - `scene_constructors`, `scene_methods` (all `&mut self`: a question
//!   fills the caches): of `crate::scene_sight::JsonSceneSight` (feature
//!   `scene`).

/// Calls `$callback! { ... }` with the list of every export; see the
/// module documentation ([`crate::exports`]) for its shape.
#[macro_export]
macro_rules! for_each_export {
    ($callback:ident) => {
        $callback! {
            functions: [
                { create_state, "createState", [], (config),
                  "`createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`." },
                { apply, "apply", [], (state, event),
                  "`apply(state, event) -> Outcome { state, changes, requests, log }`." },
                { perceives, "perceives", [], (state, query),
                  "`perceives(state, { observer, hider }) -> Decision`." },
                { can_locate, "canLocate", [], (state, query),
                  "`canLocate(state, { observer, hider }) -> Decision` (P5)." },
                { can_defend, "canDefend", [], (state, query),
                  "`canDefend(state, { defender, target, attacker }) -> Decision` (P6)." },
                { knockout, "knockout", [], (state, query),
                  "`knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8)." },
                { can_pickpocket, "canPickpocket", [], (state, query),
                  "`canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10)." },
                { attack_hidden, "attackHidden", [], (state, query),
                  "`attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10)." },
                { hidden_from, "hiddenFrom", [], (state),
                  "`hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2)." },
                { roll_requests, "rollRequests", ["roller"], (state, requests, seed),
                  "`rollRequests(state, requests, seed) -> Event[]` (B4)." },
                { settle, "settle", ["roller"], (state, event, seed),
                  "`settle(state, event, seed) -> Outcome` (B4): apply, then answer every request." },
                { parse_scene, "parseScene", ["scene"], (scene),
                  "`parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene." },
                { clear_view, "clearView", ["scene"], (scene, query),
                  "`clearView(scene, { from, to }) -> ClearViewAnswer`." },
                { clear_view_matrix, "clearViewMatrix", ["scene"], (scene, tokens [optional]),
                  "`clearViewMatrix(scene, tokens | null) -> ClearViewMatrix`." },
                { concealed_by_darkness, "concealedByDarkness", [], (query),
                  "`concealedByDarkness({ targetInDarkness, observers: [{ distance?, darkvision }] }) -> boolean[]` (B5): concealment by darkness for each observer; scene units, darkvision a number >= 0 or \"unlimited\"." },
                { allied_sides, "alliedSides", [], (query),
                  "`alliedSides({ side, sides }) -> boolean[]` (O3, P6, P9): whether a creature on `side` and a distinct creature on each of `sides` are allies (the same side, neither empty nor \"neutral\")." },
                { situation_modifiers, "situationModifiers", [], (),
                  "`situationModifiers() -> [{ id, value }]`: the nine P2 situation modifiers and their values." },
                { error_codes, "errorCodes", [], (),
                  "`errorCodes() -> string[]`: every stable error code of the engine." },
            ],
            session_constructors: [
                { create, "create", [], (config),
                  "`Session.create(config) -> Session`: a fresh session from `{ ruleset, settings?, creatures? }`." },
                { load, "load", [], (state),
                  "`Session.load(snapshot) -> Session`: a session over a saved state (format 1 or 2), validated once." },
            ],
            session_mut: [
                { apply, "apply", [], (event),
                  "`apply(event) -> Effects { changes, requests, log, revision, hiddenFrom, attempts, views }`; a refused event changes nothing." },
                { apply_all, "applyAll", [], (events),
                  "`applyAll(events) -> Effects`: several events as one transaction, all or nothing." },
                { settle, "settle", ["roller"], (event, seed),
                  "`settle(event, seed) -> Effects` (B4): apply, then answer every request with seeded dice." },
            ],
            session_ref: [
                { roll_requests, "rollRequests", ["roller"], (requests, seed),
                  "`rollRequests(requests, seed) -> Event[]` (B4): the answering events, not applied." },
                { perceives, "perceives", [], (query),
                  "`perceives({ observer, hider }) -> Decision`." },
                { can_locate, "canLocate", [], (query),
                  "`canLocate({ observer, hider }) -> Decision` (P5)." },
                { can_defend, "canDefend", [], (query),
                  "`canDefend({ defender, target, attacker }) -> Decision` (P6)." },
                { knockout, "knockout", [], (query),
                  "`knockout({ attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8)." },
                { can_pickpocket, "canPickpocket", [], (query),
                  "`canPickpocket({ hider, target, held, visible }) -> Decision` (P10)." },
                { attack_hidden, "attackHidden", [], (query),
                  "`attackHidden({ attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10)." },
                { standing, "standing", [], (query),
                  "`standing({ hider }) -> Standing` (GM only): the hider's roll in force and its parts (P1, P2, P4; O1, O6, O13)." },
                { pairs, "pairs", [], (query),
                  "`pairs({ hider?, observer? }) -> PairStanding[]` (GM only): each pair's state and the decision behind it (B3)." },
                { hidden_from, "hiddenFrom", [], (),
                  "`hiddenFrom() -> { [observer]: hider[] }` (B1, B2)." },
                { snapshot, "snapshot", [], (),
                  "`snapshot() -> State`: the state in format version 2, to save and load later." },
            ],
            session_getters: [
                { revision, "revision",
                  "`revision`: successful `apply`, `applyAll` and `settle` calls since the state was created." },
            ],
            scene_constructors: [
                { parse, "parse", ["scene"], (scene),
                  "`SceneSight.parse(scene) -> SceneSight`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene, read once." },
            ],
            scene_methods: [
                { clear_view, "clearView", ["scene"], (query),
                  "`clearView({ from, to, darkvision? }) -> ClearViewAnswer` (B5) on the scene as updated." },
                { view, "view", ["scene"], (observer, target),
                  "`view(observer, target) -> View`: clear view between two of the scene's tokens, with its parts (B5)." },
                { clear_view_from, "clearViewFrom", ["scene"], (observer),
                  "`clearViewFrom(observer) -> ClearViewFrom`: clear view from one token to every token (B5)." },
                { clear_view_matrix, "clearViewMatrix", ["scene"], (),
                  "`clearViewMatrix() -> ClearViewMatrix`: every pair of the scene's tokens (B5)." },
                { lighting_at, "lightingAt", ["scene"], (point),
                  "`lightingAt({ x, y, elevation? }) -> Lighting`: the lighting at a canvas point." },
                { lighting_of, "lightingOf", ["scene"], (token),
                  "`lightingOf(token) -> Lighting`: the lighting at a token's centre." },
                { update, "update", ["scene"], (updates),
                  "`update(update | update[]) -> null`: door, wall, token and light changes as one transaction, all or nothing." },
                { scene, "scene", ["scene"], (),
                  "`scene() -> Scene`: the normalized scene as updated, which `SceneSight.parse` reads back." },
            ],
        }
    };
}

//! The free functions over JSON, for any [`Input`] and [`Output`]: the
//! bindings read and write text ([`crate::exports`]), Rust callers
//! `serde_json::Value`s. Each loads what it needs for one call.

use furtive_core::query::{
    DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery,
};
use furtive_core::{Config, Error, Outcome, Session, State};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::read::{self, Input};
use crate::write::Output;

/// `createState(config) -> State`.
pub fn create_state<O: Output>(config: impl Input) -> Result<O, Error> {
    let config: Config = config.read("config")?;
    O::write(&furtive_core::create_state(config)?)
}

/// `apply(state, event) -> Outcome { state, changes, requests, log }`.
pub fn apply<O: Output>(state: impl Input, event: impl Input) -> Result<O, Error> {
    let state = read::state("state", state)?;
    let event = read::event("event", event)?;
    let mut session = Session::load(state)?;
    let effects = session.apply(event)?;
    O::write(&Outcome {
        state: session.into_state(),
        changes: effects.changes,
        requests: effects.requests,
        log: effects.log,
    })
}

/// `perceives(state, { observer, hider }) -> Decision`.
pub fn perceives<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<PairQuery, _, O>(state, query, furtive_core::query::perceives)
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
pub fn can_locate<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<PairQuery, _, O>(state, query, furtive_core::query::can_locate)
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
pub fn can_defend<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<DefenseQuery, _, O>(state, query, furtive_core::query::can_defend)
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
pub fn knockout<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<KnockoutQuery, _, O>(state, query, furtive_core::query::knockout)
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
pub fn can_pickpocket<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<PickpocketQuery, _, O>(state, query, furtive_core::query::can_pickpocket)
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
pub fn attack_hidden<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
    answer::<HiddenAttackQuery, _, O>(state, query, furtive_core::query::attack_hidden)
}

/// A query's answer in `state`: the state and the query read, then `answer`.
fn answer<Q: DeserializeOwned, A: Serialize, O: Output>(
    state: impl Input,
    query: impl Input,
    answer: fn(&State, &Q) -> Result<A, Error>,
) -> Result<O, Error> {
    let state = read::state("state", state)?;
    O::write(&answer(&state, &query.read::<Q>("query")?)?)
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2).
pub fn hidden_from<O: Output>(state: impl Input) -> Result<O, Error> {
    let state = read::state("state", state)?;
    O::write(&furtive_core::query::hidden_from(&state)?)
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
#[cfg(feature = "roller")]
pub fn roll_requests<O: Output>(
    state: impl Input,
    requests: impl Input,
    seed: impl Input,
) -> Result<O, Error> {
    let state = read::state("state", state)?;
    furtive_core::validate_state(&state)?;
    let requests = read::requests(requests)?;
    O::write(&furtive_core::roll_requests(
        &state,
        &requests,
        read::seed(seed)?,
    )?)
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
#[cfg(feature = "roller")]
pub fn settle<O: Output>(
    state: impl Input,
    event: impl Input,
    seed: impl Input,
) -> Result<O, Error> {
    let state = read::state("state", state)?;
    let event = read::event("event", event)?;
    O::write(&furtive_core::settle(&state, event, read::seed(seed)?)?)
}

/// `concealedByDarkness({ targetInDarkness, observers }) -> boolean[]` (B5).
pub fn concealed_by_darkness<O: Output>(query: impl Input) -> Result<O, Error> {
    O::write(&furtive_core::darkness::concealed_by_darkness_answer(
        "query",
        &query.into_value("query")?,
    )?)
}

/// `alliedSides({ side, sides }) -> boolean[]` (O3, P6, P9).
pub fn allied_sides<O: Output>(query: impl Input) -> Result<O, Error> {
    let query: furtive_core::sides::AlliedSidesQuery = query.read("query")?;
    O::write(&query.answer())
}

/// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9,
/// 0.7) or a normalized scene, normalized.
#[cfg(feature = "scene")]
pub fn parse_scene<O: Output>(scene: impl Input) -> Result<O, Error> {
    O::write(&furtive_core::Scene::from_value(
        scene.into_value("scene")?,
    )?)
}

/// `clearView(scene, { from, to, darkvision? }) -> ClearViewAnswer` (B5).
#[cfg(feature = "scene")]
pub fn clear_view<O: Output>(scene: impl Input, query: impl Input) -> Result<O, Error> {
    let mut sight = furtive_core::scene::SceneSight::from_value(scene.into_value("scene")?)?;
    let query: furtive_core::scene::ClearViewQuery = query.read("query")?;
    O::write(&sight.answer(&query)?)
}

/// `clearViewMatrix(scene, tokens?) -> ClearViewMatrix`: every pair of
/// `tokens` (`null`: the scene's own).
#[cfg(feature = "scene")]
pub fn clear_view_matrix<O: Output>(scene: impl Input, tokens: impl Input) -> Result<O, Error> {
    use furtive_core::scene::{SceneSight, Token};
    let scene = furtive_core::Scene::from_value(scene.into_value("scene")?)?;
    let tokens = tokens.into_value("tokens")?;
    if tokens.is_null() {
        return O::write(&SceneSight::new(scene).clear_view_matrix());
    }
    let tokens: Vec<Token> = tokens.read("tokens")?;
    O::write(&scene.clear_view_matrix_of("tokens", &tokens)?)
}

/// `situationModifiers() -> [{ id, value }]`: the nine P2 situation
/// modifiers in the order of the rule text, with their values.
pub fn situation_modifiers<O: Output>() -> Result<O, Error> {
    let modifiers: Vec<Value> = furtive_core::SituationModifier::ALL
        .iter()
        .map(|m| serde_json::json!({ "id": m.id(), "value": m.value() }))
        .collect();
    O::write(&modifiers)
}

/// `errorCodes() -> string[]`: every stable error code of the engine.
pub fn error_codes<O: Output>() -> Result<O, Error> {
    O::write(&Error::CODES)
}

//! The JSON facade the bindings call: JSON values in, JSON values out.
//!
//! Both bindings (napi and wasm) convert JavaScript values to
//! `serde_json::Value`, call one function here and convert the result back,
//! so every backend parses, validates and words its errors identically.
//! Parse errors name the path of the bad field (`serde_path_to_error`):
//! `event.hider: invalid type: integer `3`, expected a string`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::error::Error;
use crate::event::Event;
use crate::outcome::Request;
use crate::query::{DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery};
use crate::state::{Config, State};

/// Parses `value` as `T`; errors are `invalid_input` naming `what.path`.
pub fn parse<T: DeserializeOwned>(what: &str, value: Value) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let field = if path == "." || path.is_empty() {
            what.to_owned()
        } else {
            format!("{what}.{path}")
        };
        Error::InvalidInput {
            field,
            message: error.into_inner().to_string(),
        }
    })
}

fn to_json<T: Serialize>(value: &T) -> Result<Value, Error> {
    serde_json::to_value(value).map_err(|e| Error::InvalidInput {
        field: "output".into(),
        message: e.to_string(),
    })
}

/// Parses a seed: an integer 0..=2^53-1 (exact in a JavaScript number).
pub fn parse_seed(value: &Value) -> Result<u64, Error> {
    const MAX: u64 = (1 << 53) - 1;
    match value.as_u64() {
        Some(seed) if seed <= MAX => Ok(seed),
        _ => match value.as_f64() {
            Some(f) if f.fract() == 0.0 && (0.0..=MAX as f64).contains(&f) => Ok(f as u64),
            _ => Err(Error::OutOfRange {
                field: "seed".into(),
                value: value.to_string(),
                min: 0,
                max: MAX as i64,
            }),
        },
    }
}

/// `createState(config) -> State`. See [`crate::create_state`].
pub fn create_state(config: Value) -> Result<Value, Error> {
    let config: Config = parse("config", config)?;
    to_json(&crate::create_state(config)?)
}

/// `apply(state, event) -> Outcome`. See [`crate::apply`].
pub fn apply(state: Value, event: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    let event: Event = parse("event", event)?;
    to_json(&crate::apply(&state, event)?)
}

/// `perceives(state, { observer, hider }) -> Decision`.
pub fn perceives(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::perceives(
        &state,
        &parse::<PairQuery>("query", query)?,
    )?)
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
pub fn can_locate(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::can_locate(
        &state,
        &parse::<PairQuery>("query", query)?,
    )?)
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
pub fn can_defend(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::can_defend(
        &state,
        &parse::<DefenseQuery>("query", query)?,
    )?)
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
pub fn knockout(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::knockout(
        &state,
        &parse::<KnockoutQuery>("query", query)?,
    )?)
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
pub fn can_pickpocket(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::can_pickpocket(
        &state,
        &parse::<PickpocketQuery>("query", query)?,
    )?)
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
pub fn attack_hidden(state: Value, query: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::attack_hidden(
        &state,
        &parse::<HiddenAttackQuery>("query", query)?,
    )?)
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): who does not perceive whom.
pub fn hidden_from(state: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    to_json(&crate::query::hidden_from(&state)?)
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
pub fn roll_requests(state: Value, requests: Value, seed: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    crate::engine::validate_state(&state)?;
    let requests: Vec<Request> = parse("requests", requests)?;
    to_json(&crate::roll_requests(
        &state,
        &requests,
        parse_seed(&seed)?,
    )?)
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
pub fn settle(state: Value, event: Value, seed: Value) -> Result<Value, Error> {
    let state: State = parse("state", state)?;
    let event: Event = parse("event", event)?;
    to_json(&crate::settle(&state, event, parse_seed(&seed)?)?)
}

/// `errorCodes() -> string[]`: every stable error code.
pub fn error_codes() -> Value {
    Value::from(Error::CODES.to_vec())
}

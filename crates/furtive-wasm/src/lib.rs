//! wasm-bindgen build of `furtive-core`, for browsers and the Foundry module.
//!
//! A thin layer with no rule logic: every export reads its JavaScript
//! arguments as JSON with `furtive_js_input` (the same walker, limits and
//! messages as the napi addon), calls the same function of
//! `furtive_core::api`, and converts the result back with
//! `serde-wasm-bindgen`'s JSON-compatible serializer (plain objects, `null`,
//! no `Map`, no BigInt). Errors are thrown as real `Error` objects whose
//! `code` is the core's stable code.
//!
//! Panics: the build uses `panic = "abort"`. The panic hook installed at
//! start throws a plain `Error` (no `code`) carrying the panic message; that
//! abandons the instance, and the JavaScript wrapper (`npm/browser.js`)
//! turns any code-less exception into an `engine_panicked` error and resets
//! the instance (`__wbg_reset_state`).
//!
//! Built for `wasm32-unknown-unknown` with the `wasm-release` profile, then
//! `wasm-bindgen --target web` (see `scripts/build-wasm.sh`).

use furtive_core::{api, Error};
use furtive_js_input::{Kind, Reader, Unreadable};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`, catching a throwing proxy trap.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(object: &JsValue) -> Result<js_sys::Array, JsValue>;
    /// `Array.isArray`, catching a revoked proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// Installs the panic hook described in the crate docs.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        wasm_bindgen::throw_str(&format!("engine: the engine panicked ({info})"))
    }));
}

/// Builds the thrown `Error`: message from the core, `code` property set.
fn to_js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &error.code().into());
    js.into()
}

/// Reads JavaScript values through `js-sys`; every call that can run user
/// code (getters, proxy traps) catches what it throws.
struct JsReader;

impl Reader for JsReader {
    type Value = JsValue;
    type Key = JsValue;

    fn kind(&mut self, value: &JsValue) -> Result<Kind, Unreadable> {
        Ok(if let Some(s) = value.as_string() {
            Kind::String(s)
        } else if let Some(n) = value.as_f64() {
            Kind::Number(n)
        } else if value.is_object() {
            if is_array(value).map_err(|_| Unreadable)? {
                let length = js_sys::Reflect::get(value, &"length".into())
                    .map_err(|_| Unreadable)?
                    .as_f64()
                    .ok_or(Unreadable)?;
                Kind::Array(length as u32)
            } else {
                Kind::Object
            }
        } else if let Some(b) = value.as_bool() {
            Kind::Bool(b)
        } else if value.is_null() {
            Kind::Null
        } else if value.is_undefined() {
            Kind::Undefined
        } else if value.is_function() {
            Kind::Function
        } else if value.is_bigint() {
            Kind::BigInt
        } else if value.is_symbol() {
            Kind::Symbol
        } else {
            Kind::Other
        })
    }

    fn element(&mut self, array: &JsValue, index: u32) -> Result<JsValue, Unreadable> {
        js_sys::Reflect::get_u32(array, index).map_err(|_| Unreadable)
    }

    fn keys(&mut self, object: &JsValue) -> Result<Vec<(String, JsValue)>, Unreadable> {
        let keys = object_keys(object).map_err(|_| Unreadable)?;
        Ok(keys
            .iter()
            .filter_map(|key| key.as_string().map(|text| (text, key)))
            .collect())
    }

    fn property(&mut self, object: &JsValue, key: &JsValue) -> Result<JsValue, Unreadable> {
        js_sys::Reflect::get(object, key).map_err(|_| Unreadable)
    }
}

/// JavaScript argument -> JSON value; `argument` names it in errors.
fn input(argument: &str, value: &JsValue) -> Result<Value, JsValue> {
    furtive_js_input::to_json(&mut JsReader, argument, value).map_err(|e| to_js_error(&e))
}

/// Like [`input`], for a trailing optional argument: `undefined` (omitted)
/// is JSON `null`.
fn optional_input(argument: &str, value: &JsValue) -> Result<Value, JsValue> {
    furtive_js_input::to_json_optional(&mut JsReader, argument, value).map_err(|e| to_js_error(&e))
}

/// JSON value -> plain JavaScript value.
fn output(result: Result<Value, Error>) -> Result<JsValue, JsValue> {
    let value = result.map_err(|e| to_js_error(&e))?;
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            to_js_error(&Error::InvalidInput {
                field: "output".into(),
                message: e.to_string(),
            })
        })
}

/// `createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`.
#[wasm_bindgen(js_name = "createState")]
pub fn create_state(config: JsValue) -> Result<JsValue, JsValue> {
    output(api::create_state(input("config", &config)?))
}

/// `apply(state, event) -> Outcome { state, changes, requests, log }`.
#[wasm_bindgen]
pub fn apply(state: JsValue, event: JsValue) -> Result<JsValue, JsValue> {
    output(api::apply(input("state", &state)?, input("event", &event)?))
}

/// `perceives(state, { observer, hider }) -> Decision`.
#[wasm_bindgen]
pub fn perceives(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::perceives(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
#[wasm_bindgen(js_name = "canLocate")]
pub fn can_locate(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::can_locate(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
#[wasm_bindgen(js_name = "canDefend")]
pub fn can_defend(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::can_defend(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
#[wasm_bindgen]
pub fn knockout(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::knockout(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
#[wasm_bindgen(js_name = "canPickpocket")]
pub fn can_pickpocket(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::can_pickpocket(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
#[wasm_bindgen(js_name = "attackHidden")]
pub fn attack_hidden(state: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::attack_hidden(
        input("state", &state)?,
        input("query", &query)?,
    ))
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): the lookup the Foundry module publishes.
#[wasm_bindgen(js_name = "hiddenFrom")]
pub fn hidden_from(state: JsValue) -> Result<JsValue, JsValue> {
    output(api::hidden_from(input("state", &state)?))
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
#[wasm_bindgen(js_name = "rollRequests")]
pub fn roll_requests(state: JsValue, requests: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    output(api::roll_requests(
        input("state", &state)?,
        input("requests", &requests)?,
        input("seed", &seed)?,
    ))
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
#[wasm_bindgen]
pub fn settle(state: JsValue, event: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    output(api::settle(
        input("state", &state)?,
        input("event", &event)?,
        input("seed", &seed)?,
    ))
}

/// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or
/// a normalized scene, returned normalized.
#[wasm_bindgen(js_name = "parseScene")]
pub fn parse_scene(scene: JsValue) -> Result<JsValue, JsValue> {
    output(api::parse_scene(input("scene", &scene)?))
}

/// `clearView(scene, { from, to }) -> ClearViewAnswer`: clear view and distance
/// between two points or tokens of a scene.
#[wasm_bindgen(js_name = "clearView")]
pub fn clear_view(scene: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    output(api::clear_view(
        input("scene", &scene)?,
        input("query", &query)?,
    ))
}

/// `clearViewMatrix(scene, tokens?) -> { ids, clearView, distance, units }`;
/// omitted (or `null`) tokens = the scene's own.
#[wasm_bindgen(js_name = "clearViewMatrix")]
pub fn clear_view_matrix(scene: JsValue, tokens: JsValue) -> Result<JsValue, JsValue> {
    output(api::clear_view_matrix(
        input("scene", &scene)?,
        optional_input("tokens", &tokens)?,
    ))
}

/// `errorCodes() -> string[]`: every stable error code of the core.
#[wasm_bindgen(js_name = "errorCodes")]
pub fn error_codes() -> Result<JsValue, JsValue> {
    output(Ok(api::error_codes()))
}

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[wasm_bindgen(js_name = "__panicForTests")]
pub fn panic_for_tests() {
    panic!("deliberate panic for tests");
}

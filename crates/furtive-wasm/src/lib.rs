//! wasm-bindgen build of `furtive-core`, for browsers and the Foundry module.
//!
//! A thin layer with no rule logic. Every export takes its arguments as JSON
//! text (the package's `browser.js` serializes them with the platform's
//! `JSON.stringify`), reads them with `serde_json`, calls the same function
//! of `furtive_core::api`, and returns the result through
//! `serde-wasm-bindgen`'s JSON-compatible serializer (plain objects, `null`,
//! no `Map`). Errors are thrown as real `Error` objects whose `code` is the
//! core's stable code and whose message names the field.
//!
//! A panic aborts the instance (`panic = "abort"` in the `wasm-release`
//! profile); the panic hook first throws an `Error` whose message starts
//! with `engine: the engine panicked`, which `browser.js` turns into
//! `engine_panicked` before it resets the instance.
//!
//! Built for `wasm32-unknown-unknown` with the `wasm-release` profile, then
//! `wasm-bindgen --target web` (`scripts/build-wasm.sh`).

use furtive_core::{api, Error};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        wasm_bindgen::throw_str(&format!("engine: the engine panicked ({info})"))
    }));
}

/// The thrown `Error`: message from the core, `code` property set.
fn to_js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &error.code().into());
    js.into()
}

/// One argument's JSON text, read with `serde_json`.
fn input(argument: &str, text: &str) -> Result<Value, JsValue> {
    api::parse_json(argument, text).map_err(|e| to_js_error(&e))
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

macro_rules! export {
    ($(#[$doc:meta])* $js:literal, $name:ident, $core:path, $($arg:ident),+) => {
        $(#[$doc])*
        #[wasm_bindgen(js_name = $js)]
        pub fn $name($($arg: &str),+) -> Result<JsValue, JsValue> {
            output($core($(input(stringify!($arg), $arg)?),+))
        }
    };
}

export!(
    /// `createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`.
    "createState", create_state, api::create_state, config
);
export!(
    /// `apply(state, event) -> Outcome { state, changes, requests, log }`.
    "apply", apply, api::apply, state, event
);
export!(
    /// `perceives(state, { observer, hider }) -> Decision`.
    "perceives", perceives, api::perceives, state, query
);
export!(
    /// `canLocate(state, { observer, hider }) -> Decision` (P5).
    "canLocate", can_locate, api::can_locate, state, query
);
export!(
    /// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
    "canDefend", can_defend, api::can_defend, state, query
);
export!(
    /// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
    "knockout", knockout, api::knockout, state, query
);
export!(
    /// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
    "canPickpocket", can_pickpocket, api::can_pickpocket, state, query
);
export!(
    /// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
    "attackHidden", attack_hidden, api::attack_hidden, state, query
);
export!(
    /// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): the lookup the Foundry module publishes.
    "hiddenFrom", hidden_from, api::hidden_from, state
);
export!(
    /// `rollRequests(state, requests, seed) -> Event[]` (B4).
    "rollRequests", roll_requests, api::roll_requests, state, requests, seed
);
export!(
    /// `settle(state, event, seed) -> Outcome` (B4).
    "settle", settle, api::settle, state, event, seed
);
export!(
    /// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene.
    "parseScene", parse_scene, api::parse_scene, scene
);
export!(
    /// `clearView(scene, { from, to }) -> ClearView`.
    "clearView", clear_view, api::clear_view, scene, query
);
export!(
    /// `clearViewMatrix(scene, tokens | null) -> ClearViewMatrix`.
    "clearViewMatrix", clear_view_matrix, api::clear_view_matrix, scene, tokens
);

/// `situationModifiers() -> [{ id, value }]`: the nine P2 situation modifiers and their values.
#[wasm_bindgen(js_name = "situationModifiers")]
pub fn situation_modifiers() -> Result<JsValue, JsValue> {
    output(Ok(api::situation_modifiers()))
}

/// `errorCodes() -> string[]`: every stable error code of the engine.
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

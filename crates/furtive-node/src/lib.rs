//! napi-rs addon of `furtive-core` for Node.js.
//!
//! A thin layer with no rule logic: every export reads its JavaScript
//! arguments as JSON with `furtive_js_input` (the same walker, limits and
//! messages as the wasm build), calls the same function of
//! `furtive_core::api`, and returns the JSON result as plain objects.
//!
//! Errors are thrown as real `Error` objects whose `code` is the core's
//! stable code (`invalid_input`, `unknown_token`...) and whose message is the
//! core's message, which names the field. A panic never crosses into Node:
//! each export runs under `catch_unwind` and a panic becomes an `Error` with
//! code `engine_panicked`.
//!
//! Loaded by `npm/node.js` from `npm/furtive.<platform>.node`
//! (`scripts/build-node.sh`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use furtive_core::{api, Error as CoreError};
use furtive_js_input::{Kind, Reader, Unreadable};
use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;
use serde_json::Value;

/// The `code` of a thrown error: one of `furtive_core::Error::CODES`, or
/// `engine_panicked`.
pub struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

fn thrown(error: &CoreError) -> napi::Error<Code> {
    napi::Error::new(Code(error.code()), error.to_string())
}

/// A trailing optional argument: `undefined` (omitted) is JSON `null`.
const OPTIONAL: bool = true;

/// Runs one export: reads the arguments (`(name, value)`, or `(name, value,
/// OPTIONAL)` through [`run_with`]), calls the core, and turns a panic into
/// an `engine_panicked` error instead of letting it reach Node.
fn run(
    env: &Env,
    arguments: &[(&str, Unknown)],
    call: impl FnOnce(Vec<Value>) -> std::result::Result<Value, CoreError>,
) -> napi::Result<Value, Code> {
    let arguments: Vec<(&str, Unknown, bool)> = arguments
        .iter()
        .map(|(name, value)| (*name, *value, !OPTIONAL))
        .collect();
    run_with(env, &arguments, call)
}

fn run_with(
    env: &Env,
    arguments: &[(&str, Unknown, bool)],
    call: impl FnOnce(Vec<Value>) -> std::result::Result<Value, CoreError>,
) -> napi::Result<Value, Code> {
    let raw = env.raw();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut reader = NapiReader { env: raw };
        let mut values = Vec::with_capacity(arguments.len());
        for (name, value, optional) in arguments {
            values.push(if *optional {
                furtive_js_input::to_json_optional(&mut reader, name, &value.raw())?
            } else {
                furtive_js_input::to_json(&mut reader, name, &value.raw())?
            });
        }
        call(values)
    }));
    match result {
        Ok(result) => result.map_err(|e| thrown(&e)),
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(napi::Error::new(
                Code("engine_panicked"),
                format!("engine: the engine panicked ({detail}); this is a bug in furtive, please report it with the input"),
            ))
        }
    }
}

/// Reads values through raw napi calls; a thrown getter or proxy trap is
/// cleared and reported as [`Unreadable`].
struct NapiReader {
    env: sys::napi_env,
}

impl NapiReader {
    fn check(&self, status: sys::napi_status) -> std::result::Result<(), Unreadable> {
        if status == sys::Status::napi_ok {
            return Ok(());
        }
        let mut pending = false;
        // SAFETY: `env` is the live environment of the current call.
        unsafe {
            sys::napi_is_exception_pending(self.env, &mut pending);
            if pending {
                let mut exception = ptr::null_mut();
                sys::napi_get_and_clear_last_exception(self.env, &mut exception);
            }
        }
        Err(Unreadable)
    }

    fn string(&self, value: sys::napi_value) -> std::result::Result<String, Unreadable> {
        // Most strings (ids, names, keys) fit a small buffer: one call. napi
        // copies whole characters only, so a result within 4 bytes of the
        // end may be cut short; then ask for the length and copy again.
        let mut small = [0u8; 512];
        let mut written = 0;
        // SAFETY: napi writes at most `len - 1` bytes plus a NUL into the buffer.
        self.check(unsafe {
            sys::napi_get_value_string_utf8(
                self.env,
                value,
                small.as_mut_ptr().cast(),
                small.len(),
                &mut written,
            )
        })?;
        if written + 4 < small.len() - 1 {
            return String::from_utf8(small[..written].to_vec()).map_err(|_| Unreadable);
        }
        let mut length = 0;
        // SAFETY: a null buffer asks for the UTF-8 length only; the second
        // call writes at most `length + 1` bytes into a buffer of that size.
        unsafe {
            self.check(sys::napi_get_value_string_utf8(
                self.env,
                value,
                ptr::null_mut(),
                0,
                &mut length,
            ))?;
            let mut buffer = vec![0u8; length + 1];
            self.check(sys::napi_get_value_string_utf8(
                self.env,
                value,
                buffer.as_mut_ptr().cast(),
                buffer.len(),
                &mut written,
            ))?;
            buffer.truncate(written);
            // napi writes valid UTF-8 (lone surrogates become U+FFFD).
            String::from_utf8(buffer).map_err(|_| Unreadable)
        }
    }
}

impl Reader for NapiReader {
    type Value = sys::napi_value;
    type Key = sys::napi_value;

    fn kind(&mut self, value: &sys::napi_value) -> std::result::Result<Kind, Unreadable> {
        let value = *value;
        let mut kind = 0;
        // SAFETY: every call reads a live value of the current scope.
        unsafe {
            self.check(sys::napi_typeof(self.env, value, &mut kind))?;
            Ok(match kind {
                sys::ValueType::napi_undefined => Kind::Undefined,
                sys::ValueType::napi_null => Kind::Null,
                sys::ValueType::napi_boolean => {
                    let mut b = false;
                    self.check(sys::napi_get_value_bool(self.env, value, &mut b))?;
                    Kind::Bool(b)
                }
                sys::ValueType::napi_number => {
                    let mut n = 0.0;
                    self.check(sys::napi_get_value_double(self.env, value, &mut n))?;
                    Kind::Number(n)
                }
                sys::ValueType::napi_string => Kind::String(self.string(value)?),
                sys::ValueType::napi_symbol => Kind::Symbol,
                sys::ValueType::napi_function => Kind::Function,
                sys::ValueType::napi_bigint => Kind::BigInt,
                sys::ValueType::napi_object => {
                    let mut array = false;
                    self.check(sys::napi_is_array(self.env, value, &mut array))?;
                    if array {
                        let mut length = 0;
                        self.check(sys::napi_get_array_length(self.env, value, &mut length))?;
                        Kind::Array(length)
                    } else {
                        Kind::Object
                    }
                }
                _ => Kind::Other,
            })
        }
    }

    fn element(
        &mut self,
        array: &sys::napi_value,
        index: u32,
    ) -> std::result::Result<sys::napi_value, Unreadable> {
        let mut element = ptr::null_mut();
        // SAFETY: `array` is a live array of the current scope.
        self.check(unsafe { sys::napi_get_element(self.env, *array, index, &mut element) })?;
        Ok(element)
    }

    fn keys(
        &mut self,
        object: &sys::napi_value,
    ) -> std::result::Result<Vec<(String, sys::napi_value)>, Unreadable> {
        // Own, enumerable, string keys: what `Object.keys` lists.
        let mut names = ptr::null_mut();
        let mut length = 0;
        // SAFETY: `object` is a live object of the current scope.
        unsafe {
            self.check(sys::napi_get_all_property_names(
                self.env,
                *object,
                sys::KeyCollectionMode::own_only,
                sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
                sys::KeyConversion::numbers_to_strings,
                &mut names,
            ))?;
            self.check(sys::napi_get_array_length(self.env, names, &mut length))?;
        }
        let mut keys = Vec::with_capacity(length as usize);
        for index in 0..length {
            let name = self.element(&names, index)?;
            keys.push((self.string(name)?, name));
        }
        Ok(keys)
    }

    fn property(
        &mut self,
        object: &sys::napi_value,
        key: &sys::napi_value,
    ) -> std::result::Result<sys::napi_value, Unreadable> {
        let mut value = ptr::null_mut();
        // SAFETY: `key` is a string key of `object`, both of the current scope.
        self.check(unsafe { sys::napi_get_property(self.env, *object, *key, &mut value) })?;
        Ok(value)
    }
}

/// `createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`.
#[napi(js_name = "createState", catch_unwind)]
pub fn create_state(env: Env, config: Unknown) -> napi::Result<Value, Code> {
    run(&env, &[("config", config)], |mut a| {
        api::create_state(a.remove(0))
    })
}

/// `apply(state, event) -> napi::Result<Value, Code> { state, changes, requests, log }`.
#[napi(catch_unwind)]
pub fn apply(env: Env, state: Unknown, event: Unknown) -> napi::Result<Value, Code> {
    run(&env, &[("state", state), ("event", event)], |a| {
        let [state, event] = two(a);
        api::apply(state, event)
    })
}

/// `perceives(state, { observer, hider }) -> Decision`.
#[napi(catch_unwind)]
pub fn perceives(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::perceives)
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
#[napi(js_name = "canLocate", catch_unwind)]
pub fn can_locate(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::can_locate)
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
#[napi(js_name = "canDefend", catch_unwind)]
pub fn can_defend(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::can_defend)
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
#[napi(catch_unwind)]
pub fn knockout(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::knockout)
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
#[napi(js_name = "canPickpocket", catch_unwind)]
pub fn can_pickpocket(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::can_pickpocket)
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
#[napi(js_name = "attackHidden", catch_unwind)]
pub fn attack_hidden(env: Env, state: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    query_call(&env, state, query, api::attack_hidden)
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): the lookup the Foundry module publishes.
#[napi(js_name = "hiddenFrom", catch_unwind)]
pub fn hidden_from(env: Env, state: Unknown) -> napi::Result<Value, Code> {
    run(&env, &[("state", state)], |mut a| {
        api::hidden_from(a.remove(0))
    })
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
#[napi(js_name = "rollRequests", catch_unwind)]
pub fn roll_requests(
    env: Env,
    state: Unknown,
    requests: Unknown,
    seed: Unknown,
) -> napi::Result<Value, Code> {
    run(
        &env,
        &[("state", state), ("requests", requests), ("seed", seed)],
        |a| {
            let [state, requests, seed] = three(a);
            api::roll_requests(state, requests, seed)
        },
    )
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
#[napi(catch_unwind)]
pub fn settle(
    env: Env,
    state: Unknown,
    event: Unknown,
    seed: Unknown,
) -> napi::Result<Value, Code> {
    run(
        &env,
        &[("state", state), ("event", event), ("seed", seed)],
        |a| {
            let [state, event, seed] = three(a);
            api::settle(state, event, seed)
        },
    )
}

/// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or
/// a normalized scene, returned normalized.
#[napi(js_name = "parseScene", catch_unwind)]
pub fn parse_scene(env: Env, scene: Unknown) -> napi::Result<Value, Code> {
    run(&env, &[("scene", scene)], |mut a| {
        api::parse_scene(a.remove(0))
    })
}

/// `clearView(scene, { from, to }) -> ClearViewAnswer`: clear view and distance
/// between two points or tokens of a scene.
#[napi(js_name = "clearView", catch_unwind)]
pub fn clear_view(env: Env, scene: Unknown, query: Unknown) -> napi::Result<Value, Code> {
    run(&env, &[("scene", scene), ("query", query)], |a| {
        let [scene, query] = two(a);
        api::clear_view(scene, query)
    })
}

/// `clearViewMatrix(scene, tokens?) -> { ids, clearView, distance, units }`;
/// omitted (or `null`) tokens = the scene's own.
#[napi(js_name = "clearViewMatrix", catch_unwind)]
pub fn clear_view_matrix(env: Env, scene: Unknown, tokens: Unknown) -> napi::Result<Value, Code> {
    run_with(
        &env,
        &[("scene", scene, !OPTIONAL), ("tokens", tokens, OPTIONAL)],
        |a| {
            let [scene, tokens] = two(a);
            api::clear_view_matrix(scene, tokens)
        },
    )
}

/// `errorCodes() -> string[]`: every stable error code of the core.
#[napi(js_name = "errorCodes")]
pub fn error_codes() -> Value {
    api::error_codes()
}

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[napi(js_name = "__panicForTests", catch_unwind)]
pub fn panic_for_tests(env: Env) -> napi::Result<Value, Code> {
    run(&env, &[], |_| panic!("deliberate panic for tests"))
}

fn query_call(
    env: &Env,
    state: Unknown,
    query: Unknown,
    call: fn(Value, Value) -> std::result::Result<Value, CoreError>,
) -> napi::Result<Value, Code> {
    run(env, &[("state", state), ("query", query)], |a| {
        let [state, query] = two(a);
        call(state, query)
    })
}

fn two(values: Vec<Value>) -> [Value; 2] {
    let mut values = values.into_iter();
    [
        values.next().unwrap_or_default(),
        values.next().unwrap_or_default(),
    ]
}

fn three(values: Vec<Value>) -> [Value; 3] {
    let mut values = values.into_iter();
    [
        values.next().unwrap_or_default(),
        values.next().unwrap_or_default(),
        values.next().unwrap_or_default(),
    ]
}

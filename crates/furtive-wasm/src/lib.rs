//! wasm-bindgen build of Furtive, for browsers and the Foundry module: a
//! thin shell over `furtive-json`.
//!
//! The exports are listed once, in `furtive_json::for_each_export!`; this
//! file only says how wasm-bindgen wraps one free function, and one method
//! of the `Session` and `SceneSight` classes. Every argument arrives as the
//! UTF-8 bytes of its JSON text (see `text`); results go back as JSON text,
//! which the package reads with `JSON.parse` (faster than building the
//! objects from Rust, above all in Chromium). Errors are thrown as `Error`
//! objects whose `code` is the engine's stable code.
//!
//! A panic aborts the instance (`panic = "abort"` in the `wasm` profile);
//! the panic hook first throws an `Error` whose message starts with
//! `engine: the engine panicked`, which `npm/browser.js` turns into
//! `engine_panicked` before it resets the instance; every `Session` and
//! `SceneSight` of the old instance then answers `session_lost`.

use furtive_core::Error;
#[cfg(feature = "scene")]
use furtive_json::scene_sight::JsonSceneSight;
use furtive_json::session::JsonSession;
use wasm_bindgen::prelude::*;

/// The instance allocates with talc: as fast as Rust's default wasm
/// allocator (dlmalloc), with less code. A reset instance
/// (`__wbg_reset_state`, after a panic) starts a fresh heap.
/// https://github.com/SFBdragon/talc/blob/master/talc/README_WASM.md
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

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

/// A core result, its error thrown as a JavaScript `Error` with a `code`.
fn js<T>(result: Result<T, Error>) -> Result<T, JsValue> {
    result.map_err(|e| to_js_error(&e))
}

/// The JSON text of the argument `argument` from its UTF-8 bytes. Bytes,
/// not `&str`: wasm-bindgen copies a string into the instance one UTF-16
/// code unit at a time in JavaScript, where `npm/browser.js` encodes the
/// text natively with `TextEncoder.encodeInto` and wasm-bindgen copies the
/// bytes at once. Bytes that are not UTF-8 are `invalid_input` naming the
/// argument.
fn text<'a>(argument: &str, bytes: &'a [u8]) -> Result<&'a str, JsValue> {
    std::str::from_utf8(bytes).map_err(|error| {
        to_js_error(&Error::InvalidInput {
            field: argument.to_owned(),
            message: format!("not UTF-8 text ({error})"),
        })
    })
}

/// A `furtive_core::Session` in this wasm instance (see
/// `furtive_json::session::JsonSession`). Created by `Session.create`
/// or `Session.load`; `npm/classes.js` wraps it in the package's `Session`.
#[wasm_bindgen(js_name = Session)]
pub struct WasmSession {
    inner: JsonSession,
}

/// A `furtive_core::scene::SceneSight` in this wasm instance (see
/// `furtive_json::scene_sight::JsonSceneSight`), feature `scene`. Created by
/// `SceneSight.parse`; `npm/classes.js` wraps it in the package's `SceneSight`.
#[cfg(feature = "scene")]
#[wasm_bindgen(js_name = SceneSight)]
pub struct WasmSceneSight {
    inner: JsonSceneSight,
}

macro_rules! wasm_exports {
    (
        functions: [$({ $name:ident, $js:literal, [$($feature:literal)?], ($($arg:ident $([$optional:ident])?),*), $doc:literal },)*],
        session_constructors: [$({ $ctor:ident, $ctor_js:literal, [$($ctor_feature:literal)?], ($($ctor_arg:ident),*), $ctor_doc:literal },)*],
        session_mut: [$({ $mut:ident, $mut_js:literal, [$($mut_feature:literal)?], ($($mut_arg:ident),*), $mut_doc:literal },)*],
        session_ref: [$({ $ref:ident, $ref_js:literal, [$($ref_feature:literal)?], ($($ref_arg:ident),*), $ref_doc:literal },)*],
        session_getters: [$({ $getter:ident, $getter_js:literal, $getter_doc:literal },)*],
        scene_constructors: [$({ $sctor:ident, $sctor_js:literal, [$($sctor_feature:literal)?], ($($sctor_arg:ident),*), $sctor_doc:literal },)*],
        scene_methods: [$({ $smethod:ident, $smethod_js:literal, [$($smethod_feature:literal)?], ($($smethod_arg:ident),*), $smethod_doc:literal },)*],
    ) => {
        $(
            $(#[cfg(feature = $feature)])?
            #[doc = $doc]
            #[wasm_bindgen(js_name = $js)]
            pub fn $name($($arg: &[u8]),*) -> Result<String, JsValue> {
                $(let $arg = text(stringify!($arg), $arg)?;)*
                js(furtive_json::functions::$name::<String>($($arg),*))
            }
        )*
        $(
            $(#[cfg(feature = $ctor_feature)])?
            #[wasm_bindgen(js_class = Session)]
            impl WasmSession {
                #[doc = $ctor_doc]
                #[wasm_bindgen(js_name = $ctor_js)]
                pub fn $ctor($($ctor_arg: &[u8]),*) -> Result<WasmSession, JsValue> {
                    $(let $ctor_arg = text(stringify!($ctor_arg), $ctor_arg)?;)*
                    js(JsonSession::$ctor($($ctor_arg),*)).map(|inner| WasmSession { inner })
                }
            }
        )*
        $(
            $(#[cfg(feature = $mut_feature)])?
            #[wasm_bindgen(js_class = Session)]
            impl WasmSession {
                #[doc = $mut_doc]
                #[wasm_bindgen(js_name = $mut_js)]
                pub fn $mut(&mut self, $($mut_arg: &[u8]),*) -> Result<String, JsValue> {
                    $(let $mut_arg = text(stringify!($mut_arg), $mut_arg)?;)*
                    js(self.inner.$mut($($mut_arg),*))
                }
            }
        )*
        $(
            $(#[cfg(feature = $ref_feature)])?
            #[wasm_bindgen(js_class = Session)]
            impl WasmSession {
                #[doc = $ref_doc]
                #[wasm_bindgen(js_name = $ref_js)]
                pub fn $ref(&self, $($ref_arg: &[u8]),*) -> Result<String, JsValue> {
                    $(let $ref_arg = text(stringify!($ref_arg), $ref_arg)?;)*
                    js(self.inner.$ref($($ref_arg),*))
                }
            }
        )*
        $(
            #[wasm_bindgen(js_class = Session)]
            impl WasmSession {
                #[doc = $getter_doc]
                #[wasm_bindgen(getter, js_name = $getter_js)]
                pub fn $getter(&self) -> f64 {
                    // Revisions stay far below 2^53: exact as a JavaScript number.
                    self.inner.$getter() as f64
                }
            }
        )*
        $(
            $(#[cfg(feature = $sctor_feature)])?
            #[wasm_bindgen(js_class = SceneSight)]
            impl WasmSceneSight {
                #[doc = $sctor_doc]
                #[wasm_bindgen(js_name = $sctor_js)]
                pub fn $sctor($($sctor_arg: &[u8]),*) -> Result<WasmSceneSight, JsValue> {
                    $(let $sctor_arg = text(stringify!($sctor_arg), $sctor_arg)?;)*
                    js(JsonSceneSight::$sctor($($sctor_arg),*)).map(|inner| WasmSceneSight { inner })
                }
            }
        )*
        $(
            $(#[cfg(feature = $smethod_feature)])?
            #[wasm_bindgen(js_class = SceneSight)]
            impl WasmSceneSight {
                #[doc = $smethod_doc]
                #[wasm_bindgen(js_name = $smethod_js)]
                pub fn $smethod(&mut self, $($smethod_arg: &[u8]),*) -> Result<String, JsValue> {
                    $(let $smethod_arg = text(stringify!($smethod_arg), $smethod_arg)?;)*
                    js(self.inner.$smethod($($smethod_arg),*))
                }
            }
        )*
    };
}

furtive_json::for_each_export!(wasm_exports);

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[wasm_bindgen(js_name = "__panicForTests")]
pub fn panic_for_tests() {
    panic!("deliberate panic for tests");
}

//! napi-rs addon of Furtive for Node.js: a thin shell over `furtive-json`.
//!
//! The exports are listed once, in `furtive_json::for_each_export!`; this
//! file only says how napi wraps one free function, and one member of the
//! `Session` and `SceneSight` classes (napi-rs classes: a factory for each
//! constructor). The package's classes (`npm/classes.js`) hold one of
//! them each. Arguments and results are JSON text (napi's own conversion
//! of a `serde_json::Value` refuses more than 1,000,000 values, which a
//! 1000-creature state has).
//!
//! Errors are thrown as `Error` objects whose `code` is the engine's stable
//! code and whose message names the field. A panic never crosses into
//! Node: each export runs under `catch_unwind` and a panic becomes
//! `engine_panicked`. A `Session` whose changing method (`apply`,
//! `applyAll`, `settle`) panicked may hold a half-applied event, so it is
//! dropped: its later calls throw `session_lost`; a query that panics
//! changes nothing. `free()` drops the engine object at once (napi-rs
//! drops a class's object only when JavaScript collects it); later calls
//! throw `session_freed`.

/// The addon allocates with mimalloc, faster than glibc's malloc for the
/// many small allocations of an event (ids, journal entries). Memory the
/// addon allocates is freed by the addon only: what crosses to JavaScript
/// is copied by napi into V8's heap.
/// https://github.com/purpleprotocol/mimalloc_rust
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::panic::{catch_unwind, AssertUnwindSafe};

use furtive_core::Error;
#[cfg(feature = "scene")]
use furtive_json::scene_sight::JsonSceneSight;
use furtive_json::session::JsonSession;
use napi_derive::napi;

/// The `code` of a thrown error: one of `furtive_core::Error::CODES`,
/// `engine_panicked`, `session_lost` or `session_freed`.
pub struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

fn core_error(error: Error) -> napi::Error<Code> {
    napi::Error::new(Code(error.code()), error.to_string())
}

fn panicked(payload: Box<dyn std::any::Any + Send>) -> napi::Error<Code> {
    let detail = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    napi::Error::new(
        Code("engine_panicked"),
        format!("engine: the engine panicked ({detail}); this is a bug in furtive, please report it with the input"),
    )
}

/// Runs one export: a core error becomes a thrown `Error` with its code, a
/// panic becomes `engine_panicked` instead of reaching Node.
fn run<T>(call: impl FnOnce() -> Result<T, Error>) -> napi::Result<T, Code> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(result) => result.map_err(core_error),
        Err(payload) => Err(panicked(payload)),
    }
}

/// What a [`Held`] holds, and how its messages name it.
pub trait Kind {
    /// What the messages call one: `"session"`, `"SceneSight"`.
    const NOUN: &'static str;
    /// What to do once it is freed.
    const FREED: &'static str;
    /// What to do once it is lost.
    const LOST: &'static str;
}

impl Kind for JsonSession {
    const NOUN: &'static str = "session";
    const FREED: &'static str = "load a snapshot into a new one with Session.load(snapshot)";
    const LOST: &'static str = "reload it from your last snapshot with Session.load(snapshot)";
}

#[cfg(feature = "scene")]
impl Kind for JsonSceneSight {
    const NOUN: &'static str = "SceneSight";
    const FREED: &'static str = "parse the scene again with SceneSight.parse(scene)";
    const LOST: &'static str = Self::FREED;
}

/// The engine object of a class instance, or the code calls answer once
/// it is gone: `session_freed` after `free()`, `session_lost` after a panic
/// inside a changing call (the object may be half changed). Every call
/// runs under `catch_unwind`.
pub struct Held<T>(Result<T, Code>);

impl<T: Kind> Held<T> {
    fn gone(code: &Code, method: &str) -> napi::Error<Code> {
        let (noun, freed, lost) = (T::NOUN, T::FREED, T::LOST);
        let message = if code.0 == "session_freed" {
            format!("{method}: this {noun} was freed (free() or a using block); {freed}")
        } else {
            format!("{method}: this {noun} was lost when the engine panicked in one of its calls; {lost}")
        };
        napi::Error::new(Code(code.0), message)
    }

    /// A call that does not change the object: a panic leaves it usable.
    fn read<R>(
        &self,
        method: &str,
        call: impl FnOnce(&T) -> Result<R, Error>,
    ) -> napi::Result<R, Code> {
        match &self.0 {
            Ok(inner) => run(|| call(inner)),
            Err(code) => Err(Self::gone(code, method)),
        }
    }

    /// A call that changes the object: a panic drops it, and it answers
    /// `session_lost` from then on.
    fn write<R>(
        &mut self,
        method: &str,
        call: impl FnOnce(&mut T) -> Result<R, Error>,
    ) -> napi::Result<R, Code> {
        let inner = self.0.as_mut().map_err(|code| Self::gone(code, method))?;
        match catch_unwind(AssertUnwindSafe(|| call(inner))) {
            Ok(result) => result.map_err(core_error),
            Err(payload) => {
                self.0 = Err(Code("session_lost"));
                Err(panicked(payload))
            }
        }
    }
}

/// The addon's `Session` class: a `furtive_json::session::JsonSession`,
/// made by the factories `Session.create` and `Session.load`.
#[napi(js_name = "Session")]
pub struct NapiSession {
    held: Held<JsonSession>,
}

/// The addon's `SceneSight` class: a `furtive_core::scene::SceneSight`
/// (see `furtive_json::scene_sight::JsonSceneSight`), made by the factory
/// `SceneSight.parse`. Every method fills caches (wall indexes, lighting),
/// so a panic in any of them loses the scene.
#[cfg(feature = "scene")]
#[napi(js_name = "SceneSight")]
pub struct NapiSceneSight {
    held: Held<JsonSceneSight>,
}

/// `free()` and `__panicForTests()` of a class.
macro_rules! lifecycle {
    ($class:ident) => {
        #[napi]
        impl $class {
            /// Drops the engine object now; later calls throw
            /// `session_freed`. Calling it twice is harmless.
            #[napi]
            pub fn free(&mut self) {
                self.held = Held(Err(Code("session_freed")));
            }

            /// Panics inside a changing call on purpose, for the tests of
            /// `session_lost` only (not public API).
            #[doc(hidden)]
            #[napi(js_name = "__panicForTests")]
            pub fn panic_for_tests(&mut self) -> napi::Result<String, Code> {
                self.held
                    .write("__panicForTests", |_| panic!("deliberate panic for tests"))
            }
        }
    };
}

lifecycle!(NapiSession);
#[cfg(feature = "scene")]
lifecycle!(NapiSceneSight);

macro_rules! napi_exports {
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
            #[napi(js_name = $js)]
            pub fn $name($($arg: String),*) -> napi::Result<String, Code> {
                run(|| furtive_json::functions::$name::<String>($($arg.as_str()),*))
            }
        )*

        $(
            $(#[cfg(feature = $ctor_feature)])?
            #[napi]
            impl NapiSession {
                #[doc = $ctor_doc]
                #[napi(factory, js_name = $ctor_js)]
                pub fn $ctor($($ctor_arg: String),*) -> napi::Result<Self, Code> {
                    run(|| JsonSession::$ctor($($ctor_arg.as_str()),*))
                        .map(|inner| NapiSession { held: Held(Ok(inner)) })
                }
            }
        )*
        $(
            $(#[cfg(feature = $mut_feature)])?
            #[napi]
            impl NapiSession {
                #[doc = $mut_doc]
                #[napi(js_name = $mut_js)]
                pub fn $mut(&mut self, $($mut_arg: String),*) -> napi::Result<String, Code> {
                    self.held.write($mut_js, |session| session.$mut($($mut_arg.as_str()),*))
                }
            }
        )*
        $(
            $(#[cfg(feature = $ref_feature)])?
            #[napi]
            impl NapiSession {
                #[doc = $ref_doc]
                #[napi(js_name = $ref_js)]
                pub fn $ref(&self, $($ref_arg: String),*) -> napi::Result<String, Code> {
                    self.held.read($ref_js, |session| session.$ref($($ref_arg.as_str()),*))
                }
            }
        )*
        $(
            #[napi]
            impl NapiSession {
                #[doc = $getter_doc]
                #[napi(getter, js_name = $getter_js)]
                pub fn $getter(&self) -> napi::Result<f64, Code> {
                    // Revisions stay within 2^53 - 1: exact as a JavaScript number.
                    self.held.read($getter_js, |session| Ok(session.$getter() as f64))
                }
            }
        )*
        $(
            $(#[cfg(feature = $sctor_feature)])?
            #[napi]
            impl NapiSceneSight {
                #[doc = $sctor_doc]
                #[napi(factory, js_name = $sctor_js)]
                pub fn $sctor($($sctor_arg: String),*) -> napi::Result<Self, Code> {
                    run(|| JsonSceneSight::$sctor($($sctor_arg.as_str()),*))
                        .map(|inner| NapiSceneSight { held: Held(Ok(inner)) })
                }
            }
        )*
        $(
            $(#[cfg(feature = $smethod_feature)])?
            #[napi]
            impl NapiSceneSight {
                #[doc = $smethod_doc]
                #[napi(js_name = $smethod_js)]
                pub fn $smethod(&mut self, $($smethod_arg: String),*) -> napi::Result<String, Code> {
                    self.held.write($smethod_js, |sight| sight.$smethod($($smethod_arg.as_str()),*))
                }
            }
        )*
    };
}

furtive_json::for_each_export!(napi_exports);

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[napi(js_name = "__panicForTests")]
pub fn panic_for_tests() -> napi::Result<String, Code> {
    run(|| panic!("deliberate panic for tests"))
}

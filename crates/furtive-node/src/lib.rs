//! napi-rs addon of Furtive for Node.js: a thin shell over `furtive-json`.
//!
//! The exports are listed once, in `furtive_json::for_each_export!`; this
//! file only says how napi wraps one free function, and one function of
//! the `Session` and `SceneSight` namespaces over an `External` handle
//! (the package's classes, `npm/handle.js`, call them). Arguments and
//! results are JSON text (napi's own conversion of a `serde_json::Value`
//! refuses more than 1,000,000 values, which a 1000-creature state has).
//!
//! Errors are thrown as `Error` objects whose `code` is the engine's stable
//! code and whose message names the field. A panic never crosses into
//! Node: each export runs under `catch_unwind` and a panic becomes
//! `engine_panicked`. A `Session` whose changing method (`apply`,
//! `applyAll`, `settle`) panicked may hold a half-applied event, so it is
//! dropped: its later calls throw `session_lost`; a query that panics
//! changes nothing. After `free()`, calls throw `session_freed`.

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
use napi::bindgen_prelude::External;
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

/// What a [`Handle`] holds, and how its messages name it.
pub trait Kind {
    /// What the messages call one: `"session"`, `"SceneSight"`.
    const NOUN: &'static str;
    /// What to do once it is gone (freed or lost).
    const RECOVER: &'static str;
}

impl Kind for JsonSession {
    const NOUN: &'static str = "session";
    const RECOVER: &'static str = "reload it from your last snapshot with Session.load(snapshot)";
}

#[cfg(feature = "scene")]
impl Kind for JsonSceneSight {
    const NOUN: &'static str = "SceneSight";
    const RECOVER: &'static str = "parse the scene again with SceneSight.parse(scene)";
}

/// An engine object held by JavaScript (the `External` handles of the
/// `Session` and `SceneSight` namespaces each hold one): calls run under
/// `catch_unwind`; `free()` drops the object; a panic inside a changing
/// call drops it too (it may be half changed), and later calls throw
/// `session_lost`, or `session_freed` after `free()`.
pub struct Handle<T> {
    /// `None` once freed or lost.
    inner: Option<T>,
    /// Why `inner` is `None`: `session_freed` or `session_lost`.
    gone: Code,
}

impl<T: Kind> Handle<T> {
    fn new(inner: T) -> Handle<T> {
        Handle {
            inner: Some(inner),
            gone: Code("session_lost"),
        }
    }

    fn gone_error(&self, method: &str) -> napi::Error<Code> {
        let (noun, recover) = (T::NOUN, T::RECOVER);
        let message = if self.gone.0 == "session_freed" {
            format!("{method}: this {noun} was freed (free() or a using block); {recover}")
        } else {
            format!("{method}: this {noun} was lost when the engine panicked in one of its calls; {recover}")
        };
        napi::Error::new(Code(self.gone.0), message)
    }

    /// A call that does not change the object: a panic leaves it usable.
    fn read<R>(
        &self,
        method: &str,
        call: impl FnOnce(&T) -> Result<R, Error>,
    ) -> napi::Result<R, Code> {
        let inner = self.inner.as_ref().ok_or_else(|| self.gone_error(method))?;
        run(|| call(inner))
    }

    /// A call that changes the object: a panic drops it, and it answers
    /// `session_lost` from then on.
    fn write<R>(
        &mut self,
        method: &str,
        call: impl FnOnce(&mut T) -> Result<R, Error>,
    ) -> napi::Result<R, Code> {
        let Some(inner) = self.inner.as_mut() else {
            return Err(self.gone_error(method));
        };
        match catch_unwind(AssertUnwindSafe(|| call(inner))) {
            Ok(result) => result.map_err(core_error),
            Err(payload) => {
                self.inner = None;
                self.gone = Code("session_lost");
                Err(panicked(payload))
            }
        }
    }

    /// Drops the object now; later calls throw `session_freed` (a lost
    /// one keeps answering `session_lost`). Calling it twice is harmless.
    fn free(&mut self) {
        if self.inner.take().is_some() || self.gone.0 != "session_lost" {
            self.gone = Code("session_freed");
        }
    }
}

/// A `Session` held by JavaScript (`furtive_json::session::JsonSession`),
/// made by `Session.create` or `Session.load` in the addon's `Session`
/// namespace. An `External` with functions, not a napi class: a class
/// method registers each borrow of `this`, which no engine call needs (none
/// reenters JavaScript).
pub type SessionHandle = External<Handle<JsonSession>>;

/// A `furtive_core::scene::SceneSight` held by JavaScript (see
/// `furtive_json::scene_sight::JsonSceneSight`), as [`SessionHandle`]: made
/// by `SceneSight.parse` in the addon's `SceneSight` namespace. Every
/// function fills caches (wall indexes, lighting), so a panic in any of
/// them loses the scene.
#[cfg(feature = "scene")]
pub type SceneSightHandle = External<Handle<JsonSceneSight>>;

/// `free(handle)` and `__panicForTests(handle)` in a handle's namespace.
macro_rules! handle_functions {
    ($module:ident, $namespace:literal, $handle:ty) => {
        pub mod $module {
            use super::*;

            /// `free(handle)`: drops the engine object now; later calls
            /// throw `session_freed`. Calling it twice is harmless.
            #[napi(namespace = $namespace)]
            pub fn free(handle: &mut $handle) {
                handle.free();
            }

            /// Panics inside a changing call on purpose, for the tests of
            /// `session_lost` only (not public API).
            #[doc(hidden)]
            #[napi(namespace = $namespace, js_name = "__panicForTests")]
            pub fn panic_for_tests(handle: &mut $handle) -> napi::Result<String, Code> {
                handle.write("__panicForTests", |_| panic!("deliberate panic for tests"))
            }
        }
    };
}

handle_functions!(session_handle, "Session", SessionHandle);
#[cfg(feature = "scene")]
handle_functions!(scene_sight_handle, "SceneSight", SceneSightHandle);

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

        /// The `Session` namespace: constructors return a [`SessionHandle`],
        /// methods take it first.
        pub mod session_functions {
            use super::*;
            $(
                $(#[cfg(feature = $ctor_feature)])?
                #[doc = $ctor_doc]
                #[napi(namespace = "Session", js_name = $ctor_js)]
                pub fn $ctor($($ctor_arg: String),*) -> napi::Result<SessionHandle, Code> {
                    run(|| JsonSession::$ctor($($ctor_arg.as_str()),*))
                        .map(|inner| External::new(Handle::new(inner)))
                }
            )*
            $(
                $(#[cfg(feature = $mut_feature)])?
                #[doc = $mut_doc]
                #[napi(namespace = "Session", js_name = $mut_js)]
                pub fn $mut(session: &mut SessionHandle, $($mut_arg: String),*) -> napi::Result<String, Code> {
                    session.write($mut_js, |session| session.$mut($($mut_arg.as_str()),*))
                }
            )*
            $(
                $(#[cfg(feature = $ref_feature)])?
                #[doc = $ref_doc]
                #[napi(namespace = "Session", js_name = $ref_js)]
                pub fn $ref(session: &SessionHandle, $($ref_arg: String),*) -> napi::Result<String, Code> {
                    session.read($ref_js, |session| session.$ref($($ref_arg.as_str()),*))
                }
            )*
            $(
                #[doc = $getter_doc]
                #[napi(namespace = "Session", js_name = $getter_js)]
                pub fn $getter(session: &SessionHandle) -> napi::Result<f64, Code> {
                    // Revisions stay within 2^53 - 1: exact as a JavaScript number.
                    session.read($getter_js, |session| Ok(session.$getter() as f64))
                }
            )*
        }

        /// The `SceneSight` namespace, as `Session`'s.
        #[cfg(feature = "scene")]
        pub mod scene_sight_functions {
            use super::*;
            $(
                $(#[cfg(feature = $sctor_feature)])?
                #[doc = $sctor_doc]
                #[napi(namespace = "SceneSight", js_name = $sctor_js)]
                pub fn $sctor($($sctor_arg: String),*) -> napi::Result<SceneSightHandle, Code> {
                    run(|| JsonSceneSight::$sctor($($sctor_arg.as_str()),*))
                        .map(|inner| External::new(Handle::new(inner)))
                }
            )*
            $(
                $(#[cfg(feature = $smethod_feature)])?
                #[doc = $smethod_doc]
                #[napi(namespace = "SceneSight", js_name = $smethod_js)]
                pub fn $smethod(sight: &mut SceneSightHandle, $($smethod_arg: String),*) -> napi::Result<String, Code> {
                    sight.write($smethod_js, |sight| sight.$smethod($($smethod_arg.as_str()),*))
                }
            )*
        }
    };
}

furtive_json::for_each_export!(napi_exports);

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[napi(js_name = "__panicForTests")]
pub fn panic_for_tests() -> napi::Result<String, Code> {
    run(|| panic!("deliberate panic for tests"))
}

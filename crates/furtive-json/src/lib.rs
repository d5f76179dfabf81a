//! # furtive-json
//!
//! Furtive's JSON boundary, shared by the napi addon and the wasm build:
//! both hand every argument over as JSON text (the platform's
//! `JSON.stringify`), call one function here and get JSON text back, so
//! every backend reads, refuses and words everything identically. Rust
//! callers call the same functions with `serde_json::Value`s.
//!
//! - [`read`]: arguments into the engine's types, a refusal naming the
//!   field's path (`events[1].hider`) in the engine's words;
//! - [`write`](mod@write): results as JSON text;
//! - [`functions`]: the free functions (`createState`, `apply`, the
//!   queries, the scene functions...);
//! - [`session`] and `scene_sight`: the `Session` and `SceneSight` objects;
//! - [`exports`]: [`for_each_export!`], the one list of what both bindings
//!   export.
//!
//! Cargo features `scene` and `roller` (on by default) forward to
//! furtive-core's.

pub mod exports;
pub mod functions;
pub mod read;
#[cfg(feature = "scene")]
pub mod scene_sight;
pub mod session;
pub mod write;

pub use read::Input;
pub use write::Output;

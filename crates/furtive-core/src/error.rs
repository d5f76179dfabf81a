//! The engine's one error type.
//!
//! Every error carries a stable, machine-readable [`Error::code`] (snake_case,
//! never renamed once published) and a human message that names the field at
//! fault. The bindings turn it into a thrown JavaScript `Error` with `code` set.

use crate::range;

/// Everything the engine can refuse. `apply` returns one of these instead of
/// panicking, and a refused event never changes the state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An id names no token known to the state. An id longer than a token
    /// id can be (256 bytes) is shown by its first 32 bytes, not quoted
    /// whole: a caller's 1 MiB string is not echoed.
    #[error("{field}: unknown token {}", QuotedId(id))]
    UnknownToken { field: String, id: String },

    /// A token id is registered twice in one configuration.
    #[error("{field}: token `{id}` is listed twice")]
    DuplicateToken { field: String, id: String },

    /// A number lies outside the range the rules accept.
    #[error("{field}: {value} is out of range {min}..={max}")]
    OutOfRange {
        field: String,
        value: String,
        min: i64,
        max: i64,
    },

    /// The input does not have the expected shape (wrong type, missing
    /// field, unknown variant, NaN...). `field` is the path to the bad value.
    #[error("{field}: {message}")]
    InvalidInput { field: String, message: String },

    /// The state was written by another version of the engine.
    #[error(
        "version: state version {found} is not supported (this engine reads versions 1 to {supported})"
    )]
    UnsupportedVersion { found: u32, supported: u32 },

    /// The event or query belongs to the other ruleset.
    #[error("type: `{what}` is not part of the `{ruleset}` ruleset")]
    WrongRuleset { what: String, ruleset: String },

    /// The token named in `hider` is not attempting stealth.
    #[error("hider: token `{id}` is not hiding")]
    NotHiding { id: String },

    /// P9 / O7: a second stealth roll in the same combat turn of the hider.
    #[error("hider: `{id}` already made its stealth roll this turn; one roll per turn ({clause})")]
    StealthRollAlreadyMade { id: String, clause: crate::Clause },

    /// P9 / O7: in combat, a stealth roll is only made during the hider's own turn.
    #[error("hider: it is not the turn of `{id}`; in combat a stealth roll is made on the hider's own turn ({clause})")]
    NotHiderTurn { id: String, clause: crate::Clause },

    /// O12: a sprinting character cannot enter stealth.
    #[error("sprinting: `{id}` is sprinting and cannot enter stealth (O12)")]
    Sprinting { id: String },

    /// O1: entering stealth is declared as part of a movement.
    #[error("moved: `{id}` must enter stealth as part of a movement; zero-length movement is disabled in the settings (O1)")]
    MovementRequired { id: String },

    /// O3: only an observer that perceives the hider may point it out.
    #[error("observer: `{observer}` does not perceive `{hider}` and cannot point it out (O3)")]
    ObserverDoesNotPerceive { observer: String, hider: String },

    /// O3: point out names only allies of the observer.
    #[error("allies: `{ally}` is not an ally of `{observer}` (O3)")]
    NotAllied { observer: String, ally: String },

    /// P7: the hit zone is chosen only for the first attack of a surprise.
    /// `target`: on an attack with several targets, the one that is no new
    /// surprise, as its place in `targets` and its id (the message names
    /// it: `…(P7): targets[1] `captain` is no new surprise`); `None` with
    /// one target, which the message needs not name.
    #[error(
        "hitZone: `{attacker}` may choose the hit zone only on the first attack of a surprise (P7){}",
        TargetAtFault(target)
    )]
    HitZoneNotAllowed {
        attacker: String,
        target: Option<(usize, String)>,
    },

    /// A token cannot be its own observer or target.
    #[error("{field}: `{id}` cannot act on itself")]
    SelfReference { field: String, id: String },

    /// Malformed scene data: a Foundry Scene export or a normalized scene
    /// that [`crate::Scene::from_value`] cannot read. `field` is the path
    /// inside the scene (`walls[12].c`).
    #[error("{field}: {message}")]
    InvalidScene { field: String, message: String },

    /// The refusal of one event of a list applied as one transaction
    /// (`applyAll`): `error` is that event's own refusal, `index` its
    /// place in the list (from 0). The message names the field inside the
    /// list, `events[1].hider: unknown token `x``; the code is `error`'s.
    /// Added by the JSON boundary
    /// (`furtive_json::session::JsonSession::apply_all`), never by the rules.
    #[error("events[{index}].{error}")]
    InEvent { index: usize, error: Box<Error> },
}

impl Error {
    /// The stable code of this error kind, e.g. `"unknown_token"`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnknownToken { .. } => "unknown_token",
            Error::DuplicateToken { .. } => "duplicate_token",
            Error::OutOfRange { .. } => "out_of_range",
            Error::InvalidInput { .. } => "invalid_input",
            Error::UnsupportedVersion { .. } => "unsupported_version",
            Error::WrongRuleset { .. } => "wrong_ruleset",
            Error::NotHiding { .. } => "not_hiding",
            Error::StealthRollAlreadyMade { .. } => "stealth_roll_already_made",
            Error::NotHiderTurn { .. } => "not_hider_turn",
            Error::Sprinting { .. } => "sprinting",
            Error::MovementRequired { .. } => "movement_required",
            Error::ObserverDoesNotPerceive { .. } => "observer_does_not_perceive",
            Error::NotAllied { .. } => "not_allied",
            Error::HitZoneNotAllowed { .. } => "hit_zone_not_allowed",
            Error::SelfReference { .. } => "self_reference",
            Error::InvalidScene { .. } => "invalid_scene",
            Error::InEvent { error, .. } => error.code(),
        }
    }

    /// Every code the engine can return, for documentation and tests.
    pub const CODES: &'static [&'static str] = &[
        "unknown_token",
        "duplicate_token",
        "out_of_range",
        "invalid_input",
        "unsupported_version",
        "wrong_ruleset",
        "not_hiding",
        "stealth_roll_already_made",
        "not_hider_turn",
        "sprinting",
        "movement_required",
        "observer_does_not_perceive",
        "not_allied",
        "hit_zone_not_allowed",
        "self_reference",
        "invalid_scene",
    ];

    pub(crate) fn out_of_range(
        field: impl Into<String>,
        value: impl ToString,
        min: i64,
        max: i64,
    ) -> Self {
        Error::OutOfRange {
            field: field.into(),
            value: value.to_string(),
            min,
            max,
        }
    }

    pub(crate) fn unknown(field: impl Into<String>, id: &str) -> Self {
        Error::UnknownToken {
            field: field.into(),
            id: id.to_owned(),
        }
    }
}

/// Longest token id, in bytes (`validate::check_id`).
pub(crate) const MAX_ID_BYTES: usize = 256;
/// What a token id is, in the messages that refuse one.
pub(crate) const ID_RULE: &str = "a token id is 1 to 256 bytes";

/// An id as an error message quotes it: whole (`` `ghost` ``) when it could
/// be a token id, else its first 32 bytes (cut on a character) and what a
/// token id is.
struct QuotedId<'a>(&'a str);

impl std::fmt::Display for QuotedId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let id = self.0;
        if id.len() <= MAX_ID_BYTES {
            return write!(f, "`{id}`");
        }
        write!(f, "`{}` ({ID_RULE})", ShortId(id))
    }
}

/// The target of a multi-target attack a refusal names
/// ([`Error::HitZoneNotAllowed`]): `: targets[1] `captain` is no new
/// surprise`, or nothing.
struct TargetAtFault<'a>(&'a Option<(usize, String)>);

impl std::fmt::Display for TargetAtFault<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some((index, id)) => {
                write!(f, ": targets[{index}] {} is no new surprise", QuotedId(id))
            }
            None => Ok(()),
        }
    }
}

/// An id (or a state's map key) as a field path or a message names it:
/// whole when it could be a token id (at most 256 bytes), else its first 32
/// bytes (cut on a character) and `…`, so a caller's 1 MiB key is not
/// echoed (`hiders.kkkk…`).
pub(crate) struct ShortId<'a>(pub &'a str);

impl std::fmt::Display for ShortId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let id = self.0;
        if id.len() <= MAX_ID_BYTES {
            return f.write_str(id);
        }
        let mut end = 32;
        while !id.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}…", &id[..end])
    }
}

/// A serializable view of an error, as the bindings and the test vectors
/// expose it: `{ "code": "...", "message": "..." }`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorInfo {
    pub code: String,
    pub message: String,
}

impl From<&Error> for ErrorInfo {
    fn from(error: &Error) -> Self {
        ErrorInfo {
            code: error.code().to_owned(),
            message: error.to_string(),
        }
    }
}

impl Error {
    /// A value the serde reader refused inside the argument `what`, at the
    /// path `serde_path_to_error` gives (`""` or `"."` for the argument
    /// itself): `invalid_input` naming `what.path`, in the engine's words
    /// ([`refusal_in_words`]). A refused value or key longer than 256
    /// characters is cut in the message.
    pub fn refused(what: &str, path: &str, message: &str) -> Error {
        let field = match path {
            "" | "." => what.to_owned(),
            path if path.starts_with('[') => format!("{what}{path}"),
            path => format!("{what}.{path}"),
        };
        if let Some((value, min, max)) = out_of_range(&field, message) {
            return Error::OutOfRange {
                field: cut_long_runs(&field),
                value,
                min,
                max,
            };
        }
        Error::InvalidInput {
            field: cut_long_runs(&field),
            message: cut_long_runs(&refusal_in_words(message)),
        }
    }

    /// [`Error::refused`] of a `serde_path_to_error` error.
    // `#[inline]`: compiled with the argument readers that call it (see
    // `crate::migrate::read_state`).
    #[inline]
    pub fn refused_at(what: &str, error: serde_path_to_error::Error<serde_json::Error>) -> Error {
        Error::refused(
            what,
            &error.path().to_string(),
            &error.into_inner().to_string(),
        )
    }
}

/// serde's words for a refused value, in the engine's: `invalid type:
/// floating point `37.5`, expected i64` becomes `37.5 is not a whole
/// number`; no Rust type is named. The place serde_json's text reader
/// appends (` at line 1 column 48`) is dropped: the field names the place.
pub fn refusal_in_words(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => &message[..at],
        _ => message,
    };
    let wrong = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "));
    if let Some((found, expected)) = wrong.and_then(|rest| rest.split_once(", expected ")) {
        return format!(
            "{} is not {}",
            found_in_words(found),
            expected_in_words(expected)
        );
    }
    message.to_owned()
}

/// A whole number out of its field's range, as serde refuses it: beyond
/// the field's type (`invalid value: integer `-10`, expected u32`), or too
/// large for any integer (`invalid type: floating point `1e21`, expected
/// i64`). The number and the rule's range of `field` ([`range::of`]), else
/// its type's.
fn out_of_range(field: &str, message: &str) -> Option<(String, i64, i64)> {
    let message = message.split(" at line ").next()?;
    let (float, rest) = match message.strip_prefix("invalid value: integer `") {
        Some(rest) => (false, rest),
        None => (
            true,
            message.strip_prefix("invalid type: floating point `")?,
        ),
    };
    let (value, expected) = rest.split_once("`, expected ")?;
    let name = &field[field.rfind('.').map_or(0, |dot| dot + 1)..];
    // A field the rules do not bound (a round, a count of attacks) is a
    // `u32`: its type's range.
    let (min, max) = range::of(name).or((expected == "u32").then_some((0, u32::MAX.into())))?;
    // serde writes a float as `37.5`, `100.0`, or from 1e16 on `1e+16`:
    // a fraction is not a whole number, nor, in serde's words, a whole
    // float below 1e16 (JavaScript writes none); from 1e16 on it is beyond
    // every range.
    if float && !value.contains("e+") {
        return None;
    }
    Some((value.to_owned(), min, max))
}

/// What serde found, as JSON writes it: `integer `3`` is `3`.
fn found_in_words(found: &str) -> String {
    let quoted = |prefix: &str| {
        found
            .strip_prefix(prefix)
            .map(|rest| rest.trim_matches('`').to_owned())
    };
    quoted("integer ")
        .or_else(|| quoted("floating point "))
        .or_else(|| quoted("boolean "))
        .or_else(|| {
            found
                .strip_prefix("string ")
                .map(|s| format!("the string {s}"))
        })
        .unwrap_or_else(|| {
            match found {
                "unit value" | "null" => "null",
                "sequence" => "a list",
                "map" => "an object",
                other => other,
            }
            .to_owned()
        })
}

/// What serde expected, without Rust types: `i64` is `a whole number`.
fn expected_in_words(expected: &str) -> String {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more",
        "f32" | "f64" => "a number",
        "a string" | "a borrowed string" | "a character" => "a string",
        "a boolean" => "true or false",
        "a sequence" => "a list",
        "a map" => "an object",
        other if other.starts_with("struct ") => "an object",
        other if other.starts_with("tuple struct ") => "a list",
        other => other,
    }
    .to_owned()
}

/// `text` with each run between quotes, backticks, dots or brackets cut
/// after 256 characters with `…`: a refused value or key the caller sent
/// is not echoed whole.
fn cut_long_runs(text: &str) -> String {
    const LONGEST: usize = 256;
    if text.len() <= LONGEST {
        return text.to_owned();
    }
    let mut cut = String::new();
    let mut run = 0;
    for c in text.chars() {
        run = if matches!(c, '"' | '`' | '.' | '[' | ']') {
            0
        } else {
            run + 1
        };
        if run <= LONGEST {
            cut.push(c);
        } else if run == LONGEST + 1 {
            cut.push('…');
        }
    }
    cut
}

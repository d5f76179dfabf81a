//! What [`crate::apply`] returns: the new state, the visible changes, the
//! rolls the caller must make, and the explanations (B3).

use serde::{Deserialize, Serialize};

use crate::clause::Clause;
use crate::message::Message;
use crate::tagged::tagged_enum;

use crate::state::{Modifiers, State, TokenId};

/// A status effect the engine toggles on a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// The token hides from at least one observer (Foundry status `furtive.hidden`).
    Hidden,
    /// The token is defenseless against a surprise attacker (P6; `furtive.defenseless`).
    Defenseless,
}

/// When a status ends on its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expiry {
    /// At the end of this combatant's current turn (P6).
    pub turn_end_of: TokenId,
}

/// Something visible changed. Computed by comparing the state before and
/// after the event, so every change is reported exactly once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Change {
    /// Whether `observer` perceives `hider` changed.
    Visibility {
        hider: TokenId,
        observer: TokenId,
        perceived: bool,
    },
    /// A status effect turned on or off on `token`.
    Status {
        token: TokenId,
        status: Status,
        active: bool,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        expires: Option<Expiry>,
    },
}

tagged_enum! {
tag = "kind", by_name = RequestByName;
/// A roll the caller must make and feed back as an event.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Each of `observers` (at least one) makes a Perception check against
    /// `hider` (O4, O9, O13); answer each with a `perceptionRolled` event.
    /// An observer asked by two events of one call is named twice; the
    /// answer after its first is ignored, as any answer to a check that is
    /// no longer pending.
    PerceptionCheck {
        hider: TokenId,
        observers: Vec<TokenId>,
        clause: Clause,
    },
    /// `hider` must make a new stealth roll (P4); answer with an
    /// `enterStealth` event carrying `modifiers`.
    StealthRoll {
        hider: TokenId,
        modifiers: Modifiers,
        clause: Clause,
    },
}
}

impl Request {
    /// Appends `more` to `requests` as one call's effects give them:
    /// Perception checks against one hider for one clause that follow each
    /// other are one request, its observers in order.
    pub fn append(requests: &mut Vec<Request>, more: impl IntoIterator<Item = Request>) {
        for request in more {
            if let Request::PerceptionCheck {
                hider,
                observers,
                clause,
            } = &request
            {
                if let Some(joined) = Request::checks_against(requests, hider, *clause) {
                    joined.extend(observers.iter().cloned());
                    continue;
                }
            }
            requests.push(request);
        }
    }

    /// The observers of the last of `requests` when it is a Perception
    /// check against `hider` for `clause`.
    pub(crate) fn checks_against<'a>(
        requests: &'a mut [Request],
        hider: &str,
        clause: Clause,
    ) -> Option<&'a mut Vec<TokenId>> {
        match requests.last_mut()? {
            Request::PerceptionCheck {
                hider: last,
                observers,
                clause: last_clause,
            } if last == hider && *last_clause == clause => Some(observers),
            _ => None,
        }
    }
}

/// Who may read a log entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Audience {
    /// The GM only: it carries hidden numbers.
    Gm,
    /// Everyone: no hidden numbers unless the P2 setting shows them.
    Public,
}

/// One explanation (B3) with its clause id. The engine writes its
/// [`Message`]; the npm package gives it as the `en` and `fr` texts it
/// renders from the catalog when `log` is read ([`crate::message`]), and
/// [`LogEntry::en`] and [`LogEntry::fr`] render it in Rust.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    /// The clause id, e.g. `"P3"`.
    pub clause: Clause,
    pub audience: Audience,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hider: Option<TokenId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observer: Option<TokenId>,
    /// What it says, in any language of the catalog.
    pub message: Message,
}

/// The result of applying one event.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub state: State,
    pub changes: Vec<Change>,
    pub requests: Vec<Request>,
    pub log: Vec<LogEntry>,
}

/// The result of a query: a yes/no with its explanation (B3), which the
/// npm package gives as `en` and `fr` (see [`LogEntry`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub allowed: bool,
    /// The clause that decided.
    pub clause: Clause,
    /// Why, in any language of the catalog.
    pub message: Message,
}

crate::message::texts_of_message!(LogEntry, Decision);

/// A [`Decision`] with its clause and explanation.
pub(crate) fn decision(allowed: bool, clause: Clause, message: Message) -> Decision {
    Decision {
        allowed,
        clause,
        message,
    }
}

/// The JSON Schemas of the answers that carry a [`Message`]: what the npm
/// package gives, with the message rendered as `en` and `fr` (B3).
#[cfg(feature = "schema")]
pub(crate) mod rendered {
    use serde::{Deserialize, Serialize};

    use crate::clause::Clause;
    use crate::outcome::Audience;
    use crate::state::TokenId;

    /// One explanation (B3), in English and French, with its clause id.
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "LogEntry")]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub struct LogEntry {
        /// The clause id, e.g. `"P3"`.
        pub clause: Clause,
        pub audience: Audience,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub hider: Option<TokenId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub observer: Option<TokenId>,
        pub en: String,
        pub fr: String,
    }

    /// The result of a query: a yes/no with its explanation.
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "Decision")]
    #[serde(rename_all = "camelCase")]
    pub struct Decision {
        pub allowed: bool,
        /// The clause that decided.
        pub clause: Clause,
        pub en: String,
        pub fr: String,
    }
}

/// A type whose JSON Schema is its rendered twin's, under the same name.
#[cfg(feature = "schema")]
macro_rules! schema_as_rendered {
    ($($type:ty => $twin:ty),* $(,)?) => {
        $(
            impl schemars::JsonSchema for $type {
                fn schema_name() -> std::borrow::Cow<'static, str> {
                    <$twin as schemars::JsonSchema>::schema_name()
                }

                fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    <$twin as schemars::JsonSchema>::json_schema(generator)
                }
            }
        )*
    };
}
#[cfg(feature = "schema")]
pub(crate) use schema_as_rendered;

#[cfg(feature = "schema")]
schema_as_rendered! {
    LogEntry => rendered::LogEntry,
    Decision => rendered::Decision,
}

//! Clause ids of `shared/rules-interpretation.md` as a type.
//!
//! Explanations, requests, penalties and errors cite the clause that
//! decided; in JSON a clause is its id (`"P3"`, `"O13"`, `"GM"`), exactly as
//! before this type existed.

use serde::{Deserialize, Serialize};

macro_rules! clauses {
    ($($(#[$meta:meta])* $name:ident),* $(,)?) => {
        /// A clause id (`P1`-`P11`, `O1`-`O13`, `B1`-`B5`), or `GM` for a
        /// GM decision.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum Clause {
            $($(#[$meta])* $name,)*
        }

        impl Clause {
            /// Every clause, in the order of the rules interpretation.
            pub const ALL: &'static [Clause] = &[$(Clause::$name,)*];

            /// The id as written in the rules interpretation: `"P3"`.
            pub fn id(self) -> &'static str {
                match self {
                    $(Clause::$name => stringify!($name),)*
                }
            }
        }
    };
}

clauses! {
    /// Stealth score = Furtivité + tier value (percentile).
    P1,
    /// Situation and free modifiers.
    P2,
    /// Score against the acuity sum.
    P3,
    /// One score until the situation changes.
    P4,
    /// No locating without perceiving.
    P5,
    /// Surprise: defenseless until the attacker's turn ends.
    P6,
    /// Hit zone of the first surprise attack.
    P7,
    /// Knockout.
    P8,
    /// After surprise: revealed; -100 while perceived; one roll a turn.
    P9,
    /// Pickpocketing.
    P10,
    /// No criticals.
    P11,
    /// Entering stealth: the held Stealth total (opposed).
    O1,
    /// Watched at entry.
    O2,
    /// Pointing out.
    O3,
    /// Perception check on clear view, stored.
    O4,
    /// Exposure at the end of the hider's turn.
    O5,
    /// Penalties lower the held total.
    O6,
    /// Fresh roll on the hider's turn.
    O7,
    /// Noisy attacks.
    O8,
    /// Attacking from hiding: the target checks.
    O9,
    /// Attacking a hider.
    O10,
    /// Damage: a penalty against the attacker's allies.
    O11,
    /// No stealth while sprinting.
    O12,
    /// Enhanced senses.
    O13,
    /// Fail closed.
    B1,
    /// Per observer.
    B2,
    /// Explanations.
    B3,
    /// The seeded roller.
    B4,
    /// Clear view.
    B5,
    /// A GM decision (override), not a rule.
    GM,
}

impl std::fmt::Display for Clause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A clause equals its id: `Clause::P3 == "P3"`.
impl PartialEq<str> for Clause {
    fn eq(&self, id: &str) -> bool {
        self.id() == id
    }
}

impl PartialEq<&str> for Clause {
    fn eq(&self, id: &&str) -> bool {
        self.id() == *id
    }
}

impl From<Clause> for String {
    fn from(clause: Clause) -> String {
        clause.id().to_owned()
    }
}

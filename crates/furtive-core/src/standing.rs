//! Where a hider stands, and where each pair stands, for the GM: two
//! queries that read the state and change nothing, so no caller needs to
//! read a snapshot's internals.
//!
//! - [`standing`]: a hider's roll in force and its parts (P1, P2, P4; O1,
//!   O6, O13).
//! - [`pairs`]: per pair, its state (perceived, presence only or located
//!   (O13), unperceived, exposed (O5)), whether the observer is defenseless
//!   against the hider (P6), and the decision that put the pair there: its
//!   clause and its message, the numbers as they stand now (B3).
//!
//! Both answer for tokens the engine does not know as B1 says, as every
//! query does ([`crate::query`]): an unknown token has no standing and no
//! pairs as a hider; as an observer it perceives no hider.

use serde::{Deserialize, Serialize};

use crate::clause::Clause;
use crate::context::label;
use crate::error::Error;
use crate::explain;
use crate::message::Message;
use crate::opposed;
use crate::percentile::tier_value;
use crate::state::{
    Attempt, Hider, HiderPhase, Modifiers, Pair, PairReason, Penalty, State, TokenId,
};
use crate::validate;

/// `{ hider }`: whose standing ([`standing`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StandingQuery {
    pub hider: TokenId,
}

/// A hider's standing: its phase and its roll in force, with the parts
/// of the score or total. GM only: it carries the hidden numbers (P2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    pub hider: TokenId,
    /// `hiding` (in a stealth attempt), `revealed` (P9: perceived by
    /// everyone, the record kept for the next roll's -100), or `null`: no
    /// attempt (a token the engine does not know included, B1).
    pub phase: Option<HiderPhase>,
    /// The hider moved during its current turn (O5).
    pub moved_this_turn: bool,
    /// `percentile`: the stealth score in force and its parts; `null`
    /// without an attempt or in `opposed`.
    pub percentile: Option<PercentileStanding>,
    /// `opposed`: the held total and its penalties; `null` without an
    /// attempt or in `percentile`.
    pub opposed: Option<OpposedStanding>,
}

/// The stealth score in force (P1, P2, P4, P9).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PercentileStanding {
    /// The stealth score in force (P1): stealthSkill + tier + modifierTotal
    /// as they were at the roll.
    pub score: i64,
    /// The d100 of the roll in force.
    pub d100: u32,
    /// The hider's effective Furtivité now (P1). After an `upsertCreature`
    /// that changed it, the score keeps the roll's until the next roll.
    pub stealth_skill: u32,
    /// The tier term of `stealthSkill` and `d100` (P1).
    pub tier: i64,
    /// The sum of the active modifiers (P2).
    pub modifier_total: i64,
    /// The active modifiers (P2), `already_perceived` included when P9
    /// added it.
    pub modifiers: Modifiers,
    /// P9 added `already_perceived` on its own to this roll.
    pub already_perceived_added: bool,
    /// P4: the modifiers of the new roll requested after a change; `null`
    /// when none is pending. The score in force stays until it arrives.
    pub pending_modifiers: Option<Modifiers>,
}

/// The held Stealth total (O1, O6, O7, O13).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OpposedStanding {
    /// The held Stealth total (O1).
    pub held_total: i64,
    /// The penalties since the held roll (O6, O8, O11), in order.
    pub penalties: Vec<Penalty>,
    /// The sum of the penalties that apply to every observer (O8); a
    /// scoped one (O11) lowers the total only for the attacker's allies
    /// (each pair's `effectiveTotal`, [`pairs`]).
    pub global_penalty: i64,
    /// The enhanced senses countered by precautions (O13).
    pub precautions: Vec<String>,
}

/// `{ hider?, observer? }`: which pairs ([`pairs`]); each field narrows
/// the answer to one token.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PairsQuery {
    #[serde(default)]
    pub hider: Option<TokenId>,
    #[serde(default)]
    pub observer: Option<TokenId>,
}

/// How an observer stands towards a hider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PairState {
    /// The observer perceives the hider and knows its space.
    Perceived,
    /// O13: the observer senses the hider's presence, not its space (O10
    /// still applies to its attacks).
    PresenceOnly,
    /// The observer does not perceive the hider.
    Unperceived,
    /// O5: unperceived, but in clear view after a failed check: perceived
    /// at the end of the hider's turn unless it moves out of view.
    Exposed,
}

/// One pair as the GM sees it, with the decision behind it (B3).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairStanding {
    pub hider: TokenId,
    pub observer: TokenId,
    pub state: PairState,
    /// The observer perceives the hider ([`crate::query::perceives`]).
    pub perceived: bool,
    /// The observer knows the hider's exact space (O13): it perceives it,
    /// and not only through a non-targeting sense.
    pub located: bool,
    /// O5: exposed ([`PairState::Exposed`]).
    pub exposed: bool,
    /// P6: the observer is defenseless against the hider until the end of
    /// the hider's turn.
    pub defenseless: bool,
    /// The clear view the engine holds for the pair (O2, O4, B5).
    pub clear_view: bool,
    /// The distance the engine holds for the pair, in scene units (O13).
    pub distance: Option<f64>,
    /// `opposed`: the held total as this observer faces it (O6); `null` in
    /// `percentile`.
    pub effective_total: Option<i64>,
    /// `opposed`: the observer's stored Perception check (O4).
    pub perception_total: Option<i64>,
    /// The clause of the decision that put the pair in its state.
    pub clause: Clause,
    /// That decision, with the numbers as they stand now (B3).
    pub message: Message,
}

crate::message::texts_of_message!(PairStanding);

/// A hider's standing (GM only). Errors: `invalid_input` for an id that is
/// no id, `unsupported_version`.
pub fn standing(state: &State, query: &StandingQuery) -> Result<Standing, Error> {
    validate::validate_state(state)?;
    standing_in(state, query)
}

/// [`standing`] on a state already validated.
pub(crate) fn standing_in(state: &State, query: &StandingQuery) -> Result<Standing, Error> {
    check_standing_query(query)?;
    let record = state.hiders.get(query.hider.as_str());
    let mut answer = Standing {
        hider: query.hider.clone(),
        phase: record.map(|r| r.phase),
        moved_this_turn: record.is_some_and(|r| r.moved_this_turn),
        percentile: None,
        opposed: None,
    };
    match record.map(|r| &r.attempt) {
        Some(Attempt::Percentile(a)) => {
            let stealth_skill = state
                .creatures
                .get(query.hider.as_str())
                .map_or(0, |c| c.stealth_skill);
            answer.percentile = Some(PercentileStanding {
                score: a.score,
                d100: a.d100,
                stealth_skill,
                tier: tier_value(stealth_skill, a.d100),
                modifier_total: a.modifiers.total(),
                modifiers: a.modifiers.clone(),
                already_perceived_added: a.already_perceived_added,
                pending_modifiers: a.pending_modifiers.clone(),
            });
        }
        Some(Attempt::Opposed(a)) => {
            answer.opposed = Some(OpposedStanding {
                held_total: a.held_total,
                penalties: a.penalties.clone(),
                global_penalty: a
                    .penalties
                    .iter()
                    .filter(|p| matches!(p.scope, crate::state::PenaltyScope::All {}))
                    .map(|p| p.amount)
                    .sum(),
                precautions: a.precautions.clone(),
            });
        }
        None => {}
    }
    Ok(answer)
}

/// Every pair the query names, hider by hider then observer by observer,
/// in id order (GM only). The hiders are the tokens with a stealth record
/// (`hiding`, or `revealed` by P9); the observers, every creature the
/// engine knows but the hider, or the one `observer` named (one the engine
/// does not know perceives no hider, B1). A `hider` with no record has no
/// pairs. Errors: `invalid_input` for an id that is no id,
/// `unsupported_version`.
pub fn pairs(state: &State, query: &PairsQuery) -> Result<Vec<PairStanding>, Error> {
    validate::validate_state(state)?;
    pairs_in(state, query)
}

/// [`pairs`] on a state already validated.
pub(crate) fn pairs_in(state: &State, query: &PairsQuery) -> Result<Vec<PairStanding>, Error> {
    check_pairs_query(query)?;
    let mut answer = Vec::new();
    for (hider, record) in &state.hiders {
        if query.hider.as_ref().is_some_and(|h| h != hider) {
            continue;
        }
        match &query.observer {
            Some(observer) if observer != hider => {
                answer.push(pair_standing(state, hider, record, observer));
            }
            Some(_) => {}
            None => {
                for observer in state.creatures.keys().filter(|o| *o != hider) {
                    answer.push(pair_standing(state, hider, record, observer));
                }
            }
        }
    }
    Ok(answer)
}

/// One pair's standing.
fn pair_standing(
    state: &State,
    hider: &TokenId,
    record: &Hider,
    observer: &TokenId,
) -> PairStanding {
    let pair = record.pairs.get(observer.as_str());
    let perceived = state.perceives(observer, hider);
    let opposed = record.attempt.opposed().is_some();
    let located = if opposed {
        opposed::locates(state, hider, observer)
    } else {
        perceived
    };
    let exposed = !perceived
        && opposed
        && pair
            .is_some_and(|p| p.exposed || opposed::failed_in_view_of(state, record, observer, p));
    let state_ = match (perceived, located, exposed) {
        (true, true, _) => PairState::Perceived,
        (true, false, _) => PairState::PresenceOnly,
        (false, _, true) => PairState::Exposed,
        (false, _, false) => PairState::Unperceived,
    };
    let effective_total = opposed.then(|| opposed::effective_total(state, record, observer));
    let (clause, message) = last_decision(state, hider, record, observer, pair, perceived);
    PairStanding {
        hider: hider.clone(),
        observer: observer.clone(),
        state: state_,
        perceived,
        located,
        exposed,
        defenseless: state.surprise(hider, observer).is_some(),
        clear_view: pair.is_some_and(|p| p.clear_view),
        distance: pair.and_then(|p| p.distance),
        effective_total,
        perception_total: pair.and_then(|p| p.perception_total),
        clause,
        message,
    }
}

/// The decision that put a pair in its state, from what the state keeps
/// of it (the pair's reason and stored numbers), worded as the event that
/// made it worded it for the GM.
fn last_decision(
    state: &State,
    hider: &TokenId,
    record: &Hider,
    observer: &TokenId,
    pair: Option<&Pair>,
    perceived: bool,
) -> (Clause, Message) {
    let h = label(state, hider);
    let o = label(state, observer);
    if record.phase == HiderPhase::Revealed {
        let message = match pair.map(|p| p.reason) {
            Some(PairReason::SurpriseEnded) => explain::p9_revealed_after_surprise(&h).gm,
            _ => explain::p9_revealed_after_attack(&h).gm,
        };
        return (Clause::P9, message);
    }
    if !state.creatures.contains_key(observer.as_str()) {
        return (Clause::B1, explain::b1_unknown_observer(&o));
    }
    let Some(pair) = pair else {
        // No decision yet: the pair reads as before the attempt (B1).
        return (Clause::B1, explain::perceives(&o, &h));
    };
    let effective = || opposed::effective_total(state, record, observer);
    let clause = pair.reason.clause();
    let message = match pair.reason {
        PairReason::AcuityComparison => {
            let score = record.score().unwrap_or_default();
            let acuity_sum = state
                .creatures
                .get(observer.as_str())
                .map_or(0, |c| c.acuities.sum());
            explain::p3_decided(perceived, score, acuity_sum, &o, &h)
        }
        PairReason::WatchedAtEntry => explain::o2_watched_at_entry(&o, &h).gm,
        PairReason::NotInViewAtEntry | PairReason::PerceptionCheck
            if pair.check_pending && !perceived =>
        {
            return (Clause::O4, explain::o4_check_requested(&o, &h, effective()));
        }
        PairReason::NotInViewAtEntry => explain::o2_not_in_view_at_entry(&o, &h),
        PairReason::PerceptionCheck | PairReason::Penalty => match pair.perception_total {
            Some(total) if pair.reason == PairReason::Penalty => {
                explain::o4_stored_check_perceives(total, effective(), &o, &h, Clause::O6).gm
            }
            Some(total) if perceived => explain::o4_check_perceives(total, effective(), &o, &h).gm,
            Some(total) => explain::o4_check_fails(total, effective(), &o, &h),
            None => plain(perceived, &o, &h),
        },
        PairReason::Exposure if pair.clear_view => explain::o5_revealed_in_view(&h, &o),
        PairReason::Exposure => explain::o5_revealed_did_not_move(&h, &o),
        PairReason::PointedOut => explain::o3_pointed_out_to(&o, &h),
        PairReason::EnhancedSense => {
            match opposed::uncountered_sense(state, record, observer, pair.distance) {
                Some(sense) => {
                    explain::o13_sensed(
                        &o,
                        &h,
                        &sense.sense,
                        sense.targeting,
                        sense.range,
                        pair.distance.unwrap_or_default(),
                    )
                    .gm
                }
                None => plain(perceived, &o, &h),
            }
        }
        PairReason::SurpriseEnded => explain::p9_revealed_after_surprise(&h).gm,
        PairReason::Attacked => explain::p9_revealed_after_attack(&h).gm,
        PairReason::GmOverride => explain::gm_override(&o, pair.perceived, &h),
    };
    (clause, message)
}

/// "… perceives …" or "… does not perceive …".
fn plain(perceived: bool, o: &str, h: &str) -> Message {
    if perceived {
        explain::perceives(o, h)
    } else {
        explain::does_not_perceive(o, h)
    }
}

/// The rendered twin of [`PairStanding`], for its JSON Schema (see
/// `crate::outcome::rendered`).
#[cfg(feature = "schema")]
mod rendered {
    use serde::{Deserialize, Serialize};

    use super::PairState;
    use crate::clause::Clause;
    use crate::state::TokenId;

    /// One pair as the GM sees it, with the decision behind it (B3).
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "PairStanding")]
    #[serde(rename_all = "camelCase")]
    pub struct PairStanding {
        pub hider: TokenId,
        pub observer: TokenId,
        pub state: PairState,
        /// The observer perceives the hider.
        pub perceived: bool,
        /// The observer knows the hider's exact space (O13).
        pub located: bool,
        /// O5: exposed.
        pub exposed: bool,
        /// P6: the observer is defenseless against the hider until the end
        /// of the hider's turn.
        pub defenseless: bool,
        /// The clear view the engine holds for the pair.
        pub clear_view: bool,
        /// The distance the engine holds for the pair, in scene units.
        pub distance: Option<f64>,
        /// `opposed`: the held total as this observer faces it (O6).
        pub effective_total: Option<i64>,
        /// `opposed`: the observer's stored Perception check (O4).
        pub perception_total: Option<i64>,
        /// The clause of the decision that put the pair in its state.
        pub clause: Clause,
        pub en: String,
        pub fr: String,
    }
}

#[cfg(feature = "schema")]
crate::outcome::schema_as_rendered! {
    PairStanding => rendered::PairStanding,
}

/// A `standing` query: one id (see `validate::perceives_query`).
fn check_standing_query(query: &StandingQuery) -> Result<(), Error> {
    validate::check_id("hider", &query.hider)
}

/// A `pairs` query: each id it gives (see `validate::perceives_query`).
fn check_pairs_query(query: &PairsQuery) -> Result<(), Error> {
    if let Some(hider) = &query.hider {
        validate::check_id("hider", hider)?;
    }
    if let Some(observer) = &query.observer {
        validate::check_id("observer", observer)?;
    }
    Ok(())
}

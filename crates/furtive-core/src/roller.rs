//! B4: a seeded roller that answers requests, so a whole run replays exactly.
//!
//! Foundry callers roll Foundry dice instead; this is for npm users, the
//! demo and the tests. The generator is ChaCha8 (`rand_chacha`), whose
//! stream for a given seed is the same on every platform, native or wasm.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::Error;
use crate::event::Event;
use crate::outcome::Request;
use crate::state::{HiderPhase, Ruleset, State};

/// Largest number of request rounds [`crate::settle`] answers before it stops.
pub const MAX_SETTLE_ROUNDS: usize = 64;

/// Answers requests with dice from a seeded generator.
pub struct Roller {
    rng: ChaCha8Rng,
}

impl Roller {
    /// A roller whose dice are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Roller {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// One die with `sides` faces (>= 1): 1..=sides.
    pub fn die(&mut self, sides: u32) -> i64 {
        i64::from(self.rng.random_range(1..=sides.max(1)))
    }

    /// The events that answer one request:
    /// - a Perception check is 1d`checkDie` + the observer's `perceptionModifier`
    ///   (`opposed`), giving one `perceptionRolled` per observer, in order;
    /// - a stealth roll is a d100 (`percentile`, P1) or 1d`checkDie` + the
    ///   hider's `stealthModifier` (`opposed`), giving `enterStealth` with
    ///   the request's modifiers and the hider's stored precautions.
    ///
    /// Totals are clamped to -1000..=1000. Errors: `unknown_token`, and
    /// `invalid_input` for a Perception check naming no observer.
    pub fn answer(&mut self, state: &State, request: &Request) -> Result<Vec<Event>, Error> {
        crate::validate::request(state, request)?;
        match request {
            Request::PerceptionCheck {
                hider, observers, ..
            } => Ok(observers
                .iter()
                .map(|observer| {
                    let modifier = state
                        .creatures
                        .get(observer)
                        .map_or(0, |creature| creature.perception_modifier);
                    let total = self.die(state.settings.check_die) + modifier;
                    Event::PerceptionRolled {
                        hider: hider.clone(),
                        observer: observer.clone(),
                        total: total.clamp(-1000, 1000),
                    }
                })
                .collect()),
            Request::StealthRoll {
                hider, modifiers, ..
            } => {
                let creature = state.creature("hider", hider)?;
                let roll = match state.ruleset {
                    Ruleset::Percentile => self.die(100),
                    Ruleset::Opposed => (self.die(state.settings.check_die)
                        + creature.stealth_modifier)
                        .clamp(-1000, 1000),
                };
                let precautions = state
                    .hiders
                    .get(hider)
                    .filter(|h| h.phase == HiderPhase::Hiding)
                    .and_then(|h| h.attempt.opposed())
                    .map(|a| a.precautions.clone())
                    .unwrap_or_default();
                Ok(vec![Event::EnterStealth {
                    hider: hider.clone(),
                    roll,
                    modifiers: Some(modifiers.clone()),
                    moved: true,
                    sprinting: false,
                    precautions,
                    view: Vec::new(),
                }])
            }
        }
    }
}

/// Answers every request in order with one generator seeded by `seed`.
/// Errors: `unknown_token` naming the request (`requests[2].hider`),
/// `invalid_input` for a Perception check naming no observer, and
/// those of [`crate::validate_state`].
pub fn roll_requests(state: &State, requests: &[Request], seed: u64) -> Result<Vec<Event>, Error> {
    crate::validate_state(state)?;
    roll_requests_in(state, requests, seed)
}

/// [`roll_requests`] on a state already validated.
pub(crate) fn roll_requests_in(
    state: &State,
    requests: &[Request],
    seed: u64,
) -> Result<Vec<Event>, Error> {
    let mut roller = Roller::new(seed);
    let mut events = Vec::new();
    for (i, request) in requests.iter().enumerate() {
        events.extend(roller.answer(state, request).map_err(|error| match error {
            Error::UnknownToken { field, id } => Error::UnknownToken {
                field: format!("requests[{i}].{field}"),
                id,
            },
            Error::InvalidInput { field, message } => Error::InvalidInput {
                field: format!("requests[{i}].{field}"),
                message,
            },
            other => other,
        })?);
    }
    Ok(events)
}

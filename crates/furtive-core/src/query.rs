//! Questions about a state that change nothing: who perceives whom, who may
//! locate, defend, knock out, pick a pocket, and how an attack on a hidden
//! creature is rolled.

use crate::clause::Clause;
use crate::error::Error;
use crate::explain;
use crate::outcome::{decision, Decision};
use crate::state::{HiderPhase, Ruleset, State, TokenId, TokenMap};
use crate::validate;

pub use crate::question::{
    AttackMode, DefenseQuery, HiddenAttackQuery, HiddenAttackResult, KnockoutQuery, KnockoutResult,
    PairQuery, PickpocketQuery,
};

/// B1/B2: for every observer, the hiders it does not perceive:
/// `{ observerTokenId: [hiderTokenId, ...] }`, observers and hiders in id
/// order, observers that perceive everyone left out. This is the lookup the
/// Foundry module publishes after each state change; its detection-mode
/// hook answers from it without calling the engine.
pub fn hidden_from(state: &State) -> Result<TokenMap<Vec<TokenId>>, Error> {
    validate::validate_state(state)?;
    Ok(hidden_from_in(state))
}

/// [`hidden_from`] on a state already validated.
pub(crate) fn hidden_from_in(state: &State) -> TokenMap<Vec<TokenId>> {
    let mut lookup = TokenMap::new();
    for observer in state.creatures.keys() {
        let hiders: Vec<TokenId> = state
            .hiders
            .keys()
            .filter(|hider| *hider != observer && !state.perceives(observer, hider))
            .cloned()
            .collect();
        if !hiders.is_empty() {
            lookup.insert(observer.clone(), hiders);
        }
    }
    lookup
}

fn require(state: &State, ruleset: Ruleset, what: &str) -> Result<(), Error> {
    if state.ruleset != ruleset {
        return Err(Error::WrongRuleset {
            what: what.to_owned(),
            ruleset: state.ruleset.name().to_owned(),
        });
    }
    Ok(())
}

/// Does `observer` perceive `hider`? (P3 / O2-O13.) Tokens the engine
/// does not know are answered as B1 says, never refused: an unknown
/// observer perceives no hider, and an unknown token is not hiding. A
/// token that is not hiding is perceived by everyone, citing the
/// ruleset's entry into stealth (P1, O1). Errors: `invalid_input` for an
/// empty or over-long id, `unsupported_version`.
pub fn perceives(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    validate::validate_state(state)?;
    perceives_in(state, query)
}

/// [`perceives`] on a state already validated.
pub(crate) fn perceives_in(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    validate::perceives_query(query)?;
    // Each token and the pair looked up once; labels borrowed.
    let hider = state.creatures.get(&query.hider);
    let h = hider.map_or(query.hider.as_str(), |c| c.label());
    let observer = state.creatures.get(&query.observer);
    let o = observer.map_or(query.observer.as_str(), |c| c.label());
    let record = state.hiders.get(&query.hider);
    let Some(record) = record.filter(|r| r.phase == HiderPhase::Hiding) else {
        // Not in a stealth attempt: everyone perceives it.
        return Ok(match (hider, record) {
            (None, _) => decision(true, Clause::B1, explain::b1_unknown_hider(h, o)),
            // P9: revealed after an attack, perceived by everyone.
            (Some(_), Some(_)) => decision(true, Clause::P9, explain::perceives(o, h)),
            (Some(_), None) => {
                let entry = entry_clause(state.ruleset);
                decision(true, entry, explain::not_hiding(h, o, entry))
            }
        });
    };
    if observer.is_none() {
        // B1: an observer the engine does not know perceives no hider.
        return Ok(decision(false, Clause::B1, explain::b1_unknown_observer(o)));
    }
    Ok(match record.pairs.get(&query.observer) {
        Some(pair) if pair.perceived => {
            decision(true, pair.reason.clause(), explain::perceives(o, h))
        }
        Some(pair) => decision(
            false,
            pair.reason.clause(),
            explain::does_not_perceive(o, h),
        ),
        // No decision yet about this pair: it reads as before the attempt
        // (B1: only the observers it was hidden from stay so).
        None => decision(true, Clause::B1, explain::perceives(o, h)),
    })
}

/// The clause by which a token enters stealth: until then it is perceived.
pub(crate) fn entry_clause(ruleset: Ruleset) -> Clause {
    match ruleset {
        Ruleset::Percentile => Clause::P1,
        Ruleset::Opposed => Clause::O1,
    }
}

/// P5 (`percentile`): an observer that does not perceive the hider may not
/// make acuity rolls to locate it. Errors: `wrong_ruleset` in `opposed`.
pub fn can_locate(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    validate::validate_state(state)?;
    can_locate_in(state, query)
}

/// [`can_locate`] on a state already validated: checks the query, then asks the ruleset.
pub(crate) fn can_locate_in(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    require(state, Ruleset::Percentile, "canLocate")?;
    validate::perceives_query(query)?;
    Ok(crate::percentile::can_locate(state, query))
}

/// P6: may `defender` use a defense for `target` against `attacker`?
/// While the target is defenseless against the attacker, the target may not
/// defend itself and no one else may defend it, except one that itself
/// perceives the attacker. In `opposed` there is no surprise rule: always allowed.
pub fn can_defend(state: &State, query: &DefenseQuery) -> Result<Decision, Error> {
    validate::validate_state(state)?;
    can_defend_in(state, query)
}

/// [`can_defend`] on a state already validated: checks the query, then asks the ruleset.
pub(crate) fn can_defend_in(state: &State, query: &DefenseQuery) -> Result<Decision, Error> {
    validate::defense_query(query)?;
    Ok(crate::percentile::can_defend(state, query))
}

/// P7 + P8 (`percentile`): the knockout attempt after a surprise attack to
/// the head. Allowed iff the target is defenseless against the attacker,
/// the first attack of the surprise chose the head, no later attack of the
/// surprise has been made (the knockout is part of that first attack), and
/// no helmet. Chance:
/// base Furtivité %; damage: floor(raw / 4); duration: 1 + floor(Force / 5)
/// minutes; no criticals (P11).
/// A refused attempt carries no chance, duration, damage or result.
/// Errors: `wrong_ruleset`, `out_of_range` (d100, rawDamage),
/// `self_reference`.
pub fn knockout(state: &State, query: &KnockoutQuery) -> Result<KnockoutResult, Error> {
    validate::validate_state(state)?;
    knockout_in(state, query)
}

/// [`knockout`] on a state already validated: checks the query, then asks the ruleset.
pub(crate) fn knockout_in(state: &State, query: &KnockoutQuery) -> Result<KnockoutResult, Error> {
    require(state, Ruleset::Percentile, "knockout")?;
    validate::knockout_query(query)?;
    Ok(crate::percentile::knockout(state, query))
}

/// P10 (`percentile`): while the target does not perceive the hider, the
/// hider may take one visible object the target is not holding (one minor action).
pub fn can_pickpocket(state: &State, query: &PickpocketQuery) -> Result<Decision, Error> {
    validate::validate_state(state)?;
    can_pickpocket_in(state, query)
}

/// [`can_pickpocket`] on a state already validated: checks the query, then asks the ruleset.
pub(crate) fn can_pickpocket_in(state: &State, query: &PickpocketQuery) -> Result<Decision, Error> {
    require(state, Ruleset::Percentile, "canPickpocket")?;
    validate::pickpocket_query(query)?;
    Ok(crate::percentile::can_pickpocket(state, query))
}

/// O10 (`opposed`): how `attacker` rolls against the hider `target`.
/// Perceived, or an uncountered targeting sense in range (O13), or an area
/// effect: normal. Aimed at the hider's space: disadvantage. Elsewhere: miss.
/// An attacker that perceives the hider only through a non-targeting sense
/// (pair reason `enhancedSense`) knows its presence, not its space: O10
/// applies (clause `O13`).
pub fn attack_hidden(
    state: &State,
    query: &HiddenAttackQuery,
) -> Result<HiddenAttackResult, Error> {
    validate::validate_state(state)?;
    attack_hidden_in(state, query)
}

/// [`attack_hidden`] on a state already validated: checks the query, then asks the ruleset.
pub(crate) fn attack_hidden_in(
    state: &State,
    query: &HiddenAttackQuery,
) -> Result<HiddenAttackResult, Error> {
    require(state, Ruleset::Opposed, "attackHidden")?;
    validate::hidden_attack_query(query)?;
    Ok(crate::opposed::attack_hidden(state, query))
}

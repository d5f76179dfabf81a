//! Sequences of events over time (second rules audit, 2026-12-01): an
//! effect that must survive, expire or be undone by later events. Every
//! step runs through the free function `apply` and through one `Session`,
//! which must agree on the state and on every effect.

mod common;

use common::*;
use furtive_core::{
    apply, Error, Event, HiderPhase, Outcome, PairReason, Session, SituationModifier, State, Status,
};
use serde_json::{json, Value};

/// One story told twice: through `apply` (a state passed along) and through
/// a `Session`. Each step checks that both agree.
struct Story {
    state: State,
    session: Session,
}

impl Story {
    fn new(state: State) -> Story {
        Story {
            session: Session::load(state.clone()).expect("valid state"),
            state,
        }
    }

    /// An event both must accept, with the same effects.
    fn step(&mut self, event: Value) -> Outcome {
        let event: Event = ev(event);
        let kind = event.kind();
        let outcome = apply(&self.state, event.clone())
            .unwrap_or_else(|e| panic!("apply refused {kind}: {e} ({})", e.code()));
        let effects = self
            .session
            .apply(event)
            .unwrap_or_else(|e| panic!("Session refused {kind}: {e} ({})", e.code()));
        assert_eq!(
            self.session.state(),
            &outcome.state,
            "{kind}: states differ"
        );
        assert_eq!(effects.changes, outcome.changes, "{kind}: changes differ");
        assert_eq!(
            effects.requests, outcome.requests,
            "{kind}: requests differ"
        );
        assert_eq!(effects.log, outcome.log, "{kind}: logs differ");
        self.state = outcome.state.clone();
        outcome
    }

    /// Several events in order.
    fn steps(&mut self, events: Vec<Value>) {
        for event in events {
            self.step(event);
        }
    }

    /// An event both must refuse with the same code, changing nothing.
    fn refuse(&mut self, event: Value) -> Error {
        let event: Event = ev(event);
        let kind = event.kind();
        let before = self.state.clone();
        let error = match apply(&self.state, event.clone()) {
            Ok(_) => panic!("apply accepted {kind}"),
            Err(error) => error,
        };
        match self.session.apply(event) {
            Ok(_) => panic!("Session accepted {kind}"),
            Err(other) => assert_eq!(other.code(), error.code(), "{kind}: codes differ"),
        }
        assert_eq!(
            self.session.state(),
            &before,
            "a refused {kind} changed the session"
        );
        error
    }
}

// ---------------------------------------------------------------- opposed

/// A rogue (party) and two guards (guards) in an `opposed` scene.
fn opposed_scene() -> State {
    state(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "side": "party"},
            {"id": "scout", "side": "party"},
            {"id": "guard", "side": "guards"},
            {"id": "archer", "side": "guards"}
        ]
    }))
}

fn view(observer: &str, clear: bool) -> Value {
    json!({"observer": observer, "clearView": clear})
}

#[test]
fn o5_a_gm_override_to_unperceived_in_clear_view_is_no_failed_check_so_no_exposure() {
    // The rogue hides (20) out of view; the guard comes into view and its
    // check (25) perceives it. The GM decides the guard does not see the
    // rogue after all. The rogue's turn ends without a move: O5 reveals
    // only pairs that failed their check, and the guard's did not fail (no
    // check at all would not either): the GM's decision stands.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 25}),
    ]);
    assert!(story.state.perceives("guard", "rogue"));
    story.step(
        json!({"type": "gmOverride", "hider": "rogue", "observer": "guard", "perceived": false}),
    );
    assert!(!story.state.perceives("guard", "rogue"));
    let end = story.step(json!({"type": "turnEnd", "combatant": "rogue"}));
    assert!(
        !story.state.perceives("guard", "rogue"),
        "O5 revealed a pair whose check succeeded: {:?}",
        end.log.iter().map(|e| e.en()).collect::<Vec<_>>()
    );
    assert_eq!(
        pair(&story.state, "rogue", "guard").reason,
        PairReason::GmOverride
    );
}

#[test]
fn o5_a_gm_override_on_a_pair_in_clear_view_that_never_checked_is_not_exposed() {
    // The guard watches the entry (O2: perceived, no check). The GM rules
    // the guard does not see the rogue. No check was ever failed, so the
    // end of the rogue's turn reveals nothing (O5).
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20,
               "view": [view("guard", true)]}),
        json!({"type": "gmOverride", "hider": "rogue", "observer": "guard", "perceived": false}),
    ]);
    assert!(!story.state.perceives("guard", "rogue"));
    story.step(json!({"type": "turnEnd", "combatant": "rogue"}));
    assert!(!story.state.perceives("guard", "rogue"));
}

#[test]
fn o5_two_hiders_whose_turns_interleave_settle_only_their_own_exposures() {
    // The rogue and the scout hide (20 each) out of view. The guard comes
    // into view of both and fails both checks (10): both pairs exposed.
    // The scout's turn: it moves and breaks the view. The rogue's turn:
    // it does not move. Each turn end settles its own hider only.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "enterStealth", "hider": "scout", "roll": 20}),
        json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", true)]}),
        json!({"type": "viewChanged", "hider": "scout", "view": [view("guard", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 10}),
        json!({"type": "perceptionRolled", "hider": "scout", "observer": "guard", "total": 10}),
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "scout"}),
        json!({"type": "viewChanged", "hider": "scout", "moved": true,
               "view": [view("guard", false)]}),
    ]);
    assert!(pair(&story.state, "rogue", "guard").exposed);
    assert!(pair(&story.state, "scout", "guard").exposed);
    // The end of the scout's turn is not the rogue's.
    story.step(json!({"type": "turnEnd", "combatant": "scout"}));
    assert!(
        !story.state.perceives("guard", "scout"),
        "moved and broke the view"
    );
    assert!(!pair(&story.state, "scout", "guard").exposed, "settled");
    assert!(
        !story.state.perceives("guard", "rogue"),
        "not the rogue's turn end"
    );
    assert!(
        pair(&story.state, "rogue", "guard").exposed,
        "still remembered"
    );
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue"}),
        json!({"type": "turnEnd", "combatant": "rogue"}),
    ]);
    assert!(story.state.perceives("guard", "rogue"), "O5: did not move");
    assert_eq!(
        pair(&story.state, "rogue", "guard").reason,
        PairReason::Exposure
    );
    assert!(!story.state.perceives("guard", "scout"));
}

#[test]
fn o11_o6_an_observer_that_joins_the_attackers_side_faces_the_damage_penalty() {
    // The rogue holds 20. The mercenary (neutral) comes into view and fails
    // at 17. The guard hits the rogue once: -5 against the guard's allies
    // (O11), not the neutral mercenary. The mercenary then signs up with
    // the guards (upsertCreature, new side): the penalty now applies to
    // it, its stored 17 reaches 15 and it perceives (O6), with no new roll.
    let mut story = Story::new(state(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "side": "party"},
            {"id": "guard", "side": "guards"},
            {"id": "merc", "side": "neutral"}
        ]
    })));
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("merc", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "merc", "total": 17}),
        json!({"type": "damageTaken", "target": "rogue", "attacker": "guard"}),
    ]);
    assert!(!story.state.perceives("merc", "rogue"));
    let joined =
        story.step(json!({"type": "upsertCreature", "creature": {"id": "merc", "side": "guards"}}));
    assert!(story.state.perceives("merc", "rogue"));
    assert!(
        joined.requests.is_empty(),
        "no new roll: {:?}",
        joined.requests
    );
    assert_eq!(
        pair(&story.state, "rogue", "merc").perception_total,
        Some(17)
    );
    // Leaving the side again does not undo a perception (O7 keeps it too).
    story.step(json!({"type": "upsertCreature", "creature": {"id": "merc", "side": "neutral"}}));
    assert!(story.state.perceives("merc", "rogue"));
}

#[test]
fn o9_a_pending_check_ends_with_the_attempt_and_its_late_answer_is_refused() {
    // The rogue attacks the guard from hiding: the guard's O9 check is
    // pending. The rogue stops hiding before the answer: the answer is
    // refused (nothing to check against) and changes nothing.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "attack", "attacker": "rogue", "targets": ["guard"]}),
    ]);
    assert!(pair(&story.state, "rogue", "guard").check_pending);
    story.step(json!({"type": "stopHiding", "hider": "rogue"}));
    let late =
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 5});
    assert_eq!(story.refuse(late.clone()).code(), "not_hiding");
    // The same when the rogue leaves the scene.
    let mut gone = Story::new(opposed_scene());
    gone.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "attack", "attacker": "rogue", "targets": ["guard"]}),
        json!({"type": "tokenRemoved", "token": "rogue"}),
    ]);
    assert!(gone.state.hiders.is_empty());
    assert_eq!(gone.refuse(late).code(), "unknown_token");
}

#[test]
fn o12_a_sprint_mid_attempt_ends_it_with_its_penalties_and_pending_checks() {
    // A noisy attack (-5) and a pending O9 check; the rogue sprints: the
    // attempt ends (O12), everyone perceives it. A new attempt (next turn)
    // starts clean: no penalty, no stored or pending check.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "attack", "attacker": "rogue", "targets": ["guard"], "noisy": true}),
        json!({"type": "sprint", "token": "rogue"}),
    ]);
    assert!(!story.state.hiders.contains_key("rogue"));
    assert!(story.state.perceives("guard", "rogue"));
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "rogue", "roll": 20,
                           "sprinting": true}))
            .code(),
        "sprinting"
    );
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "rogue"}),
        json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 12, "moved": true}),
    ]);
    let record = story.state.hiders.get("rogue").unwrap();
    assert!(record.penalties().is_empty());
    assert_eq!(record.held_total(), Some(12));
    let guard = pair(&story.state, "rogue", "guard");
    assert!(!guard.perceived && !guard.check_pending && guard.perception_total.is_none());
}

#[test]
fn o7_a_fresh_roll_clears_o8_penalties_and_later_ones_count_again() {
    // Held 20; the guard and the archer fail at 12; the rogue moves out of
    // view. Two noisy hits (-10): both stored 12 are compared with 10 and
    // perceive (O6). Next turn a fresh 14 clears the
    // penalties (O7): the guard and the archer perceive already and keep
    // perceiving, although 12 < 14.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "viewChanged", "hider": "rogue",
               "view": [view("guard", true), view("archer", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 12}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "archer", "total": 12}),
        json!({"type": "viewChanged", "hider": "rogue", "moved": true,
               "view": [view("guard", false), view("archer", false)]}),
        json!({"type": "attack", "attacker": "rogue", "targets": ["archer"], "noisy": true,
               "hits": 2}),
    ]);
    assert!(story.state.perceives("archer", "rogue"));
    assert!(
        story.state.perceives("guard", "rogue"),
        "12 >= 20 - 10 (O6)"
    );
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "rogue"}),
        json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 14, "moved": true}),
    ]);
    assert!(
        story.state.perceives("guard", "rogue"),
        "O7: perceivers keep perceiving"
    );
    assert!(story
        .state
        .hiders
        .get("rogue")
        .unwrap()
        .penalties()
        .is_empty());
}

// ---------------------------------------------------------------- percentile

/// A spy and a thief (party, Furtivité 80), a guard and a captain (guards,
/// acuity sums 0 and 60), an ally of the guard that sees well (guards, 500
/// once upserted).
fn percentile_scene() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 80},
            {"id": "thief", "side": "party", "stealthSkill": 80},
            {"id": "guard", "side": "guards"},
            {"id": "captain", "side": "guards", "acuities": {"visual": 60}}
        ]
    }))
}

fn carries_minus_100(state: &State, hider: &str) -> bool {
    state
        .hiders
        .get(hider)
        .unwrap()
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived)
}

fn defenseless(outcome: &Outcome, token: &str) -> Vec<bool> {
    status_changes(outcome, token, Status::Defenseless)
        .iter()
        .map(|change| match change {
            furtive_core::Change::Status { active, .. } => *active,
            other => panic!("not a status: {other:?}"),
        })
        .collect()
}

fn may_defend(state: &State, defender: &str, target: &str, attacker: &str) -> bool {
    furtive_core::query::can_defend(
        state,
        &furtive_core::query::DefenseQuery {
            defender: defender.into(),
            target: target.into(),
            attacker: attacker.into(),
        },
    )
    .unwrap()
    .allowed
}

#[test]
fn p6_p9_a_hide_before_combat_carries_into_it_and_the_surprise_lasts_the_attackers_turn() {
    // Outside combat the spy hides: 80 + 50 = 130, no automatic -100 (P9).
    // Combat starts on the guard's turn: the spy may not roll then (P9),
    // its score stays. On its turn it surprises the guard (P6): defenseless
    // until the end of the spy's turn, through the end of nobody else's.
    let mut story = Story::new(percentile_scene());
    story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 50}));
    assert!(!carries_minus_100(&story.state, "spy"));
    story.step(json!({"type": "turnStart", "combatant": "guard", "round": 1}));
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "spy", "roll": 50}))
            .code(),
        "not_hider_turn"
    );
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "spy"}),
    ]);
    let surprise = story.step(
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"],
                                     "hitZone": "head"}),
    );
    assert_eq!(defenseless(&surprise, "guard"), [true]);
    assert!(!may_defend(&story.state, "captain", "guard", "spy"));
    // A stray end of another combatant's turn, a round end: still defenseless.
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "captain"}),
        json!({"type": "roundEnd"}),
    ]);
    assert!(story.state.surprise("spy", "guard").is_some());
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Hiding
    );
    let end = story.step(json!({"type": "turnEnd", "combatant": "spy"}));
    assert_eq!(defenseless(&end, "guard"), [false]);
    assert!(story.state.surprises.is_empty());
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert!(story.state.perceives("guard", "spy"));
    // Its next roll, on its next turn, carries -100 (P9).
    story.step(json!({"type": "turnStart", "combatant": "spy"}));
    story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 50}));
    assert!(carries_minus_100(&story.state, "spy"));
    assert_eq!(story.state.hiders.get("spy").unwrap().score(), Some(30));
}

#[test]
fn p6_the_attacker_removed_during_its_own_surprise_ends_it_and_its_turn_end_is_harmless() {
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
    ]);
    let removed = story.step(json!({"type": "tokenRemoved", "token": "spy"}));
    assert_eq!(defenseless(&removed, "guard"), [false]);
    assert!(story.state.surprises.is_empty());
    assert_eq!(story.state.combat.turn, None);
    assert!(story.state.combat.active);
    // The caller's turn change still sends the spy's turn end.
    let end = story.step(json!({"type": "turnEnd", "combatant": "spy"}));
    assert!(end.changes.is_empty(), "{:?}", end.changes);
    story.step(json!({"type": "turnStart", "combatant": "thief"}));
    story.step(json!({"type": "enterStealth", "hider": "thief", "roll": 50}));
    assert!(
        carries_minus_100(&story.state, "thief"),
        "first roll in combat (P9)"
    );
}

#[test]
fn p6_the_target_removed_mid_surprise_still_leaves_the_attacker_revealed_at_its_turn_end() {
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        json!({"type": "tokenRemoved", "token": "guard"}),
    ]);
    assert!(story.state.surprises.is_empty());
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Hiding
    );
    story.step(json!({"type": "turnEnd", "combatant": "spy"}));
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert!(story.state.perceives("captain", "spy"));
}

#[test]
fn p9_two_hiders_interleave_each_revealed_at_its_own_turn_end() {
    // Both hide outside combat (130). The spy surprises the guard on its
    // turn; the thief's turn ends in between (a stray end): only the spy's
    // own turn end reveals the spy; the thief stays hidden.
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "enterStealth", "hider": "thief", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        json!({"type": "turnEnd", "combatant": "thief"}),
    ]);
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Hiding
    );
    assert!(story.state.surprise("spy", "guard").is_some());
    story.step(json!({"type": "turnEnd", "combatant": "spy"}));
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert_eq!(
        story.state.hiders.get("thief").unwrap().phase,
        HiderPhase::Hiding
    );
    assert!(!story.state.perceives("guard", "thief"));
    // The thief's turn: it surprises the captain (60 < 130).
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "thief"}),
        json!({"type": "attack", "attacker": "thief", "targets": ["captain"]}),
    ]);
    assert!(story.state.surprise("thief", "captain").is_some());
    assert!(
        may_defend(&story.state, "guard", "captain", "spy"),
        "no surprise by the spy"
    );
    assert!(!may_defend(&story.state, "guard", "captain", "thief"));
}

#[test]
fn p9_one_roll_a_turn_holds_across_a_stop_and_the_next_turn_allows_one_with_minus_100() {
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "stopHiding", "hider": "spy"}),
    ]);
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "spy", "roll": 90}))
            .code(),
        "stealth_roll_already_made"
    );
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "spy"}),
        json!({"type": "turnStart", "combatant": "guard"}),
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "spy", "round": 2}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    ]);
    assert!(carries_minus_100(&story.state, "spy"));
    assert_eq!(
        story.state.hiders.get("spy").unwrap().score(),
        Some(80 + 90 - 100)
    );
}

#[test]
fn p9_o7_a_repeated_turn_start_or_a_token_removed_and_added_again_gives_no_second_roll_that_turn() {
    // P9: at most one stealth roll per turn of the hider. A second
    // `turnStart` of the combatant whose turn it is, in the same round, is
    // the same turn (a combatant has one turn a round), and so is its turn
    // started again after its token was removed and added back.
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
    ]);
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "spy", "roll": 90}))
            .code(),
        "stealth_roll_already_made"
    );
    story.step(json!({"type": "turnStart", "combatant": "spy"}));
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "spy", "roll": 90}))
            .code(),
        "stealth_roll_already_made"
    );
    story.steps(vec![
        json!({"type": "tokenRemoved", "token": "spy"}),
        json!({"type": "upsertCreature", "creature":
            {"id": "spy", "side": "party", "stealthSkill": 80}}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
    ]);
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "spy", "roll": 90}))
            .code(),
        "stealth_roll_already_made"
    );
    // The spy's next turn allows one.
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "spy"}),
        json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "spy", "round": 2}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    ]);
    assert_eq!(
        story.state.hiders.get("spy").unwrap().score(),
        Some(80 + 90 - 100)
    );
    // O7 (opposed): one fresh roll per own turn, the same way; and the
    // repeated turn start keeps the turn's move (O5).
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "moved": true}),
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
    ]);
    assert!(story.state.hiders.get("rogue").unwrap().moved_this_turn);
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "rogue", "roll": 25, "moved": true}))
            .code(),
        "stealth_roll_already_made"
    );
}

#[test]
fn p9_combat_end_then_a_new_combat_gives_a_fresh_turn_and_roll() {
    // The spy rolls on its turn: a first roll in combat carries -100 (P9):
    // 80 + 100 - 100 = 80, above the captain's 60. The combat ends during
    // that turn (its turn ends then: nothing to reveal, it did not
    // attack). A new combat: the spy's first turn allows one roll; with a
    // record and no non-ally perceiving it, no automatic -100.
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "spy", "round": 3}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 100}),
    ]);
    assert!(carries_minus_100(&story.state, "spy"));
    assert!(!story.state.perceives("captain", "spy"));
    story.step(json!({"type": "combatEnd"}));
    assert_eq!(story.state.combat, Default::default());
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Hiding
    );
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 60}),
    ]);
    assert!(!carries_minus_100(&story.state, "spy"));
    assert_eq!(story.state.hiders.get("spy").unwrap().score(), Some(140));
}

#[test]
fn p4_a_pending_roll_keeps_the_stale_score_for_a_changed_observer_and_ends_with_the_reveal() {
    // 180 in force (very noisy +50). The noise stops: P4 asks a new roll;
    // the old score holds meanwhile. The captain's acuity sum changes to
    // 179, then 180: each is compared with the stale 180 in force (P3, P4).
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50,
               "modifiers": {"situation": ["very_noisy"]}}),
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {}}),
    ]);
    assert_eq!(story.state.hiders.get("spy").unwrap().score(), Some(180));
    story.step(json!({"type": "upsertCreature", "creature":
        {"id": "captain", "side": "guards", "acuities": {"visual": 179}}}));
    assert!(!story.state.perceives("captain", "spy"));
    story.step(json!({"type": "upsertCreature", "creature":
        {"id": "captain", "side": "guards", "acuities": {"visual": 180}}}));
    assert!(story.state.perceives("captain", "spy"));
    assert!(story
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_some());
    // The spy attacks on its turn; its turn end reveals it and the pending
    // request ends with the attempt it was for.
    story.steps(vec![
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        json!({"type": "turnEnd", "combatant": "spy"}),
    ]);
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert!(story
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_none());
}

#[test]
fn p6_an_ally_of_the_target_that_comes_to_perceive_the_attacker_mid_surprise_may_defend() {
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
    ]);
    assert!(!may_defend(&story.state, "captain", "guard", "spy"));
    story.step(json!({"type": "upsertCreature", "creature":
        {"id": "captain", "side": "guards", "acuities": {"visual": 500}}}));
    assert!(may_defend(&story.state, "captain", "guard", "spy"));
    assert!(
        !may_defend(&story.state, "guard", "guard", "spy"),
        "the target never"
    );
}

// ---------------------------------------------------------------- applyAll

#[test]
fn b1_a_refused_event_late_in_apply_all_undoes_the_combat_bookkeeping_too() {
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "guard", "round": 4}),
        ],
    );
    let events = [
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "roundEnd"}),
        json!({"type": "turnStart", "combatant": "spy"}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        json!({"type": "turnEnd", "combatant": "spy"}),
        json!({"type": "turnStart", "combatant": "spy"}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    ];
    let mut session = Session::load(scene.clone()).unwrap();
    let error = session
        .apply_all(events.iter().cloned().map(ev).collect())
        .unwrap_err();
    assert_eq!(error.code(), "stealth_roll_already_made");
    assert_eq!(session.state(), &scene);
    // Without the refused roll the list applies as one transaction and
    // ends where the events one by one end, but for the revision.
    let accepted: Vec<Value> = events[..events.len() - 1].to_vec();
    let effects = session
        .apply_all(accepted.iter().cloned().map(ev).collect())
        .unwrap();
    let one_by_one = run(&scene, accepted);
    let mut all = session.state().clone();
    all.revision = one_by_one.revision;
    assert_eq!(all, one_by_one);
    assert_eq!(effects.revision, scene.revision + 1);
    assert_eq!(session.state().combat.round, 5);
    assert_eq!(session.state().combat.turn.as_deref(), Some("spy"));
    // One set of effects: the surprise came and went inside the list.
    assert!(status_changes_in(&effects.changes, "guard").is_empty());
}

fn status_changes_in<'a>(
    changes: &'a [furtive_core::Change],
    token: &str,
) -> Vec<&'a furtive_core::Change> {
    changes
        .iter()
        .filter(|c| matches!(c, furtive_core::Change::Status { token: t, status: Status::Defenseless, .. } if t == token))
        .collect()
}

#[test]
fn p9_an_attack_from_hiding_reveals_at_the_turn_end_even_after_a_stop_and_a_new_roll() {
    // The spy hides before combat (130). On its turn it attacks the
    // sentinel, which perceives it (acuity sum 200): no surprise, but an
    // attack from hiding reveals the spy at its turn end (P9, *Decided*).
    // The spy stops hiding and rolls again the same turn (its first roll
    // this turn; -100 in combat: 80 + 100 - 100 = 80, above the captain's
    // 60). A roll straight after the attack keeps the reveal
    // (`p9_a_roll_after_an_attack_keeps_the_reveal_of_that_turn`); a stop
    // in between must not cancel it.
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "upsertCreature", "creature":
            {"id": "sentinel", "side": "guards", "acuities": {"visual": 200}}})],
    );
    let reveal = |with_stop: bool| {
        let mut story = Story::new(scene.clone());
        story.steps(vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "targets": ["sentinel"]}),
        ]);
        assert!(story.state.surprises.is_empty());
        if with_stop {
            story.step(json!({"type": "stopHiding", "hider": "spy"}));
        }
        story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 100}));
        assert!(!story.state.perceives("captain", "spy"));
        story.step(json!({"type": "turnEnd", "combatant": "spy"}));
        story.state
    };
    let without_stop = reveal(false);
    assert_eq!(
        without_stop.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    let with_stop = reveal(true);
    assert!(
        with_stop.perceives("captain", "spy") && with_stop.perceives("guard", "spy"),
        "the attack from hiding must reveal the spy at its turn end"
    );
}

#[test]
fn o6_o7_p9_what_a_gm_override_yields_to_by_rule() {
    // Opposed. The GM rules the archer perceives the rogue and the guard,
    // whose check reached the total, does not. A fresh roll keeps the
    // archer perceiving (O7: perceivers keep perceiving); a penalty
    // compares the guard's stored result again (O6) and it perceives.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 21}),
        json!({"type": "gmOverride", "hider": "rogue", "observer": "guard", "perceived": false}),
        json!({"type": "gmOverride", "hider": "rogue", "observer": "archer", "perceived": true}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 25}),
    ]);
    assert!(story.state.perceives("archer", "rogue"), "O7");
    assert!(!story.state.perceives("guard", "rogue"), "21 < 25");
    story.step(
        json!({"type": "attack", "attacker": "rogue", "targets": ["scout"],
                      "noisy": true}),
    );
    assert!(story.state.perceives("guard", "rogue"), "O6: 21 >= 25 - 5");
    assert_eq!(
        pair(&story.state, "rogue", "guard").reason,
        PairReason::Penalty
    );

    // Percentile. The GM rules the captain (60 < 130) perceives and the
    // guard does not; a P4 change of modifiers leaves both (the score in
    // force stays); the end of a turn in which the spy attacked reveals
    // it to everyone (P9).
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "gmOverride", "hider": "spy", "observer": "captain", "perceived": true}),
        json!({"type": "modifiersChanged", "hider": "spy",
               "modifiers": {"situation": ["dark"]}}),
    ]);
    assert!(story.state.perceives("captain", "spy"));
    assert!(!story.state.perceives("guard", "spy"));
    story.steps(vec![
        json!({"type": "gmOverride", "hider": "spy", "observer": "guard", "perceived": false}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["thief"]}),
        json!({"type": "turnEnd", "combatant": "spy"}),
    ]);
    assert!(story.state.perceives("guard", "spy"));
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
}

#[test]
fn o1_o7_a_settings_change_between_events_applies_from_the_next_event() {
    // Zero-length movement allowed at entry; the table turns it off: the
    // next fresh roll needs `moved` (O1, O7), the attempt itself stays.
    let mut story = Story::new(opposed_scene());
    story.step(json!({"type": "enterStealth", "hider": "rogue", "roll": 20}));
    let mut changed = story.state.clone();
    changed.settings.allow_zero_length_movement = false;
    let mut story = Story::new(changed);
    assert_eq!(
        story
            .refuse(json!({"type": "enterStealth", "hider": "rogue", "roll": 25}))
            .code(),
        "movement_required"
    );
    assert_eq!(
        story.state.hiders.get("rogue").unwrap().held_total(),
        Some(20)
    );
    story.step(json!({"type": "enterStealth", "hider": "rogue", "roll": 25, "moved": true}));
    assert_eq!(
        story.state.hiders.get("rogue").unwrap().held_total(),
        Some(25)
    );
}

#[test]
fn o5_o7_combat_starting_mid_attempt_counts_moves_from_the_hiders_own_turn() {
    // The rogue hides (20) outside combat, moving. Combat starts on the
    // guard's turn: the guard comes into view and fails (10), exposed. The
    // rogue's turn starts: the move made before it no longer counts (O5
    // "during that turn"); the rogue stays still and is revealed at its
    // turn end even though the guard walked away meanwhile.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20, "moved": true}),
        json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 10}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", false)]}),
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "rogue"}),
    ]);
    assert!(!story.state.hiders.get("rogue").unwrap().moved_this_turn);
    story.step(json!({"type": "turnEnd", "combatant": "rogue"}));
    assert!(story.state.perceives("guard", "rogue"));
    assert_eq!(
        pair(&story.state, "rogue", "guard").reason,
        PairReason::Exposure
    );
}

#[test]
fn p9_the_sides_at_the_moment_of_the_roll_decide_the_minus_100() {
    // The spy is revealed after a surprise. The guard and the captain (the
    // only non-allies) join the party: the next roll carries no -100 (P9,
    // *Decided*: only non-allies count). The captain turns back: it does.
    let mut story = Story::new(percentile_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        json!({"type": "turnEnd", "combatant": "spy"}),
        json!({"type": "combatEnd"}),
        json!({"type": "upsertCreature", "creature": {"id": "guard", "side": "party"}}),
        json!({"type": "upsertCreature", "creature":
            {"id": "captain", "side": "party", "acuities": {"visual": 60}}}),
    ]);
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    let before = story.state.clone();
    story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 50}));
    assert!(!carries_minus_100(&story.state, "spy"));
    let mut story = Story::new(before);
    story.step(json!({"type": "upsertCreature", "creature":
        {"id": "captain", "side": "guards", "acuities": {"visual": 60}}}));
    story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 50}));
    assert!(carries_minus_100(&story.state, "spy"));
}

#[test]
fn o5_removals_mid_attempt_take_their_exposures_with_them() {
    // The guard is exposed to the rogue and to the scout; the archer to
    // the scout. The guard leaves: neither turn end reveals anything to
    // it. The rogue leaves: the scout's exposure to the archer stands.
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "enterStealth", "hider": "scout", "roll": 20}),
        json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [view("guard", true)]}),
        json!({"type": "viewChanged", "hider": "scout",
               "view": [view("guard", true), view("archer", true)]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 10}),
        json!({"type": "perceptionRolled", "hider": "scout", "observer": "guard", "total": 10}),
        json!({"type": "perceptionRolled", "hider": "scout", "observer": "archer", "total": 10}),
        json!({"type": "tokenRemoved", "token": "guard"}),
        json!({"type": "turnEnd", "combatant": "guard"}),
        json!({"type": "turnStart", "combatant": "rogue"}),
    ]);
    assert!(!story
        .state
        .hiders
        .get("rogue")
        .unwrap()
        .pairs
        .contains_key("guard"));
    let end = story.step(json!({"type": "turnEnd", "combatant": "rogue"}));
    assert!(end.changes.is_empty(), "{:?}", end.changes);
    story.steps(vec![
        json!({"type": "tokenRemoved", "token": "rogue"}),
        json!({"type": "turnStart", "combatant": "scout"}),
        json!({"type": "turnEnd", "combatant": "scout"}),
    ]);
    assert!(story.state.perceives("archer", "scout"));
    assert_eq!(
        visibility_of(&story.state, "scout"),
        [("archer".to_owned(), true)]
    );
}

fn visibility_of(state: &State, hider: &str) -> Vec<(String, bool)> {
    state
        .hiders
        .get(hider)
        .unwrap()
        .pairs
        .iter()
        .map(|(observer, pair)| (observer.to_string(), pair.perceived))
        .collect()
}

fn dog_attacks(state: &State) -> furtive_core::query::AttackMode {
    furtive_core::query::attack_hidden(
        state,
        &furtive_core::query::HiddenAttackQuery {
            attacker: "dog".into(),
            target: "rogue".into(),
            aimed_at_space: true,
            area: false,
        },
    )
    .unwrap()
    .mode
}

#[test]
fn o13_o6_a_sense_gained_mid_attempt_gives_presence_and_a_later_penalty_the_space() {
    // The dog comes into view 30 away and fails its check (15 < 20):
    // exposed. Its nose is then found to reach 40 (upsertCreature): it
    // perceives the rogue's presence (O13), no longer exposed, and still
    // attacks with disadvantage (O10): its check failed. A noisy attack
    // lowers the total to 15: the stored 15 now sees the rogue precisely
    // (O6, O13). A fresh roll next turn keeps it perceiving (O7).
    use furtive_core::query::AttackMode;
    let dog = |range: u32| {
        json!({"type": "upsertCreature", "creature": {"id": "dog", "side": "guards",
            "enhancedSenses": [{"sense": "smell", "range": range}]}})
    };
    let mut story = Story::new(opposed_scene());
    story.steps(vec![
        dog(10),
        json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        json!({"type": "viewChanged", "hider": "rogue",
               "view": [{"observer": "dog", "clearView": true, "distance": 30}]}),
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "dog", "total": 15}),
    ]);
    assert!(pair(&story.state, "rogue", "dog").exposed);
    assert_eq!(dog_attacks(&story.state), AttackMode::Disadvantage);
    story.step(dog(40));
    let sensed = pair(&story.state, "rogue", "dog");
    assert!(sensed.perceived && !sensed.exposed);
    assert_eq!(sensed.reason, PairReason::EnhancedSense);
    assert_eq!(
        dog_attacks(&story.state),
        AttackMode::Disadvantage,
        "presence only"
    );
    story.step(
        json!({"type": "attack", "attacker": "rogue", "targets": ["guard"],
                      "noisy": true}),
    );
    assert_eq!(
        pair(&story.state, "rogue", "dog").reason,
        PairReason::Penalty
    );
    assert_eq!(dog_attacks(&story.state), AttackMode::Normal);
    story.steps(vec![
        json!({"type": "turnEnd", "combatant": "rogue"}),
        json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 30, "precautions": ["smell"]}),
    ]);
    assert!(story.state.perceives("dog", "rogue"));
    assert_eq!(dog_attacks(&story.state), AttackMode::Normal);
}

#[test]
fn p9_outside_combat_a_stop_after_an_attack_leaves_the_hider_perceived_so_the_next_roll_carries_minus_100(
) {
    // Outside combat the spy attacks the sentinel (which perceives it) and
    // stops hiding: everyone perceives it, so its next roll carries -100
    // (P9: a roll made while a non-ally perceives the hider), and the
    // attack still reveals it when the combat ends (no turn of its own
    // ended since).
    let mut story = Story::new(run(
        &percentile_scene(),
        vec![json!({"type": "upsertCreature", "creature":
            {"id": "sentinel", "side": "guards", "acuities": {"visual": 200}}})],
    ));
    story.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "attack", "attacker": "spy", "targets": ["sentinel"]}),
        json!({"type": "stopHiding", "hider": "spy"}),
    ]);
    assert!(story.state.perceives("guard", "spy"));
    story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 100}));
    assert!(carries_minus_100(&story.state, "spy"));
    assert!(!story.state.perceives("guard", "spy"));
    story.step(json!({"type": "combatEnd"}));
    assert_eq!(
        story.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert!(story.state.perceives("guard", "spy"));
    // Without the attack, a stop forgets the attempt (no automatic -100).
    let mut quiet = Story::new(percentile_scene());
    quiet.steps(vec![
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        json!({"type": "stopHiding", "hider": "spy"}),
    ]);
    assert!(!quiet.state.hiders.contains_key("spy"));
}

#[test]
fn p9_a_second_stop_after_an_attack_from_hiding_is_refused_as_not_hiding() {
    // The spy attacks from hiding and stops hiding: the record stays,
    // revealed and marked, for the turn end's reveal (P9). It is no longer
    // hiding, so a second stop is refused `not_hiding`, as before the
    // record was kept (it used to be accepted, changing nothing and telling
    // the table again that the spy stops hiding). Outside combat and in
    // combat alike; the turn end still reveals the spy.
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "upsertCreature", "creature":
            {"id": "sentinel", "side": "guards", "acuities": {"visual": 200}}})],
    );
    for in_combat in [false, true] {
        let mut story = Story::new(scene.clone());
        story.step(json!({"type": "enterStealth", "hider": "spy", "roll": 50}));
        if in_combat {
            story.step(json!({"type": "turnStart", "combatant": "spy", "round": 1}));
        }
        story.step(json!({"type": "attack", "attacker": "spy", "targets": ["sentinel"]}));
        let stop = story.step(json!({"type": "stopHiding", "hider": "spy"}));
        assert_eq!(stop.log.len(), 1, "the first stop is told once");
        let error = story.refuse(json!({"type": "stopHiding", "hider": "spy"}));
        assert_eq!(error.code(), "not_hiding", "in combat: {in_combat}");
        assert_eq!(
            story.state.hiders.get("spy").unwrap().phase,
            HiderPhase::Revealed
        );
        if in_combat {
            let end = story.step(json!({"type": "turnEnd", "combatant": "spy"}));
            assert!(
                end.log
                    .iter()
                    .any(|entry| entry.clause == furtive_core::Clause::P9),
                "the turn end still reveals the spy (P9)"
            );
        }
    }
}

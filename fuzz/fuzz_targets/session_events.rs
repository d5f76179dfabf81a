//! `session_events`: a [`Session`] built from an arbitrary configuration
//! (either ruleset, up to six creatures, with ids of one of three families:
//! short, Foundry-length ids sharing a long prefix, and ids of 7 to 17
//! bytes, one with a two-byte character) takes an arbitrary sequence of
//! events, rolls answered from its own requests, batches, settles, queries
//! and raw JSON events. At every step it must agree with the free
//! functions run on its snapshot:
//!
//! - `Session::apply` and `furtive_core::apply(&snapshot, event)` give the
//!   same changes, requests and log and the same new state, or the same
//!   error; a refused event leaves the session exactly as it was;
//! - the changes equal `furtive_core::diff(before, after)` (the session
//!   compares only the slots it touched, `diff` the whole state);
//! - the `hidden_from` patch brings the lookup built before up to date;
//! - `apply_all` of a batch equals its events applied one by one;
//! - a raw JSON event read straight from its text is what the `Value`
//!   reader makes of it: the same event or the same refusal;
//! - `settle` equals the free `settle`, queries equal the free queries;
//! - at the end, `apply_all` of every accepted event from the start equals
//!   the step-by-step state, and the snapshot survives a JSON round trip
//!   through `Session::load_json`.
#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use furtive_core::event::EventByName;
use furtive_core::query::{
    DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery,
};
use furtive_core::{
    Acuities, Config, Creature, EnhancedSense, Error, Event, FreeModifier, HitZone, Modifiers,
    Request, Ruleset, Session, Settings, SituationModifier, State, TokenId, ViewEntry,
};
use libfuzzer_sys::fuzz_target;

/// The creatures' ids, one family per run (`Input::id_family`): the
/// engine's maps order ids and its journal compares them, so besides short
/// ids, Foundry-length ids (16 characters) that share a long prefix, and
/// ids of 7 to 17 bytes that are prefixes of one another, one with a
/// two-byte character.
const ID_FAMILIES: [[&str; 6]; 3] = [
    ["c0", "c1", "c2", "c3", "c4", "c5"],
    [
        "tok0000000000000",
        "tok0000000000001",
        "tok0000000000010",
        "tok00000a0000000",
        "tok000000000000Z",
        "tok0000000000002",
    ],
    [
        "abcdefg",
        "abcdefgh",
        "abcdefgh0",
        "abcdefghabcdefgh",
        "abcdefghabcdefghX",
        "abcd\u{e9}fgh",
    ],
];
const SIDES: [&str; 4] = ["", "neutral", "red", "blue"];
const SENSES: [&str; 3] = ["smell", "tremorsense", "blindsight"];

#[derive(Arbitrary, Debug)]
struct Input {
    opposed: bool,
    show_numbers: bool,
    allow_zero_length_movement: bool,
    check_die: u16,
    /// The creatures' ids: `ID_FAMILIES[id_family % 3]`.
    id_family: u8,
    /// 2 + count % 5 creatures: two to six.
    count: u8,
    creatures: [CreatureSpec; 6],
    steps: Vec<Step>,
}

#[derive(Arbitrary, Debug, Clone)]
struct CreatureSpec {
    side: u8,
    named: bool,
    stealth_skill: Small,
    base_stealth_skill: Option<Small>,
    strength: Small,
    acuities: (Small, Small, Small),
    stealth_modifier: Num,
    perception_modifier: Num,
    senses: Vec<(u8, u16, bool)>,
}

/// A token id: one of the configured creatures, mostly; sometimes one the
/// engine does not know (B1).
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Tok(u8);

/// A creature's skill, acuity or strength: mostly what a character sheet
/// holds, sometimes at or beyond the documented limits.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Small {
    Low(u8),
    Mid(u8),
    Edge(u8),
}

/// A number: mostly in the ranges the rules use, sometimes at or beyond
/// the documented limits.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct Num {
    /// 0..=223: a typical value for the field; 224..=239: any `i16`;
    /// 240..=255: a limit or beyond.
    kind: u8,
    value: i16,
}

/// What a [`Num`] is for: its typical range.
#[derive(Clone, Copy)]
enum Typical {
    /// A d100 roll, 1..=100.
    D100,
    /// A check total or a modifier, -10..=40.
    Check,
    /// A free modifier, -100..=100.
    Modifier,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Dist {
    Near(u8),
    Far(u32),
    Odd(u8),
}

#[derive(Arbitrary, Debug, Clone)]
struct ViewSpec {
    observer: Tok,
    clear_view: bool,
    distance: Option<Dist>,
}

#[derive(Arbitrary, Debug, Clone)]
struct ModSpec {
    situation: Vec<u8>,
    free: Vec<(bool, Num)>,
}

#[derive(Arbitrary, Debug, Clone)]
enum EventSpec {
    Upsert(Tok, CreatureSpec),
    EnterStealth {
        hider: Tok,
        roll: Num,
        modifiers: Option<ModSpec>,
        moved: bool,
        sprinting: bool,
        precautions: Vec<u8>,
        view: Vec<ViewSpec>,
    },
    ViewChanged {
        hider: Tok,
        moved: bool,
        view: Vec<ViewSpec>,
    },
    PerceptionRolled {
        hider: Tok,
        observer: Tok,
        total: Num,
    },
    PointOut {
        hider: Tok,
        observer: Tok,
        allies: Vec<Tok>,
    },
    Attack {
        attacker: Tok,
        /// O8: one attack instance with several targets; `legacy` also
        /// writes the single `target` field callers used before `targets`
        /// (one of the two, as the engine reads them).
        targets: Vec<Tok>,
        legacy: bool,
        noisy: bool,
        hits: u8,
        area: bool,
        hit_zone: Option<u8>,
    },
    DamageTaken {
        target: Tok,
        attacker: Tok,
        hits: u8,
    },
    TurnStart {
        combatant: Tok,
        round: Option<u8>,
    },
    TurnEnd {
        combatant: Tok,
    },
    RoundEnd {
        round: Option<u8>,
    },
    CombatEnd,
    ModifiersChanged {
        hider: Tok,
        modifiers: ModSpec,
    },
    Sprint {
        token: Tok,
    },
    StopHiding {
        hider: Tok,
    },
    TokenRemoved {
        token: Tok,
    },
    GmOverride {
        hider: Tok,
        observer: Tok,
        perceived: bool,
    },
}

#[derive(Arbitrary, Debug)]
enum QuerySpec {
    Perceives(Tok, Tok),
    CanLocate(Tok, Tok),
    CanDefend(Tok, Tok, Tok),
    Knockout(Tok, Tok, bool, Option<u16>, Option<u8>),
    CanPickpocket(Tok, Tok, bool, bool),
    AttackHidden(Tok, Tok, bool, bool),
}

#[derive(Arbitrary, Debug)]
enum Step {
    Event(EventSpec),
    /// A short cut to deep states: `hider` enters stealth out of view
    /// (moved), then comes into the clear view of the observers in
    /// `in_view` (a bit mask over the creatures), and the requested
    /// Perception checks are answered with `totals`, one event each.
    Hide {
        hider: Tok,
        roll: Num,
        in_view: u8,
        totals: [Num; 6],
    },
    /// Answers one of the outstanding requests: a Perception check total,
    /// or a stealth roll with the requested modifiers.
    Answer {
        index: u8,
        value: Num,
        moved: bool,
    },
    /// Answers every outstanding request, in order, as one `apply_all`.
    AnswerAll {
        value: Num,
    },
    Batch(Vec<EventSpec>),
    Settle(EventSpec, u64),
    Query(QuerySpec),
    /// An event as JSON text, read by the JSON facade's parser.
    Raw(String),
    /// A well-formed event in JSON with one field replaced by `value`.
    RawField {
        event: EventSpec,
        field: u8,
        value: RawValue,
    },
}

#[derive(Arbitrary, Debug)]
enum RawValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    Known(Tok),
    Remove,
}

struct Ctx {
    ids: Vec<TokenId>,
    opposed: bool,
}

impl Ctx {
    fn tok(&self, tok: Tok) -> TokenId {
        if tok.0 >= 248 || self.ids.is_empty() {
            // Unknown to the engine (B1), or the empty id.
            if tok.0 & 1 == 0 {
                "ghost".into()
            } else {
                TokenId::default()
            }
        } else {
            self.ids[usize::from(tok.0) % self.ids.len()].clone()
        }
    }

    fn num(&self, num: Num, typical: Typical) -> i64 {
        let value = i64::from(num.value);
        match num.kind {
            0..=223 => match typical {
                Typical::D100 => value.rem_euclid(100) + 1,
                Typical::Check => value.rem_euclid(51) - 10,
                Typical::Modifier => value.rem_euclid(201) - 100,
            },
            224..=239 => value,
            edge => [
                0,
                1,
                100,
                101,
                -1,
                1000,
                1001,
                -1000,
                -1001,
                100_000,
                i64::MAX,
                i64::MIN,
                u32::MAX as i64,
                i64::from(i32::MIN),
                -100_000,
                100_001,
            ][usize::from(edge - 240)],
        }
    }

    fn dist(&self, dist: Dist) -> f64 {
        match dist {
            Dist::Near(v) => f64::from(v) / 2.0,
            Dist::Far(v) => f64::from(v),
            Dist::Odd(v) => [
                -0.0,
                -1.0,
                1e9,
                1e9 + 1.0,
                f64::MIN_POSITIVE,
                f64::MAX,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
            ][usize::from(v) % 9],
        }
    }

    fn creature(&self, id: TokenId, spec: &CreatureSpec) -> Creature {
        let small = |v: Small| match v {
            Small::Low(v) => u32::from(v % 60),
            Small::Mid(v) => u32::from(v) * 2,
            Small::Edge(v) => [0, 500, 501, 1000, 1001, u32::MAX][usize::from(v) % 6],
        };
        Creature {
            name: if spec.named {
                format!("Creature {id}")
            } else {
                Default::default()
            },
            id,
            side: SIDES[usize::from(spec.side) % SIDES.len()].into(),
            stealth_skill: small(spec.stealth_skill),
            base_stealth_skill: spec.base_stealth_skill.map(small),
            strength: small(spec.strength),
            acuities: Acuities {
                visual: small(spec.acuities.0),
                auditory: small(spec.acuities.1),
                olfactory: small(spec.acuities.2),
            },
            stealth_modifier: self.num(spec.stealth_modifier, Typical::Check),
            perception_modifier: self.num(spec.perception_modifier, Typical::Check),
            enhanced_senses: spec
                .senses
                .iter()
                .take(4)
                .map(|&(sense, range, targeting)| EnhancedSense {
                    sense: SENSES[usize::from(sense) % SENSES.len()].into(),
                    range: if range == u16::MAX {
                        f64::INFINITY
                    } else {
                        f64::from(range) / 4.0
                    },
                    targeting,
                })
                .collect(),
        }
    }

    fn modifiers(&self, spec: &ModSpec) -> Modifiers {
        Modifiers {
            situation: spec
                .situation
                .iter()
                .map(|&i| SituationModifier::ALL[usize::from(i) % 9])
                .collect(),
            free: spec
                .free
                .iter()
                .map(|&(labelled, value)| FreeModifier {
                    label: if labelled {
                        "cover".into()
                    } else {
                        String::new()
                    },
                    value: self.num(value, Typical::Modifier),
                })
                .collect(),
        }
    }

    fn view(&self, view: &[ViewSpec]) -> Vec<ViewEntry> {
        view.iter()
            .map(|entry| ViewEntry {
                observer: self.tok(entry.observer),
                clear_view: entry.clear_view,
                distance: entry.distance.map(|d| self.dist(d)),
            })
            .collect()
    }

    fn event(&self, spec: &EventSpec) -> Event {
        match spec {
            EventSpec::Upsert(tok, creature) => Event::UpsertCreature {
                creature: self.creature(self.tok(*tok), creature),
            },
            EventSpec::EnterStealth {
                hider,
                roll,
                modifiers,
                moved,
                sprinting,
                precautions,
                view,
            } => Event::EnterStealth {
                hider: self.tok(*hider),
                roll: self.roll(*roll),
                modifiers: modifiers.as_ref().map(|m| self.modifiers(m)),
                moved: *moved,
                sprinting: *sprinting,
                precautions: precautions
                    .iter()
                    .map(|&i| SENSES[usize::from(i) % SENSES.len()].into())
                    .collect(),
                view: self.view(view),
            },
            EventSpec::ViewChanged { hider, moved, view } => Event::ViewChanged {
                hider: self.tok(*hider),
                moved: *moved,
                view: self.view(view),
            },
            EventSpec::PerceptionRolled {
                hider,
                observer,
                total,
            } => Event::PerceptionRolled {
                hider: self.tok(*hider),
                observer: self.tok(*observer),
                total: self.check(*total),
            },
            EventSpec::PointOut {
                hider,
                observer,
                allies,
            } => Event::PointOut {
                hider: self.tok(*hider),
                observer: self.tok(*observer),
                allies: allies.iter().map(|&a| self.tok(a)).collect(),
            },
            EventSpec::Attack {
                attacker,
                targets,
                legacy,
                noisy,
                hits,
                area,
                hit_zone,
            } => {
                let mut targets: Vec<TokenId> = targets.iter().map(|&t| self.tok(t)).collect();
                let target = if *legacy { targets.pop() } else { None };
                Event::Attack {
                    attacker: self.tok(*attacker),
                    targets,
                    target,
                    noisy: *noisy,
                    hits: hits_of(*hits),
                    area: *area,
                    hit_zone: hit_zone.map(|z| {
                        [HitZone::Head, HitZone::Trunk, HitZone::Arm, HitZone::Leg]
                            [usize::from(z) % 4]
                    }),
                }
            }
            EventSpec::DamageTaken {
                target,
                attacker,
                hits,
            } => Event::DamageTaken {
                target: self.tok(*target),
                attacker: self.tok(*attacker),
                hits: hits_of(*hits),
            },
            EventSpec::TurnStart { combatant, round } => Event::TurnStart {
                combatant: self.tok(*combatant),
                round: round.map(round_of),
            },
            EventSpec::TurnEnd { combatant } => Event::TurnEnd {
                combatant: self.tok(*combatant),
            },
            EventSpec::RoundEnd { round } => Event::RoundEnd {
                round: round.map(round_of),
            },
            EventSpec::CombatEnd => Event::CombatEnd {},
            EventSpec::ModifiersChanged { hider, modifiers } => Event::ModifiersChanged {
                hider: self.tok(*hider),
                modifiers: self.modifiers(modifiers),
            },
            EventSpec::Sprint { token } => Event::Sprint {
                token: self.tok(*token),
            },
            EventSpec::StopHiding { hider } => Event::StopHiding {
                hider: self.tok(*hider),
            },
            EventSpec::TokenRemoved { token } => Event::TokenRemoved {
                token: self.tok(*token),
            },
            EventSpec::GmOverride {
                hider,
                observer,
                perceived,
            } => Event::GmOverride {
                hider: self.tok(*hider),
                observer: self.tok(*observer),
                perceived: *perceived,
            },
        }
    }

    /// A Perception check total.
    fn check(&self, num: Num) -> i64 {
        self.num(num, Typical::Check)
    }

    /// A stealth roll: a Stealth check total (opposed) or a d100.
    fn roll(&self, num: Num) -> i64 {
        if self.opposed {
            self.num(num, Typical::Check)
        } else {
            self.num(num, Typical::D100)
        }
    }

    /// The event answering `request` (a check of one observer, see
    /// [`one_each`]) with `value`.
    fn answer(&self, request: &Request, value: Num, moved: bool) -> Event {
        match request {
            Request::PerceptionCheck {
                hider, observers, ..
            } => Event::PerceptionRolled {
                hider: hider.clone(),
                observer: observers.first().cloned().unwrap_or_default(),
                total: self.check(value),
            },
            Request::StealthRoll {
                hider, modifiers, ..
            } => Event::EnterStealth {
                hider: hider.clone(),
                roll: self.roll(value),
                modifiers: Some(modifiers.clone()),
                moved,
                sprinting: false,
                precautions: Vec::new(),
                view: Vec::new(),
            },
        }
    }

    fn query(&self, state: &State, query: &QuerySpec) {
        let session = Session::load(state.clone()).expect("a session's own state loads");
        let pair = |o: Tok, h: Tok| PairQuery {
            observer: self.tok(o),
            hider: self.tok(h),
        };
        match query {
            QuerySpec::Perceives(o, h) => same(
                "perceives",
                session.perceives(&pair(*o, *h)),
                furtive_core::query::perceives(state, &pair(*o, *h)),
            ),
            QuerySpec::CanLocate(o, h) => same(
                "canLocate",
                session.can_locate(&pair(*o, *h)),
                furtive_core::query::can_locate(state, &pair(*o, *h)),
            ),
            QuerySpec::CanDefend(d, t, a) => {
                let q = DefenseQuery {
                    defender: self.tok(*d),
                    target: self.tok(*t),
                    attacker: self.tok(*a),
                };
                same(
                    "canDefend",
                    session.can_defend(&q),
                    furtive_core::query::can_defend(state, &q),
                )
            }
            QuerySpec::Knockout(a, t, helmet, raw, d100) => {
                let q = KnockoutQuery {
                    attacker: self.tok(*a),
                    target: self.tok(*t),
                    helmet: *helmet,
                    raw_damage: raw.map(u32::from),
                    d100: d100.map(|d| u32::from(d) % 102),
                };
                same(
                    "knockout",
                    session.knockout(&q),
                    furtive_core::query::knockout(state, &q),
                )
            }
            QuerySpec::CanPickpocket(h, t, held, visible) => {
                let q = PickpocketQuery {
                    hider: self.tok(*h),
                    target: self.tok(*t),
                    held: *held,
                    visible: *visible,
                };
                same(
                    "canPickpocket",
                    session.can_pickpocket(&q),
                    furtive_core::query::can_pickpocket(state, &q),
                )
            }
            QuerySpec::AttackHidden(a, t, aimed, area) => {
                let q = HiddenAttackQuery {
                    attacker: self.tok(*a),
                    target: self.tok(*t),
                    aimed_at_space: *aimed,
                    area: *area,
                };
                same(
                    "attackHidden",
                    session.attack_hidden(&q),
                    furtive_core::query::attack_hidden(state, &q),
                )
            }
        }
    }
}

fn same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    session: Result<T, Error>,
    free: Result<T, Error>,
) {
    assert_eq!(session, free, "{what}: Session and free function disagree");
}

fn hits_of(hits: u8) -> u32 {
    match hits {
        255 => u32::MAX,
        254 => 0,
        253 => 101,
        h => u32::from(h % 4) + 1,
    }
}

fn round_of(round: u8) -> u32 {
    if round == 255 {
        u32::MAX
    } else {
        u32::from(round % 8)
    }
}

/// `lookup` patched with `effects.hidden_from`, as a caller does.
fn patched(
    mut lookup: BTreeMap<TokenId, Vec<TokenId>>,
    effects: &furtive_core::Effects,
) -> BTreeMap<TokenId, Vec<TokenId>> {
    for change in Session::hidden_from_changes(effects) {
        let list = lookup.entry(change.observer.clone()).or_default();
        if change.hidden {
            assert!(
                !list.contains(&change.hider),
                "hidden_from patch adds {} to {} twice",
                change.hider,
                change.observer
            );
            list.push(change.hider.clone());
            list.sort();
        } else {
            let before = list.len();
            list.retain(|h| h != &change.hider);
            assert_eq!(
                before,
                list.len() + 1,
                "hidden_from patch removes {} from {} where it is not",
                change.hider,
                change.observer
            );
            if list.is_empty() {
                lookup.remove(&change.observer);
            }
        }
    }
    lookup
}

/// The state without its revision (apply_all counts one revision for the
/// batch, step by step one per event).
fn without_revision(state: &State) -> State {
    let mut state = state.clone();
    state.revision = 0;
    state
}

/// One event through the session and through the free function; they must
/// agree. Returns whether it was accepted, and the effects.
fn step(session: &mut Session, event: Event) -> Option<furtive_core::Effects> {
    let result = checked_step(session, event.clone());
    trace(&event, &result);
    result.ok()
}

/// With `FURTIVE_FUZZ_TRACE` set, prints each single event's kind and
/// outcome (accepted with its number of changes and requests, or the error
/// code), to see how deep the corpus reaches:
/// `FURTIVE_FUZZ_TRACE=1 cargo +nightly fuzz run session_events corpus/session_events -- -runs=0 2>&1 | sort | uniq -c`.
fn trace(event: &Event, result: &Result<furtive_core::Effects, Error>) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if !*ON.get_or_init(|| std::env::var_os("FURTIVE_FUZZ_TRACE").is_some()) {
        return;
    }
    match result {
        Ok(effects) => eprintln!(
            "trace {} ok changes={} requests={}",
            event.kind(),
            effects.changes.len().min(3),
            effects.requests.len().min(3)
        ),
        Err(error) => eprintln!("trace {} refused {}", event.kind(), error.code()),
    }
}

fn checked_step(session: &mut Session, event: Event) -> Result<furtive_core::Effects, Error> {
    let before = session.snapshot();
    let free = furtive_core::apply(&before, event.clone());
    let lookup = session.hidden_from();
    let effects = session.apply(event.clone());
    match (effects, free) {
        (Ok(effects), Ok(outcome)) => {
            let after = session.state();
            assert_eq!(&outcome.state, after, "new state differs for {event:?}");
            assert_eq!(effects.changes, outcome.changes, "changes differ");
            assert_eq!(effects.requests, outcome.requests, "requests differ");
            assert_eq!(effects.log, outcome.log, "log differs");
            assert_eq!(effects.revision, after.revision, "revision");
            assert_eq!(
                after.revision,
                before.revision + 1,
                "one revision per event"
            );
            assert_eq!(
                effects.changes,
                furtive_core::diff(&before, after),
                "changes differ from the whole-state diff for {event:?}"
            );
            assert_eq!(
                patched(lookup, &effects),
                session.hidden_from(),
                "hidden_from patch is wrong for {event:?}"
            );
            Ok(effects)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "errors differ for {event:?}");
            assert_eq!(
                session.state(),
                &before,
                "a refused event ({}) changed the session",
                a.code()
            );
            Err(a)
        }
        (a, b) => panic!("Session and free apply disagree on {event:?}: {a:?} vs {b:?}"),
    }
}

/// A batch through `apply_all` and one by one on a copy; they must agree.
fn batch(session: &mut Session, events: Vec<Event>) -> Option<furtive_core::Effects> {
    let before = session.snapshot();
    let lookup = session.hidden_from();
    let mut one_by_one = Session::load(before.clone()).expect("own state loads");
    let mut requests = Vec::new();
    let mut log = Vec::new();
    let mut refused = None;
    for event in &events {
        match one_by_one.apply(event.clone()) {
            Ok(effects) => {
                Request::append(&mut requests, effects.requests);
                log.extend(effects.log);
            }
            Err(error) => {
                refused = Some(error);
                break;
            }
        }
    }
    let result = session.apply_all(events.clone());
    match (result, refused) {
        (Ok(effects), None) => {
            let after = session.state();
            assert_eq!(
                without_revision(after),
                without_revision(one_by_one.state()),
                "apply_all and one by one end in different states for {events:?}"
            );
            assert_eq!(
                after.revision,
                before.revision + 1,
                "one revision per batch"
            );
            assert_eq!(effects.requests, requests, "apply_all requests");
            assert_eq!(effects.log, log, "apply_all log");
            assert_eq!(
                effects.changes,
                furtive_core::diff(&before, after),
                "apply_all changes differ from the whole-state diff for {events:?}"
            );
            assert_eq!(
                patched(lookup, &effects),
                session.hidden_from(),
                "apply_all hidden_from patch is wrong for {events:?}"
            );
            Some(effects)
        }
        (Err(a), Some(b)) => {
            assert_eq!(a, b, "apply_all refuses with another error");
            assert_eq!(
                session.state(),
                &before,
                "a refused batch changed the session"
            );
            None
        }
        (a, b) => panic!("apply_all and one by one disagree on {events:?}: {a:?} vs {b:?}"),
    }
}

fn settle(session: &mut Session, event: Event, seed: u64) -> Option<furtive_core::Effects> {
    let before = session.snapshot();
    let lookup = session.hidden_from();
    let free = furtive_core::settle(&before, event.clone(), seed);
    match (session.settle(event.clone(), seed), free) {
        (Ok(effects), Ok(outcome)) => {
            let after = session.state();
            assert_eq!(&outcome.state, after, "settle: new state differs");
            assert_eq!(effects.changes, outcome.changes, "settle: changes");
            assert_eq!(effects.requests, outcome.requests, "settle: requests");
            assert_eq!(effects.log, outcome.log, "settle: log");
            assert_eq!(
                effects.changes,
                furtive_core::diff(&before, after),
                "settle changes differ from the whole-state diff for {event:?}"
            );
            assert_eq!(
                patched(lookup, &effects),
                session.hidden_from(),
                "settle hidden_from patch is wrong for {event:?}"
            );
            Some(effects)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "settle errors differ for {event:?}");
            assert_eq!(
                session.state(),
                &before,
                "a refused settle changed the session"
            );
            None
        }
        (a, b) => panic!("settle: Session and free function disagree on {event:?}: {a:?} vs {b:?}"),
    }
}

fn raw_field(ctx: &Ctx, spec: &EventSpec, field: u8, value: &RawValue) -> serde_json::Value {
    let event = ctx.event(spec);
    let mut json = serde_json::to_value(&event).expect("events serialize");
    if let Some(object) = json.as_object_mut() {
        let keys: Vec<String> = object.keys().cloned().collect();
        let key = keys[usize::from(field) % keys.len()].clone();
        let replacement = match value {
            RawValue::Null => serde_json::Value::Null,
            RawValue::Bool(b) => (*b).into(),
            RawValue::Int(i) => (*i).into(),
            RawValue::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            RawValue::Text(s) => s.clone().into(),
            RawValue::Known(t) => ctx.tok(*t).as_str().into(),
            RawValue::Remove => {
                object.remove(&key);
                return json;
            }
        };
        object.insert(key, replacement);
    }
    json
}

fn run(input: Input) {
    let count = 2 + usize::from(input.count % 5);
    let creatures = &input.creatures[..count];
    let family = &ID_FAMILIES[usize::from(input.id_family % 3)];
    let ids: Vec<TokenId> = family[..creatures.len()]
        .iter()
        .map(|s| TokenId::from(*s))
        .collect();
    let ctx = Ctx {
        ids,
        opposed: input.opposed,
    };
    let config = Config {
        ruleset: if input.opposed {
            Ruleset::Opposed
        } else {
            Ruleset::Percentile
        },
        settings: Settings {
            show_numbers_to_players: input.show_numbers,
            allow_zero_length_movement: input.allow_zero_length_movement,
            check_die: match input.check_die {
                0 => 20,
                d => u32::from(d),
            },
        },
        creatures: creatures
            .iter()
            .enumerate()
            .map(|(i, spec)| ctx.creature(family[i].into(), spec))
            .collect(),
    };
    let created = furtive_core::create_state(config.clone());
    let mut session = match (Session::new(config), created) {
        (Ok(session), Ok(state)) => {
            assert_eq!(
                session.state(),
                &state,
                "Session::new and create_state differ"
            );
            session
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "Session::new and create_state refuse differently");
            return;
        }
        (a, b) => panic!("Session::new and create_state disagree: {a:?} vs {b:?}"),
    };

    // Every accepted event since `chain_start`, for the final apply_all.
    let mut chain_start = session.snapshot();
    let mut chain: Vec<Event> = Vec::new();
    let mut pending: Vec<Request> = Vec::new();

    for step_spec in input.steps.iter().take(64) {
        match step_spec {
            Step::Event(spec) => {
                let event = ctx.event(spec);
                if let Some(effects) = step(&mut session, event.clone()) {
                    chain.push(event);
                    pending.extend(one_each(effects.requests));
                }
            }
            Step::Hide {
                hider,
                roll,
                in_view,
                totals,
            } => {
                let hider = ctx.tok(*hider);
                let enter = Event::EnterStealth {
                    hider: hider.clone(),
                    roll: ctx.roll(*roll),
                    modifiers: Some(Modifiers::default()),
                    moved: true,
                    sprinting: false,
                    precautions: Vec::new(),
                    view: Vec::new(),
                };
                let mut events = vec![enter];
                let view: Vec<ViewEntry> = ctx
                    .ids
                    .iter()
                    .enumerate()
                    .filter(|(i, id)| in_view & (1 << i) != 0 && **id != hider)
                    .map(|(i, id)| ViewEntry {
                        observer: id.clone(),
                        clear_view: true,
                        distance: Some(i as f64 * 5.0),
                    })
                    .collect();
                if !view.is_empty() {
                    events.push(Event::ViewChanged {
                        hider: hider.clone(),
                        moved: false,
                        view,
                    });
                }
                for event in events {
                    if let Some(effects) = step(&mut session, event.clone()) {
                        chain.push(event);
                        pending.extend(one_each(effects.requests));
                    }
                }
                let checks: Vec<Request> = pending
                    .iter()
                    .filter(
                        |r| matches!(r, Request::PerceptionCheck { hider: h, .. } if *h == hider),
                    )
                    .cloned()
                    .collect();
                pending.retain(|r| !checks.contains(r));
                for (request, total) in checks.iter().zip(totals.iter()) {
                    let event = ctx.answer(request, *total, false);
                    if let Some(effects) = step(&mut session, event.clone()) {
                        chain.push(event);
                        pending.extend(one_each(effects.requests));
                    }
                }
            }
            Step::Answer {
                index,
                value,
                moved,
            } => {
                if pending.is_empty() {
                    continue;
                }
                let request = pending.remove(usize::from(*index) % pending.len());
                let event = ctx.answer(&request, *value, *moved);
                if let Some(effects) = step(&mut session, event.clone()) {
                    chain.push(event);
                    pending.extend(one_each(effects.requests));
                }
            }
            Step::AnswerAll { value } => {
                let events: Vec<Event> = pending
                    .drain(..)
                    .map(|request| ctx.answer(&request, *value, true))
                    .collect();
                if events.is_empty() {
                    continue;
                }
                if let Some(effects) = batch(&mut session, events.clone()) {
                    chain.extend(events);
                    pending.extend(one_each(effects.requests));
                }
            }
            Step::Batch(specs) => {
                let events: Vec<Event> = specs.iter().take(8).map(|s| ctx.event(s)).collect();
                if let Some(effects) = batch(&mut session, events.clone()) {
                    chain.extend(events);
                    pending.extend(one_each(effects.requests));
                }
            }
            Step::Settle(spec, seed) => {
                if let Some(effects) = settle(&mut session, ctx.event(spec), *seed) {
                    // The roller's answers are not events of the chain:
                    // the final check starts again from here.
                    chain_start = session.snapshot();
                    chain.clear();
                    pending.extend(one_each(effects.requests));
                }
            }
            Step::Query(query) => ctx.query(session.state(), query),
            Step::Raw(text) => {
                // Read straight from its text, an event is what the `Value`
                // reader makes of it: the same event or the same refusal.
                let from_text = furtive_json::read::event("event", text.as_str());
                let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
                    assert_eq!(from_text.map_err(|e| e.code()), Err("invalid_input"));
                    continue;
                };
                let from_value =
                    furtive_json::read::read_tagged::<Event, EventByName>("event", "type", value);
                assert_eq!(
                    from_text, from_value,
                    "text and Value readers disagree on {text}"
                );
                if let Ok(event) = from_value {
                    if let Some(effects) = step(&mut session, event.clone()) {
                        chain.push(event);
                        pending.extend(one_each(effects.requests));
                    }
                }
            }
            Step::RawField {
                event,
                field,
                value,
            } => {
                let json = raw_field(&ctx, event, *field, value);
                // The JSON facade on the snapshot agrees with the session.
                let state_json = serde_json::to_value(session.state()).expect("state serializes");
                let facade =
                    furtive_json::functions::apply::<serde_json::Value>(state_json, json.clone());
                match furtive_json::read::event("event", json) {
                    Ok(event) => {
                        let accepted = step(&mut session, event.clone());
                        match (&accepted, &facade) {
                            (Some(_), Ok(outcome)) => assert_eq!(
                                outcome["state"],
                                serde_json::to_value(session.state()).unwrap(),
                                "JSON facade and Session end in different states"
                            ),
                            (None, Err(_)) => {}
                            _ => {
                                panic!("JSON facade and Session disagree on {event:?}: {facade:?}")
                            }
                        }
                        if let Some(effects) = accepted {
                            chain.push(event);
                            pending.extend(one_each(effects.requests));
                        }
                    }
                    Err(error) => {
                        assert_eq!(
                            facade.err().map(|e| e.code()),
                            Some(error.code()),
                            "JSON facade and parse_event refuse differently"
                        );
                    }
                }
            }
        }
        pending.truncate(32);
    }

    // apply_all of every accepted event equals the step-by-step result.
    if !chain.is_empty() {
        let mut replay = Session::load(chain_start.clone()).expect("own state loads");
        let effects = replay
            .apply_all(chain.clone())
            .unwrap_or_else(|e| panic!("apply_all refuses accepted events {chain:?}: {e:?}"));
        assert_eq!(
            without_revision(replay.state()),
            without_revision(session.state()),
            "apply_all of the accepted events differs from step by step"
        );
        assert_eq!(
            effects.changes,
            furtive_core::diff(&chain_start, replay.state()),
            "apply_all changes differ from the whole-state diff"
        );
    }

    // The snapshot survives a JSON round trip.
    let json = serde_json::to_value(session.state()).expect("state serializes");
    let loaded = Session::load_json(json.clone())
        .unwrap_or_else(|e| panic!("a session's own snapshot does not load: {e:?}\n{json}"));
    assert_eq!(loaded.state(), session.state(), "snapshot round trip");
}

fuzz_target!(|input: Input| run(input));

/// `requests` with each Perception check split into one request per
/// observer, so the steps answer the observers one at a time.
fn one_each(requests: Vec<Request>) -> impl Iterator<Item = Request> {
    requests.into_iter().flat_map(|request| match request {
        Request::PerceptionCheck {
            hider,
            observers,
            clause,
        } => observers
            .into_iter()
            .map(|observer| Request::PerceptionCheck {
                hider: hider.clone(),
                observers: vec![observer],
                clause,
            })
            .collect(),
        other => vec![other],
    })
}

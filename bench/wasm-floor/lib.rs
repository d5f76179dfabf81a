//! Every engine entry point the bindings call, reached with inputs the
//! optimizer cannot see through (`black_box`) and outputs it must keep,
//! but with no JSON and no serde in between: what the wasm would weigh if
//! parsing and serialization cost nothing. See scripts/wasm-floor.sh.

use std::hint::black_box;

use furtive_core::query::{
    attack_hidden, can_defend, can_locate, can_pickpocket, hidden_from, knockout, perceives,
    DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery,
};
use furtive_core::scene::{ClearViewQuery, Grid, SceneLayout, SightEnd, TokenRef};
use furtive_core::state::{Config, Creature, Ruleset, Settings};
use furtive_core::{apply, create_state, roll_requests, settle, validate_state, Error, Event};
use furtive_core::{Request, Scene};
use wasm_bindgen::prelude::wasm_bindgen;

/// Keeps a result: the value, or the error's code and message.
fn keep<T>(result: Result<T, Error>) {
    match result {
        Ok(value) => {
            black_box(&value);
        }
        Err(error) => {
            black_box(error.code());
            black_box(error.to_string());
        }
    }
}

fn pair() -> PairQuery {
    black_box(PairQuery {
        observer: "a".into(),
        hider: "b".into(),
    })
}

/// Entry point `which` (0..=11) of the engine.
#[wasm_bindgen]
pub fn floor(which: u32) {
    let config = black_box(Config {
        ruleset: Ruleset::Opposed,
        settings: Settings::default(),
        creatures: vec![Creature::new("a")],
    });
    let state = match create_state(config) {
        Ok(state) => black_box(state),
        Err(error) => return keep::<()>(Err(error)),
    };
    match which {
        0 => keep(apply(&state, black_box(Event::CombatEnd {}))),
        1 => keep(perceives(&state, &pair())),
        2 => keep(can_locate(&state, &pair())),
        3 => keep(can_defend(
            &state,
            &black_box(DefenseQuery {
                defender: "a".into(),
                target: "b".into(),
                attacker: "c".into(),
            }),
        )),
        4 => keep(knockout(
            &state,
            &black_box(KnockoutQuery {
                attacker: "a".into(),
                target: "b".into(),
                helmet: false,
                raw_damage: None,
                d100: None,
            }),
        )),
        5 => keep(can_pickpocket(
            &state,
            &black_box(PickpocketQuery {
                hider: "a".into(),
                target: "b".into(),
                held: false,
                visible: false,
            }),
        )),
        6 => keep(attack_hidden(
            &state,
            &black_box(HiddenAttackQuery {
                attacker: "a".into(),
                target: "b".into(),
                aimed_at_space: false,
                area: false,
            }),
        )),
        7 => keep(hidden_from(&state)),
        8 => keep(roll_requests(
            &state,
            &black_box(Vec::<Request>::new()),
            black_box(5),
        )),
        9 => keep(settle(&state, black_box(Event::CombatEnd {}), black_box(5))),
        10 => keep(validate_state(&state)),
        _ => {
            let scene = black_box(Scene {
                furtive_scene: 1,
                layout: SceneLayout::V10,
                id: None,
                name: None,
                width: None,
                height: None,
                grid: Grid {
                    size: 100.0,
                    distance: 5.0,
                    units: "ft".into(),
                    grid_type: None,
                },
                walls: vec![],
                tokens: vec![],
                lights: vec![],
                floors: vec![],
                holes: vec![],
                darkness: 0.0,
                global_light: false,
                global_light_darkness: None,
            });
            black_box(scene.clear_view_matrix(&scene.tokens));
            let query = black_box(ClearViewQuery {
                from: SightEnd::Token(TokenRef {
                    token_id: "a".into(),
                }),
                to: SightEnd::Token(TokenRef {
                    token_id: "b".into(),
                }),
                darkvision: None,
            });
            keep(scene.answer(&query));
        }
    }
}

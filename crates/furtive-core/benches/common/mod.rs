//! The tables and events of the session benches (`session.rs`, timed by
//! criterion, and `instructions.rs`, counted by callgrind): written once so
//! both measure the same work.

use furtive_core::state::{Config, Creature, Ruleset, Settings};
use furtive_core::{Event, Session, State, ViewEntry};

/// The table sizes: creatures, a quarter of them hiding.
pub const SIZES: [usize; 5] = [3, 20, 100, 200, 1000];
/// Observers named by one `viewChanged` (all of them when fewer).
pub const NAMED: usize = 150;

/// A token id shaped like Foundry's (16 letters and digits), fixed by `i`.
pub fn id(i: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut seed = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..16)
        .map(|_| {
            seed ^= seed >> 29;
            seed = seed.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            ALPHABET[(seed >> 40) as usize % ALPHABET.len()] as char
        })
        .collect()
}

/// `size` creatures, the first quarter (at least one) hiding (`opposed`,
/// held total 15, nobody in view at entry).
pub fn table(size: usize) -> State {
    let creatures = (0..size)
        .map(|i| {
            let mut creature = Creature::new(id(i));
            creature.side = if i % 2 == 0 { "party" } else { "watch" }.into();
            creature.perception_modifier = (i % 7) as i64;
            creature
        })
        .collect();
    let mut session = Session::new(Config {
        ruleset: Ruleset::Opposed,
        settings: Settings::default(),
        creatures,
    })
    .unwrap();
    for i in 0..(size / 4).max(1) {
        session.apply(enter_stealth(i)).unwrap();
    }
    session.into_state()
}

/// Token `i` enters stealth with a held total of 15, nobody in view.
pub fn enter_stealth(i: usize) -> Event {
    Event::EnterStealth {
        hider: id(i),
        roll: 15,
        modifiers: None,
        moved: true,
        sprinting: false,
        precautions: Vec::new(),
        view: Vec::new(),
    }
}

/// The first hider's view of up to 150 other creatures, all at `distance`;
/// the first `in_view` of them in clear view, the others not.
pub fn view(size: usize, in_view: usize, distance: f64) -> Event {
    Event::ViewChanged {
        hider: id(0),
        moved: false,
        view: (1..size)
            .take(NAMED)
            .enumerate()
            .map(|(n, i)| ViewEntry {
                observer: id(i),
                clear_view: n < in_view,
                distance: Some(distance),
            })
            .collect(),
    }
}

/// How many observers [`view`] names at `size` creatures.
pub fn named(size: usize) -> usize {
    NAMED.min(size - 1)
}

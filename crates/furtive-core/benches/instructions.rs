//! Instructions per `Session::apply`, counted by callgrind: a count does
//! not depend on the machine's load, so two runs (old and new code) compare
//! exactly where criterion's times (`session.rs`) would drift.
//!
//! Run: `cargo bench -p furtive-core --bench instructions` (needs
//! valgrind). For each scenario and table size (`common::SIZES`, a quarter
//! of the creatures hiding, `opposed`) the binary runs itself under
//! `valgrind --tool=callgrind`, collecting inside `measured_apply` only
//! (one `Session::apply`, the event moved in, the effects handed back and
//! dropped outside), and prints the instructions per call. The callgrind
//! files stay in `target/callgrind/` for `callgrind_annotate --inclusive=yes`.
//!
//! Scenarios, each one `viewChanged` of the first hider naming 150
//! observers (all of them when fewer):
//! - `none`: the named observers are already recorded out of clear view at
//!   5 ft and stay so: no pair changes (a token drag among observers that
//!   stay out of view);
//! - `one`: as `none`, but the first named observer comes into clear view:
//!   one pair changes and asks for an O4 Perception check;
//! - `all`: nobody recorded yet, every named observer comes into clear
//!   view: every pair is created and asks for a check (one request naming
//!   the 150 observers, 150 log entries).
//!
//! And one `upsertCreature`:
//! - `join`: a new creature joins the table: it is inserted among the
//!   creatures, and a pair for it into every hider's pairs (a quarter of
//!   the table), out of view, no check asked.
//!
//! Between two measured calls the session is put back (`stopHiding`,
//! `enterStealth`, and for `one` the view out of sight; for `join`,
//! `tokenRemoved`), uncounted.
//! Arguments after the bench flags filter the scenarios (`none`, `one`,
//! `all`, `join`) and sizes (`3`, `200`...).

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

use furtive_core::{Effects, Event, Session};

mod common;
use common::{enter_stealth, id, named, table, view, NAMED, SIZES};

/// Measured calls per run (the count printed is their mean).
const CALLS: u64 = 10;
const SCENARIOS: [&str; 4] = ["none", "one", "all", "join"];

/// The one function callgrind counts (`--toggle-collect`).
#[inline(never)]
fn measured_apply(session: &mut Session, event: Event) -> Effects {
    session.apply(event).unwrap()
}

/// The same call, uncounted: the warm-up.
#[inline(never)]
fn warm_up_apply(session: &mut Session, event: Event) -> Effects {
    session.apply(event).unwrap()
}

/// Under callgrind: `CALLS` measured calls of `scenario` at `size`.
fn measure(scenario: &str, size: usize) {
    let mut session = Session::load(table(size)).unwrap();
    let (event, reset, requests) = match scenario {
        "none" => {
            session.apply(view(size, 0, 5.0)).unwrap();
            (view(size, 0, 5.0), Vec::new(), 0)
        }
        "one" => {
            session.apply(view(size, 0, 5.0)).unwrap();
            let reset = vec![
                Event::StopHiding { hider: id(0) },
                enter_stealth(0),
                view(size, 0, 5.0),
            ];
            (view(size, 1, 5.0), reset, 1)
        }
        "all" => {
            let reset = vec![Event::StopHiding { hider: id(0) }, enter_stealth(0)];
            (view(size, NAMED, 5.0), reset, named(size))
        }
        "join" => {
            // A token id that sorts among the others, not after them all.
            let joining = id(size);
            let event = Event::UpsertCreature {
                creature: furtive_core::state::Creature::new(joining.clone()),
            };
            (event, vec![Event::TokenRemoved { token: joining }], 0)
        }
        other => panic!("unknown scenario {other}"),
    };
    let reset_session = |session: &mut Session| {
        if !reset.is_empty() {
            black_box(session.apply_all(reset.clone()).unwrap());
        }
    };
    let effects = warm_up_apply(&mut session, event.clone());
    assert_eq!(checks_asked(&effects), requests);
    reset_session(&mut session);
    for _ in 0..CALLS {
        let effects = black_box(measured_apply(&mut session, event.clone()));
        assert_eq!(checks_asked(&effects), requests);
        drop(effects);
        reset_session(&mut session);
    }
}

/// The total instructions of a callgrind output file (`summary:` line).
fn collected(path: &PathBuf) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("summary:"))
        .or_else(|| text.lines().find_map(|line| line.strip_prefix("totals:")))
        .and_then(|n| n.trim().parse().ok())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("measure") {
        measure(&args[2], args[3].parse().unwrap());
        return;
    }
    let filters: Vec<&str> = args[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| filters.is_empty() || filters.contains(&name);
    let scenarios: Vec<&str> = SCENARIOS.into_iter().filter(|s| wanted(s)).collect();
    let sizes: Vec<usize> = SIZES
        .into_iter()
        .filter(|s| wanted(&s.to_string()))
        .collect();
    let (scenarios, sizes) = (
        if scenarios.is_empty() {
            SCENARIOS.to_vec()
        } else {
            scenarios
        },
        if sizes.is_empty() {
            SIZES.to_vec()
        } else {
            sizes
        },
    );
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("instructions: valgrind is not installed; nothing measured");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/instructions-* -> target/callgrind
    let out_dir = exe.ancestors().nth(3).unwrap().join("callgrind");
    std::fs::create_dir_all(&out_dir).unwrap();
    println!("instructions per Session::apply (mean of {CALLS} calls, callgrind)");
    println!(
        "{:<8} {:>6} {:>12} {:>10}",
        "scenario", "size", "per call", "per named (join: per hider)"
    );
    for scenario in &scenarios {
        for &size in &sizes {
            let out = out_dir.join(format!("{scenario}-{size}.out"));
            let status = Command::new("valgrind")
                .arg("--tool=callgrind")
                .arg("--toggle-collect=*measured_apply*")
                .arg(format!("--callgrind-out-file={}", out.display()))
                .arg(&exe)
                .args(["measure", scenario, &size.to_string()])
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "callgrind run {scenario} {size} failed");
            let total = collected(&out).expect("a callgrind summary");
            let per_call = total / CALLS;
            // `join` names no observer: a count per hider instead.
            let per = if *scenario == "join" {
                (size / 4).max(1)
            } else {
                named(size)
            };
            println!(
                "{scenario:<8} {size:>6} {per_call:>12} {:>10}",
                per_call / per as u64
            );
        }
    }
}

/// How many observers the effects ask for a Perception check.
fn checks_asked(effects: &furtive_core::Effects) -> usize {
    effects
        .requests
        .iter()
        .map(|request| match request {
            furtive_core::Request::PerceptionCheck { observers, .. } => observers.len(),
            _ => 1,
        })
        .sum()
}

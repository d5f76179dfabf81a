//! State format version 1 -> 2 (`furtive_core::migrate`).
//!
//! `fixtures/state-v1.json` holds version 1 states copied from the shared
//! vector goldens before format version 2; each must migrate to that step
//! of today's golden, so the goldens changed exactly by the migration (and
//! by the new `revision`). The other tests pin each rule of the migration.

use std::fs;
use std::path::Path;

use furtive_core::migrate::{migrate_v1, read_state};
use furtive_core::{Session, STATE_VERSION};
use serde_json::{json, Value};

fn without_revision(mut state: Value) -> Value {
    if let Some(object) = state.as_object_mut() {
        object.remove("revision");
    }
    state
}

#[test]
fn version_1_goldens_migrate_to_the_version_2_goldens() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture: Value = serde_json::from_str(
        &fs::read_to_string(root.join("tests/fixtures/state-v1.json")).unwrap(),
    )
    .unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 6);
    for case in cases {
        let name = case["golden"].as_str().unwrap();
        let step = case["step"].as_u64().unwrap() as usize;
        let v1 = case["v1"].clone();
        assert_eq!(v1["version"], 1, "{name}");
        let golden: Value = serde_json::from_str(
            &fs::read_to_string(root.join(format!("../../tests/vectors/golden/{name}.json")))
                .unwrap(),
        )
        .unwrap();
        let v2 = golden[step]["ok"]["state"].clone();
        assert_eq!(v2["version"], STATE_VERSION, "{name} step {step}");
        assert_eq!(
            without_revision(migrate_v1(v1.clone())),
            without_revision(v2.clone()),
            "{name} step {step}: the golden changed by more than the migration"
        );
        // Loading the version 1 snapshot gives the version 2 state at revision 0.
        let session = Session::load_json(v1).unwrap();
        let mut expected = v2;
        expected["revision"] = json!(0);
        assert_eq!(serde_json::to_value(session.snapshot()).unwrap(), expected);
    }
}

fn v1_percentile() -> Value {
    json!({
        "version": 1, "ruleset": "percentile",
        "creatures": { "spy": { "id": "spy", "stealthSkill": 60 }, "guard": { "id": "guard" } },
        "hiders": { "spy": {
            "phase": "hiding", "d100": 40, "score": 100, "stale": true,
            "modifiers": { "situation": [], "free": [] },
            "pendingModifiers": { "situation": ["dark"], "free": [] },
            "heldTotal": null, "penalties": [], "precautions": [], "movedThisTurn": false,
            "pairs": { "guard": { "perceived": false, "reason": "acuity_comparison", "clearView": false,
                "distance": null, "perceptionTotal": null, "checkPending": false, "exposed": false } }
        } }
    })
}

#[test]
fn migration_drops_stale_exposed_false_and_the_other_rulesets_fields() {
    let v2 = migrate_v1(v1_percentile());
    let spy = &v2["hiders"]["spy"];
    assert_eq!(v2["version"], 2);
    for gone in ["stale", "heldTotal", "penalties", "precautions"] {
        assert!(spy.get(gone).is_none(), "{gone} kept");
    }
    assert!(spy["pairs"]["guard"].get("exposed").is_none());
    // `stale` survives as `pendingModifiers`, which it duplicated.
    assert_eq!(spy["pendingModifiers"]["situation"], json!(["dark"]));
    let state = read_state("state", v1_percentile()).unwrap();
    assert_eq!(
        state
            .hiders
            .get("spy")
            .unwrap()
            .pending_modifiers()
            .map(|m| m.situation.len()),
        Some(1)
    );
    assert_eq!(state.revision, 0);
}

#[test]
fn migration_of_an_opposed_hider_drops_the_percentile_fields() {
    let v1 = json!({
        "version": 1, "ruleset": "opposed",
        "creatures": { "rogue": { "id": "rogue" }, "guard": { "id": "guard" } },
        "hiders": { "rogue": {
            "phase": "hiding", "d100": null, "score": null, "stale": false,
            "modifiers": { "situation": [], "free": [] }, "pendingModifiers": null,
            "heldTotal": 12, "penalties": [], "precautions": ["smell"], "movedThisTurn": true,
            "pairs": { "guard": { "perceived": false, "reason": "perception_check", "clearView": true,
                "perceptionTotal": 3, "checkPending": false, "exposed": true } }
        } }
    });
    let session = Session::load_json(v1).unwrap();
    let hider = session.state().hiders.get("rogue").unwrap();
    assert_eq!(hider.held_total(), Some(12));
    assert_eq!(hider.score(), None);
    assert_eq!(hider.precautions(), ["smell"]);
    // O5: the pair is exposed now, and version 2 remembers it until the
    // hider's turn end.
    assert!(hider.pairs.get("guard").unwrap().is_exposed());
    assert!(hider.pairs.get("guard").unwrap().exposed);
    let snapshot = serde_json::to_value(session.snapshot()).unwrap();
    assert_eq!(
        snapshot["hiders"]["rogue"],
        json!({
            "phase": "hiding", "heldTotal": 12, "penalties": [], "precautions": ["smell"],
            "movedThisTurn": true,
            "pairs": { "guard": { "perceived": false, "reason": "perception_check", "clearView": true,
                "distance": null, "perceptionTotal": 3, "checkPending": false, "exposed": true } }
        })
    );
}

#[test]
fn a_version_2_hider_with_a_field_of_the_other_ruleset_is_refused() {
    let mut v2 = migrate_v1(v1_percentile());
    v2["hiders"]["spy"]["heldTotal"] = json!(3);
    let error = Session::load_json(v2).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(
        error
            .to_string()
            .starts_with("state.hiders.spy.heldTotal: not a field of a `percentile` hider"),
        "{error}"
    );
}

#[test]
fn a_version_1_hider_without_its_roll_is_refused_naming_the_field() {
    let mut v1 = v1_percentile();
    v1["hiders"]["spy"].as_object_mut().unwrap().remove("score");
    let error = Session::load_json(v1).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(
        error.to_string().starts_with("state.hiders.spy.score:"),
        "{error}"
    );
}

#[test]
fn version_2_loads_as_it_is_and_other_versions_are_refused() {
    let v2 = migrate_v1(v1_percentile());
    let state = read_state("state", v2.clone()).unwrap();
    assert_eq!(state.version, 2);
    let again = read_state("state", serde_json::to_value(&state).unwrap()).unwrap();
    assert_eq!(again, state);
    for version in [0, 3, 99] {
        let mut other = v2.clone();
        other["version"] = json!(version);
        let error = Session::load_json(other).unwrap_err();
        assert_eq!(error.code(), "unsupported_version");
    }
    // The typed reader (serde) reads the version 2 shape only: a version 1
    // hider's `stale` is an unknown field there.
    assert!(serde_json::from_value::<furtive_core::State>(v1_percentile()).is_err());
}

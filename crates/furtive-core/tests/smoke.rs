use furtive_core::api;
use serde_json::json;

#[test]
fn p1_p3_smoke_through_the_json_facade() {
    let state = api::create_state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "stealthSkill": 49},
            {"id": "tie", "acuities": {"visual": 30, "auditory": 20, "olfactory": 17}},
            {"id": "low", "acuities": {"visual": 30, "auditory": 20, "olfactory": 16}}
        ]
    }))
    .unwrap();
    let outcome = api::apply(
        state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    )
    .unwrap();
    assert_eq!(outcome["state"]["hiders"]["spy"]["score"], 67);
    assert_eq!(
        outcome["state"]["hiders"]["spy"]["pairs"]["tie"]["perceived"],
        true
    );
    assert_eq!(
        outcome["state"]["hiders"]["spy"]["pairs"]["low"]["perceived"],
        false
    );
    println!("{}", serde_json::to_string_pretty(&outcome).unwrap());
}

//! Numbers are read exactly from JSON text (serde_json `float_roundtrip`).

use furtive_core::Event;

#[test]
fn a_decimal_one_unit_below_two_is_read_exactly() {
    let x = 1.999_999_999_999_999_8_f64;
    assert!(x < 2.0);
    let value = furtive_json::read::json("scene", r#"{"x": 1.9999999999999998}"#).unwrap();
    assert_eq!(value["x"].as_f64().unwrap().to_bits(), x.to_bits());
    let event = furtive_json::read::event(
        "event",
        furtive_json::read::json(
            "event",
            r#"{"type":"viewChanged","hider":"h","view":[{"observer":"o","clearView":true,"distance":1.9999999999999998}]}"#,
        )
        .unwrap(),
    )
    .unwrap();
    let Event::ViewChanged { view, .. } = event else {
        panic!("not a viewChanged");
    };
    assert_eq!(view[0].distance.unwrap().to_bits(), x.to_bits());
}

#[test]
fn random_doubles_survive_a_text_round_trip() {
    // A fixed linear congruential walk over bit patterns: finite doubles of
    // every magnitude, each printed shortest-exact and read back.
    let mut bits: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut checked = 0;
    for _ in 0..20_000 {
        bits = bits
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let x = f64::from_bits(bits);
        if !x.is_finite() {
            continue;
        }
        let text = format!("[{x:?}]");
        let value = furtive_json::read::json("x", &text).unwrap();
        assert_eq!(value[0].as_f64().unwrap().to_bits(), x.to_bits(), "{text}");
        checked += 1;
    }
    assert!(checked > 19_000);
}

/// The bindings' results are ASCII JSON text (`api::to_json_text`): every
/// character beyond U+007F escaped, and read back as the same value.
#[test]
fn results_are_ascii_json_text_that_reads_back_the_same() {
    let value = serde_json::json!({
        "fr": "L'observateur « Garde » perçoit l'espionne à 5 m.",
        "astral": "dé 🎲 fin",
        "escaped": "quote \" backslash \\ tab \t",
        "plain": "no accents",
        "n": [1, 2.5, -3],
    });
    let text = furtive_json::write::to_text(&value).unwrap();
    assert!(text.is_ascii(), "{text}");
    assert!(text.contains(r"per\u00e7oit"), "{text}");
    assert!(text.contains(r"\u00ab Garde \u00bb"), "{text}");
    // Beyond U+FFFF: the UTF-16 surrogate pair, as JSON.parse expects.
    assert!(text.contains(r"d\u00e9 \ud83c\udfb2 fin"), "{text}");
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, value);
}

proptest::proptest! {
    /// Any string (accents first, last or side by side, characters beyond
    /// U+FFFF, control characters and quotes among them) is written as
    /// ASCII JSON text that reads back as the same string, the same as
    /// serde_json's own writer reads back.
    #[test]
    fn any_string_is_written_as_ascii_text_that_reads_back_the_same(text in "\\PC{0,40}|[aé🎲\"\\\\\u{7f}\u{80}\u{ffff}\u{10000}\n]{0,12}") {
        let written = furtive_json::write::to_text(&text).unwrap();
        proptest::prop_assert!(written.is_ascii(), "{}", written);
        let back: String = serde_json::from_str(&written).unwrap();
        proptest::prop_assert_eq!(back, text);
    }
}

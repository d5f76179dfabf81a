//! The message catalog (B3): every template well formed in both
//! languages, keys numbered and named once, messages rendered with their
//! arguments; clause ids as JSON writes them.

use furtive_core::message::{render_result, Arg, Key, Language, Message};
use furtive_core::Clause;

/// The placeholders of a template.
fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').expect("every `{` is closed");
        names.push(&after[..close]);
        rest = &after[close + 1..];
    }
    names
}

#[test]
fn b3_every_template_is_well_formed_and_both_languages_take_the_same_arguments() {
    for key in Key::ALL {
        let (en, fr) = (key.template(Language::En), key.template(Language::Fr));
        assert!(!en.is_empty() && !fr.is_empty(), "{key:?}");
        assert!(!en.contains('}') || en.matches('{').count() == en.matches('}').count());
        let mut en_names = placeholders(en);
        let mut fr_names = placeholders(fr);
        en_names.sort_unstable();
        en_names.dedup();
        fr_names.sort_unstable();
        fr_names.dedup();
        for name in &en_names {
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
                "{key:?}: placeholder `{name}`"
            );
        }
        assert_eq!(en_names, fr_names, "{key:?}");
        let mut declared = key.args().to_vec();
        declared.sort_unstable();
        assert_eq!(declared, en_names, "{key:?}: its declared arguments");
    }
}

#[test]
fn b3_a_key_is_numbered_by_its_place_in_the_catalog() {
    for (place, key) in Key::ALL.iter().enumerate() {
        assert_eq!(*key as usize, place);
    }
}

#[test]
fn b3_key_names_are_unique() {
    let mut names: Vec<&str> = Key::ALL.iter().map(|key| key.name()).collect();
    names.sort_unstable();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count);
}

#[test]
fn b3_a_message_renders_its_arguments_in_each_language() {
    let message = Message::new(Key::P1StealthScore)
        .with("hider", "Ghost")
        .with("score", 87i64)
        .with("stealthSkill", 50u32)
        .with("tier", Message::new(Key::P1TierWhole).with("d100", 37u32))
        .with("modifierTotal", "+50")
        .with(
            "modifiers",
            Arg::List(vec![
                Message::new(Key::Modifier)
                    .with("name", Key::SituationDark)
                    .with("value", "+50")
                    .into(),
                Message::new(Key::Modifier)
                    .with("name", "wind")
                    .with("value", "-5")
                    .into(),
            ]),
        );
    assert_eq!(
        message.en(),
        "Ghost: stealth score 87 = Furtivité 50 + d100 37 + modifiers +50 (dark +50, wind -5) (P1, P2)."
    );
    assert_eq!(
        message.fr(),
        "Ghost : score de furtivité 87 = Furtivité 50 + d100 37 + modificateurs +50 (obscurité +50, wind -5) (P1, P2)."
    );
}

#[test]
fn b3_a_rendered_json_result_reads_as_the_message() {
    let message = Message::new(Key::O4CheckRequested)
        .with("observer", "Guard")
        .with("hider", "Ghost")
        .with("effective", i64::MIN);
    let mut result = serde_json::json!({
        "allowed": true,
        "message": serde_json::to_value(&message).unwrap(),
        "log": [{ "clause": "O4", "message": serde_json::to_value(&message).unwrap() }],
    });
    render_result(&mut result);
    assert_eq!(result["en"], message.en());
    assert_eq!(result["fr"], message.fr());
    assert_eq!(result["log"][0]["en"], message.en());
    assert!(result.get("message").is_none());
    assert_eq!(
        message.en(),
        "Guard comes into clear view of Ghost: immediate Perception check against -9223372036854775808 (O4)."
    );
}

#[test]
fn clause_ids_serialize_as_their_ids() {
    for clause in Clause::ALL {
        assert_eq!(
            serde_json::to_value(clause).unwrap(),
            serde_json::Value::from(clause.id())
        );
    }
    assert_eq!(Clause::O13.id(), "O13");
    assert_eq!(Clause::ALL.len(), 11 + 13 + 5 + 1);
}

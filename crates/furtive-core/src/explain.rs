//! What the rules say when they decide (B3): every explanation, in English
//! and French, kept out of the rule functions so a rule reads as a rule.
//! Each function is named after the clause and the decision it explains;
//! the rule picks the function and the clause, this module the words. GM
//! texts carry the numbers; a public text carries none, unless the P2
//! setting shows numbers to players (see [`crate::context::Ctx::both`]).

use std::fmt::Display;

use crate::state::Modifiers;

/// Room for one explanation: most are one sentence under 160 bytes.
const SENTENCE_CAPACITY: usize = 160;

/// `format!` into a string allocated once. (`format!` starts from an empty
/// string when the text opens with an argument, as most explanations do,
/// and grows it four or five times.)
macro_rules! sentence {
    ($($arg:tt)*) => {{
        use std::fmt::Write as _;
        let mut sentence = String::with_capacity(SENTENCE_CAPACITY);
        // Writing into a String cannot fail.
        let _ = write!(sentence, $($arg)*);
        sentence
    }};
}

/// `head`, then `number`, then `tail`, in one string allocated once: the
/// same bytes as `sentence!` with the number last, for the explanations an
/// event writes once per named observer, where `format!`'s per-argument
/// dispatch shows in the profile.
fn joined(head: &[&str], number: i64, tail: &str) -> String {
    // 20 bytes: the longest i64 ("-9223372036854775808").
    let length = head.iter().map(|part| part.len()).sum::<usize>() + 20 + tail.len();
    let mut text = String::with_capacity(length);
    for part in head {
        text.push_str(part);
    }
    // `itoa` writes the digits as `{number}` does (an optional `-`, then
    // the digits): `write!` costs more than the rest of this function.
    text.push_str(itoa::Buffer::new().format(number));
    text.push_str(tail);
    text
}

/// One explanation in both languages.
pub(crate) struct Text {
    pub en: String,
    pub fr: String,
}

/// A GM explanation with numbers and its public version without them.
pub(crate) struct Explained {
    pub gm: Text,
    pub public: Text,
}

/// B3: a creature joined the scene, or its data changed.
pub(crate) fn b3_creature_upserted(name: impl Display, existed: bool) -> Text {
    if existed {
        Text {
            en: sentence!("{name} updated."),
            fr: sentence!("{name} mis à jour."),
        }
    } else {
        Text {
            en: sentence!("{name} joins the scene."),
            fr: sentence!("{name} entre dans la scène."),
        }
    }
}

// ---------------------------------------------------------------- Events both rulesets share

/// Combat ended: every surprise ends.
pub(crate) fn p6_combat_ended() -> Text {
    Text {
        en: "Combat ended: every surprise ends.".to_owned(),
        fr: "Fin du combat : toutes les surprises prennent fin.".to_owned(),
    }
}

/// … left the scene: its pairs are removed.
pub(crate) fn b3_token_removed(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} left the scene: its pairs are removed."),
        fr: sentence!("{label} quitte la scène : ses paires sont retirées."),
    }
}

/// … stops hiding: everyone perceives them.
pub(crate) fn b3_stopped_hiding(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} stops hiding: everyone perceives them."),
        fr: sentence!("{label} cesse de se cacher : tout le monde le perçoit."),
    }
}

/// GM override: … … ….
pub(crate) fn gm_override(
    observer_label: impl Display,
    en: impl Display,
    hider_label: impl Display,
    fr: impl Display,
) -> Text {
    Text {
        en: sentence!("GM override: {observer_label} {en} {hider_label}."),
        fr: sentence!("Décision du MJ : {observer_label} {fr} {hider_label}."),
    }
}

// ---------------------------------------------------------------- Ruleset `percentile`

/// P1: the tier term of the score, for explanations.
fn describe_tier(stealth_skill: u32, d100: u32) -> (String, String) {
    let t = crate::percentile::tier_value(stealth_skill, d100);
    if stealth_skill < 50 {
        (
            format!("d100 {d100} ÷ 2 = {t}"),
            format!("d100 {d100} ÷ 2 = {t}"),
        )
    } else if stealth_skill < 100 {
        (format!("d100 {d100}"), format!("d100 {d100}"))
    } else {
        (
            format!("1.5 × d100 {d100} = {t}"),
            format!("1,5 × d100 {d100} = {t}"),
        )
    }
}

/// The active modifiers for explanations, in English and French (B3).
/// (Fix: the empty list and unlabelled GM modifiers were English in the
/// French text; B3/P2 Fix: situation modifiers were named by their ids.)
fn describe_modifiers(modifiers: &Modifiers) -> (String, String) {
    let mut en: Vec<String> = Vec::new();
    let mut fr: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    for m in &modifiers.situation {
        if !seen.contains(m) {
            seen.push(*m);
            let (name_en, name_fr) = m.names();
            en.push(format!("{name_en} {:+}", m.value()));
            fr.push(format!("{name_fr} {:+}", m.value()));
        }
    }
    for m in &modifiers.free {
        let (label_en, label_fr) = if m.label.is_empty() {
            ("GM", "MJ")
        } else {
            (m.label.as_str(), m.label.as_str())
        };
        en.push(format!("{label_en} {:+}", m.value));
        fr.push(format!("{label_fr} {:+}", m.value));
    }
    if en.is_empty() {
        ("none".into(), "aucun".into())
    } else {
        (en.join(", "), fr.join(", "))
    }
}

/// … observer(s) already perceive …: already perceived -100 is added (P9).
pub(crate) fn p9_already_perceived_added(perceiving: impl Display, label: impl Display) -> Text {
    Text {
        en: sentence!("{perceiving} observer(s) already perceive {label}: already perceived -100 is added (P9)."),
        fr: sentence!("{perceiving} observateur(s) perçoivent déjà {label} : déjà perçu -100 s'applique (P9)."),
    }
}

/// …: stealth score … = Furtivité … + … + modifiers … (…) (P1, P2).
pub(crate) fn p1_stealth_score(
    label: impl Display,
    score: impl Display,
    stealth_skill: u32,
    d100: u32,
    modifiers: &Modifiers,
) -> Explained {
    let (tier_en, tier_fr) = describe_tier(stealth_skill, d100);
    let (list_en, list_fr) = describe_modifiers(modifiers);
    let modifier_total = modifiers.total();
    Explained {
        gm: Text {
            en: sentence!("{label}: stealth score {score} = Furtivité {stealth_skill} + {tier_en} + modifiers {modifier_total:+} ({list_en}) (P1, P2)."),
            fr: sentence!("{label} : score de furtivité {score} = Furtivité {stealth_skill} + {tier_fr} + modificateurs {modifier_total:+} ({list_fr}) (P1, P2)."),
        },
        public: Text {
            en: sentence!("{label} makes a stealth roll."),
            fr: sentence!("{label} fait un jet de Furtivité."),
        },
    }
}

/// score … ≤ acuity sum …: … perceives … (P3).
pub(crate) fn p3_perceives(
    score: impl Display,
    acuity_sum: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Text {
    Text {
        en: sentence!("score {score} ≤ acuity sum {acuity_sum}: {observer_label} perceives {hider_label} (P3)."),
        fr: sentence!("score {score} ≤ somme des acuités {acuity_sum} : {observer_label} perçoit {hider_label} (P3)."),
    }
}

/// score … > acuity sum …: … does not perceive … (P3).
pub(crate) fn p3_does_not_perceive(
    score: impl Display,
    acuity_sum: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Text {
    Text {
        en: sentence!("score {score} > acuity sum {acuity_sum}: {observer_label} does not perceive {hider_label} (P3)."),
        fr: sentence!("score {score} > somme des acuités {acuity_sum} : {observer_label} ne perçoit pas {hider_label} (P3)."),
    }
}

/// … attacked from hiding: everyone will perceive … at the end of its turn (P9).
pub(crate) fn p9_attacked_from_hiding(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} attacked from hiding: everyone will perceive {label} at the end of its turn (P9)."),
        fr: sentence!("{label} a attaqué depuis sa cachette : tout le monde le percevra à la fin de son tour (P9)."),
    }
}

/// … is still defenseless against … this turn (P6).
pub(crate) fn p6_still_defenseless(
    target_label: impl Display,
    attacker_label: impl Display,
) -> Text {
    Text {
        en: sentence!(
            "{target_label} is still defenseless against {attacker_label} this turn (P6)."
        ),
        fr: sentence!("{target_label} reste sans défense face à {attacker_label} ce tour-ci (P6)."),
    }
}

/// … perceives …: no surprise (P6).
pub(crate) fn p6_no_surprise(target_label: impl Display, attacker_label: impl Display) -> Text {
    Text {
        en: sentence!("{target_label} perceives {attacker_label}: no surprise (P6)."),
        fr: sentence!("{target_label} perçoit {attacker_label} : pas de surprise (P6)."),
    }
}

/// Surprise! … is defenseless against … until the end of …'s turn; allies that do not perceiv
pub(crate) fn p6_surprise(target_label: impl Display, attacker_label: impl Display) -> Text {
    Text {
        en: sentence!("Surprise! {target_label} is defenseless against {attacker_label} until the end of {attacker_label}'s turn; allies that do not perceive {attacker_label} cannot defend {target_label} (P6)."),
        fr: sentence!("Surprise ! {target_label} est sans défense face à {attacker_label} jusqu'à la fin du tour de {attacker_label} ; les alliés qui ne perçoivent pas {attacker_label} ne peuvent pas défendre {target_label} (P6)."),
    }
}

/// … chooses the hit zone of this first attack: … (P7).
pub(crate) fn p7_hit_zone_chosen(
    attacker_label: impl Display,
    en: impl Display,
    fr: impl Display,
) -> Text {
    Text {
        en: sentence!("{attacker_label} chooses the hit zone of this first attack: {en} (P7)."),
        fr: sentence!(
            "{attacker_label} choisit la zone touchée par cette première attaque : {fr} (P7)."
        ),
    }
}

/// The modifiers of … did not change: the score stays (P4).
pub(crate) fn p4_modifiers_unchanged(label: impl Display) -> Text {
    Text {
        en: sentence!("The modifiers of {label} did not change: the score stays (P4)."),
        fr: sentence!("Les modificateurs de {label} n'ont pas changé : le score reste (P4)."),
    }
}

/// The situation changed (…): … must roll again; score … stays in force until the new roll (P
pub(crate) fn p4_new_roll_requested(
    modifiers: &Modifiers,
    label: impl Display,
    score: impl Display,
) -> Explained {
    let (list_en, list_fr) = describe_modifiers(modifiers);
    Explained {
        gm: Text {
            en: sentence!("The situation changed ({list_en}): {label} must roll again; score {score} stays in force until the new roll (P4)."),
            fr: sentence!("La situation a changé ({list_fr}) : {label} doit refaire un jet ; le score {score} reste en vigueur jusqu'au nouveau jet (P4)."),
        },
        public: Text {
            en: sentence!("The situation changed: {label} must make a new stealth roll."),
            fr: sentence!("La situation a changé : {label} doit refaire un jet de Furtivité."),
        },
    }
}

/// … sprints; not hiding, so nothing changes.
pub(crate) fn p2_sprint_while_not_hiding(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} sprints; not hiding, so nothing changes."),
        fr: sentence!("{label} sprinte ; il ne se cache pas, rien ne change."),
    }
}

/// … is no longer defenseless against … (P6).
pub(crate) fn p6_surprise_ended(target_label: impl Display, label: impl Display) -> Text {
    Text {
        en: sentence!("{target_label} is no longer defenseless against {label} (P6)."),
        fr: sentence!("{target_label} n'est plus sans défense face à {label} (P6)."),
    }
}

/// … attacked this turn and drew attention: everyone perceives …; a new stealth roll carries
pub(crate) fn p9_revealed_after_attack(label: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{label} attacked this turn and drew attention: everyone perceives {label}; a new stealth roll carries already perceived -100 (P9)."),
            fr: sentence!("{label} a attaqué ce tour-ci et a attiré l'attention : tout le monde le perçoit ; un nouveau jet de Furtivité subit déjà perçu -100 (P9)."),
        },
        public: Text {
            en: sentence!("{label} attacked this turn and drew attention: everyone perceives {label}; a new stealth roll will be harder (P9)."),
            fr: sentence!("{label} a attaqué ce tour-ci et a attiré l'attention : tout le monde le perçoit ; un nouveau jet de Furtivité sera plus difficile (P9)."),
        },
    }
}

/// The surprise turn is over: everyone perceives …; a new stealth roll carries already percei
pub(crate) fn p9_revealed_after_surprise(label: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("The surprise turn is over: everyone perceives {label}; a new stealth roll carries already perceived -100 (P9)."),
            fr: sentence!("Le tour de surprise est terminé : tout le monde perçoit {label} ; un nouveau jet de Furtivité subit déjà perçu -100 (P9)."),
        },
        public: Text {
            en: sentence!("The surprise turn is over: everyone perceives {label}; a new stealth roll will be harder (P9)."),
            fr: sentence!("Le tour de surprise est terminé : tout le monde perçoit {label} ; un nouveau jet de Furtivité sera plus difficile (P9)."),
        },
    }
}

// ---------------------------------------------------------------- Ruleset `opposed`

/// … perceives … with … (…, range …, distance …), no precaution against it: no roll (O13).
pub(crate) fn o13_sensed(
    observer_label: impl Display,
    hider_label: impl Display,
    sense: impl Display,
    targeting: bool,
    range: impl Display,
    distance: impl Display,
) -> Explained {
    let (kind_en, kind_fr) = if targeting {
        ("targeting", "de ciblage")
    } else {
        ("non-targeting", "sans ciblage")
    };
    Explained {
        gm: Text {
            en: sentence!("{observer_label} perceives {hider_label} with {sense} ({kind_en}, range {range}, distance {distance}), no precaution against it: no roll (O13)."),
            fr: sentence!("{observer_label} perçoit {hider_label} par {sense} ({kind_fr}, portée {range}, distance {distance}), sans précaution contre ce sens : pas de jet (O13)."),
        },
        public: Text {
            en: sentence!("{observer_label} senses {hider_label}."),
            fr: sentence!("{observer_label} détecte {hider_label}."),
        },
    }
}

/// Stored Perception … ≥ effective stealth total …: … now perceives …, no new roll (…).
pub(crate) fn o4_stored_check_perceives(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
    clause: impl Display,
) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("Stored Perception {total} ≥ effective stealth total {effective}: {observer_label} now perceives {hider_label}, no new roll ({clause})."),
            fr: sentence!("Perception enregistrée {total} ≥ total de discrétion effectif {effective} : {observer_label} perçoit maintenant {hider_label}, sans nouveau jet ({clause})."),
        },
        public: Text {
            en: sentence!("{observer_label} spots {hider_label}."),
            fr: sentence!("{observer_label} repère {hider_label}."),
        },
    }
}

/// … comes into clear view of …: immediate Perception check against … (O4).
///
/// Written once per observer a `viewChanged` brings into clear view, so it
/// is joined without the `format!` machinery ([`joined`]); the words are
/// those of the `sentence!` form in the comments.
pub(crate) fn o4_check_requested(observer_label: &str, hider_label: &str, effective: i64) -> Text {
    Text {
        // "{observer_label} comes into clear view of {hider_label}: immediate Perception check against {effective} (O4)."
        en: joined(
            &[
                observer_label,
                " comes into clear view of ",
                hider_label,
                ": immediate Perception check against ",
            ],
            effective,
            " (O4).",
        ),
        // "{observer_label} a {hider_label} en vue dégagée : test de Perception immédiat contre {effective} (O4)."
        fr: joined(
            &[
                observer_label,
                " a ",
                hider_label,
                " en vue dégagée : test de Perception immédiat contre ",
            ],
            effective,
            " (O4).",
        ),
    }
}

/// Stored Perception … ≥ effective stealth total …: …, who sensed …, now locates it (O13, …)
///
/// `clause`: what brought the stored check to the total: O4 (clear view),
/// O6 (a penalty), O7 (a fresh roll).
pub(crate) fn o13_stored_check_locates(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
    clause: impl Display,
) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("Stored Perception {total} ≥ effective stealth total {effective}: {observer_label}, who sensed {hider_label}, now locates it (O13, {clause})."),
            fr: sentence!("Perception enregistrée {total} ≥ total de discrétion effectif {effective} : {observer_label}, qui détectait {hider_label}, le situe maintenant (O13, {clause})."),
        },
        public: Text {
            en: sentence!("{observer_label} pinpoints {hider_label}."),
            fr: sentence!("{observer_label} situe précisément {hider_label}."),
        },
    }
}

/// … senses … and now has it in clear view: one Perception check against … to locate it; unti
pub(crate) fn o13_locating_check_requested(
    observer_label: impl Display,
    hider_label: impl Display,
    effective: impl Display,
) -> Text {
    Text {
        en: sentence!("{observer_label} senses {hider_label} and now has it in clear view: one Perception check against {effective} to locate it; until it succeeds, O10 applies (O13, O4)."),
        fr: sentence!("{observer_label} détecte {hider_label} et l'a maintenant en vue dégagée : un test de Perception contre {effective} pour le situer ; tant qu'il n'a pas réussi, O10 s'applique (O13, O4)."),
    }
}

/// … rolls a fresh Stealth check: held total …, penalties cleared; observers who perceive kee
pub(crate) fn o7_fresh_roll(label: impl Display, total: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{label} rolls a fresh Stealth check: held total {total}, penalties cleared; observers who perceive keep perceiving (O7)."),
            fr: sentence!("{label} refait son test de Discrétion : total retenu {total}, malus effacés ; ceux qui le perçoivent continuent de le percevoir (O7)."),
        },
        public: Text {
            en: sentence!("{label} tries to stay hidden."),
            fr: sentence!("{label} tente de rester caché."),
        },
    }
}

/// … enters stealth: Stealth check … is held (O1).
pub(crate) fn o1_enter_stealth(label: impl Display, total: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{label} enters stealth: Stealth check {total} is held (O1)."),
            fr: sentence!(
                "{label} passe en discrétion : le test de Discrétion {total} est retenu (O1)."
            ),
        },
        public: Text {
            en: sentence!("{label} tries to hide."),
            fr: sentence!("{label} tente de se cacher."),
        },
    }
}

/// … has … in clear view at entry: perceives, no roll; the attempt fails against it (O2).
pub(crate) fn o2_watched_at_entry(observer_label: impl Display, label: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{observer_label} has {label} in clear view at entry: perceives, no roll; the attempt fails against it (O2)."),
            fr: sentence!("{observer_label} a {label} en vue dégagée au moment où il se cache : le perçoit, sans jet ; la tentative échoue contre lui (O2)."),
        },
        public: Text {
            en: sentence!("{observer_label} watches {label} hide."),
            fr: sentence!("{observer_label} voit {label} se cacher."),
        },
    }
}

/// … perceives … with … (range …), no precaution against it: no roll (O13).
pub(crate) fn o13_sensed_at_entry(
    observer_label: impl Display,
    label: impl Display,
    sense: impl Display,
    range: impl Display,
) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{observer_label} perceives {label} with {sense} (range {range}), no precaution against it: no roll (O13)."),
            fr: sentence!("{observer_label} perçoit {label} par {sense} (portée {range}), sans précaution contre ce sens : pas de jet (O13)."),
        },
        public: Text {
            en: sentence!("{observer_label} senses {label}."),
            fr: sentence!("{observer_label} détecte {label}."),
        },
    }
}

/// … has no clear view of … at entry: starts unperceiving (O2).
pub(crate) fn o2_not_in_view_at_entry(observer_label: impl Display, label: impl Display) -> Text {
    Text {
        en: sentence!("{observer_label} has no clear view of {label} at entry: starts unperceiving (O2)."),
        fr: sentence!("{observer_label} n'a pas {label} en vue dégagée au moment où il se cache : ne le perçoit pas (O2)."),
    }
}

/// … already made its Perception check against … (…); a stored result is never rolled again i
pub(crate) fn o4_stored_result_kept(
    observer_label: impl Display,
    hider_label: impl Display,
    stored: impl Display,
    total: impl Display,
) -> Text {
    Text {
        en: sentence!("{observer_label} already made its Perception check against {hider_label} ({stored}); a stored result is never rolled again in this attempt: {total} is ignored (O4)."),
        fr: sentence!("{observer_label} a déjà fait son test de Perception contre {hider_label} ({stored}) ; un résultat enregistré n'est jamais relancé pendant cette tentative : {total} est ignoré (O4)."),
    }
}

/// Perception … ≥ stealth total …: …, who sensed …, now locates it (O13, O4).
pub(crate) fn o13_check_locates(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("Perception {total} ≥ stealth total {effective}: {observer_label}, who sensed {hider_label}, now locates it (O13, O4)."),
            fr: sentence!("Perception {total} ≥ total de discrétion {effective} : {observer_label}, qui détectait {hider_label}, le situe maintenant (O13, O4)."),
        },
        public: Text {
            en: sentence!("{observer_label} pinpoints {hider_label}."),
            fr: sentence!("{observer_label} situe précisément {hider_label}."),
        },
    }
}

/// Perception … < stealth total …: … senses … but does not locate it; O10 applies to its atta
pub(crate) fn o13_check_does_not_locate(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Text {
    Text {
        en: sentence!("Perception {total} < stealth total {effective}: {observer_label} senses {hider_label} but does not locate it; O10 applies to its attacks; the result is stored (O13, O4)."),
        fr: sentence!("Perception {total} < total de discrétion {effective} : {observer_label} détecte {hider_label} mais ne le situe pas ; O10 s'applique à ses attaques ; le résultat est enregistré (O13, O4)."),
    }
}

/// … already perceives …; Perception … is stored (O4).
pub(crate) fn o4_already_perceives(
    observer_label: impl Display,
    hider_label: impl Display,
    total: impl Display,
) -> Text {
    Text {
        en: sentence!("{observer_label} already perceives {hider_label}; Perception {total} is stored (O4)."),
        fr: sentence!("{observer_label} perçoit déjà {hider_label} ; la Perception {total} est enregistrée (O4)."),
    }
}

/// Perception … ≥ stealth total …: … perceives … (O4).
pub(crate) fn o4_check_perceives(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("Perception {total} ≥ stealth total {effective}: {observer_label} perceives {hider_label} (O4)."),
            fr: sentence!("Perception {total} ≥ total de discrétion {effective} : {observer_label} perçoit {hider_label} (O4)."),
        },
        public: Text {
            en: sentence!("{observer_label} spots {hider_label}."),
            fr: sentence!("{observer_label} repère {hider_label}."),
        },
    }
}

/// Perception … < stealth total …: … does not perceive …; the result is stored (O4).
pub(crate) fn o4_check_fails(
    total: impl Display,
    effective: impl Display,
    observer_label: impl Display,
    hider_label: impl Display,
) -> Text {
    Text {
        en: sentence!("Perception {total} < stealth total {effective}: {observer_label} does not perceive {hider_label}; the result is stored (O4)."),
        fr: sentence!("Perception {total} < total de discrétion {effective} : {observer_label} ne perçoit pas {hider_label} ; le résultat est enregistré (O4)."),
    }
}

/// … points out … to …: they perceive it, no roll (O3).
pub(crate) fn o3_pointed_out(
    observer_label: impl Display,
    hider_label: impl Display,
    names: impl Display,
) -> Text {
    Text {
        en: sentence!(
            "{observer_label} points out {hider_label} to {names}: they perceive it, no roll (O3)."
        ),
        fr: sentence!(
            "{observer_label} signale {hider_label} à {names} : ils le perçoivent, sans jet (O3)."
        ),
    }
}

/// … is not hiding: the attack has no stealth effect.
pub(crate) fn o8_attacker_not_hiding(attacker_label: impl Display) -> Text {
    Text {
        en: sentence!("{attacker_label} is not hiding: the attack has no stealth effect."),
        fr: sentence!(
            "{attacker_label} ne se cache pas : l'attaque n'a pas d'effet sur la discrétion."
        ),
    }
}

/// Noisy attack by …: -… to the held total for every observer (…) (O8).
pub(crate) fn o8_noisy_attack(
    attacker_label: impl Display,
    amount: impl Display,
    area: bool,
    targets: usize,
    instances: i64,
) -> Text {
    let (how_en, how_fr) = if area {
        (
            "an area effect counts once".to_owned(),
            "un effet de zone compte une fois".to_owned(),
        )
    } else if targets > 1 {
        (
            format!("one attack on {targets} targets counts once"),
            format!("une attaque sur {targets} cibles compte une fois"),
        )
    } else {
        (
            format!("{instances} hit(s) × 5"),
            format!("{instances} coup(s) × 5"),
        )
    };
    Text {
        en: sentence!("Noisy attack by {attacker_label}: -{amount} to the held total for every observer ({how_en}) (O8)."),
        fr: sentence!("Attaque bruyante de {attacker_label} : -{amount} au total retenu pour tous les observateurs ({how_fr}) (O8)."),
    }
}

/// Silent attack by …: no penalty (O8).
pub(crate) fn o8_silent_attack(attacker_label: impl Display) -> Text {
    Text {
        en: sentence!("Silent attack by {attacker_label}: no penalty (O8)."),
        fr: sentence!("Attaque silencieuse de {attacker_label} : aucun malus (O8)."),
    }
}

/// … knows the direction of the attack and makes an immediate Perception check against … (O9)
pub(crate) fn o9_target_checks(target_label: impl Display, effective: impl Display) -> Explained {
    Explained {
        gm: Text {
            en: sentence!("{target_label} knows the direction of the attack and makes an immediate Perception check against {effective} (O9)."),
            fr: sentence!("{target_label} connaît la direction de l'attaque et fait un test de Perception immédiat contre {effective} (O9)."),
        },
        public: Text {
            en: sentence!("{target_label} knows where the attack came from."),
            fr: sentence!("{target_label} sait d'où vient l'attaque."),
        },
    }
}

/// … takes … damaging hit(s) from …: -… against the allies of … (side `…`), not … itself (O11
pub(crate) fn o11_damage_penalty(
    target_label: impl Display,
    hits: impl Display,
    attacker_label: impl Display,
    amount: impl Display,
    side: impl Display,
) -> Text {
    Text {
        en: sentence!("{target_label} takes {hits} damaging hit(s) from {attacker_label}: -{amount} against the allies of {attacker_label} (side `{side}`), not {attacker_label} itself (O11)."),
        fr: sentence!("{target_label} subit {hits} coup(s) de {attacker_label} : -{amount} contre les alliés de {attacker_label} (camp `{side}`), pas contre {attacker_label} (O11)."),
    }
}

/// … sprints: the stealth attempt ends and everyone perceives them (O12).
pub(crate) fn o12_sprint_ends_attempt(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} sprints: the stealth attempt ends and everyone perceives them (O12)."),
        fr: sentence!("{label} sprinte : la tentative de discrétion prend fin et tout le monde le perçoit (O12)."),
    }
}

/// … sprints and cannot enter stealth this movement (O12).
pub(crate) fn o12_sprint_not_hiding(label: impl Display) -> Text {
    Text {
        en: sentence!("{label} sprints and cannot enter stealth this movement (O12)."),
        fr: sentence!(
            "{label} sprinte et ne peut pas passer en discrétion pendant ce mouvement (O12)."
        ),
    }
}

/// Turn of …: it may roll a fresh Stealth check that replaces the held total and clears penal
pub(crate) fn o7_turn_start(label: impl Display) -> Text {
    Text {
        en: sentence!("Turn of {label}: it may roll a fresh Stealth check that replaces the held total and clears penalties (O7)."),
        fr: sentence!("Tour de {label} : il peut refaire son test de Discrétion, qui remplace le total retenu et efface les malus (O7)."),
    }
}

/// … ends the turn still in clear view of …: … perceives … (O5).
pub(crate) fn o5_revealed_in_view(label: impl Display, observer_label: impl Display) -> Text {
    Text {
        en: sentence!("{label} ends the turn still in clear view of {observer_label}: {observer_label} perceives {label} (O5)."),
        fr: sentence!("{label} finit son tour toujours en vue dégagée de {observer_label} : {observer_label} perçoit {label} (O5)."),
    }
}

/// … did not move this turn: the broken view does not keep it hidden from …, who perceives …
pub(crate) fn o5_revealed_did_not_move(label: impl Display, observer_label: impl Display) -> Text {
    Text {
        en: sentence!("{label} did not move this turn: the broken view does not keep it hidden from {observer_label}, who perceives {label} (O5)."),
        fr: sentence!("{label} ne s'est pas déplacé ce tour-ci : la vue rompue ne le cache pas de {observer_label}, qui perçoit {label} (O5)."),
    }
}

/// … moved and broke clear view with …: stays hidden from them (O5).
pub(crate) fn o5_moved_out_of_view(label: impl Display, names: impl Display) -> Text {
    Text {
        en: sentence!("{label} moved and broke clear view with {names}: stays hidden from them (O5)."),
        fr: sentence!("{label} s'est déplacé et a rompu la vue dégagée avec {names} : reste caché d'eux (O5)."),
    }
}

// ---------------------------------------------------------------- Queries

/// An area effect covering …'s space affects it normally (O10).
pub(crate) fn o10_an_area_effect_covering(t: impl Display) -> Text {
    Text {
        en: sentence!("An area effect covering {t}'s space affects it normally (O10)."),
        fr: sentence!("Un effet de zone couvrant la case de {t} l'affecte normalement (O10)."),
    }
}

/// …'s … gives …'s exact space: a normal attack (O13).
pub(crate) fn o13_targeting_sense_gives_the_space(
    a: impl Display,
    sense: impl Display,
    t: impl Display,
) -> Text {
    Text {
        en: sentence!("{a}'s {sense} gives {t}'s exact space: a normal attack (O13)."),
        fr: sentence!(
            "Le sens {sense} de {a} donne la case exacte de {t} : attaque normale (O13)."
        ),
    }
}

/// … perceives …: a normal attack (O10).
pub(crate) fn o10_perceives_normal_attack(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{a} perceives {t}: a normal attack (O10)."),
        fr: sentence!("{a} perçoit {t} : attaque normale (O10)."),
    }
}

/// … senses …'s presence but not its exact space and aims at its actual space: Accuracy with
pub(crate) fn o13_presence_only_aims_at_the_space(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{a} senses {t}'s presence but not its exact space and aims at its actual space: Accuracy with disadvantage (O13, O10)."),
        fr: sentence!("{a} détecte la présence de {t} mais pas sa case exacte et vise sa case réelle : Précision avec désavantage (O13, O10)."),
    }
}

/// … senses …'s presence but not its exact space and aims elsewhere: the attack misses (O13,
pub(crate) fn o13_presence_only_aims_elsewhere(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{a} senses {t}'s presence but not its exact space and aims elsewhere: the attack misses (O13, O10)."),
        fr: sentence!("{a} détecte la présence de {t} mais pas sa case exacte et vise ailleurs : l'attaque échoue (O13, O10)."),
    }
}

/// … is not hiding: a normal attack (O10).
pub(crate) fn o10_not_hiding_normal_attack(t: impl Display) -> Text {
    Text {
        en: sentence!("{t} is not hiding: a normal attack (O10)."),
        fr: sentence!("{t} ne se cache pas : attaque normale (O10)."),
    }
}

/// … does not perceive … but aims at its actual space: Accuracy with disadvantage (O10).
pub(crate) fn o10_does_not_perceive_but(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{a} does not perceive {t} but aims at its actual space: Accuracy with disadvantage (O10)."),
        fr: sentence!("{a} ne perçoit pas {t} mais vise sa case réelle : Précision avec désavantage (O10)."),
    }
}

/// … does not perceive … and aims elsewhere: the attack misses (O10).
pub(crate) fn o10_does_not_perceive_aims(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{a} does not perceive {t} and aims elsewhere: the attack misses (O10)."),
        fr: sentence!("{a} ne perçoit pas {t} et vise ailleurs : l'attaque échoue (O10)."),
    }
}

/// … perceives … and may roll acuities to locate it (P5).
pub(crate) fn p5_may_locate(o: impl Display, h: impl Display) -> Text {
    Text {
        en: sentence!("{o} perceives {h} and may roll acuities to locate it (P5)."),
        fr: sentence!("{o} perçoit {h} et peut faire des jets d'acuité pour le situer (P5)."),
    }
}

/// … does not perceive …: it may not attempt to locate it (P5).
pub(crate) fn p5_may_not_locate(o: impl Display, h: impl Display) -> Text {
    Text {
        en: sentence!("{o} does not perceive {h}: it may not attempt to locate it (P5)."),
        fr: sentence!("{o} ne perçoit pas {h} : il ne peut pas tenter de le situer (P5)."),
    }
}

/// … is not surprised by …: … may defend (P6).
pub(crate) fn p6_not_surprised_by_defend(
    t: impl Display,
    a: impl Display,
    d: impl Display,
) -> Text {
    Text {
        en: sentence!("{t} is not surprised by {a}: {d} may defend (P6)."),
        fr: sentence!("{t} n'est pas surpris par {a} : {d} peut défendre (P6)."),
    }
}

/// … is defenseless against … this turn: no dodge, block or parry (P6).
pub(crate) fn p6_defenseless_against_turn_no(t: impl Display, a: impl Display) -> Text {
    Text {
        en: sentence!("{t} is defenseless against {a} this turn: no dodge, block or parry (P6)."),
        fr: sentence!(
            "{t} est sans défense face à {a} ce tour-ci : ni esquive, ni blocage, ni parade (P6)."
        ),
    }
}

/// … is the attacker (P6).
pub(crate) fn p6_the_defender_is_the_attacker(d: impl Display) -> Text {
    Text {
        en: sentence!("{d} is the attacker (P6)."),
        fr: sentence!("{d} est l'attaquant (P6)."),
    }
}

/// … perceives … and may defend … (P6).
pub(crate) fn p6_perceives_defend(d: impl Display, a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{d} perceives {a} and may defend {t} (P6)."),
        fr: sentence!("{d} perçoit {a} et peut défendre {t} (P6)."),
    }
}

/// … does not perceive … and cannot defend … this turn (P6).
pub(crate) fn p6_does_not_perceive_cannot(
    d: impl Display,
    a: impl Display,
    t: impl Display,
) -> Text {
    Text {
        en: sentence!("{d} does not perceive {a} and cannot defend {t} this turn (P6)."),
        fr: sentence!("{d} ne perçoit pas {a} et ne peut pas défendre {t} ce tour-ci (P6)."),
    }
}

/// … is not defenseless against …: no knockout (P8).
pub(crate) fn p8_not_defenseless_against_no(t: impl Display, a: impl Display) -> Text {
    Text {
        en: sentence!("{t} is not defenseless against {a}: no knockout (P8)."),
        fr: sentence!("{t} n'est pas sans défense face à {a} : pas d'assommement (P8)."),
    }
}

/// The first attack aimed at the …, not the head: no knockout (P7, P8).
pub(crate) fn p8_first_attack_aimed_at(en: impl Display, fr: impl Display) -> Text {
    Text {
        en: sentence!("The first attack aimed at the {en}, not the head: no knockout (P7, P8)."),
        fr: sentence!("La première attaque visait {fr}, pas la tête : pas d'assommement (P7, P8)."),
    }
}

/// The first attack did not choose the head: no knockout (P7, P8).
pub(crate) fn p8_first_attack_did_not() -> Text {
    Text {
        en: "The first attack did not choose the head: no knockout (P7, P8).".to_string(),
        fr: "La première attaque n'a pas visé la tête : pas d'assommement (P7, P8).".to_string(),
    }
}

/// The knockout belongs to the first attack of the surprise; … has attacked … again since: no
pub(crate) fn p8_knockout_belongs_first(a: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("The knockout belongs to the first attack of the surprise; {a} has attacked {t} again since: no knockout (P7, P8)."),
        fr: sentence!("L'assommement fait partie de la première attaque de la surprise ; {a} a attaqué {t} de nouveau depuis : pas d'assommement (P7, P8)."),
    }
}

/// … wears a helmet: no knockout (P8).
pub(crate) fn p8_wears_helmet_no_knockout(t: impl Display) -> Text {
    Text {
        en: sentence!("{t} wears a helmet: no knockout (P8)."),
        fr: sentence!("{t} porte un casque : pas d'assommement (P8)."),
    }
}

/// … perceives …: no pickpocketing (P10).
pub(crate) fn p10_perceives_no_pickpocketing(t: impl Display, h: impl Display) -> Text {
    Text {
        en: sentence!("{t} perceives {h}: no pickpocketing (P10)."),
        fr: sentence!("{t} perçoit {h} : pas de vol à la tire (P10)."),
    }
}

/// … holds that object: it cannot be taken (P10).
pub(crate) fn p10_holds_that_object_cannot(t: impl Display) -> Text {
    Text {
        en: sentence!("{t} holds that object: it cannot be taken (P10)."),
        fr: sentence!("{t} tient cet objet : il ne peut pas être pris (P10)."),
    }
}

/// A hidden object cannot be taken this way (P10).
pub(crate) fn p10_hidden_object_cannot_be() -> Text {
    Text {
        en: "A hidden object cannot be taken this way (P10).".to_string(),
        fr: "Un objet caché ne peut pas être pris ainsi (P10).".to_string(),
    }
}

/// … may take the object from … for one minor action (P10).
pub(crate) fn p10_may_take_the_object(h: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("{h} may take the object from {t} for one minor action (P10)."),
        fr: sentence!("{h} peut prendre l'objet à {t} pour une action mineure (P10)."),
    }
}

/// … is not hiding: everyone perceives it, … too (B2).
pub(crate) fn b2_not_hiding(h: impl Display, o: impl Display) -> Text {
    Text {
        en: sentence!("{h} is not hiding: everyone perceives it, {o} too (B2)."),
        fr: sentence!("{h} ne se cache pas : tout le monde le perçoit, {o} aussi (B2)."),
    }
}

/// … is not known to the engine: it perceives no hider until the GM adds it (B1).
pub(crate) fn b1_unknown_observer(o: impl Display) -> Text {
    Text {
        en: sentence!("{o} is not known to the engine: it perceives no hider until the GM adds it (B1)."),
        fr: sentence!("{o} n'est pas connu du moteur : il ne perçoit aucune créature cachée tant que le MJ ne l'a pas ajouté (B1)."),
    }
}

/// … perceives ….
pub(crate) fn perceives(o: impl Display, h: impl Display) -> Text {
    Text {
        en: sentence!("{o} perceives {h}."),
        fr: sentence!("{o} perçoit {h}."),
    }
}

/// … does not perceive ….
pub(crate) fn does_not_perceive(o: impl Display, h: impl Display) -> Text {
    Text {
        en: sentence!("{o} does not perceive {h}."),
        fr: sentence!("{o} ne perçoit pas {h}."),
    }
}

/// Knockout: d100 … ≤ base Furtivité …: … is knocked out for … minute(s) (P8).
pub(crate) fn p8_knocked_out(
    d: impl Display,
    chance: impl Display,
    t: impl Display,
    minutes: impl Display,
) -> Text {
    Text {
        en: sentence!("Knockout: d100 {d} ≤ base Furtivité {chance}: {t} is knocked out for {minutes} minute(s) (P8)."),
        fr: sentence!("Assommement : d100 {d} ≤ Furtivité de base {chance} : {t} est assommé pendant {minutes} minute(s) (P8)."),
    }
}

/// Knockout: d100 … > base Furtivité …: … stays conscious (P8).
pub(crate) fn p8_stays_conscious(d: impl Display, chance: impl Display, t: impl Display) -> Text {
    Text {
        en: sentence!("Knockout: d100 {d} > base Furtivité {chance}: {t} stays conscious (P8)."),
        fr: sentence!(
            "Assommement : d100 {d} > Furtivité de base {chance} : {t} reste conscient (P8)."
        ),
    }
}

/// … may try to knock … out: …% chance, … minute(s), damage divided by 4 (P8).
pub(crate) fn p8_may_try(
    a: impl Display,
    t: impl Display,
    chance: impl Display,
    minutes: impl Display,
) -> Text {
    Text {
        en: sentence!("{a} may try to knock {t} out: {chance}% chance, {minutes} minute(s), damage divided by 4 (P8)."),
        fr: sentence!("{a} peut tenter d'assommer {t} : {chance} % de chances, {minutes} minute(s), dégâts divisés par 4 (P8)."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn o4_check_requested_reads_as_its_sentence_form() {
        // `joined` writes the same bytes as the `sentence!` form it replaces.
        for effective in [0, 7, -3, 10, -10, 15, 1_000_000, i64::MIN, i64::MAX] {
            for (observer, hider) in [("Guard", "Rogue"), ("Garde élite", "Voleuse")] {
                let text = o4_check_requested(observer, hider, effective);
                assert_eq!(
                    text.en,
                    format!("{observer} comes into clear view of {hider}: immediate Perception check against {effective} (O4).")
                );
                assert_eq!(
                    text.fr,
                    format!("{observer} a {hider} en vue dégagée : test de Perception immédiat contre {effective} (O4).")
                );
            }
        }
    }
}

//! Explanations as data (B3): a [`Message`] is a key of the catalog below
//! and its named arguments (names, numbers, nested messages), and the
//! catalog holds each key's English and French template.
//!
//! The rules pick the message and its arguments (`crate::explain`); the
//! words live here, once. A message becomes text in either of two places,
//! from the same templates:
//!
//! - in Rust, [`Message::render`];
//! - in JavaScript, `npm/explain.js`, from `npm/explanations.js`, which
//!   `crates/furtive-core/tests/catalog.rs` writes from [`Key::ALL`] and
//!   checks for drift. The bindings send messages, and the npm package
//!   renders the `en` and `fr` texts of a log entry or a query answer when
//!   they are read.
//!
//! A template is text with `{name}` placeholders (the syntax of Foundry's
//! `Localization#format`, <https://foundryvtt.com/api/classes/foundry.helpers.Localization.html#format>).
//! An argument renders as: a text as it is; an integer in decimal (`-5`);
//! a message as its own template in the same language; a list as its items
//! joined by `", "`. Numbers that need a sign or a fraction are written by
//! the engine as text (`"+50"`, `"7.5"`), so both renderers write the same
//! characters.

use serde::ser::SerializeSeq;

use serde::{Serialize, Serializer};

/// A language of the catalog (B3: every explanation in both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English.
    En,
    /// French.
    Fr,
}

/// Defines [`Key`], its arguments and its templates:
/// `Name = "jsonName" (argument, ...) { en: "…", fr: "…" }`.
macro_rules! catalog {
    ($($(#[$doc:meta])* $key:ident = $name:literal ($($arg:ident),*) { en: $en:literal, fr: $fr:literal })*) => {
        /// A message of the catalog (B3). Serialized as its name
        /// (`"o4CheckRequested"`); each key's doc gives its English template.
        /// `key as usize` is its place in [`Key::ALL`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Key {
            $($(#[$doc])* #[doc = concat!("\"", $en, "\"")] $key,)*
        }

        impl Key {
            /// Every key, in catalog order.
            pub const ALL: &'static [Key] = &[$(Key::$key,)*];

            /// The key's name as it crosses the JavaScript boundary,
            /// e.g. `"o4CheckRequested"`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                }
            }

            /// The names of the key's arguments, in the order a message
            /// writes them: the placeholders of its templates, each once.
            pub fn args(self) -> &'static [&'static str] {
                match self {
                    $(Key::$key => &[$(stringify!($arg)),*],)*
                }
            }

            /// The key's template in `language`: text with `{name}`
            /// placeholders for the message's arguments.
            pub fn template(self, language: Language) -> &'static str {
                match (self, language) {
                    $(
                        (Key::$key, Language::En) => $en,
                        (Key::$key, Language::Fr) => $fr,
                    )*
                }
            }
        }
    };
}

catalog! {
    // ------------------------------------------------ Both rulesets

    B3CreatureJoined = "b3CreatureJoined" (name) {
        en: "{name} joins the scene.",
        fr: "{name} entre dans la scène."
    }
    B3CreatureUpdated = "b3CreatureUpdated" (name) {
        en: "{name} updated.",
        fr: "{name} mis à jour."
    }
    P6CombatEnded = "p6CombatEnded" () {
        en: "Combat ended: every surprise ends.",
        fr: "Fin du combat : toutes les surprises prennent fin."
    }
    B3TokenRemoved = "b3TokenRemoved" (token) {
        en: "{token} left the scene: its pairs are removed.",
        fr: "{token} quitte la scène : ses paires sont retirées."
    }
    B3StoppedHiding = "b3StoppedHiding" (hider) {
        en: "{hider} stops hiding: everyone perceives them.",
        fr: "{hider} cesse de se cacher : tout le monde le perçoit."
    }
    GmOverridePerceives = "gmOverridePerceives" (observer, hider) {
        en: "GM override: {observer} perceives {hider}.",
        fr: "Décision du MJ : {observer} perçoit {hider}."
    }
    GmOverrideDoesNotPerceive = "gmOverrideDoesNotPerceive" (observer, hider) {
        en: "GM override: {observer} does not perceive {hider}.",
        fr: "Décision du MJ : {observer} ne perçoit pas {hider}."
    }

    // ------------------------------------------------ Ruleset `percentile`

    /// P1, the tier term of a Furtivité under 50: "d100 {d100} ÷ 2 = {value}".
    P1TierHalf = "p1TierHalf" (d100, value) {
        en: "d100 {d100} ÷ 2 = {value}",
        fr: "d100 {d100} ÷ 2 = {value}"
    }
    /// P1, the tier term of a Furtivité from 50 to 99: "d100 {d100}".
    P1TierWhole = "p1TierWhole" (d100) {
        en: "d100 {d100}",
        fr: "d100 {d100}"
    }
    /// P1, the tier term of a Furtivité of 100 or more: "1.5 × d100 {d100} = {value}".
    P1TierOneAndAHalf = "p1TierOneAndAHalf" (d100, value) {
        en: "1.5 × d100 {d100} = {value}",
        fr: "1,5 × d100 {d100} = {value}"
    }
    /// P2, one active modifier in a list: "{name} {value}" (`value` signed).
    Modifier = "modifier" (name, value) {
        en: "{name} {value}",
        fr: "{name} {value}"
    }
    /// P2, the active modifiers when there is none: "none".
    ModifiersNone = "modifiersNone" () {
        en: "none",
        fr: "aucun"
    }
    /// P2, a free modifier the GM gave no label: "GM".
    GmModifier = "gmModifier" () {
        en: "GM",
        fr: "MJ"
    }
    /// P2 situation modifier `sprint`.
    SituationSprint = "situationSprint" () {
        en: "sprint",
        fr: "sprint"
    }
    /// P2 situation modifier `already_perceived`.
    SituationAlreadyPerceived = "situationAlreadyPerceived" () {
        en: "already perceived",
        fr: "déjà perçu"
    }
    /// P2 situation modifier `dark`.
    SituationDark = "situationDark" () {
        en: "dark",
        fr: "obscurité"
    }
    /// P2 situation modifier `no_cover`.
    SituationNoCover = "situationNoCover" () {
        en: "no cover",
        fr: "ni ombres ni obstacles"
    }
    /// P2 situation modifier `cluttered`.
    SituationCluttered = "situationCluttered" () {
        en: "cluttered",
        fr: "très encombré"
    }
    /// P2 situation modifier `very_quiet`.
    SituationVeryQuiet = "situationVeryQuiet" () {
        en: "very quiet",
        fr: "très silencieux"
    }
    /// P2 situation modifier `very_noisy`.
    SituationVeryNoisy = "situationVeryNoisy" () {
        en: "very noisy",
        fr: "très bruyant"
    }
    /// P2 situation modifier `strong_smells`.
    SituationStrongSmells = "situationStrongSmells" () {
        en: "strong smells",
        fr: "odeurs très fortes"
    }
    /// P2 situation modifier `deserted`.
    SituationDeserted = "situationDeserted" () {
        en: "deserted",
        fr: "zone désertée"
    }
    /// P7 hit zone `head`.
    HitZoneHead = "hitZoneHead" () {
        en: "head",
        fr: "tête"
    }
    /// P7 hit zone `trunk`.
    HitZoneTrunk = "hitZoneTrunk" () {
        en: "trunk",
        fr: "tronc"
    }
    /// P7 hit zone `arm`.
    HitZoneArm = "hitZoneArm" () {
        en: "arm",
        fr: "bras"
    }
    /// P7 hit zone `leg`.
    HitZoneLeg = "hitZoneLeg" () {
        en: "leg",
        fr: "jambe"
    }
    P9AlreadyPerceivedAdded = "p9AlreadyPerceivedAdded" (perceiving, hider) {
        en: "{perceiving} observer(s) already perceive {hider}: already perceived -100 is added (P9).",
        fr: "{perceiving} observateur(s) perçoivent déjà {hider} : déjà perçu -100 s'applique (P9)."
    }
    P1StealthScore = "p1StealthScore" (hider, score, stealthSkill, tier, modifierTotal, modifiers) {
        en: "{hider}: stealth score {score} = Furtivité {stealthSkill} + {tier} + modifiers {modifierTotal} ({modifiers}) (P1, P2).",
        fr: "{hider} : score de furtivité {score} = Furtivité {stealthSkill} + {tier} + modificateurs {modifierTotal} ({modifiers}) (P1, P2)."
    }
    /// The public line of a stealth roll: "{hider} makes a stealth roll."
    P1StealthRoll = "p1StealthRoll" (hider) {
        en: "{hider} makes a stealth roll.",
        fr: "{hider} fait un jet de Furtivité."
    }
    P3Perceives = "p3Perceives" (score, acuitySum, observer, hider) {
        en: "score {score} ≤ acuity sum {acuitySum}: {observer} perceives {hider} (P3).",
        fr: "score {score} ≤ somme des acuités {acuitySum} : {observer} perçoit {hider} (P3)."
    }
    P3DoesNotPerceive = "p3DoesNotPerceive" (score, acuitySum, observer, hider) {
        en: "score {score} > acuity sum {acuitySum}: {observer} does not perceive {hider} (P3).",
        fr: "score {score} > somme des acuités {acuitySum} : {observer} ne perçoit pas {hider} (P3)."
    }
    P9AttackedFromHiding = "p9AttackedFromHiding" (hider) {
        en: "{hider} attacked from hiding: everyone will perceive {hider} at the end of its turn (P9).",
        fr: "{hider} a attaqué depuis sa cachette : tout le monde le percevra à la fin de son tour (P9)."
    }
    P6StillDefenseless = "p6StillDefenseless" (target, attacker) {
        en: "{target} is still defenseless against {attacker} this turn (P6).",
        fr: "{target} reste sans défense face à {attacker} ce tour-ci (P6)."
    }
    P6NoSurprise = "p6NoSurprise" (target, attacker) {
        en: "{target} perceives {attacker}: no surprise (P6).",
        fr: "{target} perçoit {attacker} : pas de surprise (P6)."
    }
    P6Surprise = "p6Surprise" (target, attacker) {
        en: "Surprise! {target} is defenseless against {attacker} until the end of {attacker}'s turn; allies that do not perceive {attacker} cannot defend {target} (P6).",
        fr: "Surprise ! {target} est sans défense face à {attacker} jusqu'à la fin du tour de {attacker} ; les alliés qui ne perçoivent pas {attacker} ne peuvent pas défendre {target} (P6)."
    }
    P7HitZoneChosen = "p7HitZoneChosen" (attacker, zone) {
        en: "{attacker} chooses the hit zone of this first attack: {zone} (P7).",
        fr: "{attacker} choisit la zone touchée par cette première attaque : {zone} (P7)."
    }
    P4ModifiersUnchanged = "p4ModifiersUnchanged" (hider) {
        en: "The modifiers of {hider} did not change: the score stays (P4).",
        fr: "Les modificateurs de {hider} n'ont pas changé : le score reste (P4)."
    }
    P4NewRollRequested = "p4NewRollRequested" (modifiers, hider, score) {
        en: "The situation changed ({modifiers}): {hider} must roll again; score {score} stays in force until the new roll (P4).",
        fr: "La situation a changé ({modifiers}) : {hider} doit refaire un jet ; le score {score} reste en vigueur jusqu'au nouveau jet (P4)."
    }
    /// The public line of a P4 new roll: "The situation changed: {hider} must make a new stealth roll."
    P4NewRollRequestedPublic = "p4NewRollRequestedPublic" (hider) {
        en: "The situation changed: {hider} must make a new stealth roll.",
        fr: "La situation a changé : {hider} doit refaire un jet de Furtivité."
    }
    P2SprintWhileNotHiding = "p2SprintWhileNotHiding" (hider) {
        en: "{hider} sprints; not hiding, so nothing changes.",
        fr: "{hider} sprinte ; il ne se cache pas, rien ne change."
    }
    P6SurpriseEnded = "p6SurpriseEnded" (target, attacker) {
        en: "{target} is no longer defenseless against {attacker} (P6).",
        fr: "{target} n'est plus sans défense face à {attacker} (P6)."
    }
    P9RevealedAfterAttack = "p9RevealedAfterAttack" (hider) {
        en: "{hider} attacked this turn and drew attention: everyone perceives {hider}; a new stealth roll carries already perceived -100 (P9).",
        fr: "{hider} a attaqué ce tour-ci et a attiré l'attention : tout le monde le perçoit ; un nouveau jet de Furtivité subit déjà perçu -100 (P9)."
    }
    /// The public line of [`Key::P9RevealedAfterAttack`], without the number.
    P9RevealedAfterAttackPublic = "p9RevealedAfterAttackPublic" (hider) {
        en: "{hider} attacked this turn and drew attention: everyone perceives {hider}; a new stealth roll will be harder (P9).",
        fr: "{hider} a attaqué ce tour-ci et a attiré l'attention : tout le monde le perçoit ; un nouveau jet de Furtivité sera plus difficile (P9)."
    }
    P9RevealedAfterSurprise = "p9RevealedAfterSurprise" (hider) {
        en: "The surprise turn is over: everyone perceives {hider}; a new stealth roll carries already perceived -100 (P9).",
        fr: "Le tour de surprise est terminé : tout le monde perçoit {hider} ; un nouveau jet de Furtivité subit déjà perçu -100 (P9)."
    }
    /// The public line of [`Key::P9RevealedAfterSurprise`], without the number.
    P9RevealedAfterSurprisePublic = "p9RevealedAfterSurprisePublic" (hider) {
        en: "The surprise turn is over: everyone perceives {hider}; a new stealth roll will be harder (P9).",
        fr: "Le tour de surprise est terminé : tout le monde perçoit {hider} ; un nouveau jet de Furtivité sera plus difficile (P9)."
    }

    // ------------------------------------------------ Ruleset `opposed`

    /// O13, a sense that gives the exact space: "targeting".
    SenseTargeting = "senseTargeting" () {
        en: "targeting",
        fr: "de ciblage"
    }
    /// O13, a sense that gives presence only: "non-targeting".
    SenseNonTargeting = "senseNonTargeting" () {
        en: "non-targeting",
        fr: "sans ciblage"
    }
    O13Sensed = "o13Sensed" (observer, hider, sense, kind, range, distance) {
        en: "{observer} perceives {hider} with {sense} ({kind}, range {range}, distance {distance}), no precaution against it: no roll (O13).",
        fr: "{observer} perçoit {hider} par {sense} ({kind}, portée {range}, distance {distance}), sans précaution contre ce sens : pas de jet (O13)."
    }
    /// The public line of an enhanced sense: "{observer} senses {hider}."
    O13Senses = "o13Senses" (observer, hider) {
        en: "{observer} senses {hider}.",
        fr: "{observer} détecte {hider}."
    }
    O4StoredCheckPerceives = "o4StoredCheckPerceives" (total, effective, observer, hider, clause) {
        en: "Stored Perception {total} ≥ effective stealth total {effective}: {observer} now perceives {hider}, no new roll ({clause}).",
        fr: "Perception enregistrée {total} ≥ total de discrétion effectif {effective} : {observer} perçoit maintenant {hider}, sans nouveau jet ({clause})."
    }
    /// The public line of an observer that comes to perceive the hider: "{observer} spots {hider}."
    O4Spots = "o4Spots" (observer, hider) {
        en: "{observer} spots {hider}.",
        fr: "{observer} repère {hider}."
    }
    O4CheckRequested = "o4CheckRequested" (observer, hider, effective) {
        en: "{observer} comes into clear view of {hider}: immediate Perception check against {effective} (O4).",
        fr: "{observer} a {hider} en vue dégagée : test de Perception immédiat contre {effective} (O4)."
    }
    O13StoredCheckLocates = "o13StoredCheckLocates" (total, effective, observer, hider, clause) {
        en: "Stored Perception {total} ≥ effective stealth total {effective}: {observer}, who sensed {hider}, now locates it (O13, {clause}).",
        fr: "Perception enregistrée {total} ≥ total de discrétion effectif {effective} : {observer}, qui détectait {hider}, le situe maintenant (O13, {clause})."
    }
    /// The public line of an observer that comes to locate the hider: "{observer} pinpoints {hider}."
    O13Pinpoints = "o13Pinpoints" (observer, hider) {
        en: "{observer} pinpoints {hider}.",
        fr: "{observer} situe précisément {hider}."
    }
    O13LocatingCheckRequested = "o13LocatingCheckRequested" (observer, hider, effective) {
        en: "{observer} senses {hider} and now has it in clear view: one Perception check against {effective} to locate it; until it succeeds, O10 applies (O13, O4).",
        fr: "{observer} détecte {hider} et l'a maintenant en vue dégagée : un test de Perception contre {effective} pour le situer ; tant qu'il n'a pas réussi, O10 s'applique (O13, O4)."
    }
    O7FreshRoll = "o7FreshRoll" (hider, total) {
        en: "{hider} rolls a fresh Stealth check: held total {total}, penalties cleared; observers who perceive keep perceiving (O7).",
        fr: "{hider} refait son test de Discrétion : total retenu {total}, malus effacés ; ceux qui le perçoivent continuent de le percevoir (O7)."
    }
    /// The public line of a fresh roll: "{hider} tries to stay hidden."
    O7TriesToStayHidden = "o7TriesToStayHidden" (hider) {
        en: "{hider} tries to stay hidden.",
        fr: "{hider} tente de rester caché."
    }
    O1EnterStealth = "o1EnterStealth" (hider, total) {
        en: "{hider} enters stealth: Stealth check {total} is held (O1).",
        fr: "{hider} passe en discrétion : le test de Discrétion {total} est retenu (O1)."
    }
    /// The public line of an entry: "{hider} tries to hide."
    O1TriesToHide = "o1TriesToHide" (hider) {
        en: "{hider} tries to hide.",
        fr: "{hider} tente de se cacher."
    }
    O2WatchedAtEntry = "o2WatchedAtEntry" (observer, hider) {
        en: "{observer} has {hider} in clear view at entry: perceives, no roll; the attempt fails against it (O2).",
        fr: "{observer} a {hider} en vue dégagée au moment où il se cache : le perçoit, sans jet ; la tentative échoue contre lui (O2)."
    }
    /// The public line of [`Key::O2WatchedAtEntry`]: "{observer} watches {hider} hide."
    O2WatchesHide = "o2WatchesHide" (observer, hider) {
        en: "{observer} watches {hider} hide.",
        fr: "{observer} voit {hider} se cacher."
    }
    O13SensedAtEntry = "o13SensedAtEntry" (observer, hider, sense, range) {
        en: "{observer} perceives {hider} with {sense} (range {range}), no precaution against it: no roll (O13).",
        fr: "{observer} perçoit {hider} par {sense} (portée {range}), sans précaution contre ce sens : pas de jet (O13)."
    }
    O2NotInViewAtEntry = "o2NotInViewAtEntry" (observer, hider) {
        en: "{observer} has no clear view of {hider} at entry: starts unperceiving (O2).",
        fr: "{observer} n'a pas {hider} en vue dégagée au moment où il se cache : ne le perçoit pas (O2)."
    }
    /// "{observer} already made its Perception check against {hider} ({stored}); … {total} is ignored (O4)."
    O4StoredResultKept = "o4StoredResultKept" (observer, hider, stored, total) {
        en: "{observer} already made its Perception check against {hider} ({stored}); a stored result is never rolled again in this attempt: {total} is ignored (O4).",
        fr: "{observer} a déjà fait son test de Perception contre {hider} ({stored}) ; un résultat enregistré n'est jamais relancé pendant cette tentative : {total} est ignoré (O4)."
    }
    O13CheckLocates = "o13CheckLocates" (total, effective, observer, hider) {
        en: "Perception {total} ≥ stealth total {effective}: {observer}, who sensed {hider}, now locates it (O13, O4).",
        fr: "Perception {total} ≥ total de discrétion {effective} : {observer}, qui détectait {hider}, le situe maintenant (O13, O4)."
    }
    O13CheckDoesNotLocate = "o13CheckDoesNotLocate" (total, effective, observer, hider) {
        en: "Perception {total} < stealth total {effective}: {observer} senses {hider} but does not locate it; O10 applies to its attacks; the result is stored (O13, O4).",
        fr: "Perception {total} < total de discrétion {effective} : {observer} détecte {hider} mais ne le situe pas ; O10 s'applique à ses attaques ; le résultat est enregistré (O13, O4)."
    }
    O4AlreadyPerceives = "o4AlreadyPerceives" (observer, hider, total) {
        en: "{observer} already perceives {hider}; Perception {total} is stored (O4).",
        fr: "{observer} perçoit déjà {hider} ; la Perception {total} est enregistrée (O4)."
    }
    O4CheckPerceives = "o4CheckPerceives" (total, effective, observer, hider) {
        en: "Perception {total} ≥ stealth total {effective}: {observer} perceives {hider} (O4).",
        fr: "Perception {total} ≥ total de discrétion {effective} : {observer} perçoit {hider} (O4)."
    }
    O4CheckFails = "o4CheckFails" (total, effective, observer, hider) {
        en: "Perception {total} < stealth total {effective}: {observer} does not perceive {hider}; the result is stored (O4).",
        fr: "Perception {total} < total de discrétion {effective} : {observer} ne perçoit pas {hider} ; le résultat est enregistré (O4)."
    }
    O3PointedOut = "o3PointedOut" (observer, hider, allies) {
        en: "{observer} points out {hider} to {allies}: they perceive it, no roll (O3).",
        fr: "{observer} signale {hider} à {allies} : ils le perçoivent, sans jet (O3)."
    }
    O8AttackerNotHiding = "o8AttackerNotHiding" (attacker) {
        en: "{attacker} is not hiding: the attack has no stealth effect.",
        fr: "{attacker} ne se cache pas : l'attaque n'a pas d'effet sur la discrétion."
    }
    O8NoisyAttack = "o8NoisyAttack" (attacker, amount, how) {
        en: "Noisy attack by {attacker}: -{amount} to the held total for every observer ({how}) (O8).",
        fr: "Attaque bruyante de {attacker} : -{amount} au total retenu pour tous les observateurs ({how}) (O8)."
    }
    /// O8, how an area effect counts: "an area effect counts once".
    O8AreaCountsOnce = "o8AreaCountsOnce" () {
        en: "an area effect counts once",
        fr: "un effet de zone compte une fois"
    }
    /// O8, how an attack on several targets counts: "one attack on {targets} targets counts once".
    O8TargetsCountOnce = "o8TargetsCountOnce" (targets) {
        en: "one attack on {targets} targets counts once",
        fr: "une attaque sur {targets} cibles compte une fois"
    }
    /// O8, how hits count: "{hits} hit(s) × 5".
    O8Hits = "o8Hits" (hits) {
        en: "{hits} hit(s) × 5",
        fr: "{hits} coup(s) × 5"
    }
    O8SilentAttack = "o8SilentAttack" (attacker) {
        en: "Silent attack by {attacker}: no penalty (O8).",
        fr: "Attaque silencieuse de {attacker} : aucun malus (O8)."
    }
    O9TargetChecks = "o9TargetChecks" (target, effective) {
        en: "{target} knows the direction of the attack and makes an immediate Perception check against {effective} (O9).",
        fr: "{target} connaît la direction de l'attaque et fait un test de Perception immédiat contre {effective} (O9)."
    }
    /// The public line of [`Key::O9TargetChecks`]: "{target} knows where the attack came from."
    O9KnowsWhere = "o9KnowsWhere" (target) {
        en: "{target} knows where the attack came from.",
        fr: "{target} sait d'où vient l'attaque."
    }
    O11DamagePenalty = "o11DamagePenalty" (target, hits, attacker, amount, side) {
        en: "{target} takes {hits} damaging hit(s) from {attacker}: -{amount} against the allies of {attacker} (side `{side}`), not {attacker} itself (O11).",
        fr: "{target} subit {hits} coup(s) de {attacker} : -{amount} contre les alliés de {attacker} (camp `{side}`), pas contre {attacker} (O11)."
    }
    O12SprintEndsAttempt = "o12SprintEndsAttempt" (hider) {
        en: "{hider} sprints: the stealth attempt ends and everyone perceives them (O12).",
        fr: "{hider} sprinte : la tentative de discrétion prend fin et tout le monde le perçoit (O12)."
    }
    O12SprintNotHiding = "o12SprintNotHiding" (hider) {
        en: "{hider} sprints and cannot enter stealth this movement (O12).",
        fr: "{hider} sprinte et ne peut pas passer en discrétion pendant ce mouvement (O12)."
    }
    O7TurnStart = "o7TurnStart" (hider) {
        en: "Turn of {hider}: it may roll a fresh Stealth check that replaces the held total and clears penalties (O7).",
        fr: "Tour de {hider} : il peut refaire son test de Discrétion, qui remplace le total retenu et efface les malus (O7)."
    }
    O5RevealedInView = "o5RevealedInView" (hider, observer) {
        en: "{hider} ends the turn still in clear view of {observer}: {observer} perceives {hider} (O5).",
        fr: "{hider} finit son tour toujours en vue dégagée de {observer} : {observer} perçoit {hider} (O5)."
    }
    O5RevealedDidNotMove = "o5RevealedDidNotMove" (hider, observer) {
        en: "{hider} did not move this turn: the broken view does not keep it hidden from {observer}, who perceives {hider} (O5).",
        fr: "{hider} ne s'est pas déplacé ce tour-ci : la vue rompue ne le cache pas de {observer}, qui perçoit {hider} (O5)."
    }
    O5MovedOutOfView = "o5MovedOutOfView" (hider, observers) {
        en: "{hider} moved and broke clear view with {observers}: stays hidden from them (O5).",
        fr: "{hider} s'est déplacé et a rompu la vue dégagée avec {observers} : reste caché d'eux (O5)."
    }

    // ------------------------------------------------ Queries

    O10AreaEffect = "o10AreaEffect" (target) {
        en: "An area effect covering {target}'s space affects it normally (O10).",
        fr: "Un effet de zone couvrant la case de {target} l'affecte normalement (O10)."
    }
    O13TargetingSenseGivesTheSpace = "o13TargetingSenseGivesTheSpace" (attacker, sense, target) {
        en: "{attacker}'s {sense} gives {target}'s exact space: a normal attack (O13).",
        fr: "Le sens {sense} de {attacker} donne la case exacte de {target} : attaque normale (O13)."
    }
    O10PerceivesNormalAttack = "o10PerceivesNormalAttack" (attacker, target) {
        en: "{attacker} perceives {target}: a normal attack (O10).",
        fr: "{attacker} perçoit {target} : attaque normale (O10)."
    }
    O13PresenceOnlyAimsAtTheSpace = "o13PresenceOnlyAimsAtTheSpace" (attacker, target) {
        en: "{attacker} senses {target}'s presence but not its exact space and aims at its actual space: Accuracy with disadvantage (O13, O10).",
        fr: "{attacker} détecte la présence de {target} mais pas sa case exacte et vise sa case réelle : Précision avec désavantage (O13, O10)."
    }
    O13PresenceOnlyAimsElsewhere = "o13PresenceOnlyAimsElsewhere" (attacker, target) {
        en: "{attacker} senses {target}'s presence but not its exact space and aims elsewhere: the attack misses (O13, O10).",
        fr: "{attacker} détecte la présence de {target} mais pas sa case exacte et vise ailleurs : l'attaque échoue (O13, O10)."
    }
    O10NotHidingNormalAttack = "o10NotHidingNormalAttack" (target) {
        en: "{target} is not hiding: a normal attack (O10).",
        fr: "{target} ne se cache pas : attaque normale (O10)."
    }
    O10DoesNotPerceiveAimsAtTheSpace = "o10DoesNotPerceiveAimsAtTheSpace" (attacker, target) {
        en: "{attacker} does not perceive {target} but aims at its actual space: Accuracy with disadvantage (O10).",
        fr: "{attacker} ne perçoit pas {target} mais vise sa case réelle : Précision avec désavantage (O10)."
    }
    O10DoesNotPerceiveAimsElsewhere = "o10DoesNotPerceiveAimsElsewhere" (attacker, target) {
        en: "{attacker} does not perceive {target} and aims elsewhere: the attack misses (O10).",
        fr: "{attacker} ne perçoit pas {target} et vise ailleurs : l'attaque échoue (O10)."
    }
    P5MayLocate = "p5MayLocate" (observer, hider) {
        en: "{observer} perceives {hider} and may roll acuities to locate it (P5).",
        fr: "{observer} perçoit {hider} et peut faire des jets d'acuité pour le situer (P5)."
    }
    P5MayNotLocate = "p5MayNotLocate" (observer, hider) {
        en: "{observer} does not perceive {hider}: it may not attempt to locate it (P5).",
        fr: "{observer} ne perçoit pas {hider} : il ne peut pas tenter de le situer (P5)."
    }
    P6NotSurprised = "p6NotSurprised" (target, attacker, defender) {
        en: "{target} is not surprised by {attacker}: {defender} may defend (P6).",
        fr: "{target} n'est pas surpris par {attacker} : {defender} peut défendre (P6)."
    }
    P6Defenseless = "p6Defenseless" (target, attacker) {
        en: "{target} is defenseless against {attacker} this turn: no dodge, block or parry (P6).",
        fr: "{target} est sans défense face à {attacker} ce tour-ci : ni esquive, ni blocage, ni parade (P6)."
    }
    P6DefenderIsTheAttacker = "p6DefenderIsTheAttacker" (defender) {
        en: "{defender} is the attacker (P6).",
        fr: "{defender} est l'attaquant (P6)."
    }
    P6AllyMayDefend = "p6AllyMayDefend" (defender, attacker, target) {
        en: "{defender} perceives {attacker} and may defend {target} (P6).",
        fr: "{defender} perçoit {attacker} et peut défendre {target} (P6)."
    }
    P6AllyCannotDefend = "p6AllyCannotDefend" (defender, attacker, target) {
        en: "{defender} does not perceive {attacker} and cannot defend {target} this turn (P6).",
        fr: "{defender} ne perçoit pas {attacker} et ne peut pas défendre {target} ce tour-ci (P6)."
    }
    P8NotDefenseless = "p8NotDefenseless" (target, attacker) {
        en: "{target} is not defenseless against {attacker}: no knockout (P8).",
        fr: "{target} n'est pas sans défense face à {attacker} : pas d'assommement (P8)."
    }
    P8FirstAttackAimedElsewhere = "p8FirstAttackAimedElsewhere" (zone) {
        en: "The first attack aimed at the {zone}, not the head: no knockout (P7, P8).",
        fr: "La première attaque visait {zone}, pas la tête : pas d'assommement (P7, P8)."
    }
    P8FirstAttackChoseNoZone = "p8FirstAttackChoseNoZone" () {
        en: "The first attack did not choose the head: no knockout (P7, P8).",
        fr: "La première attaque n'a pas visé la tête : pas d'assommement (P7, P8)."
    }
    P8NotTheFirstAttack = "p8NotTheFirstAttack" (attacker, target) {
        en: "The knockout belongs to the first attack of the surprise; {attacker} has attacked {target} again since: no knockout (P7, P8).",
        fr: "L'assommement fait partie de la première attaque de la surprise ; {attacker} a attaqué {target} de nouveau depuis : pas d'assommement (P7, P8)."
    }
    P8Helmet = "p8Helmet" (target) {
        en: "{target} wears a helmet: no knockout (P8).",
        fr: "{target} porte un casque : pas d'assommement (P8)."
    }
    P10Perceives = "p10Perceives" (target, hider) {
        en: "{target} perceives {hider}: no pickpocketing (P10).",
        fr: "{target} perçoit {hider} : pas de vol à la tire (P10)."
    }
    P10HeldObject = "p10HeldObject" (target) {
        en: "{target} holds that object: it cannot be taken (P10).",
        fr: "{target} tient cet objet : il ne peut pas être pris (P10)."
    }
    P10HiddenObject = "p10HiddenObject" () {
        en: "A hidden object cannot be taken this way (P10).",
        fr: "Un objet caché ne peut pas être pris ainsi (P10)."
    }
    P10MayTakeTheObject = "p10MayTakeTheObject" (hider, target) {
        en: "{hider} may take the object from {target} for one minor action (P10).",
        fr: "{hider} peut prendre l'objet à {target} pour une action mineure (P10)."
    }
    /// "{hider} is not hiding: everyone perceives it, {observer} too ({clause})."
    /// `clause`: the ruleset's entry into stealth (P1, O1).
    NotHiding = "notHiding" (hider, observer, clause) {
        en: "{hider} is not hiding: everyone perceives it, {observer} too ({clause}).",
        fr: "{hider} ne se cache pas : tout le monde le perçoit, {observer} aussi ({clause})."
    }
    B1UnknownHider = "b1UnknownHider" (hider, observer) {
        en: "{hider} is not known to the engine: it is not hiding, and {observer} perceives it (B1).",
        fr: "{hider} n'est pas connu du moteur : il ne se cache pas, et {observer} le perçoit (B1)."
    }
    B1UnknownObserver = "b1UnknownObserver" (observer) {
        en: "{observer} is not known to the engine: it perceives no hider until the GM adds it (B1).",
        fr: "{observer} n'est pas connu du moteur : il ne perçoit aucune créature cachée tant que le MJ ne l'a pas ajouté (B1)."
    }
    Perceives = "perceives" (observer, hider) {
        en: "{observer} perceives {hider}.",
        fr: "{observer} perçoit {hider}."
    }
    DoesNotPerceive = "doesNotPerceive" (observer, hider) {
        en: "{observer} does not perceive {hider}.",
        fr: "{observer} ne perçoit pas {hider}."
    }
    P8KnockedOut = "p8KnockedOut" (d100, chance, target, minutes) {
        en: "Knockout: d100 {d100} ≤ base Furtivité {chance}: {target} is knocked out for {minutes} minute(s) (P8).",
        fr: "Assommement : d100 {d100} ≤ Furtivité de base {chance} : {target} est assommé pendant {minutes} minute(s) (P8)."
    }
    P8StaysConscious = "p8StaysConscious" (d100, chance, target) {
        en: "Knockout: d100 {d100} > base Furtivité {chance}: {target} stays conscious (P8).",
        fr: "Assommement : d100 {d100} > Furtivité de base {chance} : {target} reste conscient (P8)."
    }
    P8MayTry = "p8MayTry" (attacker, target, chance, minutes) {
        en: "{attacker} may try to knock {target} out: {chance}% chance, {minutes} minute(s), damage divided by 4 (P8).",
        fr: "{attacker} peut tenter d'assommer {target} : {chance} % de chances, {minutes} minute(s), dégâts divisés par 4 (P8)."
    }

    // ------------------------------------------------ Point-out to a mixed list, and the pairs query

    O3NotAllies = "o3NotAllies" (observer, others) {
        en: "{others}: not allies of {observer}, unaffected by the point-out (O3).",
        fr: "{others} : pas alliés de {observer}, non concernés par le signalement (O3)."
    }
    O3PointedOutTo = "o3PointedOutTo" (observer, hider) {
        en: "{observer} perceives {hider}: an ally pointed it out, no roll (O3).",
        fr: "{observer} perçoit {hider} : un allié le lui a signalé, sans jet (O3)."
    }
}

/// `en()` and `fr()` for answers that carry their explanation in a
/// `message` field.
macro_rules! texts_of_message {
    ($($type:ty),*) => {
        $(
            impl $type {
                /// The explanation's English text (B3).
                pub fn en(&self) -> String {
                    self.message.en()
                }

                /// The explanation's French text (B3).
                pub fn fr(&self) -> String {
                    self.message.fr()
                }
            }
        )*
    };
}
pub(crate) use texts_of_message;

/// The largest integer a JavaScript number holds exactly (2^53 - 1): an
/// integer argument beyond it crosses as its decimal text.
const MAX_EXACT_JS_INTEGER: u64 = (1 << 53) - 1;

/// One argument of a [`Message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Text written as it is: a token's name, a sense, a clause id, a
    /// signed or decimal number the engine wrote (`"+50"`, `"7.5"`).
    Text(String),
    /// An integer, written in decimal (`-5`). Crosses the boundary as a
    /// JSON number, or as its text beyond ±(2^53 - 1).
    Integer(i64),
    /// Another message, rendered in the same language: a hit zone, a
    /// situation modifier, a P1 tier term.
    Message(Message),
    /// Items joined by `", "`: the active modifiers, the allies told.
    List(Vec<Arg>),
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.into())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.into())
    }
}

impl From<i64> for Arg {
    fn from(number: i64) -> Arg {
        Arg::Integer(number)
    }
}

impl From<u32> for Arg {
    fn from(number: u32) -> Arg {
        Arg::Integer(i64::from(number))
    }
}

impl From<usize> for Arg {
    fn from(number: usize) -> Arg {
        Arg::Integer(i64::try_from(number).unwrap_or(i64::MAX))
    }
}

impl From<Message> for Arg {
    fn from(message: Message) -> Arg {
        Arg::Message(message)
    }
}

impl From<Key> for Arg {
    fn from(key: Key) -> Arg {
        Arg::Message(Message::new(key))
    }
}

impl From<crate::Clause> for Arg {
    fn from(clause: crate::Clause) -> Arg {
        Arg::Text(clause.id().into())
    }
}

/// An explanation (B3): a [`Key`] of the catalog and its named arguments.
///
/// Serialized as `[key, argument...]`: `[51, "Guard", "Ghost", 15]` for
/// [`Key::O4CheckRequested`] (`observer`, `hider`, `effective`); see
/// `impl Serialize for Message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Which template.
    pub key: Key,
    /// The values of its placeholders, by name, in the order given.
    pub args: Vec<(&'static str, Arg)>,
}

impl Message {
    /// A message without arguments yet, with room for all of its key's
    /// (one allocation, no growth as they are added).
    pub fn new(key: Key) -> Message {
        Message {
            key,
            args: Vec::with_capacity(key.args().len()),
        }
    }

    /// This message with one more argument, one of [`Key::args`], each
    /// given once ([`Message::arg`] takes the first of that name).
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Message {
        debug_assert!(
            self.key.args().contains(&name),
            "{:?} has no argument `{name}`",
            self.key
        );
        debug_assert!(
            self.args.iter().all(|(given, _)| *given != name),
            "{:?} has its argument `{name}` twice",
            self.key
        );
        self.args.push((name, value.into()));
        self
    }

    /// The argument named `name`.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args
            .iter()
            .find(|(arg, _)| *arg == name)
            .map(|(_, value)| value)
    }

    /// The message's text in `language`. A placeholder without an argument
    /// is left as it is (`{name}`), which the catalog test rules out.
    pub fn render(&self, language: Language) -> String {
        let mut text = String::with_capacity(160);
        self.render_into(language, &mut text);
        text
    }

    /// The English text.
    pub fn en(&self) -> String {
        self.render(Language::En)
    }

    /// The French text.
    pub fn fr(&self) -> String {
        self.render(Language::Fr)
    }

    fn render_into(&self, language: Language, text: &mut String) {
        fill(self.key.template(language), text, |name, text| {
            match self.arg(name) {
                Some(value) => {
                    value.render_into(language, text);
                    true
                }
                None => false,
            }
        });
    }
}

/// Writes `template` into `text`, each `{name}` placeholder by `write_arg`,
/// which answers whether it knew `name` (an unknown one is left as it is).
fn fill(template: &str, text: &mut String, mut write_arg: impl FnMut(&str, &mut String) -> bool) {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            text.push_str(&rest[open..]);
            return;
        };
        if !write_arg(&after[..close], text) {
            text.push_str(&rest[open..open + close + 2]);
        }
        rest = &after[close + 1..];
    }
    text.push_str(rest);
}

impl Arg {
    fn render_into(&self, language: Language, text: &mut String) {
        match self {
            Arg::Text(value) => text.push_str(value),
            Arg::Integer(number) => text.push_str(itoa::Buffer::new().format(*number)),
            Arg::Message(message) => message.render_into(language, text),
            Arg::List(items) => {
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        text.push_str(", ");
                    }
                    item.render_into(language, text);
                }
            }
        }
    }
}

/// A message as it crosses the JavaScript boundary: `[key, argument...]`,
/// the key's number (its place in [`Key::ALL`]) then its arguments in the
/// order of [`Key::args`], `null` for one missing (see [`Arg`] for each).
impl Serialize for Message {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.key.args();
        let mut seq = serializer.serialize_seq(Some(1 + names.len()))?;
        seq.serialize_element(&(self.key as u32))?;
        for name in names {
            seq.serialize_element(&self.arg(name))?;
        }
        seq.end()
    }
}

/// An argument as it crosses the boundary: a text as a string, an integer
/// as a number (as its decimal text beyond ±(2^53 - 1), which a JavaScript
/// number does not hold exactly), a message as `[key, argument...]`, a
/// list as `[-1, item...]`.
impl Serialize for Arg {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Arg::Text(text) => serializer.serialize_str(text),
            Arg::Integer(number) if number.unsigned_abs() <= MAX_EXACT_JS_INTEGER => {
                serializer.serialize_i64(*number)
            }
            Arg::Integer(number) => serializer.serialize_str(itoa::Buffer::new().format(*number)),
            Arg::Message(message) => message.serialize(serializer),
            Arg::List(items) => {
                let mut seq = serializer.serialize_seq(Some(1 + items.len()))?;
                seq.serialize_element(&-1)?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
        }
    }
}

/// Replaces the messages in a JSON result of the JSON boundary (`furtive-json`)
/// by their texts, as the npm package does
/// (`npm/explain.js`): the result's own `message` (a query's answer) and
/// the `message` of each entry of its `log` (an `apply`'s effects or
/// outcome) become `en` and `fr`. Anything else is left as it is.
pub fn render_result(result: &mut serde_json::Value) {
    use serde_json::Value;

    fn render_object(object: &mut serde_json::Map<String, Value>) {
        let Some(message) = object.remove("message") else {
            return;
        };
        let (en, fr) = (
            render_value(&message, Language::En),
            render_value(&message, Language::Fr),
        );
        object.insert("en".to_owned(), Value::String(en));
        object.insert("fr".to_owned(), Value::String(fr));
    }

    let Some(object) = result.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(log)) = object.get_mut("log") {
        for entry in log {
            if let Some(entry) = entry.as_object_mut() {
                render_object(entry);
            }
        }
    }
    render_object(object);
}

/// The text of a serialized message or argument in `language` (see
/// `impl Serialize for Message`).
fn render_value(value: &serde_json::Value, language: Language) -> String {
    use serde_json::Value;
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        Value::Array(items) => {
            let Some((first, rest)) = items.split_first() else {
                return String::new();
            };
            if first.as_i64() == Some(-1) {
                return rest
                    .iter()
                    .map(|item| render_value(item, language))
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            let key = first
                .as_u64()
                .and_then(|place| Key::ALL.get(usize::try_from(place).ok()?));
            let Some(key) = key else {
                return value.to_string();
            };
            let mut text = String::new();
            fill(key.template(language), &mut text, |name, text| {
                let place = key.args().iter().position(|arg| *arg == name);
                match place.and_then(|place| rest.get(place)) {
                    Some(arg) if !arg.is_null() => {
                        text.push_str(&render_value(arg, language));
                        true
                    }
                    _ => false,
                }
            });
            text
        }
        other => other.to_string(),
    }
}

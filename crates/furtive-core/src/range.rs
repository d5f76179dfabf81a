//! The rules' ranges of whole-number fields, named once. `validate` checks
//! the typed values against them (a Rust caller's values too); a JSON
//! number the field's type cannot hold (an acuity of `-10`, a roll of
//! `1e21`) never reaches that check, and [`crate::Error::refused`] words it
//! with the same range ([`of`]): a field out of range is `out_of_range`
//! with the rule's range on either side.

/// An inclusive range, `(min, max)`.
pub(crate) type Range = (i64, i64);

/// Largest magnitude accepted for skills, acuities, totals and modifiers.
pub(crate) const MAX_VALUE: i64 = 1000;
/// Most hits in one attack or damage event.
pub(crate) const MAX_HITS: i64 = 100;
/// Largest revision: 2^53 - 1, the largest integer a JavaScript number
/// holds exactly (`Number.MAX_SAFE_INTEGER`), so a caller in JavaScript
/// always reads the revision the engine wrote.
pub const MAX_REVISION: u64 = (1 << 53) - 1;

/// Furtivité, effective and base (P1, P8).
pub(crate) const SKILL: Range = (0, 500);
/// An acuity (P3), a strength (P8).
pub(crate) const ACUITY: Range = (0, MAX_VALUE);
/// A check total, a held total, a modifier (free, P2; a creature's, B4):
/// also an `opposed` roll (O1).
pub(crate) const TOTAL: Range = (-MAX_VALUE, MAX_VALUE);
/// A percentile stealth score (P1).
pub(crate) const SCORE: Range = (-100 * MAX_VALUE, 100 * MAX_VALUE);
/// A d100 (P1, P8).
pub(crate) const D100: Range = (1, 100);
/// The seeded roller's check die (B4).
pub(crate) const CHECK_DIE: Range = (2, MAX_VALUE);
/// A penalty's amount (O6): five a hit at most.
pub(crate) const PENALTY: Range = (0, 5 * MAX_HITS);
/// A knockout's raw damage (P8).
pub(crate) const RAW_DAMAGE: Range = (0, 100_000);

/// The rule's range of the whole-number field named `name` in JSON; for a
/// name two fields share, the wider (`roll`: an `opposed` total, as a
/// percentile d100 lies within it; `hits`: an attack's 0..=100).
pub(crate) fn of(name: &str) -> Option<Range> {
    const BY_NAME: [(&str, Range); 20] = [
        ("stealthSkill", SKILL),
        ("baseStealthSkill", SKILL),
        ("visual", ACUITY),
        ("auditory", ACUITY),
        ("olfactory", ACUITY),
        ("strength", ACUITY),
        ("stealthModifier", TOTAL),
        ("perceptionModifier", TOTAL),
        ("value", TOTAL),
        ("heldTotal", TOTAL),
        ("perceptionTotal", TOTAL),
        ("total", TOTAL),
        ("roll", TOTAL),
        ("score", SCORE),
        ("d100", D100),
        ("checkDie", CHECK_DIE),
        ("amount", PENALTY),
        ("rawDamage", RAW_DAMAGE),
        ("hits", (0, MAX_HITS)),
        ("revision", (0, MAX_REVISION as i64)),
    ];
    BY_NAME
        .iter()
        .find(|(field, _)| *field == name)
        .map(|(_, range)| *range)
}

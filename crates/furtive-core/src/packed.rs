//! The effects of a `Session`'s changing call as the bindings send them
//! (`apply`, `applyAll`, `settle` and the column forms of
//! [`crate::api_session::JsonSession`]): JSON text whose lists are packed
//! into numbers that index a table of strings, and whose log comes second,
//! so the npm package reads it only when `effects.log` is read
//! (`npm/packed.js` turns it back into the objects of [`Effects`]).
//!
//! Why: an event that asks 150 Perception checks has 150 requests and 150
//! log entries. As objects in JSON text they took longer to write in Rust
//! and to read with `JSON.parse` than the engine took to decide them; a
//! list of numbers and a table of strings is read in a fraction of that
//! (measured with `bench/session.mjs`: docs/state.md, "Ninth pass").
//!
//! The text is the head, then, when there are log entries, a newline
//! (`\n`, which JSON text never holds unescaped) and the log:
//!
//! - head: `{ "changes": [...], "requests": [...], "modifiers": [...]?,
//!   "revision": n, "hiddenFrom": [...], "log": n, "known": n?,
//!   "strings": [...] }`, `log` the number of log entries, each list
//!   flat, a string being its index in `strings` (written last: the lists
//!   are written as the effects are walked, the strings they name gathered
//!   meanwhile). `known`, present only for a caller that still holds the
//!   ids it sent ([`effects_text_naming`], [`SentIds`]): an index below
//!   `known` names the caller's own id in that place, and `strings` holds
//!   the others, from index `known` on.
//!   - a change: `0, hider, observer, perceived` (visibility) or `1, token,
//!     status, active, expires` (status: `0` hidden, `1` defenseless;
//!     `expires`: the `turnEndOf` token, or `-1` for none);
//!   - a request: `0, hider, observer, clause` (a Perception check), `1,
//!     hider, modifiers, clause` (a stealth roll, `modifiers` indexing the
//!     head's `modifiers`, present only then) or, with cargo feature
//!     `view-columns` (napi and the npm wasm; the Foundry module's wasm
//!     leaves it out for its size), `2, hider, clause, count,
//!     observer...` (a run of `count` Perception checks of one hider
//!     under one clause, one after the other, in place of as many `0`s);
//!   - a `hiddenFrom` change: `observer, hider, hidden`;
//!   - booleans are `0` and `1`;
//! - log: `{ "entries": [...], "strings": [...] }`, its strings indexed
//!   as the head's (below the head's `known`, the ids the caller sent; a
//!   message's text argument that is its entry's observer or hider, a
//!   label of a token without a name, by that id's index), each entry `clause,
//!   audience, hider, observer, message` (audience `0` GM, `1` public;
//!   `hider`, `observer` `-1` for none), a message `key, argument...` (the
//!   key's place in [`Key::ALL`](crate::message::Key::ALL), then its
//!   arguments in the order of [`Key::args`](crate::message::Key::args)),
//!   an argument `0, string` (text), `1, n` (an integer within ±(2^53 - 1);
//!   beyond, it is text), `2, message`, `3, count, argument...` (a list) or
//!   `4` (missing).

use std::borrow::Cow;

use crate::error::Error;
use crate::message::{Arg, Message};
use crate::outcome::{Audience, Change, LogEntry, Request, Status};
use crate::session::Effects;

/// The largest integer a JavaScript number holds exactly.
const MAX_EXACT_JS_INTEGER: u64 = (1 << 53) - 1;

/// One part of the text being written: its lists of numbers go straight
/// into `text`, the strings they index into `strings`, written last.
struct Part<'a> {
    text: String,
    strings: Vec<Cow<'a, str>>,
    /// Whether the list being written has no number yet.
    first: bool,
    /// The ids the caller sent, which index `0..known.len()` names
    /// without writing them ([`effects_text_naming`]); the table's own
    /// start after them.
    known: &'a [&'a str],
    /// How many of `known` are hiders (they come first).
    #[cfg(feature = "view-columns")]
    hiders: usize,
    /// The observer expected next: ids come back in the order they were
    /// sent (a view's observers, request after request).
    #[cfg(feature = "view-columns")]
    next_observer: usize,
    /// The hider of the view being named (a batch's views come in order).
    #[cfg(feature = "view-columns")]
    next_hider: usize,
}

impl<'a> Part<'a> {
    #[cfg_attr(not(feature = "view-columns"), allow(unused_variables))]
    fn new(capacity: usize, sent: SentIds<'a>) -> Part<'a> {
        Part {
            text: String::with_capacity(capacity),
            strings: Vec::with_capacity(capacity / 16),
            first: true,
            known: sent.ids,
            #[cfg(feature = "view-columns")]
            hiders: sent.hiders,
            #[cfg(feature = "view-columns")]
            next_observer: sent.hiders,
            #[cfg(feature = "view-columns")]
            next_hider: 0,
        }
    }

    /// `text`'s place among the ids the caller sent when it is the observer
    /// expected next (ids come back in the order they were sent), which it
    /// then moves past. Any string neither this nor a hider sent
    /// ([`Part::hider_place`]) is written in the table: a repeat there
    /// costs a few characters, never a wrong id.
    #[cfg(feature = "view-columns")]
    fn next_observer_place(&mut self, text: &str) -> Option<usize> {
        let observer = self.next_observer;
        let expected = self.known.get(observer).is_some_and(|known| *known == text);
        expected.then(|| {
            self.next_observer = observer + 1;
            observer
        })
    }

    /// `text`'s place among the hiders the caller sent, when it is the
    /// hider of the view being named or the next one (a batch's views come
    /// in order): at most two comparisons, whatever the number sent.
    #[cfg(feature = "view-columns")]
    fn hider_place(&mut self, text: &str) -> Option<usize> {
        let hider = self.next_hider;
        let place = [hider, hider + 1]
            .into_iter()
            .find(|&place| place < self.hiders && self.known[place] == text)?;
        self.next_hider = place;
        Some(place)
    }

    /// None sent without the column forms (feature `view-columns`), which
    /// alone send them.
    #[cfg(not(feature = "view-columns"))]
    fn next_observer_place(&mut self, _text: &str) -> Option<usize> {
        None
    }

    /// None sent without the column forms (feature `view-columns`).
    #[cfg(not(feature = "view-columns"))]
    fn hider_place(&mut self, _text: &str) -> Option<usize> {
        None
    }

    /// Expects the ids sent from the first again: each list of the head
    /// names them in the order they were sent.
    fn rewind_known(&mut self) {
        #[cfg(feature = "view-columns")]
        {
            self.next_observer = self.hiders;
            self.next_hider = 0;
        }
    }

    /// Starts the list `"name":[`, after `separator` (`{` or `,`).
    fn list(&mut self, separator: char, name: &str) {
        self.rewind_known();
        self.text.push(separator);
        self.text.push('"');
        self.text.push_str(name);
        self.text.push_str("\":[");
        self.first = true;
    }

    fn end_list(&mut self) {
        self.text.push(']');
    }

    fn number(&mut self, number: i64) {
        if !self.first {
            self.text.push(',');
        }
        self.first = false;
        // Most numbers here are one digit (kinds, flags, argument tags):
        // pushed as a character, without formatting or copying a slice.
        match u8::try_from(number) {
            Ok(digit @ 0..=9) => self.text.push(char::from(b'0' + digit)),
            _ => self.text.push_str(itoa::Buffer::new().format(number)),
        }
    }

    fn flag(&mut self, value: bool) {
        self.number(i64::from(value));
    }

    /// `text`'s index: the place of the observer the caller sent next, when
    /// it is that one; `last`'s when `text` is the same string as last time
    /// in this role (the hider of every request); the place of a hider the
    /// caller sent; or a new one in the table.
    fn string(&mut self, text: &'a str, last: &mut Option<(&'a str, i64)>) {
        // Fewer than 2^63 strings are known.
        if let Some(place) = self.next_observer_place(text) {
            *last = Some((text, place as i64));
            return self.number(place as i64);
        }
        if let Some((previous, index)) = *last {
            // The same allocation (a request's hider, entry after entry)
            // is equal without reading it.
            if std::ptr::eq(previous, text) || previous == text {
                return self.number(index);
            }
        }
        let index = match self.hider_place(text) {
            Some(place) => place as i64,
            None => self.add(text),
        };
        *last = Some((text, index));
        self.number(index);
    }

    /// A new string in the table: its index, after the known strings.
    fn add(&mut self, text: impl Into<Cow<'a, str>>) -> i64 {
        self.strings.push(text.into());
        // A table holds far fewer than 2^63 strings.
        (self.known.len() + self.strings.len() - 1) as i64
    }

    /// Ends the part with its `"strings":[...]}` and returns its text.
    ///
    /// A string of printable ASCII without `"` or `\` (every Foundry id,
    /// most names) is written between quotes as it is, which is what
    /// [`crate::api::to_json_text`] writes for it; any other goes through
    /// that function (escapes, `\u` for non-ASCII).
    fn finish(mut self) -> Result<String, Error> {
        self.text.push_str(",\"strings\":[");
        let length: usize = self.strings.iter().map(|s| s.len() + 3).sum();
        self.text.reserve(length + 2);
        for (place, string) in self.strings.iter().enumerate() {
            if place > 0 {
                self.text.push(',');
            }
            // Every byte tested, without stopping at the first bad one: a
            // loop the compiler turns into vector instructions.
            let plain = string.bytes().fold(true, |plain, b| {
                plain & (0x20..0x7f).contains(&b) & (b != b'"') & (b != b'\\')
            });
            if plain {
                self.text.push('"');
                self.text.push_str(string);
                self.text.push('"');
            } else {
                self.text.push_str(&crate::api::to_json_text(string)?);
            }
        }
        self.text.push_str("]}");
        Ok(self.text)
    }
}

/// The packed JSON text of `effects` (see the module documentation).
pub fn effects_text(effects: &Effects) -> Result<String, Error> {
    effects_text_naming(effects, SentIds::default())
}

/// The ids a column form was sent, which its packed effects name by their
/// place ([`effects_text_naming`]): `ids`, the hiders first (`hiders` of
/// them), then the observers, in the order the npm package sent them.
#[derive(Debug, Clone, Copy, Default)]
pub struct SentIds<'a> {
    /// Every id sent: the hiders', then the observers'.
    pub ids: &'a [&'a str],
    /// How many of `ids` are hiders.
    pub hiders: usize,
}

/// [`effects_text`] for a caller that still holds the ids it sent
/// (`sent`): index `i < sent.ids.len()` names `sent.ids[i]`, which the
/// head does not write (`"known": n` says how many), and the table's
/// strings come after them. Id after id, the same effects in fewer
/// characters, and the caller's own strings in them.
pub fn effects_text_naming(effects: &Effects, sent: SentIds) -> Result<String, Error> {
    let mut out = head_text(effects, sent)?;
    if !effects.log.is_empty() {
        out.push('\n');
        out = log(&effects.log, out, sent).finish()?;
    }
    Ok(out)
}

/// The head part alone (everything but the log), finished.
fn head_text(effects: &Effects, sent: SentIds) -> Result<String, Error> {
    head(effects, sent)?.finish()
}

fn head<'a>(effects: &'a Effects, sent: SentIds<'a>) -> Result<Part<'a>, Error> {
    let mut part = Part::new(
        64 + 12 * (effects.changes.len() + effects.requests.len() + effects.hidden_from.len()),
        sent,
    );
    let (mut hider, mut observer, mut clause) = (None, None, None);
    part.list('{', "changes");
    for change in &effects.changes {
        match change {
            Change::Visibility {
                hider: h,
                observer: o,
                perceived,
            } => {
                part.number(0);
                part.string(h, &mut hider);
                part.string(o, &mut observer);
                part.flag(*perceived);
            }
            Change::Status {
                token,
                status,
                active,
                expires,
            } => {
                part.number(1);
                part.string(token, &mut observer);
                part.flag(*status == Status::Defenseless);
                part.flag(*active);
                match expires {
                    Some(expiry) => part.string(&expiry.turn_end_of, &mut hider),
                    None => part.number(-1),
                }
            }
        }
    }
    part.end_list();
    part.list(',', "requests");
    let mut modifiers = Vec::new();
    let mut at = 0;
    while let Some(request) = effects.requests.get(at) {
        at += 1;
        match request {
            // A run of Perception checks of one hider under one clause (a
            // view bringing 150 observers into clear view): `2, hider,
            // clause, count, observer...`.
            #[cfg(feature = "view-columns")]
            Request::PerceptionCheck {
                hider: h,
                observer: o,
                clause: c,
            } => {
                let start = at - 1;
                while let Some(Request::PerceptionCheck {
                    hider: next_hider,
                    clause: next_clause,
                    ..
                }) = effects.requests.get(at)
                {
                    if next_hider != h || next_clause != c {
                        break;
                    }
                    at += 1;
                }
                part.number(2);
                part.string(h, &mut hider);
                part.string(c.id(), &mut clause);
                part.number((at - start) as i64);
                part.string(o, &mut observer);
                for next in &effects.requests[start + 1..at] {
                    if let Request::PerceptionCheck { observer: o, .. } = next {
                        part.string(o, &mut observer);
                    }
                }
            }
            #[cfg(not(feature = "view-columns"))]
            Request::PerceptionCheck {
                hider: h,
                observer: o,
                clause: c,
            } => {
                part.number(0);
                part.string(h, &mut hider);
                part.string(o, &mut observer);
                part.string(c.id(), &mut clause);
            }
            Request::StealthRoll {
                hider: h,
                modifiers: m,
                clause: c,
            } => {
                modifiers.push(m);
                part.number(1);
                part.string(h, &mut hider);
                part.number((modifiers.len() - 1) as i64);
                part.string(c.id(), &mut clause);
            }
        }
    }
    part.end_list();
    if !modifiers.is_empty() {
        part.text.push_str(",\"modifiers\":");
        part.text.push_str(&crate::api::to_json_text(&modifiers)?);
    }
    part.text.push_str(",\"revision\":");
    part.text
        .push_str(itoa::Buffer::new().format(effects.revision));
    part.list(',', "hiddenFrom");
    for change in &effects.hidden_from {
        part.string(&change.observer, &mut observer);
        part.string(&change.hider, &mut hider);
        part.flag(change.hidden);
    }
    part.end_list();
    part.text.push_str(",\"log\":");
    part.text
        .push_str(itoa::Buffer::new().format(effects.log.len()));
    if !sent.ids.is_empty() {
        part.text.push_str(",\"known\":");
        part.text
            .push_str(itoa::Buffer::new().format(sent.ids.len()));
    }
    Ok(part)
}

/// The roles whose strings come again and again in a log: the same hider,
/// observer and clause in entry after entry, the same names in their
/// messages.
#[derive(Default)]
struct LogRoles<'a> {
    clause: Option<(&'a str, i64)>,
    hider: Option<(&'a str, i64)>,
    observer: Option<(&'a str, i64)>,
    /// By argument place: the text an argument in that place had last.
    arguments: [Option<(&'a str, i64)>; 8],
}

/// The log part, written after `text` (the head and its newline). Its
/// indices name the ids the caller sent (`sent`) as the head's do: the
/// log is read with the same ids, after the head.
fn log<'a>(entries: &'a [LogEntry], mut text: String, sent: SentIds<'a>) -> Part<'a> {
    text.reserve(16 + 40 * entries.len());
    let mut part = Part {
        text,
        strings: Vec::with_capacity(entries.len()),
        first: true,
        known: sent.ids,
        #[cfg(feature = "view-columns")]
        hiders: sent.hiders,
        #[cfg(feature = "view-columns")]
        next_observer: sent.hiders,
        #[cfg(feature = "view-columns")]
        next_hider: 0,
    };
    let mut roles = LogRoles::default();
    part.list('{', "entries");
    for entry in entries {
        part.string(entry.clause.id(), &mut roles.clause);
        part.number(match entry.audience {
            Audience::Gm => 0,
            Audience::Public => 1,
        });
        match entry.hider.as_deref() {
            Some(id) => part.string(id, &mut roles.hider),
            None => part.number(-1),
        }
        match entry.observer.as_deref() {
            Some(id) => part.string(id, &mut roles.observer),
            None => part.number(-1),
        }
        let mut names = Names {
            recent: &mut roles.arguments,
            // `roles` holds the strings just written, with their indices.
            #[cfg(feature = "view-columns")]
            entry: [
                entry.observer.is_some().then_some(roles.observer).flatten(),
                entry.hider.is_some().then_some(roles.hider).flatten(),
            ],
        };
        message(&entry.message, &mut part, &mut names);
    }
    part.end_list();
    part
}

/// The strings a message's text arguments are likely to repeat: the one
/// each argument place had last, and the entry's own observer and hider
/// (a label is the token's id when its creature has no name).
struct Names<'a, 'r> {
    recent: &'r mut [Option<(&'a str, i64)>; 8],
    /// The entry's observer and hider with their indices, when it has them.
    #[cfg(feature = "view-columns")]
    entry: [Option<(&'a str, i64)>; 2],
}

fn message<'a>(message: &'a Message, part: &mut Part<'a>, names: &mut Names<'a, '_>) {
    // A key's number is its place in `Key::ALL` (the catalog's order).
    part.number(message.key as i64);
    for (place, name) in message.key.args().iter().enumerate() {
        // The rules add a message's arguments in its key's order: the one
        // in the same place is the one named (one comparison of two short
        // names, often the same literal), else it is looked for.
        let value = match message.args.get(place) {
            Some((given, value)) if std::ptr::eq(*given, *name) || given == name => Some(value),
            _ => message.arg(name),
        };
        match value {
            Some(value) => argument(value, place, part, names),
            None => part.number(4),
        }
    }
}

fn argument<'a>(value: &'a Arg, place: usize, part: &mut Part<'a>, names: &mut Names<'a, '_>) {
    match value {
        Arg::Text(text) => {
            part.number(0);
            let text: &'a str = text;
            // Only the column forms send ids, and with them labels that
            // are ids come in every entry (the Foundry module's wasm
            // leaves this out for its size).
            #[cfg(feature = "view-columns")]
            if let Some(&(_, index)) = names.entry.iter().flatten().find(|(id, _)| *id == text) {
                return part.number(index);
            }
            match names.recent.get_mut(place) {
                Some(last) => part.string(text, last),
                None => {
                    let index = part.add(text);
                    part.number(index);
                }
            }
        }
        Arg::Integer(number) if number.unsigned_abs() <= MAX_EXACT_JS_INTEGER => {
            part.number(1);
            part.number(*number);
        }
        Arg::Integer(number) => {
            // Beyond what a JavaScript number holds: its decimal text, as the
            // message's JSON writes it.
            part.number(0);
            let index = part.add(number.to_string());
            part.number(index);
        }
        Arg::Message(nested) => {
            part.number(2);
            message(nested, part, names);
        }
        Arg::List(items) => {
            part.number(3);
            part.number(items.len() as i64);
            for item in items {
                argument(item, usize::MAX, part, names);
            }
        }
    }
}

/// Reads packed effects text back as the JSON of [`Effects`] (the same
/// value `serde_json::to_value(&effects)` gives): what `npm/packed.js`
/// does in JavaScript, here for the tests and the fuzz target that check
/// the packing loses nothing. `None` for text this module did not write.
pub fn unpack_effects(text: &str) -> Option<serde_json::Value> {
    unpack_effects_with_known(text, &[])
}

/// [`unpack_effects`] of a head written with the strings the caller sent
/// ([`effects_text_naming`], `known` the ids it was sent, in order).
/// `None` also when the head counts another
/// number of known strings than `known` holds.
pub fn unpack_effects_with_known(text: &str, known: &[&str]) -> Option<serde_json::Value> {
    use serde_json::{json, Map, Value};

    let (head, log) = match text.split_once('\n') {
        Some((head, log)) => (head, Some(log)),
        None => (text, None),
    };
    let head: Value = serde_json::from_str(head).ok()?;
    let written_known = match head.get("known") {
        Some(count) => usize::try_from(count.as_u64()?).ok()?,
        None => 0,
    };
    if written_known != known.len() {
        return None;
    }
    let strings = head["strings"].as_array()?;
    let string = |index: &Value| {
        let index = usize::try_from(index.as_i64()?).ok()?;
        match known.get(index) {
            Some(known) => Some(Value::String((*known).to_owned())),
            None => strings.get(index - known.len()).cloned(),
        }
    };
    let flag = |value: &Value| Some(Value::Bool(value.as_i64()? == 1));
    let numbers = |name: &str| head[name].as_array().cloned().unwrap_or_default();

    let mut changes = Vec::new();
    let packed = numbers("changes");
    let mut at = 0;
    while at < packed.len() {
        if packed[at].as_i64()? == 0 {
            let part = packed.get(at + 1..at + 4)?;
            changes.push(json!({ "kind": "visibility", "hider": string(&part[0])?, "observer": string(&part[1])?, "perceived": flag(&part[2])? }));
            at += 4;
        } else {
            let part = packed.get(at + 1..at + 5)?;
            let status = if part[1].as_i64()? == 1 {
                "defenseless"
            } else {
                "hidden"
            };
            let mut change = json!({ "kind": "status", "token": string(&part[0])?, "status": status, "active": flag(&part[2])? });
            if part[3].as_i64()? >= 0 {
                change["expires"] = json!({ "turnEndOf": string(&part[3])? });
            }
            changes.push(change);
            at += 5;
        }
    }
    let mut requests = Vec::new();
    let packed = numbers("requests");
    let mut at = 0;
    while at < packed.len() {
        let part = packed.get(at + 1..at + 4)?;
        match packed[at].as_i64()? {
            0 => {
                requests.push(json!({ "kind": "perceptionCheck", "hider": string(&part[0])?, "observer": string(&part[1])?, "clause": string(&part[2])? }));
                at += 4;
            }
            1 => {
                let modifiers = head["modifiers"].get(usize::try_from(part[1].as_i64()?).ok()?)?;
                requests.push(json!({ "kind": "stealthRoll", "hider": string(&part[0])?, "modifiers": modifiers, "clause": string(&part[2])? }));
                at += 4;
            }
            _ => {
                let count = usize::try_from(part[2].as_u64()?).ok()?;
                let observers = packed.get(at + 4..(at + 4).checked_add(count)?)?;
                for observer in observers {
                    requests.push(json!({ "kind": "perceptionCheck", "hider": string(&part[0])?, "observer": string(observer)?, "clause": string(&part[1])? }));
                }
                at += 4 + count;
            }
        }
    }
    let mut hidden_from = Vec::new();
    for part in numbers("hiddenFrom").chunks(3) {
        hidden_from.push(json!({ "observer": string(&part[0])?, "hider": string(&part[1])?, "hidden": flag(&part[2])? }));
    }

    let mut entries = Vec::new();
    if let Some(log) = log {
        let log: Value = serde_json::from_str(log).ok()?;
        let strings = log["strings"].as_array()?;
        let mut packed = log["entries"].as_array()?.iter();
        let mut next = || packed.next().and_then(Value::as_i64);
        let string = |index: i64| {
            let index = usize::try_from(index).ok()?;
            match known.get(index) {
                Some(known) => Some(Value::String((*known).to_owned())),
                None => strings.get(index - known.len()).cloned(),
            }
        };
        // A message as its JSON writes it: `[key, argument...]`, `null`
        // for a missing argument, a list as `[-1, item...]`.
        fn message(
            next: &mut dyn FnMut() -> Option<i64>,
            string: &dyn Fn(i64) -> Option<Value>,
        ) -> Option<Value> {
            let number = next()?;
            let key = *crate::message::Key::ALL.get(usize::try_from(number).ok()?)?;
            let mut items = vec![Value::from(number)];
            for _ in key.args() {
                items.push(argument(next, string)?);
            }
            Some(Value::Array(items))
        }
        fn argument(
            next: &mut dyn FnMut() -> Option<i64>,
            string: &dyn Fn(i64) -> Option<Value>,
        ) -> Option<Value> {
            Some(match next()? {
                0 => string(next()?)?,
                1 => Value::from(next()?),
                2 => message(next, string)?,
                3 => {
                    let count = next()?;
                    let mut items = vec![Value::from(-1)];
                    for _ in 0..count {
                        items.push(argument(next, string)?);
                    }
                    Value::Array(items)
                }
                _ => Value::Null,
            })
        }
        while let Some(clause) = next() {
            let clause = string(clause)?;
            let audience = if next()? == 1 { "public" } else { "gm" };
            let mut entry = Map::new();
            entry.insert("clause".to_owned(), clause);
            entry.insert("audience".to_owned(), audience.into());
            let hider = next()?;
            let observer = next()?;
            if hider >= 0 {
                entry.insert("hider".to_owned(), string(hider)?);
            }
            if observer >= 0 {
                entry.insert("observer".to_owned(), string(observer)?);
            }
            entry.insert("message".to_owned(), message(&mut next, &string)?);
            entries.push(Value::Object(entry));
        }
    }
    Some(json!({
        "changes": changes,
        "requests": requests,
        "log": entries,
        "revision": head["revision"],
        "hiddenFrom": hidden_from,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Key;
    use crate::outcome::Expiry;
    use crate::session::HiddenFromChange;
    use crate::state::{FreeModifier, Modifiers, SituationModifier};
    use crate::Clause;

    /// Every kind of record, with the corners: a status without expiry and
    /// with one, a stealth roll's modifiers, an entry without observer, a
    /// public entry, an integer beyond 2^53, a list, a nested message, text
    /// that needs escaping.
    fn effects() -> Effects {
        let message = Message::new(Key::P1StealthScore)
            .with("hider", "Ghost \"é\" \u{1F600}")
            .with("score", i64::MAX)
            .with("stealthSkill", 50u32)
            .with("tier", Message::new(Key::P1TierWhole).with("d100", 37u32))
            .with("modifierTotal", "+50")
            .with(
                "modifiers",
                Arg::List(vec![Message::new(Key::Modifier)
                    .with("name", Key::SituationDark)
                    .with("value", "+50")
                    .into()]),
            );
        Effects {
            changes: vec![
                Change::Visibility {
                    hider: "spy".into(),
                    observer: "guard".into(),
                    perceived: true,
                },
                Change::Status {
                    token: "spy".into(),
                    status: Status::Hidden,
                    active: false,
                    expires: None,
                },
                Change::Status {
                    token: "guard".into(),
                    status: Status::Defenseless,
                    active: true,
                    expires: Some(Expiry {
                        turn_end_of: "spy".into(),
                    }),
                },
            ],
            requests: vec![
                Request::PerceptionCheck {
                    hider: "spy".into(),
                    observer: "guard".into(),
                    clause: Clause::O4,
                },
                Request::StealthRoll {
                    hider: "spy".into(),
                    modifiers: Modifiers {
                        situation: vec![SituationModifier::Dark],
                        free: vec![FreeModifier {
                            label: "wind".into(),
                            value: -5,
                        }],
                    },
                    clause: Clause::P4,
                },
            ],
            log: vec![
                LogEntry {
                    clause: Clause::P1,
                    audience: Audience::Gm,
                    hider: Some("spy".into()),
                    observer: None,
                    message: message.clone(),
                },
                LogEntry {
                    clause: Clause::P1,
                    audience: Audience::Public,
                    hider: None,
                    observer: Some("guard".into()),
                    message: Message::new(Key::P6CombatEnded),
                },
            ],
            revision: 9,
            hidden_from: vec![HiddenFromChange {
                observer: "guard".into(),
                hider: "spy".into(),
                hidden: false,
            }],
        }
    }

    /// `effects` packed for a caller that sent `known` (its first
    /// `hiders` the hiders), checked to read back with them as the same
    /// effects.
    #[cfg(feature = "view-columns")]
    fn written_with_sent_ids(effects: &Effects, known: &[&str], hiders: usize) -> String {
        let text = effects_text_naming(effects, SentIds { ids: known, hiders }).unwrap();
        assert_eq!(
            unpack_effects_with_known(&text, known),
            Some(serde_json::to_value(effects).unwrap())
        );
        text
    }

    #[test]
    fn packed_effects_read_back_as_their_json() {
        let effects = effects();
        let text = effects_text(&effects).unwrap();
        assert!(text.is_ascii(), "{text}");
        assert_eq!(
            unpack_effects(&text),
            Some(serde_json::to_value(&effects).unwrap())
        );
    }

    /// The string table writes plain ASCII as it is and everything else
    /// through `to_json_text`: both read back exactly, and the text is
    /// what `to_json_text` writes for the whole table.
    #[test]
    fn packed_strings_read_back_exactly_whatever_they_hold() {
        let names = [
            "tok0000000000001",
            "",
            "a\"b",
            "back\\slash",
            "line\nbreak\ttab\u{0}nul",
            "del\u{7f}",
            "Gardé ☾",
            "~ }{ ]",
        ];
        let mut effects = effects();
        effects.log.clear();
        effects.changes = names
            .iter()
            .map(|name| Change::Visibility {
                hider: "spy".into(),
                observer: (*name).into(),
                perceived: false,
            })
            .collect();
        let text = effects_text(&effects).unwrap();
        assert!(text.is_ascii(), "{text}");
        assert_eq!(
            unpack_effects(&text),
            Some(serde_json::to_value(&effects).unwrap())
        );
        let head: serde_json::Value = serde_json::from_str(&text).unwrap();
        let table: Vec<String> = serde_json::from_value(head["strings"].clone()).unwrap();
        let written = &text[text.find("\"strings\":").unwrap() + 10..text.len() - 1];
        assert_eq!(written, crate::api::to_json_text(&table).unwrap());
    }

    /// A message whose arguments were added out of its key's order is
    /// written in the key's order all the same.
    #[test]
    fn packed_message_arguments_follow_the_key_order() {
        let mut effects = effects();
        let in_order = Message::new(Key::O4CheckRequested)
            .with("observer", "Guard")
            .with("hider", "Ghost")
            .with("effective", 15i64);
        let reordered = Message::new(Key::O4CheckRequested)
            .with("effective", 15i64)
            .with("hider", "Ghost")
            .with("observer", "Guard");
        effects.log.truncate(1);
        effects.log[0].message = in_order;
        let expected = effects_text(&effects).unwrap();
        effects.log[0].message = reordered;
        assert_eq!(effects_text(&effects).unwrap(), expected);
    }

    #[test]
    fn packed_effects_without_log_have_no_second_part() {
        let mut effects = effects();
        effects.log.clear();
        let text = effects_text(&effects).unwrap();
        assert!(!text.contains('\n'));
        assert_eq!(
            unpack_effects(&text),
            Some(serde_json::to_value(&effects).unwrap())
        );
    }

    #[cfg(feature = "view-columns")]
    fn check(hider: &str, observer: &str, clause: Clause) -> Request {
        Request::PerceptionCheck {
            hider: hider.into(),
            observer: observer.into(),
            clause,
        }
    }

    /// Perception checks one after the other of one hider under one clause
    /// are one run (`2, hider, clause, count, observer...`); another
    /// hider, another clause or a stealth roll between them starts another.
    #[cfg(feature = "view-columns")]
    #[test]
    fn packed_perception_checks_of_one_hider_and_clause_are_one_run() {
        let mut effects = effects();
        let roll = effects.requests[1].clone();
        effects.requests = vec![
            check("spy", "guard", Clause::O4),
            check("spy", "hound", Clause::O4),
            check("spy", "captain", Clause::O4),
            check("spy", "guard", Clause::O13),
            check("thief", "guard", Clause::O13),
            roll,
            check("thief", "hound", Clause::O13),
        ];
        let text = effects_text(&effects).unwrap();
        assert_eq!(
            unpack_effects(&text),
            Some(serde_json::to_value(&effects).unwrap())
        );
        let head: serde_json::Value =
            serde_json::from_str(text.split('\n').next().unwrap()).unwrap();
        let requests: Vec<i64> = serde_json::from_value(head["requests"].clone()).unwrap();
        let strings: Vec<String> = serde_json::from_value(head["strings"].clone()).unwrap();
        let name = |at: usize| strings[requests[at] as usize].as_str();
        let run = |at: usize| {
            let count = requests[at + 3] as usize;
            let observers: Vec<&str> = (0..count).map(|k| name(at + 4 + k)).collect();
            (requests[at], name(at + 1), name(at + 2), observers)
        };
        assert_eq!(run(0), (2, "spy", "O4", vec!["guard", "hound", "captain"]));
        assert_eq!(run(7), (2, "spy", "O13", vec!["guard"]));
        assert_eq!(run(12), (2, "thief", "O13", vec!["guard"]));
        assert_eq!((requests[17], name(18)), (1, "spy"), "the stealth roll");
        assert_eq!(run(21), (2, "thief", "O13", vec!["hound"]));
        assert_eq!(requests.len(), 26);
    }

    /// A head written with the strings the caller sent names them by their
    /// place, does not write them, and reads back with them as the same
    /// effects; read with another number of them, it is not read at all.
    #[cfg(feature = "view-columns")]
    #[test]
    fn packed_effects_name_the_ids_the_caller_sent_by_their_place() {
        let mut effects = effects();
        effects.requests = vec![
            check("spy", "guard", Clause::O4),
            check("spy", "hound", Clause::O4),
            check("spy", "stranger", Clause::O4),
        ];
        let known = ["spy", "guard", "hound"];
        let text = written_with_sent_ids(&effects, &known, 1);
        let head_part = text.split('\n').next().unwrap();
        let head: serde_json::Value = serde_json::from_str(head_part).unwrap();
        assert_eq!(head["known"], 3);
        let strings: Vec<String> = serde_json::from_value(head["strings"].clone()).unwrap();
        assert!(!strings.iter().any(|s| s == "hound"), "{head_part}");
        assert!(strings.iter().any(|s| s == "stranger"), "{head_part}");
        let requests: Vec<i64> = serde_json::from_value(head["requests"].clone()).unwrap();
        assert_eq!(requests[5], 2, "hound by its place: {head_part}");
        assert_eq!(unpack_effects(&text), None);
        assert_eq!(unpack_effects_with_known(&text, &known[..2]), None);
        // Without known strings the head is what it always was.
        assert_eq!(
            effects_text_naming(&effects, SentIds::default()).unwrap(),
            effects_text(&effects).unwrap()
        );
    }

    /// The log names the ids the caller sent by their place too, and a
    /// message's label that is its entry's observer or hider (a token
    /// whose creature has no name) by that id's index: the log's table
    /// holds only the clause and the one real name.
    #[cfg(feature = "view-columns")]
    #[test]
    fn packed_log_names_the_ids_the_caller_sent_and_its_entries_own_ids() {
        let mut effects = effects();
        let requested = |observer: &str, label: &str| LogEntry {
            clause: Clause::O4,
            audience: Audience::Gm,
            hider: Some("spy".into()),
            observer: Some(observer.into()),
            message: Message::new(Key::O4CheckRequested)
                .with("observer", label)
                .with("hider", "spy")
                .with("effective", 15i64),
        };
        effects.log = vec![
            requested("guard", "guard"),
            requested("hound", "Old Hound"),
            requested("stranger", "stranger"),
        ];
        let known = ["spy", "guard", "hound"];
        let text = written_with_sent_ids(&effects, &known, 1);
        let log: serde_json::Value =
            serde_json::from_str(text.split('\n').nth(1).unwrap()).unwrap();
        assert_eq!(
            log["strings"],
            serde_json::json!(["O4", "Old Hound", "stranger"]),
            "{text}"
        );
        // guard's entry: clause, GM, spy (0), guard (1), then its key and
        // its labels: guard's and spy's places again, and the total.
        let entries: Vec<i64> = serde_json::from_value(log["entries"].clone()).unwrap();
        let key = Key::O4CheckRequested as i64;
        assert_eq!(
            entries[..11],
            [3, 0, 0, 1, key, 0, 1, 0, 0, 1, 15],
            "{text}"
        );
    }

    /// A batch's ids sent (its hiders, then every view's observers) are
    /// named by their place view after view, in every list of the head:
    /// only the clause is written.
    #[cfg(feature = "view-columns")]
    #[test]
    fn packed_effects_of_a_batch_name_every_id_sent_by_its_place() {
        let mut effects = effects();
        effects.log.clear();
        effects.changes = ["thief", "spy"]
            .iter()
            .flat_map(|hider| {
                ["guard", "hound"].map(|observer| Change::Visibility {
                    hider: (*hider).into(),
                    observer: observer.into(),
                    perceived: false,
                })
            })
            .collect();
        effects.requests = vec![
            check("thief", "guard", Clause::O4),
            check("thief", "hound", Clause::O4),
            check("spy", "guard", Clause::O4),
            check("spy", "hound", Clause::O4),
        ];
        effects.hidden_from.clear();
        let known = ["thief", "spy", "guard", "hound", "guard", "hound"];
        let text = written_with_sent_ids(&effects, &known, 2);
        let head: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(head["strings"], serde_json::json!(["O4"]), "{text}");
    }
}

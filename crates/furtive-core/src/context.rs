//! What a rule writes besides the state: explanations (B3) and requests,
//! and the names explanations use.

use crate::clause::Clause;
use crate::explain::{Explained, Text};
use crate::outcome::{Audience, LogEntry, Request};
use crate::state::State;

/// Collects requests and explanations while an event is applied.
pub(crate) struct Ctx {
    pub log: Vec<LogEntry>,
    pub requests: Vec<Request>,
    show_numbers: bool,
}

impl Ctx {
    pub fn new(show_numbers: bool) -> Self {
        Ctx {
            log: Vec::new(),
            requests: Vec::new(),
            show_numbers,
        }
    }

    /// A GM-only explanation with numbers.
    pub fn gm(&mut self, clause: Clause, hider: Option<&str>, observer: Option<&str>, text: Text) {
        self.push(clause, Audience::Gm, hider, observer, text);
    }

    /// A GM explanation with numbers plus a public one: the public text is
    /// `texts.public` (no numbers), or the GM text when the P2 setting
    /// shows numbers to players.
    pub fn both(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        texts: Explained,
    ) {
        let public = if self.show_numbers {
            Text {
                en: texts.gm.en.clone(),
                fr: texts.gm.fr.clone(),
            }
        } else {
            texts.public
        };
        self.push(clause, Audience::Gm, hider, observer, texts.gm);
        self.push(clause, Audience::Public, hider, observer, public);
    }

    /// A public explanation that carries no hidden number.
    pub fn public(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        text: Text,
    ) {
        self.push(clause, Audience::Public, hider, observer, text);
    }

    fn push(
        &mut self,
        clause: Clause,
        audience: Audience,
        hider: Option<&str>,
        observer: Option<&str>,
        Text { en, fr }: Text,
    ) {
        self.log.push(LogEntry {
            clause,
            audience,
            hider: hider.map(str::to_owned),
            observer: observer.map(str::to_owned),
            en,
            fr,
        });
    }
}

/// A token's display name, or its id.
pub(crate) fn label(state: &State, id: &str) -> String {
    label_ref(state, id).to_owned()
}

/// A token's display name, or its id, borrowed.
pub(crate) fn label_ref<'a>(state: &'a State, id: &'a str) -> &'a str {
    crate::id::get(&state.creatures, id).map_or(id, |c| c.label())
}

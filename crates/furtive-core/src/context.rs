//! What a rule writes besides the state: explanations (B3) and requests,
//! and the names explanations use.

use crate::clause::Clause;
use crate::explain::Explained;
use crate::message::Message;
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
    pub fn gm(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        message: Message,
    ) {
        self.push(clause, Audience::Gm, hider, observer, message);
    }

    /// A GM explanation with numbers plus a public one: the public message
    /// is `messages.public` (no numbers), or the GM message when the P2
    /// setting shows numbers to players.
    pub fn both(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        messages: Explained,
    ) {
        let public = if self.show_numbers {
            messages.gm.clone()
        } else {
            messages.public
        };
        self.push(clause, Audience::Gm, hider, observer, messages.gm);
        self.push(clause, Audience::Public, hider, observer, public);
    }

    /// A public explanation that carries no hidden number.
    pub fn public(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        message: Message,
    ) {
        self.push(clause, Audience::Public, hider, observer, message);
    }

    fn push(
        &mut self,
        clause: Clause,
        audience: Audience,
        hider: Option<&str>,
        observer: Option<&str>,
        message: Message,
    ) {
        self.log.push(LogEntry {
            clause,
            audience,
            hider: hider.map(str::to_owned),
            observer: observer.map(str::to_owned),
            message,
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

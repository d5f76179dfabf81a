//! What a rule writes besides the state: explanations (B3) and requests,
//! and the names explanations use.

use crate::clause::Clause;
use crate::explain::Explained;
use crate::message::Message;
use crate::outcome::{Audience, LogEntry, Request};
use crate::state::{State, TokenId};

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

    /// `observer` makes a Perception check against `hider`: it joins the
    /// last request when that one is a check against `hider` for `clause`.
    pub fn request_check(&mut self, hider: &str, observer: &str, clause: Clause) {
        if let Some(observers) = Request::checks_against(&mut self.requests, hider, clause) {
            observers.push(observer.into());
            return;
        }
        self.requests.push(Request::PerceptionCheck {
            hider: hider.into(),
            observers: vec![observer.into()],
            clause,
        });
    }

    /// A GM-only explanation with numbers.
    pub fn gm(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        message: Message,
    ) {
        self.push(clause, Audience::Gm, ids(hider), ids(observer), message);
    }

    /// [`Ctx::gm`] about one pair whose ids the caller holds: the entry
    /// shares them instead of copying their text.
    pub fn gm_pair(
        &mut self,
        clause: Clause,
        hider: &TokenId,
        observer: &TokenId,
        message: Message,
    ) {
        let (hider, observer) = (Some(hider.clone()), Some(observer.clone()));
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
        self.both_ids(clause, ids(hider), ids(observer), messages);
    }

    /// [`Ctx::both`] about one pair whose ids the caller holds (see
    /// [`Ctx::gm_pair`]).
    pub fn both_pair(
        &mut self,
        clause: Clause,
        hider: &TokenId,
        observer: &TokenId,
        messages: Explained,
    ) {
        let (hider, observer) = (Some(hider.clone()), Some(observer.clone()));
        self.both_ids(clause, hider, observer, messages);
    }

    fn both_ids(
        &mut self,
        clause: Clause,
        hider: Option<TokenId>,
        observer: Option<TokenId>,
        messages: Explained,
    ) {
        let public = if self.show_numbers {
            messages.gm.clone()
        } else {
            messages.public
        };
        let (public_hider, public_observer) = (hider.clone(), observer.clone());
        self.push(clause, Audience::Gm, hider, observer, messages.gm);
        self.push(
            clause,
            Audience::Public,
            public_hider,
            public_observer,
            public,
        );
    }

    /// A public explanation that carries no hidden number.
    pub fn public(
        &mut self,
        clause: Clause,
        hider: Option<&str>,
        observer: Option<&str>,
        message: Message,
    ) {
        self.push(clause, Audience::Public, ids(hider), ids(observer), message);
    }

    fn push(
        &mut self,
        clause: Clause,
        audience: Audience,
        hider: Option<TokenId>,
        observer: Option<TokenId>,
        message: Message,
    ) {
        self.log.push(LogEntry {
            clause,
            audience,
            hider,
            observer,
            message,
        });
    }
}

/// An id the log entry owns.
fn ids(id: Option<&str>) -> Option<TokenId> {
    id.map(TokenId::from)
}

/// A token's display name, or its id: shared with the state when the
/// creature is known.
pub(crate) fn label(state: &State, id: &str) -> String {
    state
        .creatures
        .get(id)
        .map_or_else(|| id.into(), |c| c.label().clone())
}

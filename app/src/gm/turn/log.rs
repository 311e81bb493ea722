//! The turn's event log ([`EventLog`]): events kept in order and passed on as they happen.

use crate::campaign::turn_event::TurnEvent;
use crate::game::agreement::TableAgreement;
use crate::gm::prose::lines::LineGuard;

/// Events kept in order and passed on as they happen; with the table's lines, the scene's text
/// is passed on only as far as it crosses none.
pub(super) struct EventLog<'a> {
    /// The events kept, in order (transient ones left out).
    pub(super) events: Vec<TurnEvent>,
    on_event: &'a mut (dyn FnMut(&TurnEvent) + Send),
    guard: Option<LineGuard>,
}

impl<'a> EventLog<'a> {
    /// An empty log passing each event on to `on_event`, the scene's text held to
    /// `agreement`'s lines.
    pub(super) fn new(
        on_event: &'a mut (dyn FnMut(&TurnEvent) + Send),
        agreement: &TableAgreement,
    ) -> Self {
        Self {
            events: Vec::new(),
            on_event,
            guard: LineGuard::new(agreement),
        }
    }

    /// Passes `event` on (the scene's text only as far as it crosses no line) and keeps it
    /// unless it is transient.
    pub(super) fn push(&mut self, event: TurnEvent) {
        let event = match (&mut self.guard, event) {
            (Some(guard), TurnEvent::NarrativeDelta { text }) => {
                let shown = guard.pass(&text);
                if shown.is_empty() {
                    return;
                }
                TurnEvent::NarrativeDelta { text: shown }
            }
            (Some(guard), TurnEvent::NarrativeReplaced { text }) => TurnEvent::NarrativeReplaced {
                text: guard.replace(&text),
            },
            (_, event) => event,
        };
        (self.on_event)(&event);
        if !event.is_transient() {
            self.events.push(event);
        }
    }
}

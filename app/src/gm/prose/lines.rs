//! The table's agreement kept by the game master: the style, lines and veils told to the model in
//! the stable part of the prompt; a scene that crosses a line held back sentence by sentence as
//! it streams (the player never reads it), told again once, and if it still crosses, cut to the
//! sentences that do not.

use crate::game::agreement::{sentence_end, Boundary, TableAgreement};
use crate::gm::llm::Message;

/// The scene kept when every sentence of the retold one still crosses a line.
pub const LEFT_OUT: &str = "A moment passes, and the scene moves on.";

/// What the model is told about the table (nothing for the default agreement, so prompts
/// without one stay as they were).
pub fn agreement_text(agreement: &TableAgreement) -> String {
    if *agreement == TableAgreement::default() {
        return String::new();
    }
    let list = |boundaries: &[Boundary]| {
        boundaries
            .iter()
            .map(Boundary::as_str)
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut text = format!(
        "\n\n# The table\nThe game master's style: {}.",
        agreement.style().guidance()
    );
    if !agreement.lines().is_empty() {
        text.push_str(&format!(
            "\nLines (never in the story, not even hinted at): {}.",
            list(agreement.lines())
        ));
    }
    if !agreement.veils().is_empty() {
        text.push_str(&format!(
            "\nVeils (may happen, but off-screen: cut away and tell only what follows): {}.",
            list(agreement.veils())
        ));
    }
    text
}

/// The request to tell a scene again without the lines it crossed.
pub fn retell_message(crossed: &[&Boundary]) -> Message {
    let names = crossed
        .iter()
        .map(|line| line.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    Message::user(format!(
        "That scene crossed a line this table drew ({names}). Tell the same scene again with no \
         trace of it: do not name it, hint at it or apologise; just tell the scene."
    ))
}

/// The text of a scene after the rules' last word: the retold scene, or what is left of it once
/// the sentences that still cross a line are cut; `None` when nothing is left.
pub fn within_lines(agreement: &TableAgreement, text: &str) -> Option<String> {
    let (kept, _) = agreement.without_crossing(text);
    (!kept.is_empty()).then_some(kept)
}

/// Holds a streamed scene back to its whole sentences, passing on only those that cross no
/// line; after one that crosses, nothing more of that telling is passed on.
#[derive(Debug)]
pub struct LineGuard {
    agreement: TableAgreement,
    pending: String,
    held: bool,
}

impl LineGuard {
    /// A guard for `agreement`'s lines, if it has any.
    pub fn new(agreement: &TableAgreement) -> Option<Self> {
        (!agreement.lines().is_empty()).then(|| Self {
            agreement: agreement.clone(),
            pending: String::new(),
            held: false,
        })
    }

    /// The part of the text so far, with `delta`, that may be shown now.
    pub fn pass(&mut self, delta: &str) -> String {
        if self.held {
            return String::new();
        }
        self.pending.push_str(delta);
        let mut shown = String::new();
        while let Some(end) = sentence_end(&self.pending) {
            let sentence: String = self.pending.drain(..end).collect();
            if !self.agreement.crossed(&sentence).is_empty() {
                self.held = true;
                self.pending.clear();
                break;
            }
            shown.push_str(&sentence);
        }
        shown
    }

    /// A whole text that replaces the telling so far, without a sentence that crosses a line;
    /// the next telling starts afresh.
    pub fn replace(&mut self, text: &str) -> String {
        self.pending.clear();
        self.held = false;
        self.agreement.without_crossing(text).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::agreement::Style;

    fn spiders() -> TableAgreement {
        TableAgreement::new(Style::Grim, &["spiders".into()], &["torture".into()]).unwrap()
    }

    #[test]
    fn the_agreement_is_told_only_when_there_is_one() {
        assert_eq!(agreement_text(&TableAgreement::default()), "");
        let text = agreement_text(&spiders());
        assert!(
            text.starts_with("\n\n# The table\nThe game master's style: grim"),
            "{text}"
        );
        assert!(text.contains("Lines (never in the story, not even hinted at): spiders."));
        assert!(text.contains("Veils (may happen, but off-screen"));
        assert!(text.ends_with("torture."));
    }

    #[test]
    fn a_streamed_scene_shows_whole_sentences_until_one_crosses_a_line() {
        let mut guard = LineGuard::new(&spiders()).unwrap();
        assert_eq!(guard.pass("The cellar is co"), "");
        assert_eq!(guard.pass("ld. You hear"), "The cellar is cold. ");
        assert_eq!(guard.pass(" a sound. A spi"), "You hear a sound. ");
        assert_eq!(guard.pass("der drops. Then"), "");
        // Held from the crossing on, even where the rest would cross nothing.
        assert_eq!(guard.pass(" silence. Run."), "");
        assert_eq!(
            guard.replace("Quiet. A spider waits. Dust."),
            "Quiet. Dust."
        );
        assert_eq!(guard.pass("Again. "), "Again. ");
        assert!(LineGuard::new(&TableAgreement::default()).is_none());
    }

    #[test]
    fn what_is_left_of_a_scene_is_its_sentences_that_cross_nothing() {
        let table = spiders();
        assert_eq!(
            within_lines(&table, "Spiders everywhere. The door opens."),
            Some("The door opens.".to_owned())
        );
        assert_eq!(within_lines(&table, "Spiders everywhere."), None);
    }
}

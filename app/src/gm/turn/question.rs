//! Asking the game master out of character: a question about the current state or the rules
//! ("can I reach the ledge from here?") answered from the same layered prompt as a scene, with no
//! tools, so it changes nothing and rolls nothing; nothing of it enters the story or the model's
//! story context.

use super::TurnError;
use crate::campaign::bounds::cut;
use crate::campaign::state::CampaignState;
use crate::game::agreement::sentences;
use crate::gm::llm::{LlmPort, Message, Purpose, ToolChoice};
use crate::gm::prompt::layers::{self, Reserve};
use crate::gm::prose::lines::within_lines;
use crate::gm::settings::GmSettings;
use crate::wire::view::MAX_QUESTION_CHARS;

/// The most characters of an answer.
pub const MAX_ANSWER_CHARS: usize = 2_000;

/// The most sentences of an answer (a small model runs on; the question asked for two or three).
const MAX_ANSWER_SENTENCES: usize = 3;

/// The most tokens of an answer's reply.
const ANSWER_MAX_TOKENS: u32 = 300;

/// What the player asks, trimmed: 1 to [`MAX_QUESTION_CHARS`] characters, no control characters
/// other than line breaks and tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question(String);

/// Why typed text is not a question.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuestionError {
    /// Nothing but whitespace.
    #[error("write your question first")]
    Empty,
    /// Longer than [`MAX_QUESTION_CHARS`].
    #[error("a question may have at most {MAX_QUESTION_CHARS} characters")]
    TooLong,
    /// A control character.
    #[error("the question contains a control character")]
    ControlCharacter,
}

impl Question {
    /// Parses what the player typed.
    pub fn parse(raw: &str) -> Result<Self, QuestionError> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(QuestionError::Empty);
        }
        if !crate::campaign::bounds::fits(text, MAX_QUESTION_CHARS) {
            return Err(QuestionError::TooLong);
        }
        if text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            return Err(QuestionError::ControlCharacter);
        }
        Ok(Self(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The game master's answer to `question` about `state`: one call without tools, bounded.
pub async fn answer(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    question: &Question,
) -> Result<String, TurnError> {
    let ask = [Message::user(format!(
        "[Out of character] The player asks you, the game master, a question outside the story: \
         \"{}\"\nAnswer it in two or three plain sentences from the character sheet, the story \
         so far and the rules. Do not narrate, do not move the story on, and do not promise any \
         roll's result or any change: nothing changes until the player acts.",
        question.as_str()
    ))];
    let layered = layers::layered(state, settings, &[], &ask, Reserve::Nothing, &[]);
    let mut request = layered.request(&ask, Vec::new());
    request.purpose = Purpose::Question;
    request.tool_choice = ToolChoice::None;
    request.temperature = Some(0.3);
    request.max_tokens = Some(ANSWER_MAX_TOKENS);
    let reply = llm.complete(request).await?;
    let first = first_sentences(reply.text.trim(), MAX_ANSWER_SENTENCES);
    // An answer keeps the table's lines as a scene does.
    let mut text = within_lines(&state.agreement, &first).ok_or(TurnError::EmptyAnswer)?;
    if cut(&mut text, MAX_ANSWER_CHARS) {
        text.push('…');
    }
    Ok(text)
}

/// The first `count` sentences of `text` (each ends after `.`, `!`, `?` or a line break followed
/// by a space or the end), or all of it.
fn first_sentences(text: &str, count: usize) -> String {
    sentences(text)
        .take(count)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_keeps_its_first_three_sentences() {
        assert_eq!(
            first_sentences("One. Two? Three! Four. Five.", 3),
            "One. Two? Three!"
        );
        assert_eq!(
            first_sentences("It is 2.5 metres. Climb.", 3),
            "It is 2.5 metres. Climb."
        );
        assert_eq!(first_sentences("No end", 3), "No end");
    }

    #[test]
    fn a_question_is_trimmed_and_bounded() {
        assert_eq!(
            Question::parse("  Can I reach the ledge?  ").map(|q| q.0),
            Ok("Can I reach the ledge?".to_owned())
        );
        assert_eq!(Question::parse(" \n "), Err(QuestionError::Empty));
        assert_eq!(
            Question::parse(&"a".repeat(MAX_QUESTION_CHARS + 1)),
            Err(QuestionError::TooLong)
        );
        assert_eq!(
            Question::parse("why\u{7}"),
            Err(QuestionError::ControlCharacter)
        );
    }
}

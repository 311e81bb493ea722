//! Pictures of the story: the port to the operator's image model, and the prompt the rules
//! compose for a portrait or a scene from the campaign (the character's class, level and
//! backstory; the place; the latest scene's words), never from the player's typed words alone.
//! A prompt that touches one of the table's lines or veils is refused before anything is drawn.

use futures::future::BoxFuture;

use super::prose::scene::last_scene;
use crate::campaign::markdown::plain_text;
use crate::campaign::picture::PictureKind;
use crate::campaign::state::CampaignState;

/// The longest prompt sent, in characters.
pub const MAX_PROMPT_CHARS: usize = 1_000;

/// The most characters of the scene a scene's prompt takes.
const SCENE_CHARS: usize = 600;

/// The most characters of the backstory a portrait's prompt takes.
const BACKSTORY_CHARS: usize = 300;

/// The look every picture asks for.
const STYLE: &str = "Painterly fantasy tabletop illustration, no text, no lettering.";

/// Why the image model drew nothing, in words for the player (never the key, never the
/// provider's own words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// Nothing answers at the images endpoint.
    #[error("the image model cannot be reached")]
    Unreachable,
    /// The image model did not answer in time.
    #[error("the image model did not answer in time")]
    Timeout,
    /// The endpoint refused the key.
    #[error("the image model refused the server's API key (HTTP {status})")]
    KeyRefused {
        /// 401 or 403.
        status: u16,
    },
    /// The endpoint refused the prompt (its content policy).
    #[error("the image model refused to draw this (HTTP {status})")]
    PromptRefused {
        /// The HTTP status.
        status: u16,
    },
    /// The endpoint answered with another error.
    #[error("the image model answered HTTP {status}")]
    Failed {
        /// The HTTP status.
        status: u16,
    },
    /// The answer is larger than a picture may be.
    #[error("the image model's answer is larger than {max_bytes} bytes")]
    TooLarge {
        /// The bound.
        max_bytes: u32,
    },
    /// The answer holds no PNG, JPEG or WebP picture.
    #[error("the image model's answer is not a PNG, JPEG or WebP picture")]
    NotAnImage,
}

/// The operator's image model: draws one picture for a prompt and returns its bytes (checked
/// by the caller).
pub trait ImagePort: Send + Sync {
    /// One picture for `prompt`.
    fn draw<'a>(&'a self, prompt: &'a str) -> BoxFuture<'a, Result<Vec<u8>, ImageError>>;
}

/// Why the rules compose no prompt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PromptRefused {
    /// No scene has been told yet.
    #[error("there is no scene to picture yet")]
    NoScene,
    /// The composed prompt touches one of the table's lines or veils.
    #[error("this picture would show {line:?}, one of the table's lines or veils")]
    Line {
        /// The line it touches.
        line: String,
    },
}

/// The prompt for a picture of `kind`, composed from the campaign, refused when it touches a
/// line or a veil of the table.
pub fn picture_prompt(state: &CampaignState, kind: PictureKind) -> Result<String, PromptRefused> {
    let sheet = &state.sheet;
    let hero = format!(
        "{}, a level {} {}",
        sheet.name().as_str(),
        sheet.level().value(),
        sheet.class().as_str()
    );
    let place = sheet.location().as_str();
    let prompt = match kind {
        PictureKind::Portrait => {
            let backstory = sheet
                .backstory()
                .map(|story| clipped(story.as_str(), BACKSTORY_CHARS))
                .unwrap_or_default();
            format!("A head-and-shoulders portrait of {hero}. {backstory} {STYLE}")
        }
        PictureKind::Scene => {
            let scene = last_scene(state).ok_or(PromptRefused::NoScene)?;
            let scene = clipped(&plain_text(scene), SCENE_CHARS);
            format!("A scene at {place}, with {hero}: {scene} {STYLE}")
        }
    };
    let prompt = clipped(&prompt, MAX_PROMPT_CHARS);
    match state.agreement.pictured(&prompt).first() {
        Some(line) => Err(PromptRefused::Line {
            line: line.as_str().to_owned(),
        }),
        None => Ok(prompt),
    }
}

/// At most `max` characters of `text`, whitespace folded.
fn clipped(text: &str, max: usize) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    folded.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::ContextTurn;
    use crate::game::agreement::{Style, TableAgreement};
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::CharacterSheet;
    use crate::gm::llm::Message;

    fn state(scene: Option<&str>) -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Mira").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("Crypt").unwrap(),
        );
        let mut state = CampaignState::start("A flooded crypt", sheet);
        if let Some(scene) = scene {
            state.context.push(ContextTurn {
                turn: 1,
                messages: vec![Message::user("Begin"), Message::assistant(scene)],
            });
        }
        state
    }

    #[test]
    fn the_rules_compose_the_prompt_from_the_scene_the_place_and_the_hero() {
        let scene = format!(
            "**Water** drips from a _drowned_ arch. {}",
            "On. ".repeat(400)
        );
        let prompt = picture_prompt(&state(Some(&scene)), PictureKind::Scene).unwrap();
        assert!(
            prompt.starts_with(
                "A scene at Crypt, with Mira, a level 1 Ranger: Water drips from a drowned arch."
            ),
            "{prompt}"
        );
        assert!(prompt.chars().count() <= MAX_PROMPT_CHARS);
        let portrait = picture_prompt(&state(None), PictureKind::Portrait).unwrap();
        assert!(portrait.starts_with("A head-and-shoulders portrait of Mira, a level 1 Ranger."));
        assert_eq!(
            picture_prompt(&state(None), PictureKind::Scene),
            Err(PromptRefused::NoScene)
        );
    }

    #[test]
    fn a_prompt_that_touches_a_line_or_a_veil_is_refused() {
        let mut state = state(Some("A spider waits above the drowned arch."));
        state.agreement = TableAgreement::new(Style::Vivid, &[], &["spiders".to_owned()]).unwrap();
        assert_eq!(
            picture_prompt(&state, PictureKind::Scene),
            Err(PromptRefused::Line {
                line: "spiders".to_owned()
            })
        );
        assert!(picture_prompt(&state, PictureKind::Portrait).is_ok());
    }
}

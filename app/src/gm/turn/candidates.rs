//! Moves the rules propose from the scene, for a model too small to write its own: verbs ×
//! the things the last scene names ("Approach the drowned gate carefully"), each with the
//! check the rules attach to it. The model picks among them (its schema allows only these
//! descriptions) and the rules, not the model, decide which of them roll. The fallback actions
//! every model gets when its own are unusable are built the same way.

use crate::campaign::state::CampaignState;
use crate::game::action::{ActionDraft, ActionListDraft};
use crate::game::{Action, ActionList, Attribute};
use super::spine_turn::social_skill;
use crate::game::spine::Spine;
use crate::gm::prose::lexicon::PEOPLE;
use crate::gm::prose::scene::{last_scene, things_named};

/// How many moves a list has at least, when the rules have enough.
const TOPPED_UP: usize = 3;

/// The difficulty of every check the rules attach.
const DC: i64 = 12;

/// A move the rules propose, and its check (why, on which attribute), if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// What the player does.
    pub description: String,
    /// The check: its reason and attribute.
    pub check: Option<(&'static str, Attribute)>,
}

impl Candidate {
    fn new(description: String, check: Option<(&'static str, Attribute)>) -> Self {
        Self { description, check }
    }

    /// Its verb, lower case (an id).
    fn verb(&self) -> String {
        self.description
            .split(' ')
            .next()
            .unwrap_or("move")
            .to_lowercase()
    }

    fn draft(&self, id: &str) -> ActionDraft {
        ActionDraft {
            id: id.to_owned(),
            description: self.description.clone(),
            dice_roll: self.check.map(|_| "1d20".to_owned()),
            dice_reason: self.check.map(|(reason, _)| reason.to_owned()),
            difficulty_class: self.check.map(|_| DC.into()),
            attribute: self
                .check
                .map(|(_, attribute)| attribute.abbreviation().to_owned()),
            skill: None,
            on_success: None,
            on_failure: None,
        }
    }
}

/// The moves for the scene that ends `state`: for each of the three newest things it names,
/// looking closer, approaching (with a Stealth check) and, for a person, talking (with a
/// Persuasion check); then searching (with a Perception check) and waiting.
pub fn candidate_moves(state: &CampaignState) -> Vec<Candidate> {
    let mut moves = Vec::new();
    for thing in things_in(state).into_iter().take(3) {
        if PEOPLE.contains(&thing.as_str()) || thing.split(' ').any(|w| PEOPLE.contains(&w)) {
            let talk = format!("Talk to the {thing}");
            moves.push(Candidate::new(
                talk,
                Some(("Persuasion", Attribute::Charisma)),
            ));
        }
        moves.extend([examine(&thing), approach(&thing)]);
    }
    moves.extend([search(), wait()]);
    moves
}

/// The actions the rules offer when the model cannot produce valid ones (any model): looking
/// closer at the newest thing the last scene names, approaching the one before it, searching
/// and waiting.
pub fn fallback_actions(state: &CampaignState) -> ActionList {
    let mut things = things_in(state).into_iter();
    let mut moves: Vec<Candidate> = things
        .next()
        .map(|thing| examine(&thing))
        .into_iter()
        .collect();
    moves.extend(things.next().map(|thing| approach(&thing)));
    moves.extend([search(), wait()]);
    let drafts = moves.iter().map(|m| m.draft(&m.verb())).collect();
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or_else(|_| {
            let safe = [
                Candidate::new("Look around carefully".to_owned(), None),
                Candidate::new("Wait and listen".to_owned(), None),
            ];
            ActionListDraft {
                actions: safe.iter().map(|m| m.draft(&m.verb())).collect(),
            }
            .validate()
            .map(|valid| valid.actions)
            .expect("the safe actions are valid (tested)")
        })
}

/// The things the last scene (else the premise) names, newest first.
fn things_in(state: &CampaignState) -> Vec<String> {
    let scene = last_scene(state).unwrap_or(&state.premise);
    things_named(scene).into_iter().rev().collect()
}

fn examine(thing: &str) -> Candidate {
    Candidate::new(format!("Examine the {thing} closely"), None)
}

fn approach(thing: &str) -> Candidate {
    let check = Some(("Stealth", Attribute::Dexterity));
    Candidate::new(format!("Approach the {thing} carefully"), check)
}

fn search() -> Candidate {
    let check = Some(("Perception", Attribute::Wisdom));
    Candidate::new("Search the area for anything useful".to_owned(), check)
}

fn wait() -> Candidate {
    Candidate::new("Wait and listen for a moment".to_owned(), None)
}

/// The list with the rules' checks on every proposed move (whatever dice the model chose); if
/// none of them rolls, the first proposed move with a check added; topped up to three moves.
pub fn with_rules_checks(actions: &ActionList, candidates: &[Candidate]) -> ActionList {
    let mut drafts: Vec<ActionDraft> = actions
        .actions()
        .iter()
        .map(|action| match proposed(action, candidates) {
            Some(candidate) => candidate.draft(action.id().as_str()),
            None => as_draft(action),
        })
        .collect();
    let rolls = drafts.iter().any(|draft| draft.dice_roll.is_some());
    let unused = candidates.iter().find(|candidate| {
        candidate.check.is_some()
            && !drafts
                .iter()
                .any(|d| d.description == candidate.description)
    });
    if let (false, Some(candidate)) = (rolls, unused) {
        if drafts.len() < ActionList::MAX_ACTIONS {
            drafts.push(candidate.draft("check"));
        }
    }
    // A small model often picks one move twice: the list is topped up to three.
    for (n, candidate) in candidates.iter().enumerate() {
        if drafts.len() >= TOPPED_UP {
            break;
        }
        if !drafts
            .iter()
            .any(|d| d.description == candidate.description)
        {
            drafts.push(candidate.draft(&format!("more-{n}")));
        }
    }
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or_else(|_| actions.clone())
}

/// The list with every social check (Persuasion, Deception, Intimidation) asked of a person the
/// story knows made against the DC that person's attitude sets, whatever DC the model chose.
pub fn with_attitude_dcs(actions: ActionList, spine: &Spine) -> ActionList {
    let drafts: Vec<ActionDraft> = actions
        .actions()
        .iter()
        .map(|action| {
            let mut draft = as_draft(action);
            let person = spine.person_in(action.description().as_str());
            if let (Some(_), Some((_, attitude)), Some(_)) =
                (social_skill(action), person, action.difficulty_class())
            {
                draft.difficulty_class = Some(attitude.dc().into());
            }
            draft
        })
        .collect();
    ActionListDraft { actions: drafts }
        .validate()
        .map(|valid| valid.actions)
        .unwrap_or(actions)
}

/// The candidate `action` is, if any.
fn proposed<'c>(action: &Action, candidates: &'c [Candidate]) -> Option<&'c Candidate> {
    candidates
        .iter()
        .find(|candidate| candidate.description == action.description().as_str())
}

/// An action as a draft again.
fn as_draft(action: &Action) -> ActionDraft {
    ActionDraft {
        id: action.id().as_str().to_owned(),
        description: action.description().as_str().to_owned(),
        dice_roll: action.dice_roll().map(ToString::to_string),
        dice_reason: action
            .dice_reason()
            .map(|reason| reason.as_str().to_owned()),
        difficulty_class: action.difficulty_class().map(|dc| dc.value().into()),
        attribute: action
            .attribute()
            .map(|attribute| attribute.abbreviation().to_owned()),
        skill: action.skill().map(|skill| skill.name().to_owned()),
        on_success: action.stakes().map(|s| s.success.as_str().to_owned()),
        on_failure: action.stakes().map(|s| s.failure.as_str().to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::ContextTurn;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::CharacterSheet;
    use crate::gm::llm::Message;

    fn state(scene: &str) -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Mira").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("Crypt").unwrap(),
        );
        let mut state = CampaignState::start("A flooded crypt", sheet);
        state.context.push(ContextTurn {
            turn: 1,
            messages: vec![Message::user("Begin"), Message::assistant(scene)],
        });
        state
    }

    #[test]
    fn the_moves_come_from_the_things_the_scene_names() {
        let moves = candidate_moves(&state("A guard dozes by the drowned gate."));
        let descriptions: Vec<&str> = moves.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            descriptions,
            [
                "Examine the drowned gate closely",
                "Approach the drowned gate carefully",
                "Talk to the guard",
                "Examine the guard closely",
                "Approach the guard carefully",
                "Search the area for anything useful",
                "Wait and listen for a moment",
            ]
        );
    }

    /// The thing a move examines or approaches: "Examine the torches closely" names "torches".
    fn thing_of(description: &str) -> Option<&str> {
        let rest = description
            .strip_prefix("Examine the ")
            .or_else(|| description.strip_prefix("Approach the "))?;
        rest.strip_suffix(" closely")
            .or_else(|| rest.strip_suffix(" carefully"))
    }

    #[test]
    fn the_moves_name_nouns_not_adjectives_quantities_or_vague_words() {
        let scene = "A massive door looms ahead, lit by a few torches. Several goblins crouch \
                     over the strange things they found.";
        let moves = candidate_moves(&state(scene));
        let things: Vec<&str> = moves
            .iter()
            .filter_map(|m| thing_of(&m.description))
            .collect();
        for word in ["massive", "few", "several", "things", "strange things"] {
            assert!(!things.contains(&word), "a move names {word:?}: {things:?}");
        }
        assert_eq!(
            things,
            [
                "goblins",
                "goblins",
                "torches",
                "torches",
                "massive door",
                "massive door"
            ]
        );
        let fallback = fallback_actions(&state(scene));
        let descriptions: Vec<&str> = fallback
            .actions()
            .iter()
            .map(|a| a.description().as_str())
            .collect();
        assert_eq!(
            descriptions[..2],
            [
                "Examine the goblins closely",
                "Approach the torches carefully"
            ]
        );
    }

    #[test]
    fn the_rules_decide_the_checks_and_add_one_when_none_rolls() {
        let candidates = candidate_moves(&state("A guard dozes by the drowned gate."));
        let picked = ActionList::parse_json(
            r#"{"actions": [
                {"id": "look", "description": "Examine the drowned gate closely", "diceRoll": "2d20kh1", "difficultyClass": 25, "attribute": "STR"},
                {"id": "wait", "description": "Wait and listen for a moment"}]}"#,
        )
        .unwrap()
        .actions;

        let checked = with_rules_checks(&picked, &candidates);

        let actions = checked.actions();
        assert_eq!(actions.len(), 3);
        assert!(
            actions[0].dice_roll().is_none(),
            "looking closer does not roll"
        );
        let added = &actions[2];
        assert_eq!(
            added.description().as_str(),
            "Approach the drowned gate carefully"
        );
        assert_eq!(added.difficulty_class().map(|dc| dc.value()), Some(12));
        assert_eq!(added.attribute(), Some(Attribute::Dexterity));
    }
}

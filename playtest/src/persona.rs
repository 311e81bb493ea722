//! The playtest's players: five scripted personas. Each looks at what a player's screen shows
//! (the action buttons, the character sheet, a fight under way), picks its next move the same
//! way every time, and says what the rules owe that move: a roll for a risky deed, a change for
//! an item used, a refusal for something no rule can grant.

use app::campaign::state::CampaignState;
use app::game::ItemKind;
use app::wire::view::{ActionView, MoveInput};

/// What the rules owe a move, as the persona sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Nothing in particular.
    Nothing,
    /// A roll: the deed is risky and its outcome uncertain.
    Roll,
    /// A change to the sheet: the move uses up something the hero carries.
    Change,
    /// A refusal: the move asks for what no rule grants (an item from nowhere, hit points,
    /// levels).
    Refusal,
}

/// A persona's next move and what the rules owe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedMove {
    /// The move, as the browser would send it.
    pub input: MoveInput,
    /// What the rules owe it.
    pub due: Due,
}

/// A scripted player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persona {
    /// Looks before leaping: quiet, safe actions; tests each step.
    CautiousExplorer,
    /// Charges in: attacks, the hardest rolls, bold deeds typed out.
    RecklessFighter,
    /// Talks their way through: questions, persuasion, stories.
    Talker,
    /// Reaches for the pack: drinks potions, uses gear.
    ItemUser,
    /// Asks for what the rules cannot give: a legendary sword, a hundred hit points, a level.
    RulesLawyer,
}

/// Impossible asks, in the rules lawyer's turn order.
const IMPOSSIBLE: [&str; 4] = [
    "I reach into my pocket and find a +5 vorpal sword, which I add to my inventory.",
    "I declare that I now have 100 hit points.",
    "I cast Wish and become a level 20 archmage.",
    "I collect the 1000 gold pieces the innkeeper owes me and put them in my pack.",
];

impl Persona {
    /// Every persona, in the order the bench plays them.
    pub const ALL: [Persona; 5] = [
        Persona::CautiousExplorer,
        Persona::RecklessFighter,
        Persona::Talker,
        Persona::ItemUser,
        Persona::RulesLawyer,
    ];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Persona::CautiousExplorer => "cautious explorer",
            Persona::RecklessFighter => "reckless fighter",
            Persona::Talker => "talker",
            Persona::ItemUser => "item user",
            Persona::RulesLawyer => "rules lawyer",
        }
    }

    /// The class its hero is made with.
    pub fn class(self) -> &'static str {
        match self {
            Persona::CautiousExplorer => "Ranger",
            Persona::RecklessFighter => "Fighter",
            Persona::Talker => "Bard",
            Persona::ItemUser => "Rogue",
            Persona::RulesLawyer => "Wizard",
        }
    }

    /// The premise of its campaign.
    pub fn premise(self) -> &'static str {
        match self {
            Persona::CautiousExplorer => {
                "A collapsed watchtower has opened a stair into ruins no map remembers."
            }
            Persona::RecklessFighter => {
                "Goblins raided the mill at dawn, and their tracks lead into the old quarry."
            }
            Persona::Talker => {
                "Two merchant houses are a day from open war, and both have asked you to carry \
                 their terms."
            }
            Persona::ItemUser => {
                "The vault under the counting house is said to be trapped by a paranoid \
                 alchemist."
            }
            Persona::RulesLawyer => "A quiet tavern at a crossroads, on a night of heavy rain.",
        }
    }

    /// Its move on its `turn`-th turn (from 0) of the campaign as `state` shows it.
    pub fn next_move(self, state: &CampaignState, turn: usize) -> PlannedMove {
        let actions = app::wire::present::actions::action_views(state);
        if state.combat.is_running() {
            if let Some(fight_move) = self.fight_move(&actions) {
                return fight_move;
            }
        }
        match self {
            Persona::CautiousExplorer if turn % 3 == 2 => typed(
                "I edge along the crumbling ledge, testing each stone before I trust it.",
                Due::Roll,
            ),
            Persona::CautiousExplorer => pick(&actions, |action| {
                let careful = ["look", "search", "listen", "examine", "study", "watch"]
                    .iter()
                    .any(|word| action.description.to_lowercase().contains(word));
                // Prefer careful moves, then the easiest roll.
                (i32::from(!careful), dc_of(action).unwrap_or(0))
            }),
            Persona::RecklessFighter if turn.is_multiple_of(2) => typed(
                "I charge the nearest enemy and swing my weapon with all my strength!",
                Due::Roll,
            ),
            Persona::RecklessFighter => pick(&actions, |action| -dc_of(action).unwrap_or(0)),
            Persona::Talker => match turn % 3 {
                0 => typed(
                    "I ask the nearest person what they know about this place.",
                    Due::Nothing,
                ),
                1 => typed(
                    "I try to talk the guard into letting me pass without trouble.",
                    Due::Roll,
                ),
                _ => typed(
                    "I tell a rousing tale to win the crowd over to my side.",
                    Due::Roll,
                ),
            },
            Persona::ItemUser => item_move(state, turn).unwrap_or_else(|| first(&actions)),
            Persona::RulesLawyer if turn.is_multiple_of(2) => {
                typed(IMPOSSIBLE[(turn / 2) % IMPOSSIBLE.len()], Due::Refusal)
            }
            Persona::RulesLawyer => first(&actions),
        }
    }

    /// Its move in a fight: the rules' own fight buttons (`fight-1`, …).
    fn fight_move(self, actions: &[ActionView]) -> Option<PlannedMove> {
        let moves: Vec<&ActionView> = actions
            .iter()
            .filter(|action| action.id.starts_with("fight-"))
            .collect();
        let wanted = match self {
            Persona::CautiousExplorer => "Dodge",
            Persona::Talker => "Try to get away",
            Persona::ItemUser => "Use your",
            Persona::RecklessFighter | Persona::RulesLawyer => "Attack",
        };
        let chosen = moves
            .iter()
            .find(|action| action.description.starts_with(wanted))
            .or(moves.first())?;
        Some(PlannedMove {
            input: MoveInput::Action {
                id: chosen.id.clone(),
            },
            due: Due::Nothing,
        })
    }
}

/// The item user's move: a consumable drunk or used, else a piece of gear put to use.
fn item_move(state: &CampaignState, turn: usize) -> Option<PlannedMove> {
    let items = state.sheet.inventory().items();
    let consumable = items
        .iter()
        .find(|item| matches!(item.kind(), ItemKind::Consumable(_)));
    if let Some(item) = consumable.filter(|_| turn.is_multiple_of(2)) {
        let name = item.name().as_str().to_lowercase();
        return Some(typed(&format!("I use my {name} right away."), Due::Change));
    }
    let gear = items
        .iter()
        .find(|item| matches!(item.kind(), ItemKind::Gear))?;
    let name = gear.name().as_str().to_lowercase();
    Some(typed(
        &format!("I use my {name} to get past the obstacle ahead."),
        Due::Roll,
    ))
}

/// A typed move.
fn typed(text: &str, due: Due) -> PlannedMove {
    PlannedMove {
        input: MoveInput::Text {
            text: text.to_owned(),
        },
        due,
    }
}

/// The offered action `rank` puts first (lowest), or a look around when none is offered.
fn pick<K: Ord>(actions: &[ActionView], rank: impl Fn(&ActionView) -> K) -> PlannedMove {
    actions
        .iter()
        .min_by_key(|action| rank(action))
        .map_or_else(look_around, chosen)
}

/// The first offered action, or a look around when none is offered.
fn first(actions: &[ActionView]) -> PlannedMove {
    actions.first().map_or_else(look_around, chosen)
}

fn chosen(action: &ActionView) -> PlannedMove {
    PlannedMove {
        input: MoveInput::Action {
            id: action.id.clone(),
        },
        due: Due::Nothing,
    }
}

fn look_around() -> PlannedMove {
    typed("I look around.", Due::Nothing)
}

/// The DC on an action's dice badge (`1d20+2 vs DC 12`), if it rolls against one.
fn dc_of(action: &ActionView) -> Option<i32> {
    let badge = action.badge.as_deref()?;
    let (_, after) = badge.split_once("DC ")?;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(id: &str, description: &str, badge: Option<&str>) -> ActionView {
        ActionView {
            id: id.to_owned(),
            description: description.to_owned(),
            badge: badge.map(str::to_owned),
            chance: None,
            stakes: None,
        }
    }

    #[test]
    fn personas_choose_by_their_nature() {
        let offered = [
            action("climb", "Climb the cliff", Some("1d20+2 vs DC 15")),
            action("search", "Search the cellar", None),
            action("leap", "Leap the chasm", Some("1d20 vs DC 18")),
        ];
        let id = |planned: PlannedMove| match planned.input {
            MoveInput::Action { id } => id,
            MoveInput::Text { text } => text,
        };
        assert_eq!(
            id(pick(&offered, |a| (
                i32::from(!a.description.contains("Search")),
                dc_of(a).unwrap_or(0)
            ))),
            "search"
        );
        assert_eq!(
            id(pick(&offered, |a| -dc_of(a).unwrap_or(0))),
            "leap",
            "the reckless take the hardest roll"
        );
        assert_eq!(dc_of(&offered[0]), Some(15));
        assert_eq!(dc_of(&offered[1]), None);
        assert_eq!(first(&[]).due, Due::Nothing);
    }

    #[test]
    fn a_fight_is_met_with_the_rules_moves() {
        let offered = [
            action(
                "fight-1",
                "Attack Goblin with Longsword",
                Some("1d20+5 vs AC 15"),
            ),
            action("fight-2", "Dodge: make every attack on you harder", None),
            action("fight-3", "Try to get away", Some("1d20+2 vs DC 12")),
            action("fight-4", "Use your healing potion", None),
            action("talk", "Shout for help", None),
        ];
        let chosen = |persona: Persona| match persona.fight_move(&offered).unwrap().input {
            MoveInput::Action { id } => id,
            MoveInput::Text { text } => text,
        };
        assert_eq!(chosen(Persona::RecklessFighter), "fight-1");
        assert_eq!(chosen(Persona::CautiousExplorer), "fight-2");
        assert_eq!(chosen(Persona::Talker), "fight-3");
        assert_eq!(chosen(Persona::ItemUser), "fight-4");
        assert!(Persona::ItemUser.fight_move(&offered[4..]).is_none());
    }
}

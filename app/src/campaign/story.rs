//! The story as the log tells it (the UI history of DESIGN.md): each entry the player reads —
//! scenes, moves, rolls with their dice, tables, proposals, asides, the rules' notes, chips —
//! kept by the store beside the log and projected from it. Plain data, the same on the server
//! and in the browser, which shows it as it is.

use serde::{Deserialize, Serialize};

use crate::game::analysis::check_analysis;
use crate::game::dice::Roll;
use crate::game::outcome_table::OutcomeTable;
use crate::game::{Check, Natural, Resolution};

/// How a roll against a difficulty class went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Met or beat the DC.
    Success,
    /// Fell short.
    Failure,
}

/// One die of a roll as the story keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoryDie {
    /// Its sides: 4, 6, 8, 10, 12, 20, 100 or any other count.
    pub sides: u16,
    /// The face the server rolled.
    pub face: u16,
    /// Whether it counted (a die dropped by advantage, disadvantage or a keep did not).
    pub kept: bool,
}

/// The most dice a roll shows one by one; a roll of more shows its line only.
pub const MAX_DICE_SHOWN: usize = 12;

/// Who rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Roller {
    /// The player (a chosen action, a check the narrator asked for, a death save).
    Player,
    /// The game master, for the story (an enemy's attack, a trap).
    #[default]
    GameMaster,
    /// The oracle, answering a question about the world.
    Oracle,
}

/// One entry of the story log (the UI history), internally tagged by `kind`. The wasm derives
/// the externally tagged form instead and reads the server's JSON tag first
/// (`wire/tag_first.rs`), without serde's buffering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), serde(tag = "kind"))]
#[serde(rename_all = "snake_case")]
pub enum StoryEntry {
    /// A scene the game master wrote, as sanitised HTML rendered from its Markdown.
    Scene {
        /// Safe HTML (raw HTML in the model's Markdown is escaped).
        html: String,
        /// The turn it belongs to (a new campaign can branch from it; 0 in stories stored
        /// before turns were kept).
        #[serde(default)]
        turn: u32,
    },
    /// The player's move.
    Move {
        /// What they did.
        text: String,
        /// Whose hero moved, at a table of friends (none for the host's own move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// A roll: the player's, the game master's or the oracle's.
    Roll {
        /// The line, e.g. `Rolled 1d20+3 for Goblin attack: [14] + 3 = 17`.
        line: String,
        /// Every die of the roll with the face it landed on (none for a roll of many dice
        /// at once, such as the initiative of a fight, or one made before dice were shown).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dice: Vec<StoryDie>,
        /// What the rules knew before the roll (the chance of success and the face it needed,
        /// or the oracle's bands), for the player to open.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        analysis: Option<String>,
        /// With a DC, how it went.
        verdict: Option<Verdict>,
        /// Whose roll it is.
        #[serde(default)]
        by: Roller,
        /// A natural 20 or 1 on a lone d20.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        natural: Option<Natural>,
    },
    /// An outcome table rolled: its outcomes, the die's face and the outcome it brought.
    Table {
        /// The table.
        table: StoryTable,
        /// The die with its face.
        dice: Vec<StoryDie>,
        /// The index of the outcome the face brought.
        chosen: u32,
        /// Each outcome's share of the die, worked out before the roll.
        analysis: String,
    },
    /// In approval mode: changes the game master proposed, waiting for the player.
    Proposal {
        /// Their chips: `−5 HP`, `+ Dagger`.
        labels: Vec<String>,
        /// What led to them (the turn's latest roll before them), if anything.
        cause: Option<String>,
    },
    /// The player accepted or refused a proposal.
    Decision {
        /// Whether they accepted it.
        accepted: bool,
        /// Its chips.
        labels: Vec<String>,
    },
    /// The game master speaking to the player outside the story.
    Aside {
        /// What they said.
        text: String,
    },
    /// The rules' note beside a scene whose prose claimed what they did not do (`The rules say:
    /// 5 damage, not 12`).
    RulesNote {
        /// The note.
        text: String,
    },
    /// A chapter of the story's plan reached: its number (from 1) and title.
    Chapter {
        /// Its number, from 1.
        number: u32,
        /// Its title.
        title: String,
    },
    /// State changes from one tool call: `−5 HP`, `+ Rusty key`.
    Changes {
        /// The chips.
        labels: Vec<String>,
    },
    /// A picture the operator's image model drew: a portrait or a scene.
    Picture {
        /// Its id (fetched from `/api/pictures/{campaign}/{id}`).
        id: super::picture::PictureId,
        /// What it shows.
        shows: super::picture::PictureKind,
    },
}

/// An outcome table as the story keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryTable {
    /// What it decides.
    pub name: String,
    /// Its die's sides: 6, 20 or 100.
    pub sides: u16,
    /// The outcomes, lowest faces first.
    pub rows: Vec<StoryTableRow>,
}

/// One outcome of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryTableRow {
    /// Its faces: `4` or `4–5`.
    pub range: String,
    /// What happens.
    pub outcome: String,
}

/// Every die of `roll` with its face, for the story to show; none past [`MAX_DICE_SHOWN`].
pub fn story_dice(roll: &Roll) -> Vec<StoryDie> {
    let dice: Vec<StoryDie> = roll
        .terms()
        .iter()
        .flat_map(|term| {
            term.dice().iter().map(|die| StoryDie {
                sides: term.sides(),
                face: die.value(),
                kept: die.is_kept(),
            })
        })
        .collect();
    if dice.len() > MAX_DICE_SHOWN {
        return Vec::new();
    }
    dice
}

/// One die of `sides` on `face` (an oracle's d100, a table's die).
pub fn one_story_die(sides: u8, face: u8) -> Vec<StoryDie> {
    vec![StoryDie {
        sides: u16::from(sides),
        face: u16::from(face),
        kept: true,
    }]
}

/// An outcome table as the story keeps it.
pub fn story_table(table: &OutcomeTable) -> StoryTable {
    StoryTable {
        name: table.name().to_string(),
        sides: u16::from(table.die().sides()),
        rows: table
            .outcomes()
            .iter()
            .map(|outcome| StoryTableRow {
                range: outcome.range(),
                outcome: outcome.outcome.to_string(),
            })
            .collect(),
    }
}

/// The story's line for the player's roll, made for `reason`.
pub fn player_roll(description: &str, resolution: &Resolution, reason: &str) -> StoryEntry {
    StoryEntry::Roll {
        line: description.to_owned(),
        dice: story_dice(resolution.roll()),
        analysis: match resolution {
            Resolution::Check(check) => check_analysis(check, reason),
            Resolution::Roll(_) => None,
        },
        verdict: verdict(resolution),
        by: Roller::Player,
        natural: resolution_natural(resolution),
    }
}

/// A player's roll's natural 20 or 1.
fn resolution_natural(resolution: &Resolution) -> Option<Natural> {
    match resolution {
        Resolution::Check(check) => check.natural(),
        Resolution::Roll(roll) => roll.natural(),
    }
}

/// How a player's roll went, for the story log.
fn verdict(resolution: &Resolution) -> Option<Verdict> {
    match resolution {
        Resolution::Check(check) => Some(check_verdict(check)),
        Resolution::Roll(_) => None,
    }
}

/// How a check went, for the story log.
pub fn check_verdict(check: &Check) -> Verdict {
    if check.is_success() {
        Verdict::Success
    } else {
        Verdict::Failure
    }
}

#[cfg(test)]
mod tests {
    use rand::{rngs::StdRng, SeedableRng};

    use super::*;
    use crate::game::dice::DiceExpr;

    fn rolled(notation: &str, seed: u64) -> Roll {
        DiceExpr::parse(notation)
            .unwrap()
            .roll(&mut StdRng::seed_from_u64(seed))
    }

    #[test]
    fn a_roll_shows_every_die_with_its_face_and_the_dropped_ones_marked() {
        for seed in 0..20 {
            let roll = rolled("2d20kl1+3", seed);
            let dice = story_dice(&roll);
            assert_eq!(dice.len(), 2);
            assert!(dice.iter().all(|die| die.sides == 20));
            let [kept] = dice.iter().filter(|die| die.kept).collect::<Vec<_>>()[..] else {
                panic!("one die kept: {dice:?}")
            };
            let [dropped] = dice.iter().filter(|die| !die.kept).collect::<Vec<_>>()[..] else {
                panic!("one die dropped: {dice:?}")
            };
            // Disadvantage keeps the lower, and the total is the kept face and the modifier.
            assert!(dropped.face >= kept.face);
            assert_eq!(roll.total(), i32::from(kept.face) + 3);
        }
        let mixed = story_dice(&rolled("2d6+1d4", 7));
        let sides: Vec<u16> = mixed.iter().map(|die| die.sides).collect();
        assert_eq!(sides, [6, 6, 4]);
        assert_eq!(
            mixed.iter().map(|die| i32::from(die.face)).sum::<i32>(),
            rolled("2d6+1d4", 7).total()
        );
    }

    #[test]
    fn a_roll_of_more_dice_than_fit_shows_its_line_only() {
        assert_eq!(story_dice(&rolled("12d6", 1)).len(), MAX_DICE_SHOWN);
        assert!(story_dice(&rolled("13d6", 1)).is_empty());
    }
}

//! What a tool call did, applied by the projector: the rolls it made shown in the story with
//! their dice and verdicts, the changes the rules made by them, the map, the journal, a table's
//! die, an aside.

use super::shown::Shown;
use super::state::{CampaignState, ProjectionError};
use super::story::{check_verdict, one_story_die, story_dice, story_table, Roller, StoryEntry};
use super::turn_event::ToolEffect;
use crate::game::analysis::{check_analysis, oracle_analysis, table_analysis};

impl CampaignState {
    /// Applies what a tool call did: a roll, a change, a proposal, an entry, the map or the
    /// journal, a fight's step.
    pub(super) fn apply_effect(
        &mut self,
        effect: &ToolEffect,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        match effect {
            ToolEffect::Changed { deltas, changes } => {
                self.apply_changes(deltas, changes, updates)?
            }
            ToolEffect::Proposed { id, proposed } => self.propose(*id, proposed, updates)?,
            ToolEffect::Asked { reading } => updates.push(self.entry(StoryEntry::Roll {
                line: reading.describe(),
                dice: one_story_die(100, reading.roll.value()),
                analysis: Some(oracle_analysis(reading)),
                verdict: None,
                by: Roller::Oracle,
                natural: None,
            })),
            ToolEffect::TableRolled { roll } => updates.push(self.entry(StoryEntry::Table {
                table: story_table(roll.table()),
                dice: one_story_die(roll.table().die().sides(), roll.face()),
                chosen: u32::try_from(roll.chosen()).unwrap_or_default(),
                analysis: table_analysis(roll.table()),
            })),
            ToolEffect::Aside { message } => updates.push(self.entry(StoryEntry::Aside {
                text: message.clone(),
            })),
            ToolEffect::Spine { change } => self.apply_spine(change, updates)?,
            ToolEffect::Mapped { record } => {
                let places = self.map.places().len();
                self.map.record(record)?;
                if self.map.places().len() > places {
                    self.spine.moved(self.turn);
                }
                updates.push(Shown::Map);
                let labels = vec![format!("Map: {}", record.place.as_str())];
                updates.push(self.entry(StoryEntry::Changes { labels }));
            }
            ToolEffect::Noted { change } => {
                let label = self.journal.apply(change)?;
                updates.push(Shown::Journal);
                if let Some(label) = label {
                    let labels = vec![format!("Journal: {label}")];
                    updates.push(self.entry(StoryEntry::Changes { labels }));
                }
            }
            ToolEffect::Fought { record, changes } => self.apply_fight(record, changes, updates)?,
            ToolEffect::Read => {}
            ToolEffect::ForMember { name, effect } => {
                self.apply_member_effect(name, effect, updates)?
            }
            ToolEffect::Rolled { .. }
            | ToolEffect::Checked { .. }
            | ToolEffect::SanityChecked { .. }
            | ToolEffect::Hazard { .. } => self.apply_roll(effect, updates)?,
        }
        Ok(())
    }

    /// A roll a tool made (the game master's, a check, a sanity save, a hazard), shown in the
    /// story, with what the rules changed by it.
    fn apply_roll(
        &mut self,
        effect: &ToolEffect,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        match effect {
            ToolEffect::Rolled { reason, roll } => {
                self.last_roll = Some(roll.describe(reason));
                updates.push(self.entry(StoryEntry::Roll {
                    line: roll.describe(reason),
                    dice: story_dice(roll),
                    analysis: None,
                    verdict: None,
                    by: Roller::GameMaster,
                    natural: roll.natural(),
                }))
            }
            ToolEffect::Checked { reason, check } => {
                self.last_roll = Some(check.describe(reason));
                updates.push(self.entry(StoryEntry::Roll {
                    line: check.describe(reason),
                    dice: story_dice(check.roll()),
                    analysis: check_analysis(check, reason),
                    verdict: Some(check_verdict(check)),
                    by: Roller::Player,
                    natural: check.natural(),
                }))
            }
            ToolEffect::SanityChecked {
                reason,
                check,
                changes,
            } => {
                updates.push(self.entry(StoryEntry::Roll {
                    line: check.describe(reason),
                    dice: story_dice(check.save.roll()),
                    analysis: check_analysis(&check.save, reason),
                    verdict: Some(check_verdict(&check.save)),
                    by: Roller::Player,
                    natural: check.save.natural(),
                }));
                let deltas = check.deltas(&self.sheet);
                self.apply_changes(&deltas, changes, updates)?
            }
            ToolEffect::Hazard {
                what,
                hazard,
                changes,
            } => {
                let line = hazard.describe(what);
                self.last_roll = Some(line.clone());
                updates.push(self.entry(StoryEntry::Roll {
                    line,
                    dice: story_dice(&hazard.damage),
                    analysis: None,
                    verdict: None,
                    by: Roller::GameMaster,
                    natural: None,
                }));
                self.apply_changes(&hazard.deltas(), changes, updates)?
            }
            _ => {}
        }
        Ok(())
    }
}

//! The table applied by the projector: a friend seated or unseated, a companion joining, a
//! friend's move in the round with its roll, and a tool's change to a member's sheet (applied by
//! the same rules as the host's, on the member's sheet, its chips marked with their name).

use super::shown::Shown;
use super::state::{CampaignState, ProjectionError};
use super::story::{player_roll, StoryEntry};
use super::turn_event::{MemberRoll, ToolEffect};
use crate::game::party::{Member, Role, Seat};
use crate::game::CharacterSheet;

impl CampaignState {
    /// A friend takes `seat` with `sheet`.
    pub(super) fn seat(
        &mut self,
        seat: Seat,
        sheet: &CharacterSheet,
    ) -> Result<Vec<Shown>, ProjectionError> {
        self.welcome(Role::Seat { seat }, sheet)
    }

    /// A companion joins with `sheet`.
    pub(super) fn add_companion(
        &mut self,
        sheet: &CharacterSheet,
    ) -> Result<Vec<Shown>, ProjectionError> {
        self.welcome(Role::Companion, sheet)
    }

    fn welcome(
        &mut self,
        role: Role,
        sheet: &CharacterSheet,
    ) -> Result<Vec<Shown>, ProjectionError> {
        let member = Member {
            role,
            sheet: sheet.clone(),
        };
        self.party.join(member, self.sheet.name().as_str())?;
        // A companion comes with the campaign's start: the opening scene introduces them.
        if role == Role::Companion {
            return Ok(vec![Shown::Party]);
        }
        let text = format!(
            "{} ({}) joins the party.",
            sheet.name().as_str(),
            sheet.class().as_str()
        );
        Ok(vec![
            self.entry(StoryEntry::RulesNote { text }),
            Shown::Party,
        ])
    }

    /// The friend at `seat` leaves the table and the story.
    pub(super) fn unseat(&mut self, seat: Seat) -> Result<Vec<Shown>, ProjectionError> {
        let gone = self.party.leave(seat)?;
        let text = format!("{} leaves the party.", gone.name());
        Ok(vec![
            self.entry(StoryEntry::RulesNote { text }),
            Shown::Party,
        ])
    }

    /// A friend's move of the round, and its roll.
    pub(super) fn seat_moved(
        &mut self,
        name: &str,
        text: &str,
        roll: Option<&MemberRoll>,
        updates: &mut Vec<Shown>,
    ) {
        updates.push(self.entry(StoryEntry::Move {
            text: text.to_owned(),
            by: Some(name.to_owned()),
        }));
        if let Some(roll) = roll {
            let entry = player_roll(&roll.description, &roll.resolution, &roll.reason);
            updates.push(self.entry(entry));
        }
    }

    /// A tool's `effect` applied to the sheet of the member called `name`: the member's sheet
    /// stands in for the hero's while the same rules apply it, and the chips it shows carry the
    /// member's name.
    pub(super) fn apply_member_effect(
        &mut self,
        name: &str,
        effect: &ToolEffect,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        let index = self
            .party
            .named(name)
            .ok_or_else(|| ProjectionError::NoMember(name.to_owned()))?;
        let hero_sheet = self.sheet.clone();
        let member_sheet = self.party.members()[index].sheet.clone();
        self.sheet = member_sheet;
        let mut shown = Vec::new();
        let applied = self.apply_effect(effect, &mut shown);
        let member_sheet = std::mem::replace(&mut self.sheet, hero_sheet);
        applied?;
        if let Some(member) = self.party.member_mut(index) {
            member.sheet = member_sheet;
        }
        let who = self.party.members()[index].name().to_owned();
        for mut each in shown {
            match &mut each {
                Shown::Sheet => each = Shown::Party,
                Shown::Entry {
                    entry: StoryEntry::Changes { labels },
                    ..
                } => {
                    for label in labels.iter_mut() {
                        *label = format!("{who}: {label}");
                    }
                }
                _ => {}
            }
            updates.push(each);
        }
        Ok(())
    }
}

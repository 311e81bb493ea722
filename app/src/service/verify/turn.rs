//! The checks of one turn's events against the walk's state: a move and the action it chose,
//! the player's roll, a tool's call and result, the rules' own changes, a complication.

use super::super::panel::{drop_delta, equip_delta, DROPPED, EQUIPPED, IMPROVED, UNEQUIPPED, USED};
use super::super::powers::{CAST, FEATURE, HIT_DIE, RESTED};
use crate::campaign::bounds::{MAX_NARRATION_CHARS, MAX_RESULT_CHARS};
use crate::campaign::conversation::ToolCall;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::complication::Complication;
use crate::game::fight::{FightStep, USED_IN_FIGHT};
use crate::game::stakes::DEATH_SAVE;
use crate::game::{Action, AppliedChanges, DiceExpr, JournalChange, Resolution, Slug, StateDelta};
use crate::gm::tools::{self};
use crate::gm::turn::complication;
use crate::gm::turn::spell_turn::CAST_BY_THE_RULES;
use crate::gm::MoveText;

use super::checks::*;
use super::{Walk, Wrong};
use crate::campaign::turn_event::MemberRoll;
use crate::game::party::Seat;
use crate::game::spine::journey::TRAVELLED;
use crate::game::spine::MAX_TRAVEL_HOURS;

impl Walk {
    pub(super) fn check_turn(&mut self, event: &TurnEvent, turn: u32) -> Result<(), Wrong> {
        if complication::costs_something(event) && !matches!(event, TurnEvent::Complicated { .. }) {
            self.turn.cost_due = None;
        }
        match event {
            TurnEvent::Move { text, action_id } => self.check_move(text, action_id.as_deref()),
            TurnEvent::SeatMoved {
                seat,
                name,
                text,
                action_id,
                roll,
            } => self.check_seat_move(*seat, name, text, action_id.as_deref(), roll.as_ref()),
            TurnEvent::PlayerRoll {
                reason,
                resolution,
                description,
            } => self.check_player_roll(reason, resolution, description),
            TurnEvent::NarrativeDelta { .. }
            | TurnEvent::Retrying { .. }
            | TurnEvent::NarrativeReplaced { .. }
            | TurnEvent::TableShown { .. } => Err(Wrong::Streamed),
            TurnEvent::Ruled {
                cause,
                deltas,
                changes,
            } => self.check_ruled(cause, deltas, changes),
            TurnEvent::Complicated {
                stakes,
                complication,
                changes,
            } => self.check_complicated(stakes, complication, changes),
            // Notes for the player only: the prose they judge never changes the ledger.
            TurnEvent::LedgerChecked { notes, asked, .. } => {
                check_ledger_notes([notes.as_slice(), asked.as_slice()])
            }
            // What the model was shown from earlier in the story: bounded, changes nothing.
            TurnEvent::Recalled { passages } => check_recalled(passages),
            // Its changes are checked by the spine's rules as it is applied; here, that the
            // rules made it.
            TurnEvent::Spine { change } => check_spine(change, &self.state, turn),
            // The projector applies it through the journal's rules (never over another entry).
            TurnEvent::Noticed { change } => match change {
                JournalChange::Noticed { .. } => Ok(()),
                _ => Err(Wrong::NotNoticed),
            },
            // Its numbers are checked when it is applied: the rules play it again from its dice.
            TurnEvent::Fought { record, .. } => match record.step {
                FightStep::Stop => Err(Wrong::FightStopped),
                _ => Ok(()),
            },
            // The projector applies it: only to a proposal waiting, with what accepting it
            // changes (nothing when refused).
            TurnEvent::Decided { .. } => Ok(()),
            TurnEvent::ToolCalled { call } => self.check_call(call),
            TurnEvent::ToolResult {
                call_id,
                tool,
                result,
                effect,
            } => self.check_tool_result(call_id, tool, result, effect.as_ref()),
            TurnEvent::Narration { text, .. } => {
                bounded("narration", text, MAX_NARRATION_CHARS)?;
                self.opened |= turn == 1;
                Ok(())
            }
            // The list is checked as it is read (ids, texts, dice, at most six).
            TurnEvent::ActionsOffered { .. } => Ok(()),
            // Any numbers: what the rules drew, given back to a retelling's rolls of each kind,
            // whose results are then checked as any roll's are.
            TurnEvent::DiceDrawn { .. } => Ok(()),
            TurnEvent::Usage { usage, .. } => {
                self.usage = self.usage.checked_add(*usage).ok_or(Wrong::Usage)?;
                Ok(())
            }
        }
    }

    /// A tool's result: bounded, for a call of that tool made earlier in the turn, and with the
    /// effect that call has on the state, if it has one.
    fn check_tool_result(
        &self,
        call_id: &str,
        tool: &str,
        result: &str,
        effect: Option<&ToolEffect>,
    ) -> Result<(), Wrong> {
        bounded("tool result", result, MAX_RESULT_CHARS)?;
        let (called, command, named) = self.turn.calls.get(call_id).ok_or(Wrong::NoCall)?;
        if called != tool {
            return Err(Wrong::NoCall);
        }
        // A change for a party member is the call's that named them; any other, the hero's.
        let for_member = match effect {
            Some(ToolEffect::ForMember { name, .. }) => Some(name.as_str()),
            _ => None,
        };
        let host = self.state.sheet.name().as_str();
        let named_member = named
            .as_deref()
            .filter(|named| !named.trim().eq_ignore_ascii_case(host));
        if effect.is_some()
            && !named_member
                .zip(for_member)
                .map_or(named_member.is_none() && for_member.is_none(), |(a, b)| {
                    a.trim().eq_ignore_ascii_case(b)
                })
        {
            return Err(Wrong::Effect {
                tool: tool.to_owned(),
            });
        }
        match (effect, command) {
            (None, _) => Ok(()),
            (Some(_), None) => Err(Wrong::InvalidCall),
            (Some(effect), Some(command)) if effect_of(command, effect, &self.state) => Ok(()),
            (Some(_), Some(_)) => Err(Wrong::Effect {
                tool: tool.to_owned(),
            }),
        }
    }

    fn check_move(&mut self, text: &str, action_id: Option<&str>) -> Result<(), Wrong> {
        if std::mem::replace(&mut self.turn.moved, true) {
            return Err(Wrong::SecondMove);
        }
        if self.state.sheet.vitality().is_dead() {
            return Err(Wrong::Ended);
        }
        MoveText::parse(text).map_err(|_| Wrong::Move)?;
        if let Some(id) = action_id {
            self.offered(id)?;
        }
        self.turn.chosen = action_id.map(str::to_owned);
        Ok(())
    }

    fn check_player_roll(
        &mut self,
        reason: &str,
        resolution: &Resolution,
        description: &str,
    ) -> Result<(), Wrong> {
        if description != resolution.describe(reason) {
            return Err(Wrong::PlayerRoll);
        }
        if self.state.sheet.vitality().is_dying() {
            // A dying character's roll is their death save: a plain d20 against DC 10.
            let Resolution::Check(check) = resolution else {
                return Err(Wrong::PlayerRoll);
            };
            let die = check
                .roll()
                .natural_d20()
                .and_then(|d| u8::try_from(d).ok());
            let plain = DiceExpr::d20().explains(check.roll()) && check.dc().value() == 10;
            return match die {
                Some(die) if reason == DEATH_SAVE && plain => {
                    self.turn.death_save = Some(die);
                    Ok(())
                }
                _ => Err(Wrong::PlayerRoll),
            };
        }
        let chosen = self.turn.chosen.clone().ok_or(Wrong::PlayerRoll)?;
        let action = self.offered(&chosen)?;
        if !(action.explains(
            &self.state.sheet,
            self.state.sheet.conditions().roll_effects().checks,
            resolution,
        ) && action.roll_reason() == reason)
        {
            return Err(Wrong::PlayerRoll);
        }
        if let (Some(stakes), Resolution::Check(check)) = (action.stakes(), resolution) {
            if !check.is_success() {
                self.turn.cost_due = Some(stakes.failure.as_str().to_owned());
            }
        }
        Ok(())
    }

    /// The rules' complication: due (the chosen action's check failed on stakes and nothing
    /// has cost anything since), of those stakes, from the table with the dice it shows, and
    /// changing exactly what it says.
    fn check_complicated(
        &mut self,
        stakes: &str,
        complication: &Complication,
        changes: &AppliedChanges,
    ) -> Result<(), Wrong> {
        let due = self.turn.cost_due.take();
        let sheet = &self.state.sheet;
        if due.as_deref() == Some(stakes)
            && complication.is_the_rules(sheet)
            && applied(&complication.deltas(), sheet).as_ref() == Some(changes)
        {
            Ok(())
        } else {
            Err(Wrong::Complication)
        }
    }

    /// A change the rules make themselves: a dying character's death save (with the die their
    /// roll showed), or what the player did from the character panel: every one of an item
    /// dropped, a consumable used (its roll what its dice show), an item equipped or put away,
    /// an ability score improvement spent.
    /// Each is exactly the one delta the rules make for its cause, and changes something.
    fn check_ruled(
        &mut self,
        cause: &str,
        deltas: &[StateDelta],
        changes: &AppliedChanges,
    ) -> Result<(), Wrong> {
        let sheet = &self.state.sheet;
        if cause == TRAVELLED {
            return match deltas {
                [StateDelta::MoveTo { location }, StateDelta::AdvanceTime { minutes }]
                    if self
                        .state
                        .map
                        .places()
                        .iter()
                        .any(|p| p.name.eq_ignore_case(location))
                        && *minutes <= MAX_TRAVEL_HOURS * 60
                        && applied(deltas, sheet).as_ref() == Some(changes) =>
                {
                    Ok(())
                }
                _ => Err(Wrong::Ruled),
            };
        }
        let panel_power = matches!(cause, CAST | CAST_BY_THE_RULES | FEATURE | RESTED | HIT_DIE);
        if panel_power && self.state.combat.is_running() {
            return Err(Wrong::InAFight);
        }
        let expected = match (cause, deltas) {
            (DEATH_SAVE, _) => {
                let die = self.turn.death_save.take().ok_or(Wrong::Ruled)?;
                StateDelta::DeathSave { die }
            }
            (DROPPED, [StateDelta::ChangeItemQuantity { slug, .. }]) => {
                sheet.inventory().get(slug).ok_or(Wrong::Ruled)?;
                drop_delta(sheet, slug)
            }
            // Applying it checks the item is a carried consumable and the roll its dice.
            (USED | USED_IN_FIGHT, [used @ StateDelta::UseItem { .. }]) => used.clone(),
            (EQUIPPED, [StateDelta::Equip { slug }]) => equip_delta(slug, true),
            (UNEQUIPPED, [StateDelta::Unequip { slug }]) => equip_delta(slug, false),
            // Applying it checks that one is due and no score passes 20.
            (IMPROVED, [improved @ StateDelta::ImproveAbilities { .. }]) => improved.clone(),
            // Applying each checks the spell is known with a slot left and its healing dice
            // are its own, the feature has a use, the long rest is the first of the day, a hit
            // die is spent right after a short rest and its roll is the die plus CON.
            (CAST | CAST_BY_THE_RULES, [cast @ StateDelta::CastSpell { .. }]) => cast.clone(),
            (FEATURE, [used @ StateDelta::UseFeature { .. }]) => used.clone(),
            (RESTED, [rest @ StateDelta::Rest { .. }]) => rest.clone(),
            (HIT_DIE, [spent @ StateDelta::SpendHitDie { .. }]) => spent.clone(),
            _ => return Err(Wrong::Ruled),
        };
        let panel = cause != DEATH_SAVE;
        if deltas == [expected]
            && !(panel && changes.is_empty())
            && applied(deltas, sheet).as_ref() == Some(changes)
        {
            Ok(())
        } else {
            Err(Wrong::Ruled)
        }
    }

    fn check_call(&mut self, call: &ToolCall) -> Result<(), Wrong> {
        call_bounded(call)?;
        let command = tools::parse_call(call).ok();
        let named = tools::whose::named_in(call);
        self.turn
            .calls
            .insert(call.id.clone(), (call.name.clone(), command, named));
        Ok(())
    }

    /// A friend's move: from a seat at the table, in words a move may have, an action offered,
    /// and its roll the one that action makes against their own sheet.
    fn check_seat_move(
        &self,
        seat: Seat,
        name: &str,
        text: &str,
        action_id: Option<&str>,
        roll: Option<&MemberRoll>,
    ) -> Result<(), Wrong> {
        let member = self.state.party.at(seat).ok_or(Wrong::SeatMove)?;
        if member.name() != name || member.has_fallen() {
            return Err(Wrong::SeatMove);
        }
        MoveText::parse(text).map_err(|_| Wrong::Move)?;
        let action = action_id.map(|id| self.offered(id)).transpose()?;
        match (action, roll) {
            (_, None) => Ok(()),
            (Some(action), Some(roll))
                if roll.description == roll.resolution.describe(&roll.reason)
                    && action.roll_reason() == roll.reason
                    && action.explains(
                        &member.sheet,
                        member.sheet.conditions().roll_effects().checks,
                        &roll.resolution,
                    ) =>
            {
                Ok(())
            }
            _ => Err(Wrong::SeatMove),
        }
    }

    fn offered(&self, id: &str) -> Result<&Action, Wrong> {
        Slug::new(id)
            .ok()
            .and_then(|slug| self.turn.offered.as_ref()?.get(&slug))
            .ok_or(Wrong::NotOffered)
    }
}

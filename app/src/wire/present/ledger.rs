//! The ledger (the tracked operations of the game): every state change in a campaign with what caused
//! it, and every roll with its dice (a fight's attacks with the armour class they faced), read from the events in effect (undone turns left out). It
//! is answered a page at a time, each cause once and cut to a bounded length: a cause is a tool
//! call's arguments, which an imported file can make long, and one call can change many things.

use std::collections::HashMap;

use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::proposal::Proposed;
use crate::campaign::timeline::timeline;
use crate::campaign::turn_event::{ToolEffect, TurnEvent};
use crate::game::combat::{AttackResolution, CombatEvent, Hit, Party};
use crate::game::fight::{FightRecord, FightStep};
use crate::game::spells::SpellBook;
use crate::game::{AppliedChanges, Resolution, RestKind, Roll, StateDelta};
use crate::wire::view::{LedgerPage, LedgerRow, LEDGER_PAGE, MAX_CAUSE_CHARS};

/// The page of a whole log's ledger that ends before row `before` (the latest page without
/// it): at most [`LEDGER_PAGE`] rows, oldest first.
pub fn ledger_page(events: &[StoredEvent], before: Option<u32>) -> LedgerPage {
    Ledger::of(events).page(before)
}

/// Every row of a ledger; a change's `cause` indexes `causes`, one per call or rule.
#[derive(Default)]
struct Ledger {
    rows: Vec<LedgerRow>,
    causes: Vec<String>,
}

impl Ledger {
    /// The player's decision on a proposal: what accepting it changed, or what refusing it
    /// kept off the sheet, with who decided and the game master's call that proposed it.
    fn decided(
        &mut self,
        turn: u32,
        id: u32,
        accepted: bool,
        changes: &AppliedChanges,
        proposals: &HashMap<u32, (Proposed, u32)>,
    ) {
        let call = proposals
            .get(&id)
            .and_then(|(_, cause)| self.causes.get(*cause as usize))
            .cloned()
            .unwrap_or_default();
        if accepted {
            let cause = self.cause(format!("Accepted by the player: {call}"));
            change_rows(turn, changes, cause, &mut self.rows);
            return;
        }
        let labels = match proposals.get(&id) {
            Some((Proposed::Sheet { changes, .. }, _)) => changes.labels(),
            Some((proposed, _)) => proposed.labels(&Default::default()),
            None => Vec::new(),
        };
        let cause = self.cause(format!("Refused by the player: {call}"));
        for label in labels {
            self.rows.push(LedgerRow::Change {
                turn,
                what: label,
                before: "proposed".to_owned(),
                after: "refused".to_owned(),
                cause,
            });
        }
    }

    fn of(events: &[StoredEvent]) -> Self {
        let mut ledger = Self::default();
        let mut calls = HashMap::new();
        let mut proposals = HashMap::new();
        for stored in timeline(events).active {
            let CampaignEvent::Turn(event) = &stored.event else {
                continue;
            };
            let turn = stored.turn;
            match event {
                TurnEvent::ToolCalled { call } => {
                    let cause = ledger.cause(format!("{}({})", call.name, call.arguments));
                    calls.insert(call.id.as_str(), cause);
                }
                TurnEvent::ToolResult {
                    call_id,
                    tool,
                    effect: Some(effect),
                    ..
                } => {
                    let cause = match calls.get(call_id.as_str()) {
                        Some(&cause) => cause,
                        None => ledger.cause(tool.clone()),
                    };
                    if let ToolEffect::Proposed { id, proposed } = effect {
                        proposals.insert(*id, (proposed.clone(), cause));
                    }
                    effect_rows(turn, effect, cause, &mut ledger.rows);
                }
                TurnEvent::Ruled {
                    cause,
                    deltas,
                    changes,
                } => {
                    // What was cast, used or rested, and its dice, before what they did.
                    let words: Vec<String> = deltas.iter().filter_map(power_words).collect();
                    let cause = if words.is_empty() {
                        cause.clone()
                    } else {
                        format!("{cause}: {}", words.join(", "))
                    };
                    for roll in deltas.iter().filter_map(StateDelta::roll) {
                        let reason = format!("Rules: {cause}");
                        ledger.rows.push(roll_row(turn, reason, roll, None, None));
                    }
                    let cause = ledger.cause(cause);
                    change_rows(turn, changes, cause, &mut ledger.rows);
                }
                TurnEvent::PlayerRoll {
                    reason, resolution, ..
                } => ledger.rows.push(player_roll(turn, reason, resolution)),
                TurnEvent::Decided {
                    id,
                    accepted,
                    changes,
                } => ledger.decided(turn, *id, *accepted, changes, &proposals),
                TurnEvent::Complicated {
                    complication,
                    changes,
                    ..
                } => {
                    let reason = "Rules: a failure's complication".to_owned();
                    let table = &complication.table;
                    ledger.rows.push(roll_row(turn, reason, table, None, None));
                    if let Some(roll) = complication.cost.roll() {
                        let reason = "Rules: the complication's dice".to_owned();
                        ledger.rows.push(roll_row(turn, reason, roll, None, None));
                    }
                    let cause = ledger.cause(COMPLICATION_CAUSE.to_owned());
                    change_rows(turn, changes, cause, &mut ledger.rows);
                }
                TurnEvent::Fought { record, changes } => {
                    fight_rows(turn, record, &mut ledger.rows);
                    let cause = ledger.cause(fight_cause(record));
                    change_rows(turn, changes, cause, &mut ledger.rows);
                }
                _ => {}
            }
        }
        ledger
    }

    /// Keeps `text` (cut to [`MAX_CAUSE_CHARS`]) as a cause; its index.
    fn cause(&mut self, mut text: String) -> u32 {
        if crate::campaign::bounds::cut(&mut text, MAX_CAUSE_CHARS) {
            text.push('…');
        }
        self.causes.push(text);
        to_u32(self.causes.len() - 1)
    }

    /// The rows before `before` (all without it), at most a page, with the causes they cite.
    fn page(mut self, before: Option<u32>) -> LedgerPage {
        let end = before.map_or(self.rows.len(), |before| {
            self.rows.len().min(before as usize)
        });
        let start = end.saturating_sub(LEDGER_PAGE as usize);
        let mut causes = Vec::new();
        let mut cited = HashMap::new();
        let mut rows: Vec<LedgerRow> = self.rows.drain(start..end).collect();
        for row in &mut rows {
            if let LedgerRow::Change { cause, .. } = row {
                let kept = *cause as usize;
                *cause = *cited.entry(kept).or_insert_with(|| {
                    causes.push(std::mem::take(&mut self.causes[kept]));
                    to_u32(causes.len() - 1)
                });
            }
        }
        LedgerPage {
            start: to_u32(start),
            rows,
            causes,
        }
    }
}

fn player_roll(turn: u32, reason: &str, resolution: &Resolution) -> LedgerRow {
    let reason = format!("Player: {reason}");
    match resolution {
        Resolution::Check(check) => roll_row(
            turn,
            reason,
            check.roll(),
            Some(check.dc().value()),
            Some(verdict(check.is_success())),
        ),
        Resolution::Roll(roll) => roll_row(turn, reason, roll, None, None),
    }
}

/// The rows of what a tool call did: its rolls and the changes they made.
fn effect_rows(turn: u32, effect: &ToolEffect, cause: u32, rows: &mut Vec<LedgerRow>) {
    match effect {
        ToolEffect::Changed { changes, .. } => change_rows(turn, changes, cause, rows),
        ToolEffect::Rolled { reason, roll } => rows.push(roll_row(
            turn,
            format!("Game master: {reason}"),
            roll,
            None,
            None,
        )),
        ToolEffect::Checked { reason, check } => rows.push(roll_row(
            turn,
            format!("Player check: {reason}"),
            check.roll(),
            Some(check.dc().value()),
            Some(verdict(check.is_success())),
        )),
        ToolEffect::Asked { reading } => rows.push(LedgerRow::Roll {
            turn,
            reason: format!("Oracle: {}", reading.question),
            notation: "1d100".to_owned(),
            dice: reading.roll.value().to_string(),
            modifier: 0,
            total: i32::from(reading.roll.value()),
            dc: Some(reading.likelihood.threshold()),
            verdict: Some(reading.answer.to_string()),
        }),
        ToolEffect::SanityChecked { .. } | ToolEffect::Hazard { .. } => {
            save_rows(turn, effect, cause, rows)
        }
        ToolEffect::TableRolled { roll } => rows.push(LedgerRow::Roll {
            turn,
            reason: format!("Table: {}", roll.table().name()),
            notation: format!("1{}", roll.table().die()),
            dice: roll.face().to_string(),
            modifier: 0,
            total: i32::from(roll.face()),
            dc: None,
            verdict: Some(roll.outcome().outcome.to_string()),
        }),
        ToolEffect::Mapped { record } => {
            let exits: Vec<&str> = record.connects_to.iter().map(|e| e.as_str()).collect();
            rows.push(LedgerRow::Change {
                turn,
                what: format!("Map: {}", record.place.as_str()),
                before: "—".to_owned(),
                after: format!("leads to {}", exits.join(", ")),
                cause,
            });
        }
        ToolEffect::Fought { record, changes } => {
            fight_rows(turn, record, rows);
            change_rows(turn, changes, cause, rows);
        }
        ToolEffect::ForMember { effect, .. } => effect_rows(turn, effect, cause, rows),
        // A proposal shows in the ledger once the player decides it; the plan is the story's,
        // not the sheet's.
        ToolEffect::Read
        | ToolEffect::Spine { .. }
        | ToolEffect::Noted { .. }
        | ToolEffect::Aside { .. }
        | ToolEffect::Proposed { .. } => {}
    }
}

/// The rows of a save the rules made and what it cost: a sanity save and the sanity lost, a
/// hazard's save and its damage.
fn save_rows(turn: u32, effect: &ToolEffect, cause: u32, rows: &mut Vec<LedgerRow>) {
    match effect {
        ToolEffect::SanityChecked {
            reason,
            check,
            changes,
        } => {
            rows.push(roll_row(
                turn,
                format!("Player sanity save: {reason}"),
                check.save.roll(),
                Some(check.save.dc().value()),
                Some(verdict(check.save.is_success())),
            ));
            if let Some(loss) = &check.loss {
                rows.push(roll_row(
                    turn,
                    "Rules: sanity lost".to_owned(),
                    loss,
                    None,
                    None,
                ));
            }
            change_rows(turn, changes, cause, rows);
        }
        ToolEffect::Hazard {
            what,
            hazard,
            changes,
        } => {
            if let Some((save, check)) = &hazard.save {
                rows.push(roll_row(
                    turn,
                    format!("Player {save} save: {what}"),
                    check.roll(),
                    Some(check.dc().value()),
                    Some(verdict(check.is_success())),
                ));
            }
            rows.push(roll_row(
                turn,
                format!("Hazard ({}): {what}", hazard.severity.name()),
                &hazard.damage,
                None,
                Some(format!("{} damage", hazard.dealt)),
            ));
            change_rows(turn, changes, cause, rows);
        }
        _ => {}
    }
}

/// Why a fight changed the sheet, in the ledger.
const FIGHT_CAUSE: &str = "Rules: the fight";

/// The cause of a complication's changes in the ledger.
const COMPLICATION_CAUSE: &str = "Rules: a failed roll's cost";

/// Every roll of a fight's step: initiative, each attack against the armour class it faced with
/// its damage, an escape against its DC.
fn fight_rows(turn: u32, record: &FightRecord, rows: &mut Vec<LedgerRow>) {
    for event in &record.exchange.events {
        match event {
            CombatEvent::Initiative { order } => {
                for place in order {
                    let who = place.foe.as_ref().map_or("You", |foe| foe.as_str());
                    let reason = format!("Initiative: {who}");
                    rows.push(roll_row(turn, reason, &place.roll, None, None));
                }
            }
            CombatEvent::Attack(attack) => {
                let reason = format!("Attack: {}", attack_words(attack));
                let ac = attack.armor_class().value();
                let hit = match attack.hit() {
                    Hit::Miss => "miss",
                    Hit::Hit => "hit",
                    Hit::Critical => "critical hit",
                };
                let verdict = Some(hit.to_owned());
                rows.push(roll_row(turn, reason, attack.roll(), Some(ac), verdict));
                for part in attack.damage() {
                    let reason = format!("Damage ({}): {}", part.kind(), attack_words(attack));
                    rows.push(roll_row(turn, reason, part.roll(), None, None));
                }
            }
            CombatEvent::Flee { check } => rows.push(roll_row(
                turn,
                "Player: flee".to_owned(),
                check.roll(),
                Some(check.dc().value()),
                Some(verdict(check.is_success())),
            )),
            other => rows.extend(power_row(turn, other)),
        }
    }
}

/// What a delta about powers did, in the ledger's words: `Cure Wounds (1st-level slot)`,
/// `Second Wind`, `a hit die`, `a long rest`.
fn power_words(delta: &StateDelta) -> Option<String> {
    match delta {
        StateDelta::CastSpell { spell, slot, .. } => {
            let name = SpellBook::srd()
                .get(spell.as_str())
                .map_or_else(|_| spell.to_string(), |s| s.name.clone());
            Some(if slot.is_cantrip() {
                format!("{name} (cantrip)")
            } else {
                format!("{name} ({} slot)", slot.ordinal())
            })
        }
        StateDelta::UseFeature { feature, .. } => Some(feature.name().to_owned()),
        StateDelta::Rest { kind } => Some(match kind {
            RestKind::Short => "a short rest".to_owned(),
            RestKind::Long => "a long rest".to_owned(),
        }),
        _ => None,
    }
}

/// The cause of a fight step's changes: the spell cast or the feature used, or the fight.
fn fight_cause(record: &FightRecord) -> String {
    let cast = record.exchange.events.iter().find_map(|event| match event {
        CombatEvent::Cast { spell, slot } if slot.is_cantrip() => {
            Some(format!("{spell} (cantrip)"))
        }
        CombatEvent::Cast { spell, slot } => Some(format!("{spell} ({} slot)", slot.ordinal())),
        _ => None,
    });
    match (&record.step, cast) {
        (_, Some(cast)) => format!("Rules: you cast {cast} in the fight"),
        (FightStep::Feature { feature, .. }, None) => {
            format!("Rules: {} in the fight", feature.name())
        }
        _ => FIGHT_CAUSE.to_owned(),
    }
}

/// The roll of a spell's or feature's event in a fight: a foe's save, a spell's damage, the
/// hero's healing, a pool, a concentration save, a hiding check, Bless's die.
fn power_row(turn: u32, event: &CombatEvent) -> Option<LedgerRow> {
    let row = match event {
        CombatEvent::SpellSave {
            foe,
            roll,
            dc,
            saved,
        } => roll_row(
            turn,
            format!("Save: {foe}"),
            roll,
            Some(*dc),
            Some(verdict(*saved)),
        ),
        CombatEvent::SpellHit {
            spell,
            foe,
            damage: Some(damage),
            ..
        } => roll_row(
            turn,
            format!("Damage ({}): {spell} at {foe}", damage.kind()),
            damage.roll(),
            None,
            None,
        ),
        CombatEvent::Healed { roll } => roll_row(turn, "Healing: you".to_owned(), roll, None, None),
        CombatEvent::Pool { spell, roll } => roll_row(
            turn,
            format!("{spell}: hit points of foes"),
            roll,
            None,
            None,
        ),
        CombatEvent::Concentration {
            spell,
            roll,
            dc,
            kept,
        } => roll_row(
            turn,
            format!(
                "Concentration{}",
                spell.as_ref().map_or(String::new(), |s| format!(": {s}"))
            ),
            roll,
            Some(*dc),
            Some(verdict(*kept)),
        ),
        CombatEvent::Hide { check } => roll_row(
            turn,
            "Player: hide (Cunning Action)".to_owned(),
            check.roll(),
            Some(check.dc().value()),
            Some(verdict(check.is_success())),
        ),
        CombatEvent::Blessed { roll } => roll_row(turn, "Bless".to_owned(), roll, None, None),
        _ => return None,
    };
    Some(row)
}

/// `Goblin 2's scimitar at you`, `your longsword at Goblin 2`.
fn attack_words(attack: &AttackResolution) -> String {
    let name = |party: &Party| match party {
        Party::Hero => "you".to_owned(),
        Party::Foe(label) => label.to_string(),
        Party::Ally(name) => name.to_string(),
    };
    match attack.attacker() {
        Party::Hero => format!("your {} at {}", attack.weapon(), name(attack.target())),
        foe => format!(
            "{}'s {} at {}",
            name(foe),
            attack.weapon(),
            name(attack.target())
        ),
    }
}

fn change_rows(turn: u32, changes: &AppliedChanges, cause: u32, rows: &mut Vec<LedgerRow>) {
    for change in changes.changes() {
        let (what, before, after) = change.before_after();
        rows.push(LedgerRow::Change {
            turn,
            what,
            before,
            after,
            cause,
        });
    }
}

fn roll_row(
    turn: u32,
    reason: String,
    roll: &Roll,
    dc: Option<u8>,
    verdict: Option<String>,
) -> LedgerRow {
    let dice: Vec<String> = roll
        .terms()
        .iter()
        .flat_map(|term| term.dice())
        .map(|die| {
            if die.is_kept() {
                die.value().to_string()
            } else {
                format!("({} dropped)", die.value())
            }
        })
        .collect();
    LedgerRow::Roll {
        turn,
        reason,
        notation: roll.notation().to_owned(),
        dice: dice.join(", "),
        modifier: roll.modifier(),
        total: roll.total(),
        dc,
        verdict,
    }
}

fn verdict(success: bool) -> String {
    if success { "success" } else { "failure" }.to_owned()
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::conversation::ToolCall;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::{CharacterSheet, StateDelta};

    fn sheet() -> CharacterSheet {
        CharacterSheet::new(
            CharacterName::new("Wren").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("The road").unwrap(),
        )
    }

    fn turn(turn: u32, event: TurnEvent) -> StoredEvent {
        StoredEvent {
            turn,
            event: CampaignEvent::Turn(event),
        }
    }

    fn called(id: &str, arguments: &str) -> TurnEvent {
        TurnEvent::ToolCalled {
            call: ToolCall {
                id: id.into(),
                name: "update_character".into(),
                arguments: arguments.into(),
            },
        }
    }

    /// The result of call `id`: `amount` HP, applied to `sheet`.
    fn hp(id: &str, amount: i32, sheet: &mut CharacterSheet) -> TurnEvent {
        let deltas = vec![StateDelta::ChangeHp { amount }];
        let changes = StateDelta::apply_all(&deltas, sheet).unwrap();
        TurnEvent::ToolResult {
            call_id: id.into(),
            tool: "update_character".into(),
            result: String::new(),
            effect: Some(ToolEffect::Changed { deltas, changes }),
        }
    }

    fn cause(page: &LedgerPage, row: &LedgerRow) -> String {
        match row {
            LedgerRow::Change { cause, .. } => page.causes[*cause as usize].clone(),
            LedgerRow::Roll { .. } => panic!("{row:?}"),
        }
    }

    #[test]
    fn a_page_holds_the_latest_rows_and_each_of_their_causes_once_and_cut() {
        let mut sheet = sheet();
        let long = format!("{{\"hpChange\":-1{}}}", " ".repeat(100_000));
        let mut events = vec![turn(1, called("c1", &long))];
        for _ in 0..75 {
            events.push(turn(1, hp("c1", -1, &mut sheet)));
            events.push(turn(1, hp("c1", 1, &mut sheet)));
        }

        let latest = ledger_page(&events, None);
        assert_eq!((latest.start, latest.rows.len()), (50, 100));
        assert_eq!(latest.causes.len(), 1);
        let shown = &latest.causes[0];
        assert_eq!(shown.chars().count(), MAX_CAUSE_CHARS + 1);
        assert!(
            shown.starts_with("update_character({\"hpChange\":-1  "),
            "{shown:.40}"
        );
        assert!(shown.ends_with('…'));
        assert!(latest.rows.iter().all(|row| cause(&latest, row) == *shown));

        let earlier = ledger_page(&events, Some(latest.start));
        assert_eq!((earlier.start, earlier.rows.len()), (0, 50));
        assert_eq!(earlier.causes, latest.causes);
        assert!(ledger_page(&events, Some(0)).rows.is_empty());
    }

    #[test]
    fn each_change_cites_the_call_it_answers() {
        let mut sheet = sheet();
        let events = [
            turn(1, called("a", r#"{"hpChange":-1}"#)),
            turn(1, called("b", r#"{"hpChange":1}"#)),
            turn(1, hp("a", -1, &mut sheet)),
            turn(1, hp("b", 1, &mut sheet)),
        ];
        let page = ledger_page(&events, None);
        let causes: Vec<String> = page.rows.iter().map(|row| cause(&page, row)).collect();
        assert_eq!(
            causes,
            [
                r#"update_character({"hpChange":-1})"#,
                r#"update_character({"hpChange":1})"#
            ]
        );
    }
}

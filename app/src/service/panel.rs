//! What the player changes from the character panel themselves: dropping an item, using a
//! consumable (its dice rolled by the rules), equipping or putting away a weapon, armour or
//! shield, spending an ability score improvement. The rules apply each as an event of the current turn (the game master sees it from
//! its next request); what the rules refuse is an error that changes nothing. In a fight, using
//! a consumable takes the player's turn: the foes act, by the rules, before the panel answers.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Game, Loaded, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::campaign::turn_event::TurnEvent;
use crate::game::fight::FightStep;
use crate::game::improvement::AbilityImprovement;
use crate::game::{CharacterSheet, DeltaError, Slug, StateDelta};
use crate::wire::present::actions::action_views;
use crate::wire::present::fight::encounter_view;
use crate::wire::present::sheet::sheet_view;
use crate::wire::view::TurnUpdate;
use crate::wire::{CampaignId, PlayerId};

/// Why an item left the sheet, in the ledger.
pub const DROPPED: &str = "Dropped from the character panel";
/// Why a consumable was used up (and what it did), in the ledger.
pub const USED: &str = "Used from the character panel";
/// Why a weapon, armour or shield was taken in hand, in the ledger.
pub const EQUIPPED: &str = "Equipped from the character panel";
/// Why an equipped item was put away, in the ledger.
pub const UNEQUIPPED: &str = "Unequipped from the character panel";

/// Why scores rose, in the ledger.
pub const IMPROVED: &str = "Ability score improvement chosen in the character panel";

/// Why a change from the panel that would change nothing (equipping what is equipped) is
/// refused.
pub const NOTHING_CHANGES: &str = "That is already so; nothing changes";

/// The delta that drops every one of the carried item `slug` from `sheet`.
pub fn drop_delta(sheet: &CharacterSheet, slug: &Slug) -> StateDelta {
    let carried = sheet
        .inventory()
        .get(slug)
        .map_or(0, |item| i32::from(item.quantity().value()));
    // Zero asks the rules to drop nothing, which they refuse by name when it is not carried.
    StateDelta::ChangeItemQuantity {
        slug: slug.clone(),
        change: -carried.max(1),
    }
}

/// The delta that equips (`equip`) or puts away the carried item `slug`.
pub fn equip_delta(slug: &Slug, equip: bool) -> StateDelta {
    let slug = slug.clone();
    if equip {
        StateDelta::Equip { slug }
    } else {
        StateDelta::Unequip { slug }
    }
}

impl Game<'_> {
    /// Drops all of the carried item `slug`. Returns the new character panel and the story's
    /// chip; an item the character does not carry (or a fallen character) is refused.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "drop item", campaign = %id))]
    pub async fn drop_item(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        slug: &Slug,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        self.rule(
            owner,
            id,
            now,
            DROPPED,
            |sheet| Ok(drop_delta(sheet, slug)),
            None,
        )
        .await
    }

    /// Uses one of the carried consumable `slug`, its dice rolled with `rng`; in a fight, that
    /// is the player's turn and the foes act. Gear, weapons, armour, an item not carried,
    /// healing at full hit points or a cure for a condition the character does not have are
    /// refused, and nothing changes.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "use item", campaign = %id))]
    pub async fn use_item<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        slug: &Slug,
        now: i64,
        rng: &mut R,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        // Two dice of their own: the item's, and the fight's if one is under way.
        let mut item_dice = StdRng::seed_from_u64(rng.random());
        let mut fight_dice = StdRng::seed_from_u64(rng.random());
        let mut face = |sides: u16| fight_dice.random_range(1..=sides);
        self.rule(
            owner,
            id,
            now,
            USED,
            |sheet| StateDelta::use_item(sheet, slug, &mut item_dice),
            Some(&mut face),
        )
        .await
    }

    /// Equips (`equip`) the carried weapon, armour or shield `slug`, putting away what held its
    /// slot, or puts it away. Anything else, or an item not carried, is refused.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "equip item", campaign = %id))]
    pub async fn equip_item(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        slug: &Slug,
        equip: bool,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let cause = if equip { EQUIPPED } else { UNEQUIPPED };
        self.rule(
            owner,
            id,
            now,
            cause,
            |_| Ok(equip_delta(slug, equip)),
            None,
        )
        .await
    }

    /// Spends an ability score improvement the character's level has earned on `improvement`.
    /// None due, a score past 20, or +1 twice to one score is refused, and nothing changes.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "improve abilities", campaign = %id))]
    pub async fn improve_abilities(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        improvement: AbilityImprovement,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let delta = StateDelta::ImproveAbilities { improvement };
        self.rule(owner, id, now, IMPROVED, |_| Ok(delta), None)
            .await
    }

    /// Applies the delta `rule` makes from the current sheet, under the campaign's lease, as
    /// one `Ruled` event for `cause`; with `turn` (dice for the fight) and a fight under way,
    /// that is the player's turn and the foes act. What the player sees change: the character
    /// panel, the tracker, the actions still on offer and the story's new entries. A delta the rules refuse, or one that
    /// changes nothing, is an error and nothing is stored.
    async fn rule(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        cause: &str,
        rule: impl FnOnce(&CharacterSheet) -> Result<StateDelta, DeltaError>,
        turn: Option<&mut (dyn FnMut(u16) -> u16 + Send)>,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        let field = if cause == IMPROVED {
            "ability score improvement"
        } else {
            "item"
        };
        let invalid = |error: DeltaError| ServiceError::invalid(field, error);
        let deltas = vec![rule(&loaded.state.sheet).map_err(invalid)?];
        let mut sheet = loaded.state.sheet.clone();
        let changes = StateDelta::apply_all(&deltas, &mut sheet).map_err(invalid)?;
        if changes.is_empty() {
            // Equipping what is already equipped: nothing to record.
            return Err(ServiceError::invalid("item", NOTHING_CHANGES));
        }
        let mut events = vec![CampaignEvent::Turn(TurnEvent::Ruled {
            cause: cause.to_owned(),
            deltas,
            changes,
        })];
        if let (Some(face), true) = (turn, loaded.state.combat.is_running()) {
            let mut combat = loaded.state.combat.clone();
            let (record, changes) = FightStep::Pass
                .play_on(&mut combat, &mut sheet, face)
                .map_err(|error| ServiceError::invalid("fight", error))?;
            events.push(CampaignEvent::Turn(TurnEvent::Fought { record, changes }));
        }
        let shown_from = loaded.state.story_len;
        let after = self.append(owner, id, loaded, events, None, now).await?;
        self.panel_updates(owner, id, &after, shown_from).await
    }

    /// What the player sees change after a change from the panel: the character panel, the
    /// tracker, the actions still on offer and the story's entries after the first `shown_from`.
    pub(super) async fn panel_updates(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        after: &Loaded,
        shown_from: u32,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let mut updates = vec![
            TurnUpdate::Sheet {
                sheet: Box::new(sheet_view(&after.state.sheet)),
            },
            TurnUpdate::Encounter {
                encounter: encounter_view(&after.state),
            },
            TurnUpdate::Actions {
                actions: action_views(&after.state),
            },
        ];
        updates.extend(self.new_entries(owner, id, after, shown_from).await?);
        Ok(updates)
    }

    /// The story entries a change added after the first `shown_from`, as updates.
    pub(super) async fn new_entries(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        after: &Loaded,
        shown_from: u32,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let added = after.state.story_len.saturating_sub(shown_from);
        let (start, story) = self
            .store
            .story(owner, id, after.state.story_len, added)
            .await?;
        Ok((start..)
            .zip(story)
            .map(|(index, entry)| TurnUpdate::Entry { index, entry })
            .collect())
    }
}

//! What the player does with the hero's powers from the character panel: cast a known spell,
//! use a class feature, take a short or a long rest, spend hit dice at the end of a short rest.
//! The rules roll every die and apply each as events of the current turn; in a fight, a cast or
//! a feature is the player's turn (the foes act, by the rules, before the panel answers). What
//! the rules refuse is an error that changes nothing.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Game, Loaded, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::TurnEvent;
use crate::game::features::{self, Feature};
use crate::game::fight::FightStep;
use crate::game::spells::SpellLevel;
use crate::game::spine::clock::TickCause;
use crate::game::{CharacterSheet, RestKind, Slug, StateDelta};
use crate::wire::view::TurnUpdate;
use crate::wire::{CampaignId, PlayerId};

/// Why a spell was cast from the panel, in the ledger.
pub const CAST: &str = "Cast from the character panel";
/// Why a feature was used from the panel, in the ledger.
pub const FEATURE: &str = "Class feature used from the character panel";
/// Why the hero rested, in the ledger.
pub const RESTED: &str = "Rest called from the character panel";
/// Why a hit die was spent, in the ledger.
pub const HIT_DIE: &str = "Hit die spent after a short rest";

/// Refused while a fight is under way.
const NO_REST_IN_A_FIGHT: &str = "You cannot rest while a fight is under way";

impl Game<'_> {
    /// Casts the known spell `spell` with a `slot` of that level (the lowest left when none).
    /// In a fight it is the player's turn, at the first foes it reaches; outside one its slot is
    /// spent and its healing rolled.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "cast spell", campaign = %id))]
    pub async fn cast_spell<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        spell: &Slug,
        slot: Option<SpellLevel>,
        now: i64,
        rng: &mut R,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        self.with_powers(owner, id, now, rng.random(), |state, dice| {
            if state.combat.is_running() {
                let step = FightStep::Cast {
                    spell: spell.clone(),
                    targets: Vec::new(),
                    slot,
                };
                return fight_step(state, step, dice);
            }
            let sheet = &state.sheet;
            let (known, slot) = sheet.castable(spell.as_str(), slot).map_err(refused)?;
            let roll = sheet.healing_dice(known, slot).map(|d| d.roll(dice));
            let delta = StateDelta::CastSpell {
                spell: known.slug(),
                slot,
                roll,
            };
            ruled(sheet, "spell", CAST, delta)
        })
        .await
    }

    /// Uses the class feature `feature`: in a fight, as the player's turn on the first foe
    /// standing; outside one, Second Wind heals and Arcane Recovery brings slots back (the
    /// others are for fights).
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "use feature", campaign = %id))]
    pub async fn use_feature<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        feature: Feature,
        now: i64,
        rng: &mut R,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        self.with_powers(owner, id, now, rng.random(), |state, dice| {
            if state.combat.is_running() {
                let step = FightStep::Feature {
                    feature,
                    target: None,
                };
                return fight_step(state, step, dice);
            }
            let roll = match feature {
                Feature::SecondWind => {
                    Some(features::second_wind_dice(state.sheet.level()).roll(dice))
                }
                Feature::ArcaneRecovery => None,
                other => {
                    return Err(ServiceError::invalid(
                        "feature",
                        format!("{} is used in a fight", other.name()),
                    ))
                }
            };
            ruled(
                &state.sheet,
                "feature",
                FEATURE,
                StateDelta::UseFeature { feature, roll },
            )
        })
        .await
    }

    /// A short rest (an hour; then hit dice may be spent) or a long one (at most once a day).
    /// Refused in a fight and while dying.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "rest", campaign = %id))]
    pub async fn rest(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        kind: RestKind,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        // A rest rolls nothing.
        self.with_powers(owner, id, now, 0, |state, _| {
            if state.combat.is_running() {
                return Err(ServiceError::invalid("rest", NO_REST_IN_A_FIGHT));
            }
            let mut events = ruled(&state.sheet, "rest", RESTED, StateDelta::Rest { kind })?;
            events.extend(time_passes(state, kind));
            Ok(events)
        })
        .await
    }

    /// Spends a hit die at the end of a short rest: the server rolls it (plus CON) and heals.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "spend hit die", campaign = %id))]
    pub async fn spend_hit_die<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        rng: &mut R,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        self.with_powers(owner, id, now, rng.random(), |state, dice| {
            if state.combat.is_running() {
                return Err(ServiceError::invalid("rest", NO_REST_IN_A_FIGHT));
            }
            let (die, bonus) = state.sheet.hit_die_roll();
            let roll = die.roll_with_bonus(bonus, dice);
            ruled(
                &state.sheet,
                "rest",
                HIT_DIE,
                StateDelta::SpendHitDie { roll },
            )
        })
        .await
    }

    /// Under the campaign's lease, the events `make` builds from the current state with dice
    /// from `seed` ([`dice_for`]), appended to the current turn; what the player sees change:
    /// the character panel, the tracker, the actions still on offer and the story's new entries.
    async fn with_powers(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        seed: u64,
        make: impl FnOnce(&CampaignState, &mut StdRng) -> Result<Vec<CampaignEvent>, ServiceError>,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let _running = self.lease(owner, id).await?;
        let loaded: Loaded = self.current(owner, id).await?;
        if loaded.state.sheet.powers().is_none() {
            return Err(ServiceError::invalid(
                "powers",
                "this character was made before spells, class features and rests counted",
            ));
        }
        let mut dice = dice_for(seed, &loaded.state);
        let events = make(&loaded.state, &mut dice)?;
        let shown_from = loaded.state.story_len;
        let after = self.append(owner, id, loaded, events, None, now).await?;
        self.panel_updates(owner, id, &after, shown_from).await
    }
}

/// The dice of one action from the panel: the turn's `seed` mixed with how long the story is, so
/// two actions in one turn (two hit dice) roll dice of their own even with seeded dice.
fn dice_for(seed: u64, state: &CampaignState) -> StdRng {
    StdRng::seed_from_u64(seed ^ u64::from(state.story_len))
}

/// A rest is time passing: the clock of the story's most pressing threat ticks.
fn time_passes(state: &CampaignState, kind: RestKind) -> Option<CampaignEvent> {
    let how = match kind {
        RestKind::Short => "a short rest",
        RestKind::Long => "a long rest",
    };
    let cause = TickCause::Time {
        how: how.to_owned(),
    };
    let spine = &state.spine;
    let event = spine.pressing().and_then(|at| spine.tick(at, cause))?;
    Some(CampaignEvent::Turn(TurnEvent::Spine { change: event }))
}

/// A refusal of the rules, as the player reads it.
fn refused(error: impl std::error::Error + Send + Sync + 'static) -> ServiceError {
    ServiceError::invalid("spell", error)
}

/// The `delta` applied to a copy of `sheet` as one `Ruled` event for `cause`; a refusal names
/// `field` (`spell`, `feature`, `rest`), which the player reads before it.
fn ruled(
    sheet: &CharacterSheet,
    field: &'static str,
    cause: &str,
    delta: StateDelta,
) -> Result<Vec<CampaignEvent>, ServiceError> {
    let mut after = sheet.clone();
    let deltas = vec![delta];
    let changes = StateDelta::apply_all(&deltas, &mut after)
        .map_err(|error| ServiceError::invalid(field, error))?;
    Ok(vec![CampaignEvent::Turn(TurnEvent::Ruled {
        cause: cause.to_owned(),
        deltas,
        changes,
    })])
}

/// The fight `step` played from `state` with `dice`, as the player's turn.
fn fight_step(
    state: &CampaignState,
    step: FightStep,
    dice: &mut StdRng,
) -> Result<Vec<CampaignEvent>, ServiceError> {
    let mut combat = state.combat.clone();
    let mut sheet = state.sheet.clone();
    let mut face = |sides: u16| dice.random_range(1..=sides);
    let (record, changes) = step
        .play_on(&mut combat, &mut sheet, &mut face)
        .map_err(refused)?;
    Ok(vec![CampaignEvent::Turn(TurnEvent::Fought {
        record,
        changes,
    })])
}

//! The playtest (`make playtest`): scripted player personas ([`persona`]) each play a seeded
//! campaign through the game service (what the server functions call), against whichever model
//! they are given, and every turn the log keeps is counted ([`tally`]): the rules used where they
//! were due, the story's pace ([`pace`]), the prose's claims the rules did not make, failures that cost nothing, turns without
//! the rules, repaired action lists, voice, tokens and time. The [`report`] is saved as JSON and
//! printed beside earlier reports, one column per model.
//!
//! A crate of its own beside the server, needing only the game (`app`): the server's bench
//! (`server/benches/playtest.rs`) starts the model the usual settings choose and plays it with
//! these personas, and the server's integration tests play them against scripted models.
// Tests may run longer than the 80 lines production functions are held to.
#![cfg_attr(test, allow(clippy::too_many_lines))]
// A panic outside tests is a choice made with `expect` and its reason.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod pace;
pub mod persona;
pub mod report;
pub mod tally;

use std::time::{Duration, Instant};

use app::campaign::event::CampaignEvent;
use app::campaign::turn_event::TurnEvent;
use app::service::{Game, MoveRequest, ServiceError};
use app::wire::view::{NewCampaign, TurnUpdate};
use app::wire::{CampaignId, PlayerId};
use rand::rngs::StdRng;
use rand::SeedableRng;

use persona::Persona;
use tally::{PlayedTurn, Tally};

/// The hero's name in every playtest campaign.
const HERO: &str = "Mira";

/// Plays `persona`'s campaign of `turns` turns after the opening scene, its player and dice
/// seeded with `seed`, and counts what each turn showed.
pub async fn play(game: &Game<'_>, persona: Persona, turns: usize, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new(persona.premise(), HERO, persona.class());
    let mut tally = Tally::default();
    let id = match game.create(&owner, &form, 1, &mut rng, &mut |_| {}).await {
        Ok(created) => created.id,
        Err(error) => {
            tracing::warn!(%error, persona = persona.name(), "the opening scene failed");
            tally.failed_turns += 1;
            return tally;
        }
    };
    for turn in 0..turns {
        let played = turn_once(game, &owner, &id, persona, turn, &mut rng, &mut tally).await;
        match played {
            Ok(()) => {}
            Err(ServiceError::Ended) => break,
            Err(error) => {
                tracing::warn!(%error, persona = persona.name(), "a playtest turn failed");
                tally.failed_turns += 1;
            }
        }
    }
    tally.pace.finish();
    tally
}

/// Plays the persona's `turn`-th move and the next actions, and counts the turn.
async fn turn_once(
    game: &Game<'_>,
    owner: &PlayerId,
    id: &CampaignId,
    persona: Persona,
    turn: usize,
    rng: &mut StdRng,
    tally: &mut Tally,
) -> Result<(), ServiceError> {
    let loaded = game.current(owner, id).await?;
    let planned = persona.next_move(&loaded.state, turn);
    let now = i64::try_from(turn).unwrap_or(i64::MAX).saturating_add(2);
    let started = Instant::now();
    let mut first_text: Option<Duration> = None;
    let mut sink = |update: TurnUpdate| {
        if first_text.is_none() && matches!(update, TurnUpdate::Narrative { .. }) {
            first_text = Some(started.elapsed());
        }
    };
    let request = MoveRequest {
        expected_turn: loaded.record.turn,
        input: &planned.input,
    };
    let (played, _) = game.play(owner, id, request, now, rng, &mut sink).await?;
    game.ensure_actions(owner, id, now).await?;
    let took = started.elapsed();
    let (_, log) = game.store.log(owner, id).await?;
    let events: Vec<TurnEvent> = log
        .into_iter()
        .filter(|stored| stored.turn == played)
        .filter_map(|stored| match stored.event {
            CampaignEvent::Turn(event) => Some(event),
            _ => None,
        })
        .collect();
    tally.add_turn(&PlayedTurn {
        events: &events,
        before: &loaded.state.sheet,
        due: planned.due,
        first_text,
        took,
    });
    Ok(())
}

//! Phase 1: the player's move narrated. [`narrate`] resolves the player's roll, streams the
//! scene, runs the model's tool calls through the rules and returns everything that happened;
//! after the scene, the rules notice the journal's names (for a model shown no tools) and the
//! complication of a failed roll.

use rand::Rng;

use super::complication;
use super::log::EventLog;
use super::moves::PlayerMove;
use super::played_move::move_of;
use super::rounds::{Rounds, Table};
use super::spine_turn;
use super::turn_dice::{Draws, TurnDice};
use super::TurnError;
use crate::campaign::conversation::{RecalledPassage, SentRequest};
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::TurnEvent;
use crate::game::complication::Complication;
use crate::game::{Action, CharacterSheet};
use crate::gm::llm::{LlmPort, Message};
use crate::gm::prompt::layers;
use crate::gm::prose::noticed::{noticed, Scene};
use crate::gm::settings::GmSettings;

/// A completed narration phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    /// What happened, in order (transient stream events left out).
    pub events: Vec<TurnEvent>,
    /// The messages this turn adds to the model's history (each piece of prose once).
    pub messages: Vec<Message>,
    /// The character sheet after the turn's tool calls.
    pub sheet: CharacterSheet,
    /// The scene's narrative.
    pub text: String,
    /// The last request sent.
    pub sent: SentRequest,
}

/// What the narrator knows besides the state: the campaign's last request (to measure how much
/// of its front the new ones share) and the older passages the rules recalled for this move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory<'a> {
    /// The last request sent for the campaign.
    pub previous: Option<&'a SentRequest>,
    /// The passages recalled from earlier in the story.
    pub recalled: &'a [RecalledPassage],
    /// The other seats' moves of the round, at a table of friends (none alone).
    pub table: &'a [super::SeatMove],
}

/// Phase 1: narrates the outcome of `player_move` from `state` with what the narrator
/// remembers (`memory`). `on_event` sees every event as it happens, streamed text included.
pub async fn narrate<R: Rng + Send>(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    memory: Memory<'_>,
    player_move: &PlayerMove,
    rng: &mut R,
    on_event: &mut (dyn FnMut(&TurnEvent) + Send),
) -> Result<Narration, TurnError> {
    let mut log = EventLog::new(on_event, &state.agreement);
    let mut table = Table::for_turn(state);
    let mut dice = TurnDice::new(rng, kept_draws(player_move));
    let mut turn = vec![move_of(
        player_move,
        memory.table,
        state,
        settings,
        &mut table.tools,
        &mut dice,
        &mut log,
    )];
    if !memory.recalled.is_empty() {
        log.push(TurnEvent::Recalled {
            passages: memory.recalled.to_vec(),
        });
    }
    let tools = settings.tools_for(state, &table.tools.combat);
    let layered = layers::layered(
        state,
        settings,
        &tools,
        &turn,
        layers::Reserve::ToolRounds,
        memory.recalled,
    );
    let mut rounds = Rounds::new(&layered, tools, memory.previous.cloned());
    for round in 0..=settings.max_tool_rounds {
        let callable = round < settings.max_tool_rounds;
        let reply = rounds
            .call(llm, settings, &turn, callable, &mut log)
            .await?;
        if reply.tool_calls.is_empty() || !callable {
            break;
        }
        rounds.tool_round(reply, settings, &mut table, &mut dice, &mut turn, &mut log);
    }
    let text = rounds.scene(settings, state, &mut log)?;
    let (text, checked) = rounds
        .checked(llm, settings, &turn, text, state, &mut log)
        .await;
    let text = rounds
        .within_lines(llm, settings, &turn, text, state, &mut log)
        .await;
    if !rounds.last.is_empty() {
        turn.push(Message::assistant(rounds.last));
    }
    log.push(TurnEvent::narration(text.clone()));
    log.push(checked);
    let told = Told {
        state,
        player_move,
        text: &text,
    };
    after_the_scene(told, settings, &mut table, &mut turn, &mut dice, &mut log);
    log.push(TurnEvent::DiceDrawn {
        draws: dice.into_draws(),
    });
    Ok(Narration {
        events: log.events,
        messages: turn,
        sheet: table.tools.sheet,
        text,
        sent: rounds
            .previous
            .expect("a narration makes at least one call"),
    })
}

/// The draws a move told again gives back (none for a new move).
fn kept_draws(player_move: &PlayerMove) -> &Draws {
    static NONE: Draws = Draws::new();
    match player_move {
        PlayerMove::Retold(_, retelling) => &retelling.draws,
        _ => &NONE,
    }
}

/// A scene as told, for what the rules do after it.
struct Told<'a> {
    state: &'a CampaignState,
    player_move: &'a PlayerMove,
    text: &'a str,
}

/// What the rules do once the scene is told: for a model shown no tools, the journal's names
/// noticed; after a failed roll that cost nothing, its complication.
fn after_the_scene(
    told: Told<'_>,
    settings: &GmSettings,
    table: &mut Table,
    turn: &mut Vec<Message>,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) {
    if !settings.full_prompt {
        let scene = Scene {
            turn: told.state.turn.saturating_add(1),
            text: told.text,
            player_move: told.player_move.words(),
            sheet: &table.tools.sheet,
        };
        for change in noticed(told.state, scene) {
            log.push(TurnEvent::Noticed { change });
        }
    }
    spine_turn::after_the_scene(
        told.text,
        &told.state.premise,
        settings.full_prompt,
        &mut table.tools,
        log,
    );
    if let Some((action, recorded)) = chosen_action(told.player_move) {
        let sheet = &mut table.tools.sheet;
        let events = &log.events;
        if let Some((event, note)) = complication::after_failure(
            action,
            recorded,
            events,
            sheet,
            &mut dice.for_roll("complication"),
        ) {
            log.push(event);
            turn.push(note);
        }
    }
}

/// The action the player chose, and the complication a retelling of it had.
fn chosen_action(player_move: &PlayerMove) -> Option<(&Action, Option<&Complication>)> {
    match player_move {
        PlayerMove::Action(action) => Some((action, None)),
        PlayerMove::Retold(inner, retelling) => match inner.as_ref() {
            PlayerMove::Action(action) => Some((action, retelling.complication.as_ref())),
            _ => None,
        },
        _ => None,
    }
}

//! The two-phase turn: first narrate the scene (calling the rules' tools), then propose actions.
//!
//! [`narrate`] resolves the player's roll, streams the scene, runs the model's tool calls through
//! the rules and returns everything that happened; [`offer_actions`] asks for the next actions
//! as strict JSON, repairs once, and falls back to safe actions. Neither touches storage: the
//! caller commits each phase's events when the phase has completed.

use futures::StreamExt;
use rand::Rng;

use super::candidates::{candidate_moves, fallback_actions, with_rules_checks};
use super::complication;
use super::fight_turn::{fight_from_the_scene, fight_turn, picks_a_fight, with_fight_moves};
use super::spell_turn::{spell_turn, typed_fight_cast};
use super::turn_dice::{Draws, TurnDice};
use crate::campaign::bounds;
use crate::campaign::conversation::{RecalledPassage, SentRequest};
use crate::campaign::state::CampaignState;
use crate::campaign::turn_event::{Phase, ToolEffect, TurnEvent};
use crate::game::agreement::TableAgreement;
use crate::game::carried::{lacking, Lacking};
use crate::game::complication::Complication;
use crate::game::powers::PowerError;
use crate::game::spell_words::checked_cast;
use crate::game::stakes::{roll_death_save, DEATH_SAVE};
use crate::game::{Action, ActionList, ActionListError, CharacterSheet, Resolution, StateDelta};
use crate::gm::llm::{
    FinishReason, LlmChunk, LlmError, LlmPort, Message, Purpose, TokenUsage, ToolCall, ToolChoice,
};
use crate::gm::prompt::layers;
use crate::gm::prompt::messages::{
    actions_format, actions_message, correction_message, move_message, repair_message,
};
use crate::gm::prose::ledger_check::LedgerCheck;
use crate::gm::prose::lines::{self, LineGuard};
use crate::gm::prose::noticed::{noticed, Scene};
use crate::gm::prose::scene;
use crate::gm::prose::voice;
use crate::gm::settings::GmSettings;
use crate::gm::tools::{self, ToolCommand, ToolRejection, ToolTable};

/// The most characters a typed move may have.
pub const MAX_MOVE_CHARS: usize = 2000;

/// What the player typed, trimmed: 1 to [`MAX_MOVE_CHARS`] characters, no control characters
/// other than line breaks and tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText(String);

/// Why typed text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing but whitespace.
    #[error("write what you do first")]
    Empty,
    /// Longer than [`MAX_MOVE_CHARS`].
    #[error("that is {0} characters; a move may have at most {MAX_MOVE_CHARS}")]
    TooLong(usize),
    /// A control character.
    #[error("the text contains a control character")]
    ControlCharacter,
}

impl MoveText {
    /// Parses what the player typed.
    pub fn parse(raw: &str) -> Result<Self, MoveTextError> {
        let text = raw.trim();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(MoveTextError::Empty);
        }
        if chars > MAX_MOVE_CHARS {
            return Err(MoveTextError::TooLong(chars));
        }
        if text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            return Err(MoveTextError::ControlCharacter);
        }
        Ok(Self(text.to_owned()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The player's move: an offered action (as the server stored it) or their own words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerMove {
    /// They clicked an action button.
    Action(Action),
    /// They typed what they do.
    Text(MoveText),
    /// The campaign begins from this premise (the opening scene; not shown as a move).
    Opening(MoveText),
    /// A move told again with the dice it had: its player roll is not rolled again and every
    /// other roll gets back the draws of its kind.
    Retold(Box<PlayerMove>, Retelling),
}

impl PlayerMove {
    /// The player's words, if the move is one they made (not the opening).
    pub fn words(&self) -> Option<&str> {
        match self {
            Self::Action(action) => Some(action.description().as_str()),
            Self::Text(text) => Some(text.as_str()),
            Self::Opening(_) => None,
            Self::Retold(inner, _) => inner.words(),
        }
    }
}

/// The dice of a turn being told again, read from the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retelling {
    /// The player's roll (with its verdict), if the move had one.
    pub player_roll: Option<(String, Resolution)>,
    /// The dice the turn was told with, by kind of roll (none in logs written before they were
    /// kept): each kind of roll of the new telling gets them back first (see [`TurnDice`]).
    pub draws: Draws,
    /// The faces of the player's step in a fight, in the order rolled (the step, played again
    /// from the same state, shows the same dice).
    pub fight_faces: Vec<u16>,
    /// The complication a failed roll cost, if it cost one.
    pub complication: Option<Complication>,
}

/// What the narrator is asked for the opening scene; for a very small model (no `full`
/// prompt), in the words it should answer in.
fn opening_move(premise: &str, full: bool) -> String {
    if full {
        format!(
            "Begin the adventure with this premise: {premise}\nSet the opening scene and give \
             the character's location with update_character if it matters."
        )
    } else {
        format!("{premise}\nDescribe where you are and what you see, hear and feel.")
    }
}

/// Why a phase failed. A failed phase changes nothing and can be tried again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The model could not be reached or failed.
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The model wrote no story at all.
    #[error("the game master wrote nothing; try again")]
    EmptyNarrative,
    /// The model wrote an empty summary.
    #[error("the game master wrote an empty summary")]
    EmptySummary,
    /// The model answered a question with nothing.
    #[error("the game master gave no answer; ask again")]
    EmptyAnswer,
}

impl TurnError {
    /// Whether trying the phase again may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Llm(error) => error.is_retryable(),
            Self::EmptyNarrative | Self::EmptySummary | Self::EmptyAnswer => true,
        }
    }
}

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
    let mut log = EventLog {
        events: Vec::new(),
        on_event,
        guard: LineGuard::new(&state.agreement),
    };
    let mut table = Table::for_turn(state);
    let mut dice = TurnDice::new(rng, kept_draws(player_move));
    let mut turn = vec![move_of(
        player_move,
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
    let tools = settings.tools_for(&state.sheet);
    let layered = layers::layered(
        state,
        settings,
        &tools,
        &turn,
        layers::Reserve::ToolRounds,
        memory.recalled,
    );
    let mut rounds = Rounds {
        layered: &layered,
        tools,
        previous: memory.previous.cloned(),
        kept: Vec::new(),
        last: String::new(),
    };
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

/// The player's move as the model reads it (its words, with the player's roll and the fight's
/// exchange when there are), each recorded in the log as it is made.
fn move_of(
    player_move: &PlayerMove,
    state: &CampaignState,
    settings: &GmSettings,
    table: &mut ToolTable,
    dice: &mut TurnDice<'_>,
    log: &mut EventLog<'_>,
) -> Message {
    let (move_text, roll_line) = record_move(
        player_move,
        &mut table.sheet,
        settings.full_prompt,
        &mut dice.for_roll("player"),
        log,
    );
    let rng = &mut dice.for_roll("fight turn");
    let fight_line = fight_part(player_move, state, settings, &move_text, table, rng, log);
    let spell_line = match (&fight_line, player_move.words()) {
        (None, Some(words)) => {
            spell_turn(words, table, &mut dice.for_roll("spell")).map(|(event, line)| {
                log.push(event);
                line
            })
        }
        _ => None,
    };
    let fight_line = fight_line.or(spell_line);
    let roll_line = match (roll_line, fight_line) {
        (Some(roll), Some(fight)) => Some(format!("{roll}\n{fight}")),
        (roll, fight) => roll.or(fight),
    };
    if state.refused.is_empty() {
        return move_message(&move_text, roll_line.as_deref());
    }
    let told = format!(
        "{move_text}\n\n[Game] The player refused these changes you proposed: {}. They did not \
         happen; do not rely on them.",
        state.refused.join("; ")
    );
    move_message(&told, roll_line.as_deref())
}

/// What the tools act on.
struct Table {
    tools: ToolTable,
}

impl Table {
    /// The table `state` sets for a turn.
    fn for_turn(state: &CampaignState) -> Self {
        Self {
            tools: ToolTable {
                sheet: state.sheet.clone(),
                journal: state.journal.clone(),
                map: state.map.clone(),
                combat: state.combat.clone(),
                approval: state.approval,
                proposals_made: state.proposals_made,
                unspent_rolls: Vec::new(),
            },
        }
    }
}

/// A narration's model calls: the layered prompt they share, the prose kept so far and the last
/// request sent.
struct Rounds<'l> {
    layered: &'l layers::Layered,
    tools: Vec<crate::gm::llm::ToolDefinition>,
    previous: Option<SentRequest>,
    /// Prose kept, in order.
    kept: Vec<String>,
    /// The prose of the last reply without tool calls (the rest is in the turn's messages).
    last: String,
}

impl Rounds<'_> {
    /// One model call with this turn's messages so far.
    async fn call(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        callable: bool,
        log: &mut EventLog<'_>,
    ) -> Result<Reply, TurnError> {
        let mut request = self.layered.request(turn, self.tools.clone());
        if !callable {
            request.tool_choice = ToolChoice::None;
        }
        request.temperature = Some(0.8);
        request.max_tokens = Some(settings.narrative_max_tokens);
        let mut sent = layers::record(
            Purpose::Narration.label(),
            &request,
            self.layered,
            self.previous.as_ref(),
        );
        let reply = stream_reply(llm, request, log).await?;
        sent.reported_tokens = reported(reply.usage);
        self.previous = Some(sent);
        log.push(TurnEvent::Usage {
            phase: Phase::Narrate,
            usage: reply.usage,
        });
        if reply.tool_calls.is_empty() || !callable {
            let text = reply.prose();
            if !text.is_empty() {
                self.kept.push(text.clone());
                self.last = text;
            }
        }
        Ok(reply)
    }

    /// The scene the rounds wrote, within its bound (a very small model's put in the player's
    /// voice, which it then sees too); an error when there is none.
    fn scene(
        &mut self,
        settings: &GmSettings,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> Result<String, TurnError> {
        let mut text = self.kept.join("\n\n");
        bounds::cut(&mut text, bounds::MAX_NARRATION_CHARS);
        if !settings.full_prompt {
            if let Some(kept) = voice::in_second_person(&text, scene::last_scene(state)) {
                text = kept;
                self.last = text.clone();
                log.push(TurnEvent::NarrativeReplaced { text: text.clone() });
            }
        }
        if text.is_empty() {
            return Err(TurnError::EmptyNarrative);
        }
        Ok(text)
    }

    /// `text` checked against the turn's events so far; a model with tools that contradicts them
    /// is asked once to correct it. The scene to keep, and the check's record.
    async fn checked(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        mut text: String,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> (String, TurnEvent) {
        let mut check = LedgerCheck::new(&text, &log.events, &state.sheet);
        let mut asked = Vec::new();
        if !check.is_consistent() && settings.full_prompt {
            asked = bounded_notes(check.notes());
            let ask = correction_message(&asked);
            if let Some(fixed) = self.retold(llm, settings, turn, &text, ask, log).await {
                text = fixed;
                check = LedgerCheck::new(&text, &log.events, &state.sheet);
            }
        }
        let checked = TurnEvent::LedgerChecked {
            notes: bounded_notes(check.notes()),
            claims: u32::try_from(check.claims().len()).unwrap_or(u32::MAX),
            asked,
        };
        (text, checked)
    }

    /// `text` within the table's lines: a scene that crosses one is told again once, and what
    /// still crosses is cut (the model's history keeps what the player reads).
    async fn within_lines(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        text: String,
        state: &CampaignState,
        log: &mut EventLog<'_>,
    ) -> String {
        let crossed = state.agreement.crossed(&text);
        if crossed.is_empty() {
            return text;
        }
        let ask = lines::retell_message(&crossed);
        let retold = self
            .retold(llm, settings, turn, &text, ask, log)
            .await
            .unwrap_or(text);
        let kept = lines::within_lines(&state.agreement, &retold)
            .unwrap_or_else(|| lines::LEFT_OUT.to_owned());
        if kept != retold {
            log.push(TurnEvent::NarrativeReplaced { text: kept.clone() });
        }
        self.last.clone_from(&kept);
        kept
    }

    /// Asks the model once, without tools, to write `text` again as `ask` says: the new scene,
    /// or `None` (the first kept) when the call fails or says nothing.
    async fn retold(
        &mut self,
        llm: &dyn LlmPort,
        settings: &GmSettings,
        turn: &[Message],
        text: &str,
        ask: Message,
        log: &mut EventLog<'_>,
    ) -> Option<String> {
        let mut asked = turn.to_vec();
        asked.push(Message::assistant(text.to_owned()));
        asked.push(ask);
        let (kept, last) = (
            std::mem::take(&mut self.kept),
            std::mem::take(&mut self.last),
        );
        let answered = self.call(llm, settings, &asked, false, log).await.is_ok();
        let mut fixed = self.kept.join("\n\n");
        bounds::cut(&mut fixed, bounds::MAX_NARRATION_CHARS);
        if answered && !fixed.trim().is_empty() {
            log.push(TurnEvent::NarrativeReplaced {
                text: fixed.clone(),
            });
            return Some(fixed);
        }
        (self.kept, self.last) = (kept, last);
        log.push(TurnEvent::NarrativeReplaced {
            text: text.to_owned(),
        });
        None
    }

    /// A reply's tool calls run through the rules; prose that would pre-empt their outcome is
    /// dropped.
    fn tool_round(
        &mut self,
        reply: Reply,
        settings: &GmSettings,
        table: &mut Table,
        dice: &mut TurnDice<'_>,
        turn: &mut Vec<Message>,
        log: &mut EventLog<'_>,
    ) {
        let text = reply.prose();
        let commands: Vec<_> = reply.tool_calls.iter().map(tools::parse_call).collect();
        let preempts = commands
            .iter()
            .any(|command| command.as_ref().is_ok_and(ToolCommand::decides_an_outcome));
        let content = (!preempts && !text.is_empty()).then(|| text.clone());
        if preempts && !text.is_empty() {
            log.push(TurnEvent::NarrativeReplaced {
                text: self.kept.join("\n\n"),
            });
        }
        if let Some(text) = &content {
            self.kept.push(text.clone());
        }
        turn.push(Message::Assistant {
            content,
            tool_calls: reply.tool_calls.clone(),
        });
        let calls = reply.tool_calls.into_iter().zip(commands);
        let max_calls = settings.max_calls_per_round;
        run_calls(calls, max_calls, table, dice, turn, log);
    }
}

/// The provider's count of prompt tokens, if it gave one.
/// The ledger check's notes within the log's bounds.
fn bounded_notes(mut notes: Vec<String>) -> Vec<String> {
    let (most, longest) = bounds::MAX_LEDGER_NOTES;
    notes.truncate(most);
    notes.iter_mut().for_each(|note| {
        bounds::cut(note, longest);
    });
    notes
}

fn reported(usage: TokenUsage) -> Option<u32> {
    (usage.prompt_tokens > 0).then_some(usage.prompt_tokens)
}

/// The fight's part of the player's move: their turn in the fight under way, played by the
/// rules, or — for a model without tools — a fight the rules start from a failed roll or a
/// move that picks one. The
/// exchange's lines for the narrator, if there was one.
fn fight_part<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    state: &CampaignState,
    settings: &GmSettings,
    move_text: &str,
    table: &mut ToolTable,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> Option<String> {
    let (inner, faces) = match player_move {
        PlayerMove::Retold(inner, retelling) => (inner.as_ref(), retelling.fight_faces.as_slice()),
        other => (other, &[][..]),
    };
    let typed = match inner {
        PlayerMove::Text(text) => typed_fight_cast(text.as_str(), table),
        _ => None,
    };
    let chosen = match inner {
        PlayerMove::Opening(_) => return None,
        PlayerMove::Action(action) => action.fight(),
        _ => typed.as_ref(),
    };
    let failed = log.events.iter().any(|event| {
        matches!(event, TurnEvent::PlayerRoll { resolution: Resolution::Check(check), .. }
            if !check.is_success())
    });
    let texts = [move_text, scene::last_scene(state).unwrap_or_default()];
    let played = fight_turn(chosen, faces, table, rng).or_else(|| {
        let no_tools = !settings.full_prompt;
        let trigger = failed || picks_a_fight(move_text);
        fight_from_the_scene(no_tools && trigger, texts, table, rng)
    })?;
    for event in played.events {
        log.push(event);
    }
    Some(played.line)
}

/// Logs the player's move (not an opening) and resolves the roll of a chosen action (or takes
/// back the roll a retold move had): the move as the narrator reads it, and the roll's line if
/// there was one (`full`: an opening in the full prompt's words, see [`opening_move`]).
fn record_move<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    sheet: &mut CharacterSheet,
    full: bool,
    rng: &mut R,
    log: &mut EventLog<'_>,
) -> (String, Option<String>) {
    let (inner, retelling) = match player_move {
        PlayerMove::Retold(inner, retelling) => (inner.as_ref(), Some(retelling)),
        other => (other, None),
    };
    let (move_text, action_id) = match inner {
        PlayerMove::Action(action) => (
            action.description().as_str().to_owned(),
            Some(action.id().to_string()),
        ),
        PlayerMove::Text(text) => (text.as_str().to_owned(), None),
        PlayerMove::Opening(premise) => (opening_move(premise.as_str(), full), None),
        PlayerMove::Retold(..) => (String::new(), None),
    };
    let opening = matches!(inner, PlayerMove::Opening(_));
    if !opening {
        log.push(TurnEvent::Move {
            text: move_text.clone(),
            action_id,
        });
    }
    let rolled = match (inner, retelling) {
        (_, Some(retelling)) => retelling.player_roll.clone(),
        _ if opening => None,
        _ => player_roll(inner, sheet, rng),
    };
    let roll_line = rolled.map(|(reason, resolution)| {
        let mut description = resolution.describe(&reason);
        let save = death_save_die(sheet, &resolution);
        log.push(TurnEvent::PlayerRoll {
            reason,
            resolution,
            description: description.clone(),
        });
        if let Some(die) = save {
            description.push_str(&death_save(sheet, die, log));
        }
        description
    });
    (move_text, roll_line)
}

/// The roll a move makes on its own (not retold): a death save while the character is dying,
/// else the chosen action's roll if it has one.
pub fn player_roll<R: Rng + ?Sized>(
    player_move: &PlayerMove,
    sheet: &CharacterSheet,
    rng: &mut R,
) -> Option<(String, Resolution)> {
    if sheet.vitality().is_dying() {
        let check = roll_death_save(rng);
        return Some((DEATH_SAVE.to_owned(), Resolution::Check(check)));
    }
    match player_move {
        PlayerMove::Action(action) => action
            .resolve(sheet, sheet.conditions().roll_effects().checks, rng)
            .map(|resolution| (action.roll_reason().to_owned(), resolution)),
        _ => None,
    }
}

/// The d20 of a dying character's roll (which is their death save).
fn death_save_die(sheet: &CharacterSheet, resolution: &Resolution) -> Option<u8> {
    let Resolution::Check(check) = resolution else {
        return None;
    };
    let die = check.roll().natural_d20()?;
    sheet
        .vitality()
        .is_dying()
        .then(|| u8::try_from(die).ok())
        .flatten()
}

/// Applies a death save to the sheet and logs it; what it did, for the narrator.
fn death_save(sheet: &mut CharacterSheet, die: u8, log: &mut EventLog<'_>) -> String {
    let deltas = vec![StateDelta::DeathSave { die }];
    match StateDelta::apply_all(&deltas, sheet) {
        Ok(changes) => {
            let labels = changes.labels().join(", ");
            log.push(TurnEvent::Ruled {
                cause: DEATH_SAVE.to_owned(),
                deltas,
                changes,
            });
            format!(". {}: {labels}", sheet.name())
        }
        Err(_) => String::new(),
    }
}

/// A completed actions phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offered {
    /// The events to store (usage, the actions offered).
    pub events: Vec<TurnEvent>,
    /// The last request sent.
    pub sent: SentRequest,
}

/// Phase 2: the player's next actions for the scene that ends `state`'s verbatim turns. Falls
/// back to safe actions when the model's answer is unusable twice; fails only when the model
/// cannot be reached on the first call.
pub async fn offer_actions(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    previous: Option<&SentRequest>,
) -> Result<Offered, TurnError> {
    let mut events = Vec::new();
    let tools = settings.tools_for(&state.sheet);
    let ask = [actions_message()];
    // A model small enough to need a bounded schema picks among the rules' moves.
    let candidates = if settings.bounded_schema {
        candidate_moves(state)
    } else {
        Vec::new()
    };
    let described: Vec<String> = candidates.iter().map(|c| c.description.clone()).collect();
    let format = actions_format(settings.bounded_schema, &described);
    let schema = layers::Reserve::Schema(crate::gm::prompt::token_count::tokens(
        &format.schema.to_string(),
    ));
    let layered = layers::layered(state, settings, &tools, &ask, schema, &[]);
    let mut request = layered.request(&ask, tools);
    request.purpose = Purpose::Actions;
    request.tool_choice = ToolChoice::None;
    request.response_format = Some(format);
    request.temperature = Some(0.7);
    request.max_tokens = Some(settings.actions_max_tokens);
    let mut sent = layers::record(Purpose::Actions.label(), &request, &layered, previous);
    let echoes = scene::echoes(state);
    let first = llm.complete(request.clone()).await?;
    sent.reported_tokens = first.usage.and_then(reported);
    events.extend(usage_event(first.usage));
    let first_usable = usable(&first.text, &echoes, &state.agreement)
        .and_then(|actions| carried(actions, &state.sheet));
    let error = match first_usable {
        Ok(actions) => {
            events.push(offered(
                with_rules_checks(&actions, &candidates),
                Answer::First,
                state,
            ));
            return Ok(Offered { events, sent });
        }
        Err(error) => error,
    };
    tracing::warn!(%error, "the action list was invalid; asking for a repair");
    request.messages.push(Message::assistant(first.text));
    request.messages.push(repair_message(&error.to_string()));
    let repaired = match llm.complete(request).await {
        Ok(reply) => {
            events.extend(usage_event(reply.usage));
            usable(&reply.text, &echoes, &state.agreement)
                .map_err(|error| error.to_string())
                .and_then(|actions| carried_only(actions, &state.sheet))
        }
        Err(error) => Err(error.to_string()),
    };
    match repaired {
        Ok(actions) => events.push(offered(
            with_rules_checks(&actions, &candidates),
            Answer::Repaired,
            state,
        )),
        Err(error) => {
            tracing::warn!(%error, "the repaired action list failed too; offering fallback actions");
            events.push(offered(fallback_actions(state), Answer::Fallback, state));
        }
    }
    Ok(Offered { events, sent })
}

/// A new summary written by the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summarized {
    /// The last turn it covers.
    pub through_turn: u32,
    /// The summary.
    pub text: String,
    /// The tokens it cost.
    pub usage: TokenUsage,
    /// The request sent.
    pub sent: SentRequest,
}

/// The summary phase (between turns): when `state`'s verbatim turns no longer fit a
/// narration's window, asks the model to fold the oldest into "the story so far". `Ok(None)`
/// when nothing needs folding.
pub async fn summarize(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    previous: Option<&SentRequest>,
) -> Result<Option<Summarized>, TurnError> {
    let tools = settings.tools_for(&state.sheet);
    let Some(plan) = layers::summary_plan(state, settings, &tools) else {
        return Ok(None);
    };
    let (layered, mut request) = layers::summary_request(state, settings, &plan, tools);
    request.purpose = Purpose::Summary;
    let mut sent = layers::record(Purpose::Summary.label(), &request, &layered, previous);
    let reply = llm.complete(request).await?;
    let usage = reply.usage.unwrap_or_default();
    sent.reported_tokens = reported(usage);
    let text = layers::clean_summary(&reply.text).ok_or(TurnError::EmptySummary)?;
    Ok(Some(Summarized {
        through_turn: plan.through_turn,
        text,
        usage,
        sent,
    }))
}

/// The model's action list, if it parses, keeps the rules and every action is a move in the
/// scene (no placeholder, no echo of `echoes`).
fn usable(
    text: &str,
    echoes: &[String],
    agreement: &TableAgreement,
) -> Result<ActionList, Unusable> {
    let valid = ActionList::parse_json(text)?;
    valid.actions.check_concrete(echoes)?;
    if let Some(line) = valid.actions.actions().iter().find_map(|action| {
        agreement
            .crossed(action.description().as_str())
            .first()
            .copied()
    }) {
        return Err(Unusable::CrossesALine(line.as_str().to_owned()));
    }
    Ok(valid.actions)
}

/// `actions` if the hero has everything each one uses; else why not, for the repair request.
fn carried(actions: ActionList, sheet: &CharacterSheet) -> Result<ActionList, Unusable> {
    for action in actions.actions() {
        let words = action.description().as_str();
        if let Err(lacking) = lacking(words, sheet.inventory()) {
            return Err(Unusable::Lacks(words.to_owned(), lacking));
        }
        if let Some(Err(refused)) = checked_cast(words, sheet) {
            return Err(Unusable::CannotCast(words.to_owned(), refused));
        }
    }
    Ok(actions)
}

/// The actions of a repaired list that use only what the hero has (the others dropped); an
/// error when none is left.
fn carried_only(actions: ActionList, sheet: &CharacterSheet) -> Result<ActionList, String> {
    let kept: Vec<Action> = actions
        .actions()
        .iter()
        .filter(|action| {
            let words = action.description().as_str();
            lacking(words, sheet.inventory()).is_ok()
                && !matches!(checked_cast(words, sheet), Some(Err(_)))
        })
        .cloned()
        .collect();
    ActionList::try_from(kept)
        .map_err(|_| "every action uses something the hero does not have".to_owned())
}

/// Why an action list cannot be offered.
#[derive(Debug, thiserror::Error)]
enum Unusable {
    /// It breaks the rules of an action list.
    #[error(transparent)]
    List(#[from] ActionListError),
    /// An action crosses a line the table drew.
    #[error("an action crosses a line this table drew ({0}); offer none that touches it")]
    CrossesALine(String),
    /// An action uses something the hero does not carry.
    #[error("\"{0}\": {1}; offer only what the character can do with what the sheet lists")]
    Lacks(String, Lacking),
    /// An action casts a spell the hero cannot cast now.
    #[error("\"{0}\": {1}; offer only spells the sheet lists, with slots left")]
    CannotCast(String, PowerError),
}

/// Which of the model's answers an action list came from.
enum Answer {
    /// Its first.
    First,
    /// Its second, asked for with the reason the first was unusable.
    Repaired,
    /// Neither was usable: the rules' safe actions.
    Fallback,
}

fn offered(actions: ActionList, answer: Answer, state: &CampaignState) -> TurnEvent {
    TurnEvent::ActionsOffered {
        actions: with_fight_moves(actions, &state.sheet, &state.combat),
        fallback: matches!(answer, Answer::Fallback),
        repaired: matches!(answer, Answer::Repaired),
    }
}

fn usage_event(usage: Option<TokenUsage>) -> Option<TurnEvent> {
    usage.map(|usage| TurnEvent::Usage {
        phase: Phase::Actions,
        usage,
    })
}

/// Runs one reply's parsed calls in order, refusing those past `max_calls`; each call and its
/// result go to the log and to the turn's messages.
fn run_calls(
    calls: impl IntoIterator<Item = (ToolCall, Result<ToolCommand, ToolRejection>)>,
    max_calls: usize,
    table: &mut Table,
    dice: &mut TurnDice<'_>,
    turn: &mut Vec<Message>,
    log: &mut EventLog<'_>,
) {
    for (index, (call, command)) in calls.into_iter().enumerate() {
        log.push(TurnEvent::ToolCalled { call: call.clone() });
        if let (Ok(ToolCommand::Table(table)), true) = (&command, index < max_calls) {
            log.push(TurnEvent::TableShown {
                table: table.clone(),
            });
        }
        let (result, effect) = if index >= max_calls {
            (
                format!("refused: at most {max_calls} tool calls per reply"),
                None,
            )
        } else {
            run_tool(command, table, dice)
        };
        turn.push(Message::tool(call.id.clone(), result.clone()));
        log.push(TurnEvent::ToolResult {
            call_id: call.id,
            tool: call.name,
            result,
            effect,
        });
    }
}

/// Runs a parsed call with the turn's dice for its kind: its result text for the model, and
/// its effect if it ran.
fn run_tool(
    command: Result<ToolCommand, ToolRejection>,
    table: &mut Table,
    dice: &mut TurnDice<'_>,
) -> (String, Option<ToolEffect>) {
    let outcome = command
        .map_err(|rejection| rejection.reason)
        .and_then(|command| {
            let rng = &mut dice.for_roll(&command.dice_kind());
            tools::execute(command, &mut table.tools, rng).map_err(|error| error.to_string())
        });
    match outcome {
        Ok(outcome) => (outcome.result, Some(outcome.effect)),
        Err(reason) => (format!("refused: {reason}"), None),
    }
}

/// `text` up to its last complete sentence (a scene the token limit cut off mid-sentence); all
/// of it when no sentence ends.
fn up_to_last_sentence(text: &str) -> &str {
    let closers = ['"', '\'', '”', '’', ')', '*', '_'];
    let mut end = None;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?' | '…') {
            let mut after = index + c.len_utf8();
            while let Some(&(next_index, next)) = chars.peek() {
                if !closers.contains(&next) {
                    break;
                }
                after = next_index + next.len_utf8();
                chars.next();
            }
            if chars.peek().is_none_or(|&(_, next)| next.is_whitespace()) {
                end = Some(after);
            }
        }
    }
    end.map_or(text, |end| &text[..end])
}

/// A streamed reply, collected.
struct Reply {
    text: String,
    tool_calls: Vec<ToolCall>,
    usage: TokenUsage,
    /// Whether the token limit cut it off.
    cut_off: bool,
}

impl Reply {
    /// The reply's prose, trimmed; up to its last full sentence if the token limit cut it off.
    fn prose(&self) -> String {
        let text = self.text.trim();
        if self.cut_off {
            up_to_last_sentence(text).to_owned()
        } else {
            text.to_owned()
        }
    }
}

async fn stream_reply(
    llm: &dyn LlmPort,
    request: crate::gm::llm::LlmRequest,
    log: &mut EventLog<'_>,
) -> Result<Reply, LlmError> {
    let mut stream = llm.stream(request);
    let mut reply = Reply {
        text: String::new(),
        tool_calls: Vec::new(),
        usage: TokenUsage::default(),
        cut_off: false,
    };
    while let Some(chunk) = stream.next().await {
        match chunk? {
            LlmChunk::Text(delta) => {
                reply.text.push_str(&delta);
                log.push(TurnEvent::NarrativeDelta { text: delta });
            }
            LlmChunk::ToolCall(call) => reply.tool_calls.push(call),
            LlmChunk::Retrying {
                attempt, attempts, ..
            } => log.push(TurnEvent::Retrying { attempt, attempts }),
            LlmChunk::Done {
                usage,
                finish_reason,
            } => {
                reply.usage = usage.unwrap_or_default();
                reply.cut_off = finish_reason == FinishReason::Length;
                return Ok(bounded(reply));
            }
        }
    }
    Err(LlmError::InvalidResponse(
        "the reply ended without a finish reason".into(),
    ))
}

/// A reply held to the bounds of the campaign log: its text and its calls' ids, names and
/// arguments cut (cut arguments no longer parse, so the rules refuse the call).
fn bounded(mut reply: Reply) -> Reply {
    bounds::cut(&mut reply.text, bounds::MAX_MESSAGE_CHARS);
    for call in &mut reply.tool_calls {
        bounds::cut(&mut call.id, bounds::MAX_NAME_CHARS);
        bounds::cut(&mut call.name, bounds::MAX_NAME_CHARS);
        bounds::cut(&mut call.arguments, bounds::MAX_ARGUMENTS_CHARS);
    }
    reply
}

/// Events kept in order and passed on as they happen; with the table's lines, the scene's text
/// is passed on only as far as it crosses none.
struct EventLog<'a> {
    events: Vec<TurnEvent>,
    on_event: &'a mut (dyn FnMut(&TurnEvent) + Send),
    guard: Option<LineGuard>,
}

impl EventLog<'_> {
    fn push(&mut self, event: TurnEvent) {
        let event = match (&mut self.guard, event) {
            (Some(guard), TurnEvent::NarrativeDelta { text }) => {
                let shown = guard.pass(&text);
                if shown.is_empty() {
                    return;
                }
                TurnEvent::NarrativeDelta { text: shown }
            }
            (Some(guard), TurnEvent::NarrativeReplaced { text }) => TurnEvent::NarrativeReplaced {
                text: guard.replace(&text),
            },
            (_, event) => event,
        };
        (self.on_event)(&event);
        if !event.is_transient() {
            self.events.push(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{opening_move, tools, up_to_last_sentence};

    #[test]
    fn the_opening_request_names_a_registered_tool() {
        let text = opening_move("A storm", true);
        let named: Vec<&str> = text
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|word| word.contains('_'))
            .collect();
        assert_eq!(named, ["update_character"]);
        assert!(tools::find(named[0]).is_some());
    }

    #[test]
    fn a_cut_off_scene_ends_at_its_last_full_sentence() {
        assert_eq!(
            up_to_last_sentence("The door creaks. A cold wind blows through the"),
            "The door creaks."
        );
        assert_eq!(
            up_to_last_sentence("\"Halt!\" the guard cries. You ste"),
            "\"Halt!\" the guard cries."
        );
        assert_eq!(
            up_to_last_sentence("It costs 2.5 gold… *Really?* he as"),
            "It costs 2.5 gold… *Really?*"
        );
        assert_eq!(
            up_to_last_sentence("No sentence ends here"),
            "No sentence ends here"
        );
        assert_eq!(up_to_last_sentence("Done. "), "Done.");
    }
}

//! The model's memory: every request is built in layers, in a fixed order, within a token
//! budget, so the prompt stays bounded however long the campaign and its front stays the same
//! from call to call (a provider's prompt cache reuses it):
//!
//! 1. the stable prefix: the rules, the premise, the table's style, lines and veils, and the plan
//!    (byte-identical for the whole campaign unless the player changes those; text-mode tools are
//!    inserted at its end);
//! 2. "the story so far": the model's rolling summary of the turns it no longer sees;
//! 3. the journal: people, places, threads, promises, notable items;
//! 4. "from earlier in the story": the older passages the rules recalled for this move
//!    ([`super::recall`]; the same passages make the same bytes);
//! 5. the current sheet, and the story now (the chapter under way, the clocks, the people in the
//!    scene; the plan itself is in the stable prefix, made once at the opening);
//! 6. the latest turns verbatim, as many as the budget allows;
//! 7. this turn.
//!
//! Layers 1–5 are one system message (some chat templates accept only one). The verbatim window
//! only grows between summaries, so consecutive requests share everything up to this turn; when
//! it would overflow, [`summary_plan`] folds its oldest turns into a new summary (a phase of its
//! own, run between turns), and until that succeeds the window is cut to fit.

use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::recall::recall_text;
use super::sheet_text::{describe_sheet, sheet_lines};
use super::spine_text::{plan_text, story_now};
use super::token_count::tokens;
use crate::campaign::conversation::{PromptLayer, RecalledPassage, SentRequest};
use crate::campaign::state::{CampaignState, ContextTurn};
use crate::game::{Journal, JournalEntry, JournalKind};
use crate::gm::llm::{LlmRequest, Message, ToolDefinition};
use crate::gm::prose::lines::agreement_text;
use crate::gm::settings::GmSettings;

/// Tokens kept free for the tool calls and results of a narration's later rounds.
const ROUND_RESERVE: usize = 200;

/// Tokens a player's move is assumed to take when planning a summary (before the move exists).
const MOVE_RESERVE: usize = 100;

/// The share of the prompt budget the journal may take (its pinned entries, then the newest
/// open ones): a 28th, about 95 tokens (some 350 bytes) of the default budget. What falls out
/// is older, and the story so far and the recalled passages carry it.
const JOURNAL_SHARE: usize = 28;

/// Tokens each message costs beyond its text (role and separators).
const MESSAGE_OVERHEAD: usize = 4;

/// The most characters a summary keeps.
pub const MAX_SUMMARY_CHARS: usize = 2_000;

/// A prompt's layers before this turn, and what went into them.
#[derive(Clone, Debug, PartialEq)]
pub struct Layered {
    /// The system message and the verbatim window.
    pub messages: Vec<Message>,
    /// The bytes of the system message that never change in this campaign.
    pub stable_prefix: usize,
    /// Each layer's size.
    pub layers: Vec<PromptLayer>,
    /// The turns held verbatim (first, last).
    pub window: Option<(u32, u32)>,
    /// The estimated tokens of `messages`: each layer's and each verbatim message's, counted
    /// once as they were laid out (a request's own estimate adds only what follows them).
    pub tokens: usize,
}

impl Layered {
    /// The request for this turn's `turn` messages.
    pub fn request(&self, turn: &[Message], tools: impl Into<Arc<[ToolDefinition]>>) -> LlmRequest {
        let mut messages = Vec::with_capacity(self.messages.len() + turn.len());
        messages.extend(self.messages.iter().cloned());
        messages.extend(turn.iter().cloned());
        LlmRequest {
            messages,
            tools: tools.into(),
            stable_prefix: Some(self.stable_prefix),
            ..LlmRequest::default()
        }
    }
}

/// What else a request carries besides its layers and this turn, which its window must leave
/// room for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reserve {
    /// A narration's later tool rounds.
    ToolRounds,
    /// A response schema of this many tokens.
    Schema(usize),
    /// Nothing.
    Nothing,
}

impl Reserve {
    fn tokens(self) -> usize {
        match self {
            Self::ToolRounds => ROUND_RESERVE,
            Self::Schema(tokens) => tokens,
            Self::Nothing => 0,
        }
    }
}

/// The layered prompt for `state` with the `recalled` passages, leaving room for `tools`, this
/// turn's `turn` messages and the `reserve`. The window keeps whole turns, newest first, as many
/// as fit, and always the latest one.
pub fn layered(
    state: &CampaignState,
    settings: &GmSettings,
    tools: &[ToolDefinition],
    turn: &[Message],
    reserve: Reserve,
    recalled: &[RecalledPassage],
) -> Layered {
    let parts = SystemParts::new(state, settings, recalled);
    let available = window_budget(&parts, settings, tools, turn, reserve);
    let mut start = state.context.len();
    let mut used = 0;
    for (index, verbatim) in state.context.iter().enumerate().rev() {
        used += turn_tokens(verbatim);
        if used > available && start < state.context.len() {
            break;
        }
        start = index;
    }
    build(parts, &state.context[start..])
}

/// What a summary would fold: the turns from the oldest kept verbatim up to `through_turn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryPlan {
    /// The last turn the new summary covers.
    pub through_turn: u32,
    /// How many of the oldest verbatim turns it folds.
    pub folded: usize,
}

/// Whether the verbatim turns no longer fit a narration's window, and if so which to fold: the
/// oldest ones, leaving the newest that fill half the window (at least one), and no more than
/// fit one summary request.
pub fn summary_plan(
    state: &CampaignState,
    settings: &GmSettings,
    tools: &[ToolDefinition],
) -> Option<SummaryPlan> {
    let parts = SystemParts::new(state, settings, &[]);
    let available = window_budget(&parts, settings, tools, &[], Reserve::ToolRounds)
        .saturating_sub(MOVE_RESERVE);
    let sizes: Vec<usize> = state.context.iter().map(turn_tokens).collect();
    if sizes.len() < 2 || sizes.iter().sum::<usize>() <= available {
        return None;
    }
    let mut kept = 1;
    let mut used = sizes[sizes.len() - 1];
    while kept < sizes.len() - 1 && used + sizes[sizes.len() - 1 - kept] <= available / 2 {
        used += sizes[sizes.len() - 1 - kept];
        kept += 1;
    }
    let mut folded = 1;
    let mut folding = sizes[0];
    while folded < sizes.len() - kept && folding + sizes[folded] <= available {
        folding += sizes[folded];
        folded += 1;
    }
    Some(SummaryPlan {
        through_turn: state.context[folded - 1].turn,
        folded,
    })
}

/// The request for a new summary: the layered prompt with the turns to fold as its window (the
/// front of the last narration's messages), then the instruction; no tools (it calls none).
pub fn summary_request(
    state: &CampaignState,
    settings: &GmSettings,
    plan: &SummaryPlan,
) -> (Layered, LlmRequest) {
    let parts = SystemParts::new(state, settings, &[]);
    let layered = build(parts, &state.context[..plan.folded]);
    let since = state.summary.as_ref().map_or(String::new(), |summary| {
        format!(" (it now covers turns 1 to {})", summary.through_turn)
    });
    let instruction = Message::user(format!(
        "[Game] Rewrite \"the story so far\"{since} so that it also covers the turns above, up \
         to turn {}. At most 200 words of plain prose in the past tense: where the character \
         has been, whom they met and how those people feel about them, what was promised, what \
         is unresolved. Do not record hit points, items, dice or other numbers: the character \
         sheet keeps those. Answer with the summary only.",
        plan.through_turn
    ));
    let mut request = layered.request(&[instruction], Vec::new());
    request.tool_choice = crate::gm::llm::ToolChoice::None;
    request.temperature = Some(0.3);
    request.max_tokens = Some(settings.summary_max_tokens);
    (layered, request)
}

/// A summary as the model wrote it, trimmed and bounded; `None` when it is empty.
pub fn clean_summary(text: &str) -> Option<String> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let bounded: String = text.chars().take(MAX_SUMMARY_CHARS).collect();
    Some(bounded)
}

/// The record of a request as sent, compared with the `previous` one's front.
pub fn record(
    purpose: &str,
    request: &LlmRequest,
    layered: &Layered,
    previous: Option<&SentRequest>,
) -> SentRequest {
    let body = messages_json(&request.messages);
    let tools: Vec<String> = request.tools.iter().map(|tool| tool.name.clone()).collect();
    let tools_json = shared_tools_json(&request.tools);
    let tools_bytes = tools_json.len();
    // The same tools (always the whole registry, in its order) make the same first bytes.
    let shared = previous
        .filter(|previous| previous.tools == tools)
        .map_or(0, |previous| {
            tools_bytes + shared_front(&messages_json(&previous.messages), &body)
        });
    SentRequest {
        purpose: purpose.to_owned(),
        messages: request.messages.clone(),
        tools,
        layers: layered.layers.clone(),
        window: layered.window,
        bytes: to_u32(body.len() + tools_bytes),
        shared_front_bytes: to_u32(shared),
        estimated_tokens: to_u32(estimated_tokens(request, layered, &tools_json)),
        reported_tokens: None,
    }
}

/// A request's estimated tokens from what its `layered` prompt counted already: the layers,
/// then the messages after them and the tools (as `tools_json`). Whole texts are not counted
/// again: the system message's count is its layers' sum (within a token or so of counting it
/// whole, at each layer's seam).
fn estimated_tokens(request: &LlmRequest, layered: &Layered, tools_json: &str) -> usize {
    let laid_out = layered.messages.len();
    let shared = request.messages.get(..laid_out) == Some(layered.messages.as_slice());
    let (counted, rest) = if shared {
        (layered.tokens, &request.messages[laid_out..])
    } else {
        (0, request.messages.as_slice())
    };
    let tools = if request.tools.is_empty() {
        0
    } else {
        tokens(tools_json)
    };
    counted + rest.iter().map(message_tokens).sum::<usize>() + tools
}

/// The most tool lists whose JSON is kept (a list is made once per shape of the game: a handful).
const KEPT_TOOL_LISTS: usize = 32;

/// The tool lists sent, each with its JSON.
type KeptToolLists = Mutex<Vec<(Arc<[ToolDefinition]>, Arc<str>)>>;

fn kept_tool_lists() -> &'static KeptToolLists {
    static KEPT: OnceLock<KeptToolLists> = OnceLock::new();
    KEPT.get_or_init(KeptToolLists::default)
}

/// The JSON kept for `tools`, if it is a kept list (known by its address, which no other list
/// can have while the kept one lives).
fn kept_json(
    kept: &[(Arc<[ToolDefinition]>, Arc<str>)],
    tools: &[ToolDefinition],
) -> Option<Arc<str>> {
    kept.iter()
        .find(|(list, _)| std::ptr::eq(list.as_ref(), tools))
        .map(|(_, json)| Arc::clone(json))
}

/// The tool list as sent (JSON): kept for a list a request carried, made again for any other.
fn tools_json(tools: &[ToolDefinition]) -> Arc<str> {
    let kept = kept_json(
        &kept_tool_lists()
            .lock()
            .unwrap_or_else(PoisonError::into_inner),
        tools,
    );
    kept.unwrap_or_else(|| serde_json::to_string(tools).unwrap_or_default().into())
}

/// The JSON of the tool list a request carries, made once and kept.
fn shared_tools_json(tools: &Arc<[ToolDefinition]>) -> Arc<str> {
    let mut kept = kept_tool_lists()
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(json) = kept_json(&kept, tools) {
        return json;
    }
    let json: Arc<str> = serde_json::to_string(&**tools).unwrap_or_default().into();
    if kept.len() >= KEPT_TOOL_LISTS {
        kept.clear();
    }
    kept.push((Arc::clone(tools), Arc::clone(&json)));
    json
}

/// The messages as JSON, the form the front is compared in.
pub fn messages_json(messages: &[Message]) -> String {
    serde_json::to_string(messages).unwrap_or_default()
}

/// The prompt as a provider renders it, for comparing fronts: the tool definitions, then the
/// messages (as JSON).
pub fn prompt_json(request: &LlmRequest) -> String {
    tools_json(&request.tools).to_string() + &messages_json(&request.messages)
}

/// How many leading bytes `a` and `b` share.
pub fn shared_front(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// The estimated tokens of a whole request: its messages and its tools.
pub fn request_tokens(request: &LlmRequest) -> usize {
    request.messages.iter().map(message_tokens).sum::<usize>() + tools_tokens(&request.tools)
}

fn message_tokens(message: &Message) -> usize {
    let text = match message {
        Message::System { content } | Message::User { content } | Message::Tool { content, .. } => {
            tokens(content)
        }
        Message::Assistant {
            content,
            tool_calls,
        } => {
            content.as_deref().map_or(0, tokens)
                + tool_calls
                    .iter()
                    .map(|call| tokens(&call.name) + tokens(&call.arguments))
                    .sum::<usize>()
        }
    };
    text + MESSAGE_OVERHEAD
}

fn turn_tokens(turn: &ContextTurn) -> usize {
    turn.messages.iter().map(message_tokens).sum()
}

/// The estimated tokens of a tool list as sent.
pub fn tools_tokens(tools: &[ToolDefinition]) -> usize {
    if tools.is_empty() {
        0
    } else {
        tokens(&tools_json(tools))
    }
}

/// The tokens left for the verbatim window once the system message (its `parts`, the recalled
/// passages among them), the tools, this turn and the reserve are counted.
fn window_budget(
    parts: &SystemParts,
    settings: &GmSettings,
    tools: &[ToolDefinition],
    turn: &[Message],
    reserve: Reserve,
) -> usize {
    let fixed = parts.tokens()
        + MESSAGE_OVERHEAD
        + tools_tokens(tools)
        + turn.iter().map(message_tokens).sum::<usize>()
        + reserve.tokens();
    settings.prompt_budget().saturating_sub(fixed)
}

/// The system message's layers 1–5, each made once and counted once (by the window's budget and
/// by the prompt's layers alike).
struct SystemParts {
    /// Each layer's name, text and tokens, in their fixed order (empty ones included).
    layers: [(&'static str, String, usize); 6],
    /// The bytes of the stable prefix (the first layer).
    stable_prefix: usize,
}

impl SystemParts {
    /// The layers for `state` with the `recalled` passages.
    fn new(state: &CampaignState, settings: &GmSettings, recalled: &[RecalledPassage]) -> Self {
        let prefix = stable_prefix(state, settings);
        let stable_prefix = prefix.len();
        let counted = |name: &'static str, text: String| {
            let count = tokens(&text);
            (name, text, count)
        };
        Self {
            layers: [
                counted("the rules and the premise", prefix),
                counted("the story so far", summary_text(state)),
                counted(
                    "the journal",
                    journal_text(&state.journal, journal_budget(settings)),
                ),
                counted("from earlier in the story", recall_text(recalled)),
                counted(
                    "the character sheet",
                    sheet_text(state, settings.full_prompt),
                ),
                counted(
                    "the story now",
                    story_now(state, recalled, settings.full_prompt),
                ),
            ],
            stable_prefix,
        }
    }

    /// The layers' tokens, summed (within a token or so of counting their text whole, at each
    /// seam).
    fn tokens(&self) -> usize {
        self.layers.iter().map(|(_, _, tokens)| tokens).sum()
    }
}

/// The prompt of the system message's `parts` with `window` as the verbatim turns.
fn build(parts: SystemParts, window: &[ContextTurn]) -> Layered {
    let mut layers: Vec<PromptLayer> = parts
        .layers
        .iter()
        .filter(|(_, text, _)| !text.is_empty())
        .map(|(name, text, tokens)| layer(name, text.len(), *tokens))
        .collect();
    let system: String = parts
        .layers
        .iter()
        .map(|(_, text, _)| text.as_str())
        .collect();
    let mut messages = vec![Message::system(system)];
    for verbatim in window {
        messages.extend(verbatim.messages.iter().cloned());
    }
    if !window.is_empty() {
        let window_messages = &messages[1..];
        let bytes = messages_json(window_messages).len();
        let tokens = window_messages.iter().map(message_tokens).sum();
        layers.push(layer("the latest turns", bytes, tokens));
    }
    let tokens = layers
        .iter()
        .map(|layer| layer.tokens as usize)
        .sum::<usize>()
        + MESSAGE_OVERHEAD;
    Layered {
        tokens,
        messages,
        stable_prefix: parts.stable_prefix,
        layers,
        window: window
            .first()
            .zip(window.last())
            .map(|(a, b)| (a.turn, b.turn)),
    }
}

fn layer(name: &str, bytes: usize, tokens: usize) -> PromptLayer {
    PromptLayer {
        name: name.to_owned(),
        tokens: to_u32(tokens),
        bytes: to_u32(bytes),
    }
}

fn journal_budget(settings: &GmSettings) -> usize {
    settings.prompt_budget() / JOURNAL_SHARE
}

/// Layer 1: the rules, the premise, the table's style and lines, the plan. A very small model
/// is also shown the character as created; the full prompt says the sheet once, as it is now
/// (layer 5).
pub fn stable_prefix(state: &CampaignState, settings: &GmSettings) -> String {
    let origin = if settings.full_prompt {
        String::new()
    } else {
        format!(
            "\nThe character as created: {}",
            describe_sheet(&state.origin)
        )
    };
    format!(
        "{}\n\n# The adventure\nPremise: {}{origin}{}{}",
        settings.rules(),
        state.premise,
        agreement_text(&state.agreement),
        plan_text(state, settings.full_prompt)
    )
}

fn summary_text(state: &CampaignState) -> String {
    state.summary.as_ref().map_or(String::new(), |summary| {
        format!(
            "\n\n# The story so far (turns 1 to {})\n{}",
            summary.through_turn, summary.text
        )
    })
}

/// Layer 3: the pinned entries, then the newest open ones, as many as `max_tokens` allow;
/// listed by kind in the order they were written.
fn journal_text(journal: &Journal, max_tokens: usize) -> String {
    let line =
        |entry: &JournalEntry| format!("\n- {}: {}", entry.name.as_str(), entry.note.as_str());
    let pinned = journal.entries().iter().filter(|entry| entry.pinned);
    let open = journal
        .entries()
        .iter()
        .rev()
        .filter(|entry| entry.open && !entry.pinned);
    let mut shown = Vec::new();
    let mut used = 0;
    for entry in pinned.chain(open) {
        used += tokens(&line(entry));
        if used > max_tokens && !entry.pinned {
            break;
        }
        shown.push(entry.id);
    }
    let mut text = String::new();
    for kind in JournalKind::ALL {
        let entries: Vec<_> = journal
            .entries()
            .iter()
            .filter(|entry| entry.kind == kind && shown.contains(&entry.id))
            .collect();
        if entries.is_empty() {
            continue;
        }
        let _ = write!(text, "\n{}:", kind.heading());
        for entry in entries {
            text.push_str(&line(entry));
        }
    }
    if text.is_empty() {
        text
    } else {
        format!("\n\n# The journal{text}")
    }
}

/// Layer 5: the sheet, the party and the map. The full prompt lists items by name alone
/// (`change_inventory` takes a name; a slug is the name slugified), a very small model's with
/// their slugs as ever.
fn sheet_text(state: &CampaignState, full: bool) -> String {
    let mut text = format!(
        "\n\n# The character now\n{}",
        sheet_lines(&state.sheet, !full)
    );
    text.push_str(&super::party_text::party_text(state));
    if !state.map.places().is_empty() {
        text.push_str("\n\n# The map\n");
        text.push_str(&state.map.describe());
    }
    text
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::state::StorySummary;
    use crate::game::text::{CharacterName, ClassName, LocationName};
    use crate::game::{CharacterSheet, JournalChange, JournalName, JournalNote, StateDelta};

    #[test]
    fn the_tool_list_stays_compact() {
        // Every definition goes with every call: 1,939 tokens before the fight's two tools,
        // 1,996 with them (the older tools' descriptions tightened to pay for most of them).
        // A game that tracks sanity gets one more tool (2,122 with it). A skill for request_check
        // (a plain string) paid for by shorter descriptions. Outcome tables (roll_on_table) add
        // 181: 2,181 without sanity, 2,307 with it. Hazards (the rules' damage for a trap, a
        // fall, fire or poison) add 196: 2,377 without sanity. The story's plan adds
        // end_chapter to every call once there is a plan, and write_plan (nested, so larger) to
        // the opening's only. Issue 50 (every call ≤ 12 KB at turn 300): only narrations carry
        // the list, compacted (enum values folded, items undescribed, descriptions that say
        // when to call each tool once, the rules no longer repeating them): 2,440 → 2,050 with a
        // plan, 3,020 → 2,450 at the opening, 3,190 → 2,550 for every tool. Then one
        // change_inventory for add_inventory and update_inventory, get_character_stats no longer
        // sent (the sheet is in every request), no null said for an optional argument, shorter
        // descriptions: 1,474 with a plan, 1,827 at the opening, 2,006 for every tool.
        let settings = GmSettings::default();
        let opening = tools_tokens(&settings.tools_for(&state(), &Default::default()));
        let mut planned = state();
        planned.spine.plan = Some(crate::game::spine::shapes::Shape::Rescue.plan());
        let cost = tools_tokens(&settings.tools_for(&planned, &planned.combat));
        assert!(cost <= 1_500, "the tool list costs {cost} tokens");
        assert!(
            opening <= 1_850,
            "the opening's tool list costs {opening} tokens"
        );
        let all = tools_tokens(&crate::gm::tools::definitions());
        // Every tool at once (sanity_check and write_plan included), which no call sends.
        assert!(all <= 2_030, "every tool costs {all} tokens");
    }

    fn state() -> CampaignState {
        let sheet = CharacterSheet::new(
            CharacterName::new("Wren").unwrap(),
            ClassName::new("Ranger").unwrap(),
            LocationName::new("The road").unwrap(),
        );
        CampaignState::start("A road to a barrow.", sheet)
    }

    fn turn(number: u32, chars: usize) -> ContextTurn {
        ContextTurn {
            turn: number,
            messages: vec![
                Message::user(format!("move {number}")),
                Message::assistant("word ".repeat(chars / 5)),
            ],
        }
    }

    fn note(name: &str, text: &str) -> JournalChange {
        JournalChange::Note {
            kind: JournalKind::Person,
            name: JournalName::new(name).unwrap(),
            note: JournalNote::new(text).unwrap(),
        }
    }

    fn system(layered: &Layered) -> &str {
        match &layered.messages[0] {
            Message::System { content } => content,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_stable_prefix_stays_byte_identical_as_the_campaign_changes() {
        let settings = GmSettings::default();
        let mut state = state();
        let before = layered(&state, &settings, &[], &[], Reserve::Nothing, &[]);
        state.context.push(turn(1, 200));
        StateDelta::apply_all(&[StateDelta::ChangeHp { amount: -3 }], &mut state.sheet).unwrap();
        state.journal.apply(&note("Mira", "A smith.")).unwrap();
        state.summary = Some(StorySummary {
            through_turn: 1,
            text: "You set out.".into(),
        });
        let after = layered(&state, &settings, &[], &[], Reserve::Nothing, &[]);
        assert_eq!(before.stable_prefix, after.stable_prefix);
        assert_eq!(
            system(&before)[..before.stable_prefix],
            system(&after)[..after.stable_prefix]
        );
        assert_ne!(system(&before), system(&after));
    }

    #[test]
    fn the_layers_come_in_their_fixed_order_then_the_window() {
        let settings = GmSettings::default();
        let mut state = state();
        state.summary = Some(StorySummary {
            through_turn: 2,
            text: "You set out.".into(),
        });
        state.journal.apply(&note("Mira", "A smith.")).unwrap();
        state.context = vec![turn(3, 100), turn(4, 100)];
        let recalled = [RecalledPassage {
            turn: 1,
            index: 1,
            text: "Oswin the ferryman swears the ring was his mother's.".into(),
            words: vec!["oswin".into()],
        }];
        let layered = layered(&state, &settings, &[], &[], Reserve::Nothing, &recalled);
        let text = system(&layered);
        let at = |heading: &str| text.find(heading).unwrap_or_else(|| panic!("{heading}"));
        assert!(at("# The adventure") < at("# The story so far (turns 1 to 2)"));
        assert!(at("# The story so far") < at("# The journal"));
        assert!(at("# The journal") < at("# From earlier in the story"));
        assert!(at("- Turn 1: Oswin the ferryman") < at("# The character now"));
        assert_eq!(layered.messages[1], Message::user("move 3"));
        assert_eq!(layered.window, Some((3, 4)));
        let names: Vec<&str> = layered.layers.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "the rules and the premise",
                "the story so far",
                "the journal",
                "from earlier in the story",
                "the character sheet",
                "the latest turns"
            ]
        );
    }

    #[test]
    fn the_window_keeps_the_newest_turns_that_fit_and_always_the_latest() {
        let settings = GmSettings {
            prompt_max_tokens: 2_000,
            ..GmSettings::default()
        };
        let mut state = state();
        state.context = (1..=30).map(|n| turn(n, 600)).collect();
        let cut = layered(&state, &settings, &[], &[], Reserve::ToolRounds, &[]);
        let (first, last) = cut.window.unwrap();
        assert_eq!(last, 30);
        assert!(first > 1 && first < 30, "{first}");
        let request = cut.request(&[], Vec::new());
        assert!(request_tokens(&request) <= settings.prompt_budget());

        state.context = vec![turn(1, 20_000)];
        let alone = layered(&state, &settings, &[], &[], Reserve::Nothing, &[]);
        assert_eq!(
            alone.window,
            Some((1, 1)),
            "the latest turn even if too long"
        );
    }

    #[test]
    fn a_requests_estimate_adds_to_its_layers_only_what_follows_them() {
        let settings = GmSettings::default();
        let mut state = state();
        state.context = (1..=5).map(|n| turn(n, 300)).collect();
        let tools = settings.tools_for(&state, &state.combat);
        let this_turn = [Message::user("I search the barrow's mouth for tracks.")];
        let laid = layered(
            &state,
            &settings,
            &tools,
            &this_turn,
            Reserve::ToolRounds,
            &[],
        );
        let request = laid.request(&this_turn, Arc::clone(&tools));
        let sent = record("narration", &request, &laid, None);
        let whole = request_tokens(&request);
        let estimate = sent.estimated_tokens as usize;
        // Counted by layers, a seam between two may count a token more or less than the whole.
        assert!(
            estimate.abs_diff(whole) <= laid.layers.len(),
            "{estimate} vs {whole}"
        );
        let tools_only = tools_tokens(&tools) + MESSAGE_OVERHEAD;
        assert!(
            estimate > laid.tokens + tools_only,
            "the turn's message is counted too"
        );
    }

    #[test]
    fn a_summary_is_planned_only_when_the_turns_no_longer_fit() {
        let settings = GmSettings::default();
        let mut state = state();
        state.context = (1..=3).map(|n| turn(n, 200)).collect();
        assert_eq!(summary_plan(&state, &settings, &[]), None);
        state.context = (1..=40).map(|n| turn(n, 600)).collect();
        let plan = summary_plan(&state, &settings, &[]).expect("a plan");
        assert_eq!(plan.through_turn, plan.folded as u32);
        assert!(plan.folded >= 1 && plan.folded < 40);
        let (layered, request) = summary_request(&state, &settings, &plan);
        assert_eq!(layered.window, Some((1, plan.through_turn)));
        assert!(matches!(
            request.messages.last(),
            Some(Message::User { content }) if content.contains("story so far")
        ));
        assert!(request_tokens(&request) <= settings.prompt_budget());
        assert!(request.tools.is_empty(), "a summary calls no tool");
    }

    #[test]
    fn the_full_prompt_says_the_sheet_once() {
        let state = state();
        let full = stable_prefix(&state, &GmSettings::default());
        assert!(!full.contains("The character as created"), "{full}");
        let small = stable_prefix(&state, &GmSettings::small_model());
        assert!(small.contains("The character as created: Wren"), "{small}");
    }

    #[test]
    fn pinned_entries_always_show_and_the_newest_open_ones_fill_the_rest() {
        let mut journal = Journal::default();
        for n in 0..30 {
            journal
                .apply(&note(
                    &format!("Person {n}"),
                    "Someone met on the road, friendly.",
                ))
                .unwrap();
        }
        journal
            .apply(&JournalChange::Pin {
                id: 0,
                pinned: true,
            })
            .unwrap();
        journal
            .apply(&JournalChange::Close {
                name: JournalName::new("Person 29").unwrap(),
            })
            .unwrap();
        let text = journal_text(&journal, 60);
        assert!(text.contains("Person 0:"), "pinned: {text}");
        assert!(text.contains("Person 28:"), "newest open: {text}");
        assert!(!text.contains("Person 29:"), "closed: {text}");
        assert!(!text.contains("Person 5:"), "old ones give way: {text}");
    }

    #[test]
    fn a_summary_is_trimmed_and_bounded() {
        assert_eq!(clean_summary("  \n "), None);
        assert_eq!(clean_summary(" You left. ").as_deref(), Some("You left."));
        let long = "a".repeat(MAX_SUMMARY_CHARS + 50);
        assert_eq!(
            clean_summary(&long).map(|s| s.chars().count()),
            Some(MAX_SUMMARY_CHARS)
        );
    }
}

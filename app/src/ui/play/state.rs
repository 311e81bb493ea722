//! The play screen's shared state, provided as a context to its parts. The two histories are
//! separate signals: `story` (what the player reads) here, the model's context in the drawer.

use leptos::prelude::*;

use crate::game::agreement::TableAgreement;
use crate::game::JournalEntry;
use crate::wire::errors::AppError;
use crate::wire::view::{
    ActionView, ActionsView, CampaignView, EncounterView, MapView, ModelView, MoveInput,
    PicturesView, ProposalView, SheetView, SpineView, StoryEntry, StoryTable, TableView,
    TurnUpdate,
};

/// A failed request: what to tell the player and what Retry does.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The message.
    pub message: String,
    /// What Retry does; `None` when trying again cannot help.
    pub retry: Option<Retry>,
}

/// What Retry does after a failure.
#[derive(Clone, Debug, PartialEq)]
pub enum Retry {
    /// Play the move again (it was not saved).
    Move(MoveInput),
    /// Ask for the next actions again (the move was saved).
    Actions,
}

/// Every signal of the play screen.
#[derive(Clone, Copy)]
pub struct PlayState {
    /// The campaign's id.
    pub id: StoredValue<String>,
    /// The campaign's turn as this page knows it.
    pub turn: RwSignal<u32>,
    /// The loaded part of the story log.
    pub story: RwSignal<Vec<StoryEntry>>,
    /// The index of the first loaded entry (0: the whole story is loaded).
    pub story_start: RwSignal<u32>,
    /// The character panel.
    pub sheet: RwSignal<SheetView>,
    /// The action buttons.
    pub actions: RwSignal<Vec<ActionView>>,
    /// The journal's entries.
    pub journal: RwSignal<Vec<JournalEntry>>,
    /// The map: its drawing, made on the server, and its places.
    pub map: RwSignal<MapView>,
    /// The story so far: chapters reached, revealed clocks, people met, the notes.
    pub spine: RwSignal<SpineView>,
    /// How many undone turns can be redone.
    pub redoable: RwSignal<u32>,
    /// The fight under way, if any.
    pub encounter: RwSignal<Option<EncounterView>>,
    /// Tokens spent: (prompt, completion).
    pub tokens: RwSignal<(u32, u32)>,
    /// The scene being written, as it streams.
    pub draft: RwSignal<String>,
    /// The latest move's narration as it streamed, and whether its scene is complete (kept
    /// after the draft is cleared, for reading aloud).
    pub narration: RwSignal<(String, bool)>,
    /// An outcome table the rules accepted, shown while its die is rolled.
    pub pending_table: RwSignal<Option<StoryTable>>,
    /// A request is running.
    pub busy: RwSignal<bool>,
    /// The last failure, shown with Retry.
    pub failure: RwSignal<Option<Failure>>,
    /// A note for the player (the campaign moved on in another tab).
    pub notice: RwSignal<Option<String>>,
    /// The free-text box.
    pub text: RwSignal<String>,
    /// Whether the game master's changes wait for the player (approval mode).
    pub approval: RwSignal<bool>,
    /// The changes waiting for the player.
    pub proposals: RwSignal<Vec<ProposalView>>,
    /// The game master's style and the table's lines and veils.
    pub agreement: RwSignal<TableAgreement>,
    /// The model's working context (the LLM history, beside the story, which is the UI
    /// history): loaded when the inspector first opens, then kept up to date by each turn's
    /// changes.
    pub model: RwSignal<Option<ModelView>>,
    /// The table of friends: who sits where, who has moved this round.
    pub table: RwSignal<TableView>,
    /// Whether the server draws pictures, and the character's portrait.
    pub pictures: RwSignal<PicturesView>,
}

impl PlayState {
    /// Sends a change from the character panel to the rules while the panel is busy; what they
    /// answer updates the page, a refusal shows as the failure.
    pub fn ask_rules(
        self,
        request: impl std::future::Future<Output = Result<Vec<TurnUpdate>, AppError>> + 'static,
    ) {
        self.busy.set(true);
        leptos::task::spawn_local(async move {
            match request.await {
                Ok(updates) => updates.into_iter().for_each(|update| self.update(update)),
                Err(error) => self.failure.set(Some(Failure {
                    message: error.to_string(),
                    retry: None,
                })),
            }
            self.busy.set(false);
        });
    }

    /// The state of a freshly loaded campaign.
    pub fn new(view: CampaignView) -> Self {
        Self {
            id: StoredValue::new(view.summary.id.to_string()),
            turn: RwSignal::new(view.summary.turn),
            story: RwSignal::new(view.story.entries),
            story_start: RwSignal::new(view.story.start),
            sheet: RwSignal::new(view.sheet),
            actions: RwSignal::new(view.actions),
            journal: RwSignal::new(view.journal),
            map: RwSignal::new(view.map),
            spine: RwSignal::new(view.spine),
            redoable: RwSignal::new(view.redoable),
            encounter: RwSignal::new(view.encounter),
            tokens: RwSignal::new(view.tokens),
            draft: RwSignal::new(String::new()),
            narration: RwSignal::new((String::new(), false)),
            pending_table: RwSignal::new(None),
            busy: RwSignal::new(false),
            failure: RwSignal::new(None),
            notice: RwSignal::new(None),
            text: RwSignal::new(String::new()),
            approval: RwSignal::new(view.approval),
            agreement: RwSignal::new(view.agreement.clone()),
            model: RwSignal::new(None),
            proposals: RwSignal::new(view.proposals),
            table: RwSignal::new(view.table),
            pictures: RwSignal::new(view.pictures),
        }
    }

    /// Whether this screen is the host's (not a friend's seat).
    pub fn is_host(&self) -> bool {
        self.table.read_untracked().you <= 1
    }

    /// Whether changes wait for the player's decision (no move until they decide).
    pub fn waiting(&self) -> bool {
        !self.proposals.read().is_empty()
    }

    /// Replaces everything with a freshly loaded view (after another tab played).
    pub fn replace(&self, view: CampaignView) {
        // A loaded campaign has no scene being told.
        self.draft.set(String::new());
        self.turn.set(view.summary.turn);
        self.story.set(view.story.entries);
        self.story_start.set(view.story.start);
        self.sheet.set(view.sheet);
        self.actions.set(view.actions);
        self.journal.set(view.journal);
        self.map.set(view.map);
        self.spine.set(view.spine);
        self.redoable.set(view.redoable);
        self.encounter.set(view.encounter);
        self.tokens.set(view.tokens);
        self.approval.set(view.approval);
        self.agreement.set(view.agreement);
        // Loaded again when the inspector opens next.
        self.model.set(None);
        self.proposals.set(view.proposals);
        self.table.set(view.table);
        self.pictures.set(view.pictures);
    }

    /// Applies one streamed update of a running turn.
    pub fn update(&self, update: TurnUpdate) {
        match update {
            TurnUpdate::Narrative { text } => {
                self.narration.update(|(told, _)| told.push_str(&text));
                self.draft.update(|draft| draft.push_str(&text));
            }
            TurnUpdate::NarrativeReplaced { text } => {
                self.narration.set((text.clone(), false));
                self.draft.set(text);
            }
            TurnUpdate::Entry { index, entry } => {
                match entry {
                    StoryEntry::Scene { .. } => {
                        self.draft.set(String::new());
                        self.narration.update(|(_, complete)| *complete = true);
                    }
                    StoryEntry::Table { .. } => self.pending_table.set(None),
                    _ => {}
                }
                let next =
                    self.story_start.get_untracked() + self.story.read_untracked().len() as u32;
                if index == next {
                    self.story.update(|story| story.push(entry));
                }
            }
            // A friend's screen shows their own hero: the host's sheet and action badges stay
            // the host's (the friend's come with the round's end).
            TurnUpdate::Sheet { sheet } if self.is_host() => self.sheet.set(*sheet),
            TurnUpdate::Sheet { .. } => {}
            TurnUpdate::Agreement { agreement } => self.agreement.set(agreement),
            TurnUpdate::Model { change } => self.model.update(|model| {
                if let Some(model) = model {
                    model.apply(&change);
                }
            }),
            TurnUpdate::Actions { actions } if self.is_host() => self.actions.set(actions),
            TurnUpdate::Actions { .. } => {}
            TurnUpdate::Journal { entries } => self.journal.set(entries),
            TurnUpdate::Map { map } => self.map.set(map),
            TurnUpdate::Spine { spine } => self.spine.set(spine),
            TurnUpdate::Table { members } => self.table.update(|table| table.members = members),
            TurnUpdate::RoundWaiting { table } => {
                self.table.set(table);
                self.notice.set(Some(
                    "Your move is in. The game master tells the round once everyone at the table \
                     has moved."
                        .to_owned(),
                ));
            }
            TurnUpdate::Encounter { encounter } => self.encounter.set(encounter),
            TurnUpdate::Waiting { text } => self.notice.set(Some(text)),
            TurnUpdate::TablePending { table } => self.pending_table.set(Some(table)),
            TurnUpdate::Proposals { pending } => self.proposals.set(pending),
            TurnUpdate::Done { turn, tokens } => {
                self.notice.set(None);
                self.pending_table.set(None);
                self.turn.set(turn);
                self.tokens.set(tokens);
                // A new turn replaces whatever was undone.
                self.redoable.set(0);
            }
            TurnUpdate::Error { .. } | TurnUpdate::Created { .. } => {}
        }
    }

    /// Shows the actions generated for a turn, if it is still this page's turn.
    pub fn set_actions(&self, view: ActionsView) {
        if view.turn == self.turn.get_untracked() {
            self.actions.set(view.actions);
            self.tokens.set(view.tokens);
        }
    }
}

/// The play screen's state (inside [`super::Play`]).
pub fn use_play() -> PlayState {
    expect_context::<PlayState>()
}

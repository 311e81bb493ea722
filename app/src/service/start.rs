//! Starting a campaign: the sheet, the opening scene (phase 1) and the first actions (phase 2);
//! and starting one over from the same premise and character.

use rand::Rng;

use super::play::Projection;
use super::{summary, Game, ServiceError, UpdateSink};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::state::CampaignState;
use crate::campaign::store::CampaignRecord;
use crate::campaign::title::Title;
use crate::game::agreement::TableAgreement;
use crate::game::creation::CharacterDraft;
use crate::game::journal::MAX_ENTRIES;
use crate::game::party::{Member, Party, Role};
use crate::game::text::LocationName;
use crate::game::{CharacterSheet, JournalChange, JournalName, JournalNote};
use crate::gm::{Memory, MoveText, PlayerMove};
use crate::wire::view::{BroughtEntry, CampaignSummary, CompanionForm, NewCampaign};
use crate::wire::{CampaignId, PlayerId};

/// The most characters of a premise.
pub const MAX_PREMISE_CHARS: usize = 300;

impl Game<'_> {
    /// Starts a campaign: its sheet, its opening scene and, if the model answers, its first
    /// actions. Nothing is stored unless the opening scene was written.
    pub async fn create<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        form: &NewCampaign,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<CampaignSummary, ServiceError> {
        let (premise, sheet) = parse_form(form)?;
        let agreement = form
            .agreement
            .agreement()
            .map_err(|error| ServiceError::invalid("agreement", error))?;
        let brought = brought(&form.brought)?;
        let companions = companions(&form.companions, &sheet)?;
        let start = Start {
            premise,
            sheet,
            approval: form.approval,
            agreement,
            brought,
            companions,
        };
        self.begin(owner, start, now, rng, updates).await
    }

    /// Starts a campaign from a parsed premise and starting sheet.
    async fn begin<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        Start {
            premise,
            sheet,
            approval,
            agreement,
            brought,
            companions,
        }: Start,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<CampaignSummary, ServiceError> {
        let record = CampaignRecord {
            id: CampaignId::random(rng),
            owner: owner.clone(),
            title: Title::clean(&format!(
                "{} the {}",
                sheet.name().as_str(),
                sheet.class().as_str()
            ))
            .into_string(),
            created_at: now,
            updated_at: now,
            turn: 1,
            usage: Default::default(),
        };
        let mut start = CampaignState::start(premise.as_str(), sheet.clone());
        start.approval = approval;
        start.agreement = agreement.clone();
        for change in &brought {
            start
                .journal
                .apply(change)
                .map_err(|error| ServiceError::invalid("brought", error))?;
        }
        let companions: Vec<StoredEvent> = companions
            .into_iter()
            .map(|sheet| StoredEvent {
                turn: 0,
                event: CampaignEvent::CompanionJoined { sheet },
            })
            .collect();
        for joined in &companions {
            start.apply(joined)?;
        }
        let projection = Projection::new(start, 1, updates);
        let opening_move = PlayerMove::Opening(premise.clone());
        let opening = self
            .narrate(projection, Memory::default(), &opening_move, rng)
            .await?;
        let started = StoredEvent {
            turn: 0,
            event: CampaignEvent::Started {
                premise: premise.as_str().to_owned(),
                sheet,
            },
        };
        let approval = approval.then_some(StoredEvent {
            turn: 0,
            event: CampaignEvent::ApprovalSet { on: true },
        });
        let agreed = (agreement != TableAgreement::default()).then_some(StoredEvent {
            turn: 0,
            event: CampaignEvent::TableAgreed { agreement },
        });
        let brought = (!brought.is_empty()).then_some(StoredEvent {
            turn: 0,
            event: CampaignEvent::Brought { changes: brought },
        });
        let events: Vec<StoredEvent> = std::iter::once(started)
            .chain(approval)
            .chain(agreed)
            .chain(brought)
            .chain(companions)
            .chain(
                opening
                    .events
                    .into_iter()
                    .map(|event| StoredEvent { turn: 1, event }),
            )
            .collect();
        self.store
            .create(&record, &events, &opening.story, &opening.state)
            .await?;
        let loaded = self.actions_if_possible(owner, &record.id, now).await?;
        Ok(summary(loaded.record))
    }

    /// Starts a campaign over: a new campaign from the same premise and starting character
    /// (both histories empty, a fresh opening scene), replacing the old one. The old log is
    /// deleted only once the new campaign exists.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "restart", campaign = %id))]
    pub async fn restart<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignSummary, ServiceError> {
        // One restart at a time: the log is read under the lease, so a second restart that
        // waited for it finds the campaign gone (not found) instead of copying it again.
        let _running = self.lease(owner, id).await?;
        let (_, events) = self.store.log(owner, id).await?;
        let Some(CampaignEvent::Started { premise, sheet }) = events.first().map(|e| &e.event)
        else {
            return Err(crate::campaign::state::ProjectionError::NotStarted.into());
        };
        let premise =
            MoveText::parse(premise).map_err(|error| ServiceError::invalid("premise", error))?;
        let approval = events.iter().rev().find_map(|stored| match stored.event {
            CampaignEvent::ApprovalSet { on } => Some(on),
            _ => None,
        });
        let agreement = events.iter().rev().find_map(|stored| match &stored.event {
            CampaignEvent::TableAgreed { agreement } => Some(agreement.clone()),
            _ => None,
        });
        let brought = events.iter().find_map(|stored| match &stored.event {
            CampaignEvent::Brought { changes } => Some(changes.clone()),
            _ => None,
        });
        let companions = events
            .iter()
            .filter(|stored| stored.turn == 0)
            .filter_map(|stored| match &stored.event {
                CampaignEvent::CompanionJoined { sheet } => Some(sheet.clone()),
                _ => None,
            })
            .collect();
        let start = Start {
            premise,
            sheet: sheet.clone(),
            approval: approval.unwrap_or(false),
            agreement: agreement.unwrap_or_default(),
            brought: brought.unwrap_or_default(),
            companions,
        };
        let created = self.begin(owner, start, now, rng, &mut |_| {}).await?;
        self.store.delete(owner, id).await?;
        Ok(created)
    }
}

/// What a campaign starts from.
struct Start {
    /// The premise.
    premise: MoveText,
    /// The starting character.
    sheet: CharacterSheet,
    /// Whether the game master's changes wait for the player.
    approval: bool,
    /// The game master's style and the table's lines and veils.
    agreement: TableAgreement,
    /// Journal entries brought from a card or a lorebook.
    brought: Vec<JournalChange>,
    /// The companions travelling with the hero, as created.
    companions: Vec<CharacterSheet>,
}

/// The companions of the form, made by the creation rules where the hero starts: at most
/// [`MAX_COMPANIONS`], each named unlike anyone else at the table.
fn companions(
    forms: &[CompanionForm],
    hero: &CharacterSheet,
) -> Result<Vec<CharacterSheet>, ServiceError> {
    let mut party = Party::default();
    forms
        .iter()
        .filter(|form| !form.name.trim().is_empty())
        .map(|form| {
            let draft = CharacterDraft {
                name: form.name.trim().to_owned(),
                class: form.class.clone(),
                ..CharacterDraft::default()
            };
            let sheet = draft
                .create(hero.location().clone())
                .map_err(|error| ServiceError::invalid("companion", error))?;
            let member = Member {
                role: Role::Companion,
                sheet: sheet.clone(),
            };
            party
                .join(member, hero.name().as_str())
                .map_err(|error| ServiceError::invalid("companion", error))?;
            Ok(sheet)
        })
        .collect()
}

/// The brought entries as journal notes, within the journal's room.
fn brought(entries: &[BroughtEntry]) -> Result<Vec<JournalChange>, ServiceError> {
    if entries.len() > MAX_ENTRIES {
        return Err(ServiceError::invalid(
            "brought",
            format!("a journal holds at most {MAX_ENTRIES} entries"),
        ));
    }
    entries
        .iter()
        .map(|entry| {
            Ok(JournalChange::Note {
                kind: entry.kind,
                name: JournalName::new(&entry.name)
                    .map_err(|error| ServiceError::invalid("brought", error))?,
                note: JournalNote::new(&entry.note)
                    .map_err(|error| ServiceError::invalid("brought", error))?,
            })
        })
        .collect()
}

/// The new-adventure form as a premise and a starting sheet.
pub(super) fn parse_form(form: &NewCampaign) -> Result<(MoveText, CharacterSheet), ServiceError> {
    let premise =
        MoveText::parse(&form.premise).map_err(|error| ServiceError::invalid("premise", error))?;
    if premise.as_str().chars().count() > MAX_PREMISE_CHARS {
        return Err(ServiceError::invalid(
            "premise",
            format!("at most {MAX_PREMISE_CHARS} characters"),
        ));
    }
    let start = LocationName::new("The beginning")
        .map_err(|error| ServiceError::invalid("location", error))?;
    let sheet = form
        .character
        .create(start)
        .map_err(|error| ServiceError::invalid("character", error))?;
    Ok((premise, sheet))
}

//! The SQL store's campaigns (the `CampaignStore` port). Tables: `campaigns` (one row each),
//! `events` (the log), and what is derived from the log: `snapshots` (the current state, with
//! the model's window a turn per row in `window_turns`, `sql_window`) and `story` (the entries
//! the player reads), with its passages in the search index (`sql_search`).

use std::sync::Arc;

use app::campaign::conversation::{SentRequest, TokenUsage};
use app::campaign::event::{CampaignEvent, StoredEvent};
use app::campaign::passage::{passages, Passage, SearchQuery, SearchScope};
use app::campaign::picture::PictureId;
use app::campaign::state::CampaignState;
use app::campaign::store::{
    Append, CampaignRecord, CampaignStore, Commit, Current, KeptPicture, StoreError,
    SNAPSHOT_VERSION,
};
use app::wire::view::StoryEntry;
use app::wire::{CampaignId, PlayerId};
use futures::future::BoxFuture;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::recent::Unsure;
use super::sql::{database, found, insert_rows, Backend, SqlStore, ROWS_PER_INSERT};
use super::sql_batch::{Batch, Bound, Statement};
use super::sql_recovery;
use super::sql_search::{clear_passages, write_passages};
use super::sql_trash::{self, in_trash};
use super::sql_window::{read_window, write_window, WINDOW_COLUMN};
use super::sql_writer::Writing;

fn record(row: &AnyRow) -> Result<CampaignRecord, StoreError> {
    let id: String = row.try_get("id").map_err(database)?;
    let owner: String = row.try_get("owner").map_err(database)?;
    let turn: i64 = row.try_get("turn").map_err(database)?;
    Ok(CampaignRecord {
        id: id.parse().map_err(database)?,
        owner: owner.parse().map_err(database)?,
        title: row.try_get("title").map_err(database)?,
        created_at: row.try_get("created_at").map_err(database)?,
        updated_at: row.try_get("updated_at").map_err(database)?,
        turn: u32::try_from(turn).map_err(database)?,
        usage: TokenUsage {
            prompt_tokens: tokens(row, "prompt_tokens")?,
            cached_tokens: tokens(row, "cached_tokens")?,
            completion_tokens: tokens(row, "completion_tokens")?,
        },
    })
}

/// A token count of a row (at most `u32::MAX`).
fn tokens(row: &AnyRow, column: &str) -> Result<u32, StoreError> {
    let count: i64 = row.try_get(column).map_err(database)?;
    Ok(u32::try_from(count.max(0)).unwrap_or(u32::MAX))
}

/// The snapshot of a row (its state and its window), if there is a readable one of this version.
fn snapshot(row: &AnyRow) -> Result<Option<Arc<CampaignState>>, StoreError> {
    let version: Option<i64> = row.try_get("version").map_err(database)?;
    let state: Option<String> = row.try_get("state").map_err(database)?;
    let Some(state) = state.filter(|_| version == Some(i64::from(SNAPSHOT_VERSION))) else {
        return Ok(None);
    };
    let (Ok(mut state), Some(context)) = (
        serde_json::from_str::<CampaignState>(&state),
        read_window(row)?,
    ) else {
        return Ok(None);
    };
    state.context = context;
    Ok(Some(Arc::new(state)))
}

/// The last request sent, if one is stored and readable (a request of an older format is not
/// worth failing a turn for).
fn last_request(row: &AnyRow) -> Result<Option<Arc<SentRequest>>, StoreError> {
    let request: Option<String> = row.try_get("last_request").map_err(database)?;
    Ok(request.and_then(|request| serde_json::from_str(&request).ok().map(Arc::new)))
}

/// The statements that append `(turn, event)`s after the campaign's last event, a batch of
/// rows per statement (each batch numbers its rows after the last one stored, read in the same
/// statement).
fn insert_events<'a>(
    id: &'a CampaignId,
    events: &[(u32, &CampaignEvent)],
) -> Result<Vec<Statement<'a>>, StoreError> {
    events
        .chunks(ROWS_PER_INSERT)
        .map(|batch| {
            let mut values = Vec::with_capacity(1 + 2 * batch.len());
            values.push(Bound::from(id.as_str()));
            for (turn, event) in batch {
                values.push(Bound::from(i64::from(*turn)));
                values.push(Bound::from(serde_json::to_string(event)?));
            }
            Ok(Statement::new(append_events(batch.len()), values))
        })
        .collect::<Result<_, serde_json::Error>>()
        .map_err(database)
}

/// The statement that appends `rows` events to campaign `$1`, numbered from its last `seq` on:
/// row n's turn and payload are `$2n` and `$2n+1` (the same text on both databases; the turn is
/// cast because PostgreSQL reads a bare parameter in `VALUES` as text).
fn append_events(rows: usize) -> String {
    let values: Vec<String> = (1..=rows)
        .map(|row| format!("({row}, CAST(${} AS BIGINT), ${})", 2 * row, 2 * row + 1))
        .collect();
    format!(
        "INSERT INTO events (campaign_id, seq, turn, payload) \
         SELECT CAST($1 AS TEXT), \
         COALESCE((SELECT MAX(seq) FROM events WHERE campaign_id = $1), 0) + v.column1, \
         v.column2, v.column3 \
         FROM (VALUES {}) AS v",
        values.join(", ")
    )
}

/// The statements that write the story entries that follow the first
/// `state.story_len - story.len()` ones, their passages in the search index, and the snapshot
/// (its window's turns that changed since `before`, the state as stored, if known); with the
/// count of those passages.
fn write_derived<'a>(
    id: &'a CampaignId,
    story: &[StoryEntry],
    (before, state): (Option<&CampaignState>, &CampaignState),
    request: Option<&SentRequest>,
) -> Result<(Vec<Statement<'a>>, usize), StoreError> {
    let first = i64::from(state.story_len) - story.len().min(state.story_len as usize) as i64;
    let mut statements: Vec<Statement<'a>> = story
        .chunks(ROWS_PER_INSERT)
        .zip((first..).step_by(ROWS_PER_INSERT))
        .map(|(batch, first)| {
            let sql = insert_rows("story (campaign_id, idx, entry)", 3, batch.len());
            let mut values = Vec::with_capacity(3 * batch.len());
            for (index, entry) in (first..).zip(batch) {
                values.push(Bound::from(id.as_str()));
                values.push(Bound::from(index));
                values.push(Bound::from(serde_json::to_string(entry)?));
            }
            Ok(Statement::new(sql, values))
        })
        .collect::<Result<_, serde_json::Error>>()
        .map_err(database)?;
    let first = u32::try_from(first).map_err(database)?;
    let passages = passages(story, first, state.turn);
    let indexed = passages.len();
    statements.extend(write_passages(id, passages));
    let before = before.map(|before| before.context.as_slice());
    statements.extend(write_window(id, before, &state.context)?);
    let state = serde_json::to_string(state).map_err(database)?;
    let request = request
        .map(serde_json::to_string)
        .transpose()
        .map_err(database)?;
    statements.push(Statement::new(
        "INSERT INTO snapshots (campaign_id, version, state, last_request) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (campaign_id) DO UPDATE SET version = excluded.version, \
         state = excluded.state, \
         last_request = COALESCE(excluded.last_request, snapshots.last_request)",
        vec![
            Bound::from(id.as_str()),
            Bound::from(i64::from(SNAPSHOT_VERSION)),
            Bound::from(state),
            Bound::MaybeText(request),
        ],
    ));
    Ok((statements, indexed))
}

/// The statements that delete the campaign's story log and its passages in the search index
/// (before a whole new one is written).
fn clear_story(id: &CampaignId) -> [Statement<'_>; 2] {
    [
        Statement::new(
            "DELETE FROM story WHERE campaign_id = $1",
            vec![Bound::from(id.as_str())],
        ),
        clear_passages(id),
    ]
}

/// The statement that removes the roll of the move in progress (its turn is being committed or
/// replaced).
fn clear_pending_roll(id: &CampaignId) -> Statement<'_> {
    Statement::new(
        "DELETE FROM pending_rolls WHERE campaign_id = $1",
        vec![Bound::from(id.as_str())],
    )
}

/// The statement that moves the campaign from `expected_turn` to `new_turn` with the tokens it
/// has now cost: it changes no row if the campaign is not the owner's at `expected_turn`.
fn advance<'a>(
    owner: &'a PlayerId,
    id: &'a CampaignId,
    (expected_turn, new_turn): (u32, u32),
    now: Option<i64>,
    usage: TokenUsage,
) -> Statement<'a> {
    Statement::new(
        "UPDATE campaigns SET turn = $1, updated_at = COALESCE($2, updated_at), \
         prompt_tokens = $6, cached_tokens = $7, completion_tokens = $8 \
         WHERE id = $3 AND owner = $4 AND turn = $5",
        vec![
            Bound::from(i64::from(new_turn)),
            Bound::MaybeInt(now),
            Bound::from(id.as_str()),
            Bound::from(owner.as_str()),
            Bound::from(i64::from(expected_turn)),
            Bound::from(i64::from(usage.prompt_tokens)),
            Bound::from(i64::from(usage.cached_tokens)),
            Bound::from(i64::from(usage.completion_tokens)),
        ],
    )
}

/// Why the owner's campaign `id` is not at `expected_turn`, if it is not: another turn (stale)
/// or no such campaign of theirs.
async fn not_at(
    tx: &mut AnyConnection,
    owner: &PlayerId,
    id: &CampaignId,
    expected_turn: u32,
) -> Result<Option<StoreError>, StoreError> {
    let current: Option<i64> =
        sqlx::query_scalar("SELECT turn FROM campaigns WHERE id = $1 AND owner = $2")
            .bind(id.as_str())
            .bind(owner.as_str())
            .fetch_optional(&mut *tx)
            .await
            .map_err(database)?;
    Ok(match current {
        Some(current) if current == i64::from(expected_turn) => None,
        Some(current) => Some(StoreError::Stale {
            current: u32::try_from(current).map_err(database)?,
        }),
        None => Some(StoreError::NotFound),
    })
}

impl SqlStore {
    /// Runs `batch`, whose first statement [advances](advance) the owner's campaign from
    /// `expected_turn`, as one transaction on `writing` and commits it: in one text on the one
    /// writing connection of a SQLite file, else in a transaction of sqlx's
    /// ([`advance_with`](Self::advance_with)). A campaign at another turn is stale, one not
    /// found is not found, and either way nothing is written.
    async fn commit_advancing(
        &self,
        writing: &mut Writing<'_>,
        (owner, id, expected_turn): (&PlayerId, &CampaignId, u32),
        batch: &Batch<'_>,
    ) -> Result<(), StoreError> {
        match writing.commit_text(batch).await {
            Some(Ok(())) => Ok(()),
            Some(Err(error)) => Err(not_at(writing, owner, id, expected_turn)
                .await?
                .unwrap_or_else(|| database(error))),
            None => {
                let mut tx = self.write(writing).await?;
                self.advance_with(&mut tx, (owner, id, expected_turn), batch)
                    .await?;
                tx.commit().await.map_err(database)
            }
        }
    }

    /// Runs `batch`, whose first statement [advances](advance) the owner's campaign from
    /// `expected_turn`, in the transaction `tx`: a campaign at another turn is stale (and the
    /// caller's transaction, dropped, rolls back whatever ran), one not found is not found.
    async fn advance_with(
        &self,
        tx: &mut AnyConnection,
        (owner, id, expected_turn): (&PlayerId, &CampaignId, u32),
        batch: &Batch<'_>,
    ) -> Result<(), StoreError> {
        match batch.run(tx, self.backend()).await {
            Ok(changed) if changed.first().is_some_and(|&rows| rows > 0) => Ok(()),
            Ok(_) => {
                Err(not_at(tx, owner, id, expected_turn)
                    .await?
                    .unwrap_or(StoreError::Stale {
                        current: expected_turn,
                    }))
            }
            // On SQLite the statements after a stale advance ran too, and may have failed
            // because of it (a story entry written twice); a failed statement leaves the
            // transaction usable there.
            Err(error) if self.backend() == Backend::Sqlite => {
                Err(not_at(tx, owner, id, expected_turn)
                    .await?
                    .unwrap_or_else(|| database(error)))
            }
            Err(error) => Err(database(error)),
        }
    }
}

impl CampaignStore for SqlStore {
    fn create<'a>(
        &'a self,
        record: &'a CampaignRecord,
        events: &'a [StoredEvent],
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut batch = Batch::default();
            batch.push(Statement::new(
                "INSERT INTO campaigns (id, owner, title, created_at, updated_at, turn, \
                 prompt_tokens, cached_tokens, completion_tokens) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                vec![
                    Bound::from(record.id.as_str()),
                    Bound::from(record.owner.as_str()),
                    Bound::from(record.title.as_str()),
                    Bound::from(record.created_at),
                    Bound::from(record.updated_at),
                    Bound::from(i64::from(record.turn)),
                    Bound::from(i64::from(state.usage.prompt_tokens)),
                    Bound::from(i64::from(state.usage.cached_tokens)),
                    Bound::from(i64::from(state.usage.completion_tokens)),
                ],
            ));
            let events: Vec<(u32, &CampaignEvent)> = events
                .iter()
                .map(|stored| (stored.turn, &stored.event))
                .collect();
            batch.extend(insert_events(&record.id, &events)?);
            let (derived, indexed) = write_derived(&record.id, story, (None, state), None)?;
            batch.extend(derived);
            let _indexing = self.indexing(indexed, false);
            let mut writing = self.writing().await?;
            let mut tx = self.write(&mut writing).await?;
            batch.run(&mut tx, self.backend()).await.map_err(database)?;
            tx.commit().await.map_err(database)?;
            self.forget(&record.id);
            Ok(())
        })
    }

    fn list<'a>(
        &'a self,
        owner: &'a PlayerId,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<CampaignRecord>, StoreError>> {
        Box::pin(async move {
            sqlx::query(
                "SELECT * FROM campaigns WHERE owner = $1 ORDER BY updated_at DESC, id \
                 LIMIT $2 OFFSET $3",
            )
            .bind(owner.as_str())
            .bind(i64::from(limit))
            .bind(i64::from(offset))
            .fetch_all(self.pool())
            .await
            .map_err(database)?
            .iter()
            .map(record)
            .collect()
        })
    }

    fn count<'a>(&'a self, owner: &'a PlayerId) -> BoxFuture<'a, Result<u32, StoreError>> {
        Box::pin(async move {
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM campaigns WHERE owner = $1")
                .bind(owner.as_str())
                .fetch_one(self.pool())
                .await
                .map_err(database)?;
            u32::try_from(count).map_err(database)
        })
    }

    fn current<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Current, StoreError>> {
        Box::pin(async move {
            let ticket = match self.recent().map(|recent| recent.get(owner, id)) {
                Some(Ok(kept)) => return Ok(kept),
                Some(Err(ticket)) => Some(ticket),
                None => None,
            };
            let sql = format!(
                "SELECT c.*, s.version, s.state, s.last_request, {WINDOW_COLUMN} FROM campaigns c \
                 LEFT JOIN snapshots s ON s.campaign_id = c.id WHERE c.id = $1 AND c.owner = $2"
            );
            let row = sqlx::query(&sql)
                .bind(id.as_str())
                .bind(owner.as_str())
                .fetch_optional(self.pool())
                .await
                .map_err(database)?
                .ok_or(StoreError::NotFound)?;
            let current = Current {
                record: record(&row)?,
                state: snapshot(&row)?,
                request: last_request(&row)?,
            };
            if let (Some(recent), Some(ticket)) = (self.recent(), ticket) {
                recent.fill(ticket, &current);
            }
            Ok(current)
        })
    }

    fn story<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        before: u32,
        limit: u32,
    ) -> BoxFuture<'a, Result<(u32, Vec<StoryEntry>), StoreError>> {
        Box::pin(async move {
            let start = before.saturating_sub(limit);
            let rows = sqlx::query(
                "SELECT s.entry FROM story s JOIN campaigns c ON c.id = s.campaign_id \
                 WHERE c.id = $1 AND c.owner = $2 AND s.idx >= $3 AND s.idx < $4 ORDER BY s.idx",
            )
            .bind(id.as_str())
            .bind(owner.as_str())
            .bind(i64::from(start))
            .bind(i64::from(before))
            .fetch_all(self.pool())
            .await
            .map_err(database)?;
            let entries = rows
                .iter()
                .map(|row| {
                    let entry: String = row.try_get("entry").map_err(database)?;
                    serde_json::from_str(&entry).map_err(database)
                })
                .collect::<Result<Vec<StoryEntry>, StoreError>>()?;
            Ok((start, entries))
        })
    }

    fn search<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        query: &'a SearchQuery,
        scope: SearchScope,
    ) -> BoxFuture<'a, Result<Vec<Passage>, StoreError>> {
        Box::pin(super::sql_search::search(self, owner, id, query, scope))
    }

    fn log<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(CampaignRecord, Vec<StoredEvent>), StoreError>> {
        Box::pin(async move {
            let mut tx = self
                .pool()
                .begin_with(self.backend().begin_consistent_read())
                .await
                .map_err(database)?;
            let row = sqlx::query("SELECT * FROM campaigns WHERE id = $1 AND owner = $2")
                .bind(id.as_str())
                .bind(owner.as_str())
                .fetch_optional(&mut *tx)
                .await
                .map_err(database)?
                .ok_or(StoreError::NotFound)?;
            let campaign = record(&row)?;
            let events =
                sqlx::query("SELECT turn, payload FROM events WHERE campaign_id = $1 ORDER BY seq")
                    .bind(id.as_str())
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(database)?
                    .iter()
                    .map(|row| {
                        let turn: i64 = row.try_get("turn").map_err(database)?;
                        let payload: String = row.try_get("payload").map_err(database)?;
                        Ok(StoredEvent {
                            turn: u32::try_from(turn).map_err(database)?,
                            event: serde_json::from_str(&payload).map_err(database)?,
                        })
                    })
                    .collect::<Result<_, StoreError>>()?;
            tx.commit().await.map_err(database)?;
            Ok((campaign, events))
        })
    }

    fn commit<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        expected_turn: u32,
        how: Append,
        commit: Commit<'a>,
        now: i64,
    ) -> BoxFuture<'a, Result<u32, StoreError>> {
        Box::pin(async move {
            let new_turn = match how {
                Append::NextTurn => expected_turn + 1,
                Append::SameTurn => expected_turn,
                Append::Replace { turn } => turn,
            };
            let unsure = Unsure::new(self.recent(), id);
            let written = async {
                let mut batch = Batch::default();
                let turns = (expected_turn, new_turn);
                batch.push(advance(owner, id, turns, Some(now), commit.state.usage));
                if let Append::Replace { .. } = how {
                    batch.extend(clear_story(id));
                }
                if how != Append::SameTurn {
                    batch.push(clear_pending_roll(id));
                }
                let events: Vec<(u32, &CampaignEvent)> = commit
                    .events
                    .iter()
                    .map(|event| (new_turn, event))
                    .collect();
                batch.extend(insert_events(id, &events)?);
                let states = (commit.before, commit.state.as_ref());
                let (derived, indexed) = write_derived(id, commit.story, states, commit.request)?;
                batch.extend(derived);
                let replaces = matches!(how, Append::Replace { .. });
                let _indexing = self.indexing(indexed, replaces);
                let mut writing = self.writing().await?;
                self.commit_advancing(&mut writing, (owner, id, expected_turn), &batch)
                    .await
            }
            .await;
            if written.is_ok() {
                unsure.succeeded(|recent| {
                    recent.committed(id, |kept| {
                        kept.record.turn = new_turn;
                        kept.record.updated_at = now;
                        kept.record.usage = commit.state.usage;
                        kept.state = Some(Arc::clone(commit.state));
                        if let Some(request) = commit.request {
                            kept.request = Some(Arc::new(request.clone()));
                        }
                    });
                    if how != Append::SameTurn {
                        recent.rolled(id, None);
                    }
                });
            }
            written.map(|()| new_turn)
        })
    }

    fn rebuild<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        turn: u32,
        story: &'a [StoryEntry],
        state: &'a CampaignState,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let written = async {
                let mut batch = Batch::default();
                batch.push(advance(owner, id, (turn, turn), None, state.usage));
                batch.extend(clear_story(id));
                let (derived, indexed) = write_derived(id, story, (None, state), None)?;
                batch.extend(derived);
                let _indexing = self.indexing(indexed, true);
                let mut writing = self.writing().await?;
                self.commit_advancing(&mut writing, (owner, id, turn), &batch)
                    .await
            }
            .await;
            self.forget(id);
            written
        })
    }

    fn rename<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        title: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let renamed =
                sqlx::query("UPDATE campaigns SET title = $1 WHERE id = $2 AND owner = $3")
                    .bind(title)
                    .bind(id.as_str())
                    .bind(owner.as_str())
                    .execute(&mut *self.writing().await?)
                    .await
                    .map_err(database)?
                    .rows_affected();
            self.forget(id);
            found(renamed)
        })
    }

    fn delete<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            // Its passages go with it.
            let _indexing = self.indexing(0, true);
            let deleted = sqlx::query("DELETE FROM campaigns WHERE id = $1 AND owner IN ($2, $3)")
                .bind(id.as_str())
                .bind(owner.as_str())
                .bind(in_trash(owner))
                .execute(&mut *self.writing().await?)
                .await
                .map_err(database)?
                .rows_affected();
            self.forget(id);
            found(deleted)
        })
    }

    fn trash<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let trashed = sql_trash::trash(self, owner, id, now).await;
            self.forget(id);
            trashed
        })
    }

    fn trashed<'a>(
        &'a self,
        owner: &'a PlayerId,
        since: i64,
    ) -> BoxFuture<'a, Result<Vec<(CampaignRecord, i64)>, StoreError>> {
        Box::pin(sql_trash::trashed(self, owner, since))
    }

    fn restore<'a>(
        &'a self,
        owner: &'a PlayerId,
        id: &'a CampaignId,
        since: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let restored = sql_trash::restore(self, owner, id, since).await;
            self.forget(id);
            restored
        })
    }

    fn purge(&self, before: i64) -> BoxFuture<'_, Result<u64, StoreError>> {
        Box::pin(async move {
            let purged = sql_trash::purge(self, before).await;
            self.forget_all();
            purged
        })
    }

    fn set_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
        digest: &'a str,
        now: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(sql_recovery::set(self, owner, digest, now))
    }

    fn recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        Box::pin(sql_recovery::made(self, owner))
    }

    fn revoke_recovery<'a>(
        &'a self,
        owner: &'a PlayerId,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(sql_recovery::revoke(self, owner))
    }

    fn redeem<'a>(
        &'a self,
        digest: &'a str,
        newcomer: &'a PlayerId,
    ) -> BoxFuture<'a, Result<Option<PlayerId>, StoreError>> {
        Box::pin(async move {
            let redeemed = sql_recovery::redeem(self, digest, newcomer).await;
            self.forget_all();
            redeemed
        })
    }

    fn put_picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a KeptPicture,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.insert_picture(id, picture))
    }

    fn picture<'a>(
        &'a self,
        id: &'a CampaignId,
        picture: &'a PictureId,
    ) -> BoxFuture<'a, Result<Option<KeptPicture>, StoreError>> {
        Box::pin(self.select_picture(id, picture))
    }

    fn pictures<'a>(
        &'a self,
        id: &'a CampaignId,
    ) -> BoxFuture<'a, Result<Vec<KeptPicture>, StoreError>> {
        Box::pin(self.select_pictures(id))
    }
}

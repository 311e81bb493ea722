//! The story's search index: a `story_text` row per passage of the story in effect, written and
//! removed in the same transaction as the story rows, and the search over it (SQLite's FTS5 with
//! BM25, PostgreSQL's full-text search; the only statements that differ between the two).

use app::campaign::passage::{Passage, PassageKind, SearchQuery, SearchScope};
use app::campaign::store::StoreError;
use app::wire::{CampaignId, PlayerId};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::sql::{database, insert_rows, Backend, SqlStore, ROWS_PER_INSERT};
use super::sql_batch::{Bound, Statement};
use super::word_counts::{weighed, Sorted};

/// The statements that index `passages` of the campaign's story.
pub(super) fn write_passages(id: &CampaignId, passages: Vec<Passage>) -> Vec<Statement<'_>> {
    let mut statements = Vec::new();
    let mut rows = passages.into_iter().peekable();
    while rows.peek().is_some() {
        let batch: Vec<Passage> = rows.by_ref().take(ROWS_PER_INSERT).collect();
        let sql = insert_rows(
            "story_text (campaign, idx, turn, kind, text)",
            5,
            batch.len(),
        );
        let mut values = Vec::with_capacity(5 * batch.len());
        for passage in batch {
            values.extend([
                Bound::from(id.as_str()),
                Bound::from(i64::from(passage.index)),
                Bound::from(i64::from(passage.turn)),
                Bound::from(passage.kind.as_str()),
                Bound::from(passage.text),
            ]);
        }
        statements.push(Statement::new(sql, values));
    }
    statements
}

/// The statement that removes the campaign's passages from the index (before a whole new story
/// is written).
pub(super) fn clear_passages(id: &CampaignId) -> Statement<'_> {
    Statement::new(
        "DELETE FROM story_text WHERE campaign = $1",
        vec![Bound::from(id.as_str())],
    )
}

/// The best passages for `query` of the owner's campaign in the `scope`.
pub(super) async fn search(
    store: &SqlStore,
    owner: &PlayerId,
    id: &CampaignId,
    query: &SearchQuery,
    scope: SearchScope,
) -> Result<Vec<Passage>, StoreError> {
    // One connection for both reads: on a SQLite file the writing one (waiting for the writer
    // before), whose page cache holds what the latest writes touched. Every write changes the
    // file, so a reading connection drops its cache at its next read and reads each page again;
    // and the writer is never given back to a pool to be pinged. Elsewhere, one of the pool's.
    let mut connection = store.writing().await?;
    let (sql, words) = match store.backend() {
        Backend::Sqlite => {
            let words = telling_words(store, &mut connection, query, scope).await?;
            if words.is_empty() {
                return Ok(Vec::new());
            }
            (
            "SELECT t.idx, t.turn, t.kind, t.text FROM story_search \
             JOIN story_text t ON t.id = story_search.rowid \
             JOIN campaigns c ON c.id = t.campaign \
             WHERE story_search MATCH $1 AND c.id = $2 AND c.owner = $3 AND t.turn < $4 \
             AND (t.kind <> 'move' OR $6 = 1) ORDER BY bm25(story_search, 0.0, 1.0), t.idx DESC LIMIT $5",
                fts5_match(id, &words, scope.moves),
            )
        }
        Backend::Postgres => (
            "SELECT t.idx, t.turn, t.kind, t.text FROM story_text t \
             JOIN campaigns c ON c.id = t.campaign \
             WHERE t.words @@ to_tsquery('simple', $1) AND c.id = $2 AND c.owner = $3 \
             AND t.turn < $4 AND (t.kind <> 'move' OR $6 = 1) \
             ORDER BY ts_rank(t.words, to_tsquery('simple', $1)) DESC, t.idx DESC LIMIT $5",
            query.words().join(" | "),
        ),
    };
    sqlx::query(sql)
        .bind(words)
        .bind(id.as_str())
        .bind(owner.as_str())
        .bind(i64::from(scope.before_turn))
        .bind(i64::from(scope.limit))
        .bind(i64::from(scope.moves))
        .fetch_all(&mut *connection)
        .await
        .map_err(database)?
        .iter()
        .map(passage)
        .collect()
}

/// The query's words to search for in `scope`: with [`SearchScope::telling_words_only`], those
/// BM25 weighs ([`weighed`]: all of them in a small index, else those in fewer than half of the
/// passages). Leaving out the others spares the ranking every passage they match (in a long
/// campaign, most of them). The index's highest row id stands for its count of passages (never
/// fewer), so no word BM25 weighs is left out. The kept counts ([`WordCounts`]) settle most
/// words; the rest are counted in one read, which also reads the index's size.
async fn telling_words(
    store: &SqlStore,
    connection: &mut AnyConnection,
    query: &SearchQuery,
    scope: SearchScope,
) -> Result<Vec<String>, StoreError> {
    let words = query.words();
    if !scope.telling_words_only {
        return Ok(words.to_vec());
    }
    let (sorted, ticket) = match store.word_counts() {
        Some(counts) => {
            let (sorted, ticket) = counts.sort(words);
            (sorted, Some(ticket))
        }
        None => (
            Sorted {
                unsettled: words.to_vec(),
                ..Sorted::default()
            },
            None,
        ),
    };
    let mut common = sorted.common;
    if !sorted.unsettled.is_empty() {
        let (passages, counted) = count_words(connection, &sorted.unsettled).await?;
        if let (Some(counts), Some(ticket)) = (store.word_counts(), ticket) {
            counts.learn(ticket, passages, &counted);
        }
        common.extend(
            counted
                .into_iter()
                .filter(|(_, docs)| !weighed(*docs, passages))
                .map(|(word, _)| word),
        );
    }
    Ok(words
        .iter()
        .filter(|word| !common.contains(word))
        .cloned()
        .collect())
}

/// The index's size (its highest row id) and how many of its passages hold each of `words` (a
/// word in none has a count of 0), read at one moment.
async fn count_words(
    connection: &mut AnyConnection,
    words: &[String],
) -> Result<(i64, Vec<(String, i64)>), StoreError> {
    let placeholders: Vec<String> = (1..=words.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT NULL AS term, COALESCE(MAX(id), 0) AS doc FROM story_text UNION ALL \
         SELECT term, doc FROM story_words WHERE term IN ({})",
        placeholders.join(", ")
    );
    let rows: Vec<(Option<String>, i64)> = words
        .iter()
        .fold(sqlx::query_as(&sql), |query, word| query.bind(word))
        .fetch_all(connection)
        .await
        .map_err(database)?;
    let mut passages = 0;
    let mut found = Vec::with_capacity(words.len());
    for (term, docs) in rows {
        match term {
            None => passages = docs,
            Some(term) => found.push((term, docs)),
        }
    }
    let counted = words
        .iter()
        .map(|word| {
            let docs = found
                .iter()
                .find(|(term, _)| term == word)
                .map_or(0, |(_, docs)| *docs);
            (word.clone(), docs)
        })
        .collect();
    Ok((passages, counted))
}

/// The FTS5 query: the campaign's rows holding any of the `words` in the `text` column. Its
/// id is the `campaign` column of its passages, and with an "m" after it of its moves
/// (migration 0015), which the query takes only with `moves`. Each word is quoted; a query's
/// words hold only letters and digits, so nothing in them is read as syntax.
fn fts5_match(id: &CampaignId, words: &[String], moves: bool) -> String {
    let words: Vec<String> = words.iter().map(|word| format!("\"{word}\"")).collect();
    let id = id.as_str();
    let campaign = if moves {
        format!("(\"{id}\" OR \"{id}m\")")
    } else {
        format!("\"{id}\"")
    };
    format!("campaign : {campaign} AND text : ({})", words.join(" OR "))
}

/// A stored passage of a kind this version does not know.
#[derive(Debug, thiserror::Error)]
#[error("a stored passage has an unknown kind {0:?}")]
struct UnknownKind(String);

fn passage(row: &AnyRow) -> Result<Passage, StoreError> {
    let index: i64 = row.try_get("idx").map_err(database)?;
    let turn: i64 = row.try_get("turn").map_err(database)?;
    let kind: String = row.try_get("kind").map_err(database)?;
    Ok(Passage {
        index: u32::try_from(index).map_err(database)?,
        turn: u32::try_from(turn).map_err(database)?,
        kind: PassageKind::parse(&kind).ok_or_else(|| StoreError::database(UnknownKind(kind)))?,
        text: row.try_get("text").map_err(database)?,
    })
}

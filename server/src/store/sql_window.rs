//! The model's window of each snapshot (its verbatim turns), kept a turn per row in
//! `window_turns` beside the snapshot's state: a commit writes only the turns that changed since
//! the state it was built on (a narration one new turn, the actions phase none), not the whole
//! window again.

use app::campaign::state::ContextTurn;
use app::campaign::store::StoreError;
use app::wire::CampaignId;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::sql::{database, insert_rows, ROWS_PER_INSERT};
use super::sql_batch::{Bound, Statement};

/// The column of a snapshot's read that holds its window: the rows' texts joined by commas, in
/// turn order (NULL when it has none). The same text on both databases (SQLite has
/// `string_agg` with `ORDER BY` since 3.44).
pub(super) const WINDOW_COLUMN: &str =
    "(SELECT string_agg(w.body, ',' ORDER BY w.turn) FROM window_turns w \
     WHERE w.campaign_id = c.id) AS window_body";

/// The window a snapshot's read found in [`WINDOW_COLUMN`] (`None`: rows this version cannot
/// read, so the snapshot is rebuilt like one of another version).
pub(super) fn read_window(row: &AnyRow) -> Result<Option<Vec<ContextTurn>>, StoreError> {
    let joined: Option<String> = row.try_get("window_body").map_err(database)?;
    Ok(match joined {
        Some(joined) => serde_json::from_str(&format!("[{joined}]")).ok(),
        None => Some(Vec::new()),
    })
}

/// The statements that bring campaign `id`'s stored window from `before` (`None`: unknown, so
/// every row is written again) to `after`: the turns no longer in it removed, those new or
/// changed written.
pub(super) fn write_window<'a>(
    id: &'a CampaignId,
    before: Option<&[ContextTurn]>,
    after: &[ContextTurn],
) -> Result<Vec<Statement<'a>>, StoreError> {
    let mut statements = Vec::new();
    let gone = before.is_none_or(|before| {
        before
            .iter()
            .any(|kept| !after.iter().any(|turn| turn.turn == kept.turn))
    });
    if gone {
        statements.push(remove_all_but(id, after));
    }
    let changed: Vec<&ContextTurn> = after
        .iter()
        .filter(|turn| before.is_none_or(|before| !before.contains(turn)))
        .collect();
    for batch in changed.chunks(ROWS_PER_INSERT) {
        let mut sql = insert_rows("window_turns (campaign_id, turn, body)", 3, batch.len());
        sql.push_str(" ON CONFLICT (campaign_id, turn) DO UPDATE SET body = excluded.body");
        let mut values = Vec::with_capacity(3 * batch.len());
        for turn in batch {
            values.push(Bound::from(id.as_str()));
            values.push(Bound::from(i64::from(turn.turn)));
            values.push(Bound::from(serde_json::to_string(turn).map_err(database)?));
        }
        statements.push(Statement::new(sql, values));
    }
    Ok(statements)
}

/// The statement that removes campaign `id`'s window rows of turns not in `kept`.
fn remove_all_but<'a>(id: &'a CampaignId, kept: &[ContextTurn]) -> Statement<'a> {
    let mut values = vec![Bound::from(id.as_str())];
    if kept.is_empty() {
        return Statement::new("DELETE FROM window_turns WHERE campaign_id = $1", values);
    }
    let placeholders: Vec<String> = (2..kept.len() + 2).map(|n| format!("${n}")).collect();
    values.extend(kept.iter().map(|turn| Bound::from(i64::from(turn.turn))));
    Statement::new(
        format!(
            "DELETE FROM window_turns WHERE campaign_id = $1 AND turn NOT IN ({})",
            placeholders.join(", ")
        ),
        values,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::campaign::conversation::Message;
    use rand::{rngs::StdRng, SeedableRng};

    fn id() -> CampaignId {
        CampaignId::random(&mut StdRng::seed_from_u64(7))
    }

    fn turn(turn: u32, text: &str) -> ContextTurn {
        ContextTurn {
            turn,
            messages: vec![Message::user(text)],
        }
    }

    fn debug(statements: &[Statement<'_>]) -> Vec<String> {
        statements.iter().map(|s| format!("{s:?}")).collect()
    }

    #[test]
    fn an_unknown_window_is_written_whole_and_everything_else_removed() {
        let id = id();
        let after = [turn(3, "a"), turn(4, "b")];
        let statements = write_window(&id, None, &after).unwrap();
        let texts = debug(&statements);
        assert_eq!(statements.len(), 2, "{texts:?}");
        assert!(texts[0].contains("NOT IN ($2, $3)"), "{}", texts[0]);
        assert!(texts[1].contains("Int(3)") && texts[1].contains("Int(4)"));
    }

    #[test]
    fn an_unchanged_window_writes_nothing() {
        let id = id();
        let window = [turn(3, "a"), turn(4, "b")];
        assert!(write_window(&id, Some(&window), &window)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_new_turn_is_written_alone_and_the_oldest_removed_when_it_slides_out() {
        let id = id();
        let before = [turn(3, "a"), turn(4, "b")];
        let grown = [turn(3, "a"), turn(4, "b"), turn(5, "c")];
        let written = write_window(&id, Some(&before), &grown).unwrap();
        let texts = debug(&written);
        assert_eq!(written.len(), 1, "{texts:?}");
        assert!(texts[0].contains("Int(5)") && !texts[0].contains("Int(4)"));
        let slid = [turn(4, "b"), turn(5, "c")];
        let written = write_window(&id, Some(&before), &slid).unwrap();
        let texts = debug(&written);
        assert_eq!(written.len(), 2, "{texts:?}");
        assert!(texts[0].contains("NOT IN ($2, $3)") && texts[0].contains("Int(5)"));
        assert!(texts[1].contains("INSERT") && texts[1].contains("Int(5)"));
    }

    #[test]
    fn a_turn_told_again_is_written_again() {
        let id = id();
        let before = [turn(3, "a"), turn(4, "b")];
        let retold = [turn(3, "a"), turn(4, "other")];
        let written = write_window(&id, Some(&before), &retold).unwrap();
        let texts = debug(&written);
        assert_eq!(written.len(), 1, "{texts:?}");
        assert!(texts[0].contains("other") && !texts[0].contains("Int(3)"));
    }
}

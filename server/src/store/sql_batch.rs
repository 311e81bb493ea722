//! A transaction's statements sent together: on SQLite in one round trip to the connection's
//! worker thread (its driver runs a text of several statements, numbering their parameters as
//! one list), on PostgreSQL one by one (its protocol prepares one statement at a time). Each
//! hand-off to SQLite's worker thread wakes two threads, which cost more processor time than
//! most of a turn's statements themselves.

use std::borrow::Cow;

use futures::TryStreamExt;
use sqlx::any::AnyArguments;
use sqlx::query::Query;
use sqlx::{Any, AnyConnection, Either, Executor};

use super::sql::Backend;

/// The most parameters one round trip to SQLite numbers (its limit on a parameter's number,
/// `SQLITE_MAX_VARIABLE_NUMBER`, is 32,766 since version 3.32).
const SQLITE_PARAMETERS: usize = 32_000;

/// A value bound to a statement's parameter.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Bound<'a> {
    /// An integer.
    Int(i64),
    /// An integer or NULL.
    MaybeInt(Option<i64>),
    /// A text.
    Text(Cow<'a, str>),
    /// A text or NULL.
    MaybeText(Option<String>),
}

impl<'a> From<&'a str> for Bound<'a> {
    fn from(text: &'a str) -> Self {
        Self::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Bound<'_> {
    fn from(text: String) -> Self {
        Self::Text(Cow::Owned(text))
    }
}

impl From<i64> for Bound<'_> {
    fn from(value: i64) -> Self {
        Self::Int(value)
    }
}

/// One statement: its text, with parameters `$1`, `$2`, … numbered from one, and their values.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Statement<'a> {
    sql: String,
    values: Vec<Bound<'a>>,
}

impl<'a> Statement<'a> {
    /// The statement `sql` with its parameters' `values`, in order.
    pub(super) fn new(sql: impl Into<String>, values: Vec<Bound<'a>>) -> Self {
        Self {
            sql: sql.into(),
            values,
        }
    }
}

/// Statements of one transaction, run in order. The first guards the rest: when it changes no
/// row, the caller rolls the transaction back (on PostgreSQL the rest are then not run at all).
#[derive(Debug, Default)]
pub(super) struct Batch<'a> {
    statements: Vec<Statement<'a>>,
}

impl<'a> Batch<'a> {
    /// Adds `statement` after the others.
    pub(super) fn push(&mut self, statement: Statement<'a>) {
        self.statements.push(statement);
    }

    /// Adds `statements` after the others.
    pub(super) fn extend(&mut self, statements: impl IntoIterator<Item = Statement<'a>>) {
        self.statements.extend(statements);
    }

    /// Runs the statements: the rows each changed, in order (on PostgreSQL, only the first's
    /// when it changed none).
    pub(super) async fn run(
        &self,
        connection: &mut AnyConnection,
        backend: Backend,
    ) -> Result<Vec<u64>, sqlx::Error> {
        match backend {
            Backend::Sqlite => self.run_together(connection).await,
            Backend::Postgres => self.run_each(connection).await,
        }
    }

    async fn run_each(&self, connection: &mut AnyConnection) -> Result<Vec<u64>, sqlx::Error> {
        let mut changed = Vec::with_capacity(self.statements.len());
        for statement in &self.statements {
            let query = bind_all(sqlx::query(&statement.sql), &statement.values);
            let rows = connection.execute(query).await?.rows_affected();
            changed.push(rows);
            if rows == 0 && changed.len() == 1 {
                break;
            }
        }
        Ok(changed)
    }

    async fn run_together(&self, connection: &mut AnyConnection) -> Result<Vec<u64>, sqlx::Error> {
        let mut changed = Vec::with_capacity(self.statements.len());
        for group in groups(&self.statements) {
            let mut text = Text::default();
            group.iter().for_each(|statement| text.push(statement));
            changed.extend(text.run(connection).await?);
        }
        Ok(changed)
    }

    /// The statements as one transaction in one text for SQLite, `BEGIN` to `COMMIT`, with a
    /// statement after the first that fails when the first changed no row, so that nothing
    /// after it runs (`None`: no statements, or too many parameters for one text).
    pub(super) fn transaction_text(&self) -> Option<Text<'_, 'a>> {
        let [first, rest @ ..] = self.statements.as_slice() else {
            return None;
        };
        if groups(&self.statements).len() != 1 {
            return None;
        }
        let mut text = Text {
            sql: "BEGIN;\n".into(),
            values: Vec::new(),
        };
        text.push(first);
        // `json` fails on text that is not JSON; `changes()` is the rows the first changed.
        text.sql
            .push_str("SELECT json(CASE WHEN changes() = 0 THEN 'stale' ELSE '0' END);\n");
        rest.iter().for_each(|statement| text.push(statement));
        text.sql.push_str("COMMIT;\n");
        Some(text)
    }
}

/// Statements in one text for SQLite, with their parameters renumbered in order.
#[derive(Debug, Default)]
pub(super) struct Text<'s, 'a> {
    sql: String,
    values: Vec<&'s Bound<'a>>,
}

impl<'s, 'a> Text<'s, 'a> {
    /// Adds `statement` after the others.
    fn push(&mut self, statement: &'s Statement<'a>) {
        self.sql
            .push_str(&renumbered(&statement.sql, self.values.len()));
        self.sql.push_str(";\n");
        self.values.extend(&statement.values);
    }

    /// Runs the text: the rows each of its statements changed, in order.
    pub(super) async fn run(self, connection: &mut AnyConnection) -> Result<Vec<u64>, sqlx::Error> {
        let query = self
            .values
            .into_iter()
            .fold(sqlx::query(&self.sql), |query, value| bind(query, value));
        let mut changed = Vec::new();
        let mut results = connection.fetch_many(query);
        while let Some(result) = results.try_next().await? {
            if let Either::Left(done) = result {
                changed.push(done.rows_affected());
            }
        }
        Ok(changed)
    }
}

/// The statements in runs whose parameters SQLite can number in one text.
fn groups<'s, 'a>(statements: &'s [Statement<'a>]) -> Vec<&'s [Statement<'a>]> {
    let mut groups = Vec::new();
    let (mut start, mut parameters) = (0, 0);
    for (index, statement) in statements.iter().enumerate() {
        if index > start && parameters + statement.values.len() > SQLITE_PARAMETERS {
            groups.push(&statements[start..index]);
            (start, parameters) = (index, 0);
        }
        parameters += statement.values.len();
    }
    if start < statements.len() {
        groups.push(&statements[start..]);
    }
    groups
}

/// `sql` with each parameter `$n` renamed `$(n + offset)`.
fn renumbered(sql: &str, offset: usize) -> Cow<'_, str> {
    if offset == 0 {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(number) => out.push_str(&(number + offset).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

type AnyQuery<'q> = Query<'q, Any, AnyArguments<'q>>;

fn bind_all<'q>(query: AnyQuery<'q>, values: &'q [Bound<'_>]) -> AnyQuery<'q> {
    values.iter().fold(query, bind)
}

fn bind<'q>(query: AnyQuery<'q>, value: &'q Bound<'_>) -> AnyQuery<'q> {
    match value {
        Bound::Int(value) => query.bind(*value),
        Bound::MaybeInt(value) => query.bind(*value),
        Bound::Text(text) => query.bind(text.as_ref()),
        Bound::MaybeText(text) => query.bind(text.as_deref()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_after_the_ones_before() {
        let sql = "INSERT INTO t (a, b) SELECT $1, $2 WHERE x = $1 AND y = '$'";
        assert_eq!(renumbered(sql, 0), sql);
        assert_eq!(
            renumbered(sql, 10),
            "INSERT INTO t (a, b) SELECT $11, $12 WHERE x = $11 AND y = '$'"
        );
    }

    #[test]
    fn statements_are_grouped_within_sqlites_parameter_limit() {
        let statement = |count: usize| Statement::new("", vec![Bound::Int(1); count]);
        let statements = [
            statement(20_000),
            statement(12_000),
            statement(1),
            statement(31_999),
            statement(2),
        ];
        let sizes: Vec<usize> = groups(&statements).iter().map(|g| g.len()).collect();
        assert_eq!(sizes, [2, 2, 1]);
        assert!(groups(&[]).is_empty());
    }
}

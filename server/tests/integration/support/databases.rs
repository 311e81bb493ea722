//! Fresh, empty databases of each backend for the tests that run on both: a SQLite file in a
//! temporary folder, or a new database in the PostgreSQL cluster the test command started.

use rand::Rng;
use server::store::Backend;
use sqlx::{Connection, Executor, PgConnection};

/// Each of the given `async fn(Backend)` tests, once on each backend: `sqlite::name` and
/// `postgres::name`.
macro_rules! on_both_backends {
    ($($test:ident),+ $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $test() {
                super::$test(::server::store::Backend::Sqlite).await;
            })+
        }
        mod postgres {
            $(#[tokio::test]
            async fn $test() {
                super::$test(::server::store::Backend::Postgres).await;
            })+
        }
    };
}

/// Where the test command's throwaway PostgreSQL cluster answers (its admin URL).
const POSTGRES_URL: &str = "DICEBOUND_TEST_POSTGRES_URL";

/// A database that exists for one test.
pub struct TestDatabase {
    /// Its URL, for `SqlStore::open` or a server's `DICEBOUND_DATABASE_URL`.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

/// A new, empty database of `backend`. Panics, saying how to get one, when the PostgreSQL
/// cluster is not there: a test of PostgreSQL never passes without PostgreSQL.
pub async fn fresh(backend: Backend) -> TestDatabase {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            TestDatabase {
                url: format!("sqlite://{}", dir.path().join("game.db").display()),
                _dir: Some(dir),
            }
        }
        Backend::Postgres => TestDatabase {
            url: postgres_database().await,
            _dir: None,
        },
    }
}

/// Creates a database with a random name in the cluster at `DICEBOUND_TEST_POSTGRES_URL`.
async fn postgres_database() -> String {
    let admin = std::env::var(POSTGRES_URL).unwrap_or_else(|_| {
        panic!(
            "{POSTGRES_URL} is not set: the PostgreSQL tests need a cluster. `make test` starts \
             a throwaway one; by hand: `export {POSTGRES_URL}=$(scripts/postgres.sh start \
             /tmp/pg)`"
        )
    });
    let name = format!("test_{:016x}", rand::rng().random::<u64>());
    let mut connection = PgConnection::connect(&admin)
        .await
        .unwrap_or_else(|error| panic!("cannot reach PostgreSQL at {POSTGRES_URL}: {error}"));
    connection
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .unwrap();
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database name");
    format!("{base}/{name}")
}

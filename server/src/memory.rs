//! Memory a burst of requests freed, given back to the system once the server is quiet.
//!
//! glibc's allocator keeps what its threads freed for their next allocations: after 1,000 games
//! were opened at once the server held 333 MB, of which `malloc_trim` gave back 268 MB. So the
//! router counts the requests that begin and the answers that end ([`Requests::count`]), and a
//! task trims the allocator after a second in which neither happened, once per quiet spell
//! ([`Requests::trim_when_quiet`]).

use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};

/// How long without a new request counts as quiet.
const QUIET: Duration = Duration::from_secs(1);

/// How many requests the server has begun plus how many answers it has finished sending (or
/// dropped), shared by the router and the trimming task.
#[derive(Clone, Debug, Default)]
pub struct Requests(Arc<AtomicU64>);

impl Requests {
    /// Middleware: counts the request, serves it, and counts its answer's end (a streamed
    /// answer ends after the handler has returned).
    pub async fn count(State(requests): State<Requests>, request: Request, next: Next) -> Response {
        requests.0.fetch_add(1, Ordering::Relaxed);
        let end = AnswerEnd(requests);
        next.run(request)
            .await
            .map(|body| Body::new(Counted { body, _end: end }))
    }

    /// Runs until dropped: looks every [`QUIET`], and gives the freed memory back when requests
    /// came since the last trim but none since the last look.
    pub async fn trim_when_quiet(self) {
        let mut quiet = Quiet::default();
        loop {
            tokio::time::sleep(QUIET).await;
            if quiet.look(self.0.load(Ordering::Relaxed)) {
                // It walks the allocator's free memory: off the request threads.
                if tokio::task::spawn_blocking(give_back).await.is_err() {
                    tracing::warn!("giving freed memory back failed");
                }
            }
        }
    }
}

/// An answer's body, unchanged (its size too, so a known length is still sent as such), whose
/// end is counted when it is dropped.
struct Counted {
    body: Body,
    _end: AnswerEnd,
}

impl http_body::Body for Counted {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Counts an answer's end when the answer's body is dropped.
#[derive(Debug)]
struct AnswerEnd(Requests);

impl Drop for AnswerEnd {
    fn drop(&mut self) {
        (self.0).0.fetch_add(1, Ordering::Relaxed);
    }
}

/// What the trimming task remembers between two looks.
#[derive(Debug, Default)]
struct Quiet {
    /// The count at the last look.
    seen: u64,
    /// The count at the last trim.
    trimmed: u64,
}

impl Quiet {
    /// Whether to trim now, the count of requests being `count`: none came since the last look,
    /// and some came since the last trim.
    fn look(&mut self, count: u64) -> bool {
        let trim = count == self.seen && count != self.trimmed;
        if trim {
            self.trimmed = count;
        }
        self.seen = count;
        trim
    }
}

/// Gives the pages the allocator holds free back to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "a foreign function; malloc_trim takes no pointer and is thread-safe"
)]
fn give_back() {
    // SAFETY: `malloc_trim` only reads its integer argument and locks the allocator's arenas
    // itself; glibc documents it as safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators give memory back on their own.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_once_per_quiet_spell_after_requests() {
        let mut quiet = Quiet::default();
        assert!(!quiet.look(0), "no request yet: nothing to give back");
        assert!(!quiet.look(5), "requests are coming");
        assert!(!quiet.look(9), "still coming");
        assert!(quiet.look(9), "a second without one");
        assert!(!quiet.look(9), "already trimmed in this spell");
        assert!(!quiet.look(10), "a new request");
        assert!(quiet.look(10), "quiet again");
    }

    use http_body::Body as _;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn the_router_counts_every_request_and_the_end_of_its_answer() {
        let requests = Requests::default();
        let router = axum::Router::new()
            .route("/", axum::routing::get(|| async { "ok" }))
            .layer(axum::middleware::from_fn_with_state(
                requests.clone(),
                Requests::count,
            ));
        for _ in 0..3 {
            let request = Request::new(axum::body::Body::empty());
            let response = tower::ServiceExt::oneshot(router.clone(), request)
                .await
                .expect("an answer");
            assert!(response.status().is_success());
            assert_eq!(
                response.body().size_hint().exact(),
                Some(2),
                "its length kept"
            );
            let counted = requests.0.load(Ordering::Relaxed);
            let body = response.into_body().collect().await.expect("a body");
            assert_eq!(body.to_bytes(), "ok");
            assert_eq!(requests.0.load(Ordering::Relaxed), counted + 1, "its end");
        }
        assert_eq!(requests.0.load(Ordering::Relaxed), 6);
    }
}

//! [`Resilient`]: an [`LlmPort`] that retries another one's transient failures.
//!
//! Rate limits, provider failures (5xx), connection failures and timeouts are retried with
//! jittered exponential backoff, a bounded number of times; a provider's `Retry-After` is honoured
//! (up to a cap). A refused request or an unreadable answer is never retried: it would fail the
//! same way again. A streamed reply is retried only while nothing of it has been passed on, so the
//! player never sees the same text twice.

use std::{sync::Arc, time::Duration};

use app::gm::{LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, ModelInfo};
use futures::{
    future::BoxFuture,
    stream::{self, BoxStream},
    StreamExt,
};
use rand::Rng;

/// How [`Resilient`] retries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt: at most `max_retries + 1` calls.
    pub max_retries: u32,
    /// The backoff before the first retry; it doubles with each further retry.
    pub base_delay: Duration,
    /// The longest backoff (before jitter).
    pub max_delay: Duration,
    /// The longest wait a provider's `Retry-After` may impose.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    /// Three retries after 0.5 s, 1 s and 2 s (jittered); `Retry-After` honoured up to 30 s.
    fn default() -> Self {
        Self {
            max_retries: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// Whether `error`, after `retries` retries so far, deserves another attempt.
    pub fn should_retry(&self, retries: u32, error: &LlmError) -> bool {
        retries < self.max_retries && error.is_retryable()
    }

    /// How long to wait before retry number `retry` (0 for the first) after `error`: the
    /// provider's `Retry-After` (capped at `max_retry_after`) if it gave one, else the backoff
    /// `base_delay * 2^retry` (capped at `max_delay`) with "equal jitter" — half of it fixed, the
    /// other half random — so that clients failing together do not retry together.
    pub fn delay(&self, retry: u32, error: &LlmError) -> Duration {
        if let LlmError::RateLimited {
            retry_after: Some(after),
        } = error
        {
            return (*after).min(self.max_retry_after);
        }
        let backoff = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry))
            .min(self.max_delay);
        let half = backoff / 2;
        half + rand::rng().random_range(Duration::ZERO..=backoff - half)
    }
}

/// An [`LlmPort`] that retries `P`'s transient failures (see the module documentation).
pub struct Resilient<P: ?Sized> {
    inner: Arc<P>,
    policy: RetryPolicy,
}

impl<P: LlmPort + ?Sized> Resilient<P> {
    /// Wraps `inner`, retrying as `policy` says.
    pub fn new(inner: Arc<P>, policy: RetryPolicy) -> Self {
        Self { inner, policy }
    }

    /// Waits before retry number `retry` after `error`.
    async fn pause(&self, retry: u32, error: &LlmError) {
        tokio::time::sleep(self.announce(retry, error)).await;
    }

    /// Logs retry number `retry` after `error`; the pause before it.
    fn announce(&self, retry: u32, error: &LlmError) -> Duration {
        let delay = self.policy.delay(retry, error);
        tracing::warn!(
            %error,
            retry = retry + 1,
            max_retries = self.policy.max_retries,
            delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
            "the model call failed; retrying"
        );
        delay
    }
}

impl<P: LlmPort + ?Sized> LlmPort for Resilient<P> {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        stream::unfold(Attempts::new(self, request), Attempts::step).boxed()
    }

    fn complete(&self, request: LlmRequest) -> BoxFuture<'_, Result<LlmResponse, LlmError>> {
        Box::pin(async move {
            let mut retries = 0;
            loop {
                match self.inner.complete(request.clone()).await {
                    Err(error) if self.policy.should_retry(retries, &error) => {
                        self.pause(retries, &error).await;
                        retries += 1;
                    }
                    outcome => return outcome,
                }
            }
        })
    }
}

/// The attempts at one streamed reply: a failed attempt is replaced until a chunk has been passed
/// on; from then on, the first error ends the reply.
struct Attempts<'a, P: ?Sized> {
    port: &'a Resilient<P>,
    request: LlmRequest,
    current: Option<BoxStream<'a, Result<LlmChunk, LlmError>>>,
    retries: u32,
    started: bool,
    ended: bool,
    /// The pause before the next attempt (the player was just told of it).
    pause: Option<Duration>,
}

impl<'a, P: LlmPort + ?Sized> Attempts<'a, P> {
    fn new(port: &'a Resilient<P>, request: LlmRequest) -> Self {
        Self {
            port,
            request,
            current: None,
            retries: 0,
            started: false,
            ended: false,
            pause: None,
        }
    }

    /// The next chunk (or the error that ends the reply), and the attempts for the rest.
    async fn step(mut self) -> Option<(Result<LlmChunk, LlmError>, Self)> {
        if let Some(delay) = self.pause.take() {
            tokio::time::sleep(delay).await;
            self.retries += 1;
        }
        while !self.ended {
            let port = self.port;
            let request = &self.request;
            let current = self
                .current
                .get_or_insert_with(|| port.inner.stream(request.clone()));
            match current.next().await {
                Some(Ok(chunk)) => {
                    self.started = true;
                    return Some((Ok(chunk), self));
                }
                Some(Err(error))
                    if !self.started && port.policy.should_retry(self.retries, &error) =>
                {
                    self.current = None;
                    let delay = port.announce(self.retries, &error);
                    self.pause = Some(delay);
                    let notice = LlmChunk::Retrying {
                        attempt: self.retries + 2,
                        attempts: port.policy.max_retries + 1,
                        wait_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                    };
                    return Some((Ok(notice), self));
                }
                Some(Err(error)) => {
                    self.ended = true;
                    return Some((Err(error), self));
                }
                None => self.ended = true,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(300),
            max_retry_after: Duration::from_secs(5),
        }
    }

    #[test]
    fn backoff_doubles_is_jittered_within_its_upper_half_and_capped() {
        let server = LlmError::Server {
            status: 503,
            message: String::new(),
        };
        for (retry, full) in [(0, 100), (1, 200), (2, 300), (10, 300), (u32::MAX, 300)] {
            let delay = policy().delay(retry, &server);
            let full = Duration::from_millis(full);
            assert!(delay >= full / 2 && delay <= full, "{retry}: {delay:?}");
        }
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let limited = |secs| LlmError::RateLimited {
            retry_after: Some(Duration::from_secs(secs)),
        };
        assert_eq!(policy().delay(0, &limited(2)), Duration::from_secs(2));
        assert_eq!(policy().delay(0, &limited(0)), Duration::ZERO);
        assert_eq!(policy().delay(0, &limited(600)), Duration::from_secs(5));
    }

    #[test]
    fn only_retryable_errors_are_retried_and_only_so_often() {
        let bad = LlmError::BadRequest {
            status: 400,
            message: String::new(),
        };
        assert!(!policy().should_retry(0, &bad));
        assert!(!policy().should_retry(0, &LlmError::InvalidResponse(String::new())));
        assert!(policy().should_retry(2, &LlmError::Timeout));
        assert!(!policy().should_retry(3, &LlmError::Timeout));
    }
}

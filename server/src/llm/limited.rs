//! A bound on the model calls running at once, across every player: a call waits for a permit
//! before it starts and holds it until its reply ends (a local model serves one call at a time;
//! an endpoint's bill grows with every call at once).

use std::sync::Arc;

use app::gm::{LlmChunk, LlmError, LlmPort, LlmRequest, LlmResponse, ModelInfo};
use futures::future::BoxFuture;
use futures::stream::{BoxStream, StreamExt};
use tokio::sync::Semaphore;

/// A model whose calls take a permit from a fixed number.
pub struct Limited {
    inner: Arc<dyn LlmPort>,
    permits: Arc<Semaphore>,
}

impl Limited {
    /// `inner` with at most `calls` calls running at once (at least one).
    pub fn new(inner: Arc<dyn LlmPort>, calls: usize) -> Self {
        Self {
            inner,
            permits: Arc::new(Semaphore::new(calls.max(1))),
        }
    }
}

impl LlmPort for Limited {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let permits = self.permits.clone();
        let reply = async move {
            match permits.acquire_owned().await {
                // The permit lives as long as the reply's stream.
                Ok(permit) => self
                    .inner
                    .stream(request)
                    .map(move |chunk| {
                        let _held = &permit;
                        chunk
                    })
                    .boxed(),
                Err(_) => futures::stream::iter([Err(LlmError::Connect(
                    "the server is shutting down".into(),
                ))])
                .boxed(),
            }
        };
        futures::stream::once(reply).flatten().boxed()
    }

    fn complete(&self, request: LlmRequest) -> BoxFuture<'_, Result<LlmResponse, LlmError>> {
        Box::pin(async move {
            let _permit = self
                .permits
                .acquire()
                .await
                .map_err(|_| LlmError::Connect("the server is shutting down".into()))?;
            self.inner.complete(request).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::gm::scripted::{ScriptedLlm, Step};
    use std::time::Duration;

    fn request() -> LlmRequest {
        LlmRequest {
            messages: vec![app::gm::Message::User {
                content: "hi".into(),
            }],
            ..LlmRequest::default()
        }
    }

    /// Answers whole replies only: a whole reply asked for as a stream is a failure.
    struct WholeOnly;

    impl LlmPort for WholeOnly {
        fn model_info(&self) -> ModelInfo {
            ModelInfo {
                model: "whole".into(),
                endpoint: "test".into(),
            }
        }

        fn stream(&self, _: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
            futures::stream::iter([Err(LlmError::Cut)]).boxed()
        }

        fn complete(&self, _: LlmRequest) -> BoxFuture<'_, Result<LlmResponse, LlmError>> {
            Box::pin(async { Err(LlmError::Timeout) })
        }
    }

    #[tokio::test]
    async fn a_whole_reply_is_asked_for_whole() {
        let llm = Limited::new(Arc::new(WholeOnly), 1);
        assert_eq!(llm.complete(request()).await, Err(LlmError::Timeout));
    }

    // Paused time: the clock stands still while anything can run and, once every task waits,
    // jumps to the next timer; the short wait below runs out only when the second call is
    // waiting with nothing left to run, however fast the machine is.
    #[tokio::test(start_paused = true)]
    async fn a_second_call_waits_until_the_first_reply_has_ended() {
        let llm = Limited::new(
            Arc::new(ScriptedLlm::from_steps(vec![
                Step::text("one"),
                Step::text("two"),
            ])),
            1,
        );
        let mut first = llm.stream(request());
        first
            .next()
            .await
            .expect("the first call starts")
            .expect("a chunk");
        let mut second = llm.stream(request());
        let waiting = tokio::time::timeout(Duration::from_millis(100), second.next()).await;
        assert!(waiting.is_err(), "the second call waits for the permit");
        while first.next().await.is_some() {}
        drop(first);
        let started = tokio::time::timeout(Duration::from_secs(3600), second.next()).await;
        assert!(matches!(started, Ok(Some(Ok(_)))), "{started:?}");
    }
}

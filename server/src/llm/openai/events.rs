//! Reading a streamed reply: server-sent events with an idle and an overall deadline, into the
//! port's chunks.

use std::{collections::VecDeque, time::Duration};

use app::gm::{LlmChunk, LlmError};
use eventsource_stream::Event;
use futures::{stream::BoxStream, StreamExt};
use tokio::time::{timeout_at, Instant};

use super::assembly::Assembler;

/// The earlier of "one idle timeout from now" and the overall deadline.
pub(super) fn idle_deadline(idle: Duration, deadline: Instant) -> Instant {
    (Instant::now() + idle).min(deadline)
}

/// What a streamed reply's connection gave next.
pub(super) enum Next {
    /// An event with data.
    Event(Event),
    /// The `[DONE]` marker: the provider has said all it will.
    Done,
    /// The connection closed.
    Closed,
}

/// Reads a streamed reply's events, with timeouts, into [`LlmChunk`]s.
pub(super) struct Reader {
    pub(super) events: BoxStream<'static, Result<Event, LlmError>>,
    pub(super) idle: Duration,
    pub(super) deadline: Instant,
    pub(super) assembler: Assembler,
    pub(super) pending: VecDeque<Result<LlmChunk, LlmError>>,
    pub(super) finished: bool,
}

impl Reader {
    pub(super) fn new(
        events: BoxStream<'static, Result<Event, LlmError>>,
        idle: Duration,
        deadline: Instant,
    ) -> Self {
        Self {
            events,
            idle,
            deadline,
            assembler: Assembler::default(),
            pending: Default::default(),
            finished: false,
        }
    }

    /// The next chunk (or error), and the reader for the rest; `None` at the end.
    pub(super) async fn step(mut self) -> Option<(Result<LlmChunk, LlmError>, Self)> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some((item, self));
            }
            if self.finished {
                return None;
            }
            let outcome = match self.next_event().await {
                Ok(Next::Event(event)) => self.assembler.absorb(&event.data),
                Ok(Next::Done) => self.finish(),
                // The connection closed before the provider said it had finished: the reply was
                // cut (a sentence cut mid-way must not become the story).
                Ok(Next::Closed) if self.assembler.finish_reason.is_none() => {
                    self.finished = true;
                    Err(LlmError::Cut)
                }
                Ok(Next::Closed) => self.finish(),
                // A provider that stops sending after its finish reason has said all it will.
                Err(LlmError::Timeout) if self.assembler.finish_reason.is_some() => self.finish(),
                Err(error) => Err(error),
            };
            match outcome {
                Ok(chunks) => self.pending.extend(chunks.into_iter().map(Ok)),
                Err(error) => {
                    self.finished = true;
                    self.pending.push_back(Err(error));
                }
            }
        }
    }

    /// The next event worth reading, within the idle and overall timeouts.
    async fn next_event(&mut self) -> Result<Next, LlmError> {
        loop {
            let until = idle_deadline(self.idle, self.deadline);
            let event = timeout_at(until, self.events.next())
                .await
                .map_err(|_| LlmError::Timeout)?
                .transpose()?;
            match event {
                None => return Ok(Next::Closed),
                Some(event) if event.data == "[DONE]" => return Ok(Next::Done),
                Some(event) if event.data.trim().is_empty() || event.event == "keepalive" => {}
                Some(event) => return Ok(Next::Event(event)),
            }
        }
    }

    /// The tool calls and `Done` that end the reply.
    pub(super) fn finish(&mut self) -> Result<Vec<LlmChunk>, LlmError> {
        self.finished = true;
        std::mem::take(&mut self.assembler).finish()
    }
}

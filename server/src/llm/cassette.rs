//! Recorded model exchanges (a VCR for the model: record once, replay in tests). [`Recording`] wraps any model and writes each
//! request with the chunks it streamed back to a cassette file; [`Replaying`] answers from a
//! cassette and fails loudly on a request it does not hold. With `DICEBOUND_LLM=record:PATH` the
//! game plays the usual local model and records it; with `replay:PATH` it plays the recording.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use app::gm::{LlmChunk, LlmError, LlmPort, LlmRequest, ModelInfo};
use futures::stream::{self, BoxStream, StreamExt};
use serde::{Deserialize, Serialize};

/// The cassette format this build writes and reads.
pub const CASSETTE_VERSION: u32 = 1;

/// A cassette: exchanges in the order they happened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cassette {
    /// The format version.
    pub version: u32,
    /// The model that was recorded.
    pub model: String,
    /// Every exchange.
    pub exchanges: Vec<Exchange>,
    /// What the recorded game changed, one line per change or roll (written by whoever records;
    /// a replay must give the same lines).
    #[serde(default)]
    pub ledger: Vec<String>,
}

/// One request and what came back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The request as the game master sent it.
    pub request: LlmRequest,
    /// The streamed reply.
    pub chunks: Vec<LlmChunk>,
    /// Why it failed instead, if it did (after `chunks` arrived).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// Why a cassette could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CassetteError {
    /// The file could not be read or written.
    #[error("cannot use the cassette file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a cassette of this version.
    #[error("{0} is not a cassette this build reads")]
    Format(PathBuf),
}

impl Cassette {
    /// Reads a cassette file.
    pub fn load(path: &Path) -> Result<Self, CassetteError> {
        let text = std::fs::read_to_string(path).map_err(|source| CassetteError::Io {
            path: path.to_owned(),
            source,
        })?;
        serde_json::from_str::<Self>(&text)
            .ok()
            .filter(|cassette| cassette.version == CASSETTE_VERSION)
            .ok_or_else(|| CassetteError::Format(path.to_owned()))
    }

    /// Writes it (to a temporary file first, then renamed into place).
    pub fn save(&self, path: &Path) -> Result<(), CassetteError> {
        let io = |source| CassetteError::Io {
            path: path.to_owned(),
            source,
        };
        let text = serde_json::to_string_pretty(self).map_err(|error| io(error.into()))?;
        let part = path.with_extension("part");
        std::fs::write(&part, text).map_err(io)?;
        std::fs::rename(&part, path).map_err(io)
    }
}

/// A model whose every exchange is recorded.
pub struct Recording {
    inner: std::sync::Arc<dyn LlmPort>,
    cassette: Mutex<Cassette>,
    path: Option<PathBuf>,
}

impl Recording {
    /// Records `inner`; with `path`, the cassette is saved there after every exchange.
    pub fn new(inner: std::sync::Arc<dyn LlmPort>, path: Option<PathBuf>) -> Self {
        let model = inner.model_info().model;
        Self {
            inner,
            cassette: Mutex::new(Cassette {
                version: CASSETTE_VERSION,
                model,
                ..Cassette::default()
            }),
            path,
        }
    }

    /// The cassette so far.
    pub fn cassette(&self) -> Cassette {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cassette> {
        self.cassette
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn keep(&self, exchange: Exchange) {
        let mut cassette = self.lock();
        cassette.exchanges.push(exchange);
        if let Some(path) = &self.path {
            if let Err(error) = cassette.save(path) {
                tracing::warn!(%error, "the cassette could not be saved");
            }
        }
    }
}

impl LlmPort for Recording {
    fn model_info(&self) -> ModelInfo {
        self.inner.model_info()
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let inner = self.inner.stream(request.clone());
        let exchange = Exchange {
            request,
            chunks: Vec::new(),
            failure: None,
        };
        stream::unfold(
            (inner, Some(exchange)),
            move |(mut inner, mut exchange)| async move {
                let open = exchange.as_mut()?;
                match inner.next().await {
                    Some(Ok(chunk)) => {
                        open.chunks.push(chunk.clone());
                        if matches!(chunk, LlmChunk::Done { .. }) {
                            self.keep(exchange.take()?);
                        }
                        Some((Ok(chunk), (inner, exchange)))
                    }
                    Some(Err(error)) => {
                        open.failure = Some(error.to_string());
                        self.keep(exchange.take()?);
                        Some((Err(error), (inner, None)))
                    }
                    None => None,
                }
            },
        )
        .boxed()
    }
}

/// A model that answers from a cassette: each request gets the reply recorded for an identical
/// request, in order; a request the cassette does not hold fails.
pub struct Replaying {
    model: String,
    replies: Mutex<HashMap<String, VecDeque<Exchange>>>,
}

impl Replaying {
    /// Plays `cassette`.
    pub fn new(cassette: Cassette) -> Self {
        let mut replies: HashMap<String, VecDeque<Exchange>> = HashMap::new();
        for exchange in cassette.exchanges {
            replies
                .entry(key(&exchange.request))
                .or_default()
                .push_back(exchange);
        }
        Self {
            model: cassette.model,
            replies: Mutex::new(replies),
        }
    }
}

/// What identifies a request: all of it, as JSON.
fn key(request: &LlmRequest) -> String {
    serde_json::to_string(request).unwrap_or_default()
}

impl LlmPort for Replaying {
    fn model_info(&self) -> ModelInfo {
        ModelInfo {
            model: self.model.clone(),
            endpoint: "a recorded cassette".to_owned(),
        }
    }

    fn stream(&self, request: LlmRequest) -> BoxStream<'_, Result<LlmChunk, LlmError>> {
        let exchange = self
            .replies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_mut(&key(&request))
            .and_then(VecDeque::pop_front);
        let Some(exchange) = exchange else {
            return stream::iter([Err(LlmError::BadRequest {
                status: 400,
                message: "the cassette holds no answer for this request".to_owned(),
            })])
            .boxed();
        };
        let failure = exchange.failure.map(|message| {
            Err(LlmError::Server {
                status: 500,
                message,
            })
        });
        stream::iter(exchange.chunks.into_iter().map(Ok).chain(failure)).boxed()
    }
}

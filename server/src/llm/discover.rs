//! Finds a model server already running on this computer: Ollama or llama.cpp's server on their
//! usual loopback ports, asked for their models over the OpenAI-compatible API.

use std::time::Duration;

use futures::future::join_all;
use serde::Deserialize;

/// A place a local model server usually listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalServer {
    /// Its name, for people (`Ollama`).
    pub name: &'static str,
    /// Its OpenAI-compatible base URL.
    pub base_url: String,
}

/// Ollama (port 11434) and llama.cpp's `llama-server` (port 8080), in that order of preference.
pub fn usual_local_servers() -> Vec<LocalServer> {
    vec![
        LocalServer {
            name: "Ollama",
            base_url: "http://127.0.0.1:11434/v1".into(),
        },
        LocalServer {
            name: "llama.cpp server",
            base_url: "http://127.0.0.1:8080/v1".into(),
        },
    ]
}

/// A server that answered, and the model it offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningServer {
    /// Which server it is.
    pub server: LocalServer,
    /// The first model it lists.
    pub model: String,
}

#[derive(Deserialize)]
struct ModelList {
    data: Vec<ModelEntry>,
}

#[derive(Deserialize)]
struct ModelEntry {
    id: String,
}

/// The first of `candidates` (in their order) that lists a chat model at `GET {base}/models`
/// within `wait`; all are asked at once. A server with no model (or only embedding models), or
/// anything that does not answer an OpenAI model list, is passed over.
pub async fn find_running(candidates: &[LocalServer], wait: Duration) -> Option<RunningServer> {
    let http = reqwest::Client::builder()
        .timeout(wait)
        .no_proxy()
        .build()
        .ok()?;
    let answers = join_all(candidates.iter().map(|server| {
        let http = &http;
        async move {
            let body = http
                .get(format!("{}/models", server.base_url))
                .send()
                .await
                .ok()?
                .error_for_status()
                .ok()?
                .bytes()
                .await
                .ok()?;
            let list: ModelList = serde_json::from_slice(&body).ok()?;
            // Ollama lists embedding models too; they cannot chat.
            let model = list
                .data
                .into_iter()
                .map(|entry| entry.id)
                .find(|id| !id.is_empty() && !id.contains("embed"))?;
            Some(RunningServer {
                server: server.clone(),
                model,
            })
        }
    }))
    .await;
    answers.into_iter().flatten().next()
}

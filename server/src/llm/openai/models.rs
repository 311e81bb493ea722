//! The models an endpoint lists: `GET {base}/models` (OpenAI's shape, which Ollama, llama.cpp,
//! vLLM, LM Studio and OpenRouter answer too), within the overall timeout.

use app::gm::LlmError;
use reqwest::header::{ACCEPT, AUTHORIZATION};
use serde::Deserialize;

use super::errors::transport_error;
use super::OpenAiAdapter;

/// The most model names kept from a list (OpenRouter lists hundreds).
pub const MAX_LISTED_MODELS: usize = 1_000;

/// `GET /models`'s answer.
#[derive(Deserialize)]
struct ModelList {
    data: Vec<ListedModel>,
}

/// One model of the list.
#[derive(Deserialize)]
struct ListedModel {
    id: String,
}

impl OpenAiAdapter {
    /// The names of the models the endpoint lists, sorted, at most [`MAX_LISTED_MODELS`].
    pub async fn list_models(&self) -> Result<Vec<String>, LlmError> {
        let url = format!(
            "{}/models",
            self.settings.base_url.trim().trim_end_matches('/')
        );
        let mut request = self.http.get(url).header(ACCEPT, "application/json");
        if let Some(authorization) = &self.authorization {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        let listing = async {
            let response = request.send().await.map_err(transport_error)?;
            if !response.status().is_success() {
                return Err(self.status_error(response).await);
            }
            response.bytes().await.map_err(transport_error)
        };
        let body = tokio::time::timeout(self.settings.overall_timeout, listing)
            .await
            .map_err(|_| LlmError::Timeout)??;
        let list: ModelList = serde_json::from_slice(&body).map_err(|_| {
            LlmError::InvalidResponse("the answer is not a list of models".to_owned())
        })?;
        let mut names: Vec<String> = list
            .data
            .into_iter()
            .map(|model| model.id)
            .filter(|id| !id.trim().is_empty())
            .take(MAX_LISTED_MODELS)
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }
}

//! Logging, request spans and process signals.
//!
//! Every request runs in a `request` span (a random id, the method, the path and, once known, a
//! short form of the player's id), and the service opens a span per phase of a turn with the
//! campaign's id, so one turn's log lines read together: as text, each line names its spans; as
//! JSON (`DICEBOUND_LOG_FORMAT=json`), each object carries them. No secret is ever a field.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines (the default).
    #[default]
    Text,
    /// One JSON object per line, with the spans it ran in.
    Json,
}

/// Installs the global `tracing` subscriber with `filter` (`RUST_LOG`'s syntax, from
/// [`Config::log_filter`](crate::config::Config::log_filter)) writing `format`; without a
/// filter, or with one that does not parse, the level is `info`.
pub fn init(filter: Option<&str>, format: LogFormat) {
    let filter = filter
        .and_then(|filter| EnvFilter::try_new(filter).ok())
        .unwrap_or_else(|| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().with_span_list(true).init(),
    }
}

/// Runs the request in its `request` span (see the module's docs); the player's short id is
/// recorded on it by the identity layer.
pub async fn request_span(request: Request, next: Next) -> Response {
    let span = tracing::info_span!(
        "request",
        id = %format!("{:012x}", rand::random::<u64>() >> 16),
        method = %request.method(),
        path = %request.uri().path(),
        player = tracing::field::Empty,
    );
    // Server functions run on tasks of their own: they find the span here (see the app's
    // `api::context::services`).
    let mut request = request;
    request.extensions_mut().insert(span.clone());
    next.run(request).instrument(span).await
}

/// Resolves when the process receives Ctrl-C (SIGINT) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();

    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

//! The connection loop: each accepted connection served by hyper with limits on how long the
//! client may take to send its request headers and how large they may be (a slow or bloated
//! client cannot hold the server's memory or connections), shut down gracefully on request. Each
//! request carries its connection's peer address as axum's `ConnectInfo<SocketAddr>`.

use std::{future::Future, io, net::SocketAddr, time::Duration};

use axum::{extract::ConnectInfo, Router};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower_http::add_extension::AddExtension;

/// How long a client may take to send a request's headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// The most bytes of request headers (HTTP/1 read buffer, HTTP/2 header list).
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// How long the requests in flight get to finish at shutdown.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` resolves, then lets the requests in flight
/// finish (for at most [`SHUTDOWN_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_buf_size(MAX_HEADER_BYTES);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(MAX_HEADER_BYTES as u32);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Streamed narration goes out a few words at a time: each piece is sent at once, not held
        // back for the client's acknowledgement of the one before (Nagle's algorithm).
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not turn off Nagle's algorithm");
        }
        let service = TowerToHyperService::new(AddExtension::new(
            router.clone(),
            ConnectInfo::<SocketAddr>(peer),
        ));
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "a connection ended with an error");
            }
        });
    }
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still running at shutdown were cut off");
    }
    Ok(())
}

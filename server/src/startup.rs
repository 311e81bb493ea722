//! Builds the axum application and binds its listener.

use std::{future::Future, io, net::SocketAddr};

use app::{shell, App};
use axum::Router;
use leptos::prelude::LeptosOptions;
use leptos_axum::{generate_route_list, LeptosRoutes};
use tokio::net::TcpListener;

use crate::config::Settings;

/// A bound, ready-to-run server.
pub struct Application {
    listener: TcpListener,
    router: Router,
}

impl Application {
    /// Binds the configured address and assembles the routes (pages, server functions, static files).
    pub async fn build(settings: Settings) -> io::Result<Self> {
        let listener = TcpListener::bind(settings.leptos.site_addr).await?;
        Ok(Self {
            listener,
            router: router(settings.leptos),
        })
    }

    /// The address actually bound (useful when the configured port was 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound TCP listener has a local address")
    }

    /// Serves requests until `shutdown` resolves, then finishes the requests in flight.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// The routes: every page of [`App`], the server functions, and the built site's files.
fn router(options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    Router::new()
        .leptos_routes(&options, routes, {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(options)
}

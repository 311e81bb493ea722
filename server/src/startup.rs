//! Builds the application: opens the database, picks the model, and assembles the routes with
//! the security layers.

use std::{future::Future, io, net::SocketAddr, sync::Arc};

use app::service::game_master::{ActiveMaster, MasterSwitch};
use app::service::live::LiveTurns;
use app::service::operator::{Operator, OperatorGate, Reach};
use app::service::{Dice, GameServices, RateLimits};
use app::{shell, App};
use axum::Router;
use leptos::prelude::{provide_context, LeptosOptions};
use leptos_axum::{generate_route_list, LeptosRoutes};
use tokio::net::TcpListener;
use tower_http::services::ServeDir;

use crate::config::Settings;
use crate::live_relay::{relayed_hub, LiveRelayError};
use crate::llm::bundled::BundledServer;
use crate::llm::choice::LlmChoice;
use crate::llm::endpoint_settings::Endpoint;
use crate::llm::master::{MasterRecipe, ENDPOINT_CALLS};
use crate::llm::office::Office;
use crate::llm::picture_office::PictureDesk;
use crate::llm::provider::{Provider, ProviderError};
use crate::memory::Requests;
use crate::security::body::limit_bodies;
use crate::security::client::{client_address, TrustedProxies};
use crate::security::headers;
use crate::security::host::{refuse_foreign_host, AllowedHosts};
use crate::security::identity::{player_identity, PlayerIdentity};
use crate::security::keys::{self, CookieSecrets, KeyError};
use crate::security::origin::refuse_cross_site;
use crate::store::{Backend, SqlStore};
use secrecy::ExposeSecret;

/// The stack of each of the server's threads: rendering a whole play page recurses deeply,
/// more than tokio's default 2 MiB in a debug build.
pub const THREAD_STACK: usize = 16 * 1024 * 1024;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The address could not be bound, or a file could not be read.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The database could not be opened.
    #[error("cannot open the campaign database: {0}")]
    Database(#[from] app::campaign::store::StoreError),
    /// No game master could be started.
    #[error(transparent)]
    Llm(#[from] ProviderError),
    /// The player cookie's key cannot be used.
    #[error(transparent)]
    CookieKey(#[from] KeyError),
    /// The live updates could not be shared with the other instances through PostgreSQL.
    #[error("cannot share live updates through the database: {0}")]
    LiveRelay(#[from] LiveRelayError),
}

/// A bound, ready-to-run server.
pub struct Application {
    listener: TcpListener,
    router: Router,
    bundled: Option<BundledServer>,
    requests: Requests,
}

impl Application {
    /// Opens the database, picks the model, binds the configured address and assembles the
    /// routes; the player cookie's key lives in a file beside the database (see
    /// [`Self::build_with_secrets`]).
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        Self::build_with_secrets(settings, &CookieSecrets::default()).await
    }

    /// As [`Self::build`], the player cookie's key derived from the configured secret when
    /// there is one; else it is read from (or created in) a file beside the database, or, for
    /// an in-memory database, made up for this run. A key other than the one the database was
    /// served with is refused (see [`crate::security::keys`]).
    pub async fn build_with_secrets(
        settings: Settings,
        cookies: &CookieSecrets,
    ) -> Result<Self, StartupError> {
        let store = Arc::new(SqlStore::open(settings.database_url.expose_secret()).await?);
        if store.backend().single_process() {
            store.clear_leases().await?;
        }
        // Bound first: a busy port is reported before the model is loaded.
        let listener = TcpListener::bind(settings.leptos.site_addr).await?;
        let (started, saved) = game_master(&store, &settings).await?;
        let info = started.master.llm.model_info();
        tracing::info!(
            model = %info.model,
            endpoint = %info.endpoint,
            source = %started.master.view.source,
            "the game master's model"
        );
        if let Some(advice) = &started.master.view.advice {
            tracing::info!("{advice}");
        }
        let identity = keys::identity(
            cookies,
            settings.database_url.expose_secret(),
            &store,
            settings.secure_cookies,
        )
        .await?;
        let guards = Guards {
            identity,
            hosts: AllowedHosts::new(&settings.public_hosts),
            proxies: settings.trusted_proxies.clone(),
        };
        let bundled = started.bundled;
        let live = live_hub(store.backend(), settings.database_url.expose_secret()).await?;
        let base = &settings.endpoint_env.base;
        let timeouts = (base.idle_timeout, base.overall_timeout);
        let pictures = Arc::new(PictureDesk::open(store.clone(), timeouts).await?);
        let parts = ServiceParts {
            store,
            pictures,
            master: started.master,
            saved,
            dice_seed: started.dice_seed,
            live,
        };
        let services = services(parts, &settings);
        let requests = Requests::default();
        Ok(Self {
            listener,
            router: router(settings.leptos, services, guards, requests.clone()),
            bundled,
            requests,
        })
    }

    /// The address actually bound (useful when the configured port was 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound TCP listener has a local address")
    }

    /// Serves requests until `shutdown` resolves, then finishes the requests in flight and
    /// stops the bundled model server, if one was started. Meanwhile the memory bursts of
    /// requests free is given back to the system when they end (see [`crate::memory`]).
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        let trimming = tokio::spawn(self.requests.trim_when_quiet());
        let served = crate::serve::serve(self.listener, self.router, shutdown).await;
        trimming.abort();
        if let Some(bundled) = self.bundled {
            bundled.stop().await;
            tracing::info!("the bundled model server stopped");
        }
        served
    }
}

/// The game master a server starts with, and what it needs kept.
struct Started {
    /// The game master.
    master: ActiveMaster,
    /// The bundled model's server, if it runs.
    bundled: Option<BundledServer>,
    /// The seed of the dice, when a scripted scenario sets one.
    dice_seed: Option<u64>,
}

/// The game master: the endpoint saved on the settings page if there is one (the environment's
/// fields over it), else the one the environment chooses; and the saved endpoint.
async fn game_master(
    store: &SqlStore,
    settings: &Settings,
) -> Result<(Started, Option<Endpoint>), StartupError> {
    let recipe = MasterRecipe {
        prompt: settings.prompt,
        spend: settings.spend,
    };
    if let Some(saved) = Endpoint::saved(store, &settings.endpoint_env).await? {
        match recipe
            .endpoint(saved.settings(&settings.endpoint_env), &saved)
            .ok()
        {
            Some(master) => {
                let started = Started {
                    master,
                    bundled: None,
                    dice_seed: None,
                };
                return Ok((started, Some(saved)));
            }
            None => tracing::warn!(
                "the endpoint saved on the settings page cannot be used; the environment's \
                 choice is"
            ),
        }
    }
    let mut provider = Provider::start(&settings.llm, settings.tools).await?;
    let calls = match settings.llm {
        LlmChoice::Endpoint(_)
        | LlmChoice::Scripted(_)
        | LlmChoice::Replay(_)
        | LlmChoice::Demo => ENDPOINT_CALLS,
        LlmChoice::Local { .. } | LlmChoice::Record { .. } => 1,
    };
    let started = Started {
        master: recipe.provided(&provider, calls),
        bundled: provider.bundled.take(),
        dice_seed: provider.dice_seed,
    };
    Ok((started, None))
}

/// The live hub: in this process for a SQLite file (one process serves it), relayed through
/// the database for PostgreSQL, where a campaign's followers may be on any instance.
async fn live_hub(backend: Backend, url: &str) -> Result<Arc<LiveTurns>, StartupError> {
    match backend {
        Backend::Sqlite => Ok(Arc::new(LiveTurns::default())),
        Backend::Postgres => Ok(relayed_hub(url).await?),
    }
}

/// What the game's services are made of, besides the settings.
struct ServiceParts {
    /// The campaign database.
    store: Arc<SqlStore>,
    /// The image model's office.
    pictures: Arc<PictureDesk>,
    /// The game master.
    master: ActiveMaster,
    /// The endpoint saved on the settings page, if any.
    saved: Option<Endpoint>,
    /// The seed of the dice, when a scripted scenario sets one.
    dice_seed: Option<u64>,
    /// The campaigns followed live.
    live: Arc<LiveTurns>,
}

/// The game's services over the store and the game master, the settings page's office beside
/// them.
fn services(parts: ServiceParts, settings: &Settings) -> GameServices {
    let ServiceParts {
        store,
        pictures,
        master,
        saved,
        dice_seed,
        live,
    } = parts;
    let current = (master.llm.clone(), master.gm.clone(), master.view.clone());
    let masters = Arc::new(MasterSwitch::new(master));
    let recipe = MasterRecipe {
        prompt: settings.prompt,
        spend: settings.spend,
    };
    let office = Office::new(
        store.clone(),
        settings.endpoint_env.clone(),
        recipe,
        masters.clone(),
        saved,
    );
    GameServices {
        in_flight: store.turns_in_flight(),
        tables: store.clone(),
        store,
        llm: current.0,
        gm: current.1,
        master: current.2,
        masters,
        operator: Arc::new(Operator {
            gate: OperatorGate::new(reach(settings), settings.admin_token.clone()),
            office: Arc::new(office),
            pictures,
        }),
        limits: Arc::new(RateLimits::new(settings.spend.limits)),
        live,
        pricing: settings.pricing,
        dice: Arc::new(dice_seed.map_or_else(Dice::default, Dice::seeded)),
        // Each request's own, set where a server function takes the services.
        span: tracing::Span::none(),
    }
}

/// Who can reach the server: only this computer when it is bound to a loopback address and
/// serves no public host name through no proxy.
fn reach(settings: &Settings) -> Reach {
    if settings.leptos.site_addr.ip().is_loopback()
        && settings.public_hosts.is_empty()
        && settings.trusted_proxies.is_empty()
    {
        Reach::ThisComputer
    } else {
        Reach::Others
    }
}

/// What the security layers of the routes are set up with.
struct Guards {
    /// The player cookie's key and settings.
    identity: PlayerIdentity,
    /// The host names served.
    hosts: AllowedHosts,
    /// The proxies whose `X-Forwarded-For` is believed.
    proxies: TrustedProxies,
}

/// The routes: every page of [`App`], the server functions (with the game's services), and the
/// built site's files (its assets precompressed; pages and answers compressed as they go out, all
/// but the streamed ones); a server function's error with the HTTP status of its kind
/// ([`crate::error_status`]). Every request is checked, outermost first: its host name, then (for a
/// write) that it comes from this site, then its body's size; then it gets its client's address
/// and a player identity. Every request is counted, for giving memory back ([`crate::memory`]).
fn router(
    options: LeptosOptions,
    services: GameServices,
    guards: Guards,
    requests: Requests,
) -> Router {
    let routes = generate_route_list(App);
    // The built assets, sent compressed where the build compressed them (`.br` and `.gz` beside each).
    let assets = std::path::Path::new(&*options.site_root).join(&*options.site_pkg_dir);
    let assets_path = format!("/{}", options.site_pkg_dir);
    Router::new()
        .merge(crate::live::routes(services.clone()))
        .merge(crate::storybook::routes(services.clone()))
        .merge(crate::pictures::routes(services.clone()))
        .nest_service(
            &assets_path,
            ServeDir::new(assets)
                .precompressed_br()
                .precompressed_gzip(),
        )
        .leptos_routes_with_context(
            &options,
            routes,
            move || provide_context(services.clone()),
            {
                let options = options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler(shell))
        // A server function's error leaves with its kind's status; inside the compression, so
        // it reads the error as sent.
        .layer(axum::middleware::from_fn(
            crate::error_status::error_statuses,
        ))
        .layer(axum::middleware::from_fn_with_state(
            guards.identity,
            player_identity,
        ))
        .layer(axum::middleware::from_fn_with_state(
            guards.proxies,
            client_address,
        ))
        // `limit_bodies` sets each route's limit; axum's own 2 MiB default would cut an import.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn(limit_bodies))
        // A refused request never gets an identity.
        .layer(axum::middleware::from_fn(refuse_cross_site))
        .layer(axum::middleware::from_fn_with_state(
            guards.hosts,
            refuse_foreign_host,
        ))
        .layer(axum::middleware::from_fn(headers::no_store))
        .layer(headers::compress_dynamic())
        .layer(axum::middleware::from_fn(crate::telemetry::request_span))
        .layer(axum::middleware::from_fn_with_state(
            requests,
            Requests::count,
        ))
        .layer(headers::nosniff())
        .layer(headers::no_referrer())
        .with_state(options)
}

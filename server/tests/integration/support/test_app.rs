//! The whole server on a random loopback port, as the black-box tests over HTTP start it: its
//! files (the SQLite database, the scripted model's scenario) in a folder of its own.

use std::net::SocketAddr;
use std::path::Path;

use app::api::StartCampaign;
use app::wire::view::{CampaignSummary, TurnUpdate};
use leptos::prelude::LeptosOptions;
use leptos::server_fn::ServerFn;
use server::config::Settings;
use server::llm::bounds::{PromptLimits, Spend};
use server::llm::choice::LlmChoice;
use server::llm::endpoint_settings::EndpointEnv;
use server::startup::Application;

/// The settings of a test server keeping its files in `dir`, its scripted model playing
/// `scenario` (written there), within the default bounds.
pub fn settings(dir: &Path, scenario: &str) -> Settings {
    let scenario_file = dir.join("scenario.json");
    std::fs::write(&scenario_file, scenario).unwrap();
    let leptos = LeptosOptions::builder()
        .output_name("dicebound")
        .site_root(dir.display().to_string())
        .site_addr(SocketAddr::from(([127, 0, 0, 1], 0)))
        .build();
    Settings {
        leptos,
        database_url: format!("sqlite://{}", dir.join("game.db").display()).into(),
        llm: LlmChoice::Scripted(scenario_file),
        tools: None,
        prompt: PromptLimits::default(),
        secure_cookies: false,
        spend: Spend::default(),
        public_hosts: Vec::new(),
        trusted_proxies: Default::default(),
        endpoint_env: EndpointEnv::unset(),
        pricing: Default::default(),
        admin_token: None,
    }
}

/// A running test server.
pub struct TestApp {
    /// Where it listens.
    pub addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl TestApp {
    /// The server of `settings`, keeping its files in `dir`.
    pub async fn serve(dir: tempfile::TempDir, settings: Settings) -> Self {
        let app = Application::build(settings)
            .await
            .expect("the server starts");
        let addr = app.local_addr();
        tokio::spawn(app.run_until_stopped(std::future::pending()));
        Self { addr, _dir: dir }
    }

    /// A server whose scripted model plays `scenario`, within the default bounds.
    pub async fn playing(scenario: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let settings = settings(dir.path(), scenario);
        Self::serve(dir, settings).await
    }

    /// The address of `path` on it.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Starts a campaign of a Ranger named `name` ("A gate") in `client`'s browser: the body of
    /// the streamed answer.
    pub async fn start_campaign(&self, client: &reqwest::Client, name: &str) -> String {
        let form =
            serde_json::json!({"form": {"premise": "A gate", "name": name, "class": "Ranger"}});
        let response = client
            .post(self.url(<StartCampaign as ServerFn>::PATH))
            .json(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    }

    /// Starts a campaign as [`Self::start_campaign`] does: the campaign's summary.
    pub async fn started(&self, client: &reqwest::Client, name: &str) -> CampaignSummary {
        match updates(&self.start_campaign(client, name).await).pop() {
            Some(TurnUpdate::Created { summary }) => summary,
            other => panic!("not created: {other:?}"),
        }
    }

    /// Posts `form` to the server function at `path` from `client`'s browser.
    pub async fn post_form(
        &self,
        client: &reqwest::Client,
        path: &str,
        form: &[(&str, &str)],
    ) -> reqwest::Response {
        client.post(self.url(path)).form(form).send().await.unwrap()
    }
}

/// Runs `test` on a runtime whose threads have the server's stack: rendering a whole play page
/// takes more stack than a test thread has in a debug build (see `main.rs`).
pub fn on_server_stack(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(server::startup::THREAD_STACK)
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}

/// A browser: a client that keeps the cookies it is given.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap()
}

/// The updates of a streamed answer's body, one JSON object a line.
pub fn updates(body: &str) -> Vec<TurnUpdate> {
    body.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

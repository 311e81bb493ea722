//! The bundled game master: llama.cpp's `llama-server` with SmolLM2-135M-Instruct, both
//! installed by `scripts/setup-llm.sh`, started by the app on a free loopback port and stopped
//! with it.
//!
//! One CPU thread (two threads collapse when anything else runs, such as a build), one request
//! slot, an 8k-token context (the model's own limit; the text-tools prompt alone is ~1.7k tokens).

use std::{
    collections::VecDeque,
    io,
    net::{Ipv4Addr, TcpListener},
    path::{Path, PathBuf},
    process::{ExitStatus, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, ChildStderr, Command},
    time::{sleep, Instant},
};

/// The bundled model's name, as the player is told and the server is asked.
pub const BUNDLED_MODEL: &str = "SmolLM2-135M-Instruct";

/// How many of llama-server's last log lines are kept for an error message.
const LOG_TAIL_LINES: usize = 12;

/// Where the bundled model is installed and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledSettings {
    /// The `llama-server` binary.
    pub server: PathBuf,
    /// The GGUF weights.
    pub model: PathBuf,
    /// CPU threads for generation.
    pub threads: u32,
    /// Context size in tokens.
    pub context_tokens: u32,
    /// The longest wait for the model to load.
    pub startup_timeout: Duration,
}

impl BundledSettings {
    /// `llama-server` and `model.gguf` in `dir` (where `setup-llm.sh` puts them).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            server: dir.join("llama-server"),
            model: dir.join("model.gguf"),
            threads: 1,
            context_tokens: 8192,
            startup_timeout: Duration::from_secs(60),
        }
    }

    /// The install folder: `DICEBOUND_LLM_HOME`, else `llm` in `DICEBOUND_TOOLS`, else
    /// `dicebound/tools/llm` in the user's cache folder (`XDG_CACHE_HOME` or `~/.cache`).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let dir = lookup("DICEBOUND_LLM_HOME")
            .map(PathBuf::from)
            .or_else(|| lookup("DICEBOUND_TOOLS").map(|tools| PathBuf::from(tools).join("llm")))
            .unwrap_or_else(|| {
                let cache = lookup("XDG_CACHE_HOME")
                    .map(PathBuf::from)
                    .or_else(|| lookup("HOME").map(|home| PathBuf::from(home).join(".cache")))
                    .unwrap_or_else(|| PathBuf::from(".cache"));
                cache.join("dicebound").join("tools").join("llm")
            });
        Self::in_dir(&dir)
    }
}

/// Why the bundled model could not be started.
#[derive(Debug, thiserror::Error)]
pub enum BundledError {
    /// A file `setup-llm.sh` installs is missing.
    #[error(
        "the bundled model is not installed ({0} is missing): run `make setup` or \
         `scripts/setup-llm.sh`, or set DICEBOUND_LLM_BASE_URL to use another model server"
    )]
    NotInstalled(PathBuf),
    /// The process could not be started, or no port was free.
    #[error("cannot start llama-server: {0}")]
    Spawn(#[from] io::Error),
    /// The process ended before it was ready.
    #[error("llama-server stopped while loading the model ({status}); its last words: {log}")]
    Exited {
        /// How it ended.
        status: ExitStatus,
        /// Its last log lines.
        log: String,
    },
    /// It did not become ready in time.
    #[error("llama-server was not ready after {0:?}")]
    NotReady(Duration),
}

/// A running `llama-server`, killed when this is dropped.
#[derive(Debug)]
pub struct BundledServer {
    child: Child,
    base_url: String,
}

impl BundledServer {
    /// Starts `llama-server` on a free loopback port and waits until it has loaded the model.
    pub async fn start(settings: &BundledSettings) -> Result<Self, BundledError> {
        for path in [&settings.server, &settings.model] {
            if !path.is_file() {
                return Err(BundledError::NotInstalled(path.clone()));
            }
        }
        let port = free_port()?;
        let mut command = Command::new(&settings.server);
        command
            .arg("--model")
            .arg(&settings.model)
            .args(["--alias", BUNDLED_MODEL, "--host", "127.0.0.1"])
            .args(["--port", &port.to_string()])
            .args(["--threads", &settings.threads.to_string()])
            .args(["--ctx-size", &settings.context_tokens.to_string()])
            .args(["--parallel", "1", "--jinja", "--no-webui"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        end_with_this_process(&mut command);
        let mut child = command.spawn()?;
        let log = Arc::new(Mutex::new(VecDeque::with_capacity(LOG_TAIL_LINES)));
        if let Some(stderr) = child.stderr.take() {
            tokio::spawn(forward_log(stderr, Arc::clone(&log)));
        }
        let root = format!("http://127.0.0.1:{port}");
        wait_until_ready(&mut child, &root, settings.startup_timeout, &log).await?;
        Ok(Self {
            child,
            base_url: format!("{root}/v1"),
        })
    }

    /// The OpenAI-compatible base URL, e.g. `http://127.0.0.1:41234/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Stops the server and waits for it to end.
    pub async fn stop(mut self) {
        if let Err(error) = self.child.kill().await {
            tracing::warn!(%error, "cannot stop llama-server");
        }
    }
}

/// Makes the kernel kill the child when the thread that started it ends, however it ends (a
/// crash, SIGKILL, a signal during startup), not only when the handle is dropped. The app starts
/// it from the main thread, so this is when the app's process ends.
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "pre_exec is unsafe; the one call below is sound (see SAFETY)"
)]
fn end_with_this_process(command: &mut Command) {
    // SAFETY: the closure runs in the forked child before exec and only calls prctl(2), which
    // is async-signal-safe; it allocates nothing and touches no lock.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Elsewhere only dropping the handle (or stopping the app) ends the child.
#[cfg(not(target_os = "linux"))]
fn end_with_this_process(_command: &mut Command) {}

/// A loopback port nothing listens on now.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// Passes llama-server's log on to ours (debug level), keeping the last lines for errors.
async fn forward_log(stderr: ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(target: "llama_server", "{line}");
        let mut tail = tail.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if tail.len() == LOG_TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// Polls `/health` until it answers 200, the process ends, or `limit` passes.
async fn wait_until_ready(
    child: &mut Child,
    root: &str,
    limit: Duration,
    log: &Mutex<VecDeque<String>>,
) -> Result<(), BundledError> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .no_proxy()
        .build()
        .map_err(|error| BundledError::Spawn(io::Error::other(error)))?;
    let deadline = Instant::now() + limit;
    let health = format!("{root}/health");
    loop {
        if let Some(status) = child.try_wait()? {
            // Let the log reader catch the last lines.
            sleep(Duration::from_millis(100)).await;
            let log = log.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            return Err(BundledError::Exited {
                status,
                log: log.iter().cloned().collect::<Vec<_>>().join(" | "),
            });
        }
        if let Ok(response) = http.get(&health).send().await {
            if response.status().is_success() {
                return Ok(());
            }
        }
        if Instant::now() >= deadline {
            return Err(BundledError::NotReady(limit));
        }
        sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::test_env::fake_env as env;

    #[test]
    fn the_install_folder_follows_the_setup_script() {
        let explicit = BundledSettings::from_lookup(env(&[
            ("DICEBOUND_LLM_HOME", "/opt/llm"),
            ("DICEBOUND_TOOLS", "/tools"),
        ]));
        assert_eq!(explicit.server, PathBuf::from("/opt/llm/llama-server"));
        assert_eq!(explicit.model, PathBuf::from("/opt/llm/model.gguf"));
        let tools = BundledSettings::from_lookup(env(&[("DICEBOUND_TOOLS", "/tools")]));
        assert_eq!(tools.server, PathBuf::from("/tools/llm/llama-server"));
        let home = BundledSettings::from_lookup(env(&[("HOME", "/home/ann")]));
        assert_eq!(
            home.model,
            PathBuf::from("/home/ann/.cache/dicebound/tools/llm/model.gguf")
        );
        let xdg = BundledSettings::from_lookup(env(&[("XDG_CACHE_HOME", "/c"), ("HOME", "/h")]));
        assert_eq!(
            xdg.server,
            PathBuf::from("/c/dicebound/tools/llm/llama-server")
        );
        assert_eq!(home.threads, 1);
    }

    #[tokio::test]
    async fn a_missing_install_says_how_to_install_it() {
        let dir = tempfile::tempdir().unwrap();
        let error = BundledServer::start(&BundledSettings::in_dir(dir.path()))
            .await
            .unwrap_err();
        assert!(
            matches!(&error, BundledError::NotInstalled(path) if path.ends_with("llama-server"))
        );
        assert!(error.to_string().contains("make setup"), "{error}");
    }

    #[tokio::test]
    async fn a_server_that_dies_while_loading_is_reported_with_its_log() {
        let dir = tempfile::tempdir().unwrap();
        let settings = BundledSettings::in_dir(dir.path());
        std::fs::write(&settings.model, b"not a model").unwrap();
        // A stand-in that complains and exits, as llama-server does with bad weights.
        std::fs::write(
            &settings.server,
            "#!/bin/sh\necho \"error: failed to load model '$2'\" >&2\nexit 3\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&settings.server, std::fs::Permissions::from_mode(0o755)).unwrap();
        let error = BundledServer::start(&settings).await.unwrap_err();
        match &error {
            BundledError::Exited { status, log } => {
                assert_eq!(status.code(), Some(3));
                assert!(log.contains("failed to load model"), "{log}");
            }
            other => panic!("expected Exited, got {other:?}"),
        }
    }
}

//! Starts the Dicebound server with the configuration from the environment.

use server::{config::Config, startup::Application, telemetry};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(server::startup::THREAD_STACK)
        .enable_all()
        .build()?
        .block_on(serve())
}

async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    // Into the environment first (the environment wins), so that every setting, RUST_LOG too,
    // may be written there.
    let dotenv = dotenvy::from_path(".env");
    let Config {
        settings,
        cookies,
        log_filter,
        log_format,
    } = Config::from_env()?;
    telemetry::init(log_filter.as_deref(), log_format);
    if dotenv.is_ok() {
        tracing::info!("read settings from .env");
    }
    let app = Application::build_with_secrets(settings, &cookies).await?;
    tracing::info!("Dicebound is listening on http://{}", app.local_addr());
    app.run_until_stopped(telemetry::shutdown_signal()).await?;
    tracing::info!("Dicebound stopped");
    Ok(())
}

//! Starts the Dicebound server with the configuration from the environment.

use server::{config::Settings, startup::Application, telemetry};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Before telemetry, so that RUST_LOG may be set there too.
    let dotenv = dotenvy::from_path(".env");
    telemetry::init();
    if dotenv.is_ok() {
        tracing::info!("read settings from .env");
    }
    let settings = Settings::from_env()?;
    let app = Application::build(settings).await?;
    tracing::info!("Dicebound is listening on http://{}", app.local_addr());
    app.run_until_stopped(telemetry::shutdown_signal()).await?;
    tracing::info!("Dicebound stopped");
    Ok(())
}

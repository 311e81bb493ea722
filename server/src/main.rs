//! Starts the Dicebound server with the configuration from the environment.

use server::{config::Settings, startup::Application, telemetry};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    telemetry::init();
    if let Ok(path) = dotenvy::dotenv() {
        tracing::info!("read settings from {}", path.display());
    }
    let settings = Settings::from_env()?;
    let app = Application::build(settings).await?;
    tracing::info!("Dicebound is listening on http://{}", app.local_addr());
    app.run_until_stopped(telemetry::shutdown_signal()).await?;
    tracing::info!("Dicebound stopped");
    Ok(())
}

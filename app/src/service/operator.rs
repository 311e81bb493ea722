//! The operator: who may see and change the game master's model settings (and the image
//! model's), and those use cases.
//!
//! On a server only this computer can reach (the default `make play`: bound to a loopback
//! address, no public host names, no trusted proxy), whoever uses it is the operator. A server
//! others can reach takes the admin token (`DICEBOUND_ADMIN_TOKEN`); without one configured, its
//! settings are changed only through the environment. After a few wrong tokens, every attempt
//! waits a little longer (doubling, at most five minutes), the right token included.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use subtle::ConstantTimeEq;

use super::game_master::{GameMasterOffice, OfficeError};
use super::pictures::PictureOffice;
use super::ServiceError;
use crate::wire::model_settings::{ConnectionReport, ModelSettingsForm, ModelSettingsView};
use crate::wire::picture_settings::{PictureSettingsForm, PictureSettingsView};

/// Wrong tokens allowed before attempts are delayed.
const FREE_FAILURES: u32 = 3;

/// The longest delay after wrong tokens.
const MAX_DELAY: Duration = Duration::from_secs(300);

/// Who can reach the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Only this computer.
    ThisComputer,
    /// Other computers too.
    Others,
}

/// The admin token. Never printed.
#[derive(Clone)]
pub struct AdminToken(String);

impl AdminToken {
    /// The token `text`, if it is long enough to resist guessing (16 characters or more).
    pub fn new(text: &str) -> Option<Self> {
        (text.trim().chars().count() >= 16).then(|| Self(text.trim().to_owned()))
    }
}

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Why a request may not touch the settings.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAllowed {
    /// The server is reachable by others and no admin token is configured.
    #[error(
        "This server can be reached from other computers, so its model settings can only be set \
         in its environment (or set DICEBOUND_ADMIN_TOKEN to change them here)."
    )]
    NoTokenConfigured,
    /// The request carried no token.
    #[error("Enter this server's admin token to see and change its model settings.")]
    TokenNeeded,
    /// The request carried a wrong token.
    #[error("That admin token is not this server's.")]
    WrongToken,
}

/// Wrong tokens so far, and until when attempts wait.
#[derive(Debug, Default)]
struct Failures {
    count: u32,
    locked_until: Option<Instant>,
}

/// Decides whether a request is the operator's.
#[derive(Debug)]
pub struct OperatorGate {
    reach: Reach,
    token: Option<AdminToken>,
    failures: Mutex<Failures>,
}

impl OperatorGate {
    /// The gate of a server with this `reach` and admin `token`.
    pub fn new(reach: Reach, token: Option<AdminToken>) -> Self {
        Self {
            reach,
            token,
            failures: Mutex::default(),
        }
    }

    /// Admits a request carrying `given` (the admin token typed, if any), now.
    pub fn admit(&self, given: Option<&str>) -> Result<(), ServiceError> {
        self.admit_at(given, Instant::now())
    }

    /// Admits a request carrying `given` at `now`.
    pub fn admit_at(&self, given: Option<&str>, now: Instant) -> Result<(), ServiceError> {
        if self.reach == Reach::ThisComputer {
            return Ok(());
        }
        let token = self.token.as_ref().ok_or(NotAllowed::NoTokenConfigured)?;
        let given = given.map(str::trim).filter(|given| !given.is_empty());
        let given = given.ok_or(NotAllowed::TokenNeeded)?;
        let mut failures = self
            .failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(until) = failures.locked_until.filter(|until| *until > now) {
            return Err(ServiceError::RateLimited {
                retry_after: until - now,
            });
        }
        if bool::from(given.as_bytes().ct_eq(token.0.as_bytes())) {
            *failures = Failures::default();
            return Ok(());
        }
        failures.count += 1;
        if failures.count >= FREE_FAILURES {
            let doublings = (failures.count - FREE_FAILURES).min(9);
            let delay = Duration::from_secs(1 << doublings).min(MAX_DELAY);
            failures.locked_until = Some(now + delay);
        }
        Err(NotAllowed::WrongToken.into())
    }
}

/// The operator's use cases: each admitted by the gate first.
pub struct Operator {
    /// Who may use them.
    pub gate: OperatorGate,
    /// The server's side of the settings.
    pub office: Arc<dyn GameMasterOffice>,
    /// The server's side of the image model's settings.
    pub pictures: Arc<dyn PictureOffice>,
}

impl Operator {
    /// The model settings in effect.
    pub async fn settings(&self, token: Option<&str>) -> Result<ModelSettingsView, ServiceError> {
        self.gate.admit(token)?;
        self.office.settings().await.map_err(office_error)
    }

    /// The models the form's endpoint lists.
    pub async fn models(
        &self,
        token: Option<&str>,
        form: ModelSettingsForm,
    ) -> Result<Vec<String>, ServiceError> {
        self.gate.admit(token)?;
        self.office.models(form).await.map_err(office_error)
    }

    /// One small call to the form's model.
    pub async fn test(
        &self,
        token: Option<&str>,
        form: ModelSettingsForm,
    ) -> Result<ConnectionReport, ServiceError> {
        self.gate.admit(token)?;
        self.office.test(form).await.map_err(office_error)
    }

    /// Saves the form and makes it the game master from the next request on; the change is
    /// logged (never the key).
    pub async fn save(
        &self,
        token: Option<&str>,
        form: ModelSettingsForm,
    ) -> Result<ModelSettingsView, ServiceError> {
        self.gate.admit(token)?;
        let saved = self.office.save(form).await.map_err(office_error)?;
        tracing::info!(
            endpoint = %saved.endpoint,
            model = %saved.model,
            key_set = saved.key_set,
            tools = saved.tools.name(),
            context_tokens = saved.context_tokens,
            "the game master's model settings changed"
        );
        Ok(saved)
    }
}

impl Operator {
    /// The image model's settings in effect.
    pub async fn picture_settings(
        &self,
        token: Option<&str>,
    ) -> Result<PictureSettingsView, ServiceError> {
        self.gate.admit(token)?;
        self.pictures.settings().await.map_err(office_error)
    }

    /// Saves the image model's form, used from the next request on; the change is logged
    /// (never the key).
    pub async fn save_picture_settings(
        &self,
        token: Option<&str>,
        form: PictureSettingsForm,
    ) -> Result<PictureSettingsView, ServiceError> {
        self.gate.admit(token)?;
        let saved = self.pictures.save(form).await.map_err(office_error)?;
        tracing::info!(
            endpoint = %saved.endpoint,
            model = %saved.model,
            key_set = saved.key_set,
            "the image model's settings changed"
        );
        Ok(saved)
    }
}

/// The office's error as the service's.
fn office_error(error: OfficeError) -> ServiceError {
    match error {
        OfficeError::Store(store) => store.into(),
        other => ServiceError::invalid(other.field(), other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "correct-horse-battery-staple";

    fn public() -> OperatorGate {
        OperatorGate::new(Reach::Others, AdminToken::new(TOKEN))
    }

    fn refusal(result: Result<(), ServiceError>) -> Option<NotAllowed> {
        match result {
            Err(ServiceError::NotAllowed(why)) => Some(why),
            _ => None,
        }
    }

    #[test]
    fn this_computer_needs_no_token() {
        let gate = OperatorGate::new(Reach::ThisComputer, None);
        assert!(gate.admit(None).is_ok());
        assert!(gate.admit(Some("anything")).is_ok());
    }

    #[test]
    fn a_reachable_server_takes_only_its_token() {
        let gate = public();
        assert_eq!(refusal(gate.admit(None)), Some(NotAllowed::TokenNeeded));
        assert_eq!(
            refusal(gate.admit(Some("  "))),
            Some(NotAllowed::TokenNeeded)
        );
        assert_eq!(
            refusal(gate.admit(Some("correct-horse"))),
            Some(NotAllowed::WrongToken)
        );
        assert!(gate.admit(Some(TOKEN)).is_ok());
        let closed = OperatorGate::new(Reach::Others, None);
        assert_eq!(
            refusal(closed.admit(Some(TOKEN))),
            Some(NotAllowed::NoTokenConfigured)
        );
    }

    #[test]
    fn a_short_token_is_not_a_token() {
        assert!(AdminToken::new("short").is_none());
        assert_eq!(format!("{:?}", AdminToken::new(TOKEN)), "Some([redacted])");
    }

    #[test]
    fn wrong_tokens_make_every_attempt_wait_longer() {
        let gate = public();
        let start = Instant::now();
        for _ in 0..FREE_FAILURES - 1 {
            assert_eq!(
                refusal(gate.admit_at(Some("wrong"), start)),
                Some(NotAllowed::WrongToken)
            );
        }
        // The third wrong token locks the gate for a second: even the right one waits.
        assert!(gate.admit_at(Some("wrong"), start).is_err());
        match gate.admit_at(Some(TOKEN), start) {
            Err(ServiceError::RateLimited { retry_after }) => {
                assert_eq!(retry_after, Duration::from_secs(1));
            }
            other => panic!("not delayed: {other:?}"),
        }
        // A wrong token after the wait doubles it.
        let later = start + Duration::from_secs(1);
        assert!(gate.admit_at(Some("wrong"), later).is_err());
        match gate.admit_at(Some(TOKEN), later) {
            Err(ServiceError::RateLimited { retry_after }) => {
                assert_eq!(retry_after, Duration::from_secs(2));
            }
            other => panic!("not delayed: {other:?}"),
        }
        // The right token after the wait opens it and forgets the failures.
        let after = later + Duration::from_secs(2);
        assert!(gate.admit_at(Some(TOKEN), after).is_ok());
        assert_eq!(
            refusal(gate.admit_at(Some("wrong"), after)),
            Some(NotAllowed::WrongToken)
        );
    }
}

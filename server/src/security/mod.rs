//! HTTP security middleware: the host names served, anonymous player identity, the client's
//! address (behind trusted proxies only, the forwarded one), cross-site request refusal, request
//! body limits and the security headers of every answer.
//!
//! Identity and refusal are plain axum middleware functions. The order matters: refuse foreign requests first,
//! so that a refused request never mints an identity.
//!
//! ```text
//! router
//!     .layer(axum::middleware::from_fn_with_state(identity, security::identity::player_identity))
//!     .layer(axum::middleware::from_fn(security::origin::refuse_cross_site)) // outermost
//! ```

pub mod body;
pub mod client;
pub mod headers;
pub mod host;
pub mod identity;
pub mod keys;
pub mod origin;

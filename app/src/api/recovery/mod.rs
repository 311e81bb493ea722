//! The recovery code's server functions: whether one is set, a new one made, one revoked, and one
//! redeemed in another browser.

pub mod has_recovery_code;
pub mod new_recovery_code;
pub mod redeem_recovery_code;
pub mod revoke_recovery_code;

pub use has_recovery_code::{has_recovery_code, HasRecoveryCode};
pub use new_recovery_code::{new_recovery_code, NewRecoveryCode};
pub use redeem_recovery_code::{redeem_recovery_code, RedeemRecoveryCode};
pub use revoke_recovery_code::{revoke_recovery_code, RevokeRecoveryCode};

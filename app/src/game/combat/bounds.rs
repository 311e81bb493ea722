//! The bounds of a fight (at most [`MAX_FOES`] foes and [`MAX_ALLIES`] allies, at most
//! [`MAX_ROUNDS`] rounds) and the fight requests the rules refuse ([`CombatError`]).

use crate::game::bestiary::DamageError;
use crate::game::text::TextError;

/// The most foes one fight may hold.
pub const MAX_FOES: usize = 12;
/// The most allies who may fight beside the hero.
pub const MAX_ALLIES: usize = 4;
/// The last round of a fight: at its end the foes still standing run.
pub const MAX_ROUNDS: u16 = 100;

/// A fight request the rules refuse; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CombatError {
    /// A fight is already on.
    #[error("a fight is already on (against {}); it must end before another starts", .foes.join(", "))]
    AlreadyRunning {
        /// The foes still standing in it.
        foes: Vec<String>,
    },
    /// No fight is on.
    #[error("no fight is on")]
    NoEncounter,
    /// A fight without foes.
    #[error("a fight needs at least one foe")]
    NoFoes,
    /// More than [`MAX_FOES`] foes.
    #[error("a fight holds at most {MAX_FOES} foes (got {count})")]
    TooManyFoes {
        /// How many were asked for.
        count: usize,
    },
    /// More than [`MAX_ALLIES`] allies.
    #[error("at most {MAX_ALLIES} allies fight beside the hero (got {count})")]
    TooManyAllies {
        /// How many were given.
        count: usize,
    },
    /// Two allies share a name.
    #[error("two allies are called {name}; each needs a name of its own")]
    SameAllyName {
        /// The name.
        name: String,
    },
    /// A move out of turn: the fight waits on someone else.
    #[error("it is not that turn: the fight waits on {waiting}")]
    NotYourTurn {
        /// Who the fight waits on (`you`, or an ally's name).
        waiting: String,
    },
    /// An action an ally cannot take (an ally attacks, dodges or passes).
    #[error("an ally's turn is an attack, a dodge or a pass, not {action}")]
    NotForAllies {
        /// The action asked for.
        action: &'static str,
    },
    /// No foe of that name in the fight.
    #[error("no foe \"{name}\" in this fight; standing: {}", .standing.join(", "))]
    NotInFight {
        /// The start of the name asked for.
        name: String,
        /// The foes standing.
        standing: Vec<String>,
    },
    /// A kind of foe with several standing.
    #[error("\"{name}\" could be {}; name one", .candidates.join(" or "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The foes it could mean.
        candidates: Vec<String>,
    },
    /// The foe is at 0 HP.
    #[error("{label} is already down")]
    FoeDown {
        /// The foe.
        label: String,
    },
    /// The foe ran.
    #[error("{label} has fled")]
    FoeFled {
        /// The foe.
        label: String,
    },
    /// The hero is at 0 HP.
    #[error("you are at 0 HP and cannot start a fight")]
    HeroDown,
    /// A label the rules cannot make (never for bestiary names).
    #[error(transparent)]
    Label(#[from] TextError),
    /// A weapon whose damage and bonus do not add up to valid damage.
    #[error("weapon damage: {0}")]
    Weapon(#[from] DamageError),
}

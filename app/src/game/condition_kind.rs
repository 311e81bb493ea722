//! The conditions the rules know by name (the SRD 5.1 list, in our own words, and the rules' own
//! Madness of a broken mind) and what each does
//! to the character's rolls: advantage or disadvantage on their ability checks and attacks, on
//! attacks against them, and whether they can act at all. Any other condition is a note with no
//! effect.

use serde::{Deserialize, Serialize};

use super::dice::Edge;

/// A condition the rules know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ConditionKind {
    /// Cannot see.
    Blinded,
    /// Won't harm whoever charmed them.
    Charmed,
    /// Cannot hear.
    Deafened,
    /// Worn out.
    Exhausted,
    /// Afraid of something in sight.
    Frightened,
    /// Held where they are.
    Grappled,
    /// Cannot act.
    Incapacitated,
    /// Cannot move or act.
    Paralyzed,
    /// Sick with poison.
    Poisoned,
    /// On the ground.
    Prone,
    /// Bound or entangled.
    Restrained,
    /// Reeling, unable to act.
    Stunned,
    /// Out cold.
    Unconscious,
    /// A mind broken at 0 sanity (see [`sanity_check`](super::sanity_check)).
    Madness,
}

/// What conditions do to rolls, all of them together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RollEffects {
    /// On the character's ability checks.
    pub checks: Edge,
    /// On the character's attacks.
    pub attacks: Edge,
    /// On attacks against the character.
    pub against: Edge,
    /// Whether something keeps them from acting.
    pub helpless: bool,
}

impl ConditionKind {
    /// Every condition the rules know.
    pub const ALL: [ConditionKind; 14] = [
        Self::Blinded,
        Self::Charmed,
        Self::Deafened,
        Self::Exhausted,
        Self::Frightened,
        Self::Grappled,
        Self::Incapacitated,
        Self::Paralyzed,
        Self::Poisoned,
        Self::Prone,
        Self::Restrained,
        Self::Stunned,
        Self::Unconscious,
        Self::Madness,
    ];

    /// The condition called `name` (ignoring case; `exhaustion` is `Exhausted`), if the rules
    /// know it.
    pub fn named(name: &str) -> Option<Self> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("exhaustion") {
            return Some(Self::Exhausted);
        }
        Self::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Blinded => "Blinded",
            Self::Charmed => "Charmed",
            Self::Deafened => "Deafened",
            Self::Exhausted => "Exhausted",
            Self::Frightened => "Frightened",
            Self::Grappled => "Grappled",
            Self::Incapacitated => "Incapacitated",
            Self::Paralyzed => "Paralyzed",
            Self::Poisoned => "Poisoned",
            Self::Prone => "Prone",
            Self::Restrained => "Restrained",
            Self::Stunned => "Stunned",
            Self::Unconscious => "Unconscious",
            Self::Madness => "Madness",
        }
    }

    /// What it does to rolls.
    pub fn effects(self) -> RollEffects {
        use Edge::{Advantage as Up, Disadvantage as Down, Normal as Even};
        let (checks, attacks, against, helpless) = match self {
            Self::Blinded => (Down, Down, Up, false),
            Self::Exhausted | Self::Madness => (Down, Even, Even, false),
            Self::Frightened | Self::Poisoned => (Down, Down, Even, false),
            Self::Prone | Self::Restrained => (Even, Down, Up, false),
            Self::Incapacitated => (Even, Even, Even, true),
            Self::Paralyzed | Self::Stunned | Self::Unconscious => (Even, Even, Up, true),
            Self::Charmed | Self::Deafened | Self::Grappled => (Even, Even, Even, false),
        };
        RollEffects {
            checks,
            attacks,
            against,
            helpless,
        }
    }

    /// What it does, in a few words for the character panel.
    pub fn summary(self) -> &'static str {
        match self {
            Self::Blinded => {
                "disadvantage on checks and attacks; attacks against you have advantage"
            }
            Self::Charmed => "you will not harm whoever charmed you",
            Self::Deafened => "you hear nothing",
            Self::Exhausted => "disadvantage on checks",
            Self::Frightened => "disadvantage on checks and attacks while its source is near",
            Self::Grappled => "you cannot move away",
            Self::Incapacitated => "you can take no actions",
            Self::Paralyzed | Self::Stunned | Self::Unconscious => {
                "you can take no actions; attacks against you have advantage"
            }
            Self::Poisoned => "disadvantage on checks and attacks",
            Self::Prone | Self::Restrained => {
                "disadvantage on attacks; attacks against you have advantage"
            }
            Self::Madness => "a broken mind: disadvantage on checks until it heals",
        }
    }
}

impl RollEffects {
    /// The effects of `kinds` together: any advantage and disadvantage on one roll cancel out.
    pub fn of(kinds: impl IntoIterator<Item = ConditionKind>) -> Self {
        let effects: Vec<RollEffects> = kinds.into_iter().map(ConditionKind::effects).collect();
        RollEffects {
            checks: Edge::combine(effects.iter().map(|e| e.checks)),
            attacks: Edge::combine(effects.iter().map(|e| e.attacks)),
            against: Edge::combine(effects.iter().map(|e| e.against)),
            helpless: effects.iter().any(|e| e.helpless),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_condition_is_known_by_its_name_in_any_case() {
        for kind in ConditionKind::ALL {
            assert_eq!(ConditionKind::named(kind.name()), Some(kind));
            assert_eq!(
                ConditionKind::named(&kind.name().to_uppercase()),
                Some(kind)
            );
        }
        assert_eq!(
            ConditionKind::named(" exhaustion "),
            Some(ConditionKind::Exhausted)
        );
        assert_eq!(ConditionKind::named("Blessed"), None);
    }

    #[test]
    fn each_condition_has_its_effect_on_rolls() {
        use Edge::{Advantage as Up, Disadvantage as Down, Normal as Even};
        let table = [
            (ConditionKind::Blinded, (Down, Down, Up, false)),
            (ConditionKind::Charmed, (Even, Even, Even, false)),
            (ConditionKind::Deafened, (Even, Even, Even, false)),
            (ConditionKind::Exhausted, (Down, Even, Even, false)),
            (ConditionKind::Frightened, (Down, Down, Even, false)),
            (ConditionKind::Grappled, (Even, Even, Even, false)),
            (ConditionKind::Incapacitated, (Even, Even, Even, true)),
            (ConditionKind::Paralyzed, (Even, Even, Up, true)),
            (ConditionKind::Poisoned, (Down, Down, Even, false)),
            (ConditionKind::Prone, (Even, Down, Up, false)),
            (ConditionKind::Restrained, (Even, Down, Up, false)),
            (ConditionKind::Stunned, (Even, Even, Up, true)),
            (ConditionKind::Unconscious, (Even, Even, Up, true)),
            (ConditionKind::Madness, (Down, Even, Even, false)),
        ];
        for (kind, (checks, attacks, against, helpless)) in table {
            let expected = RollEffects {
                checks,
                attacks,
                against,
                helpless,
            };
            assert_eq!(kind.effects(), expected, "{kind:?}");
            assert!(!kind.summary().is_empty());
        }
    }

    #[test]
    fn effects_add_up_and_cancel_out() {
        let none = RollEffects::of([]);
        assert_eq!(none, RollEffects::default());
        let poisoned_and_prone = RollEffects::of([ConditionKind::Poisoned, ConditionKind::Prone]);
        assert_eq!(poisoned_and_prone.checks, Edge::Disadvantage);
        assert_eq!(poisoned_and_prone.attacks, Edge::Disadvantage);
        assert_eq!(poisoned_and_prone.against, Edge::Advantage);
        assert!(!poisoned_and_prone.helpless);
        assert!(RollEffects::of([ConditionKind::Charmed, ConditionKind::Stunned]).helpless);
    }
}

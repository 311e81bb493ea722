//! Advantage and disadvantage: a d20 rolled twice, the higher or the lower kept. Several sources
//! add up to one edge: any advantage and any disadvantage cancel out, however many of each.

use serde::{Deserialize, Serialize};

use super::notation::DiceExpr;

/// Whether a d20 roll has advantage, disadvantage or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Edge {
    /// One d20.
    #[default]
    Normal,
    /// Two d20s, the higher kept.
    Advantage,
    /// Two d20s, the lower kept.
    Disadvantage,
}

impl Edge {
    /// What several sources add up to.
    pub fn combine(edges: impl IntoIterator<Item = Edge>) -> Edge {
        let (mut up, mut down) = (false, false);
        for edge in edges {
            up |= edge == Edge::Advantage;
            down |= edge == Edge::Disadvantage;
        }
        match (up, down) {
            (true, false) => Edge::Advantage,
            (false, true) => Edge::Disadvantage,
            _ => Edge::Normal,
        }
    }

    /// The d20 a roll with this edge rolls.
    pub fn d20(self) -> &'static str {
        match self {
            Edge::Normal => "1d20",
            Edge::Advantage => "2d20kh1",
            Edge::Disadvantage => "2d20kl1",
        }
    }

    /// `dice` with this edge: a single plain d20 (with its modifier) becomes two, the higher or
    /// lower kept; any other dice, or no edge, stay as they are.
    pub fn apply(self, dice: &DiceExpr) -> DiceExpr {
        let [term] = dice.terms() else {
            return dice.clone();
        };
        let plain_d20 =
            term.count() == 1 && term.sides() == 20 && term.keep().is_none() && !term.is_negative();
        if self == Edge::Normal || !plain_d20 {
            return dice.clone();
        }
        let notation = match dice.modifier() {
            0 => self.d20().to_owned(),
            modifier => format!("{}{modifier:+}", self.d20()),
        };
        DiceExpr::parse(&notation).unwrap_or_else(|_| dice.clone())
    }

    /// The word for it, for a badge or a line: `advantage`, `disadvantage`, or nothing.
    pub fn word(self) -> Option<&'static str> {
        match self {
            Edge::Normal => None,
            Edge::Advantage => Some("advantage"),
            Edge::Disadvantage => Some("disadvantage"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(notation: &str) -> DiceExpr {
        DiceExpr::parse(notation).unwrap()
    }

    #[test]
    fn an_edge_doubles_a_plain_d20_and_keeps_its_modifier() {
        assert_eq!(Edge::Disadvantage.apply(&dice("1d20")), dice("2d20kl1"));
        assert_eq!(Edge::Advantage.apply(&dice("1d20+3")), dice("2d20kh1+3"));
        assert_eq!(Edge::Disadvantage.apply(&dice("1d20-1")), dice("2d20kl1-1"));
        assert_eq!(Edge::Normal.apply(&dice("1d20+3")), dice("1d20+3"));
        for other in ["2d6", "1d8+1", "1d20+1d4", "2d20kh1"] {
            assert_eq!(
                Edge::Disadvantage.apply(&dice(other)),
                dice(other),
                "{other}"
            );
        }
    }

    #[test]
    fn advantage_and_disadvantage_cancel_out() {
        use Edge::*;
        assert_eq!(Edge::combine([]), Normal);
        assert_eq!(Edge::combine([Normal, Advantage]), Advantage);
        assert_eq!(Edge::combine([Disadvantage, Disadvantage]), Disadvantage);
        assert_eq!(
            Edge::combine([Advantage, Disadvantage, Disadvantage]),
            Normal
        );
    }
}

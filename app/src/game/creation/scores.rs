//! Six attribute scores checked under the way they were chosen: the standard array rearranged,
//! or point-buy within its budget, each score 8 to 15.

use super::{CreationError, ScoreMethod, POINT_BUY_BUDGET, STANDARD_ARRAY};
use crate::game::attributes::{Attribute, AttributeScore, Attributes};

/// The points a point-buy score costs, or `None` outside 8..=15.
pub fn point_cost(score: i64) -> Option<u32> {
    match score {
        8..=13 => u32::try_from(score - 8).ok(),
        14 => Some(7),
        15 => Some(9),
        _ => None,
    }
}

/// Checks six scores under `method`.
pub fn check_scores(method: ScoreMethod, scores: &[i64]) -> Result<Attributes, CreationError> {
    if scores.len() != 6 {
        return Err(CreationError::ScoreCount {
            count: scores.len(),
        });
    }
    match method {
        ScoreMethod::StandardArray => {
            let mut sorted = scores.to_vec();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            if sorted != STANDARD_ARRAY.map(i64::from) {
                return Err(CreationError::NotTheArray);
            }
        }
        ScoreMethod::PointBuy => {
            let mut spent = 0;
            for (attribute, value) in Attribute::ALL.into_iter().zip(scores) {
                spent += point_cost(*value).ok_or(CreationError::PointBuyRange {
                    attribute,
                    value: *value,
                })?;
            }
            if spent > POINT_BUY_BUDGET {
                return Err(CreationError::OverBudget { spent });
            }
        }
    }
    Ok(attributes_from(scores))
}

/// Scores in sheet order as attributes, each clamped into 1..=30 (missing ones 10).
pub fn attributes_from(scores: &[i64]) -> Attributes {
    let mut attributes = Attributes::default();
    for (attribute, value) in Attribute::ALL.into_iter().zip(scores) {
        attributes.set(attribute, AttributeScore::clamped(*value));
    }
    attributes
}

//! What a story cost, as the home page and the inspector write it.

use crate::wire::view::SpendView;

/// `12,345 tokens, 2 pictures ($0.0123)`: what a story has cost, the cost when the operator set
/// prices.
pub fn spend_text(spend: &SpendView) -> String {
    let tokens = spend.prompt.saturating_add(spend.completion);
    let cached = if spend.cached > 0 {
        format!(", {} cached", thousands(spend.cached))
    } else {
        String::new()
    };
    let cost = spend
        .cost
        .as_ref()
        .map(|cost| format!(" ({cost})"))
        .unwrap_or_default();
    let pictures = match spend.pictures {
        0 => String::new(),
        1 => ", 1 picture".to_owned(),
        n => format!(", {n} pictures"),
    };
    format!("{} tokens{cached}{pictures}{cost}", thousands(tokens))
}

/// `12345` as `12,345`.
fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storys_cost_reads_in_thousands_with_its_price() {
        let spend = SpendView {
            prompt: 12_000,
            cached: 1_500,
            completion: 345,
            cost: Some("$0.0123".into()),
            pictures: 0,
        };
        assert_eq!(spend_text(&spend), "12,345 tokens, 1,500 cached ($0.0123)");
        let drawn = SpendView {
            pictures: 2,
            ..spend
        };
        assert_eq!(
            spend_text(&drawn),
            "12,345 tokens, 1,500 cached, 2 pictures ($0.0123)"
        );
        assert_eq!(spend_text(&SpendView::default()), "0 tokens");
    }
}

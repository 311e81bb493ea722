//! The playtest's report: each persona's tallies and their total, saved as JSON beside earlier
//! reports, and printed as one table with a column per model so that two models can be compared.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::pace::runs_text;
use crate::tally::Tally;

/// Prices of a million tokens, to put a cost on a turn (an operator's own figures; 0 if unset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    /// A million prompt tokens not read from the cache.
    pub prompt: f64,
    /// A million prompt tokens read from the provider's cache.
    pub cached: f64,
    /// A million completion tokens.
    pub completion: f64,
}

/// One persona's game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PersonaTally {
    /// The persona's name.
    pub persona: String,
    /// Its counts.
    pub tally: Tally,
}

/// One model's playtest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The model's name.
    pub model: String,
    /// Where it runs, as the player is told.
    pub source: String,
    /// Turns each persona played (after the opening scene).
    pub turns_per_persona: usize,
    /// The whole playtest's time, in seconds.
    pub seconds: f64,
    /// The prices the cost was reckoned at.
    pub prices: Prices,
    /// Each persona's game.
    pub personas: Vec<PersonaTally>,
    /// All of them together.
    pub total: Tally,
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The folder or the file could not be written.
    #[error("cannot write the playtest report: {0}")]
    Write(#[from] std::io::Error),
    /// The report could not be put into JSON.
    #[error("cannot encode the playtest report: {0}")]
    Encode(#[from] serde_json::Error),
}

impl Report {
    /// A report of `personas`' games, with their total.
    pub fn new(
        model: String,
        source: String,
        turns_per_persona: usize,
        prices: Prices,
        personas: Vec<PersonaTally>,
    ) -> Self {
        let mut total = Tally::default();
        for persona in &personas {
            total.add(&persona.tally);
        }
        Self {
            model,
            source,
            turns_per_persona,
            seconds: 0.0,
            prices,
            personas,
            total,
        }
    }

    /// Writes the report into `folder` (made if missing), named after the model; returns the
    /// file.
    pub fn save(&self, folder: &Path) -> Result<PathBuf, ReportError> {
        std::fs::create_dir_all(folder)?;
        let path = folder.join(format!("{}.json", file_name(&self.model)));
        std::fs::write(&path, serde_json::to_string_pretty(self)?)?;
        Ok(path)
    }

    /// The reports saved in `folder` (unreadable files are passed over), the one of `model`
    /// left out.
    pub fn others(folder: &Path, model: &str) -> Vec<Report> {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Vec::new();
        };
        let mut reports: Vec<Report> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .filter_map(|text| serde_json::from_str::<Report>(&text).ok())
            .filter(|report| report.model != model)
            .collect();
        reports.sort_by(|a, b| a.model.cmp(&b.model));
        reports
    }

    /// The cost of a turn at the report's prices, if any were set.
    pub fn cost_per_turn(&self) -> Option<f64> {
        let Prices {
            prompt,
            cached,
            completion,
        } = self.prices;
        let turns = self.total.turns;
        if turns == 0 || (prompt == 0.0 && cached == 0.0 && completion == 0.0) {
            return None;
        }
        let t = &self.total;
        let fresh = t.prompt_tokens.saturating_sub(t.cached_tokens) as f64;
        let spent = fresh * prompt
            + t.cached_tokens as f64 * cached
            + t.completion_tokens as f64 * completion;
        Some(spent / 1_000_000.0 / f64::from(turns))
    }
}

/// The table's rows: a label, and how to show a report in that row.
type Row = (&'static str, fn(&Report) -> String);

/// The rows of the table, in the order: rules used when due, state errors, failures,
/// resolution, action lists, voice, tokens, time and cost.
const ROWS: &[Row] = &[
    ("turns played (failed)", |r| {
        format!("{} ({})", r.total.turns, r.total.failed_turns)
    }),
    ("roll for a risky typed move", |r| {
        share(r.total.rolls_made, r.total.rolls_due)
    }),
    ("item used when the player used it", |r| {
        share(r.total.items_used, r.total.items_due)
    }),
    ("claimed changes the rules made", |r| {
        share(r.total.changes_made, r.total.changes_claimed)
    }),
    ("contradictions per 10 turns", |r| {
        per_ten(r.total.contradictions, r.total.turns)
    }),
    ("  left after correction", |r| {
        per_ten(r.total.contradictions_left, r.total.turns)
    }),
    ("tool calls refused by the rules", |r| {
        share(r.total.tool_calls_refused, r.total.tool_calls)
    }),
    ("failed rolls that cost nothing", |r| {
        share(r.total.free_failures, r.total.failed_rolls)
    }),
    ("turns with no mechanical resolution", |r| {
        share(r.total.unresolved_turns, r.total.turns)
    }),
    ("impossible asks granted", |r| {
        share(r.total.impossible_granted, r.total.impossible_asks)
    }),
    ("action lists repaired", |r| {
        share(r.total.lists_repaired, r.total.action_lists)
    }),
    ("action lists rejected (fallback)", |r| {
        share(r.total.lists_rejected, r.total.action_lists)
    }),
    ("scenes in a good voice", |r| {
        share(r.total.good_voice, r.total.scenes)
    }),
    ("scenes without repetition", |r| {
        share(r.total.unrepeated, r.total.scenes)
    }),
    ("still turns in a row, mean (longest)", |r| {
        runs_text(&r.total.pace.still_runs)
    }),
    ("  by the scenes' own facts alone", |r| {
        runs_text(&r.total.pace.scene_still_runs)
    }),
    ("scenes repeating an earlier one", |r| {
        share(r.total.pace.repeated_scenes, r.total.scenes)
    }),
    ("tokens/turn prompt (cached)", |r| {
        let turns = u64::from(r.total.turns.max(1));
        format!(
            "{} ({})",
            r.total.prompt_tokens / turns,
            r.total.cached_tokens / turns
        )
    }),
    ("tokens/turn completion", |r| {
        (r.total.completion_tokens / u64::from(r.total.turns.max(1))).to_string()
    }),
    ("first text, median", |r| {
        seconds(median(&r.total.first_text_ms))
    }),
    ("turn, median", |r| seconds(median(&r.total.turn_ms))),
    ("cost per turn", |r| {
        r.cost_per_turn()
            .map_or_else(|| "-".to_owned(), |cost| format!("${cost:.5}"))
    }),
    ("playtest time", |r| {
        if r.seconds > 0.0 {
            format!("{:.0}s", r.seconds)
        } else {
            "-".to_owned()
        }
    }),
];

/// The table of `reports`, one column each.
pub fn table(reports: &[Report]) -> String {
    let label_width = ROWS.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    let columns: Vec<Vec<String>> = reports
        .iter()
        .map(|report| {
            std::iter::once(report.model.clone())
                .chain(ROWS.iter().map(|(_, show)| show(report)))
                .collect()
        })
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .map(|column| {
            column
                .iter()
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let labels = std::iter::once("").chain(ROWS.iter().map(|(label, _)| *label));
    let mut out = String::new();
    for (line, label) in labels.enumerate() {
        out.push_str(&format!("{label:<label_width$}"));
        for (column, width) in columns.iter().zip(&widths) {
            out.push_str(&format!("  {:>width$}", column[line]));
        }
        out.push('\n');
    }
    out
}

/// `3/4 75%`, or `-` when nothing was counted.
fn share(part: u32, whole: u32) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    format!(
        "{part}/{whole} {:.0}%",
        100.0 * f64::from(part) / f64::from(whole)
    )
}

/// `2.5`: how many in 10 turns.
fn per_ten(count: u32, turns: u32) -> String {
    if turns == 0 {
        return "-".to_owned();
    }
    format!("{:.1}", 10.0 * f64::from(count) / f64::from(turns))
}

fn median(values: &[u64]) -> Option<u64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied()
}

fn seconds(millis: Option<u64>) -> String {
    millis.map_or_else(
        || "-".to_owned(),
        |ms| format!("{:.2}s", ms as f64 / 1000.0),
    )
}

/// A model's name as a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
fn file_name(model: &str) -> String {
    let name: String = model
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    name.trim_start_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_rates_and_names_read_plainly() {
        assert_eq!(share(3, 4), "3/4 75%");
        assert_eq!(share(0, 0), "-");
        assert_eq!(per_ten(3, 12), "2.5");
        assert_eq!(median(&[30, 10, 20]), Some(20));
        assert_eq!(seconds(Some(1_250)), "1.25s");
        assert_eq!(file_name("../gpt 4o/mini"), "_gpt_4o_mini");
    }

    #[test]
    fn the_cost_counts_cached_tokens_at_their_price() {
        let mut report = Report::new(
            "m".into(),
            "here".into(),
            1,
            Prices {
                prompt: 1.0,
                cached: 0.5,
                completion: 2.0,
            },
            Vec::new(),
        );
        report.total.turns = 2;
        report.total.prompt_tokens = 3_000_000;
        report.total.cached_tokens = 1_000_000;
        report.total.completion_tokens = 500_000;
        // (2M × $1 + 1M × $0.5 + 0.5M × $2) / 2 turns.
        assert_eq!(report.cost_per_turn(), Some(1.75));
        report.prices = Prices::default();
        assert_eq!(report.cost_per_turn(), None);
    }
}

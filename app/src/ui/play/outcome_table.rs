//! An outcome table in the story: shown while the server rolls its die (the rules accepted it,
//! the die is tumbling), then with the die on its face and the outcome it brought highlighted.

use leptos::prelude::*;

use super::dice::{analysis_view, dice_view};
use crate::wire::view::{StoryDie, StoryTable};

/// The table while its die is rolled: every outcome, none chosen yet.
pub fn pending_table_view(table: StoryTable) -> AnyView {
    let caption = format!("Rolling the d{}…", table.sides);
    let die = format!("die-face d{}", table.sides);
    view! {
        <figure class="outcome-table pending" data-testid="pending-table">
            {table_body(table, None)}
            <figcaption class="roll oracle rolling">
                <span class=die aria-hidden="true">
                    <span class="face">"?"</span>
                </span>
                {caption}
            </figcaption>
        </figure>
    }
    .into_any()
}

/// The table rolled: the die on its face, the outcome it brought highlighted (once the die has
/// landed, see the style sheet), and each outcome's share of the die under "Why?".
pub fn rolled_table_view(
    table: StoryTable,
    dice: Vec<StoryDie>,
    chosen: u32,
    analysis: String,
) -> AnyView {
    let face = dice.first().map(|die| die.face).unwrap_or_default();
    let line = format!(
        "Rolled d{} [{face}]: {}",
        table.sides,
        table
            .rows
            .get(chosen as usize)
            .map(|row| row.outcome.as_str())
            .unwrap_or_default()
    );
    view! {
        <figure class="outcome-table rolled" data-testid="outcome-table">
            {table_body(table, Some(chosen))}
            <figcaption class="roll oracle">
                {dice_view(dice)}
                <span data-testid="table-line">{line}</span>
                {analysis_view(analysis)}
            </figcaption>
        </figure>
    }
    .into_any()
}

/// The table's name and its rows: faces, then outcome.
fn table_body(table: StoryTable, chosen: Option<u32>) -> impl IntoView {
    let rows = table.rows.into_iter().enumerate().map(move |(index, row)| {
        let picked = chosen == u32::try_from(index).ok();
        view! {
            <tr class:chosen=picked data-testid="table-row" data-chosen=picked.to_string()>
                <td class="faces">{row.range}</td>
                <td>{row.outcome}</td>
            </tr>
        }
    });
    view! {
        <table>
            <caption data-testid="table-name">{table.name}</caption>
            <thead>
                <tr>
                    <th scope="col">{format!("d{}", table.sides)}</th>
                    <th scope="col">"Outcome"</th>
                </tr>
            </thead>
            <tbody>{rows.collect_view()}</tbody>
        </table>
    }
}

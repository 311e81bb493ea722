//! The pieces every roll in the story shares: its dice in their shapes, landed on their faces,
//! and the "Why?" that opens what the rules knew before it.

use leptos::prelude::*;

use crate::wire::view::StoryDie;

/// A "Why?" toggle and, once opened, what the rules knew before the roll (inline, as the roll
/// is a paragraph).
pub fn analysis_view(text: String) -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <button
            type="button"
            class="why"
            data-testid="why"
            aria-expanded=move || open.get().to_string()
            on:click=move |_| open.update(|open| *open = !*open)
        >
            "Why?"
        </button>
        <span class="analysis" data-testid="analysis" hidden=move || !open.get()>
            {text}
        </span>
    }
}

/// The dice of a roll, each in its own shape (a d4's triangle, a d6's square, a d20's
/// hexagon…) showing its face, the dropped ones faded; a plain die when the roll shows none. The
/// line says the same in words, so the shapes are hidden from screen readers.
pub fn dice_view(dice: Vec<StoryDie>) -> AnyView {
    if dice.is_empty() {
        return view! { <span class="die" aria-hidden="true">"⚄"</span> }.into_any();
    }
    let each = dice.into_iter().enumerate().map(|(nth, die)| {
        let shape = match die.sides {
            4 | 6 | 8 | 10 | 12 | 20 | 100 => format!("d{}", die.sides),
            _ => "dn".to_owned(),
        };
        let dropped = if die.kept { "" } else { " dropped" };
        // Each die lands a moment after the one before it (a class, not an inline style: the
        // page's content security policy refuses inline styles).
        view! {
            <span
                class=format!("die-face {shape}{dropped} nth-{nth}")
                data-testid="die"
                data-sides=die.sides.to_string()
            >
                <span class="face">{die.face}</span>
            </span>
        }
    });
    view! { <span class="dice" aria-hidden="true">{each.collect_view()}</span> }.into_any()
}

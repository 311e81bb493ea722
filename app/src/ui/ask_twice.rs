//! A button for what cannot be taken back lightly: the first click only asks, the second does it.

use leptos::prelude::*;

/// A danger button that shows `asking` after its first click and calls `confirmed` on its
/// second.
#[component]
pub fn AskTwice(
    /// Its label.
    label: &'static str,
    /// Its label once asked (`Really delete? …`).
    asking: &'static str,
    /// What the second click does.
    confirmed: impl Fn() + 'static,
) -> impl IntoView {
    let sure = RwSignal::new(false);
    view! {
        <button
            class="danger"
            on:click=move |_| {
                if sure.get_untracked() {
                    confirmed();
                } else {
                    sure.set(true);
                }
            }
        >
            {move || if sure.get() { asking } else { label }}
        </button>
    }
}

//! Approval mode on the play screen: the changes the game master proposed, each with what led
//! to it, to accept or refuse one by one or all at once; after a refusal, "Tell it again" right
//! there; and the switch that turns the mode on or off. The waiting changes' code is fetched
//! when the first change waits.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::history::tell_again;
use super::run_turn::show_error;
use super::state::{use_play, PlayState};
use crate::api::{decide_proposals, set_approval};
use crate::ui::lazy_when::LazyWhen;
use crate::wire::view::{ProposalDecision, ProposalView};

/// The waiting changes (while there are any, or a refusal was just made) and the mode's switch.
#[component]
pub fn Proposals() -> impl IntoView {
    let state = use_play();
    let waiting = Signal::derive(move || state.waiting());
    view! {
        <LazyWhen when=waiting body=waiting_body />
        <ApprovalSwitch />
    }
}

/// The waiting changes' code: a chunk of its own in the split build (`lazy_chunks`,
/// app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn waiting_body() -> AnyView {
    view! { <Waiting /> }.into_any()
}

/// The waiting changes, Accept all, and after a refusal "Tell it again".
#[component]
fn Waiting() -> impl IntoView {
    let state = use_play();
    // The turn in which the player refused something ("Tell it again" belongs to it).
    let refused = RwSignal::new(None::<u32>);
    let decide = move |decisions: Vec<ProposalDecision>| {
        if decisions.iter().any(|decision| !decision.accept) {
            refused.set(Some(state.turn.get_untracked()));
        }
        let id = state.id.get_value();
        state.ask_rules(async move { decide_proposals(id, decisions).await });
    };
    let accept_all = move |_| {
        let decisions = state
            .proposals
            .get_untracked()
            .iter()
            .map(|proposal| ProposalDecision {
                id: proposal.id,
                accept: true,
            })
            .collect();
        decide(decisions);
    };
    view! {
        <Show when=move || state.waiting()>
            <section class="proposals" data-testid="proposals" aria-label="Changes to approve">
                <h3>"The game master proposes"</h3>
                <p class="hint">"Nothing changes until you accept. Decide before your next move."</p>
                <ul>
                    <For each=move || state.proposals.get() key=|proposal| proposal.id let:proposal>
                        {proposal_view(state, proposal, decide)}
                    </For>
                </ul>
                <button class="primary" data-testid="accept-all" disabled=move || state.busy.get() on:click=accept_all>
                    "Accept all"
                </button>
            </section>
        </Show>
        <Show when=move || refused.get() == Some(state.turn.get()) && !state.waiting()>
            <p class="refused" data-testid="refused">
                "What you refused did not happen. "
                <button class="link" data-testid="tell-again" disabled=move || state.busy.get() on:click=move |_| {
                    refused.set(None);
                    tell_again(state);
                }>
                    "Tell it again"
                </button>
            </p>
        </Show>
    }
}

/// One waiting change: its chips, what led to it, Accept and Refuse.
fn proposal_view(
    state: PlayState,
    proposal: ProposalView,
    decide: impl Fn(Vec<ProposalDecision>) + Copy + 'static,
) -> impl IntoView {
    let id = proposal.id;
    let answer = move |accept| decide(vec![ProposalDecision { id, accept }]);
    view! {
        <li class="proposal" data-testid="proposal">
            <span class="chips">
                {proposal.labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
            </span>
            {proposal.cause.map(|cause| view! { <span class="cause">{cause}</span> })}
            <button data-testid="accept" disabled=move || state.busy.get() on:click=move |_| answer(true)>
                "Accept"
            </button>
            <button data-testid="refuse" disabled=move || state.busy.get() on:click=move |_| answer(false)>
                "Refuse"
            </button>
        </li>
    }
}

/// The switch for approval mode, in play.
#[component]
fn ApprovalSwitch() -> impl IntoView {
    let state = use_play();
    let toggle = move |_| {
        let on = !state.approval.get_untracked();
        let id = state.id.get_value();
        spawn_local(async move {
            match set_approval(id, on).await {
                Ok(now) => state.approval.set(now),
                Err(error) => show_error(state, error).await,
            }
        });
    };
    view! {
        <label class="approval-switch">
            <input
                type="checkbox"
                data-testid="approval-switch"
                prop:checked=move || state.approval.get()
                disabled=move || state.busy.get()
                on:change=toggle
            />
            " Approve the game master's changes before they apply"
        </label>
    }
}

//! Campaigns on another device: a recovery code made (shown once), revoked, or redeemed in this
//! browser, which then becomes the player whose code it was (its own campaigns come along). Its
//! body is fetched (and its status asked) the first time the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use super::lazy_panel::LazyPanel;
use crate::api::{has_recovery_code, NewRecoveryCode, RedeemRecoveryCode, RevokeRecoveryCode};
use crate::ui::resource::wire_resource;

/// The recovery panel of the home page.
#[component]
pub fn RecoveryPanel() -> impl IntoView {
    view! {
        <LazyPanel class="recovery panel" testid="recovery" summary="Your campaigns on another device" body=recovery_body />
    }
}

/// The panel's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn recovery_body() -> AnyView {
    view! { <RecoveryBody /> }.into_any()
}

/// Whether this player has a code, making and revoking one, and redeeming another's.
#[component]
fn RecoveryBody() -> impl IntoView {
    let make = ServerAction::<NewRecoveryCode>::new();
    let revoke = ServerAction::<RevokeRecoveryCode>::new();
    let status = wire_resource(
        move || (make.version().get(), revoke.version().get()),
        |_| has_recovery_code(),
    );
    let made = move || {
        status
            .get()
            .and_then(Result::ok)
            .and_then(|status| status.made)
    };
    let shown = move || {
        // Shown once: until revoked, or until the page is left.
        (revoke.version().get() < make.version().get())
            .then(|| make.value().get().and_then(Result::ok))
            .flatten()
    };
    view! {
            <p class="meta">"Your campaigns belong to this browser. A recovery code brings them to another browser or device."</p>
            <Suspense fallback=|| ()>
                {move || match made() {
                    Some(made) => view! {
                        <p class="status" data-testid="recovery-made">{format!("You made a recovery code on {made}.")}</p>
                        <button type="button" on:click=move |_| { revoke.dispatch(RevokeRecoveryCode {}); }>"Revoke it"</button>
                    }.into_any(),
                    None => view! { <p class="status">"You have no recovery code."</p> }.into_any(),
                }}
            </Suspense>
            {move || shown().map(|code| view! {
                <p>"Your recovery code, shown only this once: write it down. Anyone who has it can open your campaigns."</p>
                <p><code class="recovery-code" data-testid="recovery-code">{code}</code></p>
            })}
            <button type="button" disabled=move || make.pending().get()
                on:click=move |_| { make.dispatch(NewRecoveryCode {}); }>
                {move || if made().is_some() { "Make a new code (the old one stops working)" } else { "Make a recovery code" }}
            </button>
            <RedeemForm />
    }
}

/// A code from another browser, redeemed here; the page then loads again as that player.
#[component]
fn RedeemForm() -> impl IntoView {
    let redeem = ServerAction::<RedeemRecoveryCode>::new();
    let typed = RwSignal::new(String::new());
    Effect::new(move |_| {
        if let Some(Ok(())) = redeem.value().get() {
            if let Some(window) = web_sys::window() {
                let _ = window.location().reload();
            }
        }
    });
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        redeem.dispatch(RedeemRecoveryCode {
            code: typed.get_untracked(),
        });
    };
    view! {
        <form class="redeem" on:submit=submit>
            <label>
                "A code from another browser"
                <input type="text" aria-label="Recovery code" autocomplete="off" maxlength="60"
                    placeholder="ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2" bind:value=typed />
            </label>
            <button type="submit" disabled=move || redeem.pending().get()>"Bring my campaigns here"</button>
            {move || redeem.value().get().and_then(Result::err).map(|error| view! {
                <p class="error" role="alert">{error.to_string()}</p>
            })}
        </form>
    }
}

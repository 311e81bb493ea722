//! The table of friends: who sits where with which hero and how they fare, who has moved this
//! round, and for the host an invitation link to share, a seat to remove and "go on without
//! them". A friend's seat sees the table and may go on once the round has waited its time. Its
//! body is fetched the first time the panel opens.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::{use_play, PlayState};
use crate::api::{
    go_on, invite_friend, load_table, remove_seat, revoke_invitations, set_round_wait,
};
use crate::ui::lazy_panel::LazyPanel;
use crate::ui::updates::read_updates;
use crate::wire::view::{MemberView, TurnUpdate};

/// The panel.
#[component]
pub fn TablePanel() -> impl IntoView {
    view! { <LazyPanel class="table-panel panel" testid="table-panel" summary="The table" body=table_body /> }
}

/// The panel's body: its code is a chunk of its own in the split build.
#[cfg_attr(lazy_chunks, lazy)]
async fn table_body() -> AnyView {
    view! { <TableBody /> }.into_any()
}

#[component]
fn TableBody() -> impl IntoView {
    let state = use_play();
    let link = RwSignal::new(None::<String>);
    let failure = RwSignal::new(None::<String>);
    spawn_local(async move {
        if let Ok(table) = load_table(state.id.get_value()).await {
            state.table.set(table);
        }
    });
    let invite = move |_| {
        spawn_local(async move {
            match invite_friend(state.id.get_value()).await {
                Ok(invitation) => {
                    let origin = leptos::web_sys::window()
                        .and_then(|window| window.location().origin().ok())
                        .unwrap_or_default();
                    link.set(Some(format!("{origin}{}", invitation.path)));
                    failure.set(None);
                }
                Err(error) => failure.set(Some(error.to_string())),
            }
        });
    };
    let set_wait = move |event: leptos::ev::Event| {
        let Ok(secs) = event_target_value(&event).parse::<u32>() else {
            return;
        };
        spawn_local(async move {
            match set_round_wait(state.id.get_value(), secs).await {
                Ok(table) => state.table.set(table),
                Err(error) => failure.set(Some(error.to_string())),
            }
        });
    };
    let revoke = move |_| {
        spawn_local(async move {
            match revoke_invitations(state.id.get_value()).await {
                Ok(_) => link.set(None),
                Err(error) => failure.set(Some(error.to_string())),
            }
        });
    };
    view! {
        <ul class="table-members" data-testid="table-members">
            {move || {
                let host = state.table.read().you == 1;
                state
                    .table
                    .get()
                    .members
                    .into_iter()
                    .map(|member| member_view(state, member, host, failure))
                    .collect_view()
            }}
        </ul>
        {move || state.table.read().may_go_on.then(|| view! {
            <button data-testid="go-on" on:click=move |_| go_on_now(state)>"Go on without them"</button>
        })}
        {move || (state.table.read().you == 1).then(|| view! {
            <div class="invite">
                <button data-testid="invite" on:click=invite>"Invite a friend"</button>
                <button on:click=revoke>"Revoke unused invitations"</button>
                <label>
                    "A round waits for everyone "
                    <select data-testid="round-wait" on:change=set_wait>
                        {WAITS.map(|(secs, label)| view! {
                            <option value=secs selected=move || state.table.read().wait_secs == secs>{label}</option>
                        }).collect_view()}
                    </select>
                </label>
                {move || link.get().map(|link| view! {
                    <p>"Send this link to one friend (it works once, for a day): "
                        <input readonly data-testid="invite-link" prop:value=link /></p>
                })}
            </div>
        })}
        {move || failure.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
    }
}

/// The round waits the host may choose, in seconds, with their words.
const WAITS: [(u32, &str); 5] = [
    (60, "one minute"),
    (300, "five minutes"),
    (900, "fifteen minutes"),
    (3600, "an hour"),
    (86_400, "a day"),
];

fn member_view(
    state: PlayState,
    member: MemberView,
    host: bool,
    failure: RwSignal<Option<String>>,
) -> impl IntoView {
    let seat = member.seat;
    let whose = match seat {
        Some(1) => "host".to_owned(),
        Some(seat) => format!("seat {seat}"),
        None => "companion".to_owned(),
    };
    let remove = move |_| {
        let Some(seat) = seat else { return };
        spawn_local(async move {
            match remove_seat(state.id.get_value(), seat).await {
                Ok(table) => state.table.set(table),
                Err(error) => failure.set(Some(error.to_string())),
            }
        });
    };
    view! {
        <li class:fallen=member.fallen>
            <strong>{member.name}</strong>" ("{member.class}", "{whose}") HP "{member.hp}"/"{member.max_hp}
            {member.moved.then(|| view! { <span class="moved">" ✓ moved"</span> })}
            {(host && seat.is_some_and(|seat| seat > 1)).then(|| view! {
                <button class="remove-seat" on:click=remove>"Remove"</button>
            })}
        </li>
    }
}

/// Narrates the round with the moves in, streamed like a move.
fn go_on_now(state: PlayState) {
    if state.busy.get_untracked() {
        return;
    }
    state.busy.set(true);
    spawn_local(async move {
        let result = match go_on(state.id.get_value(), state.turn.get_untracked()).await {
            Ok(stream) => {
                read_updates(stream, |update| {
                    let done = matches!(update, TurnUpdate::Done { .. });
                    state.update(update);
                    done
                })
                .await
            }
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            state.notice.set(Some(error.to_string()));
        }
        state.busy.set(false);
    });
}

//! The settings page's image model: an OpenAI-compatible images endpoint (`/v1/images/generations`:
//! OpenAI, LocalAI, a bridge to a local Stable Diffusion), its model and its key (never shown
//! again, only "set"); an empty endpoint turns pictures off. Part of the settings page's chunk,
//! behind the same admin token.

use leptos::prelude::*;

use crate::api::{picture_settings, SavePictureSettings};
use crate::ui::resource::wire_resource;
use crate::wire::picture_settings::{PictureSettingsForm, PictureSettingsView};

/// The image model's section, loaded with the admin token the page was opened with.
#[component]
pub fn PictureSettings(token: RwSignal<Option<String>>) -> impl IntoView {
    let loaded = wire_resource(move || token.get(), picture_settings);
    view! {
        <Suspense fallback=|| ()>
            {move || {
                loaded
                    .get()
                    .map(|loaded| match loaded {
                        Ok(loaded) => view! { <PictureForm loaded token /> }.into_any(),
                        Err(error) => view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any(),
                    })
            }}
        </Suspense>
    }
}

/// The form.
#[component]
fn PictureForm(loaded: PictureSettingsView, token: RwSignal<Option<String>>) -> impl IntoView {
    let endpoint = RwSignal::new(loaded.endpoint.clone());
    let model = RwSignal::new(loaded.model.clone());
    let api_key = RwSignal::new(String::new());
    let forget_key = RwSignal::new(false);
    let key_set = RwSignal::new(loaded.key_set);
    let save = ServerAction::<SavePictureSettings>::new();
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            key_set.set(saved.key_set);
            api_key.set(String::new());
            forget_key.set(false);
        }
    });
    let submit = move |_| {
        save.dispatch(SavePictureSettings {
            admin_token: token.get_untracked(),
            form: PictureSettingsForm {
                endpoint: endpoint.get_untracked(),
                model: model.get_untracked(),
                api_key: api_key.get_untracked(),
                forget_key: forget_key.get_untracked(),
            },
        });
    };
    let outcome = move || {
        save.value().get().map(|saved| match saved {
            Ok(saved) if saved.on() => view! { <p class="status" data-testid="pictures-saved">"Saved: pictures are on."</p> }.into_any(),
            Ok(_) => view! { <p class="status" data-testid="pictures-saved">"Saved: pictures are off."</p> }.into_any(),
            Err(error) => view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any(),
        })
    };
    view! {
        <div class="panel settings-form" data-testid="picture-settings">
            <h2>"Pictures"</h2>
            <p class="meta">"An image model draws portraits and scenes: an OpenAI-compatible images endpoint. Leave the endpoint empty for no pictures."</p>
            <label>
                "Images endpoint (up to /v1)"
                <input type="text" name="images_endpoint" placeholder="http://127.0.0.1:8080/v1" bind:value=endpoint />
            </label>
            <label>
                "Image model"
                <input type="text" name="images_model" placeholder="dall-e-3" bind:value=model />
            </label>
            <label>
                {move || if key_set.get() { "Key for the images endpoint (set; type a new one to replace it)" } else { "Key for the images endpoint" }}
                <input type="password" name="images_api_key" autocomplete="off" bind:value=api_key />
            </label>
            <label class="check">
                <input type="checkbox" bind:checked=forget_key />
                "Forget the saved key"
            </label>
            <div class="row">
                <button class="primary" type="button" disabled=move || save.pending().get() on:click=submit>
                    "Save the image model"
                </button>
            </div>
            {outcome}
        </div>
    }
}

//! The settings page (`/settings`): which model the game master runs on. The operator sets an
//! OpenAI-compatible endpoint, picks a model from the endpoint's own list, sets a key (never
//! shown again, only "set"), the tools mode and the context size, tests the connection and
//! saves; the next turn is told by the new model. Beside it, the image model that draws the
//! story's pictures (`picture_settings.rs`). A server others can reach asks for its admin
//! token first. The page is a route whose code the browser fetches on the first visit (the
//! release build splits the wasm: `cargo leptos build --split`; without it, the code comes with
//! the rest).

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;

use crate::api::{model_settings, EndpointModels, SaveModelSettings, TestConnection};
use crate::ui::lazy_page::ClientPage;
use crate::ui::picture_settings::PictureSettings;
use crate::ui::resource::wire_resource;
use crate::wire::errors::AppError;
use crate::wire::model_settings::{ModelField, ModelSettingsForm, ModelSettingsView, ToolsMode};

/// The settings page, its code fetched on the first visit.
#[component]
pub fn SettingsRoute() -> impl IntoView {
    view! { <ClientPage body=settings_body /> }
}

/// The page's code: a chunk of its own in the split build (`lazy_chunks`, app/build.rs).
#[cfg_attr(lazy_chunks, lazy)]
async fn settings_body() -> AnyView {
    view! { <SettingsPage /> }.into_any()
}

/// The settings page.
#[component]
fn SettingsPage() -> impl IntoView {
    crate::ui::app::mark_hydrated();
    // The admin token as last sent (none at first: a server only this computer reaches needs none).
    let token = RwSignal::new(None::<String>);
    let settings = wire_resource(move || token.get(), model_settings);
    view! {
        <section class="home settings">
            <h1 class="title">"Settings"</h1>
            <p class="tagline">"Which model tells your stories."</p>
            <a class="button" href="/">"Back to your adventures"</a>
            <Suspense fallback=|| view! { <p class="status">"Loading…"</p> }>
                {move || {
                    settings
                        .get()
                        .map(|loaded| match loaded {
                            Ok(loaded) => {
                                view! {
                                    <SettingsForm loaded token />
                                    <PictureSettings token />
                                }
                                    .into_any()
                            }
                            Err(AppError::NotAllowed { reason }) => {
                                view! { <TokenForm reason token /> }.into_any()
                            }
                            Err(error) => {
                                view! { <p class="error" role="alert">{error.to_string()}</p> }
                                    .into_any()
                            }
                        })
                }}
            </Suspense>
        </section>
    }
}

/// Asks for the admin token, saying why.
#[component]
fn TokenForm(reason: String, token: RwSignal<Option<String>>) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        token.set(Some(typed.get_untracked()));
    };
    view! {
        <form class="panel settings-form" on:submit=submit>
            <p class="error" role="alert">{reason}</p>
            <label>
                "Admin token"
                <input type="password" autocomplete="off" bind:value=typed />
            </label>
            <button class="primary" type="submit">"Open the settings"</button>
        </form>
    }
}

/// The form's fields, as the operator edits them.
#[derive(Clone, Copy)]
struct Fields {
    endpoint: RwSignal<String>,
    model: RwSignal<String>,
    api_key: RwSignal<String>,
    forget_key: RwSignal<bool>,
    tools: RwSignal<ToolsMode>,
    context_tokens: RwSignal<u32>,
}

impl Fields {
    fn new(loaded: &ModelSettingsView) -> Self {
        Self {
            endpoint: RwSignal::new(loaded.endpoint.clone()),
            model: RwSignal::new(loaded.model.clone()),
            api_key: RwSignal::new(String::new()),
            forget_key: RwSignal::new(false),
            tools: RwSignal::new(loaded.tools),
            context_tokens: RwSignal::new(loaded.context_tokens),
        }
    }

    fn form(&self) -> ModelSettingsForm {
        ModelSettingsForm {
            endpoint: self.endpoint.get_untracked(),
            model: self.model.get_untracked(),
            api_key: self.api_key.get_untracked(),
            forget_key: self.forget_key.get_untracked(),
            tools: self.tools.get_untracked(),
            context_tokens: self.context_tokens.get_untracked(),
        }
    }
}

/// The settings in use and the form that changes them.
#[component]
fn SettingsForm(loaded: ModelSettingsView, token: RwSignal<Option<String>>) -> impl IntoView {
    let fields = Fields::new(&loaded);
    let fixed = loaded.from_environment.clone();
    let is_fixed = move |field: ModelField| fixed.contains(&field);
    let list = ServerAction::<EndpointModels>::new();
    let test = ServerAction::<TestConnection>::new();
    let save = ServerAction::<SaveModelSettings>::new();
    let key_set = RwSignal::new(loaded.key_set);
    let in_use = RwSignal::new(loaded.in_use.clone());
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            key_set.set(saved.key_set);
            in_use.set(saved.in_use);
            fields.api_key.set(String::new());
        }
    });
    let admin_token = move || token.get_untracked();
    view! {
        <div class="panel settings-form">
            <p data-testid="in-use">
                "Telling the stories now: " <strong class="model-name">{move || in_use.get().model}</strong>
                " — " {move || in_use.get().source}
            </p>
            <EnvironmentNote fields=loaded.from_environment.clone() />
            <label>
                "Endpoint (an OpenAI-compatible API, up to /v1)"
                <input type="text" name="endpoint" placeholder="http://127.0.0.1:11434/v1"
                    disabled=is_fixed(ModelField::Endpoint) bind:value=fields.endpoint />
            </label>
            <KeyField fields key_set disabled=is_fixed(ModelField::ApiKey) />
            <div class="row">
                <button type="button" on:click=move |_| {
                    list.dispatch(EndpointModels { admin_token: admin_token(), form: fields.form() });
                }>"List the models"</button>
            </div>
            <ModelChoice fields list disabled=is_fixed(ModelField::Model) />
            <div class="row">
                <label>
                    "Tools"
                    <select name="tools" disabled=is_fixed(ModelField::Tools)
                        on:change=move |event| {
                            if let Some(mode) = ToolsMode::from_name(&event_target_value(&event)) {
                                fields.tools.set(mode);
                            }
                        }
                        prop:value=move || fields.tools.get().name()>
                        <option value="native">"native (the API's tool calling)"</option>
                        <option value="text">"text (described in the prompt)"</option>
                    </select>
                </label>
                <label>
                    "Context size (tokens)"
                    <input type="number" name="context_tokens" min="2000" max="2000000"
                        disabled=is_fixed(ModelField::ContextTokens)
                        prop:value=move || fields.context_tokens.get().to_string()
                        on:input=move |event| {
                            if let Ok(tokens) = event_target_value(&event).trim().parse() {
                                fields.context_tokens.set(tokens);
                            }
                        } />
                </label>
            </div>
            <div class="row">
                <button type="button" disabled=move || test.pending().get() on:click=move |_| {
                    test.dispatch(TestConnection { admin_token: admin_token(), form: fields.form() });
                }>"Test connection"</button>
                <button class="primary" type="button" disabled=move || save.pending().get()
                    on:click=move |_| {
                        save.dispatch(SaveModelSettings { admin_token: admin_token(), form: fields.form() });
                    }>"Save"</button>
            </div>
            <Outcomes test save />
        </div>
    }
}

/// Which settings the environment fixes.
#[component]
fn EnvironmentNote(fields: Vec<ModelField>) -> impl IntoView {
    (!fields.is_empty()).then(|| {
        let names = fields
            .iter()
            .map(|field| field.variable())
            .collect::<Vec<_>>()
            .join(", ");
        view! {
            <p class="meta" data-testid="from-environment">
                {format!("Set in the server's environment, which wins over this page: {names}.")}
            </p>
        }
    })
}

/// The API key: write-only, shown only as set or not.
#[component]
fn KeyField(fields: Fields, key_set: RwSignal<bool>, disabled: bool) -> impl IntoView {
    view! {
        <label>
            {move || if key_set.get() { "API key (set; type a new one to replace it)" } else { "API key (none set)" }}
            <input type="password" name="api_key" autocomplete="off" disabled=disabled
                placeholder=move || if key_set.get() { "•••••• set" } else { "" }
                bind:value=fields.api_key />
        </label>
        <label class="check">
            <input type="checkbox" bind:checked=fields.forget_key disabled=disabled />
            "Remove the key (for an endpoint that wants none). A key is kept only for the endpoint it was set for."
        </label>
    }
}

/// The model: a free name until the endpoint's list is loaded, then a choice among it.
#[component]
fn ModelChoice(
    fields: Fields,
    list: ServerAction<EndpointModels>,
    disabled: bool,
) -> impl IntoView {
    let listed = move || {
        list.value()
            .get()
            .and_then(Result::ok)
            .filter(|models| !models.is_empty())
    };
    Effect::new(move |_| {
        if let Some(models) = listed() {
            if !models.contains(&fields.model.get_untracked()) {
                fields.model.set(models[0].clone());
            }
        }
    });
    view! {
        {move || list.value().get().and_then(Result::err).map(|error| view! {
            <p class="error" role="alert">{error.to_string()}</p>
        })}
        <label>
            "Model"
            {move || match listed() {
                Some(models) => view! {
                    <select name="model" disabled=disabled
                        on:change=move |event| fields.model.set(event_target_value(&event))
                        prop:value=move || fields.model.get()>
                        {models.into_iter().map(|model| view! { <option value=model.clone()>{model.clone()}</option> }).collect_view()}
                    </select>
                }.into_any(),
                None => view! {
                    <input type="text" name="model" disabled=disabled bind:value=fields.model />
                }.into_any(),
            }}
        </label>
    }
}

/// What the last test and the last save said.
#[component]
fn Outcomes(
    test: ServerAction<TestConnection>,
    save: ServerAction<SaveModelSettings>,
) -> impl IntoView {
    view! {
        <div aria-live="polite">
            {move || test.value().get().map(|outcome| match outcome {
                Ok(report) => view! {
                    <p class="status" data-testid="connection-ok">
                        {format!(
                            "Connected: the model answered \u{201c}{}\u{201d} in {} ms; the endpoint lists {} model{}.",
                            report.reply,
                            report.millis,
                            report.models.len(),
                            if report.models.len() == 1 { "" } else { "s" },
                        )}
                    </p>
                }.into_any(),
                Err(error) => view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any(),
            })}
            {move || save.value().get().map(|outcome| match outcome {
                Ok(saved) => view! {
                    <p class="status" data-testid="saved">
                        {format!("Saved. From the next turn on, {} tells the stories.", saved.in_use.model)}
                    </p>
                }.into_any(),
                Err(error) => view! { <p class="error" role="alert">{error.to_string()}</p> }.into_any(),
            })}
        </div>
    }
}

//! The character panel: name, level, HP bar, attributes, conditions, inventory, place and time.

use leptos::prelude::*;

use crate::campaign::view::SheetView;

/// The character panel; updates the moment a tool changes the sheet.
#[component]
pub fn CharacterPanel(sheet: RwSignal<SheetView>) -> impl IntoView {
    view! {
        <section class="character panel" data-testid="character">
            {move || {
                let sheet = sheet.get();
                view! {
                    <h2>{sheet.name}</h2>
                    <p class="meta">{format!("Level {} {}", sheet.level, sheet.class)}</p>
                    <div class="hp" aria-label="Hit points">
                        <progress class="hp-bar" max=sheet.max_hp value=sheet.hp></progress>
                        <span class="hp-text" data-testid="hp">{format!("HP {}/{}", sheet.hp, sheet.max_hp)}</span>
                    </div>
                    {sheet.sanity.map(|sanity| view! { <p class="meta">{format!("Sanity {sanity}/100")}</p> })}
                    <ul class="attributes">
                        {sheet
                            .attributes
                            .into_iter()
                            .map(|attribute| {
                                view! {
                                    <li>
                                        <span class="attr-name">{attribute.name}</span>
                                        <span class="attr-score">{attribute.score}</span>
                                        <span class="attr-mod">{format!("{:+}", attribute.modifier)}</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                    <h3>"Conditions"</h3>
                    {if sheet.conditions.is_empty() {
                        view! { <p class="meta">"None"</p> }.into_any()
                    } else {
                        view! {
                            <ul class="conditions">
                                {sheet.conditions.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                            </ul>
                        }
                            .into_any()
                    }}
                    <h3>"Inventory"</h3>
                    {if sheet.inventory.is_empty() {
                        view! { <p class="meta">"Empty-handed"</p> }.into_any()
                    } else {
                        view! {
                            <ul class="inventory" data-testid="inventory">
                                {sheet
                                    .inventory
                                    .into_iter()
                                    .map(|item| {
                                        view! {
                                            <li title=item.description.unwrap_or_default()>
                                                {item.name} <span class="qty">{format!("×{}", item.quantity)}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }}
                    <p class="where">{sheet.location}</p>
                    <p class="meta">{sheet.time}</p>
                }
            }}
        </section>
    }
}

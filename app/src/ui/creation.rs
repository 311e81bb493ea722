//! Character creation on the new-adventure form: name and class (a preset, whose hit die, gear
//! and abilities are shown, or the player's own), the six scores by standard array or
//! point-buy with what the rules say of them as they are typed, the skills chosen from the
//! class's list (and its saving throws), a backstory, sanity and stakes.

use leptos::prelude::*;

use crate::game::creation::{
    attributes_from, check_scores, class_proficiencies, point_cost, preset, CharacterDraft,
    ScoreMethod, COMMON_GEAR, CUSTOM_HIT_DIE, POINT_BUY_BUDGET, PRESETS, STANDARD_ARRAY,
};
use crate::game::proficiency::{ClassProficiencies, Skill};
use crate::game::{Attribute, Stakes};

/// What the form holds while the player fills it in.
#[derive(Clone, Copy)]
pub struct CreationForm {
    name: RwSignal<String>,
    class: RwSignal<String>,
    method: RwSignal<ScoreMethod>,
    scores: RwSignal<[i64; 6]>,
    ability: RwSignal<String>,
    /// A custom class's casting ability (`INT`, `WIS`, `CHA`), or none.
    casting: RwSignal<Option<Attribute>>,
    backstory: RwSignal<String>,
    sanity: RwSignal<bool>,
    stakes: RwSignal<Stakes>,
    skills: RwSignal<Vec<Skill>>,
}

impl Default for CreationForm {
    /// A form for a Ranger with the class's suggested scores.
    fn default() -> Self {
        let ranger = &PRESETS[4];
        Self {
            name: RwSignal::new(String::new()),
            class: RwSignal::new(ranger.name.to_owned()),
            method: RwSignal::new(ScoreMethod::StandardArray),
            scores: RwSignal::new(ranger.suggested_scores().map(i64::from)),
            ability: RwSignal::new(String::new()),
            casting: RwSignal::new(None),
            backstory: RwSignal::new(String::new()),
            sanity: RwSignal::new(false),
            stakes: RwSignal::new(Stakes::Heroic),
            skills: RwSignal::new(ranger.proficiencies.default_choice()),
        }
    }
}

impl CreationForm {
    /// The draft the server will check (it checks everything again).
    pub fn draft(&self) -> CharacterDraft {
        CharacterDraft {
            name: self.name.get_untracked(),
            class: self.class.get_untracked(),
            method: self.method.get_untracked(),
            scores: Some(self.scores.get_untracked().to_vec()),
            ability: self.ability.get_untracked(),
            backstory: self.backstory.get_untracked(),
            sanity: self.sanity.get_untracked(),
            stakes: self.stakes.get_untracked(),
            skills: self
                .skills
                .get_untracked()
                .iter()
                .map(|skill| skill.name().to_owned())
                .collect(),
            spells: Vec::new(),
            casting: self.casting.get_untracked(),
        }
    }

    /// Tracks sanity (a horror premise asks for it; the player can still turn it off).
    pub fn track_sanity(&self) {
        self.sanity.set(true);
    }

    /// A new class: a preset's suggested scores, when it is one, and its first skills.
    fn choose_class(&self, class: String) {
        if let Some(preset) = preset(&class) {
            self.method.set(ScoreMethod::StandardArray);
            self.scores.set(preset.suggested_scores().map(i64::from));
        }
        self.class.set(class);
        self.skills.set(self.offers().default_choice());
    }

    /// What the class being made offers: its saves and the skills it chooses from.
    fn offers(&self) -> ClassProficiencies {
        let attributes = attributes_from(&self.scores.get());
        class_proficiencies(preset(&self.class.get()), &attributes)
    }
}

/// Name, class and what the class brings.
#[component]
pub fn CharacterFields(
    /// The form's signals.
    form: CreationForm,
) -> impl IntoView {
    view! {
        <div class="row">
            <label>
                "Name"
                <input type="text" required maxlength="40" placeholder="Mira Thorne"
                    prop:value=form.name
                    on:input=move |event| form.name.set(event_target_value(&event)) />
            </label>
            <label>
                "Class"
                <input type="text" required maxlength="40" list="classes" data-testid="class"
                    prop:value=form.class
                    on:change=move |event| form.choose_class(event_target_value(&event))
                    on:input=move |event| form.class.set(event_target_value(&event)) />
                <datalist id="classes">
                    {PRESETS.map(|p| view! { <option value=p.name></option> }).collect_view()}
                </datalist>
            </label>
        </div>
        <ClassInfo form />
        <ScoreFields form />
        <SkillFields form />
        <label>
            "Backstory (optional)"
            <textarea maxlength="600" rows="2" placeholder="Where they come from, what they want…"
                prop:value=form.backstory
                on:input=move |event| form.backstory.set(event_target_value(&event))></textarea>
        </label>
        <StakesFields form />
    }
}

/// The class's hit die, gear and abilities; a custom class names its own ability.
#[component]
fn ClassInfo(form: CreationForm) -> impl IntoView {
    let common: Vec<&str> = COMMON_GEAR.iter().map(|(name, ..)| *name).collect();
    let common = common.join(", ");
    move || {
        match preset(&form.class.get()) {
        Some(preset) => {
            let gear: Vec<&str> = preset.gear.iter().map(|(name, ..)| *name).collect();
            let abilities: Vec<&str> = preset.abilities.iter().map(|(name, _)| *name).collect();
            view! {
                <p class="class-info" data-testid="class-info">
                    {format!(
                        "{}: hit die d{}. Gear: {}, {}. Abilities: {}.",
                        preset.name,
                        preset.hit_die.sides(),
                        gear.join(", "),
                        common,
                        abilities.join(", "),
                    )}
                </p>
            }
            .into_any()
        }
        None => view! {
            <p class="class-info">
                {format!("Your own class: hit die d{}. Gear: {}.", CUSTOM_HIT_DIE.sides(), common)}
            </p>
            <label>
                "Signature ability (optional)"
                <input type="text" maxlength="60" placeholder="Never lost in the dark"
                    prop:value=form.ability
                    on:input=move |event| form.ability.set(event_target_value(&event)) />
            </label>
            <label>
                "Casts spells with"
                <select data-testid="casting-ability"
                    on:change=move |event| form.casting.set(event_target_value(&event).parse().ok())>
                    <option value="" selected=move || form.casting.get().is_none()>"No spells"</option>
                    {[Attribute::Intelligence, Attribute::Wisdom, Attribute::Charisma].map(|attribute| view! {
                        <option value=attribute.abbreviation()
                            selected=move || form.casting.get() == Some(attribute)>
                            {attribute.name()}
                        </option>
                    }).collect_view()}
                </select>
            </label>
        }
        .into_any(),
    }
    }
}

/// The six scores, the method, and what the rules say of them.
#[component]
fn ScoreFields(form: CreationForm) -> impl IntoView {
    let verdict = move || {
        let scores = form.scores.get();
        let method = form.method.get();
        let spent: u32 = scores.iter().filter_map(|s| point_cost(*s)).sum();
        match check_scores(method, &scores) {
            Ok(_) if method == ScoreMethod::PointBuy => (
                false,
                format!("Points spent: {spent} of {POINT_BUY_BUDGET}."),
            ),
            Ok(_) => (
                false,
                "The standard array, each score used once.".to_owned(),
            ),
            Err(error) => (true, sentence(&error.to_string())),
        }
    };
    let array: Vec<String> = STANDARD_ARRAY.iter().map(u8::to_string).collect();
    view! {
        <fieldset class="scores">
            <legend>"Attribute scores"</legend>
            <label class="method">
                "Method "
                <select on:change=move |event| {
                    let method = if event_target_value(&event) == "point_buy" {
                        ScoreMethod::PointBuy
                    } else {
                        ScoreMethod::StandardArray
                    };
                    form.method.set(method);
                }>
                    <option value="standard_array" selected=move || form.method.get() == ScoreMethod::StandardArray>
                        {format!("Standard array ({})", array.join(", "))}
                    </option>
                    <option value="point_buy" selected=move || form.method.get() == ScoreMethod::PointBuy>
                        {format!("Point-buy ({POINT_BUY_BUDGET} points, 8 to 15)")}
                    </option>
                </select>
            </label>
            <div class="score-row">
                {Attribute::ALL
                    .into_iter()
                    .enumerate()
                    .map(|(index, attribute)| score_input(form, index, attribute))
                    .collect_view()}
            </div>
            <p class=move || if verdict().0 { "score-verdict error" } else { "score-verdict" }
                data-testid="score-verdict">{move || verdict().1}</p>
        </fieldset>
    }
}

/// The skills the class chooses from, as boxes to tick, and what the choice gives.
#[component]
fn SkillFields(form: CreationForm) -> impl IntoView {
    let verdict = move || {
        let offers = form.offers();
        match offers.choose(&form.skills.get()) {
            Ok(skills) => {
                let names: Vec<&str> = skills.iter().map(|s| s.name()).collect();
                let saves = offers.saves.map(Attribute::abbreviation).join(" and ");
                (
                    false,
                    format!(
                        "Proficient in {}, and in {saves} saving throws: +2 to those rolls, \
                         rising with your level.",
                        names.join(", ")
                    ),
                )
            }
            Err(error) => (true, sentence(&error.to_string())),
        }
    };
    let toggle = move |skill: Skill, on: bool| {
        form.skills.update(|skills| {
            skills.retain(|s| *s != skill);
            if on {
                skills.push(skill);
            }
        });
    };
    view! {
        <fieldset class="skills" data-testid="skills">
            <legend>{move || format!("Skills (choose {})", form.offers().choose)}</legend>
            <div class="skill-grid">
                {move || form.offers().offered().into_iter().map(|skill| view! {
                    <label class="skill">
                        <input type="checkbox" prop:checked=move || form.skills.get().contains(&skill)
                            on:change=move |event| toggle(skill, event_target_checked(&event)) />
                        {format!("{} ({})", skill.name(), skill.attribute())}
                    </label>
                }).collect_view()}
            </div>
            <p class=move || if verdict().0 { "score-verdict error" } else { "score-verdict" }
                data-testid="skill-verdict">{move || verdict().1}</p>
        </fieldset>
    }
}

/// `text` as a sentence: a capital first letter and a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

fn score_input(form: CreationForm, index: usize, attribute: Attribute) -> impl IntoView {
    view! {
        <label class="score">
            {attribute.abbreviation()}
            <input type="number" min="8" max="15" data-testid=format!("score-{}", attribute.abbreviation())
                prop:value=move || form.scores.get()[index].to_string()
                on:input=move |event| {
                    let value = event_target_value(&event).trim().parse().unwrap_or(0);
                    form.scores.update(|scores| scores[index] = value);
                } />
        </label>
    }
}

/// Sanity and what 0 HP means.
#[component]
fn StakesFields(form: CreationForm) -> impl IntoView {
    view! {
        <fieldset class="stakes">
            <legend>"Stakes"</legend>
            {Stakes::ALL
                .map(|stakes| {
                    view! {
                        <label class="stakes-option">
                            <input type="radio" name="stakes" value=stakes.key()
                                prop:checked=move || form.stakes.get() == stakes
                                on:change=move |_| form.stakes.set(stakes) />
                            {format!("{}: {}", stakes.name(), stakes.explain())}
                        </label>
                    }
                })
                .collect_view()}
            <label class="stakes-option">
                <input type="checkbox" prop:checked=form.sanity
                    on:change=move |event| form.sanity.set(event_target_checked(&event)) />
                "Track sanity (for horror: 0 to 100, starting at 100)"
            </label>
        </fieldset>
    }
}

/// A companion on the new-adventure form: a name (blank: none) and a class preset.
#[derive(Clone, Copy)]
pub struct CompanionDraft {
    /// Its name; a card's character fills it in.
    pub name: RwSignal<String>,
    class: RwSignal<String>,
}

impl Default for CompanionDraft {
    fn default() -> Self {
        Self {
            name: RwSignal::new(String::new()),
            class: RwSignal::new(PRESETS[0].name.to_owned()),
        }
    }
}

impl CompanionDraft {
    /// What the form sends.
    pub fn form(&self) -> crate::wire::view::CompanionForm {
        crate::wire::view::CompanionForm {
            name: self.name.get_untracked(),
            class: self.class.get_untracked(),
        }
    }
}

/// A companion's name and class, made by the same rules as the hero.
#[component]
pub fn CompanionFields(
    /// The draft's signals.
    draft: CompanionDraft,
) -> impl IntoView {
    view! {
        <details class="companion-choice">
            <summary>"A companion (optional)"</summary>
            <div class="row">
                <label>
                    "Name"
                    <input type="text" maxlength="40" data-testid="companion-name" placeholder="Bran"
                        prop:value=draft.name
                        on:input=move |event| draft.name.set(event_target_value(&event)) />
                </label>
                <label>
                    "Class"
                    <select data-testid="companion-class"
                        on:change=move |event| draft.class.set(event_target_value(&event))>
                        {PRESETS.map(|p| view! {
                            <option value=p.name selected=move || draft.class.get() == p.name>{p.name}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
        </details>
    }
}

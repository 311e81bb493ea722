//! Read aloud: the browser's own speech synthesis (the Web Speech API) speaks each new scene
//! sentence by sentence as it streams, in the voice and at the speed the player chose, both
//! remembered by this browser. A new move or turning it off stops it. No server, no cost. The
//! speaker's code is fetched the first time the switch is on.

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::state::use_play;
use crate::ui::lazy_when::LazyWhen;

/// Where this browser keeps the player's choice.
const STORAGE_KEY: &str = "dicebound.read_aloud";

/// The speeds offered: the label, the option's value and the speed. The value is written out
/// so that the browser's code neither parses a float nor formats an `f32` (core's code for
/// them weighs some 6 KB in the wasm).
const RATES: [(&str, &str, f32); 4] = [
    ("0.75×", "0.75", 0.75),
    ("1×", "1", 1.0),
    ("1.25×", "1.25", 1.25),
    ("1.5×", "1.5", 1.5),
];

/// The option's value of the speed `rate` (normal speed's for a speed not offered).
fn rate_value(rate: f32) -> &'static str {
    RATES
        .iter()
        .find(|(_, _, offered)| *offered == rate)
        .map_or("1", |(_, value, _)| value)
}

/// The speed of the option's value `value` (normal speed for an unknown value).
fn rate_of(value: &str) -> f32 {
    RATES
        .iter()
        .find(|(_, offered, _)| *offered == value)
        .map_or(1.0, |(_, _, rate)| *rate)
}

/// The player's choice, remembered per browser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadAloudSettings {
    /// Whether scenes are spoken.
    pub on: bool,
    /// The voice's name; the browser's default when `None`.
    pub voice: Option<String>,
    /// The speed (1 is normal).
    pub rate: f32,
}

impl Default for ReadAloudSettings {
    fn default() -> Self {
        Self {
            on: false,
            voice: None,
            rate: 1.0,
        }
    }
}

/// What the switch and the speaker share: the player's choice and the voices this browser has.
#[derive(Clone, Copy)]
struct Choice {
    /// The player's choice, as this browser remembers it.
    settings: RwSignal<ReadAloudSettings>,
    /// The names of the browser's voices.
    voices: RwSignal<Vec<String>>,
}

impl Choice {
    /// Changes the choice with `edit`, and has the browser remember it.
    fn change(self, edit: impl FnOnce(&mut ReadAloudSettings)) {
        self.settings.update(edit);
        speech::save(&self.settings.get_untracked());
    }

    /// Whether scenes are spoken.
    fn on(self) -> bool {
        self.settings.with(|settings| settings.on)
    }
}

/// The switch; and, once it has been on, the voice, the speed and the scene spoken as it
/// streams (their code fetched the first time the switch is on).
#[component]
pub fn ReadAloud() -> impl IntoView {
    let choice = Choice {
        settings: RwSignal::new(ReadAloudSettings::default()),
        voices: RwSignal::new(Vec::new()),
    };
    // In the browser only: what this browser remembers, and the voices it has.
    Effect::new(move |_| {
        choice.settings.set(speech::load());
        choice.voices.set(speech::voices());
    });
    provide_context(choice);
    view! {
        <div class="read-aloud" data-testid="read-aloud">
            <label>
                <input
                    type="checkbox"
                    data-testid="read-aloud-toggle"
                    prop:checked=move || choice.on()
                    on:change=move |event| {
                        let on = event_target_checked(&event);
                        if !on {
                            speech::cancel();
                        }
                        choice.voices.set(speech::voices());
                        choice.change(|settings| settings.on = on);
                    }
                />
                " Read aloud"
            </label>
            <LazyWhen when=Signal::derive(move || choice.on()) body=speaker_body />
        </div>
    }
}

/// The speaker's code: a chunk of its own in the split build (`lazy_chunks`, app/build.rs;
/// loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn speaker_body() -> AnyView {
    view! { <Speaker /> }.into_any()
}

/// The voice and the speed while the switch is on, and the scene spoken as it streams.
#[component]
fn Speaker() -> impl IntoView {
    let choice = expect_context::<Choice>();
    speak_the_story(choice.settings);
    view! {
        <Show when=move || choice.on()>
            <label>
                " Voice "
                <select
                    data-testid="read-aloud-voice"
                    prop:value=move || {
                        // Set again once the voices' options exist.
                        choice.voices.track();
                        choice.settings.with(|settings| settings.voice.clone().unwrap_or_default())
                    }
                    on:change=move |event| {
                        let name = event_target_value(&event);
                        choice.change(|settings| settings.voice = (!name.is_empty()).then_some(name));
                    }
                >
                    <option value="">"the browser's"</option>
                    {move || choice.voices.get().into_iter().map(|name| view! { <option value=name.clone()>{name.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>
                " Speed "
                <select
                    data-testid="read-aloud-rate"
                    prop:value=move || choice.settings.with(|settings| rate_value(settings.rate))
                    on:change=move |event| {
                        let rate = rate_of(&event_target_value(&event));
                        choice.change(|settings| settings.rate = rate);
                    }
                >
                    {RATES.iter().map(|(label, value, _)| view! { <option value=*value>{*label}</option> }).collect_view()}
                </select>
            </label>
        </Show>
    }
}

/// Speaks each sentence of the move's narration once it is complete, and the rest when the
/// scene is done; a new move (the page busy again) stops what is still being spoken. (It reads
/// the narration as kept, not the draft: a fast stream can come and go between two runs.)
fn speak_the_story(settings: RwSignal<ReadAloudSettings>) {
    let state = use_play();
    // The narration as last seen and how much of it was spoken.
    let spoken = StoredValue::new((String::new(), 0usize));
    Effect::new(move |ran: Option<()>| {
        let (text, complete) = state.narration.get();
        let (last, from) = spoken.get_value();
        // A new move, or a replaced telling (a pre-empted draft), starts again.
        let from = if last.get(..from).is_some_and(|said| text.starts_with(said)) {
            from
        } else {
            speech::cancel();
            0
        };
        let (mut sentences, mut end) = complete_sentences(&text, from);
        if complete {
            sentences.push(speakable(&text[end..]));
            end = text.len();
        }
        // What was told before the speaker started (the switch first turned on) is not spoken.
        if ran.is_some() && settings.with_untracked(|settings| settings.on) {
            for sentence in sentences.iter().filter(|sentence| !sentence.is_empty()) {
                speech::speak(sentence, &settings.get_untracked());
            }
        }
        spoken.set_value((text, end));
    });
    Effect::new(move |was_busy: Option<bool>| {
        let busy = state.busy.get();
        if busy && was_busy == Some(false) {
            speech::cancel();
        }
        busy
    });
}

/// The complete sentences of `text` after byte `from` (each ends in `.`, `!` or `?`, with any
/// closing quote or bracket, before whitespace), ready to speak; and where the next begins.
pub fn complete_sentences(text: &str, from: usize) -> (Vec<String>, usize) {
    let base = from.min(text.len());
    let Some(rest) = text.get(base..) else {
        return (Vec::new(), base);
    };
    let mut sentences = Vec::new();
    let mut start = base;
    let mut chars = rest.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let mut end = base + offset + c.len_utf8();
        while let Some(&(next_offset, next)) = chars.peek() {
            if !matches!(next, '"' | '\'' | '”' | '’' | ')' | '*' | '_') {
                break;
            }
            end = base + next_offset + next.len_utf8();
            chars.next();
        }
        if chars.peek().is_some_and(|&(_, next)| next.is_whitespace()) {
            let sentence = speakable(&text[start..end]);
            if !sentence.is_empty() {
                sentences.push(sentence);
            }
            start = end;
        }
    }
    (sentences, start)
}

/// `text` as it should be spoken: Markdown's marks left out, whitespace collapsed.
pub fn speakable(text: &str) -> String {
    let plain: String = text
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '#' | '`' | '>'))
        .collect();
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The browser's speech synthesis and storage (nothing happens outside a browser).
mod speech {
    use web_sys::wasm_bindgen::JsCast;
    use web_sys::{SpeechSynthesis, SpeechSynthesisUtterance, SpeechSynthesisVoice};

    use super::{ReadAloudSettings, STORAGE_KEY};

    fn synthesis() -> Option<SpeechSynthesis> {
        web_sys::window()?.speech_synthesis().ok()
    }

    /// Queues `text` in the chosen voice and speed.
    pub fn speak(text: &str, settings: &ReadAloudSettings) {
        let Some(synthesis) = synthesis() else {
            return;
        };
        let Ok(utterance) = SpeechSynthesisUtterance::new_with_text(text) else {
            return;
        };
        utterance.set_rate(settings.rate);
        if let Some(name) = &settings.voice {
            let voice = synthesis
                .get_voices()
                .iter()
                .map(JsCast::unchecked_into::<SpeechSynthesisVoice>)
                .find(|voice| voice.name() == *name);
            utterance.set_voice(voice.as_ref());
        }
        synthesis.speak(&utterance);
    }

    /// Stops what is being spoken and drops what is queued.
    pub fn cancel() {
        if let Some(synthesis) = synthesis() {
            synthesis.cancel();
        }
    }

    /// The names of the voices the browser has.
    pub fn voices() -> Vec<String> {
        synthesis()
            .map(|synthesis| {
                synthesis
                    .get_voices()
                    .iter()
                    .map(|voice| voice.unchecked_into::<SpeechSynthesisVoice>().name())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    /// What this browser remembers (the defaults when nothing, or something unreadable).
    pub fn load() -> ReadAloudSettings {
        storage()
            .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten())
            .and_then(|json| crate::wire::codec::decode(&json).ok())
            .unwrap_or_default()
    }

    /// Remembers `settings` in this browser.
    pub fn save(settings: &ReadAloudSettings) {
        if let (Some(storage), Ok(json)) = (storage(), serde_json::to_string(settings)) {
            // A full or refused storage only means the choice is not remembered.
            let _ = storage.set_item(STORAGE_KEY, &json);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streaming_scene_gives_its_sentences_once_each_is_complete() {
        let text = "You walk to the **pier**. The boards creak! Do they";
        let (sentences, next) = complete_sentences(text, 0);
        assert_eq!(sentences, ["You walk to the pier.", "The boards creak!"]);
        assert_eq!(&text[next..], " Do they");
        let more = format!("{text} hold? \"Yes.\" And then");
        let (sentences, next) = complete_sentences(&more, next);
        assert_eq!(sentences, ["Do they hold?", "\"Yes.\""]);
        assert_eq!(&more[next..], " And then");
        // The last sentence has no space after it yet: it waits for the scene's end.
        let (sentences, _) = complete_sentences("It ends.", 0);
        assert!(sentences.is_empty());
        assert_eq!(complete_sentences("Hi. ", 99), (Vec::new(), 4));
    }

    #[test]
    fn speech_leaves_markdown_out() {
        assert_eq!(
            speakable("  # The **Sunken**  _Market_ "),
            "The Sunken Market"
        );
    }

    #[test]
    fn settings_read_back_and_default_to_off_at_normal_speed() {
        let settings = ReadAloudSettings {
            on: true,
            voice: Some("Test voice".into()),
            rate: 1.25,
        };
        let json = serde_json::to_string(&settings).unwrap();
        assert_eq!(
            serde_json::from_str::<ReadAloudSettings>(&json).unwrap(),
            settings
        );
        assert!(!ReadAloudSettings::default().on);
        assert_eq!(ReadAloudSettings::default().rate, 1.0);
    }

    #[test]
    fn each_speed_offered_reads_back_from_its_option() {
        for (_, value, rate) in RATES {
            assert_eq!(rate_value(rate), value);
            assert_eq!(rate_of(value), rate);
        }
        assert_eq!(rate_value(3.0), "1");
        assert_eq!(rate_of("fast"), 1.0);
    }
}

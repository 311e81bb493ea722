//! Play by voice: a push-to-talk button beside the move box. Where the browser has speech
//! recognition (the Web Speech API's `SpeechRecognition`, or Chromium's `webkitSpeechRecognition`)
//! a press starts listening and a second press stops; what was said is added to the box, after
//! anything typed there, for the player to read and send: it is never sent by itself. Where the
//! browser has none the button stays hidden (the server renders it hidden, so hydration matches).
//! The recognition's glue is fetched on the first press (`#[lazy]`, a chunk of its own in the
//! split build).

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use super::state::use_play;

/// The most characters the move box holds (its `maxlength`); what is said past it is cut.
pub const MOVE_BOX_CHARS: usize = 2000;

/// Why listening failed, as the browser's recognition reports it (`SpeechRecognitionErrorEvent`'s
/// `error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoiceError {
    /// The player or the browser refused the microphone.
    NotAllowed,
    /// No microphone.
    NoMicrophone,
    /// Nothing was heard.
    NoSpeech,
    /// The browser's recognition service could not be reached.
    Network,
    /// The language is not recognised.
    Language,
    /// Anything else, or the recognition could not start.
    Failed,
}

impl VoiceError {
    /// The error named by the browser's code.
    pub fn from_code(code: &str) -> Self {
        match code {
            "not-allowed" | "service-not-allowed" => Self::NotAllowed,
            "audio-capture" => Self::NoMicrophone,
            "no-speech" => Self::NoSpeech,
            "network" => Self::Network,
            "language-not-supported" => Self::Language,
            _ => Self::Failed,
        }
    }

    /// What the player is told.
    pub fn message(self) -> &'static str {
        match self {
            Self::NotAllowed => {
                "The microphone is not allowed: allow it for this site, or type your move."
            }
            Self::NoMicrophone => "No microphone was found: type your move instead.",
            Self::NoSpeech => "Nothing was heard: press the microphone and speak again.",
            Self::Network => "Speech recognition needs a connection: type your move instead.",
            Self::Language => {
                "Speech recognition does not know this language: type your move instead."
            }
            Self::Failed => "Speech recognition failed: type your move instead.",
        }
    }
}

/// The move box's text with `said` added after what is there (a space between), cut to
/// [`MOVE_BOX_CHARS`]: nothing typed is lost.
pub fn with_transcript(typed: &str, said: &str) -> String {
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    if said.is_empty() {
        return typed.to_owned();
    }
    let joined = if typed.is_empty() || typed.ends_with(char::is_whitespace) {
        format!("{typed}{said}")
    } else {
        format!("{typed} {said}")
    };
    let kept = typed.chars().count().max(MOVE_BOX_CHARS);
    joined.chars().take(kept).collect()
}

/// What the button and its glue share.
#[derive(Clone, Copy)]
pub struct Voice {
    /// The move box.
    text: RwSignal<String>,
    /// Whether the recognition is listening.
    listening: RwSignal<bool>,
    /// The last failure, shown under the box until the next press.
    problem: RwSignal<Option<VoiceError>>,
    /// The recognition of the last press, kept until the next (or the page is left). Only ever
    /// set in the browser: the server renders the button on any of its threads and cleans up on
    /// another, where a thread-local value could not be dropped.
    active: StoredValue<Option<SendWrapper<recognition::Listening>>>,
}

/// The push-to-talk button, hidden until the browser is known to have speech recognition.
#[component]
pub fn VoiceButton(
    /// Where a failure to listen is told ([`VoiceProblem`]).
    problem: RwSignal<Option<VoiceError>>,
) -> impl IntoView {
    let state = use_play();
    let available = RwSignal::new(false);
    let voice = Voice {
        text: state.text,
        listening: RwSignal::new(false),
        problem,
        active: StoredValue::new(None),
    };
    // Effects run only in the browser, after hydration.
    Effect::new(move |_| available.set(recognition_available()));
    on_cleanup(move || {
        // Dropping it stops it.
        voice.active.try_update_value(Option::take);
    });
    let press = move |_| {
        voice.problem.set(None);
        leptos::task::spawn_local(async move { (glue().await.press)(voice) });
    };
    view! {
        <button
            type="button"
            class="voice"
            data-testid="voice"
            hidden=move || !available.get()
            disabled=move || state.busy.get()
            aria-pressed=move || voice.listening.get().to_string()
            aria-label=move || if voice.listening.get() { "Stop listening" } else { "Push to talk" }
            title="Press, speak, press again: what you said goes in the box, for you to send"
            on:click=press
        >
            // A drawn microphone: an emoji depends on the fonts a system has (a box without).
            <svg class="mic" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                <rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor" />
                <path d="M6 11a6 6 0 0 0 12 0M12 17v4M8 21h8" fill="none" stroke="currentColor" stroke-width="2" />
            </svg>
        </button>
    }
}

/// Why the last press could not listen, until the next press.
#[component]
pub fn VoiceProblem(
    /// The [`VoiceButton`]'s failure.
    problem: RwSignal<Option<VoiceError>>,
) -> impl IntoView {
    move || {
        problem.get().map(|problem| {
            view! { <p class="voice-error error" role="alert" data-testid="voice-error">{problem.message()}</p> }
        })
    }
}

/// Whether the browser has speech recognition (called in the browser only).
fn recognition_available() -> bool {
    use leptos::wasm_bindgen::JsValue;

    web_sys::window().is_some_and(|window| {
        recognition::CONSTRUCTORS.iter().any(|name| {
            web_sys::js_sys::Reflect::get(&window, &JsValue::from_str(name))
                .is_ok_and(|value| value.is_function())
        })
    })
}

/// The glue's entry point, fetched on the first press.
#[derive(Clone, Copy)]
struct Glue {
    /// Starts listening, or stops what is listening.
    press: fn(Voice),
}

/// The recognition's glue: a chunk of its own in the split build (`lazy_chunks`, app/build.rs).
#[cfg_attr(lazy_chunks, lazy)]
async fn glue() -> Glue {
    Glue {
        press: recognition::press,
    }
}

/// The browser's speech recognition, through `js_sys::Reflect` (web-sys has its bindings only
/// behind an unstable cfg).
mod recognition {
    use leptos::prelude::*;
    use leptos::wasm_bindgen::{closure::Closure, JsCast, JsValue};
    use web_sys::js_sys::{Array, Function, Reflect};

    use super::{with_transcript, SendWrapper, Voice, VoiceError};

    /// The names the browsers give the recognition's constructor.
    pub const CONSTRUCTORS: [&str; 2] = ["SpeechRecognition", "webkitSpeechRecognition"];

    /// Starts listening, or stops what is listening (its last words still come).
    pub fn press(voice: Voice) {
        if voice.listening.get_untracked() {
            voice.active.with_value(|active| {
                if let Some(listening) = active {
                    listening.stop();
                }
            });
            return;
        }
        // Before it starts: a recognition may end while it starts.
        voice.listening.set(true);
        match Listening::start(voice) {
            Ok(listening) => voice.active.set_value(Some(SendWrapper::new(listening))),
            Err(error) => {
                voice.listening.set(false);
                voice.problem.set(Some(error));
            }
        }
    }

    /// The event handlers the recognition calls.
    const HANDLERS: [&str; 3] = ["onresult", "onerror", "onend"];

    /// A recognition listening (or done), with its handlers; dropping it stops it.
    pub struct Listening {
        recognition: JsValue,
        _handlers: [Closure<dyn FnMut(JsValue)>; 3],
    }

    impl Listening {
        /// A new recognition, listening until stopped, its final words added to the box.
        pub fn start(voice: Voice) -> Result<Self, VoiceError> {
            let window: JsValue = web_sys::window().ok_or(VoiceError::Failed)?.into();
            let constructor = CONSTRUCTORS
                .iter()
                .filter_map(|name| Reflect::get(&window, &JsValue::from_str(name)).ok())
                .find_map(|value| value.dyn_into::<Function>().ok())
                .ok_or(VoiceError::Failed)?;
            let recognition =
                Reflect::construct(&constructor, &Array::new()).map_err(|_| VoiceError::Failed)?;
            set(&recognition, "continuous", &JsValue::TRUE);
            set(&recognition, "interimResults", &JsValue::FALSE);
            let handlers = [
                Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                    let said = final_words(&event);
                    voice
                        .text
                        .update(|text| *text = with_transcript(text, &said));
                }),
                Closure::new(move |event: JsValue| {
                    let code = get(&event, "error").as_string().unwrap_or_default();
                    voice.problem.set(Some(VoiceError::from_code(&code)));
                }),
                Closure::new(move |_: JsValue| voice.listening.set(false)),
            ];
            for (name, handler) in HANDLERS.iter().zip(&handlers) {
                set(&recognition, name, handler.as_ref());
            }
            call(&recognition, "start").map_err(|_| VoiceError::Failed)?;
            Ok(Self {
                recognition,
                _handlers: handlers,
            })
        }

        /// Stops listening; the words heard so far still arrive.
        pub fn stop(&self) {
            let _ = call(&self.recognition, "stop");
        }
    }

    impl Drop for Listening {
        fn drop(&mut self) {
            // Its handlers go with it: the recognition must not call them any more.
            for name in HANDLERS {
                set(&self.recognition, name, &JsValue::NULL);
            }
            let _ = call(&self.recognition, "abort");
        }
    }

    /// The most results one event is read for.
    const MAX_RESULTS: u32 = 100;

    /// The final words of a `result` event (its results from `resultIndex` on).
    fn final_words(event: &JsValue) -> String {
        let results = get(event, "results");
        let from = get(event, "resultIndex").as_f64().unwrap_or(0.0) as u32;
        let count = get(&results, "length").as_f64().unwrap_or(0.0) as u32;
        (from..count.min(from.saturating_add(MAX_RESULTS)))
            .map(|index| Reflect::get_u32(&results, index).unwrap_or_default())
            .filter(|result| get(result, "isFinal").is_truthy())
            .filter_map(|result| {
                let best = Reflect::get_u32(&result, 0).ok()?;
                get(&best, "transcript").as_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn get(target: &JsValue, name: &str) -> JsValue {
        Reflect::get(target, &JsValue::from_str(name)).unwrap_or_default()
    }

    fn set(target: &JsValue, name: &str, value: &JsValue) {
        let _ = Reflect::set(target, &JsValue::from_str(name), value);
    }

    fn call(target: &JsValue, method: &str) -> Result<JsValue, JsValue> {
        get(target, method).dyn_into::<Function>()?.call0(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_said_goes_after_what_was_typed() {
        assert_eq!(with_transcript("", "open the door"), "open the door");
        assert_eq!(
            with_transcript("I look around.", " open  the door "),
            "I look around. open the door"
        );
        assert_eq!(with_transcript("Then ", "run"), "Then run");
        assert_eq!(with_transcript("kept", "   "), "kept");
    }

    #[test]
    fn the_box_is_cut_at_its_length_but_what_was_typed_is_kept() {
        let typed = "a".repeat(MOVE_BOX_CHARS - 3);
        let joined = with_transcript(&typed, "bcdef");
        assert_eq!(joined.chars().count(), MOVE_BOX_CHARS);
        assert!(joined.ends_with(" bc"));
        let long = "é".repeat(MOVE_BOX_CHARS + 5);
        assert_eq!(with_transcript(&long, "more"), long);
    }

    #[test]
    fn the_servers_empty_recognition_is_cleaned_up_on_another_thread() {
        // The server renders the button on one thread and may clean its page up on another.
        let owner = Owner::new();
        let active = owner.with(|| {
            let active: StoredValue<Option<SendWrapper<recognition::Listening>>> =
                StoredValue::new(None);
            on_cleanup(move || {
                active.try_update_value(Option::take);
            });
            active
        });
        assert!(active.with_value(Option::is_none));
        std::thread::spawn(move || owner.cleanup()).join().unwrap();
    }

    #[test]
    fn the_browsers_error_codes_become_clear_messages() {
        assert_eq!(VoiceError::from_code("not-allowed"), VoiceError::NotAllowed);
        assert_eq!(
            VoiceError::from_code("service-not-allowed"),
            VoiceError::NotAllowed
        );
        assert_eq!(VoiceError::from_code("no-speech"), VoiceError::NoSpeech);
        assert_eq!(VoiceError::from_code("aborted"), VoiceError::Failed);
        assert!(VoiceError::NotAllowed.message().contains("microphone"));
    }
}

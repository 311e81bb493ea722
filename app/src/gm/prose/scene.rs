//! What play reads in the story's prose: the last scene the narrator wrote, the things a scene
//! names (the rules' candidate moves and the fallback actions are built from them), and what an
//! action may not merely echo.

use crate::campaign::state::CampaignState;
use crate::gm::llm::Message;

/// Verbs an action may start with (imperative, lower case).
pub(super) const VERBS: &[&str] = &[
    "accept",
    "aim",
    "approach",
    "ask",
    "attack",
    "avoid",
    "barter",
    "bargain",
    "block",
    "board",
    "break",
    "bribe",
    "call",
    "calm",
    "cast",
    "charge",
    "chase",
    "check",
    "circle",
    "claim",
    "clean",
    "climb",
    "close",
    "collect",
    "comfort",
    "confront",
    "continue",
    "crawl",
    "cross",
    "cut",
    "dash",
    "decline",
    "defend",
    "demand",
    "descend",
    "dig",
    "disarm",
    "distract",
    "dive",
    "dodge",
    "drag",
    "draw",
    "drink",
    "drop",
    "duck",
    "eat",
    "enter",
    "escape",
    "examine",
    "explore",
    "feel",
    "fight",
    "find",
    "flee",
    "follow",
    "force",
    "gather",
    "give",
    "grab",
    "greet",
    "guard",
    "haggle",
    "head",
    "help",
    "hide",
    "hold",
    "hurry",
    "inspect",
    "interrogate",
    "investigate",
    "jump",
    "kick",
    "kneel",
    "knock",
    "leap",
    "leave",
    "lift",
    "light",
    "listen",
    "lock",
    "look",
    "loot",
    "lure",
    "make",
    "move",
    "offer",
    "open",
    "pay",
    "peek",
    "persuade",
    "pick",
    "play",
    "plead",
    "pour",
    "pray",
    "press",
    "pry",
    "pull",
    "push",
    "question",
    "raise",
    "read",
    "recall",
    "refuse",
    "rest",
    "retreat",
    "return",
    "run",
    "rush",
    "scout",
    "search",
    "seek",
    "shout",
    "show",
    "shove",
    "signal",
    "slip",
    "smash",
    "sneak",
    "speak",
    "splash",
    "sprint",
    "stab",
    "stand",
    "steal",
    "step",
    "study",
    "surrender",
    "swim",
    "take",
    "talk",
    "tell",
    "threaten",
    "throw",
    "touch",
    "track",
    "trade",
    "turn",
    "untie",
    "use",
    "wade",
    "wait",
    "wake",
    "walk",
    "warn",
    "watch",
    "wave",
    "whisper",
    "wield",
];

/// What an action may not merely repeat: the character's name, class and sheet line, and the
/// premise.
pub fn echoes(state: &CampaignState) -> Vec<String> {
    let sheet = &state.sheet;
    let (name, class) = (sheet.name().as_str(), sheet.class().as_str());
    vec![
        name.to_owned(),
        class.to_owned(),
        format!("{class}, level {}", sheet.level().value()),
        format!("{name} the {class}"),
        format!("{name}, {class}"),
        state.premise.clone(),
    ]
}

/// The last scene the narrator wrote (the newest assistant prose in the verbatim turns).
pub fn last_scene(state: &CampaignState) -> Option<&str> {
    state
        .context
        .iter()
        .rev()
        .flat_map(|turn| turn.messages.iter().rev())
        .find_map(|message| match message {
            Message::Assistant {
                content: Some(text),
                ..
            } if !text.trim().is_empty() => Some(text.as_str()),
            _ => None,
        })
}

/// Articles: each opens a noun phrase, whose head noun is a thing the scene names.
const ARTICLES: &[&str] = &["the", "a", "an"];

/// Quantifiers and numbers: never a thing. After an article they are passed over ("a few
/// torches"); alone, they open a noun phrase whose head is a plural ("several goblins"), which
/// tells them from the same words used as pronouns ("some say").
const QUANTIFIERS: &[&str] = &[
    "few", "several", "many", "some", "both", "these", "those", "all", "other", "two", "three",
    "four", "five", "six", "seven", "eight", "nine", "ten", "dozen",
];

/// Adjectives: they describe the word after them, which is part of the thing ("the old gate");
/// a phrase that ends on one names nothing ("a massive, ancient door" names no thing in "a
/// massive").
const ADJECTIVES: &[&str] = &[
    "old",
    "iron",
    "stone",
    "wooden",
    "dark",
    "small",
    "large",
    "great",
    "heavy",
    "broken",
    "ancient",
    "narrow",
    "wide",
    "tall",
    "low",
    "black",
    "white",
    "red",
    "silver",
    "golden",
    "cold",
    "wet",
    "deep",
    "hidden",
    "locked",
    "open",
    "strange",
    "little",
    "big",
    "long",
    "huge",
    "vast",
    "tiny",
    "faint",
    "dim",
    "bright",
    "thick",
    "thin",
    "rough",
    "soft",
    "loud",
    "quiet",
    "silent",
    "empty",
    "full",
    "sharp",
    "pale",
    "grim",
    "foul",
    "warm",
    "hot",
    "dry",
    "damp",
    "young",
    "new",
    "fresh",
    "odd",
    "weird",
    "eerie",
    "ornate",
    "distant",
    "far",
    "near",
    "sudden",
    "strong",
    "weak",
    "grey",
    "gray",
    "green",
    "blue",
    "brown",
    "bare",
    "lone",
    "single",
    "only",
    "same",
    "next",
    "first",
    "last",
    "whole",
    "very",
    "best",
    "most",
    "least",
    "such",
    "own",
    "certain",
    "main",
    "grand",
    "different",
    "unique",
];

/// Endings that make a word an adjective ("massive", "wondrous", "endless", "magical",
/// "maw-like", "ghostly"), unless it is one of [`NOUNS_LIKE_ADJECTIVES`].
const ADJECTIVE_ENDINGS: &[&str] = &[
    "ous", "ful", "less", "ive", "ic", "al", "ible", "able", "like", "ly",
];

/// Nouns a scene may name that end like adjectives.
const NOUNS_LIKE_ADJECTIVES: &[&str] = &[
    "animal",
    "crystal",
    "metal",
    "portal",
    "pedestal",
    "ritual",
    "signal",
    "cathedral",
    "festival",
    "general",
    "journal",
    "mural",
    "canal",
    "spiral",
    "jackal",
    "mortal",
    "relic",
    "cleric",
    "attic",
    "tunic",
    "magic",
    "mimic",
    "heretic",
    "table",
    "stable",
    "cable",
    "constable",
    "bible",
    "crucible",
    "captive",
    "fugitive",
    "archive",
    "olive",
    "missive",
    "family",
    "assembly",
    "belly",
];

/// Plurals that do not end in -s.
const IRREGULAR_PLURALS: &[&str] = &["men", "women", "people", "children", "folk"];

/// Nouns that name no thing one could act on, however described ("the strange things", "the
/// only way"); their plurals in -s neither.
const NOT_THINGS: &[&str] = &[
    "thing",
    "something",
    "anything",
    "everything",
    "nothing",
    "stuff",
    "one",
    "others",
    "way",
    "time",
    "moment",
    "truth",
    "story",
    "scene",
    "character",
    "beginning",
    "end",
    "rest",
    "case",
    "idea",
    "plan",
    "following",
    "world",
    "game",
    "player",
    "adventure",
    "option",
    "action",
    "question",
    "answer",
    "chance",
    "day",
    "night",
    "air",
    "situation",
    "past",
    "future",
    "fact",
    "kind",
    "sort",
    "lot",
    "bit",
    "part",
    "number",
    "sense",
    "feeling",
    "quest",
    "journey",
    "life",
    "mind",
    "heart",
    "use",
    "place",
    "area",
];

/// Nouns that are also verbs in the list, kept as things.
const PEOPLE_LIKE: &[&str] = &["guard", "light", "signal", "wave", "track", "play"];

/// Words that end a thing's name rather than continue it.
const ENDS_A_NAME: &[&str] = &[
    "of", "and", "or", "in", "on", "at", "to", "with", "from", "that", "which", "who", "is", "was",
    "are", "were", "as", "by", "for",
];

/// Whether `word` (lower case) may be part of a thing's name: letters and hyphens only, and not
/// a word that ends a name.
fn may_name(word: &str) -> bool {
    word.chars().all(|c| c.is_alphabetic() || c == '-') && !ENDS_A_NAME.contains(&word)
}

/// Whether `word` (lower case) is an adjective: listed, or ending like one (see
/// [`ADJECTIVE_ENDINGS`]) and not a noun that does.
fn is_adjective(word: &str) -> bool {
    ADJECTIVES.contains(&word)
        || word.len() > 4
            && ADJECTIVE_ENDINGS.iter().any(|end| word.ends_with(end))
            && !NOUNS_LIKE_ADJECTIVES.contains(&word)
}

/// Whether `word` (lower case) may describe the word after it, though it can also be a noun: a
/// participle ("the drowned gate", "a dripping arch"), a word in -y ("a rusty key", but "the
/// city") or a hyphenated compound ("a lantern-lit crypt").
fn describes(word: &str) -> bool {
    ["ed", "ing", "en"]
        .iter()
        .any(|end| word.len() > 4 && word.ends_with(end))
        || (word.len() > 3 && word.ends_with('y'))
        || word.contains('-')
}

/// Whether the noun `word` (lower case) names nothing one could act on (see [`NOT_THINGS`]).
fn is_vague(word: &str) -> bool {
    NOT_THINGS.contains(&word)
        || word
            .strip_suffix('s')
            .is_some_and(|one| NOT_THINGS.contains(&one))
}

/// Whether the noun `word` (lower case) is a plural.
fn is_plural(word: &str) -> bool {
    (word.ends_with('s') && !word.ends_with("ss")) || IRREGULAR_PLURALS.contains(&word)
}

/// The thing the noun phrase `phrase` (lower-case words after its article or quantifier) names:
/// its head noun, with the word describing it just before ("drowned gate"). The head is the
/// first word that is no article, quantifier or adjective, and no participle followed by more
/// of the name. None when the phrase ends before its head ("the few", "a massive"), when the
/// head is vague ("the strange things") or a move ("a look"), or when `plural` (the phrase
/// follows a quantifier) and the head is no plural ("some say").
fn thing_in(phrase: &[String], plural: bool) -> Option<String> {
    let passed_over =
        |word: &String| ARTICLES.contains(&word.as_str()) || QUANTIFIERS.contains(&word.as_str());
    let start = phrase.iter().position(|word| !passed_over(word))?;
    let mut modifier: Option<&str> = None;
    for (at, word) in phrase.iter().enumerate().skip(start) {
        if !may_name(word) {
            return None;
        }
        let continued = phrase.get(at + 1).is_some_and(|next| may_name(next));
        if is_adjective(word) || (describes(word) && continued) {
            modifier = Some(word);
            continue;
        }
        let a_move = modifier.is_none()
            && VERBS.contains(&word.as_str())
            && !PEOPLE_LIKE.contains(&word.as_str());
        if is_vague(word) || a_move || (plural && !is_plural(word)) {
            return None;
        }
        let thing = modifier.map_or_else(|| word.clone(), |m| format!("{m} {word}"));
        return Some(thing).filter(|thing| thing.len() >= 3);
    }
    None
}

/// The things a scene names, most recent mention last: the head nouns of its noun phrases, each
/// with the word describing it ("the drowned gate", "a rusty key", "a few torches", "several
/// goblins"), without the article. Only nouns: not adjectives ("a massive"), quantities ("a
/// few") or vague nouns ("things"). A noun before another ("the guard tower") cannot be told
/// from a noun before its verb ("the guard dozes"), so the first one is taken.
pub fn things_named(scene: &str) -> Vec<String> {
    let mut things: Vec<String> = Vec::new();
    for clause in scene.split(|c: char| ",.;:!?\n()\"*_".contains(c)) {
        let words: Vec<String> = clause.split_whitespace().map(str::to_lowercase).collect();
        for (at, word) in words.iter().enumerate() {
            let plural = if ARTICLES.contains(&word.as_str()) {
                false
            } else if QUANTIFIERS.contains(&word.as_str()) {
                true
            } else {
                continue;
            };
            if let Some(thing) = thing_in(&words[at + 1..], plural) {
                things.retain(|known| *known != thing);
                things.push(thing);
            }
        }
    }
    things
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_things_a_scene_names_are_found() {
        let scene = "You stand before the drowned gate of Hollowmere. A guard dozes under a \
                     dripping arch, and the rain keeps falling.";
        assert_eq!(
            things_named(scene),
            ["drowned gate", "guard", "dripping arch", "rain"]
        );
        let observed = "You stood at the entrance of the city of Xeridia, the only possible way, \
                        a great adventure in the air. The enemy and a lantern wait.";
        assert_eq!(
            things_named(observed),
            ["entrance", "city", "enemy", "lantern"]
        );
    }

    #[test]
    fn only_nouns_are_things_not_adjectives_quantities_or_vague_words() {
        let scene = "A massive door looms ahead, lit by a few torches. Several goblins crouch \
                     over the strange things they found.";
        assert_eq!(things_named(scene), ["massive door", "torches", "goblins"]);
        for nameless in [
            "A massive, ancient door.",
            "The few who remain watch you.",
            "Some say the many are lost.",
            "You sense something, the only possible way.",
            "Approach the normal carefully",
        ] {
            assert!(things_named(nameless).is_empty(), "{nameless}");
        }
        let nouns = "The jackal snarls at the other guard; the crystal glows in a lantern-lit \
                     crypt, over two mysterious figures and both doors.";
        assert_eq!(
            things_named(nouns),
            [
                "jackal",
                "guard",
                "crystal",
                "lantern-lit crypt",
                "mysterious figures",
                "doors"
            ]
        );
    }
}

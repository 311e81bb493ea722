//! A spell cast in the player's own words: `I cast Fireball at the goblins`, `Cast Cure Wounds
//! with a 2nd-level slot`. Only words that say *cast* count, so `I sleep by the fire` or `I
//! light a torch` cast nothing. The rules answer a cast the hero cannot make before the model
//! reads a word: "You don't know Fireball", "No 3rd-level slot left", nothing spent.

use super::powers::PowerError;
use super::sheet::CharacterSheet;
use super::spells::{Spell, SpellBook, SpellLevel};

/// The verbs that make words a cast.
const CAST_VERBS: &[&str] = &["cast", "casts", "casting", "recast"];

/// A cast the words ask for: the spell, and the slot level they name, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastWords {
    /// The spell named.
    pub spell: &'static Spell,
    /// The slot level named (`with a 2nd-level slot`), if any.
    pub slot: Option<SpellLevel>,
}

/// The lower-case words of `text`.
fn lower_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The cast `text` asks for, if it says *cast* and names a spell of the book.
pub fn cast_in(text: &str) -> Option<CastWords> {
    let words = lower_words(text);
    if !words.iter().any(|w| CAST_VERBS.contains(&w.as_str())) {
        return None;
    }
    let spell = SpellBook::srd().named_in(text)?;
    let slot = words.iter().find_map(|word| slot_named(word));
    Some(CastWords { spell, slot })
}

/// The slot level a word like `2nd-level` or `3rd` names.
fn slot_named(word: &str) -> Option<SpellLevel> {
    let head = word.strip_suffix("-level").unwrap_or(word);
    let digits: String = head.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &head[digits.len()..];
    if digits.is_empty() || !["st", "nd", "rd", "th"].contains(&suffix) {
        return None;
    }
    let level = digits.parse::<u8>().ok()?;
    SpellLevel::new(level).ok().filter(|l| !l.is_cantrip())
}

/// The cast `text` asks for, checked against what the hero knows and has left: `None` when the
/// words cast nothing, else the spell and the slot it would spend, or why the rules refuse it.
pub fn checked_cast(
    text: &str,
    sheet: &CharacterSheet,
) -> Option<Result<(&'static Spell, SpellLevel), PowerError>> {
    let words = cast_in(text)?;
    Some(sheet.castable(&words.spell.name, words.slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_words_that_cast_name_a_spell() {
        let cast = cast_in("I cast Fireball at the goblins!").unwrap();
        assert_eq!(cast.spell.name, "Fireball");
        assert_eq!(cast.slot, None);
        let upcast = cast_in("Cast cure wounds with a 2nd-level slot").unwrap();
        assert_eq!(upcast.spell.name, "Cure Wounds");
        assert_eq!(upcast.slot, SpellLevel::new(2).ok());
        assert!(cast_in("I sleep by the fire").is_none());
        assert!(cast_in("I light a torch and raise my shield").is_none());
        assert!(cast_in("I cast a glance at the door").is_none());
    }
}

//! A campaign's title: bounded, printable text, wherever it comes from (a new character, an
//! imported file, a branch of a branch).

/// The most characters of a campaign's title.
pub const MAX_TITLE_CHARS: usize = 100;

/// The title a campaign gets when what it was given holds nothing printable.
const UNTITLED: &str = "An untitled campaign";

/// A title: 1 to [`MAX_TITLE_CHARS`] characters, no control or direction-changing characters,
/// whitespace folded to single spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Title(String);

impl Title {
    /// `raw` made a title: unprintable characters dropped, whitespace folded, cut to the bound.
    pub fn clean(raw: &str) -> Self {
        let printable: String = raw
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .filter(|&c| !c.is_control() && !is_format(c))
            .collect();
        let folded = printable.split_whitespace().collect::<Vec<_>>().join(" ");
        let cut: String = folded.chars().take(MAX_TITLE_CHARS).collect();
        match cut.trim_end() {
            "" => Self(UNTITLED.to_owned()),
            title => Self(title.to_owned()),
        }
    }

    /// The title of a campaign branched from `title` at `turn`: the original's title (without
    /// the turn a branch of it was taken from) and this turn, so a chain of branches never grows.
    pub fn branch(title: &str, turn: u32) -> Self {
        let mut base = title.trim_end();
        while let Some(stripped) = branch_suffix(base) {
            base = stripped;
        }
        let suffix = format!(" (from turn {turn})");
        let room = MAX_TITLE_CHARS.saturating_sub(suffix.chars().count());
        let base: String = Self::clean(base).0.chars().take(room).collect();
        Self::clean(&format!("{}{suffix}", base.trim_end()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// `title` without a trailing ` (from turn N)`, if it has one.
fn branch_suffix(title: &str) -> Option<&str> {
    let open = title.strip_suffix(')')?.rfind(" (from turn ")?;
    let digits = &title[open + " (from turn ".len()..title.len() - 1];
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| &title[..open])
}

/// Invisible characters that change how text around them reads: direction marks, embeddings
/// and overrides (U+202E turns the rest of a line around), isolates, zero-width characters.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_keep_printable_text_only() {
        assert_eq!(
            Title::clean("Evil\u{0}\u{1b}[31m \u{202E}drow\u{202C}  tale\n").as_str(),
            "Evil[31m drow tale"
        );
        assert_eq!(Title::clean("\u{202E}\u{0} ").as_str(), UNTITLED);
        assert_eq!(
            Title::clean(&"é".repeat(300)).as_str().chars().count(),
            MAX_TITLE_CHARS
        );
    }

    #[test]
    fn a_chain_of_branches_keeps_one_turn_and_its_bound() {
        let mut title = Title::clean("Mira the Ranger");
        for turn in 2..50 {
            title = Title::branch(title.as_str(), turn);
        }
        assert_eq!(title.as_str(), "Mira the Ranger (from turn 49)");
        let long = Title::branch(&"x".repeat(MAX_TITLE_CHARS), 7);
        assert_eq!(long.as_str().chars().count(), MAX_TITLE_CHARS);
        assert!(long.as_str().ends_with(" (from turn 7)"));
        assert_eq!(
            Title::branch("Odd (from turn x)", 3).as_str(),
            "Odd (from turn x) (from turn 3)"
        );
    }
}

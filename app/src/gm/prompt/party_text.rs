//! The party in the prompt: at a table of friends or with companions, each character's
//! compact sheet after the hero's, who plays them, and how the narrator names them in tools.

use std::fmt::Write;

use crate::campaign::state::CampaignState;
use crate::game::party::{Member, Role};

/// "The party" layer: empty while the hero travels alone.
pub fn party_text(state: &CampaignState) -> String {
    if state.party.is_empty() {
        return String::new();
    }
    let mut text = String::from("\n\n# The party\n");
    // Friends at the table move together in one message; companions are voiced by the model.
    if state.party.members().iter().any(|m| m.seat().is_some()) {
        text.push_str("Narrate every hero's move in the player's message. ");
    }
    text.push_str(
        "A tool that changes or rolls for one character names it (\"character\"; left out: the \
         character above).",
    );
    for member in state.party.members() {
        let _ = write!(text, "\n- {}", compact(member));
    }
    text
}

/// One member in a line: `Mira (Rogue 1, a player's hero): HP 9/9, AC 14, dagger.`
fn compact(member: &Member) -> String {
    let sheet = &member.sheet;
    let who = match member.role {
        Role::Seat { .. } => "a player's hero",
        Role::Companion => "a companion you voice; the rules fight for them",
    };
    let hp = sheet.hit_points();
    let mut line = format!(
        "{} ({} {}, {who}): HP {}/{}, AC {}",
        sheet.name().as_str(),
        sheet.class().as_str(),
        sheet.level().value(),
        hp.current(),
        hp.max(),
        sheet.armor_class().value(),
    );
    if let Ok(attack) = sheet.weapon_attack(None) {
        let _ = write!(line, ", {}", attack.name().to_lowercase());
    }
    if member.has_fallen() {
        line.push_str(", fallen: out of the story");
    }
    line.push('.');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::creation::tests_support::named;
    use crate::game::party::{Member, Seat};

    #[test]
    fn a_lone_hero_has_no_party_layer_and_a_party_has_one_line_each() {
        let mut state = CampaignState::start("A bridge", named("Aria", "Fighter"));
        assert_eq!(party_text(&state), "");
        let mira = Member {
            role: Role::Seat {
                seat: Seat::new(2).unwrap(),
            },
            sheet: named("Mira", "Rogue"),
        };
        let bran = Member {
            role: Role::Companion,
            sheet: named("Bran", "Cleric"),
        };
        state.party.join(bran, "Aria").unwrap();
        let moves = "Narrate every hero's move in the player's message.";
        assert!(
            !party_text(&state).contains(moves),
            "companions alone: one player, one move"
        );
        state.party.join(mira, "Aria").unwrap();
        let text = party_text(&state);
        assert!(text.contains(moves), "{text}");
        assert!(
            text.contains("\n- Mira (Rogue 1, a player's hero): HP "),
            "{text}"
        );
        assert!(
            text.contains("\n- Bran (Cleric 1, a companion you voice"),
            "{text}"
        );
        assert_eq!(text.matches("\n- ").count(), 2);
    }
}

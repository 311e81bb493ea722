//! Whose sheet a tool call changes, at a table of several characters. The tools that change or
//! roll for one character take a `character` argument when the party is not the host's hero
//! alone: a plain string (the names are said once, in the party layer of the system message,
//! not in every schema), and a call that names nobody at the table is refused with the names.
//! Solo, the tools are as ever and act on the hero.

use rand::Rng;
use serde_json::{json, Value};

use super::run::{execute, ToolTable};
use super::{
    AddInventory, ChangeInventory, GameTool, HazardCall, RequestCheck, RunError, SanityCheckCall,
    ToolCommand, ToolOutcome, UpdateCharacter, UpdateInventory,
};
use crate::campaign::turn_event::ToolEffect;
use crate::game::party::Party;
use crate::gm::llm::{ToolCall, ToolDefinition};

/// The argument that names the character a call is for.
pub const CHARACTER: &str = "character";

/// The tools that act on one character's sheet (the former inventory tools too, still read).
pub const FOR_ONE_CHARACTER: [&str; 7] = [
    UpdateCharacter::NAME,
    ChangeInventory::NAME,
    AddInventory::NAME,
    UpdateInventory::NAME,
    RequestCheck::NAME,
    SanityCheckCall::NAME,
    HazardCall::NAME,
];

/// The character a call is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The host's hero (the campaign's own sheet).
    Host,
    /// The party member at this index.
    Member(usize),
}

/// A call naming nobody at the table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("nobody at the table is called {named:?}; the characters are {names}")]
pub struct NobodyCalled {
    /// The name the call gave.
    pub named: String,
    /// The names at the table, as a list.
    pub names: String,
}

/// Gives the tools that act on one character a `character` argument (a name), when the party
/// has anyone besides the host. The names are not listed in the schema: the party layer lists
/// them once, and [`whose`] refuses a name nobody at the table has, with the names.
pub fn name_the_characters(definitions: &mut [ToolDefinition], party: &Party) {
    if party.is_empty() {
        return;
    }
    // No description: the party layer says what it is and that left out it is the host's hero.
    let property = json!({ "type": "string" });
    for definition in definitions
        .iter_mut()
        .filter(|d| FOR_ONE_CHARACTER.contains(&d.name.as_str()))
    {
        let Some(schema) = definition.parameters.as_object_mut() else {
            continue;
        };
        // Not required: left out (or null) it is the host's hero.
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            properties.insert(CHARACTER.to_owned(), property.clone());
        }
    }
}

/// Runs `command` for `whose`: a member's sheet stands in for the hero's while the rules run it
/// (their changes are not proposals: approval mode guards the host's own sheet), and its result
/// and effect carry the member's name.
pub fn execute_for<R: Rng + ?Sized>(
    whose: Whose,
    command: ToolCommand,
    table: &mut ToolTable,
    rng: &mut R,
) -> Result<ToolOutcome, RunError> {
    let Whose::Member(index) = whose else {
        return execute(command, table, rng);
    };
    let Some(member) = table.party.members().get(index) else {
        return execute(command, table, rng);
    };
    let name = member.name().to_owned();
    let hero = std::mem::replace(&mut table.sheet, member.sheet.clone());
    let approval = std::mem::replace(&mut table.approval, false);
    let outcome = execute(command, table, rng);
    table.approval = approval;
    let theirs = std::mem::replace(&mut table.sheet, hero);
    let outcome = outcome?;
    if let Some(member) = table.party.member_mut(index) {
        member.sheet = theirs;
    }
    Ok(ToolOutcome {
        result: format!("{name}: {}", outcome.result),
        effect: ToolEffect::ForMember {
            name,
            effect: Box::new(outcome.effect),
        },
    })
}

/// The name a call gives in its `character` argument, if any (null and blank name nobody).
pub fn named_in(call: &ToolCall) -> Option<String> {
    if !FOR_ONE_CHARACTER.contains(&call.name.as_str()) {
        return None;
    }
    let arguments: Value = serde_json::from_str(&call.arguments).ok()?;
    let name = arguments.get(CHARACTER)?.as_str()?.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

/// Whose sheet `named` means at a table of `host` and `party` (no name: the host's hero).
pub fn whose(named: Option<&str>, host: &str, party: &Party) -> Result<Whose, NobodyCalled> {
    let Some(named) = named else {
        return Ok(Whose::Host);
    };
    if named.trim().eq_ignore_ascii_case(host.trim()) {
        return Ok(Whose::Host);
    }
    party.named(named).map(Whose::Member).ok_or_else(|| {
        let mut names = vec![host.to_owned()];
        names.extend(party.members().iter().map(|m| m.name().to_owned()));
        NobodyCalled {
            named: named.to_owned(),
            names: names.join(", "),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::creation::tests_support::named;
    use crate::game::party::{Member, Role, Seat};
    use crate::gm::schema::tests::assert_tool_schema;
    use crate::gm::tools::definitions;

    fn party() -> Party {
        let mut party = Party::default();
        let member = Member {
            role: Role::Seat {
                seat: Seat::new(2).unwrap(),
            },
            sheet: named("Mira", "Rogue"),
        };
        party.join(member, "Aria").unwrap();
        party
    }

    fn call(name: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: "c1".into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    #[test]
    fn solo_tools_are_as_ever() {
        let mut tools = definitions();
        name_the_characters(&mut tools, &Party::default());
        assert_eq!(tools, definitions());
    }

    #[test]
    fn a_party_gives_the_tools_that_act_on_one_a_character_argument_without_the_names() {
        let mut tools = definitions();
        name_the_characters(&mut tools, &party());
        let update = tools
            .iter()
            .find(|t| t.name == UpdateCharacter::NAME)
            .unwrap();
        assert_eq!(
            update.parameters["properties"][CHARACTER],
            json!({"type": "string"})
        );
        assert_tool_schema(&update.parameters, &update.name);
        let oracle = tools.iter().find(|t| t.name == "ask_oracle").unwrap();
        assert!(oracle.parameters["properties"].get(CHARACTER).is_none());
    }

    #[test]
    fn a_call_names_someone_at_the_table_or_is_refused_with_the_names() {
        let party = party();
        let named = named_in(&call(UpdateCharacter::NAME, r#"{"character":"mira"}"#));
        assert_eq!(
            whose(named.as_deref(), "Aria", &party),
            Ok(Whose::Member(0))
        );
        assert_eq!(whose(None, "Aria", &party), Ok(Whose::Host));
        assert_eq!(whose(Some("ARIA"), "Aria", &party), Ok(Whose::Host));
        let refused = whose(Some("Bob"), "Aria", &party).unwrap_err();
        assert_eq!(
            refused.to_string(),
            r#"nobody at the table is called "Bob"; the characters are Aria, Mira"#
        );
        assert_eq!(
            named_in(&call(UpdateCharacter::NAME, r#"{"character":null}"#)),
            None
        );
        assert_eq!(
            named_in(&call("ask_oracle", r#"{"character":"Mira"}"#)),
            None
        );
    }
}

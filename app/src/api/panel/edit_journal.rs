//! `edit_journal`: the player pins, rewrites or deletes a journal entry.

use leptos::prelude::*;

use crate::wire::errors::AppError;
use crate::wire::view::{JournalEdit, TurnUpdate};

/// Applies the player's journal edit; answers with the journal as it now is. (JSON in: the edit
/// is a tagged enum, which a form encoding cannot carry.)
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn edit_journal(id: String, edit: JournalEdit) -> Result<TurnUpdate, AppError> {
    use crate::api::context::{caller, campaign_id, now};
    use crate::game::{JournalChange, JournalName, JournalNote};
    use crate::service::ServiceError;

    let caller = caller().await?;
    let id = campaign_id(&id)?;
    let change = match edit {
        JournalEdit::Pin { id, pinned } => JournalChange::Pin { id, pinned },
        JournalEdit::Delete { id } => JournalChange::Delete { id },
        JournalEdit::Rewrite { id, name, note } => JournalChange::Edit {
            id,
            name: JournalName::new(&name)
                .map_err(|error| AppError::from(ServiceError::invalid("name", error)))?,
            note: JournalNote::new(&note)
                .map_err(|error| AppError::from(ServiceError::invalid("note", error)))?,
        },
    };
    Ok(caller
        .game()
        .edit_journal(&caller.player, &id, change, now())
        .await?)
}

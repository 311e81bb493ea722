//! The rules' check of each scene, as the context inspector shows it: the claims read, the first
//! draft sent back and the notes left for the player, for the latest turn only, through undo and
//! redo, and the same from the snapshot as from a replay of the log.

use crate::support::table::{Seat, Table};
use app::gm::scripted::{Scenario, Step};
use app::wire::view::{GmContextView, LedgerCheckView, MoveInput, NewCampaign, StoryEntry};
use app::wire::CampaignId;
use serde_json::json;

const NOTE: &str = "the rules say: 5 damage, not 12";

/// The opening; turn 2 hurts for 5, the scene says 12 and is corrected when asked; turn 3 hurts
/// for 5, and the model insists on 12.
fn scenario() -> Scenario {
    let hurt = || {
        Step::calls(&[
            (
                "roll_dice",
                json!({"dice": "1d4+4", "reason": "Troll's club"}),
            ),
            ("update_character", json!({"hpChange": -5})),
        ])
    };
    let twelve = || Step::text("The troll's club smashes into you and you take 12 damage.");
    Scenario {
        steps: vec![
            Step::text("A troll guards the bridge."),
            hurt(),
            twelve(),
            Step::text("The troll's club smashes into you and you take 5 damage."),
            hurt(),
            twelve(),
            twelve(),
        ],
        actions: vec![
            Step::json(json!({"actions": [
                {"id": "duck", "description": "Duck under the club", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
            ]}));
            3
        ],
        ..Scenario::default()
    }
}

/// A player's campaign at a troll's bridge, at a table whose model plays [`scenario`].
struct World {
    seat: Seat,
    id: CampaignId,
}

impl World {
    async fn new() -> Self {
        let mut seat = Seat::new(Table::playing(scenario()).await, 27);
        let form = NewCampaign::new("A troll guards the bridge.", "Mira", "Fighter");
        let id = seat.create(&form).await;
        Self { seat, id }
    }

    /// Plays turn `turn` (the player ducks) and its actions.
    async fn play(&mut self, turn: u32) {
        let input = MoveInput::Text {
            text: "I duck".into(),
        };
        self.seat.play(&self.id, turn, input).await;
    }

    /// The inspector's ledger check, checked against a replay of the whole log.
    async fn check(&self) -> Option<LedgerCheckView> {
        let game = self.seat.game();
        let context: GmContextView = game.gm_context(&self.seat.owner, &self.id).await.unwrap();
        let replay = self.seat.state(&self.id).await;
        assert_eq!(
            context.check,
            replay.ledger_check.as_ref().map(Into::into),
            "snapshot = replay"
        );
        context.check
    }

    /// The character's hit points now.
    async fn hp(&self) -> i32 {
        let game = self.seat.game();
        let view = game.load(&self.seat.owner, &self.id, 3).await.unwrap();
        i32::from(view.sheet.hp)
    }
}

fn check(turn: u32, asked: &[&str], notes: &[&str]) -> Option<LedgerCheckView> {
    let owned = |notes: &[&str]| notes.iter().map(|note| (*note).to_owned()).collect();
    Some(LedgerCheckView {
        turn,
        claims: u32::from(turn > 1),
        asked: owned(asked),
        notes: owned(notes),
    })
}

#[tokio::test]
async fn the_inspector_shows_the_latest_scenes_check_the_draft_sent_back_and_the_note_left() {
    let mut w = World::new().await;
    assert_eq!(
        w.check().await,
        check(1, &[], &[]),
        "the opening claims nothing"
    );
    let full = w.hp().await;

    // Asked once, the model corrects its scene: nothing is left for the player.
    w.play(2).await;
    assert_eq!(w.check().await, check(2, &[NOTE], &[]));
    assert_eq!(w.hp().await, full - 5);

    // The model insists: the note is left beside the scene, and the sheet keeps 5.
    w.play(3).await;
    let insisted = check(3, &[NOTE], &[NOTE]);
    assert_eq!(w.check().await, insisted);
    assert_eq!(w.hp().await, full - 10);
    let story = w
        .seat
        .game()
        .load(&w.seat.owner, &w.id, 3)
        .await
        .unwrap()
        .story;
    let notes: Vec<_> = story
        .entries
        .iter()
        .filter_map(|entry| match entry {
            StoryEntry::RulesNote { text } => Some(text.as_str()),
            StoryEntry::Aside { text } => panic!("a rules' note shown as the GM's aside: {text}"),
            _ => None,
        })
        .collect();
    assert_eq!(notes, ["The rules say: 5 damage, not 12"]);

    // The check follows the turn in effect.
    let game = w.seat.game();
    game.undo(&w.seat.owner, &w.id, 3, 4).await.unwrap();
    assert_eq!(
        w.check().await,
        check(2, &[NOTE], &[]),
        "turn 2's, after an undo"
    );
    game.redo(&w.seat.owner, &w.id, 2, 5).await.unwrap();
    assert_eq!(w.check().await, insisted, "turn 3's again, after the redo");
}

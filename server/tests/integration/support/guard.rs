//! A guard blocking a crypt: the premise and the action list (a roll to sneak, words for free)
//! that the service tests of one campaign's turns play.

use app::gm::scripted::Step;
use app::wire::view::NewCampaign;
use serde_json::json;

/// The scripted model's action list: sneak past (DEX, DC 12) or talk.
pub fn actions() -> Step {
    Step::json(json!({"actions": [
        {"id": "sneak", "description": "Sneak past the guard", "diceRoll": "1d20", "diceReason": "Stealth", "difficultyClass": 12, "attribute": "DEX"},
        {"id": "talk", "description": "Talk to the guard", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}))
}

/// The new campaign's form.
pub fn form() -> NewCampaign {
    NewCampaign::new("A guard blocks the crypt.", "Mira", "Ranger")
}

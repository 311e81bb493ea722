//! Characters and worlds brought from role-play tools: a character card (`chara_card_v2` or
//! `chara_card_v3`, as JSON or inside a PNG's `chara`/`ccv3` text chunk) or a stand-alone
//! lorebook (World Info: its entries as a list or as a map by id). The card's character becomes
//! a companion in the journal and its scenario the premise; lorebook entries become journal
//! entries. Everything is bounded and checked: the file's size, each text (cut to the journal's
//! and the premise's bounds), and the number of entries (the journal's room: the first by their
//! insertion order are kept, and the rest counted).

use base64::Engine;
use serde::Deserialize;
use serde_json::Value;

use crate::game::journal::MAX_ENTRIES;
use crate::game::{JournalKind, JournalName, JournalNote};
use crate::gm::turn::MAX_MOVE_CHARS;
use crate::wire::view::{BroughtEntry, CardView, MAX_CARD_BYTES};

/// Why a file is not taken.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// Larger than [`MAX_CARD_BYTES`].
    #[error("a card or lorebook is at most 8 MB; this file has {0} bytes")]
    TooLarge(usize),
    /// Not base64 (the browser sends the file's bytes so).
    #[error("the file could not be read")]
    Unreadable,
    /// A PNG without a card in its text.
    #[error("this picture holds no character card (no chara or ccv3 text in it)")]
    NoCardInPicture,
    /// Neither a card nor a lorebook.
    #[error("this file is neither a character card (chara_card_v2 or v3) nor a lorebook")]
    NotACard,
    /// A card without a name.
    #[error("this character card has no name")]
    Nameless,
}

/// A card's fields this game uses.
#[derive(Deserialize)]
struct CardData {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    personality: String,
    #[serde(default)]
    scenario: String,
    #[serde(default)]
    character_book: Option<Value>,
}

/// One lorebook entry, in either tool's words.
#[derive(Deserialize)]
struct LoreEntry {
    #[serde(default)]
    content: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    comment: Option<String>,
    #[serde(default, alias = "key")]
    keys: Vec<String>,
    #[serde(default = "enabled")]
    enabled: bool,
    #[serde(default)]
    disable: bool,
    #[serde(default, alias = "order")]
    insertion_order: i64,
}

fn enabled() -> bool {
    true
}

/// Reads the file's bytes (base64, as the browser sends them) as a card or a lorebook.
pub fn read_card(encoded: &str) -> Result<CardView, CardError> {
    if encoded.len() > MAX_CARD_BYTES / 3 * 4 + 4 {
        return Err(CardError::TooLarge(encoded.len() / 4 * 3));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|_| CardError::Unreadable)?;
    if bytes.len() > MAX_CARD_BYTES {
        return Err(CardError::TooLarge(bytes.len()));
    }
    let json = if bytes.starts_with(b"\x89PNG") {
        card_in_picture(&bytes)?
    } else {
        serde_json::from_slice::<Value>(&bytes).map_err(|_| CardError::NotACard)?
    };
    from_json(&json)
}

/// The card JSON in a PNG's `ccv3` (preferred) or `chara` text chunk.
fn card_in_picture(bytes: &[u8]) -> Result<Value, CardError> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder
        .read_info()
        .map_err(|_| CardError::NoCardInPicture)?;
    // Tools write the card after the picture: read on to the end (the picture is skipped).
    reader.finish().map_err(|_| CardError::NoCardInPicture)?;
    let info = reader.info();
    let texts = info
        .uncompressed_latin1_text
        .iter()
        .map(|chunk| (chunk.keyword.as_str(), chunk.text.clone()))
        .chain(
            info.utf8_text
                .iter()
                .filter_map(|chunk| Some((chunk.keyword.as_str(), chunk.get_text().ok()?))),
        )
        .collect::<Vec<_>>();
    let chunk = ["ccv3", "chara"]
        .iter()
        .find_map(|wanted| texts.iter().find(|(keyword, _)| keyword == wanted))
        .ok_or(CardError::NoCardInPicture)?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(chunk.1.trim())
        .map_err(|_| CardError::NoCardInPicture)?;
    serde_json::from_slice(&decoded).map_err(|_| CardError::NoCardInPicture)
}

/// A card (v2 or v3, or a v1 card's bare fields) or a lorebook.
fn from_json(json: &Value) -> Result<CardView, CardError> {
    let spec = json.get("spec").and_then(Value::as_str);
    let card = match spec {
        Some("chara_card_v2" | "chara_card_v3") => json.get("data"),
        _ if json.get("name").is_some() && json.get("description").is_some() => Some(json),
        _ => None,
    };
    match card {
        Some(card) => {
            let data: CardData =
                serde_json::from_value(card.clone()).map_err(|_| CardError::NotACard)?;
            companion(data)
        }
        None if json.get("entries").is_some() => Ok(lorebook(json, None)),
        None => Err(CardError::NotACard),
    }
}

/// A card's character as a companion, its scenario as the premise, its lorebook as lore.
fn companion(data: CardData) -> Result<CardView, CardError> {
    let name = JournalName::new(&data.name).map_err(|_| CardError::Nameless)?;
    let about = [data.description.as_str(), data.personality.as_str()]
        .iter()
        .map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let note = note_of(&about).unwrap_or_else(|| note_of("A companion.").expect("a short note"));
    let companion = BroughtEntry {
        kind: JournalKind::Person,
        name: name.as_str().to_owned(),
        note: note.as_str().to_owned(),
    };
    let premise = if data.scenario.trim().is_empty() {
        format!("You travel with {}. {}", name.as_str(), about)
    } else {
        data.scenario.trim().to_owned()
    };
    let mut view = match &data.character_book {
        Some(book) => lorebook(book, Some(companion)),
        None => CardView {
            entries: vec![companion],
            ..CardView::default()
        },
    };
    view.name = Some(name.as_str().to_owned());
    view.premise = cut(&premise.replace("{{char}}", name.as_str()), MAX_MOVE_CHARS);
    Ok(view)
}

/// A lorebook's enabled entries as journal entries, after `first` (the companion), within the
/// journal's room; how many were left out.
fn lorebook(book: &Value, first: Option<BroughtEntry>) -> CardView {
    let listed: Vec<Value> = match book.get("entries") {
        Some(Value::Array(entries)) => entries.clone(),
        Some(Value::Object(by_id)) => by_id.values().cloned().collect(),
        _ => Vec::new(),
    };
    let mut lore: Vec<LoreEntry> = listed
        .into_iter()
        .filter_map(|entry| serde_json::from_value(entry).ok())
        .filter(|entry: &LoreEntry| entry.enabled && !entry.disable)
        .collect();
    lore.sort_by_key(|entry| entry.insertion_order);
    let offered = lore.len();
    let mut entries: Vec<BroughtEntry> = first.into_iter().collect();
    let room = MAX_ENTRIES.saturating_sub(entries.len());
    let kept: Vec<BroughtEntry> = lore.iter().filter_map(lore_entry).take(room).collect();
    let left_out = u32::try_from(offered - kept.len()).unwrap_or(u32::MAX);
    entries.extend(kept);
    CardView {
        left_out,
        entries,
        ..CardView::default()
    }
}

/// A lorebook entry as a journal thread, named by its name, comment or first key.
fn lore_entry(entry: &LoreEntry) -> Option<BroughtEntry> {
    let name = [entry.name.as_deref(), entry.comment.as_deref()]
        .into_iter()
        .flatten()
        .chain(entry.keys.iter().map(String::as_str))
        .find_map(|name| JournalName::new(&cut(name, JournalName::MAX_CHARS)).ok())?;
    let note = note_of(&entry.content)?;
    Some(BroughtEntry {
        kind: JournalKind::Thread,
        name: name.as_str().to_owned(),
        note: note.as_str().to_owned(),
    })
}

/// `text` as a journal note, cut to its bound.
fn note_of(text: &str) -> Option<JournalNote> {
    JournalNote::new(&cut(text.trim(), JournalNote::MAX_CHARS)).ok()
}

/// At most `max` characters of `text`.
fn cut(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn encoded(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    fn v2_card() -> Value {
        json!({"spec": "chara_card_v2", "spec_version": "2.0", "data": {
            "name": "Seraphine", "description": "A wandering knight sworn to no crown.",
            "personality": "Wry, loyal.", "scenario": "{{char}} meets you at the salt road's last inn.",
            "first_mes": "Well met.", "mes_example": "", "creator_notes": "", "system_prompt": "",
            "post_history_instructions": "", "alternate_greetings": [], "tags": [], "creator": "",
            "character_version": "1", "extensions": {},
            "character_book": {"name": "Salt road", "extensions": {}, "entries": [
                {"keys": ["inn"], "content": "The Last Inn keeps a lantern lit all night.",
                 "extensions": {}, "enabled": true, "insertion_order": 2, "name": "The Last Inn"},
                {"keys": ["guild"], "content": "The Salt Guild taxes every cart.",
                 "extensions": {}, "enabled": true, "insertion_order": 1, "comment": "Salt Guild"},
                {"keys": ["secret"], "content": "Hidden.", "extensions": {}, "enabled": false,
                 "insertion_order": 0}
            ]}
        }})
    }

    #[test]
    fn a_v2_card_brings_a_premise_a_companion_and_its_lore_in_order() {
        let card = read_card(&encoded(v2_card().to_string().as_bytes())).unwrap();
        assert_eq!(card.name.as_deref(), Some("Seraphine"));
        assert_eq!(
            card.premise,
            "Seraphine meets you at the salt road's last inn."
        );
        let names: Vec<&str> = card.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Seraphine", "Salt Guild", "The Last Inn"]);
        assert_eq!(card.entries[0].kind, JournalKind::Person);
        assert_eq!(
            card.entries[0].note,
            "A wandering knight sworn to no crown. Wry, loyal."
        );
        assert_eq!(card.left_out, 0);
    }

    #[test]
    fn a_v3_card_and_a_world_info_map_are_read_too() {
        let mut v3 = v2_card();
        v3["spec"] = json!("chara_card_v3");
        v3["spec_version"] = json!("3.0");
        v3["data"]["scenario"] = json!("");
        let card = read_card(&encoded(v3.to_string().as_bytes())).unwrap();
        assert!(card
            .premise
            .starts_with("You travel with Seraphine. A wandering knight"));
        let world = json!({"entries": {
            "0": {"uid": 0, "key": ["mill"], "keysecondary": [], "comment": "The mill",
                  "content": "It grinds bones, they say.", "constant": false, "disable": false, "order": 100},
            "1": {"uid": 1, "key": ["ford"], "comment": "", "content": "Shallow in summer.",
                  "disable": true, "order": 50}
        }});
        let lore = read_card(&encoded(world.to_string().as_bytes())).unwrap();
        assert_eq!(lore.name, None);
        assert_eq!(lore.premise, "");
        assert_eq!(lore.entries.len(), 1);
        assert_eq!(
            (lore.entries[0].name.as_str(), lore.entries[0].kind),
            ("The mill", JournalKind::Thread)
        );
    }

    #[test]
    fn a_picture_carries_its_card_in_a_text_chunk_after_the_image() {
        let mut png = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut png, 1, 1);
            encoder.set_color(png::ColorType::Grayscale);
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(&[0]).unwrap();
        }
        let plain = png.clone();
        // A tEXt chunk `chara` inserted before IEND, as the role-play tools write it.
        let mut data = b"chara\0".to_vec();
        data.extend(encoded(v2_card().to_string().as_bytes()).bytes());
        let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
        let mut typed = b"tEXt".to_vec();
        typed.extend(&data);
        chunk.extend(&typed);
        chunk.extend(crc32fast::hash(&typed).to_be_bytes());
        let end = png.len() - 12;
        png.splice(end..end, chunk);
        let card = read_card(&encoded(&png)).unwrap();
        assert_eq!(card.name.as_deref(), Some("Seraphine"));
        assert!(matches!(
            read_card(&encoded(&plain)),
            Err(CardError::NoCardInPicture)
        ));
    }

    #[test]
    fn what_is_too_big_or_not_a_card_is_refused_and_a_huge_lorebook_is_cut() {
        let fifty_mb = "A".repeat(50 * 1024 * 1024 / 3 * 4);
        assert!(matches!(read_card(&fifty_mb), Err(CardError::TooLarge(_))));
        assert!(matches!(
            read_card(&encoded(br#"{"hello": "world"}"#)),
            Err(CardError::NotACard)
        ));
        assert!(matches!(read_card("%%%"), Err(CardError::Unreadable)));
        let entries: Vec<Value> = (0..10_000)
            .map(|n| json!({"keys": [format!("k{n}")], "content": format!("Lore {n}."), "insertion_order": n}))
            .collect();
        let book = read_card(&encoded(json!({"entries": entries}).to_string().as_bytes())).unwrap();
        assert_eq!(book.entries.len(), MAX_ENTRIES);
        assert_eq!(book.entries[0].name, "k0");
        assert_eq!(book.left_out, 10_000 - MAX_ENTRIES as u32);
        let message = CardError::TooLarge(52_428_800).to_string();
        assert!(message.contains("at most 8 MB"), "{message}");
    }
}

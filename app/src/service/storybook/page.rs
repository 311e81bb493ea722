//! The storybook as one self-contained HTML page: inline style, no script, nothing loaded. The
//! scenes are the story's own sanitised HTML; every other text (moves, roll lines, tables,
//! chips, the sheet) is escaped here; the pictures are in the page as data URLs.

use base64::Engine;
use pulldown_cmark_escape::escape_html;

use crate::campaign::picture::PictureKind;
use crate::campaign::store::KeptPicture;
use crate::campaign::story::{Roller, StoryDie, StoryEntry, StoryTable, Verdict};
use crate::game::Natural;
use crate::wire::view::SheetView;

/// The page's style: readable on paper and on a phone, dice as small boxes.
const STYLE: &str = "body{font-family:Georgia,serif;max-width:42rem;margin:2rem auto;padding:0 1rem;\
line-height:1.5;color:#1d1b18;background:#fdfbf6}h1,h2,h3{font-family:system-ui,sans-serif}\
.move{font-style:italic;border-left:3px solid #6b4f2a;padding-left:.6rem}\
.roll,.chips,.aside{font-family:system-ui,sans-serif;font-size:.95rem}\
.die{display:inline-block;min-width:1.6rem;padding:0 .25rem;margin-right:.25rem;border:1px solid #555;\
border-radius:4px;text-align:center}.die s{color:#595959}.success{color:#1b5e20}.failure{color:#8e1b1b}\
.chip{display:inline-block;border:1px solid #888;border-radius:1rem;padding:0 .5rem;margin:0 .2rem}\
.aside{border:1px dashed #888;padding:.4rem .6rem}table{border-collapse:collapse}\
td,th{border:1px solid #aaa;padding:.15rem .5rem;text-align:left}.chosen{font-weight:bold;background:#f1e7c9}\
footer{margin-top:3rem;border-top:1px solid #ccc}figure{margin:1rem 0}figure img{max-width:100%;height:auto}";

/// The storybook of the story titled `title`: its `entries` in order (each picture entry shown
/// from its bytes among `pictures`), then `hero`'s sheet (the exporting player's own), if they
/// have one.
pub fn storybook_html(
    title: &str,
    entries: &[StoryEntry],
    pictures: &[KeptPicture],
    hero: Option<&SheetView>,
) -> String {
    let mut out = String::with_capacity(4096 + entries.len() * 512);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    out.push_str("<title>");
    text(&mut out, title);
    out.push_str("</title><style>");
    out.push_str(STYLE);
    out.push_str("</style></head><body><main><h1>");
    text(&mut out, title);
    out.push_str("</h1>\n");
    for entry in entries {
        entry_html(&mut out, entry, pictures);
        out.push('\n');
    }
    out.push_str("</main>");
    if let Some(hero) = hero {
        sheet_html(&mut out, hero);
    }
    out.push_str("</body></html>\n");
    out
}

/// `raw` escaped for HTML text and attribute values.
fn text(out: &mut String, raw: &str) {
    // Writing to a `String` cannot fail.
    let _ = escape_html(&mut *out, raw);
}

/// One entry of the story, matched exhaustively so that a new kind is placed here on purpose.
fn entry_html(out: &mut String, entry: &StoryEntry, pictures: &[KeptPicture]) {
    match entry {
        // Sanitised when the scene was rendered from the model's Markdown.
        StoryEntry::Scene { html, .. } => {
            out.push_str("<section class=\"scene\">");
            out.push_str(html);
            out.push_str("</section>");
        }
        StoryEntry::Move { text: said, by } => {
            out.push_str("<p class=\"move\">");
            if let Some(name) = by {
                out.push_str("<strong>");
                text(out, name);
                out.push_str("</strong> ");
            }
            text(out, said);
            out.push_str("</p>");
        }
        StoryEntry::Roll {
            line,
            dice,
            verdict,
            by,
            natural,
            analysis: _,
        } => roll_html(out, line, dice, *verdict, *by, *natural),
        StoryEntry::Table {
            table,
            dice,
            chosen,
            analysis: _,
        } => table_html(out, table, dice, *chosen),
        StoryEntry::Proposal { labels, cause } => {
            chips_html(out, "Proposed:", labels);
            if let Some(cause) = cause {
                out.push_str("<p class=\"chips\">");
                text(out, cause);
                out.push_str("</p>");
            }
        }
        StoryEntry::Decision { accepted, labels } => {
            let said = if *accepted { "Accepted:" } else { "Refused:" };
            chips_html(out, said, labels);
        }
        StoryEntry::Aside { text: said } => aside_html(out, "The game master, aside", said),
        StoryEntry::RulesNote { text: said } => aside_html(out, "The rules", said),
        StoryEntry::Chapter { number, title } => {
            out.push_str(&format!("<h2>Chapter {number}: "));
            text(out, title);
            out.push_str("</h2>");
        }
        StoryEntry::Changes { labels } => chips_html(out, "", labels),
        StoryEntry::Picture { id, shows } => {
            if let Some(picture) = pictures.iter().find(|picture| &picture.id == id) {
                picture_html(out, picture, *shows);
            }
        }
    }
}

/// A picture, its bytes inline so that the page needs nothing else.
fn picture_html(out: &mut String, picture: &KeptPicture, shows: PictureKind) {
    let alt = match shows {
        PictureKind::Portrait => "The hero's portrait",
        PictureKind::Scene => "A picture of the scene",
    };
    out.push_str("<figure><img alt=\"");
    out.push_str(alt);
    out.push_str("\" src=\"data:");
    out.push_str(picture.format.mime());
    out.push_str(";base64,");
    base64::engine::general_purpose::STANDARD.encode_string(&picture.bytes, out);
    out.push_str("\"></figure>");
}

/// A roll: who rolled, its dice one by one (a dropped die struck through), its line and how it
/// went.
fn roll_html(
    out: &mut String,
    line: &str,
    dice: &[StoryDie],
    verdict: Option<Verdict>,
    by: Roller,
    natural: Option<Natural>,
) {
    let class = match verdict {
        Some(Verdict::Success) => "roll success",
        Some(Verdict::Failure) => "roll failure",
        None => "roll",
    };
    let who = match by {
        Roller::Player => "Roll",
        Roller::GameMaster => "The game master rolls",
        Roller::Oracle => "The oracle",
    };
    out.push_str(&format!("<p class=\"{class}\"><strong>{who}:</strong> "));
    dice_html(out, dice);
    text(out, line);
    match natural {
        Some(Natural::Twenty) => out.push_str(" <strong>Natural 20!</strong>"),
        Some(Natural::One) => out.push_str(" <strong>Natural 1</strong>"),
        None => {}
    }
    out.push_str("</p>");
}

/// Each die with its face: `d20 14`; a die that did not count is struck through.
fn dice_html(out: &mut String, dice: &[StoryDie]) {
    for die in dice {
        let (open, close) = if die.kept { ("", "") } else { ("<s>", "</s>") };
        out.push_str(&format!(
            "<span class=\"die\" title=\"d{sides}\">{open}d{sides}&nbsp;{face}{close}</span>",
            sides = die.sides,
            face = die.face
        ));
    }
}

/// An outcome table rolled: its die, then its outcomes with the chosen one marked.
fn table_html(out: &mut String, table: &StoryTable, dice: &[StoryDie], chosen: u32) {
    out.push_str("<table class=\"outcomes\"><caption>");
    text(out, &table.name);
    out.push(' ');
    dice_html(out, dice);
    out.push_str(&format!(
        "</caption><thead><tr><th scope=\"col\">d{}</th><th scope=\"col\">Outcome</th></tr></thead><tbody>",
        table.sides
    ));
    for (index, row) in table.rows.iter().enumerate() {
        let class = if u32::try_from(index).ok() == Some(chosen) {
            " class=\"chosen\""
        } else {
            ""
        };
        out.push_str(&format!("<tr{class}><td>"));
        text(out, &row.range);
        out.push_str("</td><td>");
        text(out, &row.outcome);
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table>");
}

/// Chips (`−5 HP`, `+ Dagger`) after a label.
fn chips_html(out: &mut String, label: &str, labels: &[String]) {
    out.push_str("<p class=\"chips\">");
    if !label.is_empty() {
        out.push_str(label);
        out.push(' ');
    }
    for chip in labels {
        out.push_str("<span class=\"chip\">");
        text(out, chip);
        out.push_str("</span>");
    }
    out.push_str("</p>");
}

/// Words outside the story: the game master's aside or the rules' note.
fn aside_html(out: &mut String, label: &str, said: &str) {
    out.push_str(&format!(
        "<aside class=\"aside\"><strong>{label}:</strong> "
    ));
    text(out, said);
    out.push_str("</aside>");
}

/// The hero at the end: name, class and level, hit points, armour class, attributes,
/// conditions, abilities and what they carry.
fn sheet_html(out: &mut String, hero: &SheetView) {
    out.push_str("<footer><h2>");
    text(out, &hero.name);
    out.push_str("</h2><p>");
    text(out, &format!("{}, level {}", hero.class, hero.level));
    out.push_str("</p><p>");
    let mut line = format!(
        "HP {}/{} · AC {} · XP {}",
        hero.hp, hero.max_hp, hero.armor_class, hero.experience.0
    );
    if let Some(sanity) = hero.sanity {
        line.push_str(&format!(" · Sanity {sanity}"));
    }
    text(out, &line);
    out.push_str("</p><p>");
    let attributes: Vec<String> = hero
        .attributes
        .iter()
        .map(|a| format!("{} {} ({:+})", a.name, a.score, a.modifier))
        .collect();
    text(out, &attributes.join(" · "));
    out.push_str("</p>");
    list_html(out, "Conditions", hero.conditions.iter().cloned());
    list_html(
        out,
        "Abilities",
        hero.abilities.iter().map(|(name, _)| name.clone()),
    );
    let items = hero.inventory.iter().map(|item| match item.quantity {
        1 => item.name.clone(),
        many => format!("{} ×{many}", item.name),
    });
    list_html(out, "Carrying", items);
    out.push_str("</footer>");
}

/// A titled list, left out when empty.
fn list_html(out: &mut String, title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("<h3>{title}</h3><ul>"));
    for item in items {
        out.push_str("<li>");
        text(out, &item);
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

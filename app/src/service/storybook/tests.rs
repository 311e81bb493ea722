//! The storybook page: the story in order, its dice, everything but the scenes escaped, the
//! hero at the end.

use super::storybook_html;
use crate::campaign::story::{Roller, StoryDie, StoryEntry, StoryTable, StoryTableRow, Verdict};
use crate::game::text::{CharacterName, ClassName, LocationName};
use crate::game::CharacterSheet;
use crate::wire::present::sheet::sheet_view;

fn die(sides: u16, face: u16, kept: bool) -> StoryDie {
    StoryDie { sides, face, kept }
}

fn story() -> Vec<StoryEntry> {
    vec![
        StoryEntry::Scene {
            html: "<p>A gate in the <em>rain</em>.</p>".to_owned(),
            turn: 1,
        },
        StoryEntry::Move {
            text: "<script>alert(1)</script>".to_owned(),
            by: None,
        },
        StoryEntry::Roll {
            line: "Rolled 2d20kh1+3 for Climb the gate vs DC 12: [17, 4] + 3 = 20 — success"
                .to_owned(),
            dice: vec![die(20, 17, true), die(20, 4, false)],
            analysis: Some("secret-ish analysis: 60% chance".to_owned()),
            verdict: Some(Verdict::Success),
            by: Roller::Player,
            natural: None,
        },
        StoryEntry::Table {
            table: StoryTable {
                name: "The <b>weather</b>".to_owned(),
                sides: 6,
                rows: vec![
                    StoryTableRow {
                        range: "1–3".to_owned(),
                        outcome: "Rain".to_owned(),
                    },
                    StoryTableRow {
                        range: "4–6".to_owned(),
                        outcome: "Sun & wind".to_owned(),
                    },
                ],
            },
            dice: vec![die(6, 5, true)],
            chosen: 1,
            analysis: "50% each".to_owned(),
        },
        StoryEntry::Changes {
            labels: vec!["−5 HP".to_owned(), "+ \"Key\"".to_owned()],
        },
        StoryEntry::Chapter {
            number: 2,
            title: "Into <the> dark".to_owned(),
        },
        StoryEntry::Aside {
            text: "Roll <i>again</i>?".to_owned(),
        },
        StoryEntry::RulesNote {
            text: "5 damage, not 12".to_owned(),
        },
        StoryEntry::Proposal {
            labels: vec!["+ Dagger".to_owned()],
            cause: Some("a find".to_owned()),
        },
        StoryEntry::Decision {
            accepted: true,
            labels: vec!["+ Dagger".to_owned()],
        },
        StoryEntry::Move {
            text: "I follow".to_owned(),
            by: Some("Bram & co".to_owned()),
        },
    ]
}

fn hero() -> CharacterSheet {
    CharacterSheet::new(
        CharacterName::new("Mira").unwrap(),
        ClassName::new("Ranger").unwrap(),
        LocationName::new("The gate").unwrap(),
    )
}

#[test]
fn a_move_typed_as_script_comes_out_as_text() {
    let page = storybook_html("A <title>", &story(), &[], None);
    assert!(!page.contains("<script"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("<title>A &lt;title&gt;</title>"));
    assert!(page.contains("The &lt;b&gt;weather&lt;/b&gt;"));
    assert!(page.contains("Sun &amp; wind"));
    assert!(page.contains("Into &lt;the&gt; dark"));
    assert!(page.contains("Roll &lt;i&gt;again&lt;/i&gt;?"));
    assert!(page.contains("&quot;Key&quot;"));
    assert!(page.contains("<strong>Bram &amp; co</strong> I follow"));
}

#[test]
fn the_scenes_keep_their_sanitised_html_in_order() {
    let page = storybook_html("Rain", &story(), &[], None);
    let scene = page.find("<p>A gate in the <em>rain</em>.</p>").unwrap();
    let roll = page.find("Climb the gate").unwrap();
    let chapter = page.find("Chapter 2").unwrap();
    assert!(scene < roll && roll < chapter);
    assert!(page.starts_with("<!DOCTYPE html>"));
}

#[test]
fn rolls_show_their_dice_and_verdict() {
    let page = storybook_html("Rain", &story(), &[], None);
    assert!(page.contains("<p class=\"roll success\">"));
    assert!(page.contains(">d20&nbsp;17<"));
    assert!(
        page.contains("<s>d20&nbsp;4</s>"),
        "a dropped die is struck"
    );
    assert!(page.contains(">d6&nbsp;5<"));
    assert!(page.contains("<tr class=\"chosen\"><td>4–6</td>"));
}

#[test]
fn nothing_beyond_the_story_is_shown_and_the_page_runs_nothing() {
    let page = storybook_html("Rain", &story(), &[], None);
    assert!(
        !page.contains("secret-ish analysis"),
        "the pre-roll analysis stays out"
    );
    assert!(!page.contains("50% each"));
    let lower = page.to_lowercase();
    for active in [
        "<script", "<link", "<img", "<iframe", "src=", "href=", "onclick=", "onerror=",
    ] {
        assert!(!lower.contains(active), "{active} in {page}");
    }
}

#[test]
fn the_hero_comes_at_the_end() {
    let page = storybook_html("Rain", &story(), &[], Some(&sheet_view(&hero())));
    let footer = page.find("<footer><h2>Mira</h2>").unwrap();
    assert!(footer > page.find("Chapter 2").unwrap());
    assert!(page.contains("Ranger, level 1"));
    assert!(page.contains("HP "));
    assert!(page.contains("STR "));
}

#[test]
fn a_picture_is_in_the_page_as_its_own_bytes() {
    use crate::campaign::picture::{PictureFormat, PictureId, PictureKind};
    use crate::campaign::store::KeptPicture;

    let kept: PictureId = "ab".repeat(32).parse().unwrap();
    let lost: PictureId = "cd".repeat(32).parse().unwrap();
    let entries = vec![
        StoryEntry::Picture {
            id: kept.clone(),
            shows: PictureKind::Scene,
        },
        StoryEntry::Picture {
            id: lost,
            shows: PictureKind::Portrait,
        },
    ];
    let pictures = [KeptPicture {
        id: kept,
        format: PictureFormat::Png,
        bytes: b"\x89PNG".to_vec(),
    }];
    let page = storybook_html("Rain", &entries, &pictures, None);
    assert!(page.contains(
        "<figure><img alt=\"A picture of the scene\" src=\"data:image/png;base64,iVBORw==\"></figure>"
    ));
    assert_eq!(
        page.matches("<figure>").count(),
        1,
        "a picture without its bytes is left out"
    );
}

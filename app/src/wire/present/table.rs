//! The table as the browser shows it, made from the campaign: everyone at it with their hit
//! points, and who has moved this round.

use crate::campaign::state::CampaignState;
use crate::game::party::{Member, Seat};
use crate::game::CharacterSheet;
use crate::wire::view::MemberView;

/// Everyone at the table, the host's hero first, with whether the seats in `moved` have moved
/// this round.
pub fn table_members(state: &CampaignState, moved: &[Seat]) -> Vec<MemberView> {
    let host = member_view(
        Some(Seat::HOST),
        &state.sheet,
        state.sheet.vitality().is_dead(),
        moved,
    );
    let others = state.party.members().iter().map(|member: &Member| {
        member_view(member.seat(), &member.sheet, member.has_fallen(), moved)
    });
    std::iter::once(host).chain(others).collect()
}

fn member_view(
    seat: Option<Seat>,
    sheet: &CharacterSheet,
    fallen: bool,
    moved: &[Seat],
) -> MemberView {
    MemberView {
        seat: seat.map(Seat::number),
        name: sheet.name().as_str().to_owned(),
        class: sheet.class().as_str().to_owned(),
        hp: sheet.hit_points().current(),
        max_hp: sheet.hit_points().max(),
        fallen,
        moved: seat.is_some_and(|seat| moved.contains(&seat)),
    }
}

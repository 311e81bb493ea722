//! A table of friends: the host invites (a one-time code in a link, kept as a digest, a day's
//! life, revocable), a friend joins with a character made by the same creation rules and takes
//! a free seat (up to [`MAX_SEATS`] players), the host removes a seat (its hero leaves the
//! story). A round collects one move from each seat still in the story; it is narrated once,
//! when every seat has moved, when the host goes on without the others, or when anyone does
//! after the time the table set (five minutes unless the host chose another). Each friend's move is rolled against their own sheet.
//!
//! Who may do what: only the host and the seated see the campaign; undo, retelling, branching,
//! settings and approval stay the host's (their functions are scoped by the owner, so a friend
//! finds nothing there).

use rand::Rng;

use super::live::LiveTurns;
use super::play::TableMove;
use super::recovery::RecoveryCode;
use super::{Game, MoveRequest, ServiceError, UpdateSink};
use crate::campaign::event::CampaignEvent;
use crate::campaign::store::StoreError;
use crate::campaign::table::{Invitation, RoundMove, TableStore, INVITATION_SECS};
use crate::game::creation::CharacterDraft;
use crate::game::party::{Member, Role, Seat, MAX_SEATS, ROUND_WAIT};
use crate::wire::present::actions::action_views;
use crate::wire::present::sheet::sheet_view;
use crate::wire::present::table::table_members;
use crate::wire::view::{
    ActionsView, CampaignView, InvitationView, MoveInput, RoundState, TableView, TurnUpdate,
};
use crate::wire::{CampaignId, PlayerId};

/// What the digest of an invitation's code is salted with.
const INVITATION: &str = "invitation";

/// Who a player is at a campaign: its host, or a friend at a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The campaign's owner (the host), by whom it is stored.
    pub owner: PlayerId,
    /// The player's seat (the host's is [`Seat::HOST`]).
    pub seat: Seat,
}

impl Place {
    /// Whether the player is the host.
    pub fn is_host(&self) -> bool {
        self.seat.is_host()
    }
}

/// The table's service.
pub struct Table<'a> {
    /// The game.
    pub game: Game<'a>,
    /// The seats, invitations and round moves.
    pub tables: &'a dyn TableStore,
    /// The campaigns followed live.
    pub live: &'a LiveTurns,
}

impl Table<'_> {
    /// Where `player` sits at campaign `id`: not found for a stranger.
    pub async fn place(&self, player: &PlayerId, id: &CampaignId) -> Result<Place, ServiceError> {
        match self.game.store.current(player, id).await {
            Ok(_) => {
                return Ok(Place {
                    owner: player.clone(),
                    seat: Seat::HOST,
                })
            }
            Err(StoreError::NotFound) => {}
            Err(error) => return Err(error.into()),
        }
        let joined = self.tables.seat_of(player, id).await?;
        joined
            .map(|joined| Place {
                owner: joined.owner,
                seat: joined.seat,
            })
            .ok_or(ServiceError::NotFound)
    }

    /// The campaign as a seat's play screen opens it.
    pub async fn load(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        let place = self.place(player, id).await?;
        let mut view = self.game.load(&place.owner, id, now).await?;
        view.table = self.view_for(&place, id, now).await?;
        if !place.is_host() {
            let state = self.game.current(&place.owner, id).await?.state;
            if let Some(seen) = as_seen_from(&state, place.seat) {
                view.sheet = sheet_view(&seen.sheet);
                view.actions = action_views(&seen);
            }
        }
        Ok(view)
    }

    /// The actions on offer for the campaign's latest scene (made first if missing), their
    /// badges and chances worked out from the caller's own hero.
    pub async fn actions(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<ActionsView, ServiceError> {
        let place = self.place(player, id).await?;
        let mut view = self.game.ensure_actions(&place.owner, id, now).await?;
        if !place.is_host() {
            let state = self.game.current(&place.owner, id).await?.state;
            if let Some(seen) = as_seen_from(&state, place.seat) {
                view.actions = action_views(&seen);
            }
        }
        Ok(view)
    }

    /// The host makes an invitation: the link's path, shown once.
    pub async fn invite<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
        rng: &mut R,
    ) -> Result<InvitationView, ServiceError> {
        let loaded = self.game.current(owner, id).await?;
        if loaded.state.party.free_seat().is_none() {
            return Err(table_full());
        }
        let code = RecoveryCode::generate(rng);
        let expires_at = now.saturating_add(INVITATION_SECS);
        self.tables
            .invite(id, &code.digest_as(INVITATION), expires_at)
            .await?;
        Ok(InvitationView {
            path: format!("/join/{}", code.letters()),
            expires_at,
        })
    }

    /// The host revokes every invitation not yet used; how many.
    pub async fn revoke(&self, owner: &PlayerId, id: &CampaignId) -> Result<u64, ServiceError> {
        self.game.current(owner, id).await?;
        Ok(self.tables.revoke_invitations(id).await?)
    }

    /// A friend brings an invitation's `code` with their character: they take the first free
    /// seat. Refused, changing nothing, for the host, a friend seated already, a character the
    /// creation rules refuse or whose name is taken, a full table, and an invitation expired,
    /// used, revoked or never made.
    pub async fn join(
        &self,
        player: &PlayerId,
        code: &str,
        character: &CharacterDraft,
        now: i64,
    ) -> Result<CampaignId, ServiceError> {
        let code = RecoveryCode::parse(code).map_err(|_| not_an_invitation())?;
        let digest = code.digest_as(INVITATION);
        let (id, owner) = match self.tables.invitation(&digest, now).await? {
            Invitation::Valid { id, owner } => (id, owner),
            Invitation::Expired => return Err(spent("has run out; ask the host for a new one")),
            Invitation::Used => return Err(spent("was used already; ask the host for a new one")),
            Invitation::Unknown => return Err(not_an_invitation()),
        };
        if owner == *player || self.tables.seat_of(player, &id).await?.is_some() {
            return Err(ServiceError::invalid(
                "invitation",
                "you are at this table already",
            ));
        }
        let running = self.game.lease(&owner, &id).await?;
        let loaded = self.game.current(&owner, &id).await?;
        let seat = loaded.state.party.free_seat().ok_or_else(table_full)?;
        let sheet = character
            .create(loaded.state.sheet.location().clone())
            .map_err(|error| ServiceError::invalid("character", error))?;
        let mut party = loaded.state.party.clone();
        let member = Member {
            role: Role::Seat { seat },
            sheet: sheet.clone(),
        };
        party
            .join(member, loaded.state.sheet.name().as_str())
            .map_err(|error| ServiceError::invalid("character", error))?;
        // The invitation is used and the seat taken together; the hero comes into the story
        // after, and the seat is given back if that fails.
        match self.tables.add_seat(&id, seat, player, &digest, now).await {
            Ok(()) => {}
            Err(StoreError::Stale { .. }) => {
                return Err(spent("was used already; ask the host for a new one"))
            }
            Err(error) => return Err(error.into()),
        }
        let seated = CampaignEvent::Seated { seat, sheet };
        let seen = match self
            .game
            .append_seen(&owner, &id, loaded, vec![seated], now)
            .await
        {
            Ok((_, seen)) => seen,
            Err(error) => {
                self.tables.remove_seat(&id, seat).await?;
                return Err(error);
            }
        };
        drop(running);
        seen.iter()
            .for_each(|update| self.live.publish(&id, update));
        Ok(id)
    }

    /// The host removes the friend at `seat`: they no longer see the campaign, and their hero
    /// leaves the story.
    pub async fn remove(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        seat: Seat,
        now: i64,
    ) -> Result<TableView, ServiceError> {
        if seat.is_host() {
            return Err(ServiceError::invalid(
                "seat",
                "the host's seat is the campaign's own",
            ));
        }
        let running = self.game.lease(owner, id).await?;
        let loaded = self.game.current(owner, id).await?;
        if loaded.state.party.at(seat).is_none() {
            return Err(ServiceError::invalid(
                "seat",
                format!("nobody sits at seat {}", seat.number()),
            ));
        }
        let events = vec![CampaignEvent::Unseated { seat }];
        let (_, seen) = self
            .game
            .append_seen(owner, id, loaded, events, now)
            .await?;
        self.tables.remove_seat(id, seat).await?;
        drop(running);
        seen.iter().for_each(|update| self.live.publish(id, update));
        let place = Place {
            owner: owner.clone(),
            seat: Seat::HOST,
        };
        self.view_for(&place, id, now).await
    }

    /// The host sets how long a round waits for every seat; the table afterwards.
    pub async fn set_wait(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        secs: u32,
        now: i64,
    ) -> Result<TableView, ServiceError> {
        let (least, _, most) = ROUND_WAIT;
        if !(least..=most).contains(&secs) {
            return Err(ServiceError::invalid(
                "wait",
                format!("a round waits {least} seconds to a day ({most} seconds)"),
            ));
        }
        let running = self.game.lease(owner, id).await?;
        let loaded = self.game.current(owner, id).await?;
        let events = vec![CampaignEvent::RoundWaitSet { secs }];
        self.game
            .append(owner, id, loaded, events, None, now)
            .await?;
        drop(running);
        let place = Place {
            owner: owner.clone(),
            seat: Seat::HOST,
        };
        self.view_for(&place, id, now).await
    }

    /// The table as `player`'s seat sees it.
    pub async fn view(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<TableView, ServiceError> {
        let place = self.place(player, id).await?;
        self.view_for(&place, id, now).await
    }

    async fn view_for(
        &self,
        place: &Place,
        id: &CampaignId,
        now: i64,
    ) -> Result<TableView, ServiceError> {
        let loaded = self.game.current(&place.owner, id).await?;
        let turn = loaded.record.turn;
        let moves = self.tables.moves(id, turn).await?;
        let moved: Vec<Seat> = moves.iter().map(|m| m.seat).collect();
        let first = moves.iter().map(|m| m.at).min();
        let wait_secs = loaded.state.round_wait.unwrap_or(ROUND_WAIT.1);
        let wait_left = first.map(|first| {
            let waited = now.saturating_sub(first).max(0);
            u32::try_from(i64::from(wait_secs).saturating_sub(waited).max(0)).unwrap_or(0)
        });
        Ok(TableView {
            members: table_members(&loaded.state, &moved),
            you: place.seat.number(),
            turn,
            wait_secs,
            wait_left,
            may_go_on: !moved.is_empty() && (place.is_host() || wait_left == Some(0)),
        })
    }

    /// A seat's move for the round answering `expected_turn`: kept, and the round narrated once
    /// every seat still in the story has moved. Alone at the table, the move is played at once.
    #[allow(clippy::too_many_arguments)]
    pub async fn submit<R: Rng + Send>(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        input: &MoveInput,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<RoundState, ServiceError> {
        let place = self.place(player, id).await?;
        let loaded = self.game.at_turn(&place.owner, id, expected_turn).await?;
        let state = &loaded.state;
        let seated: Vec<Seat> = self
            .tables
            .seats(id)
            .await?
            .iter()
            .map(|s| s.seat)
            .collect();
        if seated.is_empty() {
            if !place.is_host() {
                return Err(ServiceError::NotFound);
            }
            return self
                .narrate(
                    &place.owner,
                    id,
                    expected_turn,
                    input,
                    &[],
                    now,
                    rng,
                    updates,
                )
                .await;
        }
        if let Some(member) = state.party.at(place.seat) {
            if member.has_fallen() {
                return Err(ServiceError::invalid(
                    "move",
                    "your hero has fallen; the story goes on without them",
                ));
            }
        }
        super::play::check_move(input, state, place.seat)?;
        let body =
            serde_json::to_string(input).map_err(|error| ServiceError::invalid("move", error))?;
        let round_move = RoundMove {
            seat: place.seat,
            body,
            at: now,
        };
        self.tables.put_move(id, expected_turn, &round_move).await?;
        let moves = self.tables.moves(id, expected_turn).await?;
        let due = seats_in_play(state, &seated);
        if due.iter().all(|seat| moves.iter().any(|m| m.seat == *seat)) {
            return self
                .run_round(&place, id, expected_turn, moves, now, rng, updates)
                .await;
        }
        let moved: Vec<Seat> = moves.iter().map(|m| m.seat).collect();
        self.publish_table(id, state, &moved);
        Ok(RoundState::Waiting {
            table: self.view_for(&place, id, now).await?,
        })
    }

    /// Narrates the round with the moves in: the host at any time, anyone once the round has
    /// waited the table's time.
    pub async fn go_on<R: Rng + Send>(
        &self,
        player: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<RoundState, ServiceError> {
        let place = self.place(player, id).await?;
        let view = self.view_for(&place, id, now).await?;
        if view.turn != expected_turn {
            return Err(ServiceError::Stale { current: view.turn });
        }
        if !view.may_go_on {
            return Err(ServiceError::invalid(
                "round",
                "only the host may go on before the round has waited its time, and only once a move is in",
            ));
        }
        let moves = self.tables.moves(id, expected_turn).await?;
        self.run_round(&place, id, expected_turn, moves, now, rng, updates)
            .await
    }

    #[allow(clippy::too_many_arguments)]
    async fn run_round<R: Rng + Send>(
        &self,
        place: &Place,
        id: &CampaignId,
        expected_turn: u32,
        moves: Vec<RoundMove>,
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<RoundState, ServiceError> {
        let mut host = None;
        let mut table = Vec::new();
        for round_move in moves {
            let Ok(input) = serde_json::from_str::<MoveInput>(&round_move.body) else {
                continue;
            };
            if round_move.seat.is_host() {
                host = Some(input);
            } else {
                table.push(TableMove {
                    seat: round_move.seat,
                    input,
                });
            }
        }
        let host = host.unwrap_or_else(|| MoveInput::Text {
            text: "I hold back and watch this round.".to_owned(),
        });
        self.narrate(
            &place.owner,
            id,
            expected_turn,
            &host,
            &table,
            now,
            rng,
            updates,
        )
        .await
    }

    #[allow(clippy::too_many_arguments)]
    async fn narrate<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        expected_turn: u32,
        host: &MoveInput,
        table: &[TableMove],
        now: i64,
        rng: &mut R,
        updates: UpdateSink<'_>,
    ) -> Result<RoundState, ServiceError> {
        let request = MoveRequest {
            expected_turn,
            input: host,
        };
        let (turn, tokens) = self
            .game
            .play_round(owner, id, request, table, now, rng, updates)
            .await?;
        self.tables.clear_moves(id, turn).await?;
        Ok(RoundState::Narrated { turn, tokens })
    }

    /// Tells every seat following the campaign who is at the table and who has moved.
    fn publish_table(
        &self,
        id: &CampaignId,
        state: &crate::campaign::state::CampaignState,
        moved: &[Seat],
    ) {
        let update = TurnUpdate::Table {
            members: table_members(state, moved),
        };
        self.live.publish(id, &update);
    }
}

/// The seats whose move a round waits for: the host's while their hero stands, and each
/// friend's `seated` at the table whose hero has not fallen (a campaign branched or brought
/// from a file keeps its friends' heroes but none of their seats).
fn seats_in_play(state: &crate::campaign::state::CampaignState, seated: &[Seat]) -> Vec<Seat> {
    let host = (!state.sheet.vitality().is_dead()).then_some(Seat::HOST);
    host.into_iter()
        .chain(
            state
                .party
                .members()
                .iter()
                .filter(|member| !member.has_fallen())
                .filter_map(|member| member.seat())
                .filter(|seat| seated.contains(seat)),
        )
        .collect()
}

/// The campaign as the friend at `seat` sees it: their own hero's sheet in the hero's place.
fn as_seen_from(
    state: &crate::campaign::state::CampaignState,
    seat: Seat,
) -> Option<crate::campaign::state::CampaignState> {
    let member = state.party.at(seat)?;
    let mut seen = state.clone();
    seen.sheet = member.sheet.clone();
    Some(seen)
}

fn table_full() -> ServiceError {
    ServiceError::invalid(
        "invitation",
        format!("the table is full: {MAX_SEATS} players at most"),
    )
}

fn not_an_invitation() -> ServiceError {
    ServiceError::invalid(
        "invitation",
        "this is not an invitation to any table (it may have been revoked)",
    )
}

fn spent(why: &'static str) -> ServiceError {
    ServiceError::invalid("invitation", format!("this invitation {why}"))
}

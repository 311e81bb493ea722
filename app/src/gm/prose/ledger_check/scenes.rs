//! The labelled scenes the ledger check is scored on: a narration written for the test, the
//! turn's events (built from Mira's sheet, see [`hero`]) and the contradictions a careful reader
//! finds between them. Three kinds: prose that agrees with its turn, prose that merely mentions
//! items, foes or numbers without claiming them, and prose that contradicts its turn.

use super::tests::{
    add, asked_check, bite, condition, cured, flee, fought, hero, hero_under, hero_with, hp,
    initiative, over, player_check, ruled, strike, take_away, tool, whiff, xp,
};
use crate::campaign::turn_event::TurnEvent;
use crate::game::combat::{CombatEvent, Outcome};
use crate::game::{CharacterSheet, StateDelta};

/// What a scene's prose does with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    /// Claims only what the rules did (or nothing).
    Agreement,
    /// Names items, foes or numbers without claiming anything of them.
    Mention,
    /// Claims something the rules deny.
    Contradiction,
}

/// One labelled scene.
pub(super) struct Scene {
    /// A short name for the test's output.
    pub name: &'static str,
    /// Its label.
    pub label: Label,
    /// The narration.
    pub text: &'static str,
    /// The hero before the turn.
    pub before: fn() -> CharacterSheet,
    /// The turn's events, applied to a copy of the hero.
    pub turn: fn(&mut CharacterSheet) -> Vec<TurnEvent>,
    /// The contradictions' kinds (see the tests' `kind`), empty unless contradicting.
    pub expect: &'static [&'static str],
}

const fn scene(
    label: Label,
    name: &'static str,
    text: &'static str,
    turn: fn(&mut CharacterSheet) -> Vec<TurnEvent>,
    expect: &'static [&'static str],
) -> Scene {
    Scene {
        name,
        label,
        text,
        before: hero,
        turn,
        expect,
    }
}

const fn agree(
    name: &'static str,
    text: &'static str,
    turn: fn(&mut CharacterSheet) -> Vec<TurnEvent>,
) -> Scene {
    scene(Label::Agreement, name, text, turn, &[])
}

const fn mention(
    name: &'static str,
    text: &'static str,
    turn: fn(&mut CharacterSheet) -> Vec<TurnEvent>,
) -> Scene {
    scene(Label::Mention, name, text, turn, &[])
}

const fn contradict(
    name: &'static str,
    text: &'static str,
    turn: fn(&mut CharacterSheet) -> Vec<TurnEvent>,
    expect: &'static [&'static str],
) -> Scene {
    scene(Label::Contradiction, name, text, turn, expect)
}

impl Scene {
    /// The same scene for another hero.
    const fn from(mut self, before: fn() -> CharacterSheet) -> Self {
        self.before = before;
        self
    }
}

fn none(_: &mut CharacterSheet) -> Vec<TurnEvent> {
    Vec::new()
}

fn fight(s: &mut CharacterSheet, events: Vec<CombatEvent>) -> Vec<TurnEvent> {
    vec![fought(s, events, None)]
}

fn with_letter() -> CharacterSheet {
    hero_with(&["Sealed letter"])
}

fn poisoned() -> CharacterSheet {
    hero_under("Poisoned")
}

/// Every scene: those written alongside the patterns, then the held-out ones.
pub(super) fn scenes() -> Vec<&'static Scene> {
    [
        AGREEMENTS,
        MENTIONS,
        CONTRADICTIONS,
        HELD_OUT,
        HELD_OUT_AGAIN,
        HELD_OUT_THIRD,
    ]
    .into_iter()
    .flatten()
    .collect()
}

const AGREEMENTS: &[Scene] = &[
    agree(
        "scimitar 5",
        "The goblin's scimitar bites into your shoulder. You take 5 damage and stagger back \
             against the wall.",
        |s| fight(s, vec![bite("Goblin", 5)]),
    ),
    agree(
        "orc axe 9",
        "The orc's axe catches you across the ribs for 9 points of slashing damage.",
        |s| fight(s, vec![bite("Orc", 9)]),
    ),
    agree(
        "ogre clamps at 0",
        "The ogre's club slams into you for 14 damage and the world goes dark.",
        |s| fight(s, vec![bite("Ogre", 14)]),
    ),
    agree(
        "potion 7",
        "You uncork the potion and drink it down; warmth floods your limbs as you regain 7 \
             hit points.",
        |s| vec![tool(s, vec![hp(7), take_away("potion-of-healing", -1)])],
    ),
    agree(
        "rest 5",
        "You rest for an hour by the fire and recover 5 hit points.",
        |s| {
            vec![tool(
                s,
                vec![hp(5), StateDelta::AdvanceTime { minutes: 60 }],
            )]
        },
    ),
    agree(
        "silver key",
        "Beneath the altar you find a silver key, cold to the touch, and pocket it.",
        |s| vec![tool(s, vec![add("Silver key", 1)])],
    ),
    agree(
        "twelve coins",
        "You scoop up twelve gold coins from the dead man's purse.",
        |s| vec![tool(s, vec![add("Gold coins", 12)])],
    ),
    agree(
        "innkeeper's map",
        "The innkeeper slides you a folded map across the counter and wishes you luck.",
        |s| vec![tool(s, vec![add("Map", 1)])],
    ),
    agree(
        "letter handed over",
        "You hand over the sealed letter to the captain, who breaks the wax with a frown.",
        |s| vec![tool(s, vec![take_away("sealed-letter", -1)])],
    )
    .from(with_letter),
    agree(
        "torch dropped",
        "You drop your torch into the pit; it tumbles away into the darkness below.",
        |s| vec![ruled(s, vec![take_away("torch", -1)])],
    ),
    agree(
        "spider venom",
        "The spider's fangs sink into your calf and you are poisoned.",
        |s| {
            let mut events = fight(s, vec![bite("Giant spider", 4)]);
            events.push(tool(s, vec![condition("Poisoned")]));
            events
        },
    ),
    agree(
        "knocked prone",
        "The troll's backhand knocks you prone in the mud.",
        |s| vec![tool(s, vec![condition("Prone")])],
    ),
    agree(
        "bandits routed",
        "With the bandits routed, you gain 50 XP and a moment to breathe.",
        |s| vec![tool(s, vec![xp(50)])],
    ),
    agree(
        "level two",
        "The lessons of the road settle in: you reach level 2.",
        |s| vec![tool(s, vec![xp(300)])],
    ),
    agree(
        "lock picked",
        "Your fingers work the pins patiently and you succeed in picking the lock.",
        |_| vec![player_check("Pick the lock", true)],
    ),
    agree(
        "wall not climbed",
        "You fail to climb the slick wall and slide back down into the mud.",
        |_| vec![player_check("Climb the wall", false)],
    ),
    agree(
        "goblin slain",
        "Your longsword bites deep and the goblin collapses.",
        |s| {
            let end = over(Outcome::Victory, &["Goblin"], 50);
            vec![fought(s, vec![strike("Goblin", 7, 7, 7)], Some(end))]
        },
    ),
    agree(
        "goblin 2 crumples",
        "Goblin 2 crumples under your blow, while Goblin 1 snarls and circles to your left.",
        |s| fight(s, vec![strike("Goblin 2", 6, 5, 7), bite("Goblin 1", 0)]),
    ),
    agree(
        "wolf 6",
        "You hit the wolf for 6 damage; it yelps but keeps its feet.",
        |s| fight(s, vec![strike("Wolf", 6, 11, 11)]),
    ),
    agree(
        "got away",
        "You break away from the brawl and get away down the alley.",
        |s| {
            let end = over(Outcome::Escaped, &[], 0);
            vec![fought(s, vec![flee(true)], Some(end))]
        },
    ),
    agree(
        "shield holds",
        "The arrow glances off your shield; you take no damage.",
        |s| fight(s, vec![bite("Bandit", 0)]),
    ),
    agree(
        "down to 4",
        "The blow leaves you reeling, down to 4 hit points.",
        |s| fight(s, vec![bite("Orc", 8)]),
    ),
    agree(
        "two goblins",
        "The first goblin slashes you for 3 damage and the second stabs you for 4.",
        |s| fight(s, vec![bite("Goblin 1", 3), bite("Goblin 2", 4)]),
    ),
    agree(
        "ambush costs 7",
        "All told, the ambush costs you 7 hit points.",
        |s| fight(s, vec![bite("Bandit 1", 3), bite("Bandit 2", 4)]),
    ),
    agree(
        "prayer heals 6",
        "The cleric's prayer heals you for 6.",
        |s| vec![tool(s, vec![hp(6)])],
    ),
    agree(
        "antitoxin",
        "The antitoxin burns going down, and you are no longer poisoned.",
        |s| vec![tool(s, vec![cured("Poisoned")])],
    )
    .from(poisoned),
    agree(
        "truce and flight",
        "The goblin throws down its blade and flees into the dark.",
        |s| {
            let end = over(Outcome::Stopped, &[], 0);
            vec![fought(s, vec![], Some(end))]
        },
    ),
    agree(
        "level up",
        "You feel the road's lessons settle into your bones. You level up!",
        |s| vec![tool(s, vec![xp(300)])],
    ),
    agree(
        "ring into pack",
        "You slip the emerald ring into your pack before the guards return.",
        |s| vec![tool(s, vec![add("Emerald ring", 1)])],
    ),
    agree(
        "rope holds",
        "Success! The rope holds and you haul yourself onto the ledge.",
        |_| vec![player_check("Climb the rope", true)],
    ),
    agree(
        "ferryman paid",
        "You pay the ferryman, and spend 5 gold coins for the crossing.",
        |s| vec![tool(s, vec![take_away("gold-coins", -5)])],
    ),
    agree(
        "dart trap",
        "A dart hisses from the wall and strikes your neck for 2 piercing damage.",
        |s| vec![tool(s, vec![hp(-2)])],
    ),
    agree(
        "brass key from the body",
        "The goblin's rusty blade catches your forearm and you take 4 damage. You answer \
             with a thrust that drops it: the goblin collapses, and you pry a small brass key \
             from its belt.",
        |s| {
            let end = over(Outcome::Victory, &["Goblin"], 50);
            let mut events = vec![fought(
                s,
                vec![bite("Goblin", 4), strike("Goblin", 7, 7, 7)],
                Some(end),
            )];
            events.push(tool(s, vec![add("Brass key", 1)]));
            events
        },
    ),
    agree(
        "first goblin long dead",
        "The first goblin is dead; the second presses on, and you take 3 damage.",
        |s| fight(s, vec![bite("Goblin 2", 3)]),
    ),
    agree(
        "magistrate persuaded",
        "You manage to persuade the magistrate, who signs the release with a sigh.",
        |_| vec![asked_check("Persuade the magistrate", true)],
    ),
];

const MENTIONS: &[Scene] = &[
    mention(
        "key on the table",
        "A silver key glints on the table beside the sleeping guard.",
        none,
    ),
    mention(
        "blade gleams",
        "The goblin's blade gleams as it circles you, looking for an opening.",
        |s| fight(s, vec![bite("Goblin", 0)]),
    ),
    mention(
        "coins on the scale",
        "Ten gold coins are stacked on the merchant's scale, just out of reach.",
        none,
    ),
    mention(
        "carved warning",
        "A warning is carved above the door: any who enter take 10 damage.",
        none,
    ),
    mention(
        "could take the potion",
        "You could take the potion, but the shopkeeper is watching your hands.",
        none,
    ),
    mention(
        "if you fail",
        "If you fail this climb, the fall will hurt.",
        none,
    ),
    mention(
        "dead goblin's pouch",
        "The dead goblin's pouch lies open on the floor, spilling copper.",
        |s| fight(s, vec![strike("Goblin 2", 3, 5, 7)]),
    ),
    mention(
        "potion's dice",
        "The innkeeper mentions that a healing potion restores 2d4+2 hit points.",
        none,
    ),
    mention(
        "orc's threat",
        "The orc bellows, \"You'll lose that sword and your head with it!\"",
        |s| fight(s, vec![bite("Orc", 0)]),
    ),
    mention(
        "rope and lantern",
        "Somewhere below, a rope creaks and a lantern sways in the draught.",
        none,
    ),
    mention(
        "blade finds air",
        "The goblin lunges, but you sidestep, and its rusty blade only finds air.",
        |s| fight(s, vec![bite("Goblin", 0)]),
    ),
    mention(
        "map bought yesterday",
        "You study the map you bought yesterday and trace the river with a finger.",
        none,
    ),
    mention(
        "dagger for sale",
        "The merchant offers you a dagger for three silver pieces.",
        none,
    ),
    mention(
        "intend to take",
        "The guard asks whether you intend to take the key to the captain.",
        none,
    ),
    mention(
        "bandit drops torch",
        "The bandit drops his torch and raises his hands.",
        |s| fight(s, vec![whiff("Bandit", 11, 11)]),
    ),
    mention(
        "three torches left",
        "Your torch gutters; you have three left in your pack.",
        none,
    ),
    mention(
        "skeleton's sword",
        "The skeleton's sword clatters to the stones as it lurches toward you.",
        |s| fight(s, vec![whiff("Skeleton", 13, 13)]),
    ),
    mention(
        "captain hurt",
        "The guard captain takes 8 damage from the falling beam and curses.",
        none,
    ),
    mention(
        "bridge and drop",
        "The bridge is thirty feet long and the drop below is at least 60 feet.",
        none,
    ),
    mention(
        "wolf hurt",
        "The wolf is badly hurt, blood matting its grey fur.",
        |s| fight(s, vec![strike("Wolf", 6, 11, 11)]),
    ),
];

const CONTRADICTIONS: &[Scene] = &[
    contradict(
        "scimitar 12",
        "The goblin's scimitar opens a gash along your arm. You take 12 damage.",
        |s| fight(s, vec![bite("Goblin", 5)]),
        &["damage"],
    ),
    contradict(
        "trapdoor fall",
        "The trapdoor gives way and you take 6 bludgeoning damage from the fall.",
        none,
        &["damage"],
    ),
    contradict(
        "orc hits 9",
        "The orc roars and hits you for 9 damage.",
        |s| fight(s, vec![bite("Orc", 4)]),
        &["damage"],
    ),
    contradict(
        "cold seeps",
        "The cold seeps into your bones and you lose 3 hit points.",
        none,
        &["damage"],
    ),
    contradict(
        "mail holds",
        "The blade skitters off your mail, and you take no damage.",
        |s| fight(s, vec![bite("Bandit", 6)]),
        &["damage"],
    ),
    contradict(
        "potion heals 8",
        "The potion heals you for 8.",
        |s| vec![tool(s, vec![hp(3)])],
        &["healing"],
    ),
    contradict(
        "bound wounds",
        "You bind your wounds and regain 5 hit points.",
        none,
        &["healing"],
    ),
    contradict(
        "down to 2",
        "You stand bloodied, down to 2 hit points.",
        |s| fight(s, vec![bite("Orc", 3)]),
        &["hp_left"],
    ),
    contradict(
        "goblin 11",
        "You deal 11 damage to the goblin.",
        |s| fight(s, vec![strike("Goblin", 4, 7, 7)]),
        &["dealt"],
    ),
    contradict(
        "arrow in the flank",
        "Your arrow takes the wolf in the flank for 8 damage.",
        |s| fight(s, vec![strike("Wolf", 3, 11, 11)]),
        &["dealt"],
    ),
    contradict(
        "it falls",
        "Your blade finds the goblin's throat and it falls.",
        |s| fight(s, vec![strike("Goblin", 3, 7, 7)]),
        &["foe_down"],
    ),
    contradict(
        "captain cut down",
        "You cut down the bandit captain with a single stroke.",
        |s| fight(s, vec![strike("Bandit captain", 6, 65, 65)]),
        &["foe_down"],
    ),
    contradict(
        "kobold flees",
        "Terrified, the kobold turns tail and flees into the tunnels.",
        |s| fight(s, vec![bite("Kobold", 0)]),
        &["foe_fled"],
    ),
    contradict(
        "skeleton survives",
        "The skeleton survives the blow and keeps fighting.",
        |s| {
            let end = over(Outcome::Victory, &["Skeleton"], 50);
            vec![fought(s, vec![strike("Skeleton", 13, 13, 13)], Some(end))]
        },
        &["foe_standing"],
    ),
    contradict(
        "jade idol",
        "You pocket the jade idol before anyone notices.",
        none,
        &["item_gained"],
    ),
    contradict(
        "golden crown",
        "Among the bones you find a golden crown and take it.",
        |s| vec![tool(s, vec![add("Rusty dagger", 1)])],
        &["item_gained"],
    ),
    contradict(
        "thirty coins",
        "You pocket the 30 gold coins hidden in the chest.",
        |s| vec![tool(s, vec![add("Gold coins", 10)])],
        &["item_quantity"],
    ),
    contradict(
        "ring bribe",
        "You give the guard your silver ring as a bribe.",
        none,
        &["item_lost"],
    ),
    contradict(
        "last potion",
        "You drink your last potion of healing.",
        none,
        &["item_lost"],
    ),
    contradict(
        "ghoul paralysis",
        "The ghoul's claws rake you and you are paralyzed.",
        |s| fight(s, vec![bite("Ghoul", 4)]),
        &["condition_gained"],
    ),
    contradict(
        "dragon's roar",
        "The dragon's roar washes over you; you are frightened.",
        none,
        &["condition_gained"],
    ),
    contradict(
        "venom shaken off",
        "You shake off the venom; you are no longer poisoned.",
        none,
        &["condition_lost"],
    )
    .from(poisoned),
    contradict(
        "elder's thanks",
        "The village elder thanks you, and you gain 100 XP.",
        |s| vec![tool(s, vec![xp(50)])],
        &["experience"],
    ),
    contradict(
        "cleverness",
        "You earn 25 experience points for your cleverness.",
        none,
        &["experience"],
    ),
    contradict(
        "level three",
        "You reach level 3.",
        |s| vec![tool(s, vec![xp(50)])],
        &["level"],
    ),
    contradict(
        "power surges",
        "Power surges through you as you level up.",
        none,
        &["level"],
    ),
    contradict(
        "door forced",
        "You succeed, and the heavy door swings open.",
        |_| vec![player_check("Force the door", false)],
        &["verdict"],
    ),
    contradict(
        "sentries",
        "You manage to sneak past the sentries unseen.",
        |_| vec![player_check("Sneak past the sentries", false)],
        &["verdict"],
    ),
    contradict(
        "magistrate",
        "You fail to persuade the magistrate, who waves you away.",
        |_| vec![asked_check("Persuade the magistrate", true)],
        &["verdict"],
    ),
    contradict(
        "slip away",
        "You slip away into the crowd, leaving the thugs behind.",
        |s| fight(s, vec![flee(false), bite("Thug 1", 2)]),
        &["verdict"],
    ),
    contradict(
        "troll and sword",
        "The troll's claws rake you for 15 damage and you drop your longsword.",
        |s| fight(s, vec![bite("Troll", 6)]),
        &["damage", "item_lost"],
    ),
    contradict(
        "both goblins",
        "Both goblins fall dead at your feet.",
        |s| {
            let events = vec![
                initiative(&["Goblin 1", "Goblin 2"]),
                strike("Goblin 1", 7, 7, 7),
                strike("Goblin 2", 4, 7, 7),
            ];
            fight(s, events)
        },
        &["foe_down"],
    ),
    contradict(
        "mends 10",
        "The potion mends your wounds: you recover 10 hit points.",
        |s| vec![tool(s, vec![hp(7), take_away("potion-of-healing", -1)])],
        &["healing"],
    ),
    contradict(
        "wraith drains",
        "The wraith's touch drains you; you lose 8 hit points and are left shaking.",
        |s| fight(s, vec![bite("Wraith", 4)]),
        &["damage"],
    ),
    contradict(
        "brass key snatched",
        "You snatch the brass key from its hook.",
        none,
        &["item_gained"],
    ),
    contradict(
        "sword 9 to goblin 2",
        "Your sword deals 9 slashing damage to Goblin 2.",
        |s| fight(s, vec![strike("Goblin 2", 5, 7, 7)]),
        &["dealt"],
    ),
    contradict(
        "goblin dies",
        "The goblin dies.",
        |s| fight(s, vec![strike("Goblin", 5, 7, 7)]),
        &["foe_down"],
    ),
    contradict(
        "costs 7",
        "The goblin's blow costs you 7 hit points.",
        |s| fight(s, vec![bite("Goblin", 3)]),
        &["damage"],
    ),
    contradict(
        "orc cleaver and fall",
        "Steel rings on steel. The orc's cleaver bites into your side for 11 damage, and you \
             stagger. Gritting your teeth, you drive your spear into its chest and the orc falls.",
        |s| fight(s, vec![bite("Orc", 6), strike("Orc", 5, 15, 15)]),
        &["damage", "foe_down"],
    ),
    contradict(
        "merchant's gift",
        "Grateful, the merchant hands you a jeweled dagger.",
        none,
        &["item_gained"],
    ),
];

/// Scenes written after the patterns, in a narrator's looser words (names start with `held
/// out:`). Scored before any pattern changed for them: 9 of 18 contradictions caught, no alarm
/// on the 10 clean scenes, one alarm of the wrong kind (`you feel 15 points of damage` read as
/// damage dealt). The general fixes they prompted (no verb: the hero feels it; `full health`;
/// things listed with `and`; someone taking `your` things; a condition's cause fading;
/// `successfully`; `pass` as giving; `0` as a number) catch all but one now.
const HELD_OUT: &[Scene] = &[
    agree(
        "held out: knife 5",
        "Pain blossoms across your thigh as the bandit's knife finds its mark: 5 points of \
             damage. You grit your teeth and hold your ground.",
        |s| fight(s, vec![bite("Bandit", 5)]),
    ),
    agree(
        "held out: draught",
        "The healing draught tastes of copper and mint. You feel your wounds knit closed as 6 \
             hit points return to you.",
        |s| vec![tool(s, vec![hp(6), take_away("potion-of-healing", -1)])],
    ),
    agree(
        "held out: coil of rope",
        "You pry open the chest and find a coil of rope, which you add to your pack.",
        |s| vec![tool(s, vec![add("Rope", 1)])],
    ),
    agree(
        "held out: skeleton down",
        "With a final swing, you bring the skeleton down in a clatter of bones.",
        |s| {
            let end = over(Outcome::Victory, &["Skeleton"], 50);
            vec![fought(s, vec![strike("Skeleton", 13, 13, 13)], Some(end))]
        },
    ),
    mention(
        "held out: boss staggers",
        "The goblin boss staggers, bleeding from a deep cut, but keeps his feet.",
        |s| fight(s, vec![strike("Goblin boss", 5, 21, 21)]),
    ),
    mention(
        "held out: pouch at your belt",
        "The guard eyes the pouch of gold at your belt.",
        none,
    ),
    mention(
        "held out: last adventurer",
        "The old woman tells you that the last adventurer took 20 damage from the wyrm.",
        none,
    ),
    mention(
        "held out: not sure",
        "You are not sure whether the potion healed 4 or 5 hit points, but you feel better.",
        none,
    ),
    agree(
        "held out: lock holds",
        "Your lockpicks slip, and the lock holds. The mechanism is beyond you for now.",
        |_| vec![player_check("Pick the lock", false)],
    ),
    agree(
        "held out: rat crushed",
        "The rat bites you for 1 damage before you crush it under your boot.",
        |s| {
            let end = over(Outcome::Victory, &["Giant rat"], 25);
            vec![fought(
                s,
                vec![bite("Giant rat", 1), strike("Giant rat", 7, 7, 7)],
                Some(end),
            )]
        },
    ),
    contradict(
        "held out: ogre fist 15",
        "The ogre's fist connects, and you feel 15 points of damage rattle your skull.",
        |s| fight(s, vec![bite("Ogre", 8)]),
        &["damage"],
    ),
    // Labelled `healing` when written; relabelled `hp_left` once a claim of full health
    // was added (it is a claim of the hit points left).
    contradict(
        "held out: full health",
        "You drink the potion and your wounds close; you are back to full health.",
        |s| vec![tool(s, vec![hp(3), take_away("potion-of-healing", -1)])],
        &["hp_left"],
    ),
    contradict(
        "held out: lies dead",
        "The goblin lies dead at your feet, its crude spear snapped in two.",
        |s| fight(s, vec![strike("Goblin", 4, 7, 7)]),
        &["foe_down"],
    ),
    contradict(
        "held out: orc's key and purse",
        "Searching the body, you take the orc's heavy iron key and a purse with 15 gold.",
        none,
        &["item_gained", "item_gained"],
    ),
    contradict(
        "held out: poison leaves",
        "You feel the poison leave your veins.",
        none,
        &["condition_lost"],
    )
    .from(poisoned),
    contradict(
        "held out: wolf goes down",
        "Your arrow strikes true and the wolf goes down in a spray of snow.",
        |s| fight(s, vec![strike("Wolf", 4, 11, 11)]),
        &["foe_down"],
    ),
    contradict(
        "held out: bandit runs off",
        "The bandit, badly wounded, throws down his sword and runs off into the trees.",
        |s| fight(s, vec![strike("Bandit", 6, 11, 11)]),
        &["foe_fled"],
    ),
    contradict(
        "held out: 200 experience",
        "You've earned 200 experience for slaying the beast.",
        |s| vec![tool(s, vec![xp(100)])],
        &["experience"],
    ),
    contradict(
        "held out: lock refuses",
        "Despite your best effort, the lock refuses to budge: you fail.",
        |_| vec![player_check("Pick the lock", true)],
        &["verdict"],
    ),
    contradict(
        "held out: lantern bought",
        "The merchant takes your 10 gold coins and hands you the lantern.",
        none,
        &["item_lost", "item_gained"],
    ),
    contradict(
        "held out: stunned",
        "You are stunned by the blow and lose your next turn.",
        |s| fight(s, vec![bite("Hobgoblin", 4)]),
        &["condition_gained"],
    ),
    contradict(
        "held out: 0 hit points",
        "The blow drops you to 0 hit points.",
        |s| fight(s, vec![bite("Orc", 5)]),
        &["hp_left"],
    ),
    contradict(
        "held out: kobold grazes",
        "The kobold's spear grazes you, 2 damage, nothing serious.",
        |s| fight(s, vec![bite("Kobold", 6)]),
        &["damage"],
    ),
    contradict(
        "held out: the one you struck",
        "Two goblins remain; the one you struck is dead.",
        |s| fight(s, vec![strike("Goblin 1", 3, 7, 7), bite("Goblin 2", 0)]),
        &["foe_down"],
    ),
    contradict(
        "held out: successfully",
        "You successfully climb to the top of the cliff.",
        |_| vec![player_check("Climb the cliff", false)],
        &["verdict"],
    ),
    contradict(
        "held out: antitoxin passed",
        "You pass the vial of antitoxin to Brother Aldric.",
        none,
        &["item_lost"],
    ),
];

/// A second held-out batch, mostly prose that must raise no alarm, written after the first
/// batch's fixes (names start with `held out 2:`). Scored before any change for it: 5 of 5
/// contradictions caught, one alarm on its 20 clean scenes (`you grab the rope`, a rope the
/// hero carried), fixed by not counting a thing the hero already carries as gained by a verb
/// of many senses.
const HELD_OUT_AGAIN: &[Scene] = &[
    mention(
        "held out 2: left passage",
        "You take the left passage and find a narrow stair.",
        none,
    ),
    mention(
        "held out 2: grab the rope",
        "You grab the rope and swing across the chasm.",
        none,
    ),
    mention(
        "held out 2: dagger clatters",
        "The goblin's dagger clatters away; it is unarmed now.",
        |s| fight(s, vec![whiff("Goblin", 7, 7)]),
    ),
    mention(
        "held out 2: weight of coins",
        "You feel the weight of the gold coins in your pouch.",
        none,
    ),
    mention(
        "held out 2: nothing of value",
        "You search the room but find nothing of value.",
        none,
    ),
    mention(
        "held out 2: fear grips",
        "Fear grips you as the shadow passes overhead.",
        none,
    ),
    mention(
        "held out 2: feigning",
        "The goblin drops dead? No, it is only feigning.",
        |s| fight(s, vec![strike("Goblin", 3, 7, 7)]),
    ),
    mention(
        "held out 2: papers",
        "You hand the guard your papers and he waves you through.",
        none,
    ),
    mention(
        "held out 2: companion hurt",
        "Your companion takes 6 damage from the blast, but you are unharmed.",
        none,
    ),
    mention(
        "held out 2: stream",
        "You drink from the cold stream and refill your waterskin.",
        none,
    ),
    agree(
        "held out 2: orc slain",
        "With the orc slain, you take a moment to catch your breath.",
        |s| {
            let end = over(Outcome::Victory, &["Orc"], 100);
            vec![fought(s, vec![strike("Orc", 15, 15, 15)], Some(end))]
        },
    ),
    mention(
        "held out 2: trail",
        "You pick up the trail again near the river.",
        none,
    ),
    mention(
        "held out 2: potion sloshes",
        "The potion of healing in your pack sloshes as you run.",
        none,
    ),
    mention(
        "held out 2: thief tries",
        "The thief tries to snatch your purse, but you catch his wrist.",
        none,
    ),
    mention(
        "held out 2: lose sight",
        "You lose sight of the bandit in the fog.",
        none,
    ),
    agree(
        "held out 2: counterstroke",
        "You take 5 damage, and the goblin takes 7 from your counterstroke.",
        |s| fight(s, vec![bite("Goblin", 5), strike("Goblin", 7, 7, 7)]),
    ),
    agree(
        "held out 2: blinded",
        "Blood runs into your eyes and you are blinded for a moment.",
        |s| vec![tool(s, vec![condition("Blinded")])],
    ),
    agree(
        "held out 2: goblins scatter",
        "The goblins scatter and flee into the woods.",
        |s| {
            let foes = vec!["Goblin 1".parse().unwrap(), "Goblin 2".parse().unwrap()];
            fight(s, vec![CombatEvent::FoesFlee { foes }])
        },
    ),
    mention(
        "held out 2: wolf circles",
        "You keep your sword raised, and the wolf circles, still standing.",
        |s| fight(s, vec![bite("Wolf", 0)]),
    ),
    mention(
        "held out 2: final price",
        "Twenty gold coins, the merchant says, is his final price.",
        none,
    ),
    contradict(
        "held out 2: silver dagger",
        "You grab the silver dagger from the rack and tuck it into your belt.",
        none,
        &["item_gained"],
    ),
    contradict(
        "held out 2: down to 1",
        "The goblin's axe bites into you; you're down to 1 hit point.",
        |s| fight(s, vec![bite("Goblin", 4)]),
        &["hp_left"],
    ),
    contradict(
        "held out 2: shaman collapses",
        "The shaman collapses, his staff rolling away.",
        |s| fight(s, vec![strike("Goblin shaman", 4, 9, 9)]),
        &["foe_down"],
    ),
    contradict(
        "held out 2: wolf pelt",
        "You slay the wolf with one clean stroke and claim its pelt.",
        |s| fight(s, vec![strike("Wolf", 5, 11, 11)]),
        &["foe_down", "item_gained"],
    ),
];

/// Written after the bench's first runs, in the phrasing models use, and scored as they came:
/// nothing was tuned to them.
const HELD_OUT_THIRD: &[Scene] = &[
    contradict(
        "held out 3: arrow 8",
        "The arrow takes you in the shoulder, dealing 8 piercing damage.",
        none,
        &["damage"],
    ),
    contradict(
        "held out 3: acid 4",
        "Pain flares as the acid splashes you for 4 damage.",
        |s| vec![tool(s, vec![hp(-2)])],
        &["damage"],
    ),
    contradict(
        "held out 3: floorboard gold",
        "You find 25 gold pieces hidden under the floorboards and add them to your purse.",
        none,
        &["item_gained"],
    ),
    contradict(
        "held out 3: letter traded",
        "The merchant gladly takes your sealed letter.",
        none,
        &["item_lost"],
    )
    .from(with_letter),
    contradict(
        "held out 3: bandit falls",
        "Your blade finds its mark and the bandit falls dead at your feet.",
        |s| fight(s, vec![strike("Bandit", 4, 11, 11)]),
        &["foe_down"],
    ),
    contradict(
        "held out 3: wolf 9",
        "You strike the wolf for 9 damage.",
        |s| fight(s, vec![strike("Wolf", 5, 11, 11)]),
        &["dealt"],
    ),
    contradict(
        "held out 3: nausea",
        "A wave of nausea hits you: you are now poisoned.",
        none,
        &["condition_gained"],
    ),
    contradict(
        "held out 3: courage xp",
        "For your courage, you earn 100 experience points.",
        none,
        &["experience"],
    ),
    contradict(
        "held out 3: level two",
        "You feel stronger as you reach level 2!",
        none,
        &["level"],
    ),
    contradict(
        "held out 3: lock holds",
        "Despite your best effort, the lock refuses to budge and you fail.",
        |_| vec![player_check("Pick the lock", true)],
        &["verdict"],
    ),
    contradict(
        "held out 3: draught 10",
        "The healing draught restores 10 hit points.",
        |s| vec![tool(s, vec![hp(-6)]), tool(s, vec![hp(4)])],
        &["healing"],
    ),
    contradict(
        "held out 3: slip away",
        "You slip away from the goblins and escape into the night.",
        |s| fight(s, vec![flee(false)]),
        &["verdict"],
    ),
    agree(
        "held out 3: arrow 3",
        "The arrow takes you in the shoulder for 3 damage.",
        |s| vec![tool(s, vec![hp(-3)])],
    ),
    agree("held out 3: brass key", "You pocket the brass key.", |s| {
        vec![tool(s, vec![add("Brass key", 1)])]
    }),
    mention(
        "held out 3: jailer's key",
        "A brass key hangs from the jailer's belt.",
        none,
    ),
    mention(
        "held out 3: could deal",
        "If the bandit hits you, it could deal 10 damage.",
        none,
    ),
    mention(
        "held out 3: warning",
        "\"You'll take 20 damage if you touch that,\" the old man warns.",
        none,
    ),
    agree(
        "held out 3: wolf dead",
        "The wolf yelps and collapses, dead.",
        |s| fight(s, vec![strike("Wolf", 11, 11, 11)]),
    ),
    mention(
        "held out 3: wonder",
        "You wonder whether the potion would heal you.",
        none,
    ),
    agree(
        "held out 3: lock opens",
        "You succeed in picking the lock, and the door creaks open.",
        |_| vec![player_check("Pick the lock", true)],
    ),
    mention(
        "held out 3: notched sword",
        "The bandit's sword is notched and rusty.",
        |s| fight(s, vec![whiff("Bandit", 11, 11)]),
    ),
    agree(
        "held out 3: wolves driven off",
        "You gain 25 XP for driving off the wolves.",
        |s| vec![tool(s, vec![xp(25)])],
    ),
];

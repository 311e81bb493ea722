//! The lexicon: every list of English words the game master's prose heuristics read with, in one
//! place, each with what it is. The heuristics themselves (and what they decide) stay where they
//! were; only their words live here.
//!
//! Grouped by the heuristic that reads them: the player's moves and the actions offered
//! (`turn::candidates`, `turn::fight_turn`, `prompt::recall`, the quality metrics); the things a
//! scene names (`scene`); the narrator's voice (`voice`, the quality metrics); proper names
//! (`names`); and the ledger check's reading of clauses, numbers, foes, items, conditions and
//! verdicts (`ledger_check`).
//!
//! Some lists share words without being the same list, and each stays as its heuristic needs it:
//! [`ENDS_A_NAME`] is a narrower [`PHRASE_STOPS`] (a scene's things keep `up`, `down`, `it`…);
//! [`ARTICLES`], [`QUANTIFIERS`], [`DETERMINERS`], [`OTHER_OPENERS`], [`FOE_OPENERS`] and
//! [`AMOUNT_FILLER`] open different phrases; [`GAIN`], [`EARN`], [`HEAL`], [`TAKE_AMOUNT`],
//! [`PUT_AWAY`] and [`TAKE_YOURS`] share verbs that mean something else in each; [`ESCAPED`] is
//! how the prose says a getaway, [`ESCAPE_WORDS`] what a check's reason names.
//!
//! The lists are laid out by hand, many words a line (`rustfmt` would give each word its own
//! line), and never reordered: where a list is searched in order ([`PERSON_SWAPS`],
//! [`FOE_DOWN`]) or read by position ([`NUMBER_NAMES`], [`ORDINALS`]), the order is part of what
//! it says.

// The player's moves and the actions offered.

/// Verbs an action may start with (imperative, lower case): a concrete move starts with one (the
/// quality metrics), and a scene's noun that is one is a move, not a thing ("a look").
pub const ACTION_VERBS: &[&str] = &[
    "accept", "aim", "approach", "ask", "attack", "avoid", "barter", "bargain", "block", "board",
    "break", "bribe", "call", "calm", "cast", "charge", "chase", "check", "circle", "claim",
    "clean", "climb", "close", "collect", "comfort", "confront", "continue", "crawl", "cross",
    "cut", "dash", "decline", "defend", "demand", "descend", "dig", "disarm", "distract", "dive",
    "dodge", "drag", "draw", "drink", "drop", "duck", "eat", "enter", "escape", "examine",
    "explore", "feel", "fight", "find", "flee", "follow", "force", "gather", "give", "grab",
    "greet", "guard", "haggle", "head", "help", "hide", "hold", "hurry", "inspect", "interrogate",
    "investigate", "jump", "kick", "kneel", "knock", "leap", "leave", "lift", "light", "listen",
    "lock", "look", "loot", "lure", "make", "move", "offer", "open", "pay", "peek", "persuade",
    "pick", "play", "plead", "pour", "pray", "press", "pry", "pull", "push", "question", "raise",
    "read", "recall", "refuse", "rest", "retreat", "return", "run", "rush", "scout", "search",
    "seek", "shout", "show", "shove", "signal", "slip", "smash", "sneak", "speak", "splash",
    "sprint", "stab", "stand", "steal", "step", "study", "surrender", "swim", "take", "talk",
    "tell", "threaten", "throw", "touch", "track", "trade", "turn", "untie", "use", "wade", "wait",
    "wake", "walk", "warn", "watch", "wave", "whisper", "wield", "nod", "shrug", "glance", "smile",
    "sigh", "grin", "wink", "bow", "gesture", "frown",
];

/// Words a move that picks a fight starts with (`Attack the goblin`), for a model without tools.
pub const ATTACK_VERBS: &[&str] = &["attack", "fight", "strike", "charge", "stab", "shoot", "hit"];

/// Things that are people: one can talk to them (the rules' candidate moves).
pub const PEOPLE: &[&str] = &[
    "guard", "man", "woman", "stranger", "innkeeper", "merchant", "child", "figure", "priest",
    "soldier", "knight", "girl", "boy", "master", "keeper", "guest", "traveller", "traveler", "owl",
    "boatman", "widow", "hunter", "monk", "witch", "old man", "old woman", "captain",
];

/// Words of a move too common to bring anything back from the story (recall).
pub const COMMON_MOVE_WORDS: &[&str] = &[
    "about", "above", "after", "again", "also", "around", "back", "been", "before", "being", "both",
    "could", "does", "down", "each", "else", "even", "ever", "from", "have", "here", "into", "just",
    "like", "look", "make", "more", "most", "much", "must", "near", "next", "once", "only", "onto",
    "other", "over", "said", "same", "some", "such", "take", "than", "that", "them", "then",
    "there", "these", "they", "this", "those", "through", "toward", "towards", "under", "until",
    "upon", "very", "want", "were", "what", "when", "where", "which", "while", "with", "would",
    "your", "their", "will", "keep", "carefully", "the", "and", "for", "but", "you", "her", "his",
    "its", "our", "was", "are", "not", "walk", "move", "head", "follow", "continue", "press",
    "wait", "search", "check", "open", "climb", "run",
];

// The things a scene names (its noun phrases).

/// Articles: each opens a noun phrase, whose head noun is a thing the scene names.
pub const ARTICLES: &[&str] = &["the", "a", "an"];

/// Quantifiers and numbers: never a thing. After an article they are passed over ("a few
/// torches"); alone, they open a noun phrase whose head is a plural ("several goblins"), which
/// tells them from the same words used as pronouns ("some say").
pub const QUANTIFIERS: &[&str] = &[
    "few", "several", "many", "some", "both", "these", "those", "all", "other", "two", "three",
    "four", "five", "six", "seven", "eight", "nine", "ten", "dozen",
];

/// Adjectives: they describe the word after them, which is part of the thing ("the old gate");
/// a phrase that ends on one names nothing ("a massive, ancient door" names no thing in "a
/// massive").
pub const ADJECTIVES: &[&str] = &[
    "old", "iron", "stone", "wooden", "dark", "small", "large", "great", "heavy", "broken",
    "ancient", "narrow", "wide", "tall", "low", "black", "white", "red", "silver", "golden", "cold",
    "wet", "deep", "hidden", "locked", "open", "strange", "little", "big", "long", "huge", "vast",
    "tiny", "faint", "dim", "bright", "thick", "thin", "rough", "soft", "loud", "quiet", "silent",
    "empty", "full", "sharp", "pale", "grim", "foul", "warm", "hot", "dry", "damp", "young", "new",
    "fresh", "odd", "weird", "eerie", "ornate", "distant", "far", "near", "sudden", "strong",
    "weak", "grey", "gray", "green", "blue", "brown", "bare", "lone", "single", "only", "same",
    "next", "first", "last", "whole", "very", "best", "most", "least", "such", "own", "certain",
    "main", "grand", "different", "unique", "rare", "uncommon", "common", "legendary", "gentle",
    "fierce", "bitter", "brave", "proud", "wary", "hostile",
];

/// Endings that make a word an adjective ("massive", "wondrous", "endless", "magical",
/// "maw-like", "ghostly"), unless it is one of [`NOUNS_LIKE_ADJECTIVES`].
pub const ADJECTIVE_ENDINGS: &[&str] = &[
    "ous", "ful", "less", "ive", "ic", "al", "ible", "able", "like", "ly",
];

/// Nouns a scene may name that end like adjectives.
pub const NOUNS_LIKE_ADJECTIVES: &[&str] = &[
    "animal", "crystal", "metal", "portal", "pedestal", "ritual", "signal", "cathedral", "festival",
    "general", "journal", "mural", "canal", "spiral", "jackal", "mortal", "relic", "cleric",
    "attic", "tunic", "magic", "mimic", "heretic", "table", "stable", "cable", "constable", "bible",
    "crucible", "captive", "fugitive", "archive", "olive", "missive", "family", "assembly", "belly",
];

/// Plurals that do not end in -s.
pub const IRREGULAR_PLURALS: &[&str] = &["men", "women", "people", "children", "folk"];

/// Nouns that name no thing one could act on, however described ("the strange things", "the
/// only way"); their plurals in -s neither.
pub const NOT_THINGS: &[&str] = &[
    "thing", "something", "anything", "everything", "nothing", "stuff", "one", "others", "way",
    "time", "moment", "truth", "story", "scene", "character", "beginning", "end", "rest", "case",
    "idea", "plan", "following", "world", "game", "player", "adventure", "option", "action",
    "question", "answer", "chance", "day", "night", "air", "situation", "past", "future", "fact",
    "kind", "sort", "lot", "bit", "part", "number", "sense", "feeling", "quest", "journey", "life",
    "mind", "heart", "use", "place", "area",
];

/// Nouns that are also [`ACTION_VERBS`], kept as things when a scene names them.
pub const PEOPLE_LIKE: &[&str] = &["guard", "light", "signal", "wave", "track", "play"];

/// Words that end a thing's name rather than continue it (the things a scene names).
pub const ENDS_A_NAME: &[&str] = &[
    "of", "and", "or", "in", "on", "at", "to", "with", "from", "that", "which", "who", "is", "was",
    "are", "were", "as", "by", "for",
];

// The narrator's voice.

/// Words that mark a sentence about the telling, not the scene (dropped from a very small
/// model's scene).
pub const ABOUT_THE_TELLING: &[&str] = &[
    "story", "game", "player", "character", "characters", "chapter", "plan", "scenario", "narrator",
    "narrative", "reader", "adventure", "quest", "episode", "assistant", "here is", "heres", "lets",
];

/// First-person words and their second-person forms, the pairs of two words first (a very small
/// model's scene put in the player's voice).
pub const PERSON_SWAPS: &[(&str, &str)] = &[
    ("I'm", "you're"), ("I've", "you've"), ("I'll", "you'll"), ("I'd", "you'd"),
    ("I am", "you are"), ("I was", "you were"), ("I", "you"), ("me", "you"), ("my", "your"),
    ("mine", "yours"), ("myself", "yourself"),
];

/// Words that show the narrator talking about itself or the game instead of the scene (the
/// quality metrics).
pub const SELF_TALK: &[&str] = &[
    "as an ai", "language model", "i will show you", "i am the", "i'm the", "my name is", "episode",
    "in this game", "the game master", "this story is", "let me", "i can help", "assistant",
];

/// First-person words, apostrophes dropped: outside quoted speech, the narrator speaking as
/// itself (the quality metrics).
pub const FIRST_PERSON: &[&str] = &["i", "im", "ive", "ill", "id", "me", "my", "mine", "myself"];

// Proper names.

/// Words that are capitalised without being proper names.
pub const NOT_NAMES: &[&str] = &[
    "I", "You", "Your", "The", "A", "An", "He", "She", "They", "It", "We", "My", "His", "Her",
    "Their", "Its", "This", "That",
];

/// Words after which a proper name is a place (`to` only as `to the`: "talk to Mira" is a
/// person).
pub const PLACE_WORDS: &[&str] = &[
    "into", "in", "at", "toward", "towards", "through", "across", "reach", "reaches", "enter",
    "enters", "inside", "beyond", "outside", "within", "onto",
];

// The ledger check: reading clauses, numbers and the fight's foes.

/// Words that open a new clause (kept as the clause's first word, so that `if`, `before` and
/// `unless` can mark it as not asserted).
pub const CLAUSE_OPENERS: &[&str] = &[
    "but", "while", "as", "before", "until", "unless", "if", "when", "whenever", "though",
    "although", "because", "whereas", "once", "so",
];

/// Words that may open a clause before its subject (`and then the goblin falls`).
pub const CLAUSE_LEADERS: &[&str] = &[
    "and", "but", "then", "so", "yet", "while", "as", "now", "when", "after", "once", "at", "last",
    "just", "even", "still", "instead", "soon", "again", "there", "here", "with", "that",
];

/// Words that make what follows them in a clause unasserted: conditions, negations, modal
/// verbs, attempts and near-misses.
pub const HEDGES: &[&str] = &[
    "if", "unless", "would", "could", "might", "should", "may", "must", "will", "shall", "can",
    "cannot", "not", "never", "no", "nor", "neither", "try", "tries", "tried", "trying", "attempt",
    "attempts", "attempted", "attempting", "want", "wants", "wanted", "hope", "hopes", "almost",
    "nearly", "before", "until", "whether", "without", "about", "going", "ready", "seem", "seems",
    "seemed", "threaten", "threatens", "threatening", "wish", "need", "needs", "ought", "nothing",
    "barely", "imagine", "picture", "expect", "expects",
];

/// Words that open a noun phrase that is nobody in the fight.
pub const OTHER_OPENERS: &[&str] = &[
    "the", "a", "an", "this", "these", "those", "his", "her", "its", "their", "our", "some", "one",
    "another", "every", "each", "no", "all", "both", "we", "they", "i", "someone", "something",
    "nothing", "everything", "everyone",
];

/// Words that end a noun phrase, for the ledger check's reader.
pub const PHRASE_STOPS: &[&str] = &[
    "and", "or", "but", "from", "with", "into", "in", "on", "onto", "off", "out", "to", "for", "as",
    "at", "by", "under", "beneath", "behind", "inside", "then", "before", "after", "while", "which",
    "that", "who", "whose", "up", "down", "back", "away", "of", "over", "through", "across",
    "along", "toward", "towards", "around", "near", "beside", "it", "them", "him", "you", "your",
    "yourself", "so", "still", "again", "too", "free", "loose", "aside", "is", "are", "was", "were",
    "the", "a", "an", "some", "his", "her", "its", "their", "this", "there", "here", "against",
    "upon", "onto", "between", "among", "without", "until", "if", "when", "where", "not",
];

/// Determiners and words before a foe's name (`the last goblin`).
pub const FOE_OPENERS: &[&str] = &[
    "the", "a", "an", "that", "this", "another", "last", "other", "remaining", "final", "lone",
    "nearest", "closest", "both", "two", "three", "all",
];

/// The names of the numbers from zero to twenty, each at its own number's place.
pub const NUMBER_NAMES: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    "twenty",
];

/// The names of the larger round numbers prose spells out, with their numbers.
pub const TENS: &[(&str, u32)] = &[("thirty", 30), ("forty", 40), ("fifty", 50), ("hundred", 100)];

/// Ordinals, for `the second goblin` (`Goblin 2`).
pub const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth",
];

/// Words for whichever foe was named last (`the creature staggers`).
pub const FOE_PRONOUNS: &[&str] = &[
    "creature", "beast", "monster", "brute", "foe", "enemy", "opponent", "attacker", "assailant",
    "thing",
];

// The ledger check: damage, healing, hit points and experience.

/// Damage types, as prose puts them between a number and `damage`.
pub const DAMAGE_TYPES: &[&str] = &[
    "slashing", "piercing", "bludgeoning", "fire", "cold", "acid", "poison", "necrotic", "radiant",
    "lightning", "thunder", "psychic", "force",
];

/// Verbs whose actor takes the number that follows (`you take 5 damage`, `you lose 3 hit
/// points`).
pub const TAKE_AMOUNT: &[&str] = &[
    "take", "takes", "took", "taken", "taking", "suffer", "suffers", "suffered", "suffering",
    "lose", "loses", "lost", "losing", "sustain", "sustains", "sustained", "feel", "feels", "felt",
];

/// Verbs whose actor deals the number that follows to someone else (`costs you 7 hit points`).
pub const DEAL_AMOUNT: &[&str] = &[
    "deal", "deals", "dealt", "dealing", "inflict", "inflicts", "inflicted", "inflicting", "do",
    "does", "did", "doing", "cause", "causes", "caused", "causing", "cost", "costs", "costing",
];

/// Verbs of healing; those that also take a bare number (`heals 7`) come first.
pub const HEAL: &[&str] = &[
    "heal", "heals", "healed", "healing", "regain", "regains", "regained", "regaining", "recover",
    "recovers", "recovered", "restore", "restores", "restored", "restoring", "gain", "gains",
    "gained",
];

/// Verbs of earning experience.
pub const EARN: &[&str] = &[
    "gain", "gains", "gained", "earn", "earns", "earned", "receive", "receives", "received", "get",
    "gets", "got", "collect", "collects", "award", "awards", "awarded", "grant", "grants",
    "granted", "give", "gives", "gave", "win", "wins", "won",
];

/// Words a verb may stand apart from its number by (`you take an extra 5 damage`).
pub const AMOUNT_FILLER: &[&str] = &[
    "a", "an", "the", "extra", "additional", "another", "only", "just", "full", "further", "total",
    "mere", "whole", "of", "some",
];

/// Words before a number that make it the hit points left (`down to 3`, `at 3`).
pub const HIT_POINTS_LEFT_CUES: &[&str] = &["to", "at", "with", "have", "has", "only", "just"];

// The ledger check: foes down, standing or fled.

/// Ways of saying a foe went down.
pub const FOE_DOWN: &[&[&str]] = &[
    &["dies"], &["died"], &["die"], &["is", "dead"], &["are", "dead"], &["was", "dead"],
    &["lies", "dead"], &["lay", "dead"], &["lies", "still"], &["lies", "motionless"],
    &["drops", "dead"], &["dropped", "dead"], &["falls", "dead"], &["fell", "dead"],
    &["fall", "dead"], &["lie", "dead"], &["drop", "dead"], &["are", "killed"], &["go", "still"],
    &["go", "limp"], &["fall", "still"], &["perish"], &["is", "slain"], &["are", "slain"],
    &["was", "slain"], &["is", "killed"], &["was", "killed"], &["goes", "down"], &["went", "down"],
    &["go", "down"], &["goes", "still"], &["went", "still"], &["goes", "limp"], &["went", "limp"],
    &["falls", "still"], &["falls", "lifeless"], &["falls", "motionless"], &["slumps", "lifeless"],
    &["collapses"], &["collapsed"], &["collapse"], &["collapsing"], &["crumples"], &["crumpled"],
    &["crumple"], &["crumpling"], &["topples"], &["toppled"], &["perishes"], &["perished"],
    &["expires"], &["breathes", "its", "last"], &["is", "no", "more"], &["is", "down"],
    &["are", "down"], &["stops", "moving"], &["falls"], &["fell"], &["fall"],
];

/// Ways of saying a foe is still up.
pub const FOE_STANDING: &[&[&str]] = &[
    &["survives"], &["survived"], &["still", "stands"], &["is", "still", "standing"],
    &["remains", "standing"], &["stays", "standing"], &["stays", "on", "its", "feet"],
    &["keeps", "fighting"], &["fights", "on"], &["is", "still", "alive"], &["gets", "back", "up"],
];

/// Ways of saying a foe ran.
pub const FOE_FLED: &[&[&str]] = &[
    &["flees"], &["fled"], &["flee"], &["runs", "away"], &["ran", "away"], &["run", "away"],
    &["runs", "off"], &["ran", "off"], &["bolts"], &["bolted"], &["turns", "tail"],
    &["turned", "tail"], &["takes", "flight"], &["took", "flight"], &["escapes"], &["escaped"],
    &["scurries", "away"], &["scrambles", "away"],
];

/// Verbs of killing a foe named after them (`you slay the goblin`).
pub const KILL: &[&str] = &[
    "kill", "kills", "killed", "slay", "slays", "slew", "fell", "fells", "felled", "dispatch",
    "dispatches", "dispatched", "behead", "beheads", "beheaded", "destroy", "destroys", "destroyed",
];

/// Verbs of killing with a particle, before or after the foe (`cut down the goblin`, `cut the
/// goblin down`).
pub const KILL_WITH: &[(&str, &str)] = &[
    ("cut", "down"), ("cuts", "down"), ("strike", "down"), ("strikes", "down"), ("struck", "down"),
    ("bring", "down"), ("brings", "down"), ("brought", "down"), ("take", "down"), ("takes", "down"),
    ("took", "down"), ("finish", "off"), ("finishes", "off"), ("finished", "off"), ("put", "down"),
    ("puts", "down"),
];

// The ledger check: items gained and lost.

/// Things a hero can carry, singular: a thing claimed picked up or lost must be one of these, a
/// catalogue item, or an item of the sheet or the turn.
pub const ITEMS: &[&str] = &[
    "key", "coin", "gold", "silver", "copper", "gem", "jewel", "ruby", "emerald", "sapphire",
    "diamond", "pearl", "ring", "amulet", "necklace", "pendant", "locket", "brooch", "bracelet",
    "circlet", "crown", "tiara", "scroll", "map", "letter", "book", "tome", "journal", "diary",
    "ledger", "page", "parchment", "potion", "vial", "flask", "bottle", "elixir", "draught",
    "torch", "lantern", "candle", "rope", "dagger", "knife", "sword", "blade", "longsword",
    "shortsword", "rapier", "scimitar", "axe", "hatchet", "mace", "hammer", "club", "spear", "bow",
    "crossbow", "arrow", "bolt", "quiver", "sling", "shield", "helm", "helmet", "cloak", "boot",
    "glove", "gauntlet", "pouch", "purse", "bag", "satchel", "sack", "idol", "statuette",
    "figurine", "charm", "talisman", "token", "badge", "signet", "wand", "staff", "rod", "orb",
    "crystal", "shard", "relic", "trinket", "compass", "lockpick", "tool", "herb", "bread",
    "ration", "waterskin", "feather", "mushroom", "antitoxin", "salve", "bandage", "whistle",
    "horn", "lens", "spyglass", "flint", "tinderbox", "manacle", "crowbar", "coil", "egg", "fang",
    "claw", "tooth", "pelt", "mask", "medallion", "keyring", "cipher", "deed", "contract",
    "warrant", "writ", "armour", "armor", "breastplate", "apple", "loaf", "cheese",
];

/// Item words that name the same things (`coins` for `Gold pieces`).
pub const SAME_THINGS: &[&[&str]] = &[
    &["coin", "gold", "silver", "copper", "piece", "gp"],
    &["potion", "vial", "flask", "draught", "elixir", "bottle"],
    &["sword", "blade", "longsword", "shortsword", "scimitar", "rapier"],
    &["dagger", "knife", "blade"], &["scroll", "parchment", "letter", "page"],
    &["bow", "longbow", "shortbow"], &["bag", "pouch", "purse", "sack"],
    &["gem", "jewel", "ruby", "emerald", "sapphire", "diamond", "gemstone"],
    &["amulet", "pendant", "necklace", "locket", "talisman", "charm", "medallion"],
    &["armour", "armor", "mail", "breastplate"], &["helm", "helmet"], &["lockpick", "pick", "tool"],
];

/// Verbs of gaining an item that only an item can follow (`pocket`).
pub const POCKET: &[&str] = &[
    "pocket", "pockets", "pocketed", "stow", "stows", "stowed", "stash", "stashes", "stashed",
];

/// Verbs of gaining whose object must be a carried kind of thing ([`ITEMS`]).
pub const GAIN: &[&str] = &[
    "take", "takes", "took", "taking", "find", "finds", "found", "grab", "grabs", "grabbed",
    "snatch", "snatches", "snatched", "claim", "claims", "claimed", "retrieve", "retrieves",
    "retrieved", "collect", "collects", "collected", "gather", "gathers", "gathered", "receive",
    "receives", "received", "acquire", "acquires", "acquired", "obtain", "obtains", "obtained",
    "buy", "buys", "bought", "purchase", "purchases", "purchased", "loot", "loots", "looted", "win",
    "wins", "won", "gain", "gains", "gained", "pluck", "plucks", "plucked", "pry", "pries", "pried",
];

/// Verbs followed by `up` (`pick up the coin`, `pick the coin up`).
pub const PICK_UP: &[&str] = &["pick", "picks", "picked", "scoop", "scoops", "scooped"];

/// Verbs of someone giving the hero something (`hands you a map`).
pub const GIVE_YOU: &[&str] = &[
    "hands", "handed", "gives", "gave", "tosses", "tossed", "passes", "passed", "throws", "threw",
    "slides", "slid",
];

/// Verbs of putting something away, a gain when it goes into the hero's pack.
pub const PUT_AWAY: &[&str] = &[
    "slip", "slips", "slipped", "tuck", "tucks", "tucked", "put", "puts", "place", "places",
    "placed", "stuff", "stuffs", "stuffed", "drop", "drops", "dropped", "slide", "slides", "add",
    "adds", "added", "shove", "shoves", "shoved", "take", "takes", "took",
];

/// Where the hero keeps things (`into your pack`).
pub const CONTAINERS: &[&str] = &[
    "pack", "backpack", "pocket", "bag", "satchel", "pouch", "belt", "inventory", "purse",
    "haversack", "knapsack", "sack", "coat", "cloak", "sleeve", "boot", "collection", "bandolier",
    "quiver", "tunic", "vest",
];

/// Verbs of losing whose object must be a carried kind of thing ([`ITEMS`]).
pub const LOSE: &[&str] = &[
    "lose", "loses", "lost", "drop", "drops", "dropped", "discard", "discards", "discarded",
    "surrender", "surrenders", "surrendered", "sell", "sells", "sold", "spend", "spends", "spent",
    "trade", "trades", "traded", "drink", "drinks", "drank", "quaff", "quaffs", "quaffed", "gulp",
    "gulps", "gulped", "drain", "drains", "drained",
];

/// Verbs of giving away (`give the guard a coin`, `hand over the letter`, `give up the key`).
pub const GIVE_AWAY: &[&str] = &[
    "give", "gives", "gave", "hand", "hands", "handed", "pass", "passes", "passed",
];

/// Verbs of someone else taking what is the hero's (`the thief snatches your purse`).
pub const TAKE_YOURS: &[&str] = &[
    "takes", "took", "snatches", "snatched", "steals", "stole", "grabs", "grabbed", "confiscates",
    "confiscated", "pockets", "pocketed", "accepts", "accepted", "seizes", "seized",
];

/// Verbs of losing with a particle (`throw away`, `use up`).
pub const LOSE_WITH_PARTICLE: &[(&str, &str)] = &[
    ("throw", "away"), ("throws", "away"), ("threw", "away"), ("toss", "away"), ("tosses", "away"),
    ("tossed", "away"), ("use", "up"), ("uses", "up"), ("used", "up"),
];

/// Words before a noun that make it a thing, not an act (`the`, `a`, `three`).
pub const DETERMINERS: &[&str] = &[
    "the", "a", "an", "some", "his", "her", "its", "their", "this", "that", "these", "those",
    "another", "each", "every", "both", "several", "few", "last", "other",
];

/// Nouns of measure, looked past (`a handful of coins`).
pub const MEASURES: &[&str] = &[
    "handful", "pair", "couple", "bundle", "stack", "pile", "fistful", "bunch", "set", "pouch",
    "purse", "bag", "sack", "coil", "vial", "flask", "bottle",
];

// The ledger check: conditions and verdicts.

/// The SRD's conditions, with the other spellings prose uses. `charmed` and `exhausted` are
/// left out: prose uses them for moods.
pub const CONDITIONS: &[(&str, &str)] = &[
    ("blinded", "blinded"), ("deafened", "deafened"), ("frightened", "frightened"),
    ("grappled", "grappled"), ("incapacitated", "incapacitated"), ("invisible", "invisible"),
    ("paralyzed", "paralyzed"), ("paralysed", "paralyzed"), ("petrified", "petrified"),
    ("poisoned", "poisoned"), ("prone", "prone"), ("restrained", "restrained"),
    ("stunned", "stunned"), ("unconscious", "unconscious"),
];

/// Verbs that put the hero under a condition named after them (`you are poisoned`, `you fall
/// prone`).
pub const BECOME: &[&str] = &[
    "are", "were", "become", "became", "fall", "fell", "remain", "stay", "lie", "lay", "go", "went",
];

/// Verbs by which something leaves the hero under a condition (`leaves you poisoned`).
pub const LEAVE_YOU: &[&str] = &[
    "leaves", "leaving", "left", "knocks", "knocking", "knocked", "renders", "rendering",
    "rendered", "makes", "making", "made", "keeps", "sends", "sending", "sent",
];

/// Nouns for a condition's cause, and the condition (`the poison leaves your veins`).
pub const CONDITION_CAUSES: &[(&str, &str)] = &[
    ("poison", "poisoned"), ("venom", "poisoned"), ("toxin", "poisoned"), ("fear", "frightened"),
    ("terror", "frightened"), ("dread", "frightened"), ("paralysis", "paralyzed"),
    ("blindness", "blinded"), ("deafness", "deafened"),
];

/// Verbs of a condition's cause going away.
pub const CAUSE_FADES: &[&[&str]] = &[
    &["leaves"], &["leave"], &["left"], &["fades"], &["fade"], &["faded"], &["subsides"],
    &["subside"], &["subsided"], &["ebbs"], &["ebb"], &["ebbed"], &["lifts"], &["lifted"],
    &["passes"], &["wears", "off"], &["wear", "off"], &["wore", "off"],
];

/// Nouns for a check that may succeed or fail (`your attempt fails`).
pub const TRIES: &[&str] = &[
    "check", "roll", "attempt", "save", "throw", "effort", "try", "gambit", "bluff", "ruse",
];

/// Ways of saying the hero got away from a fight.
pub const ESCAPED: &[&[&str]] = &[
    &["escape"], &["escaped"], &["get", "away"], &["got", "away"], &["break", "away"],
    &["broke", "away"], &["slip", "away"], &["slipped", "away"], &["outrun"], &["outran"],
    &["make", "your", "escape"], &["made", "your", "escape"], &["break", "free"],
    &["broke", "free"],
];

/// Words that name a getaway in the task of a claimed verdict (`you manage to get away`): the
/// claim is about the fight's escape, not another check.
pub const ESCAPE_WORDS: &[&str] = &["escape", "flee", "away", "free", "outrun", "getaway"];

//! How many passages of the search index hold each word, as last counted, kept in memory for a
//! SQLite file only this process writes. The recall leaves out the words in at least half of
//! the passages (`sql_search`), and counting a word reads its whole list of passages: the
//! commonest words, the very ones left out, cost the most, and more as the story grows. A kept
//! count settles most words without reading.
//!
//! A kept count is a bound, not a figure: a passage written since adds at most one to a word's
//! count and to the index's size (its highest row id), and only a write that removes passages
//! (a story rewritten, a campaign deleted) lowers either, so such a write forgets every count.
//! Every write that adds or removes passages is counted as it begins and as it ends, whether it
//! succeeds or not, so a bound never misses a write a read may not have seen.

use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard, PoisonError};

use lru::LruCache;

/// The fewest passages in the index for a word's count to tell: in a smaller one every word is
/// searched (the ranking is cheap there, and a word in two passages of four says something).
const MIN_PASSAGES_TO_WEIGH: i64 = 100;

/// Words whose counts are kept (the least recently used is dropped first).
const KEPT: NonZeroUsize = match NonZeroUsize::new(16_384) {
    Some(kept) => kept,
    None => unreachable!(),
};

/// Whether BM25 weighs a word in `docs` of an index of `passages`: a word in at least half of
/// them is weighed at next to nothing (its inverse document frequency is at most zero, which
/// FTS5 raises to 1e-6), so leaving it out does not change the order of what the others find.
pub(super) fn weighed(docs: i64, passages: i64) -> bool {
    passages < MIN_PASSAGES_TO_WEIGH || docs * 2 < passages
}

/// The kept counts.
#[derive(Debug)]
pub(super) struct WordCounts(Mutex<Inner>);

#[derive(Debug)]
struct Inner {
    words: LruCache<String, Counted>,
    /// Passages of the writes begun so far (whether they succeeded or not).
    begun: u64,
    /// Passages of the writes ended so far.
    ended: u64,
    /// Writes that remove passages, under way now.
    removing: u32,
    /// Writes that remove passages, begun or ended so far.
    removals: u64,
}

/// One word's count as a read found it.
#[derive(Clone, Copy, Debug)]
struct Counted {
    docs: i64,
    passages: i64,
    /// The passages written that the read may not have seen were all begun after this many.
    seen: u64,
}

/// What the counts said before a read: whether its counts may be kept afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ticket {
    ended: u64,
    removals: u64,
    /// A write that removes passages was under way: nothing it read may be kept.
    removing: bool,
}

/// A query's words sorted by what the kept counts say.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Sorted {
    /// Words BM25 weighs: to search for.
    pub(super) weighed: Vec<String>,
    /// Words in at least half of the passages: left out.
    pub(super) common: Vec<String>,
    /// Words the counts do not settle: to count first.
    pub(super) unsettled: Vec<String>,
}

impl Default for WordCounts {
    fn default() -> Self {
        Self(Mutex::new(Inner {
            words: LruCache::new(KEPT),
            begun: 0,
            ended: 0,
            removing: 0,
            removals: 0,
        }))
    }
}

impl WordCounts {
    /// Sorts `words` by their kept counts, with a ticket to keep the counts read for the rest.
    pub(super) fn sort(&self, words: &[String]) -> (Sorted, Ticket) {
        let mut inner = self.lock();
        let ticket = Ticket {
            ended: inner.ended,
            removals: inner.removals,
            removing: inner.removing > 0,
        };
        let begun = inner.begun;
        let mut sorted = Sorted::default();
        for word in words {
            let verdict = match inner.words.get(word) {
                Some(counted) if !ticket.removing => counted.verdict(begun),
                _ => None,
            };
            match verdict {
                Some(true) => sorted.weighed.push(word.clone()),
                Some(false) => sorted.common.push(word.clone()),
                None => sorted.unsettled.push(word.clone()),
            }
        }
        (sorted, ticket)
    }

    /// Keeps the counts a read issued `ticket` found: `docs` of each word in an index of
    /// `passages`, unless a write that removes passages began or ended since.
    pub(super) fn learn(&self, ticket: Ticket, passages: i64, docs: &[(String, i64)]) {
        let mut inner = self.lock();
        if ticket.removing || inner.removals != ticket.removals {
            return;
        }
        for (word, docs) in docs {
            let counted = Counted {
                docs: *docs,
                passages,
                seen: ticket.ended,
            };
            inner.words.put(word.clone(), counted);
        }
    }

    /// A write of `added` passages that removes some or not (`removes`) begins: the counts hold
    /// it as written until the returned guard drops, and then as written or not.
    pub(super) fn writing(&self, added: usize, removes: bool) -> Writing<'_> {
        let added = added as u64;
        let mut inner = self.lock();
        inner.begun += added;
        if removes {
            inner.removing += 1;
            inner.removals += 1;
            inner.words.clear();
        }
        Writing {
            counts: self,
            added,
            removes,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Counted {
    /// Whether BM25 weighs the word now, with `begun` passages' writes begun so far: `None` when
    /// the passages written since the count could have changed that.
    fn verdict(&self, begun: u64) -> Option<bool> {
        let since = i64::try_from(begun - self.seen).unwrap_or(i64::MAX);
        let most_passages = self.passages.saturating_add(since);
        let most_docs = self.docs.saturating_add(since);
        if !weighed(self.docs, most_passages) && self.passages >= MIN_PASSAGES_TO_WEIGH {
            Some(false)
        } else if most_passages < MIN_PASSAGES_TO_WEIGH || most_docs * 2 < self.passages {
            Some(true)
        } else {
            None
        }
    }
}

/// A write of passages under way (see [`WordCounts::writing`]).
pub(super) struct Writing<'a> {
    counts: &'a WordCounts,
    added: u64,
    removes: bool,
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        let mut inner = self.counts.lock();
        inner.ended += self.added;
        if self.removes {
            inner.removing -= 1;
            inner.removals += 1;
            inner.words.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|word| (*word).to_owned()).collect()
    }

    /// Counts that hold `ghoul` in 300 of 400 passages and `crypt` in 10.
    fn counted() -> WordCounts {
        let counts = WordCounts::default();
        let (_, ticket) = counts.sort(&words(&["ghoul", "crypt"]));
        counts.learn(
            ticket,
            400,
            &[("ghoul".to_owned(), 300), ("crypt".to_owned(), 10)],
        );
        counts
    }

    #[test]
    fn kept_counts_settle_the_common_and_the_rare_words_and_leave_the_rest_to_count() {
        let counts = counted();
        let (sorted, _) = counts.sort(&words(&["ghoul", "crypt", "lantern"]));
        assert_eq!(
            sorted,
            Sorted {
                weighed: words(&["crypt"]),
                common: words(&["ghoul"]),
                unsettled: words(&["lantern"]),
            }
        );
    }

    #[test]
    fn the_words_of_a_small_index_are_all_weighed() {
        let counts = WordCounts::default();
        let (_, ticket) = counts.sort(&[]);
        counts.learn(ticket, 40, &[("ghoul".to_owned(), 40)]);
        assert_eq!(counts.sort(&words(&["ghoul"])).0.weighed, words(&["ghoul"]));
        // Once the index may have grown past the threshold, the count no longer settles it.
        drop(counts.writing(60, false));
        assert_eq!(
            counts.sort(&words(&["ghoul"])).0.unsettled,
            words(&["ghoul"])
        );
    }

    #[test]
    fn a_word_is_left_out_only_while_no_write_since_could_make_it_weighed() {
        let counts = counted();
        // 300 of at most 600 passages: still in half of them.
        let write = counts.writing(200, false);
        assert_eq!(counts.sort(&words(&["ghoul"])).0.common, words(&["ghoul"]));
        drop(write);
        // 300 of at most 601: it may be weighed now.
        drop(counts.writing(1, false));
        assert_eq!(
            counts.sort(&words(&["ghoul"])).0.unsettled,
            words(&["ghoul"])
        );
    }

    #[test]
    fn a_rare_word_is_counted_again_once_enough_was_written_to_make_it_common() {
        let counts = counted();
        // 10 + 189 of at least 400: still under half.
        drop(counts.writing(189, false));
        assert_eq!(counts.sort(&words(&["crypt"])).0.weighed, words(&["crypt"]));
        drop(counts.writing(1, false));
        assert_eq!(
            counts.sort(&words(&["crypt"])).0.unsettled,
            words(&["crypt"])
        );
    }

    #[test]
    fn a_write_that_removes_passages_forgets_every_count_and_keeps_none_read_meanwhile() {
        let counts = counted();
        let (_, issued_before) = counts.sort(&[]);
        let removal = counts.writing(0, true);
        let (sorted, issued_during) = counts.sort(&words(&["ghoul"]));
        assert_eq!(sorted.unsettled, words(&["ghoul"]));
        for ticket in [issued_before, issued_during] {
            counts.learn(ticket, 400, &[("ghoul".to_owned(), 300)]);
            assert_eq!(
                counts.sort(&words(&["ghoul"])).0.unsettled,
                words(&["ghoul"])
            );
        }
        drop(removal);
        counts.learn(issued_during, 400, &[("ghoul".to_owned(), 300)]);
        assert_eq!(
            counts.sort(&words(&["ghoul"])).0.unsettled,
            words(&["ghoul"])
        );
        // A read issued after the removal ended is kept.
        let (_, issued_after) = counts.sort(&[]);
        counts.learn(issued_after, 400, &[("ghoul".to_owned(), 300)]);
        assert_eq!(counts.sort(&words(&["ghoul"])).0.common, words(&["ghoul"]));
    }

    #[test]
    fn a_read_that_overlapped_a_write_counts_that_write_as_unseen() {
        let counts = WordCounts::default();
        // A write begins, a read is issued and sees the index without it, the write ends.
        let write = counts.writing(300, false);
        let (_, ticket) = counts.sort(&words(&["ghoul"]));
        drop(write);
        counts.learn(ticket, 400, &[("ghoul".to_owned(), 200)]);
        // 200 of at most 700: not settled as common.
        assert_eq!(
            counts.sort(&words(&["ghoul"])).0.unsettled,
            words(&["ghoul"])
        );
    }
}

//! Token ids found in the state's maps, many at a time.
//!
//! The state's maps are keyed by [`TokenId`] (a
//! [`crate::state::SharedText`]: an `Arc<str>`, or a `String` without cargo
//! feature `shared-text`). An event that names 150 observers used to make
//! several lookups per observer, each passing some twenty keys, and those
//! were most of its cost. Here a list
//! of ids (a view's observers) is sorted once ([`SortedIds`], an integer
//! sort on each id's first eight bytes, [`compare_ids`]), and a map is
//! walked along it ([`SortedIds::find_each`]) when that costs less than a
//! lookup per id ([`walk_is_cheaper`]); the lookups left ([`get`],
//! [`get_mut`], [`contains`]) compare ids eight bytes at a time ([`Id`]).
//! The maps, their keys and their order are unchanged (the state's JSON is
//! the same). All of it is cargo feature `view-walk` (off in the Foundry
//! module's wasm for its size budget: there the lookups are plain).

use std::cmp::Ordering;

#[cfg(feature = "view-walk")]
use crate::state::TokenId;
use crate::state::TokenMap;

/// A token id borrowed as a map key, ordered as `str` is but compared
/// eight bytes at a time ([`compare_ids`]): a lookup by `&str` calls
/// `memcmp` at every key it passes (cargo feature `view-walk`).
#[cfg(feature = "view-walk")]
#[derive(ref_cast::RefCast, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Id(str);

#[cfg(feature = "view-walk")]
impl Id {
    pub fn new(id: &str) -> &Id {
        ref_cast::RefCast::ref_cast(id)
    }
}

#[cfg(feature = "view-walk")]
impl Ord for Id {
    fn cmp(&self, other: &Id) -> Ordering {
        compare_ids(&self.0, &other.0)
    }
}

#[cfg(feature = "view-walk")]
impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A [`TokenMap`] (`LiteMap<TokenId, _>`) may be searched by `&Id`:
/// [`Id`]'s order is `String`'s.
#[cfg(feature = "view-walk")]
impl std::borrow::Borrow<Id> for TokenId {
    fn borrow(&self) -> &Id {
        Id::new(self)
    }
}

/// A `viewChanged` view sorted by observer id, once: validation sorts it
/// to find a repeated observer (and walks the creatures along it), the rule
/// walks the hider's pairs along the same order ([`crate::journal::Tx::view_pairs`]).
/// Empty when the view was too short to sort, or without cargo feature
/// `view-walk` (nothing is sorted then).
#[derive(Default)]
pub(crate) struct ViewOrder(#[cfg(feature = "view-walk")] pub(crate) Option<SortedIds>);

impl std::fmt::Debug for ViewOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewOrder")
    }
}

/// The value stored under `id`.
pub(crate) fn get<'a, V>(map: &'a TokenMap<V>, id: &str) -> Option<&'a V> {
    #[cfg(feature = "view-walk")]
    let id = Id::new(id);
    map.get(id)
}

/// The value stored under `id`, writable.
pub(crate) fn get_mut<'a, V>(map: &'a mut TokenMap<V>, id: &str) -> Option<&'a mut V> {
    #[cfg(feature = "view-walk")]
    let id = Id::new(id);
    map.get_mut(id)
}

/// Whether `map` has `id`.
pub(crate) fn contains<V>(map: &TokenMap<V>, id: &str) -> bool {
    #[cfg(feature = "view-walk")]
    let id = Id::new(id);
    map.contains_key(id)
}

/// The sorted walks (cargo feature `view-walk`).
#[cfg(feature = "view-walk")]
mod walk {
    use std::cmp::Ordering;

    use super::compare_ids;
    use crate::state::{TokenId, TokenMap};

    /// Whether finding `named` ids in a map of `len` entries costs less by one
    /// walk over the map along the sorted ids ([`SortedIds::find_each`]) than
    /// by a lookup per id: while the map holds at most 32 entries per id (a
    /// `viewChanged` naming 150 observers in a table of 4,800 or fewer).
    ///
    /// Counted in instructions (benches/instructions.rs), a walk step costs
    /// about 100 and a lookup in a map of hundreds about 600, which put the
    /// limit at five entries per id. Timed, the walk wins far beyond it: a
    /// lookup jumps between the tree's nodes, the walk reads them in order.
    /// A `viewChanged` naming 150 observers, typed `Session::apply`, first
    /// after the hider entered stealth again / repeated (µs, 2026-12-01):
    /// at 1,000 creatures 64.8 / 28.1 with lookups, 31.7 / 16.2 with the
    /// walk; at 4,000, 84.3 / 27.9 and 49.5 / 15.6; at 8,000 (lookups),
    /// 96.7 / 32.7. (Measured when the maps were `BTreeMap`s; they are
    /// sorted `Vec`s now, [`TokenMap`], where a lookup is a binary search
    /// over entries side by side: the limit was not measured again.)
    pub(crate) fn walk_is_cheaper(len: usize, named: usize) -> bool {
        named > FEW && len <= named.saturating_mul(32)
    }

    /// For each of `ids`, given in `str` order (the order of the map's
    /// keys; an id may come twice), the value `map` stores under it: one
    /// walk over the map along the ids when that is cheaper
    /// ([`walk_is_cheaper`]), else a lookup each. The journal's effects
    /// read the touched pairs of a hider this way, already sorted.
    pub(crate) fn get_each_sorted<'m, 'i, V>(
        map: &'m TokenMap<V>,
        ids: impl ExactSizeIterator<Item = &'i str>,
    ) -> Vec<Option<&'m V>> {
        if !walk_is_cheaper(map.len(), ids.len()) {
            return ids.map(|id| super::get(map, id)).collect();
        }
        let mut found = Vec::with_capacity(ids.len());
        let mut entries = map.iter().peekable();
        for id in ids {
            let mut value = None;
            while let Some(&(key, entry)) = entries.peek() {
                match compare_ids(key, id) {
                    Ordering::Less => {
                        entries.next();
                    }
                    Ordering::Equal => {
                        value = Some(entry);
                        break;
                    }
                    Ordering::Greater => break,
                }
            }
            found.push(value);
        }
        found
    }

    /// Up to this many ids, a lookup each costs less than sorting them first
    /// ([`SortedIds`], its vectors): a view of a few observers (at 3 creatures:
    /// 3,155 instructions with lookups, 5,686 sorted).
    pub(crate) const FEW: usize = 4;

    /// An id's first eight bytes as a big-endian integer, zero-padded: integer
    /// order is `str` order on them (a shorter id first), equal heads are
    /// told apart by the whole id.
    fn head(id: &str) -> u64 {
        let bytes = id.as_bytes();
        match bytes.first_chunk::<8>() {
            Some(word) => u64::from_be_bytes(*word),
            None => {
                let mut word = [0u8; 8];
                word[..bytes.len()].copy_from_slice(bytes);
                u64::from_be_bytes(word)
            }
        }
    }

    /// Two ids' heads and a position: what [`sort_keyed`] sorts.
    type Keyed = (u64, u64, u32);

    /// Sorts `keyed` as integers (first head, second head, position), then
    /// each run of equal heads again by `whole` (the whole ids, then the
    /// position); `same_first` tells whether two positions have the same first
    /// id. Not generic: one copy of each sort in the wasm.
    fn sort_keyed(
        keyed: &mut [Keyed],
        whole: &dyn Fn(u32, u32) -> Ordering,
        same_first: &dyn Fn(u32, u32) -> bool,
    ) {
        keyed.sort_unstable();
        sort_ties(keyed, whole, same_first);
    }

    /// The second half of [`sort_keyed`], on `keyed` already sorted as
    /// integers: each run of equal heads sorted again by `whole`.
    fn sort_ties(
        keyed: &mut [Keyed],
        whole: &dyn Fn(u32, u32) -> Ordering,
        same_first: &dyn Fn(u32, u32) -> bool,
    ) {
        let mut start = 0;
        while start < keyed.len() {
            let mut end = start + 1;
            while end < keyed.len() && keyed[end].0 == keyed[start].0 {
                end += 1;
            }
            let run = &mut keyed[start..end];
            if run[1..].iter().any(|k| !same_first(k.2, run[0].2)) {
                // First ids that share a head but differ: the whole run.
                run.sort_by(|a, b| whole(a.2, b.2));
            } else {
                // One first id: the runs of equal second heads.
                let mut inner = 0;
                while inner < run.len() {
                    let mut inner_end = inner + 1;
                    while inner_end < run.len() && run[inner_end].1 == run[inner].1 {
                        inner_end += 1;
                    }
                    if inner_end - inner > 1 {
                        run[inner..inner_end].sort_by(|a, b| whole(a.2, b.2));
                    }
                    inner = inner_end;
                }
            }
            start = end;
        }
    }

    /// Positions of a list of items (a view's entries), ordered by their ids,
    /// each with its id's head ([`head`]): sorted once, then walked along a
    /// map ([`SortedIds::find_each`]).
    pub(crate) struct SortedIds(Vec<Keyed>);

    impl SortedIds {
        /// The positions of `items` ordered by id (`str` order; equal ids by
        /// position): sorted as integers on their heads, equal heads sorted
        /// again by the whole id.
        pub fn new<T>(items: &[T], id: impl Fn(&T) -> &str) -> SortedIds {
            // Head and position in one integer: the quickest sort.
            let mut packed: Vec<u128> = items
                .iter()
                .enumerate()
                .map(|(position, item)| u128::from(head(id(item))) << 64 | position as u128)
                .collect();
            packed.sort_unstable();
            let mut keyed: Vec<Keyed> = packed
                .into_iter()
                .map(|k| ((k >> 64) as u64, 0, k as u32))
                .collect();
            let id_at = |position: u32| id(&items[position as usize]);
            sort_ties(
                &mut keyed,
                &|a, b| compare_ids(id_at(a), id_at(b)).then(a.cmp(&b)),
                &|a, b| id_at(a) == id_at(b),
            );
            SortedIds(keyed)
        }

        /// How many ids were sorted.
        pub fn len(&self) -> usize {
            self.0.len()
        }

        /// The positions, in id order.
        #[cfg(test)]
        pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
            self.0.iter().map(|&(_, _, position)| position as usize)
        }

        /// Whether an id comes twice.
        pub fn has_repeats<T>(&self, items: &[T], id: impl Fn(&T) -> &str) -> bool {
            self.0.windows(2).any(|w| {
                w[0].0 == w[1].0
                    && super::same_id(id(&items[w[0].2 as usize]), id(&items[w[1].2 as usize]))
            })
        }

        /// The first position (in `items`' order) whose id an earlier
        /// position has: equal ids sit side by side, by position.
        pub fn first_repeat<T>(&self, items: &[T], id: impl Fn(&T) -> &str) -> Option<usize> {
            self.0
                .windows(2)
                .filter(|w| {
                    w[0].0 == w[1].0
                        && super::same_id(id(&items[w[0].2 as usize]), id(&items[w[1].2 as usize]))
                })
                .map(|w| w[1].2 as usize)
                .min()
        }

        /// For each of `items` (by position), the value `map` stores under its
        /// id: one walk over `map` in id order, stopping after the last id.
        /// Repeated ids each get the value.
        pub fn find_each<'m, V, T>(
            &self,
            map: &'m TokenMap<V>,
            items: &[T],
            id: impl Fn(&T) -> &str,
        ) -> Vec<Option<&'m V>> {
            let mut found = vec![None; items.len()];
            self.walk(map.iter(), items, id, |position, value| {
                found[position] = *value;
            });
            found
        }

        /// [`SortedIds::find_each`], writable: each id comes once
        /// ([`SortedIds::has_repeats`] is false), so each value is lent once
        /// (a repeated id would find `None`).
        pub fn find_each_mut<'m, V, T>(
            &self,
            map: &'m mut TokenMap<V>,
            items: &[T],
            id: impl Fn(&T) -> &str,
        ) -> Vec<Option<&'m mut V>> {
            let mut found: Vec<Option<&'m mut V>> = items.iter().map(|_| None).collect();
            self.walk(map.iter_mut(), items, id, |position, value| {
                found[position] = value.take();
            });
            found
        }

        /// Walks `entries` (a map's, in key order) along the sorted ids, calling
        /// `hit` with the position of each id found and its value (lent as an
        /// `Option` the callee may take).
        fn walk<'m, V, T>(
            &self,
            entries: impl Iterator<Item = (&'m TokenId, V)>,
            items: &[T],
            id: impl Fn(&T) -> &str,
            mut hit: impl FnMut(usize, &mut Option<V>),
        ) {
            let mut wanted = 0;
            // The head of the id at `wanted`: a key before it is passed
            // without looking further (most keys, in a large table).
            let Some(mut wanted_head) = self.0.first().map(|k| k.0) else {
                return;
            };
            'map: for (key, value) in entries {
                // The key's text, found once.
                let key = key.as_str();
                let key_head = head(key);
                if wanted_head > key_head {
                    continue;
                }
                let mut value = Some(value);
                while let Some(&(next_head, _, position)) = self.0.get(wanted) {
                    wanted_head = next_head;
                    let order = next_head
                        .cmp(&key_head)
                        .then_with(|| compare_ids(id(&items[position as usize]), key));
                    match order {
                        Ordering::Less => {}
                        Ordering::Equal => hit(position as usize, &mut value),
                        Ordering::Greater => continue 'map,
                    }
                    wanted += 1;
                }
                break;
            }
        }
    }

    /// Sorts `items` by two ids (`first`, then `second`, in `str` order),
    /// stably: as `sort_by` with [`compare_ids`] on both, but sorted as
    /// integers on the ids' heads, equal heads sorted again by the whole ids
    /// ([`sort_keyed`]).
    pub(crate) fn sort_by_two_ids<T: Copy>(
        items: &mut Vec<T>,
        first: impl Fn(&T) -> &str,
        second: impl Fn(&T) -> &str,
    ) {
        let mut keyed: Vec<Keyed> = items
            .iter()
            .enumerate()
            .map(|(position, item)| (head(first(item)), head(second(item)), position as u32))
            .collect();
        let at = |position: u32| &items[position as usize];
        sort_keyed(
            &mut keyed,
            &|a, b| {
                compare_ids(first(at(a)), first(at(b)))
                    .then_with(|| compare_ids(second(at(a)), second(at(b))))
                    .then(a.cmp(&b))
            },
            &|a, b| super::same_id(first(at(a)), first(at(b))),
        );
        *items = keyed
            .iter()
            .map(|&(_, _, position)| items[position as usize])
            .collect();
    }
}
#[cfg(feature = "view-walk")]
pub(crate) use walk::*;

/// Whether two ids are equal: the same borrowed string, or the same length
/// and the same bytes, compared eight at a time ([`compare_ids`]). `==` on
/// `str` calls `memcmp`, which in wasm is a loop over single bytes: in the
/// journal's effects and a view's checks it was a tenth of a
/// `viewChanged`'s time there (bench/session.mjs).
pub(crate) fn same_id(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || (a.len() == b.len() && compare_ids(a, b) == Ordering::Equal)
}

/// Two ids in `str` order (bytes, lexicographic), without a `memcmp` call
/// for the short ids a table uses: eight bytes at a time, each word read
/// big-endian so that integer order is byte order; the last few bytes
/// compared as bytes.
pub(crate) fn compare_ids(a: &str, b: &str) -> Ordering {
    if std::ptr::eq(a, b) {
        return Ordering::Equal;
    }
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    while let (Some((head_a, rest_a)), Some((head_b, rest_b))) =
        (a.split_first_chunk::<8>(), b.split_first_chunk::<8>())
    {
        match u64::from_be_bytes(*head_a).cmp(&u64::from_be_bytes(*head_b)) {
            Ordering::Equal => (a, b) = (rest_a, rest_b),
            unequal => return unequal,
        }
    }
    if a.is_empty() || b.is_empty() {
        return a.len().cmp(&b.len());
    }
    a.cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_ids_orders_as_str_does() {
        let ids = [
            "",
            "a",
            "A",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefgh1",
            "abcdefgh12",
            "abcdefghabcdefgh",
            "abcdefghabcdefgi",
            "abcdefghabcdefgh0",
            "zzzzzzzzzzzzzzzz",
            "0QxT4mZcY2pBnLk8",
            "0QxT4mZcY2pBnLk9",
            "0QxT4mZc",
            "é",
            "éa",
            "\u{0}",
            "\u{0}\u{0}",
            "ÿÿÿÿÿÿÿÿ",
            "token-1",
            "token-10",
            "token-2",
        ];
        for a in ids {
            for b in ids {
                assert_eq!(compare_ids(a, b), a.cmp(b), "{a:?} against {b:?}");
                #[cfg(feature = "view-walk")]
                assert_eq!(Id::new(a).cmp(Id::new(b)), a.cmp(b));
            }
        }
    }

    #[test]
    #[cfg(feature = "view-walk")]
    fn sorted_ids_order_as_str_then_position() {
        let ids = [
            "token-10",
            "b",
            "token-1",
            "abcdefghZ",
            "abcdefgh",
            "",
            "b",
            "abcdefghA",
            "token-2",
            "abcdefg",
            "é",
            "abcdefgh\u{0}",
            "b",
            "abcdefg\u{0}",
            "abcdefg\u{0}\u{0}",
        ];
        let sorted = SortedIds::new(&ids, |id| id);
        let mut expected: Vec<usize> = (0..ids.len()).collect();
        expected.sort_by(|&a, &b| ids[a].cmp(ids[b]).then(a.cmp(&b)));
        assert_eq!(sorted.positions().collect::<Vec<_>>(), expected);
        assert!(sorted.has_repeats(&ids, |id| id));
        let distinct = ["c", "a", "b", "abcdefg", "abcdefg\u{0}"];
        assert!(!SortedIds::new(&distinct, |id| id).has_repeats(&distinct, |id| id));
    }

    #[test]
    #[cfg(feature = "view-walk")]
    fn sorted_by_two_ids_sorts_as_a_stable_sort_by_str() {
        let ids = [
            "token-1",
            "token-10",
            "abcdefgh",
            "abcdefghA",
            "abcdefghB",
            "",
            "b",
            "abcdefg",
        ];
        let items: Vec<(&str, &str, usize)> = (0..200)
            .map(|i| (ids[i * 7 % 5], ids[i * 3 % 8], i))
            .collect();
        for length in [0, 1, 5, 8, 9, 40, 200] {
            let mut expected = items[..length].to_vec();
            expected.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(b.1)));
            let mut sorted = items[..length].to_vec();
            sort_by_two_ids(&mut sorted, |i| i.0, |i| i.1);
            assert_eq!(sorted, expected);
        }
    }

    #[test]
    #[cfg(feature = "view-walk")]
    fn find_each_finds_what_a_lookup_per_id_finds() {
        let mut map: TokenMap<usize> = (0..300)
            .map(|i| (TokenId::from(format!("{:x}{i}", i * 7919 % 4099)), i))
            .chain([("".into(), 1000), ("abc".into(), 1001)])
            .collect();
        let probes: Vec<String> = [5, 400, 17, 299, 0, 5, 350, 120]
            .iter()
            .map(|i| format!("{:x}{i}", i * 7919 % 4099))
            .chain([
                "".to_owned(),
                "zzzz".to_owned(),
                "abc".to_owned(),
                "ab".to_owned(),
            ])
            .collect();
        let sorted = SortedIds::new(&probes, |p| p);
        let found = sorted.find_each(&map, &probes, |p| p);
        for (probe, found) in probes.iter().zip(&found) {
            assert_eq!(*found, map.get(probe.as_str()), "{probe:?}");
        }
        let expected: Vec<Option<usize>> = probes
            .iter()
            .map(|p| map.get(p.as_str()).copied())
            .collect();
        // Without the repeated 5.
        let distinct: Vec<String> = probes[..5].iter().chain(&probes[6..]).cloned().collect();
        let expected: Vec<Option<usize>> = expected[..5]
            .iter()
            .chain(&expected[6..])
            .copied()
            .collect();
        let sorted = SortedIds::new(&distinct, |p| p);
        let found: Vec<Option<usize>> = sorted
            .find_each_mut(&mut map, &distinct, |p| p)
            .into_iter()
            .map(|v| v.map(|v| *v))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn same_id_is_str_equality() {
        let ids = [
            "",
            "a",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefgh1",
            "abcdefghabcdefgh",
            "abcdefghabcdefgi",
            "bbcdefghabcdefgh",
            "0QxT4mZcY2pBnLk8",
            "é",
            "\u{0}",
        ];
        for a in ids {
            for b in ids {
                assert_eq!(same_id(a, b), a == b, "{a:?} against {b:?}");
                let copy = b.to_owned();
                assert_eq!(same_id(a, &copy), a == b, "{a:?} against a copy of {b:?}");
            }
        }
    }

    #[test]
    #[cfg(feature = "view-walk")]
    fn get_each_sorted_finds_what_a_lookup_per_id_finds() {
        let map: TokenMap<usize> = (0..300)
            .map(|i| (TokenId::from(format!("{:x}{i}", i * 7919 % 4099)), i))
            .chain([("".into(), 1000), ("abc".into(), 1001)])
            .collect();
        let everything: Vec<String> = (0..400)
            .map(|i| format!("{:x}{i}", i * 7919 % 4099))
            .chain(["".into(), "ab".into(), "abc".into(), "zzzz".into()])
            .collect();
        // Short lists (a lookup each) and long ones (one walk), with repeats
        // and ids the map lacks, before, between and after its keys.
        for step in [1, 2, 3, 7, 50, 97] {
            let mut ids: Vec<&str> = everything
                .iter()
                .step_by(step)
                .map(String::as_str)
                .collect();
            ids.extend(ids.clone().iter().step_by(5));
            ids.sort_unstable();
            let expected: Vec<Option<&usize>> = ids.iter().map(|id| map.get(*id)).collect();
            assert_eq!(
                get_each_sorted(&map, ids.iter().copied()),
                expected,
                "every {step}th id"
            );
        }
        assert!(walk_is_cheaper(map.len(), everything.len()));
        assert!(!walk_is_cheaper(map.len(), 5));
    }

    #[test]
    fn a_map_searched_by_id_finds_what_str_finds() {
        let map: TokenMap<usize> = (0..300)
            .map(|i| {
                (
                    crate::state::TokenId::from(format!("{:x}{i}", i * 7919 % 4099)),
                    i,
                )
            })
            .collect();
        for probe in (0..400).map(|i| format!("{:x}{i}", i * 7919 % 4099)) {
            assert_eq!(get(&map, &probe), map.get(probe.as_str()));
            assert_eq!(contains(&map, &probe), map.contains_key(probe.as_str()));
        }
        assert_eq!(get(&map, ""), None);
    }
}

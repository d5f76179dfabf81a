//! Token ids as map keys, compared eight bytes at a time.
//!
//! The state's maps are keyed by [`TokenId`] (a `String`), so a lookup by
//! `&str` compares ids with `str`'s order, one `memcmp` call per key it
//! passes. An event that names 150 observers makes several lookups per
//! observer, and those calls were most of its cost. [`Id`] borrows an id
//! with the same order (bytes, lexicographic) computed on eight-byte words:
//! Foundry's ids are 16 letters and digits, so a comparison is one or two
//! integer compares. The maps, their keys and their order are unchanged
//! (the state's JSON is the same); only the lookups go through [`Id`]:
//! [`get`], [`get_mut`] and [`contains`].

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::collections::BTreeMap;

use ref_cast::RefCast;

use crate::state::TokenId;

/// A token id borrowed as a map key: orders exactly as `str` does.
#[derive(RefCast, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Id(str);

impl Id {
    pub fn new(id: &str) -> &Id {
        Id::ref_cast(id)
    }
}

impl Ord for Id {
    fn cmp(&self, other: &Id) -> Ordering {
        compare_ids(&self.0, &other.0)
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `BTreeMap<TokenId, _>` may be searched by `&Id`: [`Id`]'s order is
/// `String`'s.
impl Borrow<Id> for TokenId {
    fn borrow(&self) -> &Id {
        Id::new(self)
    }
}

/// The value stored under `id`.
pub(crate) fn get<'a, V>(map: &'a BTreeMap<TokenId, V>, id: &str) -> Option<&'a V> {
    map.get(Id::new(id))
}

/// The value stored under `id`, writable.
pub(crate) fn get_mut<'a, V>(map: &'a mut BTreeMap<TokenId, V>, id: &str) -> Option<&'a mut V> {
    map.get_mut(Id::new(id))
}

/// Whether `map` has `id`.
pub(crate) fn contains<V>(map: &BTreeMap<TokenId, V>, id: &str) -> bool {
    map.contains_key(Id::new(id))
}

/// Whether finding `named` ids in a map of `len` entries costs less by one
/// walk over the map along the sorted ids ([`SortedIds::find_each`]) than
/// by a lookup per id. Measured (benches/instructions.rs): a walk step
/// costs about 100 instructions, a lookup in a map of hundreds about 600
/// (some twenty keys passed); so a walk wins while the map holds at most
/// five entries per id (a `viewChanged` naming 150 observers in a table of
/// 750 or fewer), and a larger table costs the lookups, not a walk.
pub(crate) fn walk_is_cheaper(len: usize, named: usize) -> bool {
    named > FEW && len <= named.saturating_mul(5)
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

/// Positions of a list of items (a view's entries), ordered by their ids,
/// each with its id's head ([`head`]): sorted once, then walked along a
/// map ([`SortedIds::find_each`]).
pub(crate) struct SortedIds(Vec<(u64, u32)>);

impl SortedIds {
    /// The positions of `items` ordered by id (`str` order; equal ids by
    /// position): sorted as integers on their heads, equal heads sorted
    /// again by the whole id.
    pub fn new<T>(items: &[T], id: impl Fn(&T) -> &str) -> SortedIds {
        // Head and position in one integer: one integer sort.
        let mut keyed: Vec<u128> = items
            .iter()
            .enumerate()
            .map(|(position, item)| u128::from(head(id(item))) << 64 | position as u128)
            .collect();
        keyed.sort_unstable();
        let mut keyed: Vec<(u64, u32)> = keyed
            .into_iter()
            .map(|k| ((k >> 64) as u64, k as u32))
            .collect();
        let mut start = 0;
        while start < keyed.len() {
            let mut end = start + 1;
            while end < keyed.len() && keyed[end].0 == keyed[start].0 {
                end += 1;
            }
            if end - start > 1 {
                keyed[start..end].sort_by(|&(_, a), &(_, b)| {
                    compare_ids(id(&items[a as usize]), id(&items[b as usize])).then(a.cmp(&b))
                });
            }
            start = end;
        }
        SortedIds(keyed)
    }

    /// The positions, in id order.
    #[cfg(test)]
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&(_, position)| position as usize)
    }

    /// Whether an id comes twice.
    pub fn has_repeats<T>(&self, items: &[T], id: impl Fn(&T) -> &str) -> bool {
        self.0
            .windows(2)
            .any(|w| w[0].0 == w[1].0 && id(&items[w[0].1 as usize]) == id(&items[w[1].1 as usize]))
    }

    /// For each of `items` (by position), the value `map` stores under its
    /// id: one walk over `map` in id order, stopping after the last id.
    /// Repeated ids each get the value.
    pub fn find_each<'m, V, T>(
        &self,
        map: &'m BTreeMap<TokenId, V>,
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
        map: &'m mut BTreeMap<TokenId, V>,
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
        'map: for (key, value) in entries {
            let mut value = Some(value);
            let key_head = head(key);
            while let Some(&(wanted_head, position)) = self.0.get(wanted) {
                let order = wanted_head
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
/// stably: as `sort_by` with [`compare_ids`] on both, but (past a few
/// items, [`FEW`]) sorted as integers on the ids' heads, equal heads sorted
/// again by the whole ids.
pub(crate) fn sort_by_two_ids<T: Copy>(
    items: &mut Vec<T>,
    first: impl Fn(&T) -> &str,
    second: impl Fn(&T) -> &str,
) {
    if items.len() <= 2 * FEW {
        items.sort_by(|a, b| {
            compare_ids(first(a), first(b)).then_with(|| compare_ids(second(a), second(b)))
        });
        return;
    }
    let mut keyed: Vec<(u64, u64, u32)> = items
        .iter()
        .enumerate()
        .map(|(position, item)| (head(first(item)), head(second(item)), position as u32))
        .collect();
    keyed.sort_unstable();
    // Equal heads: sorted again by the whole ids (and position).
    let whole = |&(_, _, x): &(u64, u64, u32), &(_, _, y): &(u64, u64, u32)| {
        let (x_item, y_item) = (&items[x as usize], &items[y as usize]);
        compare_ids(first(x_item), first(y_item))
            .then_with(|| compare_ids(second(x_item), second(y_item)))
            .then(x.cmp(&y))
    };
    let mut start = 0;
    while start < keyed.len() {
        let mut end = start + 1;
        while end < keyed.len() && keyed[end].0 == keyed[start].0 {
            end += 1;
        }
        let run = &mut keyed[start..end];
        let one_first = first(&items[run[0].2 as usize]);
        if run[1..]
            .iter()
            .any(|k| compare_ids(first(&items[k.2 as usize]), one_first) != Ordering::Equal)
        {
            // Firsts that share a head but differ: the whole run, by ids.
            run.sort_by(whole);
        } else {
            // One first id (one hider): equal second heads, by ids.
            let mut inner = 0;
            while inner < run.len() {
                let mut inner_end = inner + 1;
                while inner_end < run.len() && run[inner_end].1 == run[inner].1 {
                    inner_end += 1;
                }
                if inner_end - inner > 1 {
                    run[inner..inner_end].sort_by(whole);
                }
                inner = inner_end;
            }
        }
        start = end;
    }
    *items = keyed
        .iter()
        .map(|&(_, _, position)| items[position as usize])
        .collect();
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
                assert_eq!(Id::new(a).cmp(Id::new(b)), a.cmp(b));
                assert_eq!(Id::new(a) == Id::new(b), a == b);
            }
        }
    }

    #[test]
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
    fn find_each_finds_what_a_lookup_per_id_finds() {
        let mut map: BTreeMap<TokenId, usize> = (0..300)
            .map(|i| (format!("{:x}{i}", i * 7919 % 4099), i))
            .chain([("".to_owned(), 1000), ("abc".to_owned(), 1001)])
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
            assert_eq!(*found, map.get(probe), "{probe:?}");
        }
        let expected: Vec<Option<usize>> = probes.iter().map(|p| map.get(p).copied()).collect();
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
    fn a_map_searched_by_id_finds_what_str_finds() {
        let map: BTreeMap<TokenId, usize> = (0..300)
            .map(|i| (format!("{:x}{i}", i * 7919 % 4099), i))
            .collect();
        for probe in (0..400).map(|i| format!("{:x}{i}", i * 7919 % 4099)) {
            assert_eq!(get(&map, &probe), map.get(probe.as_str()));
            assert_eq!(contains(&map, &probe), map.contains_key(probe.as_str()));
        }
        assert_eq!(get(&map, ""), None);
    }
}

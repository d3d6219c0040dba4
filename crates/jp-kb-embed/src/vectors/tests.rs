//! The vectors file: what is written reads back the same, and any damage
//! is an error, never a panic nor other vectors.

use proptest::prelude::*;

use super::*;

const DIMS: usize = 4;

fn sample() -> Vectors {
    let mut v = Vectors::for_model(DIMS, 0xfeed);
    for (i, key) in ["common/tar.md", "linux/ip.md", "empty.md"]
        .iter()
        .enumerate()
    {
        let x = f32::from(u8::try_from(i).unwrap_or(0));
        let chunks = if i == 2 { 0 } else { i + 1 };
        v.entries.push(Entry {
            key: (*key).to_owned(),
            bytes: 100 + i as u64,
            modified: 1_700_000_000_000_000_000 + i64::try_from(i).unwrap_or(0),
            hash: 7 * i as u64,
            vectors: (0..chunks * DIMS)
                .map(|j| x + 0.25 * f32::from(u8::try_from(j).unwrap_or(0)))
                .collect(),
        });
    }
    v
}

fn bytes(v: &Vectors) -> Vec<u8> {
    let mut out = Vec::new();
    v.write_to(&mut out).expect("writes to memory");
    out
}

#[test]
fn what_is_written_reads_back() {
    let v = sample();
    let back = Vectors::read_from(&bytes(&v)[..], DIMS, 0xfeed).expect("reads");
    assert_eq!(back.entries, v.entries);
    assert_eq!(back.chunks(), 3);
}

#[test]
fn another_model_is_not_damage_but_not_used() {
    let raw = bytes(&sample());
    assert!(matches!(
        Vectors::read_from(&raw[..], DIMS, 0xbeef),
        Err(VectorsError::OtherModel)
    ));
    assert!(matches!(
        Vectors::read_from(&raw[..], 8, 0xfeed),
        Err(VectorsError::OtherModel)
    ));
}

#[test]
fn bytes_after_the_checksum_are_damage() {
    let mut raw = bytes(&sample());
    raw.push(0);
    assert!(matches!(
        Vectors::read_from(&raw[..], DIMS, 0xfeed),
        Err(VectorsError::Damaged(_))
    ));
}

#[test]
fn the_best_chunk_decides_and_empty_entries_are_not_found() {
    let mut v = Vectors::for_model(2, 1);
    v.entries = vec![
        Entry {
            key: "a".into(),
            bytes: 0,
            modified: 0,
            hash: 0,
            vectors: vec![1.0, 0.0, 0.0, 1.0],
        },
        Entry {
            key: "b".into(),
            bytes: 0,
            modified: 0,
            hash: 0,
            vectors: vec![0.6, 0.8],
        },
        Entry {
            key: "c".into(),
            bytes: 0,
            modified: 0,
            hash: 0,
            vectors: vec![],
        },
    ];
    let found = v.search(&[0.0, 1.0]);
    assert_eq!(
        found.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert!((found[0].score - 1.0).abs() < 1e-6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_truncation_is_damage(cut in 0usize..10_000) {
        let raw = bytes(&sample());
        let cut = cut % raw.len();
        let result = Vectors::read_from(&raw[..cut], DIMS, 0xfeed);
        prop_assert!(matches!(result, Err(VectorsError::Damaged(_) | VectorsError::OtherModel)), "{cut}");
    }

    #[test]
    fn any_bit_flip_is_an_error(at in 0usize..10_000, bit in 0u8..8) {
        let mut raw = bytes(&sample());
        let at = at % raw.len();
        raw[at] ^= 1 << bit;
        let result = Vectors::read_from(&raw[..], DIMS, 0xfeed);
        prop_assert!(result.is_err(), "flip at {at} bit {bit} read as valid");
    }
}

#[test]
fn a_build_takes_its_calls_from_both_ends_in_turn() {
    let order = |n: usize| even_pace((0..n).collect()).collect::<Vec<_>>();
    assert_eq!(order(5), [0, 4, 1, 3, 2]);
    assert_eq!(order(4), [0, 3, 1, 2]);
    assert_eq!(order(1), [0]);
    assert!(order(0).is_empty());
}

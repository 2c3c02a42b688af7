//! The runtime emulations as placement rules on plain buffer lists (`solve FILE.csv --planner
//! tflm|litert`): the cases of TFLM's own `greedy_memory_planner_test.cc` and LiteRT's
//! `simple_memory_arena_test.cc`, with the offsets and arena sizes those tests expect. The CSV's
//! row order stands for the runtime's buffer (tensor) index; times are inclusive
//! `[first, last]` there, half-open `[lower, upper)` in the CSV.

mod common;

use common::arenascope;

/// Solves `rows` = (size, first, last[, alignment]) with one planner; returns the offsets the
/// solution file gives, after checking that no two buffers alive together share bytes.
fn solve(planner: &str, rows: &[(u64, u64, u64, u64)]) -> Vec<u64> {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "arenascope-rules-{}-{planner}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("problem.csv");
    let output = dir.join("solution.csv");
    let mut csv = String::from("id,lower,upper,size,alignment\n");
    for (i, &(size, first, last, align)) in rows.iter().enumerate() {
        csv += &format!("{i},{first},{},{size},{align}\n", last + 1);
    }
    std::fs::write(&input, csv).unwrap();
    let (code, out, err) = arenascope(&[
        "solve",
        input.to_str().unwrap(),
        "--planner",
        planner,
        "--out",
        output.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(planner), "{out}");
    let text = std::fs::read_to_string(&output).unwrap();
    let offsets: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    // Checked here without the tool: buffers alive at the same step never share bytes.
    for (i, a) in rows.iter().enumerate() {
        for (j, b) in rows.iter().enumerate().skip(i + 1) {
            let time = a.1 <= b.2 && b.1 <= a.2;
            let space = offsets[i] < offsets[j] + b.0 && offsets[j] < offsets[i] + a.0;
            assert!(
                !(time && space && a.0 > 0 && b.0 > 0),
                "{i} and {j} overlap"
            );
        }
    }
    offsets
}

fn arena(rows: &[(u64, u64, u64, u64)], offsets: &[u64]) -> u64 {
    rows.iter()
        .zip(offsets)
        .map(|(r, o)| o + r.0)
        .max()
        .unwrap_or(0)
}

/// TFLM's tests add buffers with no alignment of their own.
fn tflm(rows: &[(u64, u64, u64)]) -> (Vec<u64>, u64) {
    let rows: Vec<(u64, u64, u64, u64)> = rows.iter().map(|&(s, f, l)| (s, f, l, 1)).collect();
    let offsets = solve("tflm", &rows);
    let size = arena(&rows, &offsets);
    (offsets, size)
}

#[test]
fn tflm_greedy_basics() {
    // TestGreedyBasics: two buffers that never meet share offset 0.
    let (offsets, size) = tflm(&[(10, 0, 1), (20, 2, 3)]);
    assert_eq!(offsets, vec![0, 0]);
    assert_eq!(size, 20);
}

#[test]
fn tflm_greedy_medium() {
    // TestGreedyMedium: offsets 50, 70, 40, 0, 0 and a maximum of 90.
    let (offsets, size) = tflm(&[(10, 0, 1), (20, 1, 2), (30, 2, 3), (40, 3, 4), (50, 0, 1)]);
    assert_eq!(offsets, vec![50, 70, 40, 0, 0]);
    assert_eq!(size, 90);
}

#[test]
fn tflm_greedy_person_detection_buffers() {
    // TestPersonDetectionModel: the 250 KB MobileNet's buffers; no overlap (checked in
    // `solve`) and less than their sum of 241027 bytes.
    let rows = [
        (9216, 0, 29),
        (3, 28, 29),
        (256, 27, 28),
        (2304, 26, 27),
        (2304, 25, 26),
        (2304, 24, 25),
        (1152, 23, 24),
        (4608, 22, 23),
        (4608, 21, 22),
        (4608, 20, 21),
        (4608, 19, 20),
        (4608, 18, 19),
        (4608, 17, 18),
        (4608, 16, 17),
        (4608, 15, 16),
        (4608, 14, 15),
        (4608, 13, 14),
        (4608, 12, 13),
        (2304, 11, 12),
        (9216, 10, 11),
        (9216, 9, 10),
        (9216, 8, 9),
        (4608, 7, 8),
        (18432, 6, 7),
        (18432, 5, 6),
        (18432, 4, 5),
        (9216, 3, 4),
        (36864, 2, 3),
        (18432, 1, 2),
        (18432, 0, 1),
    ];
    assert_eq!(rows.iter().map(|r| r.0).sum::<u64>(), 241027);
    let (_, size) = tflm(&rows);
    assert!(size < 241027, "{size}");
}

#[test]
fn tflm_greedy_overlap_case() {
    // TestOverlapCase: a maximum of 120.
    let (_, size) = tflm(&[(100, 0, 1), (50, 2, 3), (20, 1, 2)]);
    assert_eq!(size, 120);
}

/// LiteRT's arena tests allocate with an alignment of 32.
fn litert(rows: &[(u64, u64, u64)]) -> Vec<u64> {
    let rows: Vec<(u64, u64, u64, u64)> = rows.iter().map(|&(s, f, l)| (s, f, l, 32)).collect();
    solve("litert", &rows)
}

#[test]
fn litert_basic_arena_operations() {
    // BasicArenaOperations: offsets 0, 2048, 4096, 0, 6144, 2048.
    let offsets = litert(&[
        (2047, 1, 3),
        (2047, 2, 5),
        (2047, 3, 6),
        (2047, 5, 6),
        (1023, 4, 6),
        (1023, 6, 6),
    ]);
    assert_eq!(offsets, vec![0, 2048, 4096, 0, 6144, 2048]);
}

#[test]
fn litert_interleaved_zero_alloc() {
    // InterleavedZeroAlloc: a zero-sized allocation takes offset 0 and moves nothing.
    let offsets = litert(&[(2047, 0, 4), (0, 1, 2), (1023, 1, 2), (2047, 3, 4)]);
    assert_eq!(offsets, vec![0, 0, 2048, 2048]);
}

#[test]
fn litert_clear_plan_cases() {
    // TestClearPlan: three plans of three buffers each.
    for (size, want) in [
        (2047, vec![0, 2048, 4096]),
        (1023, vec![0, 1024, 2048]),
        (4095, vec![0, 4096, 8192]),
    ] {
        assert_eq!(litert(&[(size, 0, 2), (size, 1, 2), (size, 1, 2)]), want);
    }
}

#[test]
fn litert_stacks_a_buffer_on_those_alive_at_its_first_node() {
    // TestPurgeAllocs / TestResetAllocs: tensor 2 ([2, 3]) goes above tensors 0 and 1, which
    // are alive until node 2 inclusive.
    assert_eq!(
        litert(&[(2047, 0, 2), (2047, 1, 2), (2047, 2, 3)]),
        vec![0, 2048, 4096]
    );
}

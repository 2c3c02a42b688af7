//! Planners on hand-computed problems and random ones (DESIGN.md §1.3, §2).

use arenascope::analysis::csv::read_problem;
use arenascope::analysis::{Buffer, BufferKind, Problem};
use arenascope::plan::{self, validate, Violation};
use arenascope::planner::{self, Settings, REGISTRY};
use proptest::prelude::*;

fn buf(id: usize, size: u64, first: u32, last: u32) -> Buffer {
    Buffer {
        tensor: id,
        subgraph: 0,
        name: format!("b{id}"),
        kind: BufferKind::Activation,
        size_bytes: size,
        first,
        last,
        alignment: 1,
        fixed_offset: None,
    }
}

fn run(id: &str, problem: &Problem) -> plan::Plan {
    planner::run(planner::find(id).unwrap(), problem, &Settings::default()).expect("valid plan")
}

/// 10, 20 and 15 bytes over the half-open steps [0,2), [1,3), [2,4).
fn textbook() -> Problem {
    let (_, p) = read_problem("id,lower,upper,size\n0,0,2,10\n1,1,3,20\n2,2,4,15\n").unwrap();
    p
}

#[test]
fn textbook_lower_bound_is_35() {
    assert_eq!(textbook().lower_bound(), 35);
}

#[test]
fn textbook_size_first_fit_puts_20_at_0_and_the_others_at_20() {
    let p = run("size-first-fit", &textbook());
    assert_eq!(p.arena_bytes, 35);
    assert_eq!(p.offsets, vec![20, 0, 20]);
}

#[test]
fn textbook_size_best_fit_reaches_35() {
    assert_eq!(run("size-best-fit", &textbook()).arena_bytes, 35);
}

#[test]
fn textbook_best_fit_coalesce_cannot_foresee_the_15_byte_buffer() {
    let p = run("best-fit-coalesce", &textbook());
    assert_eq!(p.arena_bytes, 45);
    assert_eq!(p.offsets, vec![0, 10, 30]);
}

/// A chain shaped like a 28×28 MNIST net: each buffer consumed only by the next op.
const MNIST_CHAIN: &str =
    "id,lower,upper,size\n0,0,1,3136\n1,0,2,50176\n2,1,3,12544\n3,2,4,12544\n4,3,4,40\n";

#[test]
fn mnist_chain_lower_bound_and_size_best_fit_are_62720() {
    let (_, p) = read_problem(MNIST_CHAIN).unwrap();
    assert_eq!(p.lower_bound(), 62720);
    assert_eq!(run("size-best-fit", &p).arena_bytes, 62720);
}

#[test]
fn validate_names_the_overlapping_pair() {
    let p = Problem::from_buffers(vec![buf(0, 10, 0, 1), buf(1, 10, 1, 2)]);
    let err = validate(&p, &[0, 5], None).unwrap_err();
    assert!(
        matches!(err, Violation::Overlap { a: 0, b: 1, .. }),
        "{err:?}"
    );
    // Same bytes at disjoint times are fine.
    let p = Problem::from_buffers(vec![buf(0, 10, 0, 1), buf(1, 10, 2, 3)]);
    assert_eq!(validate(&p, &[0, 0], None), Ok(()));
}

#[test]
fn validate_rejects_misalignment_moved_fixed_offsets_and_small_capacity() {
    let mut b = buf(0, 10, 0, 0);
    b.alignment = 16;
    let p = Problem::from_buffers(vec![b.clone()]);
    assert!(matches!(
        validate(&p, &[8], None),
        Err(Violation::Misaligned {
            offset: 8,
            alignment: 16,
            ..
        })
    ));
    b.fixed_offset = Some(32);
    let p = Problem::from_buffers(vec![b]);
    assert!(matches!(
        validate(&p, &[0], None),
        Err(Violation::FixedMoved { fixed: 32, .. })
    ));
    assert!(matches!(
        validate(&p, &[32], Some(40)),
        Err(Violation::ArenaTooSmall {
            arena_bytes: 42,
            capacity: 40
        })
    ));
}

#[test]
fn metrics_report_padding_holes_and_peak() {
    // Two buffers of 10 bytes aligned to 16: the second goes at 16, leaving padding 6 each.
    let mut a = buf(0, 10, 0, 1);
    a.alignment = 16;
    let mut b = buf(1, 10, 1, 2);
    b.alignment = 16;
    let p = Problem::from_buffers(vec![a, b]);
    let plan = run("size-first-fit", &p);
    let m = plan::metrics(&p, &plan.offsets);
    assert_eq!(m.arena_bytes, 26);
    assert_eq!(m.lower_bound, 20);
    assert_eq!(m.padding_bytes, 12);
    assert_eq!(m.peak_steps, vec![1]);
    assert_eq!(m.peak_buffers, vec![0, 1]);
    // At step 1 bytes 10..16 are free below the top: a 6-byte hole; at step 2 the buffer at 16
    // (or 0) leaves a hole below it only if it sits at 16.
    let hole = m.largest_hole.expect("a hole");
    assert!(hole.bytes() >= 6, "{hole:?}");
}

/// The one-pass heuristics (the search planners have their own, smaller property test).
fn generic_planners() -> Vec<&'static planner::PlannerInfo> {
    REGISTRY
        .iter()
        .filter(|p| p.scope == planner::Scope::Any && !p.on_request && p.id != "hill-climb")
        .collect()
}

/// Buffers from (size, first step, span, alignment as a power of 4).
fn problem_of(specs: Vec<(u64, u32, u32, u32)>) -> Problem {
    let buffers = specs
        .into_iter()
        .enumerate()
        .map(|(i, (size, first, span, align_pow))| {
            let mut b = buf(i, size, first, first + span);
            b.alignment = 1 << (align_pow * 2);
            b
        })
        .collect();
    Problem::from_buffers(buffers)
}

prop_compose! {
    fn arb_problem(max: usize)(specs in prop::collection::vec((1u64..5000, 0u32..60, 0u32..12, 0u32..4), 1..max)) -> Problem {
        problem_of(specs)
    }
}

prop_compose! {
    /// Few steps, so that most buffers conflict and the optimum is not the lower bound.
    fn arb_dense_problem(max: usize)(specs in prop::collection::vec((1u64..500, 0u32..5, 0u32..3, 0u32..3), 2..max)) -> Problem {
        problem_of(specs)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn every_generic_planner_gives_a_valid_plan_no_better_than_the_lower_bound(p in arb_problem(200)) {
        let lb = p.lower_bound();
        for info in generic_planners() {
            let out = (info.run)(&p, &Settings::default());
            prop_assert_eq!(validate(&p, &out.offsets, None), Ok(()), "planner {}", info.id);
            prop_assert!(p.arena_bytes(&out.offsets) >= lb, "planner {}", info.id);
            // Deterministic: the same input gives the same plan.
            let again = (info.run)(&p.clone(), &Settings::default());
            prop_assert_eq!(&out.offsets, &again.offsets, "planner {}", info.id);
        }
    }

    #[test]
    fn naive_at_alignment_1_uses_the_sum_of_sizes(p in arb_problem(200)) {
        let p = p.with_alignment(1);
        let sum: u64 = p.buffers.iter().map(|b| b.size_bytes).sum();
        let out = (planner::find("naive").unwrap().run)(&p, &Settings::default());
        prop_assert_eq!(p.arena_bytes(&out.offsets), sum);
    }

    #[test]
    fn runtime_emulations_give_valid_plans_on_any_problem(p in arb_problem(200)) {
        for id in ["litert", "tflm"] {
            let out = (planner::find(id).unwrap().run)(&p, &Settings::default());
            prop_assert_eq!(validate(&p, &out.offsets, None), Ok(()), "planner {}", id);
        }
    }
}

/// The placement walk of LiteRT's `SimpleMemoryArena` over the whole offset-ordered list, as
/// the runtime does it: the reference for `planner::litert`'s indexed walk.
fn litert_reference(p: &Problem, order: &[usize]) -> Vec<u64> {
    let mut offsets = vec![0u64; p.buffers.len()];
    let mut active: Vec<(u64, usize)> = Vec::new();
    for &i in order {
        let b = &p.buffers[i];
        let align = |x: u64| x.div_ceil(b.alignment) * b.alignment;
        let (mut cur, mut best): (u64, Option<(u64, u64)>) = (0, None);
        for &(off, j) in &active {
            let o = &p.buffers[j];
            if o.last < b.first || o.first > b.last {
                continue;
            }
            // As simple_memory_arena.cc: the aligned gap is compared with the best fit, the
            // unaligned one is stored; a stored 0 ends the walk.
            if align(cur) + b.size_bytes <= off && best.is_none_or(|(f, _)| off - align(cur) < f) {
                best = Some((off - cur, align(cur)));
            }
            cur = cur.max(off + o.size_bytes);
            if best.is_some_and(|(f, _)| f == 0) {
                break;
            }
        }
        let at = best.map(|x| x.1).unwrap_or_else(|| align(cur));
        offsets[i] = at;
        let pos = active.partition_point(|a| a.0 <= at);
        active.insert(pos, (at, i));
    }
    offsets
}

/// TFLM's first fit over the whole offset-ordered list: the reference for `planner::tflm`.
fn tflm_reference(p: &Problem) -> Vec<u64> {
    let b = &p.buffers;
    let mut order: Vec<usize> = (0..b.len()).rev().collect();
    order.sort_by(|&x, &y| b[y].size_bytes.cmp(&b[x].size_bytes));
    let mut offsets = vec![0u64; b.len()];
    let mut list: Vec<(u64, usize)> = Vec::new();
    for i in order {
        let mut cand = 0u64;
        let mut chosen = None;
        for &(off, j) in &list {
            if !b[i].overlaps_in_time(&b[j]) {
                continue;
            }
            if off >= cand && off - cand >= b[i].size_bytes {
                chosen = Some(cand);
                break;
            }
            cand = cand.max(off + b[j].size_bytes);
        }
        let at = chosen.unwrap_or(cand);
        offsets[i] = at;
        let pos = list.partition_point(|e| e.0 <= at);
        list.insert(pos, (at, i));
    }
    offsets
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn litert_indexed_walk_equals_the_runtime_walk(p in arb_problem(150)) {
        // Candidates in id order with no whole-run tensors: the sort is by size then first step.
        let mut order: Vec<usize> = (0..p.buffers.len()).collect();
        let last = p.steps - 1;
        let out = (planner::find("litert").unwrap().run)(&p, &Settings::default());
        // Recover the sort order litert used: replay with the same comparator and std_sort.
        let key = |i: usize| {
            let b = &p.buffers[i];
            (b.first == 0 && b.last == last, b.size_bytes, b.first, i)
        };
        let mut cands: Vec<usize> = order.clone();
        arenascope::planner::litert::std_sort(&mut cands, |&x, &y| {
            let (wx, sx, fx, ix) = key(x);
            let (wy, sy, fy, iy) = key(y);
            match (wx, wy) {
                (true, true) => ix < iy,
                (true, false) => true,
                (false, true) => false,
                _ => if sx != sy { sx > sy } else { fx < fy },
            }
        });
        order = cands;
        prop_assert_eq!(out.offsets, litert_reference(&p, &order));
    }

    #[test]
    fn tflm_indexed_walk_equals_the_runtime_walk(p in arb_problem(150)) {
        // TFLM sizes are multiples of 16 and need no further alignment.
        let mut p = p;
        for b in &mut p.buffers {
            b.size_bytes = b.size_bytes.div_ceil(16) * 16;
            b.alignment = 16;
        }
        let out = (planner::find("tflm").unwrap().run)(&p, &Settings::default());
        prop_assert_eq!(out.offsets, tflm_reference(&p));
    }
}

#[test]
fn hill_climb_is_never_worse_than_the_greedy_it_starts_from() {
    for seed in 0..20 {
        let p = arenascope::synth::network_like(300, seed, 64);
        let hc = run("hill-climb", &p).arena_bytes;
        let sff = run("size-first-fit", &p).arena_bytes;
        let sbf = run("size-best-fit", &p).arena_bytes;
        assert!(
            hc <= sff.min(sbf),
            "seed {seed}: hill-climb {hc}, greedy {}",
            sff.min(sbf)
        );
        assert!(hc >= p.lower_bound());
    }
}

#[test]
fn hill_climb_reaches_the_lower_bound_on_the_textbook_example() {
    assert_eq!(run("hill-climb", &textbook()).arena_bytes, 35);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn hill_climb_gives_valid_deterministic_plans_no_worse_than_size_first_fit(p in arb_problem(80)) {
        let hc = (planner::find("hill-climb").unwrap().run)(&p, &Settings::default());
        prop_assert_eq!(validate(&p, &hc.offsets, None), Ok(()));
        let again = (planner::find("hill-climb").unwrap().run)(&p, &Settings::default());
        prop_assert_eq!(&hc.offsets, &again.offsets);
        let sff = (planner::find("size-first-fit").unwrap().run)(&p, &Settings::default());
        prop_assert!(p.arena_bytes(&hc.offsets) <= p.arena_bytes(&sff.offsets));
        prop_assert!(p.arena_bytes(&hc.offsets) >= p.lower_bound());
    }
}

/// The smallest arena over every order of placing buffers on the skyline (gravity): the
/// optimum by brute force, for a handful of buffers.
fn brute_force_optimum(p: &Problem) -> u64 {
    fn rec(p: &Problem, placed: &mut Vec<(usize, u64)>, left: &mut Vec<usize>, best: &mut u64) {
        if left.is_empty() {
            let top = placed
                .iter()
                .map(|&(i, o)| o + p.buffers[i].size_bytes)
                .max()
                .unwrap_or(0);
            *best = (*best).min(top);
            return;
        }
        for k in 0..left.len() {
            let i = left.remove(k);
            let b = &p.buffers[i];
            let floor = placed
                .iter()
                .filter(|&&(j, _)| p.buffers[j].overlaps_in_time(b))
                .map(|&(j, o)| o + p.buffers[j].size_bytes)
                .max()
                .unwrap_or(0);
            let at = floor.div_ceil(b.alignment) * b.alignment;
            placed.push((i, at));
            rec(p, placed, left, best);
            placed.pop();
            left.insert(k, i);
        }
    }
    let mut best = u64::MAX;
    rec(
        p,
        &mut Vec::new(),
        &mut (0..p.buffers.len()).collect(),
        &mut best,
    );
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn exact_finds_the_brute_force_optimum_on_small_problems(p in arb_problem(7)) {
        let out = (planner::find("exact").unwrap().run)(&p, &Settings::default());
        prop_assert_eq!(validate(&p, &out.offsets, None), Ok(()));
        let arena = p.arena_bytes(&out.offsets);
        prop_assert_eq!(arena, brute_force_optimum(&p));
        prop_assert_eq!(out.proven_bound, Some(arena), "proved optimal");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn exact_is_never_worse_than_any_heuristic(p in arb_problem(200)) {
        let settings = Settings { time_limit_secs: 0.3, capacity: None };
        let out = (planner::find("exact").unwrap().run)(&p, &settings);
        prop_assert_eq!(validate(&p, &out.offsets, None), Ok(()));
        let arena = p.arena_bytes(&out.offsets);
        for info in generic_planners() {
            let h = (info.run)(&p, &settings);
            prop_assert!(arena <= p.arena_bytes(&h.offsets), "{} beat exact", info.id);
        }
        let bound = out.proven_bound.unwrap_or(0);
        prop_assert!(bound >= p.lower_bound() && bound <= arena);
    }
}

#[test]
fn exact_proves_the_textbook_optimum() {
    let p = run("exact", &textbook());
    assert_eq!(p.arena_bytes, 35);
    assert!(p.optimal());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn milp_and_exact_agree_on_small_problems(p in arb_dense_problem(9)) {
        let settings = Settings { time_limit_secs: 20.0, capacity: None };
        let milp = (planner::find("milp").unwrap().run)(&p, &settings);
        prop_assert_eq!(validate(&p, &milp.offsets, None), Ok(()));
        let exact = (planner::find("exact").unwrap().run)(&p, &settings);
        prop_assert_eq!(p.arena_bytes(&milp.offsets), p.arena_bytes(&exact.offsets));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Each inference rule only cuts plans that are not needed: with any one switched off (or
    /// a single static order) the decision at the optimum still fits and one byte below still
    /// does not.
    #[test]
    fn every_inference_rule_keeps_the_optimum(p in arb_problem(7)) {
        use arenascope::planner::exact::{decide_with, Control, Decision, Params};
        let opt = brute_force_optimum(&p);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        for (k, params) in Params::each_off() {
            match decide_with(&p, &params, opt, deadline, Control::default()) {
                Decision::Fits(offsets) => {
                    prop_assert_eq!(validate(&p, &offsets, Some(opt)), Ok(()), "switch {}", k);
                }
                other => prop_assert!(false, "switch {}: {:?} at the optimum {}", k, other, opt),
            }
            if opt > 0 {
                let below = decide_with(&p, &params, opt - 1, deadline, Control::default());
                prop_assert_eq!(below, Decision::DoesNotFit, "switch {}", k);
            }
        }
    }
}

/// The cross-check at the size the issue names: 12 buffers, few steps, alignments 1, 4 and 16,
/// from a fixed seed. microlp needs from milliseconds to over a minute per problem here (see
/// the README), so this runs on request: `cargo test --release -- --ignored milp`.
#[test]
#[ignore]
fn milp_and_exact_agree_on_seeded_12_buffer_problems() {
    let mut rng = arenascope::planner::rng::Rng::new(7);
    let settings = Settings {
        time_limit_secs: 120.0,
        capacity: None,
    };
    let (mut proven, mut above_bound) = (0, 0);
    for case in 0..10 {
        let specs: Vec<(u64, u32, u32, u32)> = (0..12)
            .map(|_| {
                let first = (rng.next_u64() % 6) as u32;
                let span = (rng.next_u64() % 4) as u32;
                let size = 1 + rng.next_u64() % 500;
                (size, first, span, (rng.next_u64() % 3) as u32)
            })
            .collect();
        let p = problem_of(specs);
        let milp = (planner::find("milp").unwrap().run)(&p, &settings);
        assert_eq!(validate(&p, &milp.offsets, None), Ok(()));
        let exact = (planner::find("exact").unwrap().run)(&p, &settings);
        let (m, e) = (p.arena_bytes(&milp.offsets), p.arena_bytes(&exact.offsets));
        assert_eq!(
            exact.proven_bound,
            Some(e),
            "case {case}: exact proved its optimum"
        );
        if e > p.lower_bound() {
            above_bound += 1;
        }
        if milp.proven_bound.is_some() {
            proven += 1;
            assert_eq!(m, e, "case {case}");
        } else {
            assert!(m >= e, "case {case}: milp beat the proven optimum");
        }
        eprintln!(
            "case {case}: lower bound {}, exact {e}, milp {m} (proven: {})",
            p.lower_bound(),
            milp.proven_bound.is_some()
        );
    }
    eprintln!("milp proved {proven} of 10; {above_bound} optima above the lower bound");
    assert!(proven >= 8, "milp proved only {proven} of 10");
}

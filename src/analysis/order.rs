//! Execution-order search (DESIGN.md §3.4): any topological order of a subgraph's operators
//! computes the same outputs, but which tensors are alive together, and so the arena, depends
//! on it.
//!
//! The search walks the sets of executed operators (downsets of the dependency graph), level by
//! level: from each set, any ready operator may run next. Its cost is the peak of live bytes
//! along the way: while an operator runs, everything live before it plus its outputs and its
//! temporaries; after it, its inputs die when nothing left consumes them. Each set keeps the
//! smallest peak that reaches it (and the live bytes, which the set alone decides), so the
//! search is exact while the number of sets stays under a cap; past it only the best sets of
//! each level are kept (a beam), and the result says it is heuristic. The beam runs each chain
//! (an operator whose one predecessor has it as its one successor) as one step: fewer levels,
//! and a beam not spent on the ways to interleave the halves of chains. A set's hash is the XOR
//! of a random key per operator, updated a step at a time, so a step allocates only when it
//! reaches a new set.
//!
//! Constraints: an operator runs after the producers of its inputs; operators with side effects
//! (control flow, resource variables, variable tensors, custom operators) keep their relative
//! order. Under LiteRT's lifetimes a subgraph's inputs stay alive throughout and its outputs
//! from their producer on; under TFLM's, inputs die at their last use.

use std::collections::HashMap;

use super::Lifetimes;
use crate::model::{ops, Model};

/// Sets kept per level before the search turns into a beam.
pub const EXACT_STATE_CAP: usize = 20_000;
/// Sets kept per level by the first beam; the search may widen it four times at a time.
pub const BEAM_WIDTH: usize = 256;

/// A found order of one subgraph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundOrder {
    /// Operator indices in the order to run them.
    pub order: Vec<usize>,
    /// Its peak of live bytes (the search's cost).
    pub peak_bytes: u64,
    /// The file order's peak by the same measure.
    pub file_peak_bytes: u64,
    /// Whether every set of executed operators was kept (the peak is the least possible).
    pub exact: bool,
    /// Whether a beam dropped sets (a wider one might find better).
    pub truncated: bool,
    /// Steps the search took (one per set reached from a set): its work, which the caller
    /// budgets instead of the clock so that the result does not depend on the machine.
    pub steps: u64,
}

type Set = Vec<u64>;

/// A multiply-rotate hasher for the sets (std's SipHash costs more than the rest of a step).
#[derive(Default)]
struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type BuildFx = std::hash::BuildHasherDefault<Fx>;

fn has(set: &Set, i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

fn with(set: &Set, i: usize) -> Set {
    let mut s = set.clone();
    s[i / 64] |= 1 << (i % 64);
    s
}

/// Whether operator `i` of `sg` may have side effects (control flow, resource variables,
/// variable tensors, custom operators): such operators keep their relative order, in the order
/// search and in TFLite's partitioner alike.
pub fn has_side_effect(sg: &crate::model::Subgraph, i: usize) -> bool {
    let op = &sg.operators[i];
    matches!(
        op.builtin,
        ops::WHILE
            | ops::IF
            | ops::CALL_ONCE
            | ops::VAR_HANDLE
            | ops::READ_VARIABLE
            | ops::ASSIGN_VARIABLE
            | ops::CUSTOM
    ) || op
        .inputs
        .iter()
        .chain(&op.outputs)
        .filter_map(|&t| usize::try_from(t).ok())
        .any(|t| sg.tensors.get(t).is_some_and(|x| x.is_variable))
}

/// What the search needs of a subgraph.
struct Graph {
    n: usize,
    /// Operators that must run before each one, and those that wait for each one.
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
    /// Bytes each operator's outputs add, and its temporaries' bytes.
    out_bytes: Vec<u64>,
    temp_bytes: Vec<u64>,
    /// The planned tensors each operator reads (distinct).
    reads: Vec<Vec<usize>>,
    /// Consumers of each tensor (indexed by tensor).
    consumers: Vec<Vec<usize>>,
    /// Bytes of each tensor (0 unless planned).
    bytes: Vec<u64>,
    /// Tensors that never die before the end (LiteRT: inputs and outputs; TFLM: outputs).
    pinned: Vec<bool>,
    /// Bytes live before anything runs (the inputs).
    start_live: u64,
}

fn graph(model: &Model, si: usize, lifetimes: Lifetimes, temps: &[u64]) -> Graph {
    let sg = &model.subgraphs[si];
    let n = sg.operators.len();
    let planned = |t: usize| {
        sg.tensors
            .get(t)
            .is_some_and(|x| !x.is_constant && !x.is_variable && x.bytes.unwrap_or(0) > 0)
    };
    let mut producer: HashMap<usize, usize> = HashMap::new();
    for (i, op) in sg.operators.iter().enumerate() {
        for &t in &op.outputs {
            if let Ok(t) = usize::try_from(t) {
                producer.insert(t, i);
            }
        }
    }
    let side_effect = |i: usize| has_side_effect(sg, i);
    let mut preds = vec![Vec::new(); n];
    let mut last_effect: Option<usize> = None;
    let mut reads = vec![Vec::new(); n];
    let mut consumers: Vec<Vec<usize>> = vec![Vec::new(); sg.tensors.len()];
    for (i, op) in sg.operators.iter().enumerate() {
        for &t in &op.inputs {
            let Ok(t) = usize::try_from(t) else { continue };
            if let Some(&p) = producer.get(&t) {
                if p != i && !preds[i].contains(&p) {
                    preds[i].push(p);
                }
            }
            if planned(t) && !reads[i].contains(&t) {
                reads[i].push(t);
                consumers[t].push(i);
            }
        }
        if side_effect(i) {
            if let Some(p) = last_effect {
                if !preds[i].contains(&p) {
                    preds[i].push(p);
                }
            }
            last_effect = Some(i);
        }
    }
    let bytes: Vec<u64> = (0..sg.tensors.len())
        .map(|t| {
            if planned(t) {
                sg.tensors[t].bytes.unwrap_or(0)
            } else {
                0
            }
        })
        .collect();
    let out_bytes = sg
        .operators
        .iter()
        .map(|op| {
            let mut outs: Vec<usize> = op
                .outputs
                .iter()
                .filter_map(|&t| usize::try_from(t).ok())
                .filter(|&t| planned(t))
                .collect();
            outs.sort_unstable();
            outs.dedup();
            outs.iter().map(|&t| bytes[t]).sum()
        })
        .collect();
    let mut pinned = vec![false; sg.tensors.len()];
    let kept = match lifetimes {
        Lifetimes::Litert | Lifetimes::Xnnpack => [&sg.outputs[..], &sg.inputs[..]].concat(),
        Lifetimes::Tflm => sg.outputs.clone(),
    };
    for t in kept.into_iter().filter(|&t| planned(t)) {
        pinned[t] = true;
    }
    let mut succs = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p].push(i);
        }
    }
    let start_live = sg
        .inputs
        .iter()
        .filter(|&&t| planned(t))
        .map(|&t| bytes[t])
        .sum();
    Graph {
        n,
        preds,
        succs,
        out_bytes,
        temp_bytes: (0..n).map(|i| temps.get(i).copied().unwrap_or(0)).collect(),
        reads,
        consumers,
        bytes,
        pinned,
        start_live,
    }
}

impl Graph {
    /// Live bytes after running `op` with `done` (and `also`, the operators run just before it
    /// in the same unit) already run.
    fn after(&self, done: &Set, also: &[usize], live: u64, op: usize) -> u64 {
        let mut freed = 0;
        for &t in &self.reads[op] {
            if self.pinned[t] {
                continue;
            }
            let last = self.consumers[t]
                .iter()
                .all(|&c| c == op || has(done, c) || also.contains(&c));
            if last {
                freed += self.bytes[t];
            }
        }
        live + self.out_bytes[op] - freed.min(live + self.out_bytes[op])
    }

    /// The peak of running the operators in `order`.
    fn peak_of(&self, order: &[usize]) -> u64 {
        let mut done: Set = vec![0; self.n.div_ceil(64).max(1)];
        let (mut live, mut peak) = (self.start_live, self.start_live);
        for &op in order {
            peak = peak.max(live + self.out_bytes[op] + self.temp_bytes[op]);
            live = self.after(&done, &[], live, op);
            done = with(&done, op);
        }
        peak
    }
}

/// The steps of the search: single operators, or chains run as one.
struct Units {
    /// The operators of each unit, in the order they run.
    ops: Vec<Vec<usize>>,
    /// Units that must run before each one (by their last operator), and those waiting for it.
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
    /// The unit's operators as a set, and its share of a set's hash.
    mask: Vec<Set>,
    key: Vec<u64>,
}

impl Units {
    /// With `chains`, an operator whose one predecessor has it as its one successor joins that
    /// predecessor's unit: a chain then runs as one step. Otherwise every operator is a unit.
    fn of(g: &Graph, chains: bool) -> Units {
        let mut unit_of = vec![0usize; g.n];
        let mut ops: Vec<Vec<usize>> = Vec::new();
        for i in 0..g.n {
            match g.preds[i][..] {
                [p] if chains && g.succs[p].len() == 1 && p < i => {
                    unit_of[i] = unit_of[p];
                    ops[unit_of[p]].push(i);
                }
                _ => {
                    unit_of[i] = ops.len();
                    ops.push(vec![i]);
                }
            }
        }
        let words = g.n.div_ceil(64).max(1);
        let mut preds = vec![Vec::new(); ops.len()];
        let mut succs = vec![Vec::new(); ops.len()];
        let mut mask = vec![vec![0u64; words]; ops.len()];
        let mut key = vec![0u64; ops.len()];
        for (u, members) in ops.iter().enumerate() {
            for &op in members {
                mask[u][op / 64] |= 1 << (op % 64);
                key[u] ^= splitmix(op as u64);
                for &p in &g.preds[op] {
                    let pu = unit_of[p];
                    if pu != u && !preds[u].contains(&pu) {
                        preds[u].push(pu);
                        succs[pu].push(u);
                    }
                }
            }
        }
        Units {
            ops,
            preds,
            succs,
            mask,
            key,
        }
    }

    /// The units ready once `unit` has run after `done` (`ready`: those ready before it).
    fn ready_after(&self, done: &Set, ready: &[u32], unit: usize) -> Vec<u32> {
        let mut next: Vec<u32> = ready
            .iter()
            .copied()
            .filter(|&r| r as usize != unit)
            .collect();
        for &s in &self.succs[unit] {
            let all_done = self.preds[s]
                .iter()
                .all(|&p| p == unit || self.ops[p].iter().all(|&o| has(done, o)));
            if all_done {
                next.push(s as u32);
            }
        }
        next.sort_unstable();
        next
    }
}

/// A 64-bit mix of `x` (SplitMix64's finaliser): each operator's random share of a set's hash.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One set of executed operators reached by the search.
struct Entry {
    set: Set,
    /// The XOR of its units' keys: the set's hash, kept up to date a step at a time.
    hash: u64,
    peak: u64,
    live: u64,
    /// The units that may run next.
    ready: Vec<u32>,
    /// Index of the entry it came from in the previous level, and the unit run.
    parent: u32,
    unit: u32,
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Keep every set, operator by operator; give up past [`EXACT_STATE_CAP`] sets in a
    /// level.
    Exact,
    /// Keep the best `width` sets of each level, with chains run as one step.
    Beam { width: usize },
}

/// The order of subgraph `si` with the least peak of live bytes the search finds, with
/// `temps[i]` the bytes of operator `i`'s temporaries or scratch: exact when the sets of
/// executed operators stay under the cap, else a beam of [`BEAM_WIDTH`]. Deterministic.
pub fn search(model: &Model, si: usize, lifetimes: Lifetimes, temps: &[u64]) -> FoundOrder {
    search_with(model, si, lifetimes, temps, Mode::Exact).unwrap_or_else(|_| {
        search_with(
            model,
            si,
            lifetimes,
            temps,
            Mode::Beam { width: BEAM_WIDTH },
        )
        // A beam always completes; were it not to, the file's order stands.
        .unwrap_or_else(|steps| FoundOrder {
            order: (0..model.subgraphs.get(si).map_or(0, |s| s.operators.len())).collect(),
            peak_bytes: 0,
            file_peak_bytes: 0,
            exact: false,
            truncated: true,
            steps,
        })
    })
}

/// One search of subgraph `si` in `mode`; when an exact search gives up, the steps it took.
pub fn search_with(
    model: &Model,
    si: usize,
    lifetimes: Lifetimes,
    temps: &[u64],
    mode: Mode,
) -> Result<FoundOrder, u64> {
    let g = graph(model, si, lifetimes, temps);
    let units = Units::of(&g, matches!(mode, Mode::Beam { .. }));
    let file: Vec<usize> = (0..g.n).collect();
    let file_peak = g.peak_of(&file);
    let words = g.n.div_ceil(64).max(1);
    let mut current = vec![Entry {
        set: vec![0; words],
        hash: 0,
        peak: g.start_live,
        live: g.start_live,
        ready: (0..units.ops.len())
            .filter(|&u| units.preds[u].is_empty())
            .map(|u| u as u32)
            .collect(),
        parent: 0,
        unit: 0,
    }];
    // Per level, only the way back (parent, unit): the sets of a level are dropped once the
    // next is built.
    let mut trail: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut truncated = false;
    let mut steps = 0u64;
    for _ in 0..units.ops.len() {
        let mut next: Vec<Entry> = Vec::new();
        let mut index: HashMap<u64, usize, BuildFx> = HashMap::default();
        // Sets whose hash another set already has (never seen in practice, but kept right).
        let mut clashes: HashMap<Set, usize, BuildFx> = HashMap::default();
        for (k, e) in current.iter().enumerate() {
            for u in e.ready.iter().map(|&r| r as usize) {
                steps += 1;
                let (mut peak, mut live) = (e.peak, e.live);
                let members = &units.ops[u];
                for (j, &op) in members.iter().enumerate() {
                    peak = peak.max(live + g.out_bytes[op] + g.temp_bytes[op]);
                    live = g.after(&e.set, &members[..j], live, op);
                }
                let hash = e.hash ^ units.key[u];
                let same = |x: &Entry| {
                    x.set
                        .iter()
                        .zip(&e.set)
                        .zip(&units.mask[u])
                        .all(|((a, b), m)| *a == b | m)
                };
                let found = match index.get(&hash) {
                    Some(&at) if same(&next[at]) => Some(at),
                    Some(_) => {
                        let set: Set = e
                            .set
                            .iter()
                            .zip(&units.mask[u])
                            .map(|(a, m)| a | m)
                            .collect();
                        clashes.get(&set).copied()
                    }
                    None => None,
                };
                let at = match found {
                    Some(at) if next[at].peak <= peak => continue,
                    Some(at) => at,
                    None => {
                        let set: Set = e
                            .set
                            .iter()
                            .zip(&units.mask[u])
                            .map(|(a, m)| a | m)
                            .collect();
                        match index.entry(hash) {
                            std::collections::hash_map::Entry::Occupied(_) => {
                                clashes.insert(set.clone(), next.len());
                            }
                            std::collections::hash_map::Entry::Vacant(slot) => {
                                slot.insert(next.len());
                            }
                        }
                        next.push(Entry {
                            set,
                            hash,
                            peak,
                            live,
                            ready: Vec::new(),
                            parent: 0,
                            unit: 0,
                        });
                        next.len() - 1
                    }
                };
                let slot = &mut next[at];
                slot.peak = peak;
                slot.live = live;
                slot.parent = k as u32;
                slot.unit = u as u32;
            }
        }
        drop(index);
        // Best first; ties by the set, so that the result never depends on hashing.
        next.sort_unstable_by(|a, b| (a.peak, a.live, &a.set).cmp(&(b.peak, b.live, &b.set)));
        match mode {
            Mode::Exact if next.len() > EXACT_STATE_CAP => return Err(steps),
            Mode::Beam { width } if next.len() > width => {
                truncated = true;
                next.truncate(width);
            }
            _ => {}
        }
        if next.is_empty() {
            break;
        }
        // The ready units only of the sets kept.
        for e in &mut next {
            let from = &current[e.parent as usize];
            e.ready = units.ready_after(&from.set, &from.ready, e.unit as usize);
        }
        trail.push(next.iter().map(|e| (e.parent, e.unit)).collect());
        current = next;
    }
    // Exact: every set was kept, operator by operator (a beam that never overflowed kept
    // every set too, but only of the orders that run each chain at once).
    let exact = !truncated && units.ops.iter().all(|o| o.len() == 1);
    // Walk back from the best complete set.
    let complete = trail.len() == units.ops.len();
    let best_peak = current.first().map(|e| e.peak);
    Ok(match best_peak {
        Some(peak) if complete && peak < file_peak => {
            let mut order = Vec::with_capacity(g.n);
            let mut k = 0usize;
            for level in trail.iter().rev() {
                let (parent, unit) = level[k];
                order.extend(units.ops[unit as usize].iter().rev());
                k = parent as usize;
            }
            order.reverse();
            FoundOrder {
                order,
                peak_bytes: peak,
                file_peak_bytes: file_peak,
                exact,
                truncated,
                steps,
            }
        }
        // The file's order is as good (or nothing was found): keep it.
        _ => FoundOrder {
            order: file,
            peak_bytes: file_peak,
            file_peak_bytes: file_peak,
            exact,
            truncated,
            steps,
        },
    })
}

/// Whether `order` runs every operator of subgraph `si` once, each after the producers of its
/// inputs and the side-effect operators in their file order: the check every written order
/// passes.
pub fn is_valid_order(model: &Model, si: usize, order: &[usize]) -> bool {
    let g = graph(model, si, Lifetimes::Tflm, &[]);
    if order.len() != g.n {
        return false;
    }
    let mut done: Set = vec![0; g.n.div_ceil(64).max(1)];
    for &op in order {
        if op >= g.n || has(&done, op) || !g.preds[op].iter().all(|&p| has(&done, p)) {
            return false;
        }
        done = with(&done, op);
    }
    true
}

/// `model` with the operators of each subgraph in `orders[s]` (`None`: as in the file).
pub fn reordered(model: &Model, orders: &[Option<Vec<usize>>]) -> Model {
    let mut m = model.clone();
    for (sg, order) in m.subgraphs.iter_mut().zip(orders) {
        if let Some(order) = order {
            let ops = std::mem::take(&mut sg.operators);
            sg.operators = order.iter().map(|&i| ops[i].clone()).collect();
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tflm_tail::tests::{model, tensor};
    use crate::model::TensorType::Float32;

    /// x -> A (big) -> a; x -> B (small) -> b; a, b -> C: running B first keeps the big `a`
    /// alive a shorter time.
    fn branches() -> Model {
        model(
            vec![
                tensor(&[1, 100], Float32, false),  // 0 x: 400 B
                tensor(&[1, 1000], Float32, false), // 1 a: 4000 B
                tensor(&[1, 10], Float32, false),   // 2 c: 40 B
                tensor(&[1, 500], Float32, false),  // 3 b: 2000 B
                tensor(&[1, 10], Float32, false),   // 4 out: 40 B
            ],
            vec![
                // A: x -> a (4000), then a -> c (40) shrinks it.
                (ops::MUL, "", vec![0, 0], vec![1], vec![]),
                (ops::MEAN, "", vec![1], vec![2], vec![]),
                // B: x -> b (2000).
                (ops::MUL, "", vec![0, 0], vec![3], vec![]),
                // C: c, b -> out.
                (ops::ADD, "", vec![2, 3], vec![4], vec![]),
            ],
            vec![0],
            vec![4],
        )
    }

    #[test]
    fn a_branch_that_shrinks_runs_first() {
        let m = branches();
        // File order A, MEAN, B, C (TFLM: x dies at its last use, op 2):
        // A: 400 + 4000 = 4400; MEAN: 4400 + 40 = 4440, then a dies -> 440;
        // B: 440 + 2000 = 2440, x dies -> 2040; C: 2040 + 40 = 2080. Peak 4440.
        // Best: B first: 400 + 2000 = 2400 (x lives on) -> 2400; A: 2400 + 4000 = 6400 worse;
        // so the file order is already best here: 4440 against 6400 with B first.
        let f = search(&m, 0, Lifetimes::Tflm, &[]);
        assert_eq!(f.file_peak_bytes, 4440);
        assert_eq!(f.peak_bytes, 4440);
        assert_eq!(f.order, vec![0, 1, 2, 3]);
        assert!(f.exact);
    }

    #[test]
    fn running_the_small_branch_last_lowers_the_peak() {
        // The same graph with B listed first: the search moves it after A's shrinking step.
        let mut m = branches();
        let ops = m.subgraphs[0].operators.clone();
        m.subgraphs[0].operators = vec![
            ops[2].clone(),
            ops[0].clone(),
            ops[1].clone(),
            ops[3].clone(),
        ];
        // File order B, A, MEAN, C: B: 400 + 2000 = 2400; A: 2400 + 4000 = 6400, x dies;
        // MEAN: 6000 + 40 = 6040 -> 2040; C: 2080. Peak 6440 - 400 = 6400.
        let f = search(&m, 0, Lifetimes::Tflm, &[]);
        assert_eq!(f.file_peak_bytes, 6400);
        assert_eq!(f.peak_bytes, 4440);
        assert_eq!(f.order, vec![1, 2, 0, 3]);
        assert!(is_valid_order(&m, 0, &f.order));
        assert!(!is_valid_order(&m, 0, &[3, 0, 1, 2]), "C before its inputs");
    }

    /// Two chains from x, listed interleaved: A1 (x -> a1, 4000 B), B1 (x -> b1, 2000 B),
    /// A2 (a1 -> a2, 40 B), B2 (b1 -> b2, 20 B), then C (a2, b2 -> out).
    fn two_chains() -> Model {
        model(
            vec![
                tensor(&[1, 100], Float32, false),  // 0 x: 400 B
                tensor(&[1, 1000], Float32, false), // 1 a1: 4000 B
                tensor(&[1, 500], Float32, false),  // 2 b1: 2000 B
                tensor(&[1, 10], Float32, false),   // 3 a2: 40 B
                tensor(&[1, 5], Float32, false),    // 4 b2: 20 B
                tensor(&[1, 10], Float32, false),   // 5 out: 40 B
            ],
            vec![
                (ops::MUL, "", vec![0, 0], vec![1], vec![]),
                (ops::MUL, "", vec![0, 0], vec![2], vec![]),
                (ops::MEAN, "", vec![1], vec![3], vec![]),
                (ops::MEAN, "", vec![2], vec![4], vec![]),
                (ops::ADD, "", vec![3, 4], vec![5], vec![]),
            ],
            vec![0],
            vec![5],
        )
    }

    #[test]
    fn a_beam_runs_chains_as_one_step_and_finds_the_same_order() {
        let m = two_chains();
        // File order (TFLM): A1 4400; B1 4400 + 2000 = 6400, x dies -> 6000; A2 6040 -> 2040;
        // B2 2060 -> 60; C 100. Peak 6400.
        // B's chain first: B1 2400; B2 2420 -> 420; A1 4420, x dies -> 4020; A2 4060 -> 60.
        // A's chain first: A1 4400; A2 4440. So 4420, in order B1 B2 A1 A2 C.
        let exact = search_with(&m, 0, Lifetimes::Tflm, &[], Mode::Exact).unwrap();
        assert_eq!(exact.file_peak_bytes, 6400);
        assert_eq!((exact.peak_bytes, exact.exact), (4420, true));
        assert_eq!(exact.order, vec![1, 3, 0, 2, 4]);
        let g = graph(&m, 0, Lifetimes::Tflm, &[]);
        let units = Units::of(&g, true);
        assert_eq!(units.ops, vec![vec![0, 2], vec![1, 3], vec![4]]);
        let beam = search_with(&m, 0, Lifetimes::Tflm, &[], Mode::Beam { width: 1 }).unwrap();
        assert_eq!((beam.peak_bytes, &beam.order), (4420, &exact.order));
        // Exact only over the orders that keep chains together: not claimed.
        assert!(!beam.exact);
        // Three units, each reached once per kept set: 2 + 1 + 1 steps with a beam of one.
        assert_eq!(beam.steps, 4);
    }
}

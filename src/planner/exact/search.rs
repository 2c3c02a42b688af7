//! The decision search: does everything fit under a capacity? Depth first over canonical
//! placements, with the inference rules of [`Params`].
//!
//! State, kept incrementally and undone from a trail on backtrack:
//! - `min_off[i]`: the lowest offset unplaced buffer `i` can take, the aligned top of the placed
//!   buffers it overlaps (its skyline); `NONE` once placed, so a minimum over a section's
//!   buffers sees only the unplaced ones;
//! - per section, `floor` (no unplaced buffer of the section can sit lower) and `total` (bytes of
//!   the unplaced buffers alive in it, each size rounded up to the grain: the largest unit every
//!   alignment is a multiple of);
//! - per section boundary, `cuts`: unplaced buffers crossing it.
//!
//! A node lists the unplaced buffers of its partition by `(min_off, rank)` and tries each at its
//! `min_off`. Why these rules lose no solution: take, among all valid plans that extend the
//! node, one with the least sum of offsets. Every buffer in it sits on its skyline (else it could
//! drop), so it is reached by placing buffers in `(offset, rank)` order — the canonical order
//! (buffers at one offset do not overlap, so their order is free and rank decides it). And it
//! never leaves a gap the dominance rule forbids (the buffer could drop into that gap).

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::instance::Instance;
use super::Control;

/// The inference rules, each a switch (for measuring what each is worth); all on by default.
#[derive(Clone, Debug)]
pub struct Params {
    /// Offsets never decrease along the search path; at equal offsets, rank increases.
    pub canonical: bool,
    /// Prune when some section's floor plus its unplaced bytes exceeds the capacity.
    pub section_inference: bool,
    /// A section's floor is at least the lowest skyline of its unplaced buffers.
    pub unallocated_floor: bool,
    /// Skip a placement at or above the top some unplaced buffer could reach now: that buffer
    /// fits underneath, so the plan is not the least one.
    pub dominance: bool,
    /// Solve apart the parts of the problem that no unplaced buffer joins any more.
    pub decomposition: bool,
    /// When a buffer placed with no unplaced buffer overlapping it fails, its siblings fail
    /// too: it could go on its skyline in any plan, so the rest had no plan.
    pub hatless: bool,
    /// Static orders tried in turn, with a node budget that doubles each round.
    pub orders: Vec<Vec<super::instance::Key>>,
}

impl Default for Params {
    fn default() -> Self {
        use super::instance::Key::{Area, Total, Width};
        Params {
            canonical: true,
            section_inference: true,
            unallocated_floor: true,
            dominance: true,
            decomposition: true,
            hatless: true,
            orders: vec![
                vec![Width, Area, Total],
                vec![Total, Area, Width],
                vec![Total, Width, Area],
            ],
        }
    }
}

impl Params {
    /// The default rules, then each rule switched off in turn, with names: for measuring
    /// what each is worth and for checking that none loses a plan.
    pub fn each_off() -> Vec<(&'static str, Params)> {
        let with = |name, change: fn(&mut Params)| {
            let mut params = Params::default();
            change(&mut params);
            (name, params)
        };
        vec![
            with("all rules", |_| {}),
            with("no canonical order", |q| q.canonical = false),
            with("no section inference", |q| q.section_inference = false),
            with("no unallocated floor", |q| q.unallocated_floor = false),
            with("no dominance", |q| q.dominance = false),
            with("no decomposition", |q| q.decomposition = false),
            with("no hatless pruning", |q| q.hatless = false),
            with("one order (WAT) only", |q| q.orders.truncate(1)),
        ]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    Found,
    NotFound,
    /// This order's node budget ran out.
    Budget,
    /// Time limit or cancel.
    Stopped,
}

const NONE: u64 = u64::MAX;

#[derive(Clone, Copy)]
enum Change {
    MinOff(u32, u64),
    Floor(u32, u64),
}

pub(super) struct Search<'a> {
    inst: &'a Instance,
    params: &'a Params,
    capacity: u64,
    /// The capacity rounded up to the grain: the bound for rounded sizes.
    room_top: u64,
    /// The static order's keys; `rank` is each unplaced buffer's place in it within its
    /// partition (ranked anew, with the bytes left, whenever a partition splits).
    keys: Vec<super::instance::Key>,
    rank: Vec<u32>,
    offset: Vec<u64>,
    min_off: Vec<u64>,
    floor: Vec<u64>,
    total: Vec<u64>,
    cuts: Vec<u32>,
    /// The last offset each buffer took on a path that succeeded (see `place`).
    pub solution: Vec<u64>,
    trail: Vec<Change>,
    /// Candidate lists of the nodes on the current path, one after the other.
    stack: Vec<(u64, u32, u32)>,
    /// Room above each node's sections (see `dfs`), one node after the other.
    room: Vec<u64>,
    /// Sections whose floor needs a look after a placement (`mark` avoids repeats).
    affected: Vec<u32>,
    mark: Vec<u64>,
    stamp: u64,
    deadline: Instant,
    control: Control<'a>,
    pub nodes: u64,
    /// Node count at which this order's budget runs out.
    budget: u64,
    stopped: bool,
}

impl<'a> Search<'a> {
    pub fn new(
        inst: &'a Instance,
        params: &'a Params,
        capacity: u64,
        deadline: Instant,
        control: Control<'a>,
    ) -> Self {
        let mut total = vec![0u64; inst.sections()];
        for (t, m) in total.iter_mut().zip(&inst.members) {
            *t = m.iter().map(|&i| inst.unit[i as usize]).sum();
        }
        Search {
            inst,
            params,
            capacity,
            room_top: super::super::align_up(capacity, inst.grain),
            keys: Vec::new(),
            rank: vec![0; inst.len()],
            offset: vec![NONE; inst.len()],
            min_off: vec![0; inst.len()],
            floor: vec![0; inst.sections()],
            total,
            cuts: inst.cuts(),
            solution: vec![0; inst.len()],
            trail: Vec::new(),
            stack: Vec::new(),
            room: Vec::new(),
            affected: Vec::new(),
            mark: vec![0; inst.sections()],
            stamp: 0,
            deadline,
            control,
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
        }
    }

    /// Runs the whole search under one static order with a node budget.
    pub fn run(&mut self, keys: &[super::instance::Key], budget: u64) -> Status {
        self.keys = keys.to_vec();
        self.budget = self.nodes.saturating_add(budget);
        if self.inst.len() == 0 {
            return Status::Found;
        }
        let mut start = 0;
        let mut buffers: Vec<u32> = Vec::new();
        // Initial partitions: cut wherever no buffer crosses.
        for s in 0..self.inst.sections() {
            if s + 1 == self.inst.sections() || self.cuts[s] == 0 {
                buffers.clear();
                for m in &self.inst.members[start..=s] {
                    buffers.extend(m.iter().copied());
                }
                buffers.sort_unstable();
                buffers.dedup();
                let status = self.solve_part(&buffers, (start as u32, s as u32 + 1));
                if status != Status::Found {
                    return status;
                }
                start = s + 1;
            }
        }
        Status::Found
    }

    fn solve_part(&mut self, buffers: &[u32], range: (u32, u32)) -> Status {
        if buffers.is_empty() {
            return Status::Found;
        }
        if !self.check(range) {
            return Status::NotFound;
        }
        let mut order = buffers.to_vec();
        self.inst.sort(&mut order, &self.keys, &self.total);
        let saved: Vec<u32> = buffers.iter().map(|&b| self.rank[b as usize]).collect();
        for (r, &b) in order.iter().enumerate() {
            self.rank[b as usize] = r as u32;
        }
        let status = self.dfs(buffers, range, 0, 0);
        for (&b, &r) in buffers.iter().zip(&saved) {
            self.rank[b as usize] = r;
        }
        status
    }

    fn tick(&mut self) -> Option<Status> {
        if self.stopped {
            return Some(Status::Stopped);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Some(Status::Budget);
        }
        if self.nodes.is_multiple_of(1024) {
            if let Some(p) = self.control.progress {
                p.nodes.fetch_add(1024, Ordering::Relaxed);
            }
            let cancelled = self
                .control
                .cancel
                .is_some_and(|c| c.load(Ordering::Relaxed));
            if cancelled || Instant::now() >= self.deadline {
                self.stopped = true;
                return Some(Status::Stopped);
            }
        }
        None
    }

    fn dfs(&mut self, part: &[u32], range: (u32, u32), last_off: u64, last_rank: u32) -> Status {
        if let Some(s) = self.tick() {
            return s;
        }
        let inst = self.inst;
        let start = self.stack.len();
        let mut min_height = NONE;
        let mut any = false;
        for &b in part {
            let i = b as usize;
            if self.offset[i] != NONE {
                continue;
            }
            any = true;
            let top = self.min_off[i].saturating_add(inst.size[i]);
            if top > self.capacity {
                // Skylines only rise: this buffer can never fit below here.
                return Status::NotFound;
            }
            min_height = min_height.min(top);
        }
        if !any {
            return Status::Found;
        }
        // Only buffers that can go below every unplaced buffer's lowest top are tried (the
        // dominance rule), and only at or above the last offset (the canonical order).
        let limit = if self.params.dominance {
            min_height
        } else {
            NONE
        };
        for &b in part {
            let i = b as usize;
            let off = self.min_off[i];
            let twin = inst.twin[i];
            if off < limit
                && (off >= last_off || !self.params.canonical)
                && (twin == u32::MAX || self.offset[twin as usize] != NONE)
            {
                self.stack.push((off, self.rank[i], b));
            }
        }
        self.stack[start..].sort_unstable();
        // `room[k]`: the highest offset a buffer can take while sections `range.0 + k..` (its
        // `k + len + 1` entry) or `..range.0 + k` (entry `k`) keep room for their unplaced bytes
        // above it (later buffers go no lower): `capacity - total`, least over those sections.
        let len = (range.1 - range.0) as usize;
        let room = self.room.len();
        if self.params.section_inference && self.params.canonical {
            let mut least = NONE;
            self.room.push(least);
            for s in range.0..range.1 {
                least = least.min(self.room_in(s as usize));
                self.room.push(least);
            }
            let suffix = self.room.len();
            self.room.resize(suffix + len + 1, NONE);
            for k in (0..len).rev() {
                let r = self.room_in(range.0 as usize + k);
                self.room[suffix + k] = self.room[suffix + k + 1].min(r);
            }
        }
        let mut status = Status::NotFound;
        for k in start..self.stack.len() {
            let (off, rank, b) = self.stack[k];
            if self.params.canonical && (off < last_off || (off == last_off && rank < last_rank)) {
                continue;
            }
            if self.room.len() > room {
                // Sections outside `b`'s lifetime keep their floors and totals: check them now.
                let lo = (inst.lo[b as usize] - range.0) as usize;
                let hi = (inst.hi[b as usize] - range.0) as usize;
                if off > self.room[room + lo].min(self.room[room + len + 1 + hi]) {
                    continue;
                }
            }
            let mark = self.trail.len();
            let hatless = self.place(b as usize, off);
            if self.check_affected(off) {
                status = if self.params.decomposition {
                    self.decompose(part, range, b as usize, off, rank)
                } else {
                    self.dfs(part, range, off, rank)
                };
            }
            self.unplace(b as usize, mark);
            if status != Status::NotFound || (hatless && self.params.hatless) {
                break;
            }
        }
        self.stack.truncate(start);
        self.room.truncate(room);
        status
    }

    /// Do the unplaced buffers of section `s` fit between its floor (or `off`, where later
    /// placements go) and the capacity? Every offset is a multiple of the grain, so each of
    /// them takes its size rounded up to it.
    fn section_fits(&self, s: usize, off: u64) -> bool {
        let off = if self.params.canonical { off } else { 0 };
        let floor = self.floor[s].max(off);
        self.total[s] == 0
            || super::super::align_up(floor, self.inst.grain) + self.total[s] <= self.room_top
    }

    fn room_in(&self, s: usize) -> u64 {
        if self.total[s] == 0 {
            NONE
        } else {
            self.room_top.saturating_sub(self.total[s])
        }
    }

    /// [`Self::check`] on the sections the last placement changed (see `dfs` for the rest).
    fn check_affected(&self, off: u64) -> bool {
        if !self.params.section_inference {
            return true;
        }
        self.affected
            .iter()
            .all(|&s| self.section_fits(s as usize, off))
    }

    /// Places `b` at `off` and updates skylines, floors and totals (recorded on the trail).
    /// Says whether no unplaced buffer overlaps `b`.
    fn place(&mut self, b: usize, off: u64) -> bool {
        let inst = self.inst;
        self.offset[b] = off;
        self.min_off[b] = NONE;
        self.solution[b] = off;
        let top = off + inst.size[b];
        self.stamp += 1;
        self.affected.clear();
        let mut hatless = true;
        for &x in &inst.overlaps[b] {
            let x = x as usize;
            if self.min_off[x] == NONE {
                continue;
            }
            hatless = false;
            if self.min_off[x] >= top {
                continue;
            }
            let was = self.min_off[x];
            self.trail.push(Change::MinOff(x as u32, was));
            self.min_off[x] = super::super::align_up(top, inst.align[x]);
            if self.params.unallocated_floor {
                // A section's floor is the lowest skyline of its unplaced buffers (all of them
                // sit above its placed ones): it can only move where `x` was that lowest.
                for s in inst.lo[x]..inst.hi[x] {
                    if was <= self.floor[s as usize] {
                        self.mark_affected(s);
                    }
                }
            }
        }
        for s in inst.lo[b] as usize..inst.hi[b] as usize {
            self.trail.push(Change::Floor(s as u32, self.floor[s]));
            self.floor[s] = top;
            self.total[s] -= inst.unit[b];
            self.mark_affected(s as u32);
        }
        for k in 0..self.affected.len() {
            if !self.params.unallocated_floor {
                break;
            }
            let s = self.affected[k] as usize;
            let floor = self.floor[s];
            // The lowest skyline, or `floor` as soon as one is found there (no change).
            let mut lowest = NONE;
            for &x in &inst.members[s] {
                let m = self.min_off[x as usize];
                if m <= floor {
                    lowest = floor;
                    break;
                }
                lowest = lowest.min(m);
            }
            if lowest != NONE && lowest > floor {
                self.trail.push(Change::Floor(s as u32, floor));
                self.floor[s] = lowest;
            }
        }
        hatless
    }

    fn mark_affected(&mut self, s: u32) {
        if self.mark[s as usize] != self.stamp {
            self.mark[s as usize] = self.stamp;
            self.affected.push(s);
        }
    }

    fn unplace(&mut self, b: usize, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Change::MinOff(x, v)) => self.min_off[x as usize] = v,
                Some(Change::Floor(s, v)) => self.floor[s as usize] = v,
                None => break,
            }
        }
        let inst = self.inst;
        for s in inst.lo[b] as usize..inst.hi[b] as usize {
            self.total[s] += inst.unit[b];
        }
        self.min_off[b] = self.offset[b];
        self.offset[b] = NONE;
    }

    /// Can the unplaced bytes of every section still fit above its floor (and above `off`,
    /// where later placements go)?
    fn check(&self, range: (u32, u32)) -> bool {
        !self.params.section_inference
            || (range.0 as usize..range.1 as usize).all(|s| self.section_fits(s, 0))
    }

    /// After placing `b`: if no unplaced buffer crosses some boundary inside `range` any more,
    /// the pieces are solved one after the other, each from scratch; otherwise the search goes
    /// on in this partition.
    fn decompose(
        &mut self,
        part: &[u32],
        range: (u32, u32),
        b: usize,
        off: u64,
        rank: u32,
    ) -> Status {
        let inst = self.inst;
        let (lo, hi) = (inst.lo[b] as usize, inst.hi[b] as usize);
        let mut splits: Vec<u32> = Vec::new();
        for s in lo..hi - 1 {
            self.cuts[s] -= 1;
            if self.cuts[s] == 0 {
                splits.push(s as u32 + 1);
            }
        }
        let status = if splits.is_empty() {
            self.dfs(part, range, off, rank)
        } else {
            let mut bounds = vec![range.0];
            bounds.extend(
                splits
                    .iter()
                    .copied()
                    .filter(|&c| c > range.0 && c < range.1),
            );
            bounds.push(range.1);
            let mut status = Status::Found;
            for w in bounds.windows(2) {
                let piece: Vec<u32> = part
                    .iter()
                    .copied()
                    .filter(|&x| {
                        let x = x as usize;
                        self.offset[x] == NONE && inst.lo[x] < w[1] && inst.hi[x] > w[0]
                    })
                    .collect();
                status = self.solve_part(&piece, (w[0], w[1]));
                if status != Status::Found {
                    break;
                }
            }
            status
        };
        for s in lo..hi - 1 {
            self.cuts[s] += 1;
        }
        status
    }
}

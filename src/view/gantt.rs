//! The lifetime Gantt chart: one bar per buffer over its steps, a row each (ordered by first
//! step), the peak step, and the live bytes per step under it.

use crate::analysis::{BufferKind, Problem};

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub buffer: usize,
    pub kind: BufferKind,
    /// Row from the top (0 = first row).
    pub row: usize,
    /// Steps `[x0, x1)`.
    pub x0: f64,
    pub x1: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GanttView {
    pub bars: Vec<Bar>,
    pub rows: usize,
    pub steps: u32,
    /// Bytes alive at each step.
    pub live_bytes: Vec<u64>,
    pub peak_steps: Vec<u32>,
    pub lower_bound: u64,
}

impl GanttView {
    pub fn build(problem: &Problem) -> Self {
        let b = &problem.buffers;
        let mut order: Vec<usize> = (0..b.len()).collect();
        order.sort_by_key(|&i| (b[i].first, b[i].last, i));
        let bars = order
            .iter()
            .enumerate()
            .map(|(row, &i)| Bar {
                buffer: i,
                kind: b[i].kind,
                row,
                x0: b[i].first as f64,
                x1: b[i].last as f64 + 1.0,
            })
            .collect();
        let live_bytes = problem.live_bytes_per_step();
        let lower_bound = live_bytes.iter().copied().max().unwrap_or(0);
        let peak_steps = live_bytes
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == lower_bound && lower_bound > 0)
            .map(|(s, _)| s as u32)
            .collect();
        GanttView {
            bars,
            rows: b.len(),
            steps: problem.steps,
            live_bytes,
            peak_steps,
            lower_bound,
        }
    }

    /// The bar at step `x` in `row`.
    pub fn hit(&self, x: f64, row: usize) -> Option<usize> {
        self.bars
            .get(row)
            .filter(|bar| bar.x0 <= x && x < bar.x1)
            .map(|bar| bar.buffer)
    }

    /// The row of a buffer.
    pub fn row_of(&self, buffer: usize) -> Option<usize> {
        self.bars.iter().find(|b| b.buffer == buffer).map(|b| b.row)
    }
}

//! Each panel's geometry as plain data, in plot units (steps across, bytes up): what the GUI
//! paints and what `export::svg` writes, so what you export is what you see, and geometry is
//! testable without a window.

pub mod conflicts;
pub mod gantt;
pub mod layout;
pub mod lod;
pub mod memory;
pub mod options;
pub mod theme;

pub use conflicts::ConflictView;
pub use gantt::GanttView;
pub use layout::LayoutView;
pub use memory::MemoryView;
pub use options::{PaintOptions, PAINT};

/// Conflict graphs above this many buffers show one buffer's neighbourhood.
pub const GRAPH_MAX_NODES: usize = PAINT.graph_max_nodes;

/// Overhead of an arena over the lower bound, in percent of the bound (0 for an empty bound).
pub fn overhead_pct(arena_bytes: u64, lower_bound: u64) -> f64 {
    if lower_bound > 0 {
        100.0 * arena_bytes.saturating_sub(lower_bound) as f64 / lower_bound as f64
    } else {
        0.0
    }
}

/// Bytes for people: `812 B`, `48.0 KiB`, `3.20 MiB`.
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KIB {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        format!("{:.1} KiB", b / KIB)
    } else if b < KIB * KIB * KIB {
        format!("{:.2} MiB", b / (KIB * KIB))
    } else {
        format!("{:.2} GiB", b / (KIB * KIB * KIB))
    }
}

/// Bytes for people with the exact count when the unit rounds it: `812 B`,
/// `4.8 KiB (4864 B)`.
pub fn format_bytes_exact(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else {
        format!("{} ({bytes} B)", format_bytes(bytes))
    }
}

/// A byte count in the largest unit that shows it exactly with at most two decimals
/// (`1500 KiB`, not `1.46 MiB`; `2 MiB`, `1.25 KiB`, `1500 B`, `64 B`): never rounded.
pub fn format_tick(bytes: u64) -> String {
    for (unit, name) in BYTE_UNITS {
        if bytes >= unit && (bytes as u128 * 100).is_multiple_of(unit as u128) {
            return format!("{} {name}", exact_in_unit(bytes, unit));
        }
    }
    format!("{bytes} B")
}

/// The binary units, largest first.
const BYTE_UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];

/// `bytes / unit` with as few decimals as show it exactly (at most two; the caller checks).
fn exact_in_unit(bytes: u64, unit: u64) -> String {
    let hundredths = bytes as u128 * 100 / unit as u128;
    let (whole, frac) = (hundredths / 100, hundredths % 100);
    match frac {
        0 => format!("{whole}"),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// The label of a tick at `bytes` on an axis whose ticks are `step_bytes` apart (from
/// [`byte_tick_step`]): every tick of the axis in the one unit the step is a whole number of,
/// so each label is its position's value exactly (`0 B, 500 B, 1000 B, 1500 B`;
/// `0 B, 200 KiB, 400 KiB`). The GUI's axis and the SVG export both label with it.
pub fn format_axis_tick(bytes: u64, step_bytes: u64) -> String {
    if bytes == 0 {
        return "0 B".to_string();
    }
    for (unit, name) in BYTE_UNITS {
        if step_bytes >= unit && step_bytes.is_multiple_of(unit) && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} B")
}

/// The distance between ticks on a byte axis showing `[lo, hi]` with about `target` ticks:
/// 1, 2 or 5 × 10^k bytes, KiB, MiB or GiB, always a whole number of bytes (below ~2 KiB of
/// span the steps are plain bytes: 100 B, 200 B, 500 B).
pub fn byte_tick_step(lo: f64, hi: f64, target: usize) -> u64 {
    let raw = ((hi - lo) / target.max(1) as f64).max(1.0);
    let mut steps = [1u64, 1 << 10, 1 << 20, 1 << 30]
        .into_iter()
        .flat_map(|unit| {
            [1u64, 2, 5, 10, 20, 50, 100, 200, 500]
                .into_iter()
                .map(move |m| m * unit)
        });
    steps.find(|&s| s as f64 >= raw).unwrap_or(1000 << 30)
}

/// A short label for a tensor name: the first of fused names (`a;b` → `a`), then its last two
/// path components (`model/block_1/conv/Relu6` → `conv/Relu6`).
pub fn short_name(name: &str) -> &str {
    let first = name.split(';').next().unwrap_or(name);
    match first.rmatch_indices('/').nth(1) {
        Some((i, _)) => &first[i + 1..],
        None => first,
    }
}

/// "Nice" tick positions (1, 2, 5 × 10^k) covering `[lo, hi]` with about `target` ticks.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) || target == 0 {
        return vec![lo];
    }
    let raw = (hi - lo) / target as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 && out.len() < 1000 {
        out.push(t);
        t += step;
    }
    out
}

/// Tick positions on a byte axis: whole multiples of [`byte_tick_step`] inside `[lo, hi]`.
pub fn byte_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    byte_ticks_every(lo, hi, byte_tick_step(lo, hi, target))
}

/// Tick positions `step_bytes` apart inside `[lo, hi]` (at most 1000).
pub fn byte_ticks_every(lo: f64, hi: f64, step_bytes: u64) -> Vec<f64> {
    let step = step_bytes.max(1) as f64;
    let first = (lo.max(0.0) / step).ceil();
    (0..1000)
        .map(|k| (first + k as f64) * step)
        .take_while(|t| *t <= hi + step * 1e-9)
        .collect()
}

/// "step 5" or "steps 228–282": a lifetime or a run of steps, as every label and tooltip
/// writes it.
pub fn format_steps(first: u32, last: u32) -> String {
    if first == last {
        format!("step {first}")
    } else {
        format!("steps {first}–{last}")
    }
}

/// Steps in ascending order as runs: "step 5", "steps 5–7", "steps 3, 8–9".
pub fn format_step_list(steps: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &s in steps {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == s => *last = s,
            _ => runs.push((s, s)),
        }
    }
    match runs.as_slice() {
        [] => String::new(),
        [(a, b)] => format_steps(*a, *b),
        _ => {
            let parts: Vec<String> = runs
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}–{b}")
                    }
                })
                .collect();
            format!("steps {}", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_formatted_with_binary_units() {
        assert_eq!(format_bytes(812), "812 B");
        assert_eq!(format_bytes(49152), "48.0 KiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 + 200 * 1024), "3.20 MiB");
        assert_eq!(format_bytes_exact(193), "193 B");
        assert_eq!(format_bytes_exact(4864), "4.8 KiB (4864 B)");
    }

    #[test]
    fn short_names_keep_the_last_two_components_of_the_first_fused_name() {
        assert_eq!(
            short_name("m/block_1/expand/Relu6;m/block_1/BN"),
            "expand/Relu6"
        );
        assert_eq!(short_name("xs_0"), "xs_0");
        assert_eq!(short_name("a/b"), "a/b");
    }

    #[test]
    fn ticks_use_the_unit_that_shows_them_exactly() {
        assert_eq!(format_tick(1500 * 1024), "1500 KiB");
        assert_eq!(format_tick(2 * 1024 * 1024), "2 MiB");
        assert_eq!(format_tick(1024 * 1024 + 512 * 1024), "1.5 MiB");
        assert_eq!(format_tick(64), "64 B");
        // Below a few KiB, where microcontroller arenas are: never rounded to a whole KiB.
        assert_eq!(format_tick(1500), "1500 B");
        assert_eq!(format_tick(2000), "2000 B");
        assert_eq!(format_tick(1280), "1.25 KiB");
        assert_eq!(format_tick(1536), "1.5 KiB");
    }

    #[test]
    fn small_byte_axes_tick_every_few_hundred_bytes_and_label_them_exactly() {
        // A 2000-byte arena with 5 % head room: 500 B apart, in bytes.
        assert_eq!(byte_tick_step(0.0, 2100.0, 6), 500);
        let ticks = byte_ticks(0.0, 2100.0, 6);
        assert_eq!(ticks, vec![0.0, 500.0, 1000.0, 1500.0, 2000.0]);
        let labels: Vec<String> = ticks
            .iter()
            .map(|&t| format_axis_tick(t as u64, 500))
            .collect();
        assert_eq!(labels, ["0 B", "500 B", "1000 B", "1500 B", "2000 B"]);
        // 300 bytes: 50 B apart.
        assert_eq!(byte_tick_step(0.0, 315.0, 6), 100);
        assert_eq!(byte_tick_step(0.0, 250.0, 6), 50);
        // A step in bytes keeps every label in bytes, even at a whole KiB (zoomed in).
        assert_eq!(format_axis_tick(1024, 2), "1024 B");
        // KiB and MiB steps label in their unit.
        assert_eq!(byte_tick_step(0.0, 6.0 * 1024.0, 6), 1024);
        assert_eq!(format_axis_tick(3 * 1024, 1024), "3 KiB");
        assert_eq!(byte_tick_step(0.0, 1048576.0, 6), 200 * 1024);
        assert_eq!(format_axis_tick(1200 * 1024, 200 * 1024), "1200 KiB");
        assert_eq!(format_axis_tick(2 << 20, 1 << 20), "2 MiB");
        // Zoomed in on a large arena: ticks stay on whole bytes.
        assert_eq!(
            byte_ticks(1048576.0, 1048576.0 + 60.0, 6),
            vec![1048580.0, 1048590.0, 1048600.0, 1048610.0, 1048620.0, 1048630.0]
        );
    }

    #[test]
    fn step_runs_are_written_with_an_en_dash() {
        assert_eq!(format_steps(228, 282), "steps 228–282");
        assert_eq!(format_steps(5, 5), "step 5");
        assert_eq!(format_step_list(&[5, 6, 7]), "steps 5–7");
        assert_eq!(format_step_list(&[3, 8, 9]), "steps 3, 8–9");
        assert_eq!(format_step_list(&[4]), "step 4");
    }

    #[test]
    fn ticks_are_round_numbers_inside_the_range() {
        assert_eq!(
            nice_ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(nice_ticks(3.0, 9.0, 3), vec![4.0, 6.0, 8.0]);
        assert_eq!(
            byte_ticks(0.0, 3.0 * 1024.0 * 1024.0, 3),
            vec![0.0, 1048576.0, 2097152.0, 3145728.0]
        );
    }
}

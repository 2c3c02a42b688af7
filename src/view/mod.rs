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

/// An axis tick in bytes: the largest unit that shows it exactly to one decimal
/// (`1500 KiB`, not `1.46 MiB`; `2 MiB`, `512 KiB`, `64 B`).
pub fn format_tick(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && (bytes * 10).is_multiple_of(unit) {
            let v = bytes as f64 / unit as f64;
            return if v.fract() == 0.0 {
                format!("{v:.0} {name}")
            } else {
                format!("{v:.1} {name}")
            };
        }
    }
    for (unit, name) in UNITS {
        if bytes >= unit {
            return format!("{:.0} {name}", bytes as f64 / unit as f64);
        }
    }
    format!("{bytes} B")
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

/// Tick positions on a byte axis: round numbers of B, KiB or MiB.
pub fn byte_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let unit = [1.0, 1024.0, 1024.0 * 1024.0, 1024.0 * 1024.0 * 1024.0]
        .into_iter()
        .rev()
        .find(|u| hi / u >= 2.0)
        .unwrap_or(1.0);
    nice_ticks(lo / unit, hi / unit, target)
        .into_iter()
        .map(|t| t * unit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_formatted_with_binary_units() {
        assert_eq!(format_bytes(812), "812 B");
        assert_eq!(format_bytes(49152), "48.0 KiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 + 200 * 1024), "3.20 MiB");
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

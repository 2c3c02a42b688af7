//! The conflict graph: a node per buffer (area ∝ bytes), an edge per pair alive at the same
//! step, the buffers live at the peak step (the max-weight clique of this interval graph)
//! highlighted.
//!
//! Nodes sit on a circle in order of first step (then last step), so buffers that live at the
//! same time are neighbours on the circle and their conflicts are short chords; a long-lived
//! buffer shows as a fan of chords. No three nodes are collinear, so an edge never hides
//! behind a node. Above `max_nodes` buffers only a focus buffer's neighbourhood is shown (the
//! selected one, else the largest at the peak).

use super::options::PAINT;
use super::short_name;
use crate::analysis::{BufferKind, Problem};

/// Which way a node's label runs from its anchor outside the circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelSide {
    /// Starts at the anchor (right half of the circle).
    Right,
    /// Ends at the anchor (left half).
    Left,
    /// Centred on it (top and bottom).
    Centre,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub buffer: usize,
    pub kind: BufferKind,
    /// Centre on the unit circle.
    pub x: f64,
    pub y: f64,
    /// Angle on the circle, radians (0 = right, counter-clockwise).
    pub angle: f64,
    /// Radius relative to the largest node (0.25 ..= 1): area by bytes.
    pub relative: f64,
    /// Radius in plot units (the circle has radius 1): what the painter and the SVG draw.
    pub radius: f64,
    pub in_peak_clique: bool,
    /// The label: the buffer's short name, cut to `PAINT.node_label_max_chars`.
    pub label: String,
    pub side: LabelSide,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConflictView {
    pub nodes: Vec<Node>,
    /// Pairs of indices into `nodes`.
    pub edges: Vec<(usize, usize)>,
    /// Buffer ids of the peak clique.
    pub peak_clique: Vec<usize>,
    /// Set when only a neighbourhood is shown: the focus buffer and how many buffers there are.
    pub neighbourhood_of: Option<(usize, usize)>,
}

impl ConflictView {
    pub fn build(problem: &Problem, focus: Option<usize>, max_nodes: usize) -> Self {
        let b = &problem.buffers;
        let live = problem.live_bytes_per_step();
        let peak = live
            .iter()
            .enumerate()
            .max_by_key(|(s, v)| (**v, std::cmp::Reverse(*s)))
            .map(|(s, _)| s as u32);
        let peak_clique: Vec<usize> = match peak {
            Some(s) => (0..b.len())
                .filter(|&i| b[i].first <= s && s <= b[i].last)
                .collect(),
            None => Vec::new(),
        };
        let mut shown: Vec<usize> = (0..b.len()).collect();
        let mut neighbourhood_of = None;
        if b.len() > max_nodes {
            let f = focus.filter(|&f| f < b.len()).or_else(|| {
                peak_clique
                    .iter()
                    .copied()
                    .max_by_key(|&i| (b[i].size_bytes, std::cmp::Reverse(i)))
            });
            if let Some(f) = f {
                shown = (0..b.len())
                    .filter(|&i| b[i].overlaps_in_time(&b[f]))
                    .collect();
                if shown.len() > max_nodes {
                    // Keep the largest neighbours.
                    shown.sort_by_key(|&i| (std::cmp::Reverse(b[i].size_bytes), i));
                    shown.truncate(max_nodes);
                    if !shown.contains(&f) {
                        shown.push(f);
                    }
                    shown.sort_unstable();
                }
                neighbourhood_of = Some((f, b.len()));
            }
        }
        let max_bytes = shown
            .iter()
            .map(|&i| b[i].size_bytes)
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        // Circle order: first step, last step, id; the first node at the top, clockwise.
        shown.sort_by_key(|&i| (b[i].first, b[i].last, i));
        let n = shown.len().max(1) as f64;
        // The largest node: a fraction of the spacing between neighbours, capped.
        let max_radius =
            (std::f64::consts::TAU / n * PAINT.node_spacing_fraction).min(PAINT.node_max_radius);
        let index_of: std::collections::HashMap<usize, usize> =
            shown.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let nodes: Vec<Node> = shown
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let angle = std::f64::consts::FRAC_PI_2 - std::f64::consts::TAU * k as f64 / n;
                let relative = (b[i].size_bytes as f64 / max_bytes)
                    .sqrt()
                    .max(PAINT.node_min_relative);
                let x = angle.cos();
                let name = short_name(&b[i].name);
                let label = if name.chars().count() > PAINT.node_label_max_chars {
                    name.chars()
                        .take(PAINT.node_label_max_chars - 1)
                        .collect::<String>()
                        + "…"
                } else {
                    name.to_string()
                };
                Node {
                    buffer: i,
                    kind: b[i].kind,
                    x,
                    y: angle.sin(),
                    angle,
                    relative,
                    radius: relative * max_radius,
                    in_peak_clique: peak_clique.contains(&i),
                    label,
                    side: if x > 0.05 {
                        LabelSide::Right
                    } else if x < -0.05 {
                        LabelSide::Left
                    } else {
                        LabelSide::Centre
                    },
                }
            })
            .collect();
        let sub = Problem::from_buffers(shown.iter().map(|&i| b[i].clone()).collect());
        let edges = sub
            .conflicts()
            .into_iter()
            .filter(|(x, y)| index_of.contains_key(&shown[*x]) && index_of.contains_key(&shown[*y]))
            .collect();
        ConflictView {
            nodes,
            edges,
            peak_clique,
            neighbourhood_of,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::csv::read_problem;

    #[test]
    fn textbook_graph_is_a_path_with_the_peak_clique_marked() {
        let (_, p) = read_problem("id,lower,upper,size\n0,0,2,10\n1,1,3,20\n2,2,4,15\n").unwrap();
        let v = ConflictView::build(&p, None, 400);
        assert_eq!(v.nodes.len(), 3);
        assert_eq!(v.edges, vec![(0, 1), (1, 2)]);
        // First node at the top of the circle, the others clockwise.
        assert!((v.nodes[0].y - 1.0).abs() < 1e-9 && v.nodes[1].x > 0.0 && v.nodes[2].x < 0.0);
        // Live bytes: 10, 30, 35, 15 at steps 0..3: the peak is step 2, buffers 1 and 2.
        assert_eq!(v.peak_clique, vec![1, 2]);
        assert!(v.nodes[1].relative == 1.0 && v.nodes[0].relative < 1.0);
        // Three nodes: the spacing fraction gives 0.94, capped at 0.08 plot units.
        assert_eq!(v.nodes[1].radius, 0.08);
        assert_eq!(v.nodes[0].side, LabelSide::Centre);
        assert_eq!(v.nodes[1].side, LabelSide::Right);
        assert_eq!(v.nodes[2].side, LabelSide::Left);
    }

    #[test]
    fn large_graphs_show_the_focus_neighbourhood() {
        let p = crate::synth::network_like(2000, 3, 64);
        let v = ConflictView::build(&p, Some(1000), 400);
        assert_eq!(v.neighbourhood_of, Some((1000, 2000)));
        // The largest node: 0.45 of the spacing on the unit circle, at most 0.08.
        let spacing = std::f64::consts::TAU / v.nodes.len() as f64;
        let largest = v.nodes.iter().map(|n| n.radius).fold(0.0, f64::max);
        assert!(
            (largest - (0.45 * spacing).min(0.08)).abs() < 1e-12,
            "{largest}"
        );
        let many = ConflictView::build(&p, Some(1000), 2000);
        let spacing = std::f64::consts::TAU / many.nodes.len() as f64;
        let largest = many.nodes.iter().map(|n| n.radius).fold(0.0, f64::max);
        assert!(spacing * 0.45 < 0.08, "2000 nodes are close together");
        assert!((largest - 0.45 * spacing).abs() < 1e-12, "{largest}");
        assert!(v.nodes.iter().any(|n| n.buffer == 1000));
        assert!(v
            .nodes
            .iter()
            .all(|n| p.buffers[n.buffer].overlaps_in_time(&p.buffers[1000])));
    }
}

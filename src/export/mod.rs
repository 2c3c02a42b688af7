//! Writing what the tool computed: plan JSON (DESIGN.md §3.2), plan and MiniMalloc CSV, SVG
//! drawn from `view/` geometry, PNG rendered from the SVG.

pub mod caption;
pub mod csv;
pub mod json;
pub mod png;
pub mod svg;

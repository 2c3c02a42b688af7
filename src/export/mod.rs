//! Writing plans and problems: plan JSON (DESIGN.md §3.2), plan CSV, MiniMalloc CSV.

pub mod csv;
pub mod json;
pub mod svg;

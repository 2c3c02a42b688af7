//! arenascope: how big must a TFLite / TFLite Micro tensor arena be, why, and how small could
//! it be.
//!
//! Data flows one way: [`model`] (`.tflite` → owned model) → [`analysis`] (lifetimes under the
//! LiteRT or TFLM convention → a [`analysis::Problem`]) → [`planner`] (problem → offsets) →
//! [`plan`] (validation and metrics) → [`export`]. Nothing outside `app` touches the GUI.

pub mod analysis;
pub mod bench_exact;
pub mod cli;
pub mod export;
pub mod model;
pub mod plan;
pub mod planner;
pub mod synth;
pub mod view;

#[cfg(feature = "gui")]
pub mod app;

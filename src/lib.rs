//! arenascope: how big must a TFLite / TFLite Micro tensor arena be, why, and how small could
//! it be?
//!
//! Modules import only downwards, in this order from the ground up (a test checks it):
//! [`model`] (`.tflite` → owned model) → [`analysis`] (lifetimes under the LiteRT or TFLM
//! convention, MiniMalloc CSV → [`analysis::Problem`]) → [`plan`] (the plan type, validation,
//! metrics) → [`planner`] (problem → validated plan) → [`synth`] (synthetic problems for
//! benchmarks and tests) → [`view`] (each panel's geometry as data) → [`export`] (JSON, CSV,
//! SVG, PNG) → [`document`] (the one pipeline: open, derive, plan) → [`cli`] and `app` (the
//! two faces; neither uses the other). Nothing outside `app` touches the GUI.

// No `unwrap`/`expect` outside tests: a fallible path returns its error instead (tests, the
// benches and `#[cfg(test)]` modules are compiled without this attribute).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod model;

pub mod analysis;

pub mod plan;

pub mod planner;

pub mod synth;

pub mod view;

pub mod export;

pub mod document;

pub mod cli;

#[cfg(feature = "gui")]
pub mod app;

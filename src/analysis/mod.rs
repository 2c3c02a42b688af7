//! From a model to problems: execution order, lifetimes under the two runtimes' conventions,
//! and the problem every planner solves (DESIGN.md §1, RUNTIME_RULES.md).

pub mod catalogue;
pub mod csv;
pub mod custom_options;
pub mod litert;
pub mod order;
pub mod order_bound;
pub mod problem;
pub mod tflm;
pub mod tflm_tail;
pub mod xnnpack;

pub use problem::{
    round_up, Alias, Buffer, BufferKind, Lifetimes, Outside, OutsideReason, Problem, XnnpackPart,
};

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("the model has no subgraph {0}")]
    NoSubgraph(usize),
    #[error("{0}")]
    Invalid(String),
    #[error("the order search works on litert and tflm lifetimes; with XNNPACK the partitions depend on the order, which is not modelled")]
    NoXnnpackOrders,
}

/// The problems of a model under a convention: one per subgraph for litert, one for tflm;
/// for xnnpack, the delegated graph's TFLite arena per subgraph, then one workspace problem per
/// partition.
pub fn problems(
    model: &crate::model::Model,
    lifetimes: Lifetimes,
) -> Result<Vec<Problem>, AnalysisError> {
    problems_on(model, lifetimes, xnnpack::Platform::X86_64)
}

/// [`problems`], with XNNPACK's workspace rounded for `platform`.
pub fn problems_on(
    model: &crate::model::Model,
    lifetimes: Lifetimes,
    platform: xnnpack::Platform,
) -> Result<Vec<Problem>, AnalysisError> {
    match lifetimes {
        Lifetimes::Litert => (0..model.subgraphs.len())
            .map(|s| litert::problem(model, s))
            .collect(),
        Lifetimes::Tflm => Ok(vec![tflm::problem(model)?]),
        Lifetimes::Xnnpack => xnnpack::problems(model, platform),
    }
}

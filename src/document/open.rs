//! Opening a file: a `.tflite` model or a MiniMalloc CSV problem, with typed errors that end
//! with the file's path; or the model embedded in the binary.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Document, DocumentError, Facts, PlanRequest, Source, SAMPLE_BYTES, SAMPLE_NAME};
use crate::analysis::{self, Lifetimes};
use crate::model::Model;

impl Source {
    pub fn is_csv(&self) -> bool {
        matches!(self, Source::Csv { .. })
    }

    /// Reads a model or, for a `.csv` path, a MiniMalloc problem.
    pub fn open(path: &Path) -> Result<(Source, u64), DocumentError> {
        if path.is_dir() {
            return Err(DocumentError::Directory(path.into()));
        }
        if !path.exists() {
            return Err(DocumentError::NotFound(path.into()));
        }
        let read_err = |source| DocumentError::Read {
            path: path.into(),
            source,
        };
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
        {
            let text = std::fs::read_to_string(path).map_err(read_err)?;
            let (rows, problem) =
                analysis::csv::read_problem(&text).map_err(|source| DocumentError::Csv {
                    path: path.into(),
                    source,
                })?;
            Ok((
                Source::Csv {
                    rows,
                    problem: Box::new(problem),
                },
                text.len() as u64,
            ))
        } else {
            let bytes = std::fs::read(path).map_err(read_err)?;
            let model = Model::from_bytes(&bytes).map_err(|source| DocumentError::Model {
                path: path.into(),
                source,
            })?;
            Ok((Source::Model(Box::new(model)), bytes.len() as u64))
        }
    }
}

impl Document {
    /// A document on `source`, not planned yet.
    fn unplanned_on(
        path: Option<PathBuf>,
        title: String,
        file_bytes: u64,
        source: Arc<Source>,
        request: PlanRequest,
    ) -> Self {
        Document {
            path,
            title,
            file_bytes,
            source,
            request,
            planned: Vec::new(),
            orders: Vec::new(),
            order_reports: Vec::new(),
            reordered: None,
            file_planned: Vec::new(),
            facts: Facts::default(),
        }
    }

    /// Opens a file without planning it yet (`plan` does).
    pub fn open(
        path: &Path,
        lifetimes: Lifetimes,
        align: Option<u64>,
    ) -> Result<Self, DocumentError> {
        let (source, file_bytes) = Source::open(path)?;
        let title = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let request = PlanRequest::defaults(&source, lifetimes, align);
        Ok(Self::unplanned_on(
            Some(path.to_path_buf()),
            title,
            file_bytes,
            Arc::new(source),
            request,
        ))
    }

    /// The embedded sample model, not planned yet.
    pub fn sample(lifetimes: Lifetimes, align: Option<u64>) -> Result<Self, DocumentError> {
        let model = Model::from_bytes(SAMPLE_BYTES).map_err(|source| DocumentError::Model {
            path: SAMPLE_NAME.into(),
            source,
        })?;
        let source = Source::Model(Box::new(model));
        let request = PlanRequest::defaults(&source, lifetimes, align);
        Ok(Self::unplanned_on(
            None,
            SAMPLE_NAME.into(),
            SAMPLE_BYTES.len() as u64,
            Arc::new(source),
            request,
        ))
    }

    /// The same file, not planned (the model is shared, not copied): what a background job
    /// plans while this one stays shown.
    pub fn unplanned(&self) -> Self {
        Self::unplanned_on(
            self.path.clone(),
            self.title.clone(),
            self.file_bytes,
            self.source.clone(),
            self.request.clone(),
        )
    }

    /// A document on a model built in a test.
    #[cfg(test)]
    pub(crate) fn from_model(model: Model, title: &str) -> Self {
        let source = Source::Model(Box::new(model));
        let request = PlanRequest::defaults(&source, Lifetimes::Litert, None);
        Self::unplanned_on(None, title.to_string(), 0, Arc::new(source), request)
    }
}

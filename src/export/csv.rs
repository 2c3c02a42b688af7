//! Writing MiniMalloc's CSV format (`id,lower,upper,size[,alignment]`, half-open times): a
//! solution (the input rows plus offsets), a plan, a problem. The reader is `analysis::csv`.

use crate::analysis::csv::CsvRow;
use crate::analysis::Problem;

/// The rows with an `offset` column added.
pub fn write_solution(rows: &[CsvRow], offsets: &[u64]) -> String {
    let with_align = rows.iter().any(|r| r.alignment.is_some());
    let mut out = String::from(if with_align {
        "id,lower,upper,size,alignment,offset\n"
    } else {
        "id,lower,upper,size,offset\n"
    });
    for (r, o) in rows.iter().zip(offsets) {
        if with_align {
            out += &format!(
                "{},{},{},{},{},{}\n",
                r.id,
                r.lower,
                r.upper,
                r.size,
                r.alignment.unwrap_or(1),
                o
            );
        } else {
            out += &format!("{},{},{},{},{}\n", r.id, r.lower, r.upper, r.size, o);
        }
    }
    out
}

/// A plan as MiniMalloc CSV: the problem's rows plus an `offset` column.
pub fn write_plan(problem: &Problem, offsets: &[u64]) -> String {
    let mut out = String::from("id,lower,upper,size,alignment,offset\n");
    for (i, (b, o)) in problem.buffers.iter().zip(offsets).enumerate() {
        out += &format!(
            "{},{},{},{},{},{}\n",
            i,
            b.first,
            b.last + 1,
            b.size_bytes,
            b.alignment,
            o
        );
    }
    out
}

/// A problem as MiniMalloc CSV (half-open times on the problem's own step axis).
pub fn write_problem(problem: &Problem) -> String {
    let mut out = String::from("id,lower,upper,size,alignment\n");
    for (i, b) in problem.buffers.iter().enumerate() {
        out += &format!(
            "{},{},{},{},{}\n",
            i,
            b.first,
            b.last + 1,
            b.size_bytes,
            b.alignment
        );
    }
    out
}

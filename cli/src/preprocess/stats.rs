//! The figures of a build as `preprocess` and `info` print them: table
//! columns and rows of [`BuildStats`], the per-unit-size table, their JSON,
//! and a plain text table.

use super::ms;
use std::io::Write;
use tierpath::{BuildStats, TOTAL_STAGE};

/// Rounds to three decimals (for JSON).
pub fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// The stage names to give a column each (all but the total), in order of
/// first appearance.
pub fn stage_columns<'a>(stats: impl Iterator<Item = &'a BuildStats>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for s in stats {
        for st in &s.stages {
            if st.name != TOTAL_STAGE && !names.contains(&st.name) {
                names.push(st.name.clone());
            }
        }
    }
    names
}

/// Table headers for [`stats_row`].
pub fn headers(stage_names: &[String]) -> Vec<String> {
    let mut h = vec![
        "map".to_string(),
        "size".to_string(),
        "build ms".to_string(),
    ];
    h.extend(stage_names.iter().map(|s| format!("{s} ms")));
    h.extend(
        [
            "islands",
            "dead end",
            "clusters",
            "nodes",
            "edges (intra+inter)",
            "memory B",
            "B/cell",
            "file B",
        ]
        .map(String::from),
    );
    h
}

fn stage_ms(stats: &BuildStats, name: &str) -> Option<f64> {
    stats
        .stages
        .iter()
        .find(|s| s.name == name)
        .map(|s| ms(s.seconds))
}

/// One table row for a map's statistics.
pub fn stats_row(
    name: &str,
    s: &BuildStats,
    stage_names: &[String],
    file_bytes: Option<u64>,
) -> Vec<String> {
    let mut row = vec![
        name.to_string(),
        format!("{}x{}", s.width, s.height),
        format!("{:.2}", ms(s.total_seconds())),
    ];
    row.extend(
        stage_names
            .iter()
            .map(|n| stage_ms(s, n).map_or("-".to_string(), |v| format!("{v:.2}"))),
    );
    row.extend([
        s.islands.to_string(),
        format!("{:.1}%", 100.0 * s.dead_end_share()),
        s.clusters.to_string(),
        s.nodes.to_string(),
        format!(
            "{} ({}+{})",
            s.intra_edges + s.inter_edges,
            s.intra_edges,
            s.inter_edges
        ),
        s.memory_bytes.to_string(),
        format!("{:.2}", s.bytes_per_cell()),
        file_bytes.map_or("-".to_string(), |b| b.to_string()),
    ]);
    row
}

/// A map's statistics as JSON.
pub fn stats_json(s: &BuildStats) -> serde_json::Map<String, serde_json::Value> {
    let stages: Vec<serde_json::Value> = s
        .stages
        .iter()
        .map(|st| {
            serde_json::json!({"name": st.name, "ms": round3(ms(st.seconds)), "bytes": st.bytes})
        })
        .collect();
    let v = serde_json::json!({
        "width": s.width,
        "height": s.height,
        "passable_cells": s.passable_cells,
        "build_ms": round3(ms(s.total_seconds())),
        "stages": stages,
        "islands": s.islands,
        "dead_end_cells": s.dead_end_cells,
        "dead_end_share": s.dead_end_share(),
        "articulation_cells": s.articulation_cells,
        "clusters": s.clusters,
        "entrances": s.entrances,
        "nodes": s.nodes,
        "intra_edges": s.intra_edges,
        "inter_edges": s.inter_edges,
        "edges": s.intra_edges + s.inter_edges,
        "memory_bytes": s.memory_bytes,
        "bytes_per_cell": s.bytes_per_cell(),
        "max_unit_size": s.per_size.len(),
        "per_size": s.per_size.iter().map(|c| serde_json::json!({
            "size": c.size,
            "cells": c.cells,
            "components": c.components,
            "nodes": c.nodes,
            "edges": c.edges,
        })).collect::<Vec<_>>(),
    });
    match v {
        serde_json::Value::Object(m) => m,
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// For each unit size a hierarchy serves: the cells a unit of that size fits
/// on, its components (islands), and the nodes and edges of the cluster
/// graph its queries use.
pub fn per_size_table(s: &BuildStats) -> Table {
    let headers = ["unit size", "fits on cells", "components", "nodes", "edges"];
    let mut table = Table::new(headers.map(String::from).to_vec());
    let edges = s.intra_edges + s.inter_edges;
    for c in &s.per_size {
        table.row(vec![
            format!("{0}x{0}", c.size),
            c.cells.to_string(),
            c.components.to_string(),
            format!("{} of {}", c.nodes, s.nodes),
            format!("{} of {edges}", c.edges),
        ]);
    }
    table
}

/// A plain text table: the first column left-aligned, the others right-aligned.
pub struct Table {
    headers: Vec<String>,
    rows: Vec<Option<Vec<String>>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new(headers: Vec<String>) -> Table {
        Table {
            headers,
            rows: Vec::new(),
        }
    }

    /// Adds a row (shorter rows leave their last columns empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(Some(cells));
    }

    /// Adds a rule line.
    pub fn separator(&mut self) {
        self.rows.push(None);
    }

    /// Writes the table.
    pub fn print(&self, out: &mut impl Write) -> std::io::Result<()> {
        let cols = self.headers.len();
        let mut width: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in self.rows.iter().flatten() {
            // A short row (a failure) spans the columns: do not widen them.
            if row.len() == cols {
                for (w, c) in width.iter_mut().zip(row) {
                    *w = (*w).max(c.chars().count());
                }
            } else if let Some(first) = row.first() {
                width[0] = width[0].max(first.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                let w = width.get(i).copied().unwrap_or(0);
                if i == 0 || cells.len() != cols {
                    s.push_str(&format!("{c:<w$}"));
                } else {
                    s.push_str(&format!("{c:>w$}"));
                }
            }
            s.trim_end().to_string()
        };
        writeln!(out, "{}", line(&self.headers))?;
        let total: usize = width.iter().sum::<usize>() + 2 * cols.saturating_sub(1);
        for row in &self.rows {
            match row {
                Some(cells) => writeln!(out, "{}", line(cells))?,
                None => writeln!(out, "{}", "-".repeat(total))?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns() {
        let mut t = Table::new(vec!["map".into(), "n".into()]);
        t.row(vec!["a".into(), "1".into()]);
        t.row(vec!["long name".into(), "1234".into()]);
        t.separator();
        t.row(vec!["failed one".into()]);
        let mut out = Vec::new();
        t.print(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "map            n");
        assert_eq!(lines[1], "a              1");
        assert_eq!(lines[2], "long name   1234");
        assert_eq!(lines[4], "failed one");
    }
}

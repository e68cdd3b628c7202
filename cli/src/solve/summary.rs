//! The summary `tierpath solve` prints (and its JSON line): times,
//! optimality, expansions and the `--compare` figures.

use super::{Args, Comparison, Tally};
use crate::unit::Footprint;
use std::io::Write;
use std::time::Duration;
use tierpath::{Grid, Hierarchy};

/// The `p`-th percentile (nearest rank) of sorted durations, in microseconds.
fn percentile_us(sorted: &[Duration], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(crate::micros(sorted[rank - 1]))
}

/// The `p`-th percentile (nearest rank) of unsorted values.
fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    let rank = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
    Some(v[rank - 1])
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Rounds to 3 decimals (nanosecond resolution for microseconds: plenty, and
/// it keeps the JSON short).
fn round3(v: f64) -> f64 {
    (v * 1e3).round() / 1e3
}

/// Median, 95th percentile (microseconds) and total (milliseconds) of times.
fn time_stats(times: &[Duration]) -> (Option<f64>, Option<f64>, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    (
        percentile_us(&sorted, 0.5).map(round3),
        percentile_us(&sorted, 0.95).map(round3),
        round3(sorted.iter().sum::<Duration>().as_secs_f64() * 1e3),
    )
}

fn opt(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(v) => format!("{v:.digits$}"),
        None => "-".to_string(),
    }
}

pub(super) struct Summary<'a> {
    pub(super) args: &'a Args,
    pub(super) grid: &'a Grid,
    pub(super) scenario_queries: usize,
    pub(super) algo: &'a str,
    pub(super) setup: Duration,
    pub(super) hierarchy: Option<&'a Hierarchy>,
    pub(super) unit: &'a Footprint,
    pub(super) tally: &'a Tally,
    pub(super) comparison: Option<&'a Comparison>,
}

impl Summary<'_> {
    /// What the setup time measured.
    fn setup_kind(&self) -> &'static str {
        match (self.hierarchy, &self.args.hierarchy) {
            (Some(_), Some(_)) => "load",
            (Some(_), None) => "build",
            (None, _) => "none",
        }
    }

    pub(super) fn print(&self, out: &mut impl Write) -> std::io::Result<()> {
        let t = self.tally;
        let (median, p95, total_ms) = time_stats(&t.times);
        let searched = t.times.len();
        let mean_ratio = mean(&t.ratios);
        let p95_ratio = percentile(&t.ratios, 0.95);
        let max_ratio = t.ratios.iter().copied().reduce(f64::max);
        let per_query = |n: u64| (searched > 0).then(|| n as f64 / searched as f64);
        let mean_expanded = per_query(t.expanded);
        let setup_ms = round3(self.setup.as_secs_f64() * 1e3);

        let size = self.unit.size();
        writeln!(
            out,
            "map         {} ({}x{}, {} passable cells{})",
            self.args.map.display(),
            self.grid.width(),
            self.grid.height(),
            self.grid.passable_count(),
            match size {
                1 => String::new(),
                k => format!(", {} fit a {k}x{k} unit", self.unit.cells(self.grid)),
            }
        )?;
        writeln!(
            out,
            "scenario    {} ({} queries, buckets {}: {} selected)",
            self.args.scen.display(),
            self.scenario_queries,
            self.args.buckets,
            t.queries
        )?;
        match self.setup_kind() {
            "none" => writeln!(out, "algorithm   {} (setup {setup_ms:.2} ms)", self.algo)?,
            "load" => writeln!(
                out,
                "algorithm   {} (setup {setup_ms:.2} ms: hierarchy loaded from {})",
                self.algo,
                self.args
                    .hierarchy
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            )?,
            _ => writeln!(
                out,
                "algorithm   {} (setup {setup_ms:.2} ms: hierarchy built)",
                self.algo
            )?,
        }
        if let Some(h) = self.hierarchy {
            let s = h.stats();
            writeln!(
                out,
                "hierarchy   sizes 1..={}, cluster {}, {} clusters, {} nodes, {} edges ({} intra \
                 + {} inter), {}; {} bytes ({:.2} bytes/cell)",
                h.max_unit_size(),
                h.settings().cluster_size,
                s.clusters,
                s.nodes,
                s.intra_edges + s.inter_edges,
                s.intra_edges,
                s.inter_edges,
                crate::count(s.islands, "island", "islands"),
                s.memory_bytes,
                s.bytes_per_cell()
            )?;
        }
        writeln!(
            out,
            "queries     {}: {} solved, {} unreachable, {} errors, {} invalid{}",
            t.queries,
            t.solved,
            t.unreachable,
            t.errors,
            t.invalid,
            if t.blocked > 0 {
                format!(
                    "; {} skipped ({}{})",
                    t.blocked,
                    self.unit.misfit_reason(),
                    if self.args.strict {
                        ": an error with --strict"
                    } else {
                        ""
                    }
                )
            } else {
                String::new()
            }
        )?;
        if t.reachability_mismatch > 0 || t.shorter > 0 {
            writeln!(
                out,
                "WRONG       {} answers disagree with the scenario on reachability, {} paths \
                 are shorter than its optimum",
                t.reachability_mismatch, t.shorter
            )?;
        }
        writeln!(
            out,
            "time        median {} us, p95 {} us, total {:.3} ms",
            opt(median, 2),
            opt(p95, 2),
            total_ms
        )?;
        if size > 1 {
            writeln!(
                out,
                "optimality  the scenario's optima are for single cells: each path is checked \
                 not to be shorter; --compare measures cost against exact A* for the size"
            )?;
        } else {
            writeln!(
                out,
                "optimality  cost/optimal mean {}, p95 {}, max {}; {} not optimal{}",
                opt(mean_ratio, 6),
                opt(p95_ratio, 6),
                opt(max_ratio, 6),
                t.not_optimal,
                if t.judged_exact > 0 {
                    format!(
                        " ({} judged against exact A*: their optimum is printed too coarsely to \
                     tell)",
                        t.judged_exact
                    )
                } else {
                    String::new()
                }
            )?;
        }
        writeln!(
            out,
            "expanded    mean {} nodes per query",
            opt(mean_expanded, 1)
        )?;
        if let Some(l) = &t.levels {
            writeln!(
                out,
                "levels      mean {} abstract + {} fine; {} near, {} hierarchical, {} fallback, \
                 {} unreachable",
                opt(per_query(l.abstract_expanded), 1),
                opt(per_query(l.fine_expanded), 1),
                l.near,
                l.hierarchical,
                l.fallback,
                l.unreachable
            )?;
        }
        let mut compare_json = serde_json::Value::Null;
        let mut speedup = None;
        if let Some(c) = self.comparison {
            let (c_median, c_p95, c_total) = time_stats(&c.times);
            speedup = c_median.zip(median).map(|(a, b)| a / b.max(1e-3));
            let speedup_total = (total_ms > 0.0).then(|| c_total / total_ms);
            let c_expanded =
                (!c.times.is_empty()).then(|| c.expanded as f64 / c.times.len() as f64);
            let (r_mean, r_p95, r_max) = (
                mean(&c.ratios),
                percentile(&c.ratios, 0.95),
                c.ratios.iter().copied().reduce(f64::max),
            );
            writeln!(
                out,
                "compare     astar median {} us, p95 {} us, total {c_total:.3} ms; mean {} nodes \
                 expanded",
                opt(c_median, 2),
                opt(c_p95, 2),
                opt(c_expanded, 1)
            )?;
            writeln!(
                out,
                "speedup     {}x (median astar / median {}), {}x in total",
                opt(speedup, 1),
                self.algo,
                opt(speedup_total, 1)
            )?;
            writeln!(
                out,
                "vs astar    cost/exact mean {}, p95 {}, max {}; {} reachability disagreements, \
                 {} cheaper than exact",
                opt(r_mean, 6),
                opt(r_p95, 6),
                opt(r_max, 6),
                c.reachability_disagreements,
                c.cheaper_than_exact
            )?;
            compare_json = serde_json::json!({
                "algo": "astar",
                "median_us": c_median,
                "p95_us": c_p95,
                "total_ms": c_total,
                "mean_expanded": c_expanded,
                "speedup_median": speedup,
                "speedup_total": speedup_total,
                "mean_cost_ratio": r_mean,
                "p95_cost_ratio": r_p95,
                "max_cost_ratio": r_max,
                "reachability_disagreements": c.reachability_disagreements,
                "cheaper_than_exact": c.cheaper_than_exact,
            });
        }
        if self.args.json {
            let mut json = serde_json::json!({
                "map": self.args.map.display().to_string(),
                "scenario": self.args.scen.display().to_string(),
                "algo": self.algo,
                "size": size,
                "unit_cells": self.unit.cells(self.grid),
                "buckets": self.args.buckets.to_string(),
                "width": self.grid.width(),
                "height": self.grid.height(),
                "scenario_queries": self.scenario_queries,
                "queries": t.queries,
                "solved": t.solved,
                "unreachable": t.unreachable,
                "expected_unreachable": t.expected_unreachable,
                "reachability_mismatch": t.reachability_mismatch,
                "errors": t.errors,
                "invalid": t.invalid,
                "median_us": median,
                "p95_us": p95,
                "total_ms": total_ms,
                "setup": self.setup_kind(),
                "setup_ms": setup_ms,
                "mean_ratio": mean_ratio,
                "p95_ratio": p95_ratio,
                "max_ratio": max_ratio,
                "not_optimal": t.not_optimal,
                "shorter_than_optimal": t.shorter,
                "blocked_skipped": t.blocked,
                "judged_against_exact": t.judged_exact,
                "mean_expanded": mean_expanded,
            });
            let map = json.as_object_mut().expect("an object");
            if let Some(l) = &t.levels {
                map.insert(
                    "mean_abstract_expanded".into(),
                    per_query(l.abstract_expanded).into(),
                );
                map.insert(
                    "mean_fine_expanded".into(),
                    per_query(l.fine_expanded).into(),
                );
                map.insert(
                    "methods".into(),
                    serde_json::json!({
                        "near": l.near,
                        "hierarchical": l.hierarchical,
                        "fallback": l.fallback,
                        "unreachable": l.unreachable,
                    }),
                );
            }
            if let Some(h) = self.hierarchy {
                let s = h.stats();
                map.insert(
                    "hierarchy".into(),
                    serde_json::json!({
                        "file": self.args.hierarchy.as_ref().map(|p| p.display().to_string()),
                        "max_unit_size": h.max_unit_size(),
                        "cluster_size": h.settings().cluster_size,
                        "landmarks": h.settings().landmarks,
                        "keep_paths": h.settings().keep_paths,
                        "clusters": s.clusters,
                        "nodes": s.nodes,
                        "edges": s.intra_edges + s.inter_edges,
                        "intra_edges": s.intra_edges,
                        "inter_edges": s.inter_edges,
                        "islands": s.islands,
                        "memory_bytes": s.memory_bytes,
                        "bytes_per_cell": round3(s.bytes_per_cell()),
                    }),
                );
            }
            if self.comparison.is_some() {
                map.insert("speedup_median".into(), speedup.into());
                map.insert("compare".into(), compare_json);
            }
            writeln!(out, "{json}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let d: Vec<Duration> = (1..=100).map(Duration::from_micros).collect();
        assert_eq!(percentile_us(&d, 0.5), Some(50.0));
        assert_eq!(percentile_us(&d, 0.95), Some(95.0));
        assert_eq!(percentile_us(&d[..1], 0.95), Some(1.0));
        assert_eq!(percentile_us(&[], 0.5), None);
        let v: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        assert_eq!(percentile(&v, 0.95), Some(95.0));
        assert_eq!(percentile(&[], 0.95), None);
    }
}

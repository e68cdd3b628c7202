//! The figures `tierpath bench` prints and writes: per-group summaries, the
//! text tables, JSON and CSV, and the machine it ran on.

use super::map::{Answer, MapRun, Solved};
use serde_json::{Value, json};
use std::fmt::Write as _;
use tierpath::Method;

/// The name of exact jump point search among the planners.
const JPS: &str = "jps";

/// Figures of one planner over a group of queries.
#[derive(Debug, Clone, Default)]
struct PlannerSummary {
    name: String,
    median_us: f64,
    p95_us: f64,
    mean_us: f64,
    /// Flat A*'s median time over this planner's.
    speedup: f64,
    /// Median over queries of flat A*'s time over this planner's.
    ratio_median: f64,
    /// JPS's median time over this planner's (`None` without a JPS run).
    vs_jps: Option<f64>,
    /// JPS's total (mean) time over this planner's, the ratio of the time
    /// the whole query set takes (`None` without a JPS run).
    vs_jps_total: Option<f64>,
    /// Cost over flat A*'s exact cost, minus one, in percent.
    subopt_mean: f64,
    subopt_p95: f64,
    subopt_max: f64,
    /// Queries whose cost exceeds the exact one (relative 1e-9).
    suboptimal: usize,
    expanded_mean: f64,
}

/// Figures of a group of maps (one map, a set, or everything).
#[derive(Debug, Clone, Default)]
pub(super) struct Summary {
    scope: &'static str,
    set: String,
    map: String,
    maps: usize,
    selected: usize,
    queries: usize,
    unreachable: usize,
    /// Selected queries skipped for a blocked start or goal.
    blocked: usize,
    planners: Vec<PlannerSummary>,
    abstract_expanded_mean: f64,
    fine_expanded_mean: f64,
    /// The hierarchy's first move (a plan and its first piece): median and
    /// p95 over the queries, microseconds.
    first_move_median_us: f64,
    first_move_p95_us: f64,
    near: usize,
    hierarchical: usize,
    fallback: usize,
    build_ms_median: f64,
    build_ms_max: f64,
    /// The contraction's part of the build (`--contract`): median and
    /// maximum over the maps, or `None` when not contracted.
    contract_ms: Option<(f64, f64)>,
    load_ms_median: f64,
    bytes_per_cell_median: f64,
    bytes_per_cell_max: f64,
    /// Largest hierarchy in memory, bytes (excluding the grid).
    memory_bytes_max: u64,
    /// Map size (maps only).
    size: Option<(u32, u32)>,
}

/// The median of sorted values (mean of the middle two when even); 0 when empty.
fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The nearest-rank `p` percentile of sorted values; 0 when empty.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn sorted(mut xs: Vec<f64>) -> Vec<f64> {
    xs.sort_by(f64::total_cmp);
    xs
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// The figures of a group of map runs.
pub(super) fn summarise(planners: &[String], runs: &[MapRun], scope: &'static str) -> Summary {
    let solved: Vec<&Solved> = runs.iter().flat_map(|r| r.solved.iter()).collect();
    let one = |f: &dyn Fn(&MapRun) -> String| -> String {
        match runs {
            [] => String::new(),
            [r, rest @ ..] if rest.iter().all(|x| f(x) == f(r)) => f(r),
            _ => "*".to_string(),
        }
    };
    let mut s = Summary {
        scope,
        set: one(&|r| r.set.clone()),
        map: if scope == "map" {
            one(&|r| r.name.clone())
        } else {
            String::new()
        },
        maps: runs.len(),
        selected: runs.iter().map(|r| r.selected).sum(),
        queries: solved.len(),
        unreachable: runs.iter().map(|r| r.unreachable).sum(),
        blocked: runs.iter().map(|r| r.blocked).sum(),
        ..Summary::default()
    };
    if scope == "overall" {
        s.set = "all".to_string();
    }
    let flat_times = sorted(solved.iter().map(|q| q.answers[0].micros).collect());
    let flat_median = median(&flat_times);
    let jps_times = planners
        .iter()
        .position(|p| p == JPS)
        .map(|k| sorted(solved.iter().map(|q| q.answers[k].micros).collect()));
    let jps_median = jps_times.as_deref().map(median);
    let jps_mean = jps_times.as_deref().map(mean);
    for (k, name) in planners.iter().enumerate() {
        let times = sorted(solved.iter().map(|q| q.answers[k].micros).collect());
        let ratios = sorted(
            solved
                .iter()
                .map(|q| q.answers[0].micros / q.answers[k].micros.max(1e-3))
                .collect(),
        );
        let subopt: Vec<f64> = solved
            .iter()
            .map(|q| {
                let (a, e) = (q.answers[k].steps, q.answers[0].steps);
                match (a, e) {
                    (Some(a), Some(e)) if e > 0.0 => (a / e - 1.0) * 100.0,
                    _ => 0.0,
                }
            })
            .collect();
        let suboptimal = solved
            .iter()
            .filter(|q| q.answers[k].cost > q.answers[0].cost)
            .count();
        let subopt_sorted = sorted(subopt.clone());
        let median_us = median(&times);
        let mean_us = mean(&times);
        s.planners.push(PlannerSummary {
            name: name.clone(),
            median_us,
            p95_us: percentile(&times, 0.95),
            mean_us,
            speedup: if median_us > 0.0 {
                flat_median / median_us
            } else {
                0.0
            },
            ratio_median: median(&ratios),
            vs_jps: jps_median
                .filter(|_| median_us > 0.0)
                .map(|j| j / median_us),
            vs_jps_total: jps_mean.filter(|_| mean_us > 0.0).map(|j| j / mean_us),
            subopt_mean: mean(&subopt),
            subopt_p95: percentile(&subopt_sorted, 0.95),
            subopt_max: subopt_sorted.last().copied().unwrap_or(0.0),
            suboptimal,
            expanded_mean: mean(
                &solved
                    .iter()
                    .map(|q| q.answers[k].expanded as f64)
                    .collect::<Vec<_>>(),
            ),
        });
    }
    let hpa: Vec<&Answer> = solved.iter().map(|q| &q.answers[1]).collect();
    s.abstract_expanded_mean = mean(
        &hpa.iter()
            .map(|a| a.abstract_expanded as f64)
            .collect::<Vec<_>>(),
    );
    s.fine_expanded_mean = mean(
        &hpa.iter()
            .map(|a| a.fine_expanded as f64)
            .collect::<Vec<_>>(),
    );
    let first = sorted(hpa.iter().filter_map(|a| a.first_micros).collect());
    s.first_move_median_us = median(&first);
    s.first_move_p95_us = percentile(&first, 0.95);
    for a in &hpa {
        match a.method {
            Some(Method::Near) => s.near += 1,
            Some(Method::Hierarchical) => s.hierarchical += 1,
            Some(Method::Fallback) => s.fallback += 1,
            _ => {}
        }
    }
    let build = sorted(runs.iter().map(|r| r.build_ms).collect());
    let load = sorted(runs.iter().map(|r| r.load_ms).collect());
    let bpc = sorted(runs.iter().map(|r| r.bytes_per_cell).collect());
    s.build_ms_median = median(&build);
    s.build_ms_max = build.last().copied().unwrap_or(0.0);
    let contract = sorted(runs.iter().filter_map(|r| r.contract_ms).collect());
    s.contract_ms = (!contract.is_empty())
        .then(|| (median(&contract), contract.last().copied().unwrap_or(0.0)));
    s.load_ms_median = median(&load);
    s.bytes_per_cell_median = median(&bpc);
    s.bytes_per_cell_max = bpc.last().copied().unwrap_or(0.0);
    s.memory_bytes_max = runs.iter().map(|r| r.memory_bytes).max().unwrap_or(0);
    if let [r] = runs {
        s.size = Some((r.width, r.height));
    }
    s
}

/// A plain text table: a header row, then right-aligned columns (the first
/// two left-aligned).
fn table(head: &[&str], rows: &[Vec<String>], left: usize) -> String {
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let mut out = String::new();
        for (i, (c, w)) in cells.iter().zip(&width).enumerate() {
            if i > 0 {
                out.push_str("  ");
            }
            if i < left {
                let _ = write!(out, "{c:<w$}");
            } else {
                let _ = write!(out, "{c:>w$}");
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(head.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

fn fmt_us(x: f64) -> String {
    // The table shows the figure the JSON reports (rounded to 3 decimals), so
    // the two never disagree at a rounding boundary.
    let x = round(x, 3);
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn pct(x: f64) -> String {
    format!("{x:.3}%")
}

/// The query time and quality table: one row per set and planner.
pub(super) fn time_table(rows: &[&Summary]) -> String {
    let head = [
        "set",
        "planner",
        "maps",
        "queries",
        "unreach",
        "blocked",
        "median us",
        "p95 us",
        "mean us",
        "speedup",
        "q-ratio",
        "vs jps",
        "total",
        "subopt mean",
        "p95",
        "max",
        "expanded",
    ];
    let mut body = Vec::new();
    for s in rows {
        for p in &s.planners {
            body.push(vec![
                s.set.clone(),
                p.name.clone(),
                s.maps.to_string(),
                s.queries.to_string(),
                s.unreachable.to_string(),
                s.blocked.to_string(),
                fmt_us(p.median_us),
                fmt_us(p.p95_us),
                fmt_us(p.mean_us),
                format!("{:.1}x", p.speedup),
                format!("{:.1}x", p.ratio_median),
                p.vs_jps
                    .map_or_else(|| "-".to_string(), |r| format!("{r:.2}x")),
                p.vs_jps_total
                    .map_or_else(|| "-".to_string(), |r| format!("{r:.2}x")),
                pct(p.subopt_mean),
                pct(p.subopt_p95),
                pct(p.subopt_max),
                format!("{:.0}", p.expanded_mean),
            ]);
        }
    }
    format!("query time and quality\n{}", table(&head, &body, 2))
}

/// The hierarchy table: one row per set.
pub(super) fn hierarchy_table(rows: &[&Summary]) -> String {
    let head = [
        "set",
        "maps",
        "build ms med",
        "build ms max",
        "of which contract ms med",
        "load ms med",
        "bytes/cell med",
        "bytes/cell max",
        "hpa abstract exp",
        "hpa fine exp",
        "first move med us",
        "first move p95 us",
        "near",
        "hierarchical",
        "fallback",
    ];
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|s| {
            vec![
                s.set.clone(),
                s.maps.to_string(),
                format!("{:.1}", s.build_ms_median),
                format!("{:.1}", s.build_ms_max),
                s.contract_ms
                    .map_or_else(|| "-".to_string(), |(m, _)| format!("{m:.1}")),
                format!("{:.2}", s.load_ms_median),
                format!("{:.2}", s.bytes_per_cell_median),
                format!("{:.2}", s.bytes_per_cell_max),
                format!("{:.0}", s.abstract_expanded_mean),
                format!("{:.0}", s.fine_expanded_mean),
                fmt_us(s.first_move_median_us),
                fmt_us(s.first_move_p95_us),
                s.near.to_string(),
                s.hierarchical.to_string(),
                s.fallback.to_string(),
            ]
        })
        .collect();
    format!("hierarchy (build on all cores)\n{}", table(&head, &body, 1))
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

pub(super) fn summary_json(s: &Summary) -> Value {
    let planners: serde_json::Map<String, Value> = s
        .planners
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                json!({
                    "median_us": round(p.median_us, 3),
                    "p95_us": round(p.p95_us, 3),
                    "mean_us": round(p.mean_us, 3),
                    "speedup": round(p.speedup, 3),
                    "query_ratio_median": round(p.ratio_median, 3),
                    "vs_jps": p.vs_jps.map(|r| round(r, 3)),
                    "vs_jps_total": p.vs_jps_total.map(|r| round(r, 3)),
                    "subopt_mean_pct": round(p.subopt_mean, 5),
                    "subopt_p95_pct": round(p.subopt_p95, 5),
                    "subopt_max_pct": round(p.subopt_max, 5),
                    "suboptimal_queries": p.suboptimal,
                    "expanded_mean": round(p.expanded_mean, 2),
                }),
            )
        })
        .collect();
    let mut v = json!({
        "scope": s.scope,
        "set": s.set,
        "maps": s.maps,
        "selected": s.selected,
        "queries": s.queries,
        "unreachable": s.unreachable,
        "blocked_skipped": s.blocked,
        "planners": planners,
        "hpa_abstract_expanded_mean": round(s.abstract_expanded_mean, 2),
        "hpa_fine_expanded_mean": round(s.fine_expanded_mean, 2),
        "hpa_first_move_median_us": round(s.first_move_median_us, 3),
        "hpa_first_move_p95_us": round(s.first_move_p95_us, 3),
        "hpa_methods": {"near": s.near, "hierarchical": s.hierarchical, "fallback": s.fallback},
        "build_ms_median": round(s.build_ms_median, 3),
        "build_ms_max": round(s.build_ms_max, 3),
        "contract_ms_median": s.contract_ms.map(|(m, _)| round(m, 3)),
        "contract_ms_max": s.contract_ms.map(|(_, m)| round(m, 3)),
        "load_ms_median": round(s.load_ms_median, 3),
        "bytes_per_cell_median": round(s.bytes_per_cell_median, 3),
        "bytes_per_cell_max": round(s.bytes_per_cell_max, 3),
        "memory_bytes_max": s.memory_bytes_max,
    });
    if s.scope == "map" {
        v["map"] = json!(s.map);
        if let Some((w, h)) = s.size {
            v["width"] = json!(w);
            v["height"] = json!(h);
        }
    }
    v
}

/// The CSV: one row per summary, planner columns prefixed by the planner.
pub(super) fn csv(planners: &[String], rows: &[&Summary]) -> String {
    let mut head: Vec<String> = [
        "scope",
        "set",
        "map",
        "width",
        "height",
        "maps",
        "selected",
        "queries",
        "unreachable",
        "blocked_skipped",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in planners {
        for c in [
            "median_us",
            "p95_us",
            "mean_us",
            "speedup",
            "query_ratio_median",
            "vs_jps",
            "vs_jps_total",
            "subopt_mean_pct",
            "subopt_p95_pct",
            "subopt_max_pct",
            "suboptimal_queries",
            "expanded_mean",
        ] {
            head.push(format!("{p}_{c}"));
        }
    }
    head.extend(
        [
            "hpa_abstract_expanded_mean",
            "hpa_fine_expanded_mean",
            "hpa_first_move_median_us",
            "hpa_first_move_p95_us",
            "hpa_near",
            "hpa_hierarchical",
            "hpa_fallback",
            "build_ms_median",
            "build_ms_max",
            "contract_ms_median",
            "contract_ms_max",
            "load_ms_median",
            "bytes_per_cell_median",
            "bytes_per_cell_max",
            "memory_bytes_max",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let mut out = head.join(",") + "\n";
    for s in rows {
        let mut cells: Vec<String> = vec![
            s.scope.to_string(),
            csv_text(&s.set),
            csv_text(&s.map),
            s.size.map_or_else(String::new, |(w, _)| w.to_string()),
            s.size.map_or_else(String::new, |(_, h)| h.to_string()),
            s.maps.to_string(),
            s.selected.to_string(),
            s.queries.to_string(),
            s.unreachable.to_string(),
            s.blocked.to_string(),
        ];
        for p in &s.planners {
            cells.extend([
                format!("{:.3}", p.median_us),
                format!("{:.3}", p.p95_us),
                format!("{:.3}", p.mean_us),
                format!("{:.3}", p.speedup),
                format!("{:.3}", p.ratio_median),
                p.vs_jps.map_or_else(String::new, |r| format!("{r:.3}")),
                p.vs_jps_total
                    .map_or_else(String::new, |r| format!("{r:.3}")),
                format!("{:.5}", p.subopt_mean),
                format!("{:.5}", p.subopt_p95),
                format!("{:.5}", p.subopt_max),
                p.suboptimal.to_string(),
                format!("{:.2}", p.expanded_mean),
            ]);
        }
        cells.extend([
            format!("{:.2}", s.abstract_expanded_mean),
            format!("{:.2}", s.fine_expanded_mean),
            format!("{:.3}", s.first_move_median_us),
            format!("{:.3}", s.first_move_p95_us),
            s.near.to_string(),
            s.hierarchical.to_string(),
            s.fallback.to_string(),
            format!("{:.3}", s.build_ms_median),
            format!("{:.3}", s.build_ms_max),
            s.contract_ms
                .map_or_else(String::new, |(m, _)| format!("{m:.3}")),
            s.contract_ms
                .map_or_else(String::new, |(_, m)| format!("{m:.3}")),
            format!("{:.3}", s.load_ms_median),
            format!("{:.3}", s.bytes_per_cell_median),
            format!("{:.3}", s.bytes_per_cell_max),
            s.memory_bytes_max.to_string(),
        ]);
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Quotes a CSV field when needed.
fn csv_text(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// What the benchmark ran on.
pub(super) struct Machine {
    pub(super) cores: usize,
    pub(super) cpu: String,
    /// The one-minute load average (Linux), a hint of other work competing
    /// for the cores.
    pub(super) load: Option<f64>,
}

impl Machine {
    pub(super) fn detect() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| format!("{} CPU (model unknown)", std::env::consts::ARCH));
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|t| t.split_whitespace().next().and_then(|v| v.parse().ok()));
        Machine { cores, cpu, load }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_csv_quoting() {
        let xs = sorted(vec![5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!(median(&xs), 3.0);
        assert_eq!(median(&[1.0, 2.0]), 1.5);
        assert_eq!(percentile(&xs, 0.95), 5.0);
        assert_eq!(percentile(&xs, 0.5), 3.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(csv_text("a,b"), "\"a,b\"");
        assert_eq!(csv_text("ab"), "ab");
    }
}

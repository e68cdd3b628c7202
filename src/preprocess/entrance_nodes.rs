//! Nodes and links of stage 3 from the transition cell pairs its borders
//! give: the distinct cells grouped by cluster, and the links between them,
//! both sorted and without repeats.
//!
//! # Performance
//! Counting sorts by cluster and by node, then each cluster's (each node's)
//! few entries sorted: on a 16,384 x 16,384 map, 33 million pair ends are
//! grouped without a sort over all of them, and a cell's node is found by a
//! search within its cluster.

use super::clusters::{ClusterLayout, Entrances};
use crate::grid::{Grid, Point};

impl Entrances {
    /// Nodes and links from transition cell pairs (in any order, repeats
    /// allowed).
    pub(crate) fn from_pairs(
        grid: &Grid,
        layout: ClusterLayout,
        pairs: &[(u32, u32)],
        entrances: u64,
    ) -> Entrances {
        // Nodes: the distinct transition cells, grouped by cluster, sorted
        // within (a counting sort by cluster, then each cluster's few cells
        // sorted: no sort over all of them, no search beyond one cluster).
        let cluster_of_cell =
            |c: u32| layout.cluster_of(Point::new(c % grid.width(), c / grid.width()));
        let mut cluster_first = vec![0u32; layout.count() + 1];
        for (a, b) in pairs {
            cluster_first[cluster_of_cell(*a) as usize + 1] += 1;
            cluster_first[cluster_of_cell(*b) as usize + 1] += 1;
        }
        for i in 0..layout.count() {
            cluster_first[i + 1] += cluster_first[i];
        }
        let mut cells = vec![0u32; cluster_first[layout.count()] as usize];
        {
            let mut fill: Vec<u32> = cluster_first[..layout.count()].to_vec();
            for c in pairs.iter().flat_map(|(a, b)| [*a, *b]) {
                let slot = &mut fill[cluster_of_cell(c) as usize];
                cells[*slot as usize] = c;
                *slot += 1;
            }
        }
        // Each cluster's cells sorted and deduplicated, moved down in place.
        let mut kept = 0usize;
        for k in 0..layout.count() {
            let (a, b) = (cluster_first[k] as usize, cluster_first[k + 1] as usize);
            cells[a..b].sort_unstable();
            cluster_first[k] = kept as u32;
            for i in a..b {
                if i == a || cells[i] != cells[i - 1] {
                    cells[kept] = cells[i];
                    kept += 1;
                }
            }
        }
        cluster_first[layout.count()] = kept as u32;
        cells.truncate(kept);
        cells.shrink_to_fit();
        let index_of = |c: u32| -> u32 {
            let k = cluster_of_cell(c) as usize;
            let first = cluster_first[k];
            let within = &cells[first as usize..cluster_first[k + 1] as usize];
            first
                + within
                    .binary_search(&c)
                    .expect("every paired cell is a node") as u32
        };
        // Links sorted and deduplicated: a counting sort by the first node,
        // then each node's few partners sorted.
        let nodes = cells.len();
        let mut link_first = vec![0u32; nodes + 1];
        let ends: Vec<(u32, u32)> = pairs
            .iter()
            .map(|(a, b)| (index_of(*a), index_of(*b)))
            .collect();
        for (a, _) in &ends {
            link_first[*a as usize + 1] += 1;
        }
        for i in 0..nodes {
            link_first[i + 1] += link_first[i];
        }
        let mut partner = vec![0u32; ends.len()];
        for (a, b) in &ends {
            let slot = &mut link_first[*a as usize];
            partner[*slot as usize] = *b;
            *slot += 1;
        }
        drop(ends);
        // `link_first[a]` now ends node `a`'s partners.
        let mut links: Vec<(u32, u32)> = Vec::with_capacity(partner.len());
        let mut start = 0usize;
        for (a, end) in link_first[..nodes].iter().enumerate() {
            let these = &mut partner[start..*end as usize];
            these.sort_unstable();
            for (i, b) in these.iter().enumerate() {
                if i == 0 || *b != these[i - 1] {
                    links.push((a as u32, *b));
                }
            }
            start = *end as usize;
        }
        links.shrink_to_fit();
        Entrances {
            layout,
            cells,
            cluster_first,
            links,
            entrances,
            clear: Vec::new(),
            link_clear: Vec::new(),
        }
    }

    /// The transition cells of cluster `c`.
    pub(crate) fn cluster_cells(&self, c: u32) -> &[u32] {
        &self.cells
            [self.cluster_first[c as usize] as usize..self.cluster_first[c as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Movement;
    use crate::mapgen::{self, MapKind, MapParams};
    use crate::preprocess::{EntrancePolicy, find_entrances};

    /// The former construction: one sort over all pair ends, a search over
    /// all nodes per end, one sort over all links.
    fn reference(grid: &Grid, layout: ClusterLayout, pairs: &[(u32, u32)]) -> Entrances {
        let cluster_of_cell =
            |c: u32| layout.cluster_of(Point::new(c % grid.width(), c / grid.width()));
        let mut cells: Vec<(u32, u32)> = pairs
            .iter()
            .flat_map(|(a, b)| [*a, *b])
            .map(|c| (cluster_of_cell(c), c))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        let mut cluster_first = vec![0u32; layout.count() + 1];
        for (c, _) in &cells {
            cluster_first[*c as usize + 1] += 1;
        }
        for i in 0..layout.count() {
            cluster_first[i + 1] += cluster_first[i];
        }
        let index_of = |c: u32| cells.binary_search(&(cluster_of_cell(c), c)).unwrap() as u32;
        let mut links: Vec<(u32, u32)> = pairs
            .iter()
            .map(|(a, b)| (index_of(*a), index_of(*b)))
            .collect();
        links.sort_unstable();
        links.dedup();
        Entrances {
            layout,
            cells: cells.into_iter().map(|(_, c)| c).collect(),
            cluster_first,
            links,
            entrances: 0,
            clear: Vec::new(),
            link_clear: Vec::new(),
        }
    }

    fn same(a: &Entrances, b: &Entrances) {
        assert_eq!(a.cells, b.cells);
        assert_eq!(a.cluster_first, b.cluster_first);
        assert_eq!(a.links, b.links);
    }

    #[test]
    fn random_pairs_as_the_reference() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200 {
            let (w, h) = (1 + next() % 40, 1 + next() % 40);
            let grid = Grid::new(w as u32, h as u32).unwrap();
            let layout = ClusterLayout::new(&grid, 2 + (next() % 9) as u32);
            let cells = (w * h) as u32;
            // Repeats, both orders, and pairs within one cluster too: the
            // construction must not depend on what borders give.
            let pairs: Vec<(u32, u32)> = (0..next() % 60)
                .map(|_| {
                    (
                        (next() % cells as u64) as u32,
                        (next() % cells as u64) as u32,
                    )
                })
                .filter(|(a, b)| a != b)
                .collect();
            let got = Entrances::from_pairs(&grid, layout, &pairs, 0);
            same(&got, &reference(&grid, layout, &pairs));
        }
    }

    #[test]
    fn generated_maps_as_the_reference() {
        let params = MapParams::default();
        for kind in MapKind::ALL {
            for seed in 0..3 {
                let g = mapgen::generate_with(kind, 90, 70, seed, &params).unwrap();
                for m in Movement::every_rule() {
                    for size in [4, 10, 16] {
                        let e = find_entrances(&g, &m, size, &EntrancePolicy::default());
                        // The pairs back from the links: every link is a pair.
                        let pairs: Vec<(u32, u32)> = e
                            .links
                            .iter()
                            .map(|(a, b)| (e.cells[*a as usize], e.cells[*b as usize]))
                            .collect();
                        same(&e, &reference(&g, e.layout, &pairs));
                    }
                }
            }
        }
    }
}

//! The block forest under run-time repairs: blocks by name, not by preorder.
//!
//! The cells of the map name their anchor block (`DeadEnds::cell_anchor`).
//! A build names blocks by their preorder id; a repair that adds or removes
//! blocks would then shift the ids of every later block and rewrite the
//! anchors of most of the map. So a repaired forest keeps each block's name
//! for as long as the block lives, and maps names to preorder ids through
//! `DeadEnds::block_pre`, recomputed from the tree here ([`Forest::publish`])
//! in one pass over the blocks (a few per thousand cells), never over the
//! cells. Names of removed blocks are reused.

use crate::preprocess::{DeadEnds, NO_NODE};

/// The block forest by name (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct Forest {
    /// Per name: the block above (`NO_NODE` for a core).
    pub(crate) parent: Vec<u32>,
    /// Per name: its island (`NO_NODE`: the name is free).
    pub(crate) island: Vec<u32>,
    /// Per name: its cells, articulation cells counted in every block they
    /// belong to.
    pub(crate) size: Vec<u32>,
    /// Free names.
    free: Vec<u32>,
    /// Per island: its core's name (`NO_NODE`: removed, until published).
    pub(crate) core: Vec<u32>,
    // Scratch of `publish`.
    first: Vec<u32>,
    children: Vec<u32>,
    stack: Vec<(u32, u32)>,
    new_island: Vec<u32>,
}

impl Forest {
    /// The forest of `d`, in one pass over its cells (the block sizes) and
    /// one over its blocks.
    pub(crate) fn new(d: &DeadEnds) -> Forest {
        let blocks = d.block_end.len();
        let names = if d.block_pre.is_empty() {
            blocks
        } else {
            d.block_pre.len()
        };
        let pre = |name: usize| {
            if d.block_pre.is_empty() {
                name as u32
            } else {
                d.block_pre[name]
            }
        };
        let mut name_of = vec![NO_NODE; blocks];
        for name in 0..names {
            let p = pre(name);
            if p != NO_NODE {
                name_of[p as usize] = name as u32;
            }
        }
        // Parents from the nested preorder ranges.
        let mut parent = vec![NO_NODE; names];
        let mut island = vec![NO_NODE; names];
        let mut open: Vec<u32> = Vec::new();
        for p in 0..blocks as u32 {
            while open.last().is_some_and(|t| d.block_end[*t as usize] <= p) {
                open.pop();
            }
            let name = name_of[p as usize] as usize;
            parent[name] = open.last().map_or(NO_NODE, |t| name_of[*t as usize]);
            island[name] = d.block_island[p as usize];
            open.push(p);
        }
        let mut size = vec![0u32; names];
        d.cell_anchor.count_values(&mut size);
        for (name, s) in size.iter_mut().enumerate() {
            if parent[name] != NO_NODE {
                *s += 1;
            }
        }
        let free = (0..names as u32)
            .filter(|n| island[*n as usize] == NO_NODE)
            .collect();
        let core = d.island_core.iter().map(|p| name_of[*p as usize]).collect();
        Forest {
            parent,
            island,
            size,
            free,
            core,
            ..Forest::default()
        }
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        4 * (self.parent.capacity()
            + self.island.capacity()
            + self.size.capacity()
            + self.free.capacity()
            + self.core.capacity()
            + self.first.capacity()
            + self.children.capacity()
            + self.new_island.capacity())
            + 8 * self.stack.capacity()
    }

    /// A name for a new block.
    pub(crate) fn alloc(&mut self, parent: u32, island: u32, size: u32) -> u32 {
        match self.free.pop() {
            Some(n) => {
                let i = n as usize;
                (self.parent[i], self.island[i], self.size[i]) = (parent, island, size);
                n
            }
            None => {
                self.parent.push(parent);
                self.island.push(island);
                self.size.push(size);
                self.parent.len() as u32 - 1
            }
        }
    }

    /// Frees a block's name.
    pub(crate) fn release(&mut self, name: u32) {
        let i = name as usize;
        if self.island[i] != NO_NODE {
            (self.parent[i], self.island[i], self.size[i]) = (NO_NODE, NO_NODE, 0);
            self.free.push(name);
        }
    }

    /// The largest size of a block of `island` other than `except` and
    /// those `skip` says, over every block (one pass over the names).
    pub(crate) fn largest_other(
        &self,
        island: u32,
        except: u32,
        skip: impl Fn(u32) -> bool,
    ) -> u32 {
        let mut best = 0;
        for (n, i) in self.island.iter().enumerate() {
            let n = n as u32;
            if *i == island && n != except && self.size[n as usize] > best && !skip(n) {
                best = self.size[n as usize];
            }
        }
        best
    }

    /// Writes the forest into `d`: islands numbered again without the
    /// removed ones (and `d.island_sizes` with them), blocks numbered in
    /// preorder from each core, and the name-to-preorder table. One pass
    /// over the blocks and the islands.
    pub(crate) fn publish(&mut self, d: &mut DeadEnds) {
        let names = self.parent.len();
        // Islands, removed ones dropped.
        self.new_island.clear();
        let mut sizes = Vec::with_capacity(self.core.len());
        let mut cores = Vec::with_capacity(self.core.len());
        for (i, c) in self.core.iter().enumerate() {
            if *c == NO_NODE {
                self.new_island.push(NO_NODE);
            } else {
                self.new_island.push(cores.len() as u32);
                cores.push(*c);
                sizes.push(d.island_sizes[i]);
            }
        }
        for i in self.island.iter_mut() {
            if *i != NO_NODE {
                *i = self.new_island[*i as usize];
            }
        }
        self.core = cores;
        // Children, grouped by parent.
        self.first.clear();
        self.first.resize(names + 1, 0);
        for (n, p) in self.parent.iter().enumerate() {
            if *p != NO_NODE && self.island[n] != NO_NODE {
                self.first[*p as usize + 1] += 1;
            }
        }
        for i in 0..names {
            self.first[i + 1] += self.first[i];
        }
        self.children.clear();
        self.children.resize(self.first[names] as usize, 0);
        {
            let mut fill: Vec<u32> = self.first[..names].to_vec();
            for (n, p) in self.parent.iter().enumerate() {
                if *p != NO_NODE && self.island[n] != NO_NODE {
                    self.children[fill[*p as usize] as usize] = n as u32;
                    fill[*p as usize] += 1;
                }
            }
        }
        let blocks = names - self.free.len();
        let mut pre = vec![NO_NODE; names];
        let mut block_end = vec![0u32; blocks];
        let mut block_island = vec![0u32; blocks];
        let mut island_core = Vec::with_capacity(self.core.len());
        let mut next = 0u32;
        for (island, core) in self.core.iter().enumerate() {
            island_core.push(next);
            pre[*core as usize] = next;
            block_island[next as usize] = island as u32;
            next += 1;
            self.stack.push((*core, self.first[*core as usize]));
            while let Some((v, slot)) = self.stack.last_mut() {
                let v = *v;
                if *slot < self.first[v as usize + 1] {
                    let w = self.children[*slot as usize];
                    *slot += 1;
                    pre[w as usize] = next;
                    block_island[next as usize] = island as u32;
                    next += 1;
                    self.stack.push((w, self.first[w as usize]));
                } else {
                    block_end[pre[v as usize] as usize] = next;
                    self.stack.pop();
                }
            }
        }
        debug_assert_eq!(next as usize, blocks, "every block hangs below a core");
        d.block_pre = pre;
        d.block_end = block_end;
        d.block_island = block_island;
        d.island_core = island_core;
        d.island_sizes = sizes;
    }
}

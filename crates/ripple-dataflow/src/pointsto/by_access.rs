//! Regions by access: the coarsest partition of the points-to regions that no memory
//! access tells apart.
//!
//! Under inclusion-based points-to every object is a region of its own, but a pointer
//! of a large program may address thousands of them, and a node reading through it
//! reads them all: sqlite3.c's nodes access about 2,300 regions each, and the dependence
//! graph built on those lists has an interface variable and a memory state per region.
//! Regions that every access list holds together (each list holds all of them or none)
//! give the same dependences as one region: a write reaches a read through one of them
//! exactly when it reaches it through all. So they are merged, as variable substitution
//! merges pointers with equal sets, and the dependence graph is the same graph with
//! fewer vertices.
//!
//! Partition refinement: start from one block and split every block by each set that
//! must stay a union of blocks: the regions each access list reads, those it writes, the
//! read-only regions, and every region holding a memory local on its own (the graph
//! names those by object: a parameter's entry value, the return variable, a function's
//! own locals). Regions no set holds end up together. Offsets within a merged region
//! are dropped (unknown); a region left alone keeps them.

use rustc_hash::FxHashMap;

use super::{Access, AccessKind, Object, PartId, PointsTo};

impl PointsTo {
    /// The same result with regions that no access tells apart merged into one
    /// ([`PointsTo::fine_regions`] keeps the count before).
    pub fn merged_by_access(self) -> PointsTo {
        let count = self.part_count();
        let mut refine = Refinement::new(count);
        for list in &self.access_lists {
            for kind in [AccessKind::Read, AccessKind::Write] {
                refine.split(
                    list.iter()
                        .filter(|a| a.kind == kind)
                        .map(|a| a.part.index()),
                );
            }
        }
        refine.split((0..count).filter(|&p| self.read_only[p]));
        for (p, objects) in self.part_objects.iter().enumerate() {
            if objects.iter().any(|o| matches!(o, Object::Local(..))) {
                refine.split(std::iter::once(p));
            }
        }
        let (block_of, blocks) = refine.blocks();
        if blocks == count {
            return self;
        }
        let mut part_objects: Vec<Vec<Object>> = vec![Vec::new(); blocks];
        let mut read_only = vec![true; blocks];
        for (p, objects) in self.part_objects.into_iter().enumerate() {
            let b = block_of[p] as usize;
            part_objects[b].extend(objects);
            read_only[b] &= self.read_only[p];
        }
        for objects in &mut part_objects {
            objects.sort_unstable();
        }
        let object_part: FxHashMap<Object, PartId> = part_objects
            .iter()
            .enumerate()
            .flat_map(|(b, objects)| objects.iter().map(move |&o| (o, PartId(b as u32))))
            .collect();
        let access_lists = self
            .access_lists
            .into_iter()
            .map(|list| {
                let mut list: Vec<Access> = list
                    .into_iter()
                    .map(|a| Access {
                        kind: a.kind,
                        part: PartId(block_of[a.part.index()]),
                    })
                    .collect();
                list.sort_unstable();
                list.dedup();
                list
            })
            .collect();
        PointsTo {
            fine_regions: self.fine_regions,
            external_part: PartId(block_of[self.external_part.index()]),
            part_objects,
            object_part,
            read_only,
            access_lists,
            ..self
        }
    }
}

/// Partition refinement over `0..n`, deterministic: blocks are numbered in the order of
/// their smallest member.
struct Refinement {
    block: Vec<u32>,
    /// Per block, the block its members moved to in the current split.
    moved_to: Vec<u32>,
    touched: Vec<u32>,
}

impl Refinement {
    fn new(n: usize) -> Self {
        Refinement {
            block: vec![0; n],
            moved_to: vec![u32::MAX],
            touched: Vec::new(),
        }
    }

    /// Splits every block into its members in `set` and the others.
    fn split(&mut self, set: impl Iterator<Item = usize>) {
        let first_new = self.moved_to.len() as u32;
        for p in set {
            let b = self.block[p];
            if b >= first_new {
                continue; // moved already (a repeated member)
            }
            let mut to = self.moved_to[b as usize];
            if to == u32::MAX {
                to = self.moved_to.len() as u32;
                self.moved_to.push(u32::MAX);
                self.moved_to[b as usize] = to;
                self.touched.push(b);
            }
            self.block[p] = to;
        }
        for b in self.touched.drain(..) {
            self.moved_to[b as usize] = u32::MAX;
        }
    }

    /// The block of each member, renumbered densely, and the number of blocks.
    fn blocks(self) -> (Vec<u32>, usize) {
        let mut number: FxHashMap<u32, u32> = FxHashMap::default();
        let block = self
            .block
            .iter()
            .map(|b| {
                let next = number.len() as u32;
                *number.entry(*b).or_insert(next)
            })
            .collect();
        (block, number.len())
    }
}

#[cfg(test)]
mod tests {
    use super::Refinement;

    fn blocks(n: usize, sets: &[&[usize]]) -> Vec<u32> {
        let mut r = Refinement::new(n);
        for set in sets {
            r.split(set.iter().copied());
        }
        r.blocks().0
    }

    #[test]
    fn members_of_the_same_sets_share_a_block() {
        // 0 and 2 are in both sets, 1 in the first only, 3 and 4 in none.
        assert_eq!(blocks(5, &[&[0, 1, 2], &[2, 0, 2]]), vec![0, 1, 0, 2, 2]);
    }

    #[test]
    fn every_set_is_a_union_of_blocks() {
        let sets: &[&[usize]] = &[&[1, 3, 5, 7], &[0, 1, 2, 3], &[3, 4], &[7], &[]];
        let block = blocks(9, sets);
        for set in sets {
            for p in 0..9 {
                let inside = set.contains(&p);
                for q in 0..9 {
                    if block[p] == block[q] {
                        assert_eq!(inside, set.contains(&q), "{p} and {q} against {set:?}");
                    }
                }
            }
        }
        // 5 and 7 differ only by the set {7}; 6 and 8 are in none.
        assert_ne!(block[5], block[7]);
        assert_eq!(block[6], block[8]);
    }
}

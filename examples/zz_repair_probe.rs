use std::time::Instant;
use tierpath::*;
fn main() {
    let g = io::read_map("../shared/movingai/maps/sc1/TheFrozenSea.map").unwrap();
    let h = Hierarchy::build(g).unwrap();
    let t = Instant::now();
    let mut w = DynamicHierarchy::new(h);
    eprintln!("new {:?}", t.elapsed());
    let p = Point::new(500, 500);
    let mut p = p;
    for y in 300..700 {
        if (0..5).all(|d| w.grid().is_passable(Point::new(500 + d, y))) {
            p = Point::new(502, y);
            break;
        }
    }
    for i in 0..20 {
        let t = Instant::now();
        let r = w.set_passable(&[p], i % 2 == 1).unwrap();
        eprintln!("{:?} {:?} {:?}", t.elapsed(), r.dead_ends, r.clusters);
    }
}

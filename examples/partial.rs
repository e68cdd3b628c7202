//! Partial paths: when the goal cannot be reached (a walled-off island) or a
//! search's budget runs out, walk towards it anyway.
//!
//! `cargo run --release --example partial`

use tierpath::{AStar, Grid, Hierarchy, Point, QueryCache, QueryOptions, SearchCache};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A walled garden: the treasure at (14, 4), inside, cannot be reached.
    let grid = Grid::from_ascii(
        "
        ..............................
        ..............................
        .........@@@@@@@@@@@..........
        .........@.........@..........
        .........@.........@..........
        .........@.........@..........
        .........@@@@@@@@@@@..........
        ..............................
        ",
    )?;
    let (start, treasure) = (Point::new(0, 7), Point::new(14, 4));
    let mut cache = SearchCache::new();

    let plain = AStar::new(&grid).find_path(&mut cache, start, treasure)?;
    println!(
        "plain A*: path {:?} (the treasure is walled off)",
        plain.path.map(|p| p.cells.len())
    );

    let out = AStar::new(&grid)
        .partial(true)
        .find_path(&mut cache, start, treasure)?;
    let path = out.path.expect("a partial path");
    println!(
        "A* with partial(true): partial = {}, {} moves to {} (closest to the treasure)",
        out.partial,
        path.moves(),
        path.goal().expect("non-empty")
    );

    let out = AStar::new(&grid)
        .partial(true)
        .max_expansions(20)
        .find_path(&mut cache, start, Point::new(29, 0))?;
    let path = out.path.expect("a partial path");
    println!(
        "A* limited to 20 expansions: out of budget = {}, partial = {}, got as far as {}",
        out.out_of_budget,
        out.partial,
        path.goal().expect("non-empty")
    );

    let hierarchy = Hierarchy::build(grid)?;
    let options = QueryOptions::new().partial(true);
    let out = hierarchy.find_path_with(&mut QueryCache::new(), start, treasure, &options)?;
    let path = out.path.expect("a partial path");
    println!(
        "two-tier query with QueryOptions::partial: partial = {}, ends at {} ({:?})",
        out.partial,
        path.goal().expect("non-empty"),
        out.stats.method
    );
    Ok(())
}

use super::*;

#[test]
fn padded_round_trip() {
    let g = Grid::new(7, 5).unwrap();
    for p in g.passable_points() {
        assert_eq!(g.point(g.node(p)), p);
        assert_eq!(g.point_of(g.cell_index(p)), p);
    }
    assert_eq!(g.passable_count(), 35);
}

#[test]
fn padding_is_blocked() {
    let g = Grid::new(3, 3).unwrap();
    let pw = g.padded_width() as usize;
    for i in 0..g.padded_len() {
        let (x, y) = (i % pw, i / pw);
        let border = x == 0 || y == 0 || x == pw - 1 || y == pw - 1;
        assert_eq!(g.passable_slice()[i], !border);
    }
}

#[test]
fn window_copies_cells_and_weights() {
    let mut g = Grid::from_ascii(
        "
        ....
        .@..
        ...@",
    )
    .unwrap();
    g.set_weight(Point::new(2, 2), Weight(300)).unwrap();
    let w = g.window(1, 1, 3, 2);
    assert_eq!(w.to_ascii(), "@..\n..@\n");
    assert_eq!(w.weight(Point::new(1, 1)), Weight(300));
    // Into a grid that held another window (larger, weighted or not), it
    // is the same copy.
    let plain = Grid::from_ascii(".@.\n...\n").unwrap();
    for (x0, y0, x1, y1) in [(0, 0, 3, 2), (1, 1, 3, 2), (0, 0, 1, 0), (2, 0, 3, 1)] {
        let want = g.window(x0, y0, x1, y1);
        for mut reused in [g.window(0, 0, 3, 2), g.window(0, 1, 0, 1), plain.clone()] {
            g.window_into(x0, y0, x1, y1, &mut reused);
            assert_eq!(reused, want, "{x0},{y0} .. {x1},{y1}");
            plain.window_into(0, 0, 1, 1, &mut reused);
            assert_eq!(reused, plain.window(0, 0, 1, 1));
        }
    }
}

#[test]
fn weights_reset_to_one_leave_an_unweighted_grid() {
    let plain = Grid::new(8, 8).unwrap();
    let mut reset = plain.clone();
    reset.set_weight(Point::new(1, 1), Weight(250)).unwrap();
    reset.set_weight(Point::new(2, 1), Weight(40)).unwrap();
    assert!(reset.is_weighted());
    reset.set_weight(Point::new(1, 1), Weight::ONE).unwrap();
    assert!(reset.is_weighted());
    reset.set_weight(Point::new(2, 1), Weight::ONE).unwrap();
    assert!(!reset.is_weighted());
    assert_eq!(reset, plain);
    assert_eq!(reset.fingerprint(), plain.fingerprint());
    // A weight on a wall cannot be paid: it does not change the fingerprint.
    let mut walled = plain.clone();
    walled.set_passable(Point::new(3, 3), false).unwrap();
    let mut heavy_wall = walled.clone();
    heavy_wall
        .set_weight(Point::new(3, 3), Weight(300))
        .unwrap();
    assert_eq!(walled.fingerprint(), heavy_wall.fingerprint());
}

#[test]
fn size_limits() {
    assert!(matches!(Grid::new(0, 5), Err(GridError::Empty { .. })));
    assert!(matches!(
        Grid::new(MAX_SIDE + 1, 1),
        Err(GridError::TooLarge { .. })
    ));
    assert!(matches!(
        Grid::new(MAX_SIDE, MAX_SIDE),
        Err(GridError::TooLarge { .. })
    ));
}

#[test]
fn ascii_errors_name_line_and_column() {
    assert_eq!(
        Grid::from_ascii("..\n.x").unwrap_err(),
        GridError::BadChar {
            line: 2,
            column: 2,
            ch: 'x'
        }
    );
    assert!(matches!(
        Grid::from_ascii("..\n..."),
        Err(GridError::RaggedRow { line: 2, .. })
    ));
}

#[test]
fn weights_and_fingerprint() {
    let mut g = Grid::new(4, 4).unwrap();
    let f0 = g.fingerprint();
    g.set_weight(Point::new(1, 1), Weight::ONE).unwrap();
    assert!(!g.is_weighted());
    g.set_weight(Point::new(1, 1), Weight(50)).unwrap();
    assert!(g.is_weighted());
    assert_eq!(g.min_weight(), Weight(50));
    assert_ne!(g.fingerprint(), f0);
    assert!(g.set_weight(Point::new(4, 0), Weight(50)).is_err());
    assert_eq!(Weight::from_multiplier(0.5), Some(Weight(50)));
    assert_eq!(Weight::from_multiplier(0.0), None);
}

from polyfit.lattices.grid import (
    Transform,
    canonical,
    components,
    is_connected,
    lattice_group,
    normalize,
    orientations,
)


def test_group_orders():
    assert len(lattice_group(2)) == 8
    assert len(lattice_group(2, mirror=False)) == 4
    assert len(lattice_group(3)) == 48
    assert len(lattice_group(3, mirror=False)) == 24


def test_rotation_groups_are_proper_and_full_groups_are_half_proper():
    assert all(g.is_proper for g in lattice_group(3, mirror=False))
    assert sum(g.is_proper for g in lattice_group(3)) == 24
    assert sum(g.is_proper for g in lattice_group(2)) == 4


def test_group_is_closed_with_inverses():
    group = set(lattice_group(3))
    for a in group:
        assert a.then(a.inverse()).is_identity
        for b in list(group)[:10]:
            assert a.then(b) in group


def _closure(generators) -> set:
    group = {Transform.identity(len(generators[0].perm))}
    frontier = list(group)
    while frontier:
        frontier = [g.then(h) for g in frontier for h in generators if g.then(h) not in group]
        group.update(frontier)
    return group


def test_groups_are_the_closures_of_generating_turns_in_sorted_order():
    turn_2d, transpose = Transform((1, 0), (1, -1)), Transform((1, 0), (1, 1))
    turn_z, turn_diagonal = Transform((0, 2, 1), (1, 1, -1)), Transform((1, 2, 0), (1, 1, 1))
    mirror_z = Transform((0, 1, 2), (-1, 1, 1))
    for dim, mirror, generators in [(2, False, [turn_2d]), (2, True, [turn_2d, transpose]),
                                    (3, False, [turn_z, turn_diagonal]), (3, True, [turn_z, turn_diagonal, mirror_z])]:
        group = lattice_group(dim, mirror)
        assert group == tuple(sorted(_closure(generators)))


def test_then_applies_first_then_second():
    turn = Transform((1, 0), (1, -1))
    flip = Transform((1, 0), (1, 1))
    cell = (2, 5)
    assert turn.then(flip)(cell) == flip(turn(cell))


def test_normalize_and_orientations():
    assert normalize([(3, 4), (2, 5), (2, 4)]) == ((0, 0), (0, 1), (1, 0))
    f = ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1))
    x = ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))
    assert len(orientations(f, lattice_group(2))) == 8
    assert len(orientations(f, lattice_group(2, mirror=False))) == 4
    assert len(orientations(x, lattice_group(2))) == 1
    # A chiral tetracube has 12 rotations; its mirror image is another class under rotation.
    screw = ((0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1))
    mirror = tuple((z, r, -c) for z, r, c in screw)
    assert len(orientations(screw, lattice_group(3, mirror=False))) == 12
    assert canonical(screw, lattice_group(3, mirror=False)) != canonical(
        mirror, lattice_group(3, mirror=False)
    )
    assert canonical(screw, lattice_group(3)) == canonical(mirror, lattice_group(3))


def test_components_and_connectivity():
    cells = {(0, 0), (0, 1), (2, 2), (2, 3), (3, 3)}
    parts = components(cells)
    assert sorted(len(p) for p in parts) == [2, 3]
    assert not is_connected(cells)
    assert is_connected({(0, 0), (0, 1), (1, 1)})
    assert not is_connected({(0, 0), (1, 1)})  # corners do not connect


def test_normalize_moves_the_least_of_each_coordinate_to_zero_and_sorts():
    import random

    rng = random.Random(7)
    for _ in range(500):
        dim, n = rng.randint(1, 4), rng.randint(1, 12)
        cells = [tuple(rng.randint(-6, 6) for _ in range(dim)) for _ in range(n)]
        low = [min(c[i] for c in cells) for i in range(dim)]
        expected = tuple(sorted(tuple(c[i] - low[i] for i in range(dim)) for c in cells))
        assert normalize(cells) == expected and normalize(iter([list(c) for c in cells])) == expected
    assert normalize([]) == ()

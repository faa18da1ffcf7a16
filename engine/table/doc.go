// Package table is the shared tabletop geometry of the miniatures rule
// systems (HRA, measured in centimetres, and GMB, measured in inches): exact
// positions on the table, rectangular bases with a facing, moves, wheels and
// pivots, distances, fire arcs, terrain areas and lines, and a plain-text
// top-down drawing for mail.
//
// # Determinism
//
// Nothing that decides an outcome uses floating point. Every player, every
// machine and every replay of the event log gets the same answer.
//
//   - Lengths and coordinates are whole micrometres ([Length]). A centimetre
//     is 10 000 µm and an inch is exactly 25 400 µm, so both rule systems'
//     measurements are exact. Coordinates must stay within ±[MaxCoord]
//     (500 m); inside that bound no intermediate product overflows.
//   - The table's x axis points east and its y axis north ("up" in the
//     drawing). Angles ([Angle]) are whole millidegrees. A bearing of 0 is
//     north, 90° east, clockwise; a positive turn is clockwise.
//   - [Sin] and [Cos] are fixed-point integers scaled by [TrigOne] (2^30),
//     built from a table of correctly rounded whole-degree values and a short
//     integer Taylor series for the fraction of a degree. They are within
//     2 units (2^-29) of the true values. A rotated position therefore lands
//     within about a micrometre of the exact one, and always on the same
//     micrometre.
//   - Distances are compared as squared integers (128-bit where needed);
//     no square root takes part in a decision. Functions returning a
//     measured [Length] round the exact value UP to the next micrometre, so
//     "measured <= limit" is exact for any limit in whole micrometres.
//   - Predicates on points, segments, polygons and bases (contains, touches,
//     overlaps, inside an arc) are exact, and so are areas of polygons
//     clipped against each other (rational arithmetic). Whether at least a
//     fraction of a base lies within a range ([Rect.WithinAtLeast], HRA
//     13b) is decided exactly by bracketing the rounded region between two
//     polygons. Where a sample is still used (SampleFraction, the area a
//     wheel sweeps) it is on a fixed integer grid, documented at each
//     function.
//
// Closed sets: a point on a boundary is inside; shapes that share only
// boundary points "touch" but do not "overlap".
//
// The package has no mutable package state and never iterates over a map,
// so the same inputs always produce byte-identical output.
package table

// Package hex is the shared hex-grid geometry used by the hex-and-counter
// rule systems (GCACW, GBACW, …): map coordinates as printed on the board,
// neighbours, distance, hexsides, lines, radii, deterministic path search,
// rectangular map bounds, and an ASCII drawing of a window of the map for
// plain-text mail.
//
// # Coordinates
//
// A hex is written "CCRR" as printed on the map: two digits of column, then
// two digits of row ("2314" is column 23, row 14). Hexes are flat-topped and
// stand in vertical columns; columns grow to the right (east) and rows grow
// downwards (south). Even-numbered columns are shifted half a hex DOWN
// relative to odd-numbered ones, so:
//
//	hex in an odd column (2314)        hex in an even column (2414)
//	  N  2313                            N  2413
//	  NE 2413   SE 2414                  NE 2514   SE 2515
//	  S  2315                            S  2415
//	  NW 2213   SW 2214                  NW 2314   SW 2315
//
// The parity depends on the printed column number, never on where a map or
// window happens to start. Internally the package converts to cube
// coordinates (Q = column, R = row - (column+column&1)/2, S = -Q-R) for
// distance, lines and radii.
//
// # Directions
//
// The six directions are numbered clockwise from north, in the fixed order
// N, NE, SE, S, SW, NW (0 to 5). Every function that returns neighbours
// returns them in that order.
//
// # Determinism
//
// Nothing in this package depends on Go map iteration order, the clock or
// randomness. Lists of hexes are returned in column-major order (by column,
// then by row; see Compare) unless documented otherwise, and path search
// breaks ties by a documented rule, so the same input always gives the same
// output, byte for byte. The package holds no mutable global state.
//
// # Drawing
//
// Draw renders a Window of the map as lines of text that fit a 78-column
// plain-text mail (at most MaxWindowCols hex columns). See Draw for the
// exact shape and the way hexside marks are shown.
package hex

//go:build !race

package main

// raceEnabled: the test binary runs without the race detector, and so
// does the pbem binary the end-to-end tests start (it builds and runs
// several times faster).
const raceEnabled = false

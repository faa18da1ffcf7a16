//go:build race

package main

// raceEnabled: the test binary runs with the race detector, so the pbem
// binary the end-to-end tests start is built with it too.
const raceEnabled = true

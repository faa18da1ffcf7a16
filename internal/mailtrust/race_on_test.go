//go:build race

package mailtrust

// raceEnabled: the test binary runs with the race detector, so the pbem
// binary the tests start is built with it too.
const raceEnabled = true

// Package waitfor is the one way the tests wait for what another
// goroutine or process brings about (a server listening, a mail arriving,
// an event in the log): they poll a condition, often at first and then
// less often, until it holds or a time limit passes. It is for tests only;
// a test that must show that something did not happen checks it after an
// observable event that proves the server went past it, never after a
// bare sleep.
package waitfor

import (
	"testing"
	"time"
)

// first and most are the shortest and the longest pause between two
// looks at a condition: the pause doubles from first up to most, so a
// condition that holds soon is seen soon, and one that takes seconds
// (each look may run a command or read a mailbox) is not looked at
// hundreds of times.
const (
	first = 2 * time.Millisecond
	most  = 100 * time.Millisecond
)

// True reports whether cond holds within d, looking at once and then
// again after pauses that grow from 2ms to 100ms. The last look begins
// after d has passed, so that a machine that oversleeps a pause does not
// turn a condition that holds by then into a timeout.
func True(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for pause := first; ; pause = min(2*pause, most) {
		late := time.Now().After(deadline) // before the look: the last look begins after d
		if cond() {
			return true
		}
		if late {
			return false
		}
		time.Sleep(min(pause, max(time.Until(deadline), time.Millisecond)))
	}
}

// Until fails t at once if cond does not hold within d, saying what it
// waited for.
func Until(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !True(d, cond) {
		t.Fatalf("waited %v in vain for %s", d, what)
	}
}

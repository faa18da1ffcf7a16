//go:build race

package servetest

// Race says the test binary runs with the race detector: the pbem binary
// it starts is built with it too.
const Race = true

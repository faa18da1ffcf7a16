// Package syncbuf is a byte buffer written by one side (a logger's
// goroutines, a child process's output pipe) while a test reads it: the
// log sinks the tests share, so none keeps its own locked copy of
// bytes.Buffer.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writes and reads. The
// zero value is empty and ready to use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what has been written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

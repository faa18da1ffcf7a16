package mailhost

import (
	"fmt"
	"net"
	"sync"
)

// connTracker remembers every accepted connection so that Close can close
// them all: imapserver.Server.Close and smtp.Server.Close only close the
// connections their goroutines have already registered, so a connection
// accepted just before Close would otherwise linger.
type connTracker struct {
	mu     sync.Mutex
	shutOn bool
	conns  map[*trackedConn]struct{}
}

func newConnTracker() *connTracker {
	return &connTracker{conns: make(map[*trackedConn]struct{})}
}

// add registers c, or reports false once the tracker is shut.
func (t *connTracker) add(c *trackedConn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.shutOn {
		return false
	}
	t.conns[c] = struct{}{}
	return true
}

func (t *connTracker) remove(c *trackedConn) {
	t.mu.Lock()
	delete(t.conns, c)
	t.mu.Unlock()
}

// shut makes add refuse further connections.
func (t *connTracker) shut() {
	t.mu.Lock()
	t.shutOn = true
	t.mu.Unlock()
}

// closeAll closes every registered connection.
func (t *connTracker) closeAll() {
	t.mu.Lock()
	conns := make([]*trackedConn, 0, len(t.conns))
	for c := range t.conns {
		conns = append(conns, c)
	}
	t.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// trackingListener registers accepted connections with a connTracker and
// calls onAccept (if set) for each, before the server sees it.
type trackingListener struct {
	net.Listener
	conns    *connTracker
	onAccept func(*trackedConn)
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, tracker: l.conns}
	if !l.conns.add(tc) {
		c.Close()
		return nil, fmt.Errorf("mail host closing: %w", net.ErrClosed)
	}
	if l.onAccept != nil {
		l.onAccept(tc)
	}
	return tc, nil
}

// trackedConn is a connection that unregisters itself when closed.
type trackedConn struct {
	net.Conn
	tracker   *connTracker
	closeOnce sync.Once
	closeErr  error

	// sessionEnd is set by onAccept, before the server sees the
	// connection, and called (once) by the IMAP session when it closes.
	sessionEnd func()
}

func (c *trackedConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.Conn.Close()
		c.tracker.remove(c)
	})
	return c.closeErr
}

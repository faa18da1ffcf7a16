package server

import (
	"log/slog"
	"net"
	"os"
	"sync"
	"syscall"
)

// umaskMu serialises listenPrivate's umask changes.
var umaskMu sync.Mutex

// listenPrivate listens on the unix socket path under umask 0177, so the
// socket is created 0600. The umask is the process's: for that moment any
// other file pbem makes is created no more open than the owner's, which
// is never less safe.
func listenPrivate(path string) (net.Listener, error) {
	umaskMu.Lock()
	defer umaskMu.Unlock()
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}

// peerCheck accepts only connections from this process's own user (or
// root): the socket's mode keeps others out, and this says so again.
type peerCheck struct{ net.Listener }

func (l peerCheck) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if uid, ok := peerUID(c); ok && (uid == uint32(os.Getuid()) || uid == 0) {
			return c, nil
		}
		slog.Warn("control socket: refused a connection from another user")
		c.Close()
	}
}

// peerUID returns the user id of the process at the other end of c.
func peerUID(c net.Conn) (uint32, bool) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return 0, false
	}
	return cred.Uid, true
}

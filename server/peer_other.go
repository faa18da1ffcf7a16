//go:build !linux

package server

import (
	"net"
	"os"
)

// peerCheck is the socket's mode alone where the peer's credentials
// cannot be read.
type peerCheck struct{ net.Listener }

// listenPrivate listens on the unix socket path and makes it 0600.
func listenPrivate(path string) (net.Listener, error) {
	l, err := net.Listen("unix", path)
	if err == nil {
		err = os.Chmod(path, 0o600)
	}
	return l, err
}

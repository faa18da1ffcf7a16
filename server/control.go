package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
)

// The control socket lets commands run inside a running server, which
// holds the bbolt file's lock: one JSON request line, one JSON response.

// ControlRequest is a command handed to the server.
type ControlRequest struct {
	Cmd  string   `json:"cmd"`
	Args []string `json:"args"`
	// Files holds the files the arguments name, read by the command line
	// where it was typed.
	Files map[string][]byte `json:"files,omitempty"`
}

// ControlResponse is what the command printed, and its error.
type ControlResponse struct {
	Out string `json:"out"`
	Err string `json:"err"`
}

// serveControl answers control requests with run, until l is closed.
func serveControl(l net.Listener, run func(req ControlRequest, forwarded bool) ControlResponse) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			var req ControlRequest
			if err := json.NewDecoder(bufio.NewReader(c)).Decode(&req); err != nil {
				return
			}
			json.NewEncoder(c).Encode(run(req, false))
		}()
	}
}

// listenControl listens on the control socket at path, with mode 0600
// from the moment it exists: it is made under a umask that leaves only the
// owner's bits (a chmod after binding would leave a moment, under a loose
// umask, in which another user could connect), and the listener refuses
// peers of another user besides (see peerCheck).
func listenControl(path string) (net.Listener, error) {
	// sun_path holds 108 bytes, the last a NUL.
	if len(path) > 107 {
		return nil, fmt.Errorf("%s: the path is longer than a unix socket's 107 bytes; use a shorter data directory", path)
	}
	l, err := listenPrivate(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		l.Close()
		return nil, fmt.Errorf("%s: the socket was not made private (%v %v)", path, fi.Mode(), err)
	}
	return peerCheck{l}, nil
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// logStore is what commands need of the event log: the store itself, or
// inside serve the bus over it (so appends are published to the engine).
type logStore interface {
	Read(game string, from uint64, fn func(*events.Envelope) error) error
	Snapshot(game string, atOrBefore uint64) (uint64, []byte, bool, error)
	Do(store.Request) (store.Result, error)
	PutSnapshot(game string, seq uint64, data []byte) error
	Secret(game string) ([]byte, error)
	Head(game string) (store.Head, error)
	Games() ([]store.GameInfo, error)
	Events(game string, from uint64) ([]events.Envelope, error)
	Verify(game string) (uint64, error)
	QuarantineList() ([]store.Quarantined, error)
	QuarantineStats() (store.QuarantineStats, error)
	ServerSecret(name string, gen func() ([]byte, error)) ([]byte, error)
	OwnedServerSecret(name, owner string, gen func() ([]byte, error)) ([]byte, string, error)
	ServerSecretNames(prefix string) ([]string, error)
}

// The control socket lets commands run inside a running server, which
// holds the bbolt file's lock: one JSON request line, one JSON response.
type ctlRequest struct {
	Cmd  string   `json:"cmd"`
	Args []string `json:"args"`
	// Files holds the files the arguments name, read by the command line
	// (see argFiles).
	Files map[string][]byte `json:"files,omitempty"`
}

type ctlResponse struct {
	Out string `json:"out"`
	Err string `json:"err"`
}

var errRemote = errors.New("failed in the server")

// tryRemote runs the command in a running server if one listens on the
// data directory's control socket. handled is false when none does.
func (a *app) tryRemote(name string, args []string) (handled bool, err error) {
	c, err := net.DialTimeout("unix", a.socketPath(), time.Second)
	if err != nil {
		return false, nil
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(ctlRequest{Cmd: name, Args: args, Files: a.files}); err != nil {
		return true, fmt.Errorf("control socket: %w", err)
	}
	var resp ctlResponse
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&resp); err != nil {
		return true, fmt.Errorf("control socket: no answer from the server: %w", err)
	}
	io.WriteString(a.out, resp.Out)
	if resp.Err != "" {
		fmt.Fprintln(a.errOut, "pbem (in the server):", resp.Err)
		return true, errRemote
	}
	return true, nil
}

// serveControl answers control requests with the server's own log (the
// bus), until l is closed.
func serveControl(l net.Listener, base *app) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			var req ctlRequest
			if err := json.NewDecoder(bufio.NewReader(c)).Decode(&req); err != nil {
				return
			}
			json.NewEncoder(c).Encode(base.control(req, false))
		}()
	}
}

// control runs one command in the server. forwarded says another node of
// the cluster handed it here: it runs here, whoever owns its game.
func (base *app) control(req ctlRequest, forwarded bool) ctlResponse {
	var out, errOut bytes.Buffer
	resp := ctlResponse{}
	sub := &app{cfg: base.cfg, out: &out, errOut: &errOut, lg: base.lg, reg: base.reg, log: base.log, comp: base.comp, secret: base.secret,
		mailhost: base.mailhost, inServer: true, node: base.node, forwardedHere: forwarded, files: req.Files}
	var cmd *command
	for _, cc := range commands() {
		if cc.name == req.Cmd && cc.remote {
			cmd = &cc
		}
	}
	if cmd == nil {
		resp.Err = fmt.Sprintf("command %q cannot run in the server", req.Cmd)
	} else if err := engine.Guard("pbem "+req.Cmd, func() error { return sub.runCommand(cmd, req.Args) }); err != nil && !errors.Is(err, flag.ErrHelp) {
		// A command that panics (a rule system's Render, in pbem replay)
		// fails, and the server goes on.
		if stack := engine.PanicStack(err); stack != "" {
			base.lg.Error("control command panicked", "cmd", req.Cmd, "err", err, "stack", stack)
		}
		resp.Err = err.Error()
	}
	resp.Out = out.String() + errOut.String()
	base.lg.Info("control command", "cmd", req.Cmd, "args", req.Args, "err", resp.Err, "forwarded", forwarded)
	return resp
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

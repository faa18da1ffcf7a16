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
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/server"
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

// ctlRequest and ctlResponse are the control socket's request and
// response (see server.ControlRequest).
type (
	ctlRequest  = server.ControlRequest
	ctlResponse = server.ControlResponse
)

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

// serverControl is the server.ControlFunc of the server a runs: each command
// runs as a command of the app base, which reaches what the server holds.
func (a *app) serverControl(in *server.Inside, req ctlRequest, forwarded bool) ctlResponse {
	base := &app{cfg: a.cfg, out: a.out, errOut: a.errOut, lg: a.lg, reg: a.reg, log: in.Log, comp: in.Composer, secret: in.Secret,
		mailhost: in.Mailhost, node: in.Node, tick: in.Tick}
	return base.control(req, forwarded)
}

// control runs one command in the server. forwarded says another node of
// the cluster handed it here: it runs here, whoever owns its game.
func (base *app) control(req ctlRequest, forwarded bool) ctlResponse {
	var out, errOut bytes.Buffer
	resp := ctlResponse{}
	sub := &app{cfg: base.cfg, out: &out, errOut: &errOut, lg: base.lg, reg: base.reg, log: base.log, comp: base.comp, secret: base.secret,
		mailhost: base.mailhost, inServer: true, node: base.node, forwardedHere: forwarded, files: req.Files, tick: base.tick}
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

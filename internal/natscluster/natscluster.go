// Package natscluster runs a three-server NATS JetStream cluster on
// loopback out of a nats-server binary, for the cluster tests and the
// cluster benchmarks: real servers, each in its own process, that a test
// may kill.
package natscluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Proc is one nats-server of a three-server JetStream cluster
// on loopback (the cluster tests' and 'pbem bench --parts cluster').
type Proc struct {
	// Cmd is the running nats-server (a test may signal it; Kill kills
	// it: Start waits for it already).
	Cmd       *exec.Cmd
	url, conf string
	exited    <-chan struct{} // closed once Cmd has been waited for
}

// Start runs three nats-server processes (bin) clustered with
// JetStream on loopback, each storing under its own directory in dir and
// fsyncing every write (sync_interval: always, as the README asks) unless
// defaultSync leaves JetStream's own interval; it waits until JetStream
// answers. On an error it stops what it started.
//
// Tests run several clusters at once, so each is kept to itself: it has
// a cluster name of its own (a route to another cluster's server is
// refused), and each server picks its own client port and says which in
// its ports file (a port picked here and freed could be taken by another
// test's server before this one binds it, and a client would then join
// that other cluster). Only the route ports are picked here, since each
// server needs the others' before they run; a server that finds its own
// taken exits, and Start tries again on fresh ports.
func Start(bin, dir string, defaultSync bool) ([]*Proc, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var procs []*Proc
		if procs, err = start(bin, filepath.Join(dir, fmt.Sprintf("try%d", attempt)), defaultSync); err == nil {
			return procs, nil
		}
	}
	return nil, err
}

func start(bin, dir string, defaultSync bool) ([]*Proc, error) {
	var routes []string
	for range 3 {
		a, err := freeLoopbackAddr()
		if err != nil {
			return nil, err
		}
		routes = append(routes, a)
	}
	id := make([]byte, 6)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	name := "pbem-" + hex.EncodeToString(id)
	sync := ", sync_interval: always"
	if defaultSync {
		sync = ""
	}
	var procs []*Proc
	fail := func(err error) ([]*Proc, error) {
		Stop(procs)
		return nil, err
	}
	for i := range 3 {
		sdir := filepath.Join(dir, fmt.Sprintf("n%d", i+1))
		if err := os.MkdirAll(sdir, 0o700); err != nil {
			return fail(err)
		}
		var others []string
		for j, r := range routes {
			if j != i {
				others = append(others, "nats-route://"+r)
			}
		}
		conf := fmt.Sprintf(`server_name: n%d
listen: "127.0.0.1:-1"
ports_file_dir: %q
jetstream { store_dir: %q%s }
cluster { name: %s, listen: %s, routes: [%s] }
`, i+1, sdir, sdir, sync, name, routes[i], strings.Join(others, ", "))
		path := filepath.Join(sdir, "nats.conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			return fail(err)
		}
		p := &Proc{conf: path}
		procs = append(procs, p)
		if err := p.start(bin, sdir); err != nil {
			return fail(err)
		}
	}
	nc, err := nats.Connect(strings.Join(URLs(procs), ","))
	if err != nil {
		return fail(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := js.AccountInfo(ctx)
		cancel()
		if err == nil {
			return procs, nil
		}
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("the JetStream cluster did not come up: %w", err))
		}
	}
}

// start runs the server and waits until it takes connections: until its
// ports file (written once it listens) gives its client URL.
func (p *Proc) start(bin, dir string) error {
	p.Cmd = exec.Command(bin, "-c", p.conf)
	logPath := filepath.Join(dir, "nats-server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	p.Cmd.Stdout, p.Cmd.Stderr = logFile, logFile
	if err := p.Cmd.Start(); err != nil {
		return fmt.Errorf("nats-server: %w", err)
	}
	exited := make(chan struct{})
	go func() { p.Cmd.Wait(); close(exited) }()
	p.exited = exited
	ports := filepath.Join(dir, fmt.Sprintf("nats-server_%d.ports", p.Cmd.Process.Pid))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(ports); err == nil {
			var f struct {
				Nats []string `json:"nats"`
			}
			if json.Unmarshal(b, &f) == nil && len(f.Nats) > 0 {
				p.url = f.Nats[0]
				return nil
			}
		}
		select {
		case <-exited:
			out, _ := os.ReadFile(logPath)
			return fmt.Errorf("nats-server exited at start: %s", lastLines(string(out), 3))
		default:
		}
		if time.Now().After(deadline) {
			p.stop()
			return errors.New("nats-server did not start within 10s")
		}
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// stop kills the server (if it runs) and waits for it.
func (p *Proc) stop() {
	if p.Cmd != nil && p.Cmd.Process != nil {
		p.Cmd.Process.Kill()
		<-p.exited
	}
}

// Kill kills the server with SIGKILL and waits until it has exited.
func (p *Proc) Kill() { p.stop() }

// Stop stops every server of ps.
func Stop(ps []*Proc) {
	for _, p := range ps {
		p.stop()
	}
}

// URLs are the servers' client URLs.
func URLs(ps []*Proc) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.url)
	}
	return out
}

// freeLoopbackAddr returns a loopback address with a port free just now.
func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

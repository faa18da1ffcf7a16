// Package natscluster runs a three-server NATS JetStream cluster on
// loopback out of a nats-server binary, for the cluster tests and the
// cluster benchmarks: real servers, each in its own process, that a test
// may kill.
package natscluster

import (
	"context"
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
	// Cmd is the running nats-server (a test may signal it).
	Cmd       *exec.Cmd
	url, conf string
}

// Start runs three nats-server processes (bin) clustered with
// JetStream on loopback, each storing under its own directory in dir and
// fsyncing every write (sync_interval: always, as the README asks) unless
// defaultSync leaves JetStream's own interval; it waits until JetStream
// answers. On an error it stops what it started.
func Start(bin, dir string, defaultSync bool) ([]*Proc, error) {
	var clients, routes []string
	for range 6 {
		a, err := freeLoopbackAddr()
		if err != nil {
			return nil, err
		}
		if len(clients) < 3 {
			clients = append(clients, a)
		} else {
			routes = append(routes, a)
		}
	}
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
listen: %s
jetstream { store_dir: %q%s }
cluster { name: pbem, listen: %s, routes: [%s] }
`, i+1, clients[i], sdir, sync, routes[i], strings.Join(others, ", "))
		path := filepath.Join(sdir, "nats.conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			return fail(err)
		}
		p := &Proc{url: "nats://" + clients[i], conf: path}
		procs = append(procs, p)
		if err := p.start(bin); err != nil {
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

// start runs the server and waits until it takes connections.
func (p *Proc) start(bin string) error {
	p.Cmd = exec.Command(bin, "-c", p.conf)
	if err := p.Cmd.Start(); err != nil {
		return fmt.Errorf("nats-server: %w", err)
	}
	host := strings.TrimPrefix(p.url, "nats://")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", host); err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			p.stop()
			return errors.New("nats-server did not start within 10s")
		}
	}
}

// stop kills the server (if it runs) and waits for it.
func (p *Proc) stop() {
	if p.Cmd != nil && p.Cmd.Process != nil && p.Cmd.ProcessState == nil {
		p.Cmd.Process.Kill()
		p.Cmd.Wait()
	}
}

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

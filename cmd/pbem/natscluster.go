package main

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

// natsClusterProc is one nats-server of a three-server JetStream cluster
// on loopback (the cluster tests' and 'pbem bench --parts cluster').
type natsClusterProc struct {
	cmd       *exec.Cmd
	url, conf string
}

// startNATSServers runs three nats-server processes (bin) clustered with
// JetStream on loopback, each storing under its own directory in dir and
// fsyncing every write (sync_interval: always, as the README asks) unless
// defaultSync leaves JetStream's own interval; it waits until JetStream
// answers. On an error it stops what it started.
func startNATSServers(bin, dir string, defaultSync bool) ([]*natsClusterProc, error) {
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
	var procs []*natsClusterProc
	fail := func(err error) ([]*natsClusterProc, error) {
		stopNATSServers(procs)
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
		p := &natsClusterProc{url: "nats://" + clients[i], conf: path}
		procs = append(procs, p)
		if err := p.start(bin); err != nil {
			return fail(err)
		}
	}
	nc, err := nats.Connect(strings.Join(natsURLs(procs), ","))
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
func (p *natsClusterProc) start(bin string) error {
	p.cmd = exec.Command(bin, "-c", p.conf)
	if err := p.cmd.Start(); err != nil {
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
func (p *natsClusterProc) stop() {
	if p.cmd != nil && p.cmd.Process != nil && p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

func stopNATSServers(ps []*natsClusterProc) {
	for _, p := range ps {
		p.stop()
	}
}

func natsURLs(ps []*natsClusterProc) []string {
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

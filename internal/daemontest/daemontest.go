//go:build linux

// Package daemontest holds what the tests' throwaway servers share
// (dovecottest, postfixtest): waiting for a server's greeting, and
// stopping its process group (its master and every process it forked),
// making sure none of it is left running. It is used only by tests.
package daemontest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Spawn starts cmd (a server's master process) with its output to the
// file outPath, in a process group of its own, so that Kill reaches every
// process it forks; should the test binary die without cleaning up, the
// master is told to shut down (taking its children with it). The channel
// is closed once the master has exited and been waited for.
func Spawn(cmd *exec.Cmd, outPath string) (<-chan struct{}, error) {
	out, err := os.Create(outPath)
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child has its own copy
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	return exited, nil
}

// WaitGreeting waits until addr answers with a line starting with prefix
// ("* OK" for IMAP, "220 " for SMTP), or the server exits (exited is
// closed), or timeout passes; its errors carry logs().
func WaitGreeting(addr, prefix string, exited <-chan struct{}, logs func() string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-exited:
			return fmt.Errorf("the server exited:\n%s", logs())
		default:
		}
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.SetDeadline(time.Now().Add(5 * time.Second))
			line, err := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if err == nil && strings.HasPrefix(line, prefix) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no greeting %q on %s within %v:\n%s", prefix, addr, timeout, logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill sends SIGKILL to the process group led by pgid, waits for its
// leader to exit (exited is closed once it has been waited for), then
// until no process of the group is left running (orphaned children may
// linger as zombies for a moment; they are not counted).
func Kill(pgid int, exited <-chan struct{}) error {
	syscall.Kill(-pgid, syscall.SIGKILL)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		return fmt.Errorf("process %d still not exited 10s after SIGKILL", pgid)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		live := Live(pgid)
		if len(live) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes still running after SIGKILL to group %d: %v", pgid, live)
		}
		syscall.Kill(-pgid, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
}

// Live lists the processes of group pgid that have not exited (zombies
// are not counted), as "pid name".
func Live(pgid int) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var live []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// "pid (comm) state ppid pgrp ...": comm may hold spaces and parens.
		stat := string(b)
		open, end := strings.IndexByte(stat, '('), strings.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(stat[end+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" || f[0] == "X" {
			continue
		}
		live = append(live, e.Name()+" "+stat[open+1:end])
	}
	return live
}

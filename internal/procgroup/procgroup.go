//go:build linux

// Package procgroup stops a test's child process group (a mail server's
// master and every process it forked) and makes sure none of it is left
// running. It is used only by tests (dovecottest, postfixtest).
package procgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

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

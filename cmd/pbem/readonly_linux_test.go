package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A sound data directory on a read-only file system: pbem serve and pbem
// mailboxes refuse it as read-only, naming the file, never as damaged,
// and pbem doctor finds it sound.
func TestReadOnlyDataDirectoryIsNamedReadOnlyNotDamaged(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	os.Mkdir(dir, 0o700)
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=32m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the test needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	if out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost:Anna", "--player", "taro:CSA:taro@pbem.localhost:Taro"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, "size=32m"); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	env := []string{"PBEM_MAIL_BUILTIN_IMAP=" + freeAddr(t), "PBEM_MAIL_BUILTIN_SMTP=" + freeAddr(t)}
	for _, cmd := range []string{"serve", "mailboxes"} {
		out, errOut, code := pbem(t, env, "--data-dir", dir, cmd)
		msg := out + errOut
		if code == 0 || strings.Contains(msg, "damaged") || !strings.Contains(msg, "read-only file system") || !strings.Contains(msg, filepath.Join(dir, "pbem.db")) {
			t.Errorf("pbem %s on a read-only file system: exit %d, said:\n%s\nwant it refused as read-only, naming pbem.db, not as damaged", cmd, code, msg)
		}
	}
	out, errOut, code := pbem(t, nil, "--data-dir", dir, "doctor")
	if code != 0 || !strings.Contains(out, "pbem.db: sound") {
		t.Errorf("pbem doctor on a read-only file system: exit %d: %s %s", code, out, errOut)
	}
}

package store

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readOnlyMount mounts a tmpfs at a new directory, lets fill put files in
// it, then remounts it read-only (unmounted at the end of the test).
func readOnlyMount(t *testing.T, fill func(dir string)) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=16m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the test needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	fill(dir)
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, "size=16m"); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	return dir
}

// wantNoAccess checks that err says why the file could not be opened in
// the operator's terms, with its path, and does not call it damaged.
func wantNoAccess(t *testing.T, err error, path string, says ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("open %s: no error", path)
	}
	if !errors.Is(err, ErrNoAccess) || errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "damaged") {
		t.Fatalf("open %s: %v; want an access error, not damage", path, err)
	}
	for _, s := range append(says, path) {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error does not say %q: %v", s, err)
		}
	}
}

// A sound store and mail host file on a read-only file system: opened
// for writing (pbem serve, pbem mailboxes) they are refused as read-only,
// never as damaged; opened for reading (pbem doctor) they are sound; and
// no new file is made there.
func TestOpenOnAReadOnlyFileSystemSaysReadOnly(t *testing.T) {
	dir := readOnlyMount(t, func(dir string) {
		st, err := Open(filepath.Join(dir, "pbem.db"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append("g1", 0, order("g1", "k1", "a")); err != nil {
			t.Fatal(err)
		}
		st.Close()
		kv, err := OpenKV(filepath.Join(dir, "mailhost.db"), KVOptions{Buckets: []string{"host"}})
		if err != nil {
			t.Fatal(err)
		}
		kv.Close()
	})
	db, mh := filepath.Join(dir, "pbem.db"), filepath.Join(dir, "mailhost.db")
	_, err := Open(db, Options{MustExist: true})
	wantNoAccess(t, err, db, "read-only file system", "remount it read-write")
	_, err = OpenKV(mh, KVOptions{Buckets: []string{"host"}})
	wantNoAccess(t, err, mh, "read-only file system")
	fresh := filepath.Join(dir, "new.db")
	_, err = Open(fresh, Options{})
	wantNoAccess(t, err, fresh, "read-only file system")

	st, err := Open(db, Options{ReadOnly: true, MustExist: true})
	if err != nil {
		t.Fatalf("read-only open on a read-only file system: %v", err)
	}
	defer st.Close()
	if ps, err := st.Check(); err != nil || len(ps) > 0 {
		t.Fatalf("check: %v %v", ps, err)
	}
}

// A file this process may not write (immutable: even root may not) is
// refused as such, never as damaged.
func TestOpenOfAnImmutableFileSaysPermissionDenied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	st, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s (the test needs root and a file system with attributes)", err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	_, err = Open(path, Options{MustExist: true})
	wantNoAccess(t, err, path, "permission denied", "may not write it", "immutable")
}

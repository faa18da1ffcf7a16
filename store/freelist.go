package store

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"time"
)

// bbolt trusts a file's structure: it sizes an allocation by the count in
// the free list page without checking it against the page, and a cursor
// follows branch pages wherever they point. One flipped byte there makes
// opening or reading the file ask for gigabytes or descend for ever, and
// the kernel's OOM killer ends the process: no error, no recover. So
// checkShape reads the two meta pages, the free list's header and every
// tree's pages as bbolt will, and refuses what would run away, before
// bbolt sees it. The layout is bbolt's file format (version 2), in the
// machine's byte order as bbolt writes it.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	pageHeaderSize  = 16 // id, flags, count, overflow
	metaSize        = 64 // up to and with the checksum
	metaChecksumAt  = 56
	freelistFlag    = 0x10
	noFreelist      = ^uint64(0)
	maxFreelistSize = 1 << 40
)

type boltMeta struct {
	pageSize                  uint32
	root, freelist, hwm, txid uint64
}

// readMeta reads the meta page at off; ok is false when it does not
// validate (bbolt will not use it).
func readMeta(r io.ReaderAt, off int64) (m boltMeta, ok bool) {
	b := make([]byte, pageHeaderSize+metaSize)
	if _, err := r.ReadAt(b, off); err != nil {
		return m, false
	}
	meta := b[pageHeaderSize:]
	ne := binary.NativeEndian
	h := fnv.New64a()
	h.Write(meta[:metaChecksumAt])
	if ne.Uint32(meta[0:]) != boltMagic || ne.Uint32(meta[4:]) != boltVersion || ne.Uint64(meta[metaChecksumAt:]) != h.Sum64() {
		return m, false
	}
	// magic, version, page size, flags, root bucket (16), free list, high
	// water mark, txid.
	return boltMeta{pageSize: ne.Uint32(meta[8:]), root: ne.Uint64(meta[16:]), freelist: ne.Uint64(meta[32:]),
		hwm: ne.Uint64(meta[40:]), txid: ne.Uint64(meta[48:])}, true
}

// checkShape returns an error wrapping ErrDamaged when the file, as the
// meta bbolt will use describes it, would make bbolt allocate or descend
// without bound: a free list claiming more page ids than its pages hold,
// or a tree that is not one (see walkTrees).
func checkShape(r io.ReaderAt, size int64) error {
	m0, ok0 := readMeta(r, 0)
	pageSize := int64(os.Getpagesize())
	if ok0 {
		pageSize = int64(m0.pageSize)
	}
	m1, ok1 := readMeta(r, pageSize)
	var m boltMeta
	switch {
	case ok0 && ok1 && m1.txid > m0.txid, !ok0 && ok1:
		m = m1
	case ok0:
		m = m0
	default:
		return nil // no meta validates: bbolt says so itself
	}
	if m.freelist == noFreelist {
		return walkTrees(r, size, m)
	}
	pos := int64(m.freelist) * int64(m.pageSize)
	if m.freelist > uint64(size) || pos+pageHeaderSize+8 > size {
		return fmt.Errorf("%w: its free list is at page %d, past the end of the file", ErrDamaged, m.freelist)
	}
	b := make([]byte, pageHeaderSize+8)
	if _, err := r.ReadAt(b, pos); err != nil {
		return fmt.Errorf("%w: reading its free list: %v", ErrDamaged, err)
	}
	ne := binary.NativeEndian
	flags, count, overflow := ne.Uint16(b[8:]), uint64(ne.Uint16(b[10:])), int64(ne.Uint32(b[12:]))
	if flags != freelistFlag {
		return fmt.Errorf("%w: its free list page %d is not one (flags %#x)", ErrDamaged, m.freelist, flags)
	}
	ids := count
	if count == 0xFFFF { // the count is the first element
		ids = ne.Uint64(b[pageHeaderSize:]) + 1
	}
	span := (overflow + 1) * int64(m.pageSize)
	if ids > maxFreelistSize || pageHeaderSize+8*int64(ids) > span || pos+span > size {
		return fmt.Errorf("%w: its free list claims %d pages, more than its page holds", ErrDamaged, ids)
	}
	return walkTrees(r, size, m)
}

// precheck runs checkShape on the file at path under a shared lock (so no
// writer is halfway through a page meanwhile), and under guard: a file cut
// short while it is walked faults, and the fault becomes an error.
func precheck(path string, timeout time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt will say what is wrong
	}
	defer f.Close() // releases the lock too
	if _, err := lockShared(f, timeout); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	if err := guard(func() error { return checkShape(f, fi.Size()) }); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	return nil
}

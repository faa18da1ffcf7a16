package store

import (
	"encoding/binary"
	"fmt"
	"io"
)

// walkTrees checks the shape of every bucket's tree in a bbolt file before
// bbolt walks it: every page reached from the root is below the high water
// mark, a branch or a leaf, its elements inside it, and reached once. bbolt
// trusts all of this: a damaged branch that points back up the tree makes
// any cursor descend for ever (and grow its stack until the process is
// killed for its memory), which no recover can stop. The layout is bbolt's
// file format (version 2).
func walkTrees(r io.ReaderAt, size int64, m boltMeta) error {
	if m.pageSize < 512 || m.hwm > uint64(size)/uint64(m.pageSize)+1 {
		return fmt.Errorf("%w: a page size of %d and %d pages do not fit a file of %d bytes", ErrDamaged, m.pageSize, m.hwm, size)
	}
	w := &treeWalker{at: readerAt(r), size: size, ps: int64(m.pageSize), hwm: m.hwm, seen: make([]uint64, m.hwm/64+1)}
	if data, unmap, err := mapFile(r, size); err == nil {
		defer unmap()
		w.drop = func() { dropPages(data) }
		w.at = func(off, n int64) ([]byte, error) {
			if off < 0 || n < 0 || off+n > int64(len(data)) {
				return nil, io.ErrUnexpectedEOF
			}
			return data[off : off+n], nil
		}
	}
	return w.page(m.root, 0)
}

// readerAt reads n bytes at off with r.
func readerAt(r io.ReaderAt) func(off, n int64) ([]byte, error) {
	return func(off, n int64) ([]byte, error) {
		b := make([]byte, n)
		if _, err := r.ReadAt(b, off); err != nil {
			return nil, err
		}
		return b, nil
	}
}

const (
	branchFlag     = 0x01
	leafFlag       = 0x02
	bucketLeafFlag = 0x01
	elementSize    = 16
	maxTreeDepth   = 64 // bbolt's trees are a handful of levels deep
	maxPageSpan    = 64 << 20
)

type treeWalker struct {
	// at returns n bytes at off (a view of the file's mapping where it
	// can be had: reading every page's header is then no system call).
	at   func(off, n int64) ([]byte, error)
	size int64
	ps   int64
	hwm  uint64
	seen []uint64 // a bit per page
	// drop, with a mapping, lets go of the pages read so far: called
	// every dropEvery pages, it bounds what the walk adds to the peak
	// resident set (a 2.5 GB store would otherwise be resident at once).
	drop    func()
	visited int
}

const dropEvery = 8192 // pages (32 MiB of 4 KiB pages)

func (w *treeWalker) bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, a...))
}

// page checks the tree rooted at page id.
func (w *treeWalker) page(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return w.bad("a tree deeper than %d levels (a page pointing back up the tree?)", maxTreeDepth)
	}
	if id < 2 || id >= w.hwm {
		return w.bad("a reference to page %d, outside the file's %d pages", id, w.hwm)
	}
	hdr, err := w.at(int64(id)*w.ps, pageHeaderSize)
	if err != nil {
		return w.bad("page %d cannot be read: %v", id, err)
	}
	ne := binary.NativeEndian
	flags, count, overflow := ne.Uint16(hdr[8:]), int64(ne.Uint16(hdr[10:])), uint64(ne.Uint32(hdr[12:]))
	if id+overflow >= w.hwm {
		return w.bad("page %d runs past the file's %d pages", id, w.hwm)
	}
	if w.visited++; w.drop != nil && w.visited%dropEvery == 0 {
		w.drop()
	}
	for p := id; p <= id+overflow; p++ {
		if w.seen[p/64]&(1<<(p%64)) != 0 {
			return w.bad("page %d is reached twice (a loop in a tree?)", p)
		}
		w.seen[p/64] |= 1 << (p % 64)
	}
	span := int64(overflow+1) * w.ps
	if span > maxPageSpan || pageHeaderSize+count*elementSize > span {
		return w.bad("page %d claims %d elements in %d bytes", id, count, span)
	}
	// The elements' array (and, for a leaf, the bucket values, read as
	// they come).
	b, err := w.at(int64(id)*w.ps, pageHeaderSize+count*elementSize)
	if err != nil {
		return w.bad("page %d cannot be read: %v", id, err)
	}
	switch flags {
	case branchFlag:
		children := make([]uint64, count)
		for i := range children {
			children[i] = ne.Uint64(b[pageHeaderSize+int64(i)*elementSize+8:])
		}
		for _, c := range children {
			if err := w.page(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	case leafFlag:
		return w.leaf(b, int64(id)*w.ps, span, count, depth)
	}
	return w.bad("page %d is of kind %#x where a branch or a leaf belongs", id, flags)
}

// leaf checks the elements of a leaf page whose header and elements are
// b, at offset off in the file (off < 0: an inline bucket's page, all in
// b), and the trees of the buckets it holds.
func (w *treeWalker) leaf(b []byte, off, span, count int64, depth int) error {
	ne := binary.NativeEndian
	type sub struct {
		root   uint64
		inline []byte
	}
	var subs []sub
	for i := int64(0); i < count; i++ {
		e := pageHeaderSize + i*elementSize
		flags, pos, ksize, vsize := ne.Uint32(b[e:]), int64(ne.Uint32(b[e+4:])), int64(ne.Uint32(b[e+8:])), int64(ne.Uint32(b[e+12:]))
		if e+pos+ksize+vsize > span {
			return w.bad("a leaf's element %d runs past its page", i)
		}
		if flags&bucketLeafFlag == 0 {
			continue
		}
		if vsize < 16 {
			return w.bad("a bucket's header of %d bytes", vsize)
		}
		var v []byte
		if off < 0 {
			v = b[e+pos+ksize : e+pos+ksize+vsize]
		} else {
			var err error
			if v, err = w.at(off+e+pos+ksize, vsize); err != nil {
				return w.bad("a bucket's header cannot be read: %v", err)
			}
		}
		if root := ne.Uint64(v); root != 0 {
			subs = append(subs, sub{root: root})
		} else {
			subs = append(subs, sub{inline: v[16:]})
		}
	}
	for _, s := range subs {
		if s.inline == nil {
			if err := w.page(s.root, depth+1); err != nil {
				return err
			}
			continue
		}
		// An inline bucket: a leaf page inside the value.
		p := s.inline
		if int64(len(p)) < pageHeaderSize {
			return w.bad("an inline bucket of %d bytes", len(p))
		}
		flags, n := ne.Uint16(p[8:]), int64(ne.Uint16(p[10:]))
		if flags != leafFlag || pageHeaderSize+n*elementSize > int64(len(p)) {
			return w.bad("an inline bucket that is no leaf")
		}
		if err := w.leaf(p, -1, int64(len(p)), n, depth+1); err != nil {
			return err
		}
	}
	return nil
}

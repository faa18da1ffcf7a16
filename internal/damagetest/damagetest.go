// Package damagetest damages a database file's bytes in the ways a disk,
// a crash or a careless hand can — cut short, single bytes flipped across
// every page, whole pages zeroed or filled with noise, pages swapped — for
// the robustness tests of the store and of the pbem command.
package damagetest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Copy is one damaged copy of a file.
type Copy struct {
	Name string
	Data []byte
}

// page is bbolt's page size on the machines pbem runs on.
const page = 4096

// Of returns damaged copies of good (rng picks the bytes flipped, the
// noise and the pages swapped).
func Of(good []byte, rng *rand.Rand) []Copy {
	var out []Copy
	for _, n := range []int{0, 1, 100, page - 1, page, page + 17, 2 * page, 3*page + 5, len(good) / 2, len(good) - page, len(good) - 1} {
		if n >= 0 && n < len(good) {
			out = append(out, Copy{fmt.Sprintf("cut to %d bytes", n), bytes.Clone(good[:n])})
		}
	}
	pages := len(good) / page
	for p := 0; p < pages; p++ {
		for _, off := range []int{0, 8, 10, 12, 16, 20, 40, 64 + rng.IntN(page-64)} {
			d := bytes.Clone(good)
			d[p*page+off] ^= byte(1 + rng.IntN(255))
			out = append(out, Copy{fmt.Sprintf("page %d byte %d flipped", p, off), d})
		}
		z := bytes.Clone(good)
		clear(z[p*page : (p+1)*page])
		out = append(out, Copy{fmt.Sprintf("page %d zeroed", p), z})
		n := bytes.Clone(good)
		for i := p * page; i < (p+1)*page; i++ {
			n[i] = byte(rng.Uint32())
		}
		out = append(out, Copy{fmt.Sprintf("page %d noise", p), n})
	}
	for i := 0; i < 8 && pages > 3; i++ {
		a, b := 2+rng.IntN(pages-2), 2+rng.IntN(pages-2)
		d := bytes.Clone(good)
		copy(d[a*page:(a+1)*page], good[b*page:(b+1)*page])
		copy(d[b*page:(b+1)*page], good[a*page:(a+1)*page])
		out = append(out, Copy{fmt.Sprintf("pages %d and %d swapped", a, b), d})
	}
	return out
}

// Sample returns n of Of's copies, picked by rng, always with some cut
// short (the damage that faulted most before the store guarded against
// it).
func Sample(good []byte, rng *rand.Rand, n int) []Copy {
	all := Of(good, rng)
	var out []Copy
	for _, c := range all[:4] {
		if len(out) < n {
			out = append(out, c)
		}
	}
	for _, i := range rng.Perm(len(all) - 4) {
		if len(out) >= n {
			break
		}
		out = append(out, all[4+i])
	}
	return out
}

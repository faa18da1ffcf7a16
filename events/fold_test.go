package events

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"
)

// foldSample is a decision with what facts hold: every kind of argument,
// facts of one kind with different arguments, empty and long strings,
// non-ASCII text, and many distinct short strings (more than share a slot
// of the intern table).
func foldSample(n int) *OrderAccepted {
	fs := []Fact{
		NewFact("march.begun", S("unit", "ORNE"), S("side", "USA"), I("ma", 4), IL("dice", 2, 3), S("plan", "1407 1307 FORCE IF MA < 4 STOP AT 1307"), B("opt", false)),
		NewFact("march.begun", S("unit", "PASK"), S("side", "USA"), I("ma", 5), S("leader", "BRND"), S("plan", "1508"), B("opt", true)),
		NewFact("march.begun", S("unit", "STAR"), S("side", "CSA"), I("ma", -6), I("die", 6), S("plan", ""), B("opt", false)),
		NewFact("referee.pending", S("step", "random-event"), S("note", "Ça ira — a note longer than the interned strings"), SL("units", "KELL", "", "ż"), IL("none")),
		NewFact("cycle.ended"),
		NewFact("", S("", "")),
	}
	for i := range n {
		fs = append(fs, NewFact(fmt.Sprintf("kind.%d", i%7), S(fmt.Sprintf("k%d", i%5), fmt.Sprintf("value-%d", i)), I("n", int64(i)), SL("hexes", fmt.Sprintf("%04d", i), fmt.Sprintf("%04d", i+1))))
	}
	return &OrderAccepted{Input: 9, Player: "usa", RulesetVersion: "0.2.0", Echo: []string{"read: MARCH Orne 1407"}, Facts: fs,
		Dice: []Die{{Index: 10, Purpose: "march MA", Sides: 6, Value: 4}, {Index: 11, Purpose: "march MA", Sides: 6, Value: 2}}}
}

// DecodeAccepted gives exactly the facts Decode gives, decision after
// decision (so with the intern table filling and its slots being taken
// over), and they stay as they were when the buffer they were read from
// is overwritten, as a replay's buffer is by the next event.
func TestDecodeAcceptedFactsOutliveTheirBuffer(t *testing.T) {
	var kept [][]Fact
	var want [][]Fact
	for round := range 3 {
		p := foldSample(6000 * (round + 1))
		e := New("g", time.Unix(0, 0), "", p)
		buf := e.Payload
		a, err := DecodeAccepted(&e)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Facts, p.Facts) {
			t.Fatalf("round %d: DecodeAccepted's facts differ from the encoded ones", round)
		}
		if a.Input != 9 || a.NDice != 2 || a.FirstDie != 10 || a.LastIndex != 11 || !a.Contiguous {
			t.Fatalf("round %d: %+v", round, a)
		}
		for i := range buf {
			buf[i] = 0xff // the buffer reused
		}
		kept, want = append(kept, a.Facts), append(want, p.Facts)
	}
	for i := range kept {
		if !reflect.DeepEqual(kept[i], want[i]) {
			t.Fatalf("decision %d: facts changed after their buffer was overwritten", i)
		}
	}
}

// Decoding from many goroutines at once (games replay side by side)
// shares the intern table safely and gives every one the same facts.
func TestDecodeAcceptedConcurrently(t *testing.T) {
	p := foldSample(3000)
	e := New("g", time.Unix(0, 0), "", p)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				a, err := DecodeAccepted(&e)
				if err == nil && !reflect.DeepEqual(a.Facts, p.Facts) {
					err = errors.New("facts differ")
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// Bytes that are not UTF-8, or not a fact list, are refused as Decode
// refuses them.
func TestDecodeAcceptedRefusesWhatDecodeRefuses(t *testing.T) {
	for _, bad := range []string{"UNIT\xff", "\xffnit.moved.with.a.long.kind.name"} {
		for _, f := range []Fact{NewFact(bad), NewFact("k", S(bad, "v")), NewFact("k", S("unit", bad)), NewFact("k", SL("units", "A", bad))} {
			e := New("g", time.Unix(0, 0), "", &OrderAccepted{Facts: []Fact{f}})
			if _, err := Decode(&e); err == nil {
				t.Fatalf("Decode accepted %q", f)
			}
			if _, err := DecodeAccepted(&e); !errors.Is(err, ErrCorrupt) {
				t.Errorf("DecodeAccepted(%q): err %v, want ErrCorrupt", f, err)
			}
		}
	}
	e := New("g", time.Unix(0, 0), "", &OrderAccepted{Facts: []Fact{NewFact("k", I("n", 1))}})
	for cut := 1; cut < len(e.Payload); cut++ {
		c := e
		c.Payload = e.Payload[:cut]
		if _, err := DecodeAccepted(&c); err == nil {
			t.Fatalf("a payload cut at %d of %d bytes decoded", cut, len(e.Payload))
		}
	}
}

// A FoldBuffer gives the facts DecodeAccepted gives; decisions decoded
// into it before a Reset all stay as they were (the buffer grows rather
// than overwrite them); and after a Reset it decodes the same decision
// again in its own memory, allocating only strings (those too long to
// intern, or pushed out of the intern table).
func TestFoldBufferDecodesAlikeAndReusesItsMemory(t *testing.T) {
	var buf FoldBuffer
	var samples []*OrderAccepted
	var got [][]Fact
	for i, n := range []int{3, 40, 1, 300} {
		p := foldSample(n)
		e := New("g", time.Unix(0, 0), "", p)
		a, err := buf.DecodeAccepted(&e)
		if err != nil {
			t.Fatalf("decision %d: %v", i, err)
		}
		samples, got = append(samples, p), append(got, a.Facts)
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], samples[i].Facts) {
			t.Fatalf("decision %d differs after the later ones were decoded into the same buffer", i)
		}
	}
	p := foldSample(300)
	e := New("g", time.Unix(0, 0), "", p)
	bytesPer := func(decode func() (Accepted, error)) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 20 {
			if a, err := decode(); err != nil || len(a.Facts) != len(p.Facts) {
				t.Fatalf("%d facts, %v", len(a.Facts), err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 20
	}
	fresh := bytesPer(func() (Accepted, error) { return DecodeAccepted(&e) })
	reused := bytesPer(func() (Accepted, error) { buf.Reset(); return buf.DecodeAccepted(&e) })
	if reused*10 > fresh {
		t.Errorf("decoding into a reset buffer allocated %d bytes a decision, DecodeAccepted %d: the buffer is not reused", reused, fresh)
	}
	buf.Reset()
	if a, _ := buf.DecodeAccepted(&e); !reflect.DeepEqual(a.Facts, p.Facts) {
		t.Fatal("the facts decoded into a reused buffer differ")
	}
}

// Facts of a kind a fold skips are left out, the others kept in order and
// whole, with the visibilities still matched to every fact; and a skipped
// fact is checked as a decoded one is.
func TestFoldBufferSkipsKindsButChecksThem(t *testing.T) {
	p := foldSample(20)
	p.Facts[len(p.Facts)-1].Vis = ToSide("USA")
	e := New("g", time.Unix(0, 0), "", p)
	skip := []string{"march.begun", "kind.3", "cycle.ended"}
	var want []Fact
	for _, f := range p.Facts {
		if f.Kind != "march.begun" && f.Kind != "kind.3" && f.Kind != "cycle.ended" {
			f.Vis = Vis{}
			want = append(want, f)
		}
	}
	var buf FoldBuffer
	a, err := buf.DecodeAccepted(&e, skip...)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Facts) != len(want) || len(want) == len(p.Facts) {
		t.Fatalf("%d facts kept of %d, want %d", len(a.Facts), len(p.Facts), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(a.Facts[i], want[i]) {
			t.Fatalf("fact %d: %v, want %v", i, a.Facts[i], want[i])
		}
	}
	if a.Input != 9 || a.NDice != 2 || a.FirstDie != 10 || !a.Contiguous {
		t.Fatalf("input and dice: %+v", a)
	}
	for _, bad := range []Fact{
		NewFact("march.begun", S("unit", "OR\xffNE")),
		NewFact("march.begun", S("un\xffit", "ORNE")),
		NewFact("march.begun", SL("units", "A", "\xff")),
		NewFact("march.begun", Arg{Key: "opt", Kind: ArgBool, Int: 2}),
		NewFact("march.begun", Arg{Key: "x", Kind: 9}),
	} {
		e := New("g", time.Unix(0, 0), "", &OrderAccepted{Facts: []Fact{NewFact("kept"), bad}})
		if _, err := Decode(&e); err == nil {
			t.Fatalf("Decode accepted %v", bad)
		}
		if _, err := buf.DecodeAccepted(&e, skip...); !errors.Is(err, ErrCorrupt) {
			t.Errorf("DecodeAccepted skipping %v: err %v, want ErrCorrupt", bad, err)
		}
	}
}

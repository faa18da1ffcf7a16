package events

import (
	"fmt"
	"strconv"
	"strings"
)

// A Fact is one small, explicit thing that happened in the game, produced by
// a ruleset's Decide and applied by its Evolve: "unit.moved unit=NEWT
// path=2314,2315 mp=3". Facts are generic (a kind and ordered arguments)
// so that the log, the audit and the comparison of re-decided facts read the
// same for every rule system, like the game's own record sheet.
type Fact struct {
	Kind string
	Args []Arg
	// Vis says who may see the fact (zero: everyone).
	Vis Vis
}

// ArgKind tells which field of an Arg holds its value.
type ArgKind uint8

// The kinds of argument values.
const (
	ArgInt ArgKind = iota + 1
	ArgStr
	ArgInts
	ArgStrs
	ArgBool
)

// Arg is one named value of a fact.
type Arg struct {
	Key  string
	Kind ArgKind
	Int  int64
	Str  string
	Ints []int64
	Strs []string
}

// I makes an integer argument.
func I(key string, v int64) Arg { return Arg{Key: key, Kind: ArgInt, Int: v} }

// S makes a string argument.
func S(key, v string) Arg { return Arg{Key: key, Kind: ArgStr, Str: v} }

// IL makes an integer-list argument.
func IL(key string, v ...int64) Arg { return Arg{Key: key, Kind: ArgInts, Ints: v} }

// SL makes a string-list argument.
func SL(key string, v ...string) Arg { return Arg{Key: key, Kind: ArgStrs, Strs: v} }

// B makes a boolean argument.
func B(key string, v bool) Arg {
	a := Arg{Key: key, Kind: ArgBool}
	if v {
		a.Int = 1
	}
	return a
}

// NewFact builds a fact.
func NewFact(kind string, args ...Arg) Fact { return Fact{Kind: kind, Args: args} }

// To returns f with visibility v.
func (f Fact) To(v Vis) Fact {
	f.Vis = v
	return f
}

// arg returns the argument named key, or nil.
func (f Fact) arg(key string) *Arg {
	// By index: ranging over the values would copy every argument.
	for i := range f.Args {
		if f.Args[i].Key == key {
			return &f.Args[i]
		}
	}
	return nil
}

// Has reports whether the fact has an argument named key.
func (f Fact) Has(key string) bool { return f.arg(key) != nil }

// Int returns the integer argument key (0 if absent).
func (f Fact) Int(key string) int64 {
	if a := f.arg(key); a != nil {
		return a.Int
	}
	return 0
}

// Str returns the string argument key ("" if absent).
func (f Fact) Str(key string) string {
	if a := f.arg(key); a != nil {
		return a.Str
	}
	return ""
}

// Ints returns the integer-list argument key.
func (f Fact) Ints(key string) []int64 {
	if a := f.arg(key); a != nil {
		return a.Ints
	}
	return nil
}

// Strs returns the string-list argument key.
func (f Fact) Strs(key string) []string {
	if a := f.arg(key); a != nil {
		return a.Strs
	}
	return nil
}

// Bool returns the boolean argument key.
func (f Fact) Bool(key string) bool {
	a := f.arg(key)
	return a != nil && a.Kind == ArgBool && a.Int == 1
}

// String renders the fact on one line, as the log and the audit print it.
func (f Fact) String() string {
	var b strings.Builder
	b.WriteString(f.Kind)
	for _, a := range f.Args {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteByte('=')
		switch a.Kind {
		case ArgInt:
			b.WriteString(strconv.FormatInt(a.Int, 10))
		case ArgStr:
			b.WriteString(quoteIfNeeded(a.Str))
		case ArgBool:
			b.WriteString(strconv.FormatBool(a.Int == 1))
		case ArgInts:
			for i, v := range a.Ints {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatInt(v, 10))
			}
		case ArgStrs:
			for i, v := range a.Strs {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(quoteIfNeeded(v))
			}
		}
	}
	if !f.Vis.Public() {
		b.WriteByte(' ')
		b.WriteString(f.Vis.String())
	}
	return b.String()
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " ,=\"\t\n") {
		return strconv.Quote(s)
	}
	return s
}

func (a *Arg) encode(w *Writer) {
	w.String(a.Key)
	w.Uvarint(uint64(a.Kind))
	switch a.Kind {
	case ArgInt, ArgBool:
		w.Varint(a.Int)
	case ArgStr:
		w.String(a.Str)
	case ArgInts:
		w.Ints(a.Ints)
	case ArgStrs:
		w.Strings(a.Strs)
	}
}

func (a *Arg) decode(r *Reader) { a.decodeWith(r, r.String) }

// decodeWith decodes an argument, reading its strings with str (plain, or
// interned for a fold).
func (a *Arg) decodeWith(r *Reader, str func() string) {
	a.Key = str()
	a.Kind = ArgKind(r.Uvarint())
	switch a.Kind {
	case ArgInt:
		a.Int = r.Varint()
	case ArgBool:
		a.Int = r.Varint()
		if a.Int != 0 && a.Int != 1 {
			r.fail("bool argument")
		}
	case ArgStr:
		a.Str = str()
	case ArgInts:
		a.Ints = r.Ints()
	case ArgStrs:
		if n := r.count(); n > 0 {
			a.Strs = make([]string, n)
			for i := range a.Strs {
				a.Strs[i] = str()
			}
		}
	default:
		r.fail(fmt.Sprintf("argument kind %d", a.Kind))
	}
}

func encodeFacts(w *Writer, fs []Fact) {
	w.Uvarint(uint64(len(fs)))
	for i := range fs {
		w.String(fs[i].Kind)
		w.Uvarint(uint64(len(fs[i].Args)))
		for j := range fs[i].Args {
			fs[i].Args[j].encode(w)
		}
	}
}

func decodeFacts(r *Reader) []Fact {
	n := r.count()
	if n == 0 {
		return nil
	}
	fs := make([]Fact, n)
	for i := range fs {
		fs[i].Kind = r.String()
		m := r.count()
		if m > 0 {
			fs[i].Args = make([]Arg, m)
			for j := range fs[i].Args {
				fs[i].Args[j].decode(r)
			}
		}
	}
	return fs
}

// Die is one die roll: the Index-th roll of the game's dice stream, thrown
// for Purpose, with Sides faces, giving Value in 1..Sides. Anyone holding
// the revealed seed can recompute it (see play.VerifyDie).
type Die struct {
	Index   uint64
	Purpose string
	Sides   int
	Value   int
	// Vis says who may see the roll, its number and its value (zero:
	// everyone); a die thrown for a hidden purpose (a draw from a deck)
	// is hidden with it.
	Vis Vis
}

func (d Die) String() string {
	s := fmt.Sprintf("#%d d%d=%d (%s)", d.Index, d.Sides, d.Value, d.Purpose)
	if !d.Vis.Public() {
		s += " " + d.Vis.String()
	}
	return s
}

func encodeDice(w *Writer, ds []Die) {
	w.Uvarint(uint64(len(ds)))
	for _, d := range ds {
		w.Uvarint(d.Index)
		w.String(d.Purpose)
		w.Int(d.Sides)
		w.Int(d.Value)
	}
}

func decodeDice(r *Reader) []Die {
	n := r.count()
	if n == 0 {
		return nil
	}
	ds := make([]Die, n)
	for i := range ds {
		ds[i].Index = r.Uvarint()
		ds[i].Purpose = r.String()
		ds[i].Sides = r.Int()
		ds[i].Value = r.Int()
	}
	return ds
}

package engine

import (
	"fmt"
	"slices"
	"testing"

	"pbem/events"
)

// A FactSet declares the facts one rule system decides, in one place: each
// kind with its arguments, and each argument as a typed field that builds
// and reads it. A rule system names its kinds with string constants and
// its arguments with the fields its FactSet makes, so a misspelt kind or
// argument is a compile error, and its schemas (Facts) come from the same
// declarations:
//
//	const kUnitMoved = "unit.moved"
//
//	var (
//		factSet = engine.NewFactSet("gcacw")
//		aUnit   = factSet.Str("unit")
//		aPath   = factSet.Ints("path")
//		aForced = factSet.Bool("forced")
//	)
//
//	var _ = []string{
//		factSet.Kind(kUnitMoved, aUnit, aPath, engine.Opt(aForced)),
//	}
//
//	m.Emit(kUnitMoved, aUnit.Arg("NEWT"), aPath.Arg(2314, 2315))
//	switch f.Kind {
//	case kUnitMoved:
//		u := aUnit.Of(f)
//	}
//
// Kinds are constants so that the rules' switches over f.Kind stay
// switches over constants (a kind given twice does not compile).
//
// A field read from a fact whose kind does not list it gives the zero
// value, as events.Fact's own readers do; in a test binary (testing.Testing)
// it panics instead, so a field read on the wrong kind fails the tests,
// the acceptance suite among them. The encoding of a fact is unchanged: a
// field makes the same events.Arg that events.S, events.I and the rest do.
type FactSet struct {
	system string
	kinds  []FactSchema
	byKind map[string]int // index in kinds
	legacy []bool         // by index in kinds: read from old logs, no longer decided
}

// strictFacts makes every field read check its fact's kind: on in test
// binaries, off in the server, where a read costs what events.Fact's does.
var strictFacts = testing.Testing()

// NewFactSet starts the fact declarations of the rule system named system
// (the name is for messages).
func NewFactSet(system string) *FactSet {
	return &FactSet{system: system, byKind: map[string]int{}}
}

// An ArgDecl is one argument of a kind given to FactSet.Kind: a field, or a
// field made optional with Opt.
type ArgDecl interface{ argSpec() ArgSpec }

type optional struct{ d ArgDecl }

func (o optional) argSpec() ArgSpec {
	s := o.d.argSpec()
	s.Optional = true
	return s
}

// Opt marks an argument that some facts of the kind leave out.
func Opt(d ArgDecl) ArgDecl { return optional{d} }

// Kind declares the fact kind named name with its arguments, in the order
// its facts carry them, and returns name. A kind declared twice, or an
// argument given twice, is a programming error and panics (facts are
// declared once, when the package is initialised).
func (s *FactSet) Kind(name string, args ...ArgDecl) string { return s.declare(name, false, args) }

// Legacy declares a kind the rules no longer decide but still read from
// the logs of older versions, with the arguments they read: it is checked
// like any other kind when read, and left out of Schemas, so a decision
// that makes one is refused.
func (s *FactSet) Legacy(name string, args ...ArgDecl) string { return s.declare(name, true, args) }

func (s *FactSet) declare(name string, legacy bool, args []ArgDecl) string {
	if _, dup := s.byKind[name]; dup {
		panic(fmt.Sprintf("engine.FactSet(%s): kind %s declared twice", s.system, name))
	}
	sc := FactSchema{Kind: name}
	for _, a := range args {
		spec := a.argSpec()
		if slices.ContainsFunc(sc.Args, func(x ArgSpec) bool { return x.Key == spec.Key }) {
			panic(fmt.Sprintf("engine.FactSet(%s): kind %s lists %s twice", s.system, name, spec.Key))
		}
		sc.Args = append(sc.Args, spec)
	}
	s.byKind[name] = len(s.kinds)
	s.kinds = append(s.kinds, sc)
	s.legacy = append(s.legacy, legacy)
	return name
}

// Schemas are the schemas of the kinds the rules decide (legacy kinds
// left out), in the order they were declared: a Teller's Facts.
func (s *FactSet) Schemas() []FactSchema {
	out := make([]FactSchema, 0, len(s.kinds))
	for i, sc := range s.kinds {
		if !s.legacy[i] {
			out = append(out, sc)
		}
	}
	return out
}

// Schema returns the schema of the declared kind (legacy or not), and
// whether there is one.
func (s *FactSet) Schema(kind string) (FactSchema, bool) {
	i, ok := s.byKind[kind]
	if !ok {
		return FactSchema{}, false
	}
	return s.kinds[i], true
}

// field makes an argument of the set's facts.
func (s *FactSet) field(key string, k events.ArgKind) field {
	return field{set: s, key: key, kind: k}
}

// field is what every typed field holds: its key, its type and the set
// whose kinds it is checked against.
type field struct {
	set  *FactSet
	key  string
	kind events.ArgKind
}

func (d field) argSpec() ArgSpec { return ArgSpec{Key: d.key, Kind: d.kind} }

// Key is the argument's name, as the log writes it.
func (d field) Key() string { return d.key }

// In reports whether f carries the argument.
func (d field) In(f events.Fact) bool {
	if strictFacts {
		d.check(f)
	}
	return f.Has(d.key)
}

// check panics when f's kind is not declared or does not list the
// argument: the read is a typo, or reads the wrong kind. The readers call
// it in a test binary alone, and stay small enough to be inlined.
func (d field) check(f events.Fact) {
	sc, ok := d.set.Schema(f.Kind)
	if !ok {
		panic(fmt.Sprintf("%s: reading %q of a fact %s, a kind not declared", d.set.system, d.key, f.Kind))
	}
	if !slices.ContainsFunc(sc.Args, func(a ArgSpec) bool { return a.Key == d.key && a.Kind == d.kind }) {
		panic(fmt.Sprintf("%s: reading %q (%s) of a fact %s, whose schema has no such argument", d.set.system, d.key, argKindNames[d.kind], f.Kind))
	}
}

// Str declares a string argument.
func (s *FactSet) Str(key string) StrField { return StrField{s.field(key, events.ArgStr)} }

// Int declares an integer argument.
func (s *FactSet) Int(key string) IntField { return IntField{s.field(key, events.ArgInt)} }

// Bool declares a boolean argument.
func (s *FactSet) Bool(key string) BoolField { return BoolField{s.field(key, events.ArgBool)} }

// Strs declares a string-list argument.
func (s *FactSet) Strs(key string) StrsField { return StrsField{s.field(key, events.ArgStrs)} }

// Ints declares an integer-list argument.
func (s *FactSet) Ints(key string) IntsField { return IntsField{s.field(key, events.ArgInts)} }

// StrField is a string argument of a rule system's facts.
type StrField struct{ field }

// Arg makes the argument with value v.
func (d StrField) Arg(v string) events.Arg { return events.S(d.key, v) }

// Of reads the argument of f ("" if f leaves it out).
func (d StrField) Of(f events.Fact) string {
	if strictFacts {
		d.check(f)
	}
	return f.Str(d.key)
}

// OfAny reads the argument of a fact of any kind, "" if its kind has none:
// for code that reads one argument across all facts (a unit's name for
// every line of a report), and so is not checked.
func (d StrField) OfAny(f events.Fact) string { return f.Str(d.key) }

// IntField is an integer argument of a rule system's facts.
type IntField struct{ field }

// Arg makes the argument with value v.
func (d IntField) Arg(v int64) events.Arg { return events.I(d.key, v) }

// Of reads the argument of f (0 if f leaves it out).
func (d IntField) Of(f events.Fact) int64 {
	if strictFacts {
		d.check(f)
	}
	return f.Int(d.key)
}

// OfAny reads the argument of a fact of any kind, 0 if its kind has none;
// it is not checked (see StrField.OfAny).
func (d IntField) OfAny(f events.Fact) int64 { return f.Int(d.key) }

// BoolField is a boolean argument of a rule system's facts.
type BoolField struct{ field }

// Arg makes the argument with value v.
func (d BoolField) Arg(v bool) events.Arg { return events.B(d.key, v) }

// Of reads the argument of f (false if f leaves it out).
func (d BoolField) Of(f events.Fact) bool {
	if strictFacts {
		d.check(f)
	}
	return f.Bool(d.key)
}

// OfAny reads the argument of a fact of any kind, false if its kind has
// none; it is not checked (see StrField.OfAny).
func (d BoolField) OfAny(f events.Fact) bool { return f.Bool(d.key) }

// StrsField is a string-list argument of a rule system's facts.
type StrsField struct{ field }

// Arg makes the argument with values v.
func (d StrsField) Arg(v ...string) events.Arg { return events.SL(d.key, v...) }

// Of reads the argument of f (nil if f leaves it out). The slice is the
// fact's own: copy it before changing it.
func (d StrsField) Of(f events.Fact) []string {
	if strictFacts {
		d.check(f)
	}
	return f.Strs(d.key)
}

// OfAny reads the argument of a fact of any kind, nil if its kind has
// none; it is not checked (see StrField.OfAny).
func (d StrsField) OfAny(f events.Fact) []string { return f.Strs(d.key) }

// IntsField is an integer-list argument of a rule system's facts.
type IntsField struct{ field }

// Arg makes the argument with values v.
func (d IntsField) Arg(v ...int64) events.Arg { return events.IL(d.key, v...) }

// Of reads the argument of f (nil if f leaves it out). The slice is the
// fact's own: copy it before changing it.
func (d IntsField) Of(f events.Fact) []int64 {
	if strictFacts {
		d.check(f)
	}
	return f.Ints(d.key)
}

// OfAny reads the argument of a fact of any kind, nil if its kind has
// none; it is not checked (see StrField.OfAny).
func (d IntsField) OfAny(f events.Fact) []int64 { return f.Ints(d.key) }

// New builds a fact of the declared kind from its arguments; in a test
// binary a kind not declared, or an argument its schema does not match,
// panics (the runtime checks every decision's facts the same way before
// they are logged).
func (s *FactSet) New(kind string, args ...events.Arg) events.Fact {
	f := events.NewFact(kind, args...)
	if strictFacts {
		sc, ok := s.Schema(kind)
		if !ok {
			panic(fmt.Sprintf("%s: a fact %s, a kind not declared", s.system, kind))
		}
		if err := sc.Check(f); err != nil {
			panic(s.system + ": " + err.Error())
		}
	}
	return f
}

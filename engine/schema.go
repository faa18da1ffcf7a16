package engine

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"pbem/events"
)

// FactSchema is the shape of one kind of fact a ruleset decides: its
// arguments, each with its type, and which may be left out. The runtime
// checks every fact a decision makes against its ruleset's schemas before
// it is logged, so a missing or mistyped argument is an error at once,
// not a zero read back by Evolve later; the acceptance suite checks every
// fact of a played game the same way.
type FactSchema struct {
	Kind string
	Args []ArgSpec
}

// ArgSpec is one argument of a FactSchema.
type ArgSpec struct {
	Key      string
	Kind     events.ArgKind
	Optional bool
}

// Schema builds a FactSchema from a compact list of arguments, each
// "key:type" with type i (integer), s (string), is (integer list), ss
// (string list) or b (boolean), and a leading "?" for one that may be
// left out:
//
//	engine.Schema("unit.moved", "unit:s path:is mp:i ?forced:b")
//
// A malformed list is a programming error and panics (schemas are built
// once, when the ruleset is).
func Schema(kind, args string) FactSchema {
	s := FactSchema{Kind: kind}
	for _, a := range strings.Fields(args) {
		opt := strings.HasPrefix(a, "?")
		key, typ, ok := strings.Cut(strings.TrimPrefix(a, "?"), ":")
		if !ok || key == "" {
			panic(fmt.Sprintf("engine.Schema(%q): %q is not key:type", kind, a))
		}
		var k events.ArgKind
		switch typ {
		case "i":
			k = events.ArgInt
		case "s":
			k = events.ArgStr
		case "is":
			k = events.ArgInts
		case "ss":
			k = events.ArgStrs
		case "b":
			k = events.ArgBool
		default:
			panic(fmt.Sprintf("engine.Schema(%q): type %q of %s is none of i, s, is, ss, b", kind, typ, key))
		}
		s.Args = append(s.Args, ArgSpec{Key: key, Kind: k, Optional: opt})
	}
	return s
}

var argKindNames = map[events.ArgKind]string{events.ArgInt: "an integer", events.ArgStr: "a string",
	events.ArgInts: "a list of integers", events.ArgStrs: "a list of strings", events.ArgBool: "a boolean"}

// Check reports how f does not match s: an argument missing, of another
// type, given twice, or not in the schema.
func (s FactSchema) Check(f events.Fact) error {
	if f.Kind != s.Kind {
		return fmt.Errorf("fact %s checked against the schema of %s", f.Kind, s.Kind)
	}
	seen := make([]bool, len(s.Args))
	for _, a := range f.Args {
		i := -1
		for j := range s.Args {
			if s.Args[j].Key == a.Key {
				i = j
				break
			}
		}
		switch {
		case i < 0:
			return fmt.Errorf("fact %s: argument %q is not in its schema", f.Kind, a.Key)
		case seen[i]:
			return fmt.Errorf("fact %s: argument %q given twice", f.Kind, a.Key)
		case a.Kind != s.Args[i].Kind:
			return fmt.Errorf("fact %s: argument %q is %s, its schema says %s", f.Kind, a.Key, argKindNames[a.Kind], argKindNames[s.Args[i].Kind])
		}
		seen[i] = true
	}
	for i, a := range s.Args {
		if !seen[i] && !a.Optional {
			return fmt.Errorf("fact %s: argument %q is missing", f.Kind, a.Key)
		}
	}
	return nil
}

// Schemas is a ruleset's fact schemas by kind.
type Schemas map[string]FactSchema

// NewSchemas indexes schemas by kind; a kind given twice panics.
func NewSchemas(ss ...FactSchema) Schemas {
	m := Schemas{}
	for _, s := range ss {
		if _, dup := m[s.Kind]; dup {
			panic("engine.NewSchemas: " + s.Kind + " twice")
		}
		m[s.Kind] = s
	}
	return m
}

// Check checks f against its kind's schema; a kind without one is an
// error.
func (m Schemas) Check(f events.Fact) error {
	s, ok := m[f.Kind]
	if !ok {
		return fmt.Errorf("fact %s: no schema for this kind (add it to the ruleset's Facts)", f.Kind)
	}
	return s.Check(f)
}

// Kinds lists the kinds, sorted.
func (m Schemas) Kinds() []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// schemaCache holds each ruleset's schemas, keyed by its Go type, name
// and version: a wrapper of a ruleset (an audit's altered rules) may list
// other facts under the same name and version.
var schemaCache sync.Map // schemaKey → Schemas

type schemaKey struct {
	t             reflect.Type
	name, version string
}

// SchemasOf returns rs's fact schemas indexed, once per ruleset version.
func SchemasOf(rs Ruleset) Schemas {
	key := schemaKey{reflect.TypeOf(rs), rs.Name(), rs.Version()}
	if m, ok := schemaCache.Load(key); ok {
		return m.(Schemas)
	}
	m := NewSchemas(rs.Facts()...)
	schemaCache.Store(key, m)
	return m
}

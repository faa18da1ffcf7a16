package events

import (
	"fmt"
	"strings"
)

// Vis says who may see a fact, a die or a line of a decision's echo. The
// zero Vis is public: everyone who follows the game sees it. Otherwise
// only the viewers To names (a side, a player, or the referees alone) see
// it, until a reveal named Until opens it to everyone (a sealed order, a
// hand shown). Referees see everything, and when a game ends everything
// is revealed: its dice seed is then published, and with it every hidden
// roll and draw could be recomputed anyway.
//
// Two scopes are kept for good, never opened by a reveal or the game's
// end: what players write to each other (press). "kept:<id>" is for that
// player and the referees, "alone:<id>" for that player alone, not even
// the referees.
type Vis struct {
	To    string // "" (everyone), "side:<side>", "player:<id>", "referees", "kept:<id>" or "alone:<id>"
	Until string // the reveal that opens it to everyone; "" for the game's end
}

// The scopes of a Vis.
const (
	visSide     = "side:"
	visPlayer   = "player:"
	visReferees = "referees"
	visKept     = "kept:"
	visAlone    = "alone:"
)

// ToSide is visible to the players of side (and the referees).
func ToSide(side string) Vis { return Vis{To: visSide + side} }

// ToPlayer is visible to one player (and the referees).
func ToPlayer(id string) Vis { return Vis{To: visPlayer + id} }

// ToReferees is visible to the referees alone.
func ToReferees() Vis { return Vis{To: visReferees} }

// ToPlayerKept is visible to one player and the referees, for good: no
// reveal and not the game's end opens it.
func ToPlayerKept(id string) Vis { return Vis{To: visKept + id} }

// ToPlayerAlone is visible to one player alone, for good: not the
// referees, and no reveal and not the game's end opens it.
func ToPlayerAlone(id string) Vis { return Vis{To: visAlone + id} }

// Kept reports whether v is kept for good from everyone it does not
// name (ToPlayerKept, ToPlayerAlone).
func (v Vis) Kept() bool {
	return strings.HasPrefix(v.To, visKept) || strings.HasPrefix(v.To, visAlone)
}

// RefereesSee reports whether the referees may see v: everything but
// what is for one player alone (ToPlayerAlone).
func (v Vis) RefereesSee() bool { return !strings.HasPrefix(v.To, visAlone) }

// UntilReveal returns v opened to everyone by the reveal called name.
// A public Vis stays public.
func (v Vis) UntilReveal(name string) Vis {
	if v.To == "" {
		return v
	}
	v.Until = name
	return v
}

// Public reports whether everyone may see it.
func (v Vis) Public() bool { return v.To == "" }

// Side is the side v is visible to, if it is a side's.
func (v Vis) Side() (string, bool) { return strings.CutPrefix(v.To, visSide) }

// Player is the player v is visible to, if it is one player's (kept or
// not).
func (v Vis) Player() (string, bool) {
	for _, p := range []string{visPlayer, visKept, visAlone} {
		if id, ok := strings.CutPrefix(v.To, p); ok {
			return id, true
		}
	}
	return "", false
}

// Open reports whether a player (id, side) may see v before any reveal:
// v is public, or is theirs or their side's. Referees, reveals and the
// game's end are the runtime's to weigh (it knows them); this is the
// scope alone.
func (v Vis) Open(player, side string) bool {
	switch {
	case v.To == "":
		return true
	case strings.HasPrefix(v.To, visSide):
		return side != "" && v.To[len(visSide):] == side
	}
	if id, ok := v.Player(); ok {
		return player != "" && id == player
	}
	return false
}

// Valid reports whether v is one of the forms above.
func (v Vis) Valid() error {
	switch {
	case v.To == "":
		if v.Until != "" {
			return fmt.Errorf("vis: a public fact has no reveal (until %q)", v.Until)
		}
		return nil
	case v.To == visReferees:
	case strings.HasPrefix(v.To, visSide) && len(v.To) > len(visSide):
	case strings.HasPrefix(v.To, visPlayer) && len(v.To) > len(visPlayer):
	case (strings.HasPrefix(v.To, visKept) && len(v.To) > len(visKept) ||
		strings.HasPrefix(v.To, visAlone) && len(v.To) > len(visAlone)):
		if v.Until != "" {
			return fmt.Errorf("vis: %q is kept for good: no reveal opens it (until %q)", v.To, v.Until)
		}
	default:
		return fmt.Errorf("vis: %q is not everyone, side:<side>, player:<id>, referees, kept:<id> or alone:<id>", v.To)
	}
	return nil
}

// String reads "" for a public Vis, else "[to side:USA until volleys-3]".
func (v Vis) String() string {
	if v.To == "" {
		return ""
	}
	if v.Until == "" {
		return "[to " + v.To + "]"
	}
	return "[to " + v.To + " until " + v.Until + "]"
}

func (v Vis) encode(w *Writer) {
	w.String(v.To)
	w.String(v.Until)
}

func (v *Vis) decode(r *Reader) {
	v.To = r.String()
	v.Until = r.String()
	if r.err == nil {
		if err := v.Valid(); err != nil {
			r.fail(err.Error())
		}
	}
}

// encodeVisList writes the visibilities of n items: a count of 0 when
// every one is public (the usual case, one byte), else all n of them, so
// that one decision has one encoding.
func encodeVisList(w *Writer, n int, vis func(int) Vis) {
	all := true
	for i := 0; i < n; i++ {
		if !vis(i).Public() {
			all = false
			break
		}
	}
	if all {
		w.Uvarint(0)
		return
	}
	w.Uvarint(uint64(n))
	for i := 0; i < n; i++ {
		vis(i).encode(w)
	}
}

// visListFollows reads the count of a list of visibilities of n items
// and reports whether the n follow (0: all public, none written).
func visListFollows(r *Reader, n int) bool {
	k := r.count()
	switch {
	case r.err != nil || k == 0:
		return false
	case k != n:
		r.fail(fmt.Sprintf("%d visibilities for %d items", k, n))
		return false
	}
	return true
}

// decodeVisList reads what encodeVisList wrote for n items, calling set
// for each item that is not public.
func decodeVisList(r *Reader, n int, set func(int, Vis)) {
	if !visListFollows(r, n) {
		return
	}
	some := false
	for i := 0; i < n && r.err == nil; i++ {
		var v Vis
		v.decode(r)
		if !v.Public() {
			some = true
			set(i, v)
		}
	}
	if r.err == nil && !some {
		r.fail("a list of visibilities that are all public") // canonical: that is written as 0
	}
}

// skipVisList reads what encodeVisList wrote for n items and checks it
// as decodeVisList does, keeping nothing: a fold folds every fact,
// whoever may see it, and so needs no visibility (nor its strings).
func skipVisList(r *Reader, n int) {
	if !visListFollows(r, n) {
		return
	}
	some := false
	for i := 0; i < n && r.err == nil; i++ {
		to, until := r.view(), r.view()
		switch {
		case r.err != nil:
			return
		case !validUTF8(to) || !validUTF8(until):
			r.fail("utf-8 string")
			return
		case len(to) == 0 && len(until) > 0:
			r.fail(Vis{Until: string(until)}.Valid().Error())
			return
		case len(to) > 0 && !visShape(to):
			r.fail(Vis{To: string(to)}.Valid().Error())
			return
		case len(until) > 0 && Vis{To: string(to)}.Kept():
			r.fail(Vis{To: string(to), Until: string(until)}.Valid().Error())
			return
		}
		some = some || len(to) > 0
	}
	if r.err == nil && !some {
		r.fail("a list of visibilities that are all public") // canonical: that is written as 0
	}
}

// visShape reports whether to, not empty, is one of Vis.To's forms
// (as Vis.Valid checks them, on the bytes).
func visShape(to []byte) bool {
	// string(…) == … compares without allocating.
	return string(to) == visReferees ||
		len(to) > len(visSide) && string(to[:len(visSide)]) == visSide ||
		len(to) > len(visPlayer) && string(to[:len(visPlayer)]) == visPlayer ||
		len(to) > len(visKept) && string(to[:len(visKept)]) == visKept ||
		len(to) > len(visAlone) && string(to[:len(visAlone)]) == visAlone
}

// CompactVis returns vs, or nil when every one is public (a decision's
// EchoVis is nil then, as it decodes).
func CompactVis(vs []Vis) []Vis {
	for _, v := range vs {
		if !v.Public() {
			return vs
		}
	}
	return nil
}

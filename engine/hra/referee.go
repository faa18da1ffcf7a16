package hra

import (
	"fmt"
	"strings"

	"pbem/engine/table"
	"pbem/events"
)

// referee applies SET lines: any field of the state, as an explicit fact
// whose echo says what changed, so that a correction is in the log and
// the referee sees what it did.
func (m *sim) referee(os []Order) []events.Problem {
	for _, o := range os {
		if o.Kind != oSet {
			return []events.Problem{problem(o, "the referee sends SET <unit or brigade> <field> <value>", "e.g. SET 2nd Wisconsin STATE 2")}
		}
		if err := m.set(o); err != nil {
			return []events.Problem{problem(o, err.Error(), "")}
		}
	}
	return nil
}

func onOff(v int64) string {
	if v != 0 {
		return "on"
	}
	return "off"
}

func (m *sim) set(o Order) error {
	st := m.State
	f := strings.ToLower(o.Field)
	if o.Name == "game" {
		switch f {
		case "round":
			m.Emit(kRefereeSet, aField.Arg(f), aFrom.Arg(int64(st.Round)), aTo.Arg(o.Ints[0]))
			m.Say("SET round %d → %d", st.Round, o.Ints[0])
		case "initiative":
			undecided := st.Phase == PhaseOrders && st.Initiative == ""
			m.Emit(kRefereeSet, aField.Arg(f), aWord.Arg(o.Word))
			m.Say("SET initiative %s → %s", st.Initiative, o.Word)
			if undecided {
				m.openRound() // the round waited for it (H12)
			}
		}
		return nil
	}
	if b := st.brigade(o.Name); b != nil {
		switch f {
		case "general":
			m.Emit(kRefereeSet, aBrigade.Arg(b.Name), aField.Arg(f), aFrom.Arg(int64(b.Status)), aTo.Arg(o.Ints[0]))
			m.Say("SET %s general %d → %d", b.Name, b.Status, o.Ints[0])
		case "with":
			if st.unit(o.Word).Brigade != b.Name {
				return fmt.Errorf("%s is not of %s", o.Word, b.Name)
			}
			m.Emit(kRefereeSet, aBrigade.Arg(b.Name), aField.Arg(f), aWord.Arg(o.Word))
			m.Say("SET %s general with %s → %s", b.Name, b.With, o.Word)
		case "supply":
			for _, u := range st.brigadeUnits(b.Name) {
				m.Emit(kRefereeSet, aUnit.Arg(u.Name), aField.Arg(f), aFrom.Arg(int64(u.Supply)), aTo.Arg(o.Ints[0]))
				m.Say("SET %s supply %d → %d", u.Name, u.Supply, o.Ints[0])
			}
		}
		return nil
	}
	u := st.unit(o.Name)
	switch f {
	case "pos":
		p := table.Pt(table.Length(o.Ints[0]), table.Length(o.Ints[1]))
		m.Emit(kRefereeSet, aUnit.Arg(u.Name), aField.Arg(f), aX.Arg(o.Ints[0]), aY.Arg(o.Ints[1]))
		m.Say("SET %s pos %v %v → %v %v", u.Name, u.Front.X, u.Front.Y, p.X, p.Y)
	case "facing":
		m.Emit(kRefereeSet, aUnit.Arg(u.Name), aField.Arg(f), aFrom.Arg(int64(u.Facing)), aTo.Arg(o.Ints[0]))
		m.Say("SET %s facing %v → %v", u.Name, u.Facing, table.Angle(o.Ints[0]))
	case "column", "limbered", "dismounted", "retreating", "entrenched":
		old := map[string]bool{"column": u.Column, "limbered": u.Limbered, "dismounted": u.Dismounted, "retreating": u.Retreating, "entrenched": u.Entrenched}[f]
		m.Emit(kRefereeSet, aUnit.Arg(u.Name), aField.Arg(f), aFrom.Arg(b2i(old)), aTo.Arg(o.Ints[0]))
		m.Say("SET %s %s %s → %s", u.Name, f, onOff(b2i(old)), onOff(o.Ints[0]))
	default:
		old := map[string]int{"state": u.State, "supply": u.Supply, "busy": u.Busy, "charges": u.Charges}[f]
		args := []events.Arg{aUnit.Arg(u.Name), aField.Arg(f), aFrom.Arg(int64(old)), aTo.Arg(o.Ints[0])}
		if f == "busy" {
			args = append(args, aWork.Arg(u.Work))
		}
		m.Emit(kRefereeSet, args...)
		m.Say("SET %s %s %d → %d", u.Name, f, old, o.Ints[0])
	}
	return nil
}

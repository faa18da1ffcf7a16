package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
)

// CombatTable is a house rule standing in for the combat procedure the
// seed names but never gives (the Assault action of GCACW 5b, the attack
// that ends a march in 5.1.5, the Grand Assault of 2.2k/l; gcacw.md R10,
// Ambiguity A25). A scenario's [combat] section gives it, and then an
// assault needs no referee:
//
//   - the attack is the Combat values (2.2o) of the attacking units added
//     up, the defence those of the enemy units in the hex attacked; the
//     column is the highest odds the attack reaches (the first column if
//     it reaches none);
//   - one die, plus: the active leader's tactical value (2.2m), the best
//     attacking Tactical value less the best defending one (2.2h), +1 if
//     the attackers' Artillery values (2.2h) add up to more than the
//     defenders' and -1 if to less, and the table's own DRMs (the terrain
//     of the hex attacked, a hexside every attacker crosses, a Grand
//     Assault);
//   - the row is the modified roll; its result is read for the column.
//
// Results: NE nothing; An / Dn the attacker / defender loses n Manpower
// (from its unit with the most); Ad / Dd every attacking / defending unit
// is disorganized; Dr the defenders retreat Retreat hexes. A hex the
// defenders leave empty is entered by the attacking unit with the most
// Manpower. Afterwards each attacking unit's fatigue rises by Attacker,
// each defending unit's by Defender (at most to 4).
type CombatTable struct {
	Columns  []Odds      `json:"columns"`
	Rows     []CombatRow `json:"rows"` // ascending rolls: the first is "or less", the last "or more"
	DRMs     []CombatDRM `json:"drms,omitempty"`
	Attacker int         `json:"fatigue_attacker,omitempty"`
	Defender int         `json:"fatigue_defender,omitempty"`
	Retreat  int         `json:"retreat"`
}

// Odds is a column: attack A to defence D ("3-2").
type Odds struct {
	A int `json:"a"`
	D int `json:"d"`
}

func (o Odds) String() string { return fmt.Sprintf("%d-%d", o.A, o.D) }

// CombatRow is the results for one modified roll, one per column; a
// result is NE or parts joined by '/': A1, D2, Ad, Dd, Dr.
type CombatRow struct {
	Roll    int      `json:"roll"`
	Results []string `json:"results"`
}

// CombatDRM is one of the table's die-roll modifiers: on the terrain of
// the hex attacked, on a hexside feature every attacker crosses, or on a
// Grand Assault.
type CombatDRM struct {
	Value   int    `json:"value"`
	Terrain string `json:"terrain,omitempty"`
	Hexside string `json:"hexside,omitempty"`
	Grand   bool   `json:"grand,omitempty"`
}

// source is what a DRM is called in a die line.
func (d CombatDRM) source() string {
	switch {
	case d.Terrain != "":
		return d.Terrain + " (house rule)"
	case d.Hexside != "":
		return "across " + d.Hexside + " (house rule)"
	}
	return "Grand Assault (house rule)"
}

// combatPart checks one part of a result.
func combatPart(p string) bool {
	switch p {
	case "NE", "Ad", "Dd", "Dr":
		return true
	}
	if len(p) == 2 && (p[0] == 'A' || p[0] == 'D') && p[1] >= '1' && p[1] <= '9' {
		return true
	}
	return false
}

// parseOdds reads a column, "3-2".
func parseOdds(s string) (Odds, error) {
	a, d, ok := strings.Cut(s, "-")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(d)
	if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 {
		return Odds{}, fmt.Errorf("column %q: write odds as attack-defence, e.g. 1-2, 1-1, 3-2, 2-1", s)
	}
	return Odds{x, y}, nil
}

func (t *Tables) parseCombat(lines []srcLine) []error {
	var errs []error
	ct := &CombatTable{Retreat: 1}
	for _, l := range lines {
		head := strings.ToLower(l.Toks[0].Text)
		switch {
		case head == "columns":
			if ct.Columns != nil {
				errs = append(errs, l.errf("the columns are given twice"))
				continue
			}
			for _, tk := range l.Toks[1:] {
				o, err := parseOdds(tk.Text)
				if err != nil {
					errs = append(errs, l.errf("%s", err))
					continue
				}
				if n := len(ct.Columns); n > 0 && o.A*ct.Columns[n-1].D <= ct.Columns[n-1].A*o.D {
					errs = append(errs, l.errf("column %s: the columns go from the lowest odds to the highest", o))
				}
				ct.Columns = append(ct.Columns, o)
			}
		case head == "drm":
			d, err := parseCombatDRM(l)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ct.DRMs = append(ct.DRMs, d)
		case head == "fatigue":
			kv, words, err := lineKV(l, "attacker", "defender")
			if err == nil && len(words) > 0 {
				err = l.errf("write \"fatigue attacker=1 defender=0\"")
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			a, err1 := strconv.Atoi(orZero(kv["attacker"]))
			d, err2 := strconv.Atoi(orZero(kv["defender"]))
			if err1 != nil || err2 != nil || a < 0 || a > 4 || d < 0 || d > 4 {
				errs = append(errs, l.errf("fatigue attacker= and defender= are 0 to 4"))
				continue
			}
			ct.Attacker, ct.Defender = a, d
		case head == "retreat":
			kv, words, err := lineKV(l, "hexes")
			n, err2 := strconv.Atoi(kv["hexes"])
			if err != nil || len(words) > 0 || err2 != nil || n < 1 || n > 4 {
				errs = append(errs, l.errf("write \"retreat hexes=1\": how far a Dr result retreats the defenders (1 to 4)"))
				continue
			}
			ct.Retreat = n
		default:
			if ct.Columns == nil {
				errs = append(errs, l.errf("give the columns first, e.g. \"columns 1-2 1-1 3-2 2-1 3-1\""))
				continue
			}
			roll, rest := l.Toks[0], l.Toks[1:]
			if roll.Punct && (roll.Text == "<=" || roll.Text == ">=") && len(l.Toks) > 1 {
				roll, rest = l.Toks[1], l.Toks[2:]
			}
			n, err := strconv.Atoi(roll.Text)
			if err != nil {
				errs = append(errs, l.errf("a row starts with a modified roll (4, <=1 or >=7), not %q", roll.Text))
				continue
			}
			if len(rest) != len(ct.Columns) {
				errs = append(errs, l.errf("roll %d has %d results for %d columns", n, len(rest), len(ct.Columns)))
				continue
			}
			if k := len(ct.Rows); k > 0 && ct.Rows[k-1].Roll >= n {
				errs = append(errs, l.errf("roll %d: the rows go from the lowest roll to the highest", n))
				continue
			}
			row := CombatRow{Roll: n}
			for _, tk := range rest {
				for _, p := range strings.Split(tk.Text, "/") {
					if !combatPart(p) {
						errs = append(errs, l.errf("result %q: write NE, or A1..A9, D1..D9, Ad, Dd, Dr joined by / (e.g. D1/Dr)", tk.Text))
						break
					}
				}
				row.Results = append(row.Results, tk.Text)
			}
			ct.Rows = append(ct.Rows, row)
		}
	}
	if len(ct.Rows) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the [combat] table has no rows"))
	}
	t.Combat = ct
	return errs
}

func parseCombatDRM(l srcLine) (CombatDRM, error) {
	if len(l.Toks) < 3 {
		return CombatDRM{}, l.errf("a combat DRM is \"drm -1 terrain=woods\", \"drm -1 hexside=creek\" or \"drm +1 grand\"")
	}
	v, err := strconv.Atoi(strings.TrimPrefix(l.Toks[1].Text, "+"))
	if err != nil || v == 0 {
		return CombatDRM{}, l.errf("DRM %q is not a number like +1 or -1", l.Toks[1].Text)
	}
	d := CombatDRM{Value: v}
	rest := srcLine{File: l.File, No: l.No, Toks: l.Toks[1:], Raw: l.Raw}
	kv, words, err := lineKV(rest, "terrain", "hexside")
	if err != nil {
		return CombatDRM{}, err
	}
	switch {
	case len(words) == 1 && strings.EqualFold(words[0].Text, "grand") && len(kv) == 0:
		d.Grand = true
	case len(words) == 0 && len(kv) == 1 && kv["terrain"] != "":
		d.Terrain = strings.ToLower(kv["terrain"])
		if !slices.Contains(TerrainTypes, d.Terrain) {
			return CombatDRM{}, l.errf("terrain=%s: the terrain types are %s", d.Terrain, strings.Join(TerrainTypes, ", "))
		}
	case len(words) == 0 && len(kv) == 1 && kv["hexside"] != "":
		d.Hexside = strings.ToLower(kv["hexside"])
		if !slices.Contains(HexsideFeatures, d.Hexside) {
			return CombatDRM{}, l.errf("hexside=%s: the hexside features are %s", d.Hexside, strings.Join(HexsideFeatures, ", "))
		}
	default:
		return CombatDRM{}, l.errf("a combat DRM takes one condition: terrain=…, hexside=… or grand")
	}
	return d, nil
}

// column finds the column an attack reaches: the highest odds with
// attack/defence at least A/D (the first if none). Values are in halves.
func (ct *CombatTable) column(attack, defence int) int {
	col := 0
	for i, o := range ct.Columns {
		if attack*o.D >= defence*o.A {
			col = i
		}
	}
	return col
}

// result reads the table for a modified roll and a column.
func (ct *CombatTable) result(roll, col int) string {
	r := ct.Rows[0]
	for _, row := range ct.Rows {
		if row.Roll <= roll {
			r = row
		}
	}
	return r.Results[col]
}

// combatHalves is a unit's Combat value in halves (GCACW 2.2o): its
// Manpower when organized; disorganized, the Strength table's value (R3),
// or half its Manpower without one.
func (st *State) combatHalves(u *Unit) int {
	if !u.Disorganized {
		return 2 * u.Manpower
	}
	for _, sv := range st.Scn.Tables.Strength {
		if sv.Manpower == u.Manpower {
			return sv.DisorgHalf
		}
	}
	return u.Manpower
}

// resultWords says what a combat result does, in words.
func resultWords(res string) string {
	var out []string
	for _, p := range strings.Split(res, "/") {
		switch {
		case p == "NE":
			out = append(out, "no effect")
		case p == "Ad":
			out = append(out, "the attackers are disorganized")
		case p == "Dd":
			out = append(out, "the defenders are disorganized")
		case p == "Dr":
			out = append(out, "the defenders retreat")
		case p[0] == 'A':
			out = append(out, "the attacker loses "+p[1:]+" Manpower")
		case p[0] == 'D':
			out = append(out, "the defender loses "+p[1:]+" Manpower")
		}
	}
	return andList(out)
}

// hexsideCrossed reports whether the hexside between a and b has feature f.
func (st *State) hexsideCrossed(a, b hex.Hex, f string) bool {
	s, err := hex.Between(a, b)
	return err == nil && st.Scn.Map.SideHas(s, f)
}

package gcacw

import (
	"fmt"
	"slices"
	"strings"
)

// Where the seed can be read more than one way (gcacw.md, "Ambiguities"),
// the reading gcacw.md finds most plausible is the default, and a
// scenario may choose another with a line
//
//	reading A9 exhaust
//
// Each reading names the ambiguity (or the rule) it settles; the welcome
// mail lists every reading a game is played with.

// Reading is one ambiguity and the ways it may be read, the default first.
type Reading struct {
	ID      string // A9, A12, …, 2.4c, R15
	Rule    string // the rules it touches
	Choices []ReadingChoice
}

// ReadingChoice is one way to read an ambiguity.
type ReadingChoice struct {
	Name string // as the scenario writes it
	Text string // what it means, as the welcome mail says it
}

// The readings a scenario may choose, by ID.
const (
	ReadA9   = "A9"
	ReadA12  = "A12"
	ReadA15  = "A15"
	ReadA18  = "A18"
	ReadA26  = "A26"
	Read24c  = "2.4c"
	ReadR15  = "R15"
	readDflt = 0
)

// Readings lists every reading a scenario may choose, in the order the
// welcome mail shows them.
var Readings = []Reading{
	{ID: ReadA9, Rule: "GCACW 5.1-OPT, 5.2.2-OPT", Choices: []ReadingChoice{
		{"stay", "a unit that marches at fatigue 4 under the optional rule stays at fatigue 4"},
		{"exhaust", "a unit that marches at fatigue 4 under the optional rule stays at fatigue 4, and the fatigue it cannot take turns its counter to the exhausted side"},
	}},
	{ID: ReadA12, Rule: "GCACW 5.1.1", Choices: []ReadingChoice{
		{"no-minimum", "Union infantry and artillery march 1d6 MP, so an MA of 1 stands"},
		{"minimum-2", "Union infantry and artillery march 1d6 MP with a minimum of 2, as the OTR/AGA Confederate exception"},
	}},
	{ID: ReadA15, Rule: "GCACW 5.2.2b", Choices: []ReadingChoice{
		{"radius", "artillery outside a leader's command joins its activation only within its command radius"},
		{"anywhere", "artillery outside a leader's command joins its activation wherever it stands"},
	}},
	{ID: ReadA18, Rule: "GCACW 5.2d, 5.2.2-OPT", Choices: []ReadingChoice{
		{"needs-eligible", "a unit at fatigue 4 joins a Leader Activation only when a unit at fatigue 3 or less makes the leader eligible"},
		{"counts", "an organized unit at fatigue 4 in the command radius makes its leader eligible under the optional rule"},
	}},
	{ID: ReadA26, Rule: "GCACW 4.2d, 4.4b", Choices: []ReadingChoice{
		{"march-or-activate", "a unit is eligible when it can March or be activated by a leader"},
		{"any-unit", "every unit on the map is eligible, whatever its fatigue (a side with units is never passed over without a roll)"},
	}},
	{ID: Read24c, Rule: "GCACW 2.4c (Ambiguity A20)", Choices: []ReadingChoice{
		{"swamp-only", "ZOC enters swamp (not provisional swamp) and mountain hexes only along a road, pike, railroad or trail"},
		{"provisional-swamp", "ZOC enters swamp, provisional swamp and mountain hexes only along a road, pike, railroad or trail"},
	}},
	{ID: ReadR15, Rule: "GCACW 3, phase 2", Choices: []ReadingChoice{
		{"anywhere", "in the Leader Transfer Phase a leader may go to any unit it commands, wherever it stands"},
		{"command-radius", "in the Leader Transfer Phase a leader may go only to a unit it commands within its command radius"},
	}},
}

func readingByID(id string) (Reading, bool) {
	for _, r := range Readings {
		if strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return Reading{}, false
}

func (r Reading) names() []string {
	var ns []string
	for _, c := range r.Choices {
		ns = append(ns, c.Name)
	}
	return ns
}

// Reading returns the reading the scenario plays ambiguity id with: the
// one it chose, or the default.
func (s *ScenarioDef) Reading(id string) string {
	for _, c := range s.Readings {
		if c.ID == id {
			return c.Name
		}
	}
	if r, ok := readingByID(id); ok {
		return r.Choices[readDflt].Name
	}
	return ""
}

// ChosenReading is a reading the scenario chose.
type ChosenReading struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// parseReading reads a "reading <ID> <choice>" line.
func (p *scnParser) parseReading(l srcLine) {
	ids := make([]string, len(Readings))
	for i, r := range Readings {
		ids[i] = r.ID
	}
	if len(l.Toks) != 3 {
		p.errf(l, "write the ambiguity and the reading, e.g. \"reading A9 exhaust\" (ambiguities: %s)", strings.Join(ids, ", "))
		return
	}
	r, ok := readingByID(l.Toks[1].Text)
	if !ok {
		p.errf(l, "%q is not an ambiguity a scenario may read another way (%s)", l.Toks[1].Text, strings.Join(ids, ", "))
		return
	}
	name := strings.ToLower(l.Toks[2].Text)
	if !slices.Contains(r.names(), name) {
		p.errf(l, "reading %s %q: the readings are %s (%s is the default)", r.ID, l.Toks[2].Text, strings.Join(r.names(), ", "), r.Choices[readDflt].Name)
		return
	}
	for _, c := range p.s.Readings {
		if c.ID == r.ID {
			p.errf(l, "reading %s is given twice", r.ID)
			return
		}
	}
	p.s.Readings = append(p.s.Readings, ChosenReading{ID: r.ID, Name: name})
}

// readingLines are the readings a game plays with, one line each, for the
// welcome mail: every ambiguity, its reading, and whether the scenario
// chose it.
func (s *ScenarioDef) readingLines() []string { return s.readingLinesAs(true) }

// readingLinesAs is readingLines, each line led by its reading's id (for
// the operator, who writes "reading A9 exhaust") or not (for players, who
// read the rules' own numbers only).
func (s *ScenarioDef) readingLinesAs(withID bool) []string {
	var out []string
	for _, r := range Readings {
		name := s.Reading(r.ID)
		text, how := "", "default"
		for i, c := range r.Choices {
			if c.Name == name {
				text = c.Text
				if i != readDflt {
					how = "chosen by the scenario"
				}
			}
		}
		if !withID {
			out = append(out, fmt.Sprintf("%s (%s): %s.", r.Rule, how, text))
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s, %s): %s.", r.ID, r.Rule, how, text))
	}
	return out
}

// provisionalSwampBlocksZOC reports whether provisional swamp counts as
// swamp for GCACW 2.4c (Ambiguity A20): the reading, or the older
// scenario option that says the same.
func (s *ScenarioDef) provisionalSwampBlocksZOC() bool {
	return s.Reading(Read24c) == "provisional-swamp" || s.Option(OptProvisionalSwampZOC)
}
